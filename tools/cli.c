/*
 * tools/cli.c - option parsing, usage errors and JSON output shared by the commands of
 * the tgc driver (see cli.h for the conventions; files are written by tools/output.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "progress.h"

/* The common options: name, metavar, help, the CLI_* bit that enables them. */
typedef struct Common {
    const char *name, *metavar, *help;
    unsigned bit;
} Common;

enum {
    C_OUTPUT,
    C_PLATFORM,
    C_DSPS,
    C_ITERATIONS,
    C_JSON,
    C_NO_CONTENTION,
    C_MAX_TASKS,
    C_MAX_EDGES,
    C_MAX_DSPS,
    C_MAX_ITERATIONS,
    C_MAX_FILE,
    C_KERNEL_PATH,
    NCOMMON
};

static const Common common[NCOMMON] = {
    [C_OUTPUT] = {"o", "FILE", "write the output to FILE (\"-\" = standard output)",
                  CLI_OUTPUT},
    [C_PLATFORM] = {"platform", "P",
                    "platform preset or tgc-platform/1 file (overrides the graph's)",
                    CLI_PLATFORM},
    [C_DSPS] = {"dsps", "N", "resize the platform to N DSPs", CLI_PLATFORM},
    [C_ITERATIONS] = {"iterations", "N", "run N iterations (overrides the graph's)",
                      CLI_ITERATIONS},
    [C_JSON] = {"json", NULL, "print the results as one JSON object on standard output",
                CLI_JSON},
    [C_NO_CONTENTION] = {"no-contention", NULL,
                         "links without contention: the evaluator's contention-free "
                         "model (the runtime's --no-contention)",
                         CLI_CONTENTION},
    [C_MAX_TASKS] = {"max-tasks", "N", "refuse graphs of more than N tasks (100000)",
                     CLI_LIMITS},
    [C_MAX_EDGES] = {"max-edges", "N", "refuse graphs of more than N edges (1000000)",
                     CLI_LIMITS},
    [C_MAX_DSPS] = {"max-dsps", "N", "refuse platforms of more than N DSPs (4096)",
                    CLI_LIMITS},
    [C_MAX_ITERATIONS] = {"max-iterations", "N",
                          "refuse more than N iterations (1000000000)", CLI_LIMITS},
    [C_MAX_FILE] = {"max-file-size", "BYTES",
                    "refuse input files larger than BYTES (268435456)", CLI_LIMITS},
    [C_KERNEL_PATH] = {"kernel-path", "DIR",
                       "kernel files may also be inside DIR (repeatable; by default only "
                       "inside the graph's folder)",
                       CLI_KERNELS},
};

/* "tgc: error: MSG" on stderr through a Diag, so that MSG is escaped as every message is
 * (ir/diag.c: a control character in a quoted argument never reaches the terminal). */
static void
verror(const char *fmt, va_list ap)
{
    Diag *d = diag_new();
    Loc l = {.file = "tgc"};
    diag_vreport(d, DIAG_ERROR, &l, fmt, ap);
    fputs(diag_text(d), stderr);
    diag_free(d);
}

void
cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    verror(fmt, ap);
    va_end(ap);
}

int
cli_usage(const CliSpec *spec, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    verror(fmt, ap);
    va_end(ap);
    fprintf(stderr, "run 'tgc help %s' for the options\n", spec->name);
    return TGC_EXIT_USAGE;
}

bool
cli_int_value(const CliSpec *spec, const char *opt, const char *text, int64_t lo,
              int64_t hi, int64_t *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (!*text || *end) {
        cli_usage(spec, "option \"%s\" needs an integer, got \"%s\"", opt, text);
        return false;
    }
    bool range = errno == ERANGE;
    if (range || v < lo || v > hi) {
        bool unbounded = hi == INT64_MAX || hi == INT_MAX;
        if (unbounded && (range ? v < 0 : v < lo))
            cli_usage(spec, "option \"%s\" must be at least %lld, got %s", opt,
                      (long long)lo, text);
        else if (unbounded)
            cli_usage(spec, "option \"%s\" must be at most %lld, got %s", opt,
                      (long long)hi, text);
        else
            cli_usage(spec, "option \"%s\" must be between %lld and %lld, got %s", opt,
                      (long long)lo, (long long)hi, text);
        return false;
    }
    *out = v;
    return true;
}

