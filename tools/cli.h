/*
 * tools/cli.h - what the commands of the tgc driver share: option parsing in the manner
 * of gcc and clang, usage errors, diagnostics to stderr, JSON on stdout; output files go
 * through tools/output.h.
 *
 * Conventions (docs/cli.md): exit status 0 = success, 1 = bad input (every error of the
 * pass printed first), 2 = bad usage.  `-o FILE` names the output ("-" = stdout), `--`
 * ends the options, an operand "-" is standard input, `--opt=value` and `--opt value` are
 * the same, `--json` prints the results as one JSON object on stdout.  A failed run never
 * leaves a partial output file.
 *
 * A command looks like this:
 *
 *     static const CliOption own[] = {{"seed", "N", "random seed (default 1)"}, {NULL}};
 *     static const CliSpec spec = {
 *         "schedule", "FILE", "Map and order ...\n",
 *         CLI_OUTPUT | CLI_PLATFORM | CLI_LIMITS | CLI_JSON, own, 1, 1};
 *     const CliSpec *const cmd_schedule_spec = &spec;
 *     int cmd_schedule(Cli *c) {
 *         int64_t seed = 1;
 *         if (c->val[0] && !cli_int_value(&spec, "--seed", c->val[0], 0, 99, &seed))
 *             return TGC_EXIT_USAGE;
 *         ...
 *         return status;
 *     }
 *
 * The driver (tgc.c) parses argv with the command's spec (cli_parse: --help, usage
 * errors), runs the command on what it parsed and frees it (cli_free).
 */
#ifndef TGC_CLI_H
#define TGC_CLI_H

#include <jansson.h>

#include "ir.h"
#include "output.h"

typedef struct Cli Cli;
typedef struct CliSpec CliSpec;
/* Every command of commands.def: its options (fn_spec, which the driver parses argv
 * with) and the command, run on what they parsed; returns the exit status. */
#define CMD(name, fn, summary)                                                           \
    extern const CliSpec *const fn##_spec;                                               \
    int fn(Cli *c);
#include "commands.def"
#undef CMD

/* The exit statuses of every tool (docs/cli.md, "Exit status"): the same in tgc,
 * mpirio-run and the generated programs. */
enum { TGC_EXIT_OK = 0, TGC_EXIT_INPUT = 1, TGC_EXIT_USAGE = 2, TGC_EXIT_DEADLOCK = 3 };

/* The common options a command accepts: a mask in CliSpec.common. */
enum {
    CLI_OUTPUT = 1 << 0,     /* -o FILE -> Cli.output */
    CLI_PLATFORM = 1 << 1,   /* --platform P, --dsps N -> Cli.opt.platform, .dsps */
    CLI_ITERATIONS = 1 << 2, /* --iterations N -> Cli.opt.iterations */
    CLI_LIMITS = 1 << 3,     /* --max-tasks --max-edges --max-dsps --max-iterations
                                --max-file-size -> Cli.opt.limits */
    CLI_JSON = 1 << 4,       /* --json -> Cli.json */
    CLI_KERNELS = 1 << 5,    /* the command reads the kernel files (Options.read_kernels):
                                --kernel-path DIR (repeatable) -> Cli.opt.kernel_dirs */
    CLI_CONTENTION = 1 << 6, /* --no-contention -> Cli.opt.no_contention */
    CLI_OUTPUT_DIR = 1 << 7, /* with CLI_OUTPUT: -o names a folder (no "-") */
};

/* An option of one command. */
typedef struct CliOption {
    const char *name; /* "seed" for --seed; one letter for a short option ("O" for -O) */
    const char *metavar; /* the value's name in help ("N"); NULL for a flag */
    const char *help;    /* one line */
} CliOption;

struct CliSpec {
    const char *name;       /* the command: "check" */
    const char *args;       /* operands in the usage line: "FILE..." */
    const char *about;      /* what the command does, for --help; lines end with "\n" */
    unsigned common;        /* CLI_* mask */
    const CliOption *opts;  /* the command's own options, ended by {NULL}; or NULL */
    int min_args, max_args; /* operand count; max_args -1 = no maximum */
};

struct Cli {
    Options opt;        /* limits, platform, dsps, iterations; defaults when not given */
    const char *output; /* -o FILE, or NULL */
    bool json;          /* --json */
    char **args;        /* operands in order ("-" = standard input) */
    int nargs;
    const char **val; /* [one per spec->opts entry] the value given last, "" for a flag
                         given, NULL when absent */
    const char **kernel_dirs; /* the --kernel-path values (Cli.opt.kernel_dirs) */
};

/* Parses argv (argv[0] = the command's name).  Returns true to go on.  Returns false with
 * *status = 0 after printing --help, 2 after printing a usage error, or 1 after printing
 * the errors of the --platform file (read once here, then again by each graph's loader).
 */
bool cli_parse(Cli *c, const CliSpec *spec, int argc, char **argv, int *status);
void cli_free(Cli *c);
/* The command's --help text. */
void cli_help(FILE *f, const CliSpec *spec);
/* Prints "tgc: error: MSG" and "run 'tgc help NAME' for the options" to stderr;
 * returns 2. */
int cli_usage(const CliSpec *spec, const char *fmt, ...) TGC_PRINTF(2, 3);
/* Prints "tgc: error: MSG" (one line, its control characters escaped as in every
 * message, ir/diag.c) to stderr. */
void cli_error(const char *fmt, ...) TGC_PRINTF(1, 2);
/* Parses the decimal integer value of option `opt`; a usage error (printed) when it is
 * not one or lies outside [lo, hi]. */
bool cli_int_value(const CliSpec *spec, const char *opt, const char *text, int64_t lo,
                   int64_t hi, int64_t *out);
/* --search-objective=plain|pipelined (text may be NULL: the default, pipelined) into
 * opt->search_plain; a usage error printed and false on any other word. */
bool cli_search_objective(const CliSpec *spec, const char *text, Options *opt);
/* The help line of that option, for the commands' option tables. */
#define CLI_SEARCH_OBJECTIVE_OPTION                                                      \
    {                                                                                    \
        "search-objective", "plain|pipelined",                                           \
            "local search judges the length as scheduled, or (default) also with every " \
            "receive pipelined that cp pipelines"                                        \
    }
/* Writes the messages of d not yet written to stderr; returns 1 when d holds errors, else
 * 0 (an exit status). */
int cli_report(Diag *d);
/* Prints o as one JSON document on stdout: keys in insertion order (build objects in a
 * fixed order), two-space indent, reals with 10 significant digits, a final newline.
 * Does not take the reference.  Returns 0, or 1 when stdout fails. */
int cli_print_json(const json_t *o);
/* "s" unless n is 1: "%d message%s", n, cli_s(n) */
static inline const char *
cli_s(long long n)
{
    return n == 1 ? "" : "s";
}
/* The "platform" object of every command's --json: name, model, dsps, boards. */
json_t *cli_platform_json(const Platform *p);

#endif /* TGC_CLI_H */
