/*
 * frontend/cost_expr.c - cycles expressions: a task's cost written as a formula of its
 * integer params ("cycles": "cdiv(rows * 64 * 48, 16) + 40"), so that the cost model of
 * a kernel (operations counted times cycles per operation) stays next to the params it
 * depends on and follows them when they change.
 *
 *   expr    := term (("+" | "-") term)*
 *   term    := unary (("*" | "/" | "%") unary)*
 *   unary   := "-" unary | primary
 *   primary := INTEGER | NAME | NAME "(" expr ("," expr)* ")" | "(" expr ")"
 *
 * Arithmetic is on 64-bit integers, every step checked for overflow; "/" and "%" are C's
 * (truncating); cdiv(a, b) is a / b rounded up (b > 0), min and max take one or more
 * arguments.  A NAME is one of the task's integer params.  Errors name the column of the
 * expression (1 = its first character).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "fe.h"

enum { MAX_DEPTH = 64 }; /* nesting of parentheses and calls */

typedef struct Parser {
    const char *text, *p;
    Reader *r;
    const Param *params;
    int nparams;
    const FeIdMap *names; /* params' names -> index */
    int depth;
    char err[512]; /* the first error, empty while there is none */
    int col;       /* its column */
} Parser;

static int
column(const Parser *ps, const char *at)
{
    return (int)(at - ps->text) + 1;
}

static bool fail(Parser *ps, const char *at, const char *fmt, ...) TGC_PRINTF(3, 4);

static bool
fail(Parser *ps, const char *at, const char *fmt, ...)
{
    if (ps->err[0])
        return false;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ps->err, sizeof ps->err, fmt, ap);
    va_end(ap);
    ps->col = column(ps, at);
    return false;
}

static void
skip_space(Parser *ps)
{
    while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r')
        ps->p++;
}

static bool
is_name_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool
is_name_char(char c)
{
    return is_name_start(c) || (c >= '0' && c <= '9');
}

/* What stands at ps->p, for "found ..." in messages. */
static const char *
found(const Parser *ps, char *buf, size_t n)
{
    unsigned char c = (unsigned char)*ps->p;
    if (!c)
        return "the end of the expression";
    if (c >= 0x20 && c < 0x7f)
        snprintf(buf, n, "\"%c\"", c);
    else
        snprintf(buf, n, "byte 0x%02x", c);
    return buf;
}

static bool expr(Parser *ps, int64_t *v);

static bool
checked(Parser *ps, const char *at, bool overflow, int64_t r, int64_t *v)
{
    if (overflow)
        return fail(ps, at, "the value overflows 64-bit integers");
    *v = r;
    return true;
}

static bool
divide(Parser *ps, const char *at, char op, int64_t a, int64_t b, int64_t *v)
{
    if (b == 0)
        return fail(ps, at, "division by zero");
    if (a == INT64_MIN && b == -1)
        return fail(ps, at, "the value overflows 64-bit integers");
    *v = op == '/' ? a / b : a % b;
    return true;
}

static bool
param_value(Parser *ps, const char *at, const char *name, size_t len, int64_t *v)
{
    char small[128];
    const char *key = small;
    if (len < sizeof small)
        snprintf(small, sizeof small, "%.*s", (int)len, name);
    else
        key = arena_strndup(ps->r->tmp, name, len);
    int k = ps->names ? fe_idmap_find(ps->names, key) : -1;
    if (k >= 0) {
        const Param *q = &ps->params[k];
        if (q->kind == PARAM_INT) {
            *v = q->i;
            return true;
        }
        const char *kind = q->kind == PARAM_REAL     ? "a real"
                           : q->kind == PARAM_STRING ? "a string"
                                                     : "a boolean";
        return fail(ps, at, "parameter \"%s\" is %s, not an integer", q->name, kind);
    }
    /* unknown: list the names that would do, with a hint for a typo */
    char word[128];
    snprintf(word, sizeof word, "%.*s", (int)(len < 100 ? len : 100), name);
    const char *cands[64];
    size_t nc = 0;
    char list[256] = "";
    size_t used = 0;
    for (int i = 0; i < ps->nparams && nc < 64; i++)
        if (ps->params[i].kind == PARAM_INT) {
            cands[nc++] = ps->params[i].name;
            int w = snprintf(list + used, sizeof list - used, "%s%s", used ? ", " : "",
                             ps->params[i].name);
            if (w > 0 && used + (size_t)w < sizeof list)
                used += (size_t)w;
        }
    const char *hint = diag_suggest(word, cands, nc);
    if (hint)
        return fail(ps, at, "unknown name \"%s\" (did you mean \"%s\"?)", word, hint);
    if (nc)
        return fail(ps, at, "unknown name \"%s\" (the task's integer params: %s)", word,
                    list);
    return fail(ps, at, "unknown name \"%s\" (the task has no integer params)", word);
}