static void
opt_line(FILE *f, const char *name, const char *metavar, const char *help)
{
    char left[64];
    if (strlen(name) == 1)
        snprintf(left, sizeof left, "-%s%s%s", name, metavar ? " " : "",
                 metavar ? metavar : "");
    else
        snprintf(left, sizeof left, "--%s%s%s", name, metavar ? "=" : "",
                 metavar ? metavar : "");
    if (strlen(left) < 22)
        fprintf(f, "  %-22s %s\n", left, help);
    else
        fprintf(f, "  %s\n  %-22s %s\n", left, "", help);
}

void
cli_help(FILE *f, const CliSpec *spec)
{
    fprintf(f, "usage: tgc %s [options]%s%s\n\n%s\noptions:\n", spec->name,
            *spec->args ? " " : "", spec->args, spec->about);
    for (const CliOption *o = spec->opts; o && o->name; o++)
        opt_line(f, o->name, o->metavar, o->help);
    for (int i = 0; i < NCOMMON; i++)
        if (i == C_OUTPUT && (spec->common & CLI_OUTPUT_DIR))
            opt_line(f, "o", "DIR", "write the project into the folder DIR (required)");
        else if ((spec->common & common[i].bit) && common[i].bit != CLI_LIMITS)
            opt_line(f, common[i].name, common[i].metavar, common[i].help);
    opt_line(f, "help", NULL, "print this help and exit (also -h)");
    if (spec->common & CLI_LIMITS) {
        fputs("\nlimits on the input (inputs above them are refused):\n", f);
        for (int i = 0; i < NCOMMON; i++)
            if (common[i].bit == CLI_LIMITS)
                opt_line(f, common[i].name, common[i].metavar, common[i].help);
    }
    fputs(
        "\n\"--opt=value\" and \"--opt value\" are the same, as are \"-oFILE\" and \"-o "
        "FILE\";\na long option may be shortened to a unique prefix; \"--\" ends the "
        "options;\nan operand \"-\" is standard input.\n",
        f);
}

/* Stores the value of common option i. */
static bool
set_common(Cli *c, const CliSpec *spec, int i, const char *v)
{
    int64_t x;
    Limits *l = &c->opt.limits;
    switch (i) {
    case C_OUTPUT:
        c->output = v;
        return true;
    case C_PLATFORM:
        c->opt.platform = v;
        return true;
    case C_JSON:
        c->json = true;
        return true;
    case C_NO_CONTENTION:
        c->opt.no_contention = true;
        return true;
    case C_DSPS:
        if (!cli_int_value(spec, "--dsps", v, 1, INT_MAX, &x))
            return false;
        c->opt.dsps = (int)x;
        return true;
    case C_ITERATIONS:
        if (!cli_int_value(spec, "--iterations", v, 1, INT64_MAX, &x))
            return false;
        c->opt.iterations = x;
        return true;
    case C_MAX_TASKS:
        return cli_int_value(spec, "--max-tasks", v, 0, INT_MAX, &l->max_tasks);
    case C_MAX_EDGES:
        return cli_int_value(spec, "--max-edges", v, 0, INT_MAX, &l->max_edges);
    case C_MAX_DSPS:
        return cli_int_value(spec, "--max-dsps", v, 1, INT_MAX, &l->max_dsps);
    case C_MAX_ITERATIONS:
        return cli_int_value(spec, "--max-iterations", v, 1, INT64_MAX,
                             &l->max_iterations);
    case C_MAX_FILE:
        return cli_int_value(spec, "--max-file-size", v, 1, INT64_MAX,
                             &l->max_file_bytes);
    case C_KERNEL_PATH: {
        struct stat st;
        if (stat(v, &st) != 0 || !S_ISDIR(st.st_mode)) {
            cli_usage(spec, "--kernel-path \"%s\" is not a folder", v);
            return false;
        }
        c->kernel_dirs[c->opt.nkernel_dirs++] = v;
        return true;
    }
    }
    return false;
}

