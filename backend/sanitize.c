/*
 * backend/sanitize.c - names and strings of generated C code (DESIGN.md section 6:
 * identifiers come from here, never straight from the input).
 *
 * Invariants: every identifier returned by cg_names_add is a valid C11 identifier, not a
 * keyword, not reserved (no leading underscore), and distinct from every other name of
 * the same CgNames; the same sequence of calls gives the same names.  cg_c_string returns
 * a string literal whose value is exactly the input bytes; cg_c_comment returns text that
 * can neither end the comment it sits in ("* /" joined), open a nested one, form a
 * trigraph nor leave ASCII.
 */
#include <stdlib.h>
#include <string.h>

#include "backend.h"

static const char *const keywords[] = {
    "auto",       "break",     "case",           "char",
    "const",      "continue",  "default",        "do",
    "double",     "else",      "enum",           "extern",
    "float",      "for",       "goto",           "if",
    "inline",     "int",       "long",           "register",
    "restrict",   "return",    "short",          "signed",
    "sizeof",     "static",    "struct",         "switch",
    "typedef",    "union",     "unsigned",       "void",
    "volatile",   "while",     "_Alignas",       "_Alignof",
    "_Atomic",    "_Bool",     "_Complex",       "_Generic",
    "_Imaginary", "_Noreturn", "_Static_assert", "_Thread_local",
    "asm",        "bool",      "true",           "false",
    "main",       NULL,
};

bool
cg_is_c_keyword(const char *s)
{
    for (int i = 0; keywords[i]; i++)
        if (strcmp(s, keywords[i]) == 0)
            return true;
    return false;
}

bool
cg_is_c_ident(const char *s)
{
    if (!s || !*s || (*s >= '0' && *s <= '9'))
        return false;
    for (const char *p = s; *p; p++) {
        char c = *p;
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              (c >= '0' && c <= '9') || c == '_'))
            return false;
    }
    return !cg_is_c_keyword(s);
}

struct CgNames {
    char **names; /* every name handed out, for the uniqueness test */
    int n, cap;
};

CgNames *
cg_names_new(void)
{
    CgNames *n = calloc(1, sizeof *n);
    if (!n)
        ice("out of memory");
    return n;
}

void
cg_names_free(CgNames *n)
{
    if (!n)
        return;
    for (int i = 0; i < n->n; i++)
        free(n->names[i]);
    free(n->names);
    free(n);
}

static bool
taken(const CgNames *n, const char *s)
{
    for (int i = 0; i < n->n; i++)
        if (strcmp(n->names[i], s) == 0)
            return true;
    return false;
}

static void
remember(CgNames *n, char *s)
{
    if (n->n == n->cap) {
        n->cap = n->cap ? 2 * n->cap : 64;
        n->names = realloc(n->names, (size_t)n->cap * sizeof *n->names);
        if (!n->names)
            ice("out of memory");
    }
    n->names[n->n++] = s;
}

void
cg_names_reserve(CgNames *n, const char *name)
{
    if (!taken(n, name)) {
        char *s = strdup(name);
        if (!s)
            ice("out of memory");
        remember(n, s);
    }
}

/* Letters, digits and '_' are kept, any other byte becomes '_'; at most 40 bytes of raw
 * are used (readability: the comment beside the name gives the whole id). */
const char *
cg_names_add(CgNames *n, const char *prefix, const char *raw)
{
    enum { MAXRAW = 40 };
    size_t pl = strlen(prefix), rl = raw ? strlen(raw) : 0;
    if (rl > MAXRAW)
        rl = MAXRAW;
    char *s = malloc(pl + rl + 32);
    if (!s)
        ice("out of memory");
    memcpy(s, prefix, pl);
    size_t k = pl;
    for (size_t i = 0; i < rl; i++) {
        char c = raw[i];
        bool ok =
            (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        s[k++] = ok ? c : '_';
    }
    if (k == 0 || (k == pl && pl == 0))
        s[k++] = 'x';
    s[k] = 0;
    /* a leading digit or underscore (reserved at file scope) gets a letter in front */
    if ((s[0] >= '0' && s[0] <= '9') || s[0] == '_') {
        memmove(s + 1, s, k + 1);
        s[0] = 'x';
        k++;
    }
    if (cg_is_c_keyword(s)) {
        s[k++] = '_';
        s[k] = 0;
    }
    if (taken(n, s)) {
        for (int i = 2;; i++) {
            snprintf(s + k, 32, "_%d", i);
            if (!taken(n, s))
                break;
        }
    }
    remember(n, s);
    return s;
}

/* Appends byte c to a string literal or a comment, escaped. */
static void
put_escaped(Buf *b, unsigned char c)
{
    switch (c) {
    case '"':
        buf_printf(b, "\\\"");
        return;
    case '\\':
        buf_printf(b, "\\\\");
        return;
    case '\n':
        buf_printf(b, "\\n");
        return;
    case '\t':
        buf_printf(b, "\\t");
        return;
    case '?': /* never a trigraph */
        buf_printf(b, "\\077");
        return;
    }
    if (c < 0x20 || c >= 0x7f)
        buf_printf(b, "\\%03o", c);
    else
        buf_printf(b, "%c", c);
}

char *
cg_c_string(const char *s)
{
    Buf b = {0};
    buf_printf(&b, "\"");
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        put_escaped(&b, *p);
    buf_printf(&b, "\"");
    return b.s;
}

char *
cg_c_comment(const char *s)
{
    Buf b = {0};
    buf_printf(&b, "%s", ""); /* an empty id still gives a string */
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; p[i]; i++) {
        bool near_slash = (i > 0 && p[i - 1] == '/') || p[i + 1] == '/';
        if (p[i] == '*' && near_slash)
            buf_printf(&b, "\\052"); /* neither "* /" nor "/ *" can form */
        else
            put_escaped(&b, p[i]);
    }
    return b.s;
}