static bool
call(Parser *ps, const char *at, const char *name, size_t len, int64_t *v)
{
    enum { F_CDIV, F_MIN, F_MAX } f;
    if (len == 4 && strncmp(name, "cdiv", 4) == 0)
        f = F_CDIV;
    else if (len == 3 && strncmp(name, "min", 3) == 0)
        f = F_MIN;
    else if (len == 3 && strncmp(name, "max", 3) == 0)
        f = F_MAX;
    else
        return fail(ps, at, "unknown function \"%.*s\" (the functions: cdiv, min, max)",
                    (int)(len < 100 ? len : 100), name);
    int64_t args[2] = {0, 0}, acc = 0;
    int n = 0;
    ps->p++; /* "(" */
    for (;;) {
        int64_t a;
        if (!expr(ps, &a))
            return false;
        if (f == F_CDIV) {
            if (n < 2)
                args[n] = a;
        } else {
            acc = n == 0 ? a : f == F_MIN ? (a < acc ? a : acc) : (a > acc ? a : acc);
        }
        n++;
        skip_space(ps);
        if (*ps->p == ',') {
            ps->p++;
            continue;
        }
        if (*ps->p == ')') {
            ps->p++;
            break;
        }
        char buf[16];
        return fail(ps, ps->p, "expected \",\" or \")\", found %s",
                    found(ps, buf, sizeof buf));
    }
    if (f != F_CDIV) {
        *v = acc;
        return true;
    }
    if (n != 2)
        return fail(ps, at, "cdiv takes 2 arguments, got %d", n);
    if (args[1] <= 0)
        return fail(ps, at, "cdiv(a, b) needs b > 0, got %" PRId64, args[1]);
    if (args[0] < 0)
        return fail(ps, at, "cdiv(a, b) needs a >= 0, got %" PRId64, args[0]);
    *v = args[0] / args[1] + (args[0] % args[1] != 0);
    return true;
}

static bool
primary(Parser *ps, int64_t *v)
{
    skip_space(ps);
    const char *at = ps->p;
    char c = *ps->p;
    if (c >= '0' && c <= '9') {
        int64_t x = 0;
        while (*ps->p >= '0' && *ps->p <= '9') {
            if (__builtin_mul_overflow(x, 10, &x) ||
                __builtin_add_overflow(x, *ps->p - '0', &x))
                return fail(ps, at, "the number overflows 64-bit integers");
            ps->p++;
        }
        if (is_name_char(*ps->p) || *ps->p == '.') {
            char buf[16];
            return fail(ps, ps->p, "a number must be an integer, found %s in it",
                        found(ps, buf, sizeof buf));
        }
        *v = x;
        return true;
    }
    if (is_name_start(c)) {
        const char *name = ps->p;
        while (is_name_char(*ps->p))
            ps->p++;
        size_t len = (size_t)(ps->p - name);
        const char *after = ps->p;
        skip_space(ps);
        if (*ps->p == '(') {
            if (++ps->depth > MAX_DEPTH)
                return fail(ps, ps->p, "the expression nests deeper than %d", MAX_DEPTH);
            bool ok = call(ps, at, name, len, v);
            ps->depth--;
            return ok;
        }
        ps->p = after;
        return param_value(ps, at, name, len, v);
    }
    if (c == '(') {
        if (++ps->depth > MAX_DEPTH)
            return fail(ps, at, "the expression nests deeper than %d", MAX_DEPTH);
        ps->p++;
        if (!expr(ps, v))
            return false;
        skip_space(ps);
        if (*ps->p != ')') {
            char buf[16];
            return fail(ps, ps->p, "expected \")\", found %s",
                        found(ps, buf, sizeof buf));
        }
        ps->p++;
        ps->depth--;
        return true;
    }
    char buf[16];
    return fail(ps, at, "expected a number, a name or \"(\", found %s",
                found(ps, buf, sizeof buf));
}

static bool
unary(Parser *ps, int64_t *v)
{
    skip_space(ps);
    if (*ps->p != '-')
        return primary(ps, v);
    const char *at = ps->p++;
    if (++ps->depth > MAX_DEPTH)
        return fail(ps, at, "the expression nests deeper than %d", MAX_DEPTH);
    int64_t x, r = 0;
    bool ok = unary(ps, &x);
    if (ok) {
        bool o = __builtin_sub_overflow(0, x, &r); /* -INT64_MIN overflows */
        ok = checked(ps, at, o, r, v);
    }
    ps->depth--;
    return ok;
}

static bool
term(Parser *ps, int64_t *v)
{
    if (!unary(ps, v))
        return false;
    for (;;) {
        skip_space(ps);
        char op = *ps->p;
        if (op != '*' && op != '/' && op != '%')
            return true;
        const char *at = ps->p++;
        int64_t b, r = 0;
        if (!unary(ps, &b))
            return false;
        if (op == '*') {
            bool o = __builtin_mul_overflow(*v, b, &r);
            if (!checked(ps, at, o, r, v))
                return false;
        } else if (!divide(ps, at, op, *v, b, v)) {
            return false;
        }
    }
}

static bool
expr(Parser *ps, int64_t *v)
{
    if (!term(ps, v))
        return false;
    for (;;) {
        skip_space(ps);
        char op = *ps->p;
        if (op != '+' && op != '-')
            return true;
        const char *at = ps->p++;
        int64_t b, r = 0;
        if (!term(ps, &b))
            return false;
        bool o = op == '+' ? __builtin_add_overflow(*v, b, &r)
                           : __builtin_sub_overflow(*v, b, &r);
        if (!checked(ps, at, o, r, v))
            return false;
    }
}

bool
fe_cost_expr(Reader *r, const char *text, const Param *params, int nparams,
             const FeIdMap *names, const char *ptr, int64_t *out)
{
    Parser ps = {.text = text,
                 .p = text,
                 .r = r,
                 .params = params,
                 .nparams = nparams,
                 .names = names};
    int64_t v = 0;
    if (expr(&ps, &v)) {
        skip_space(&ps);
        if (*ps.p) {
            char buf[16];
            fail(&ps, ps.p, "expected an operator or the end, found %s",
                 found(&ps, buf, sizeof buf));
        }
    }
    if (ps.err[0]) {
        fe_error(r, ptr, "cycles expression, column %d: %s", ps.col, ps.err);
        return false;
    }
    *out = v;
    return true;
}
