/*
 * tools/tgc.c - the tgc driver: dispatches to the commands of commands.def.
 *
 *   tgc COMMAND [options] [FILE...]     run a command
 *   tgc help [COMMAND]                  the list of commands, or one command's options
 *   tgc --help | --version
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "progress.h"

typedef struct Command {
    const char *name;
    const CliSpec *const *spec; /* the command's options (a pointer each cmd_*.c sets) */
    int (*fn)(Cli *c);
    const char *summary;
} Command;

static const Command commands[] = {
#define CMD(name, fn, summary) {#name, &fn##_spec, fn, summary},
#include "commands.def"
#undef CMD
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void
usage(FILE *f)
{
    fputs("usage: tgc COMMAND [options] [FILE...]\n"
          "       tgc help COMMAND | --help | --version\n\n"
          "tgc compiles task graphs into multithreaded C for multi-DSP boards.\n\n"
          "commands:\n",
          f);
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fputs("\nrun 'tgc help COMMAND' for the options of a command; the manual is tgc(1) "
          "(man tgc)\n",
          f);
}

static const Command *
find(const char *name)
{
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

/* Parses argv (argv[0] = the command's name) with the command's options and runs it. */
static int
run(const Command *cmd, int argc, char **argv)
{
    Cli c;
    int status;
    if (!cli_parse(&c, *cmd->spec, argc, argv, &status))
        return status;
    status = cmd->fn(&c);
    cli_free(&c);
    return status;
}

static int
unknown(const char *name)
{
    const char *names[NCOMMANDS + 1];
    for (size_t i = 0; i < NCOMMANDS; i++)
        names[i] = commands[i].name;
    const char *hint = diag_suggest(name, names, NCOMMANDS);
    if (hint)
        cli_error("unknown command \"%s\" (did you mean \"%s\"?)", name, hint);
    else
        cli_error("unknown command \"%s\"", name);
    fputs("run 'tgc --help' for the list of commands\n", stderr);
    return TGC_EXIT_USAGE;
}

int
main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return TGC_EXIT_USAGE;
    }
    const char *a = argv[1];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0 ||
        (strcmp(a, "help") == 0 && argc == 2)) {
        usage(stdout);
        return TGC_EXIT_OK;
    }
    if (strcmp(a, "--version") == 0) {
        printf("tgc %s\n", TGC_VERSION);
        return TGC_EXIT_OK;
    }
    if (strcmp(a, "help") == 0) {
        if (argc > 3) {
            fputs("tgc: error: 'tgc help' takes one command\n"
                  "run 'tgc --help' for the list of commands\n",
                  stderr);
            return TGC_EXIT_USAGE;
        }
        const Command *c = find(argv[2]);
        if (!c)
            return unknown(argv[2]);
        char *hargv[] = {argv[2], "--help", NULL};
        return run(c, 2, hargv);
    }
    if (a[0] == '-') {
        cli_error("unknown option \"%s\" (options follow the command)", a);
        fputs("run 'tgc --help' for the list of commands\n", stderr);
        return TGC_EXIT_USAGE;
    }
    const Command *c = find(a);
    if (!c)
        return unknown(a);
    int rc = run(c, argc - 1, argv + 1);
    progress_end();
    if (rc == TGC_EXIT_INPUT && ir_usage_error)
        rc = TGC_EXIT_USAGE; /* --dsps 5 on boards of 4 is bad usage, as --dsps 0 is */
    return rc;
}