/* The option called `name` (without dashes): own options are >= 0, common ones are
 * -1 - index; returns INT_MIN when unknown. */
static int
lookup(const CliSpec *spec, const char *name, size_t n)
{
    for (int i = 0; spec->opts && spec->opts[i].name; i++)
        if (strlen(spec->opts[i].name) == n && strncmp(spec->opts[i].name, name, n) == 0)
            return i;
    for (int i = 0; i < NCOMMON; i++)
        if ((spec->common & common[i].bit) && strlen(common[i].name) == n &&
            strncmp(common[i].name, name, n) == 0)
            return -1 - i;
    return INT_MIN;
}

static void
unknown_option(const CliSpec *spec, const char *arg)
{
    const char *cands[64];
    char bufs[64][40];
    size_t n = 0;
    for (int i = 0; spec->opts && spec->opts[i].name && n < 62; i++)
        if (strlen(spec->opts[i].name) > 1) {
            snprintf(bufs[n], sizeof bufs[n], "--%s", spec->opts[i].name);
            cands[n] = bufs[n];
            n++;
        }
    for (int i = 0; i < NCOMMON && n < 62; i++)
        if ((spec->common & common[i].bit) && strlen(common[i].name) > 1) {
            snprintf(bufs[n], sizeof bufs[n], "--%s", common[i].name);
            cands[n] = bufs[n];
            n++;
        }
    cands[n++] = "--help";
    char word[64];
    const char *eq = strchr(arg, '=');
    size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
    snprintf(word, sizeof word, "%.*s", (int)(len < 63 ? len : 63), arg);
    const char *hint = arg[1] == '-' ? diag_suggest(word, cands, n) : NULL;
    if (hint)
        cli_usage(spec, "unknown option \"%s\" (did you mean \"%s\"?)", word, hint);
    else
        cli_usage(spec, "unknown option \"%s\"", word);
}

/* When the long option `arg` ("--na" or "--na=value") abbreviates more than one of the
 * table lo, prints the usage error naming them and returns true. */
static bool
ambiguous_option(const CliSpec *spec, const struct option *lo, size_t nl, const char *arg)
{
    if (arg[0] != '-' || arg[1] != '-')
        return false;
    const char *name = arg + 2;
    size_t n = strcspn(name, "=");
    char list[256] = "";
    size_t len = 0, hits = 0;
    for (size_t i = 0; i < nl; i++)
        if (strncmp(lo[i].name, name, n) == 0) {
            hits++;
            if (len < sizeof list)
                len += (size_t)snprintf(list + len, sizeof list - len, "%s--%s",
                                        hits > 1 ? ", " : "", lo[i].name);
        }
    if (hits < 2)
        return false;
    cli_usage(spec, "option \"--%.*s\" is ambiguous (%s)", (int)(n < 60 ? n : 60), name,
              list);
    return true;
}

bool
cli_parse(Cli *c, const CliSpec *spec, int argc, char **argv, int *status)
{
    memset(c, 0, sizeof *c);
    c->opt.limits = ir_default_limits();
    c->opt.search_budget = -1;
    size_t nown = 0;
    while (spec->opts && spec->opts[nown].name)
        nown++;
    c->val = calloc(nown + 1, sizeof *c->val);
    c->args = calloc((size_t)argc + 1, sizeof *c->args);
    c->kernel_dirs = calloc((size_t)argc + 1, sizeof *c->kernel_dirs);
    if (!c->val || !c->args || !c->kernel_dirs)
        ice("out of memory");
    c->opt.kernel_dirs = c->kernel_dirs;
    c->opt.read_kernels = (spec->common & CLI_KERNELS) != 0;
    *status = TGC_EXIT_USAGE;
    /* getopt_long's tables: every own and common option of the command (one letter: a
     * short option, else a long one) and -h/--help; a long option's val is 256 + its
     * index (own k: k, common i: nown + i).  "-" keeps the operands in order among the
     * options (each comes back as 1), ":" reports a missing value apart. */
    struct option *lo = calloc(nown + NCOMMON + 2, sizeof *lo);
    char *shorts = calloc(3 * (nown + NCOMMON) + 8, 1);
    if (!lo || !shorts)
        ice("out of memory");
    size_t nl = 0, ns = 0;
    shorts[ns++] = '-';
    shorts[ns++] = ':';
    shorts[ns++] = 'h';
    for (size_t k = 0; k < nown + NCOMMON; k++) {
        bool own = k < nown;
        int ci = own ? 0 : (int)(k - nown);
        if (!own && !(spec->common & common[ci].bit))
            continue;
        const char *name = own ? spec->opts[k].name : common[ci].name;
        const char *metavar = own ? spec->opts[k].metavar : common[ci].metavar;
        if (strlen(name) == 1) {
            shorts[ns++] = name[0];
            if (metavar)
                shorts[ns++] = ':';
        } else {
            lo[nl++] = (struct option){name, metavar ? required_argument : no_argument,
                                       NULL, 256 + (int)k};
        }
    }
    lo[nl++] = (struct option){"help", no_argument, NULL, 'h'};
    opterr = 0;
    optind = 0; /* a new scan (the unit tests parse many command lines) */
    int ch;
    char shown[64];
    bool go = true;
    while (go && (ch = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
        int k; /* own >= 0, common -1 - index, as lookup() */
        if (ch == 1) {
            c->args[c->nargs++] = optarg;
            continue;
        }
        if (ch == 'h') {
            cli_help(stdout, spec);
            *status = TGC_EXIT_OK;
            go = false;
            break;
        }
        if (ch == '?' || ch == ':') {
            int o = optopt;
            if (o >= 256 || (o == 'h' && ch == '?')) { /* a long option: its name */
                size_t j = o == 'h' ? nown + NCOMMON : (size_t)(o - 256);
                snprintf(shown, sizeof shown, "--%s",
                         j == nown + NCOMMON ? "help"
                         : j < nown          ? spec->opts[j].name
                                             : common[j - nown].name);
            } else if (o > 0) {
                snprintf(shown, sizeof shown, "-%c", o);
            } else { /* an unknown or ambiguous long option: the word given */
                const char *w = argv[optind - 1];
                if (!ambiguous_option(spec, lo, nl, w))
                    unknown_option(spec, w);
                go = false;
                break;
            }
            if (ch == ':') {
                k = lookup(spec, shown + (shown[1] == '-' ? 2 : 1),
                           strlen(shown + (shown[1] == '-' ? 2 : 1)));
                const char *mv = k >= 0 ? spec->opts[k].metavar : common[-1 - k].metavar;
                cli_usage(spec, "option \"%s\" needs a value (%s)", shown, mv);
            } else if (shown[1] == '-') {
                cli_usage(spec, "option \"%s\" takes no value", shown);
            } else {
                unknown_option(spec, shown);
            }
            go = false;
            break;
        }
        if (ch >= 256) {
            size_t j = (size_t)(ch - 256);
            k = j < nown ? (int)j : -1 - (int)(j - nown);
        } else {
            char one[2] = {(char)ch, 0};
            k = lookup(spec, one, 1);
        }
        const char *value = optarg ? optarg : "";
        if (k >= 0)
            c->val[k] = value;
        else if (!set_common(c, spec, -1 - k, value))
            go = false;
    }
    if (go) /* after "--": operands, even those starting with "-" */
        for (; optind < argc; optind++)
            c->args[c->nargs++] = argv[optind];
    free(lo);
    free(shorts);
    if (!go)
        goto stop;
    if (c->json) {
        /* Names given to options come back in the JSON, which holds only UTF-8 (input
         * files are checked by their readers). */
        for (size_t k = 0; k <= nown; k++) {
            const char *v = k < nown ? c->val[k] : c->output;
            if (v && !ir_utf8_valid(v)) {
                Arena *a = arena_new();
                cli_usage(spec,
                          "with --json, option values must be valid UTF-8, got \"%s\"",
                          ir_shown(a, v, 60));
                arena_free(a);
                goto stop;
            }
        }
    }
    if (c->opt.dsps > c->opt.limits.max_dsps) {
        cli_usage(spec,
                  "--dsps %d exceeds the limit of %lld DSPs (raise it with --max-dsps)",
                  c->opt.dsps, (long long)c->opt.limits.max_dsps);
        goto stop;
    }
    if (c->opt.iterations > c->opt.limits.max_iterations) {
        cli_usage(spec,
                  "--iterations %lld exceeds the limit of %lld (raise it with "
                  "--max-iterations)",
                  (long long)c->opt.iterations, (long long)c->opt.limits.max_iterations);
        goto stop;
    }
    if (c->nargs < spec->min_args) {
        cli_usage(spec, "missing operand (usage: tgc %s [options] %s)", spec->name,
                  spec->args); /* min_args > 0: args is not empty */
        goto stop;
    }
    if (spec->max_args >= 0 && c->nargs > spec->max_args) {
        cli_usage(spec, "too many operands (usage: tgc %s [options]%s%s)", spec->name,
                  *spec->args ? " " : "", spec->args);
        goto stop;
    }
    if (c->opt.platform) {
        /* Read once here, so that a bad --platform is reported once, not once per file.
         */
        Arena *a = arena_new();
        Diag *d = diag_new();
        bool ok = fe_load_platform(a, c->opt.platform, NULL, d) != NULL;
        diag_flush(d, stderr);
        diag_free(d);
        arena_free(a);
        if (!ok) {
            *status = TGC_EXIT_INPUT;
            goto stop;
        }
    }
    progress_init(c->json);
    *status = TGC_EXIT_OK;
    return true;
stop:
    cli_free(c);
    return false;
}

void
cli_free(Cli *c)
{
    free(c->val);
    free(c->args);
    free(c->kernel_dirs);
    c->val = NULL;
    c->args = NULL;
    c->kernel_dirs = NULL;
    c->opt.kernel_dirs = NULL;
    c->opt.nkernel_dirs = 0;
}

int
cli_report(Diag *d)
{
    diag_flush(d, stderr);
    return diag_errors(d) ? TGC_EXIT_INPUT : TGC_EXIT_OK;
}

int
cli_print_json(const json_t *o)
{
    char *s = json_dumps(o, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
    if (!s)
        ice("cannot format JSON");
    int rc = puts(s) < 0 || fflush(stdout) != 0;
    free(s);
    if (rc)
        fprintf(stderr, "tgc: error: cannot write standard output: %s\n",
                strerror(errno));
    return rc ? TGC_EXIT_INPUT : TGC_EXIT_OK;
}

bool
cli_search_objective(const CliSpec *spec, const char *text, Options *opt)
{
    if (!text || strcmp(text, "pipelined") == 0) {
        opt->search_plain = false;
        return true;
    }
    if (strcmp(text, "plain") == 0) {
        opt->search_plain = true;
        return true;
    }
    cli_usage(spec, "--search-objective must be plain or pipelined, got \"%s\"", text);
    return false;
}

json_t *
cli_platform_json(const Platform *p)
{
    json_t *plat = json_object();
    json_object_set_new(plat, "name", json_string(p->name ? p->name : "inline"));
    json_object_set_new(plat, "model",
                        json_string(p->model == MODEL_ABSTRACT ? "abstract" : "bwdsp"));
    json_object_set_new(plat, "dsps", json_integer(p->ndsps));
    json_object_set_new(plat, "boards", json_integer(p->nboards));
    return plat;
}
