/*
 * backend/sanitize.c - names and strings of generated C code (docs/design.md section 6:
 * identifiers come from here, never straight from the input).
 *
 * Invariants: every identifier returned by cg_names_add is a valid C11 identifier, not a
 * keyword, not reserved (no leading underscore), and distinct from every other name of
 * the same CgNames; the same sequence of calls gives the same names.  cg_c_string returns
 * a string literal whose value is exactly the input bytes; cg_c_comment returns text that
 * can neither end the comment it sits in ("* /" joined), open a nested one, form a
 * trigraph nor leave ASCII.
 */
#include <stdint.h>
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

/* An open-addressing hash set of the names handed out: cg_names_add costs O(length of
 * the name) whatever the number of names (a file may hold 100000 of them). */
typedef struct Slot {
    char *name; /* NULL = empty */
    int next;   /* the next suffix to try after this name when it is taken (0 = 2) */
} Slot;

struct CgNames {
    Slot *slot; /* [mask + 1] */
    size_t mask, n;
};

CgNames *
cg_names_new(void)
{
    CgNames *n = calloc(1, sizeof *n);
    if (!n)
        ice("out of memory");
    n->mask = 63;
    n->slot = calloc(n->mask + 1, sizeof *n->slot);
    if (!n->slot)
        ice("out of memory");
    return n;
}

void
cg_names_free(CgNames *n)
{
    if (!n)
        return;
    for (size_t i = 0; i <= n->mask; i++)
        free(n->slot[i].name);
    free(n->slot);
    free(n);
}

static size_t
hash(const char *s)
{
    uint64_t h = UINT64_C(1469598103934665603); /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * UINT64_C(1099511628211);
    return (size_t)(h ^ (h >> 32));
}

/* The slot of s: where it is, or the empty slot where it would go. */
static size_t
find(const CgNames *n, const char *s)
{
    size_t i = hash(s) & n->mask;
    while (n->slot[i].name && strcmp(n->slot[i].name, s) != 0)
        i = (i + 1) & n->mask;
    return i;
}

bool
cg_names_has(const CgNames *n, const char *s)
{
    return n->slot[find(n, s)].name != NULL;
}

static void
remember(CgNames *n, char *s)
{
    if (2 * (n->n + 1) > n->mask + 1) { /* keep the load at most one half */
        size_t cap = 2 * (n->mask + 1);
        Slot *old = n->slot;
        size_t oldcap = n->mask + 1;
        n->slot = calloc(cap, sizeof *n->slot);
        if (!n->slot)
            ice("out of memory");
        n->mask = cap - 1;
        for (size_t i = 0; i < oldcap; i++)
            if (old[i].name)
                n->slot[find(n, old[i].name)] = old[i];
        free(old);
    }
    n->slot[find(n, s)].name = s;
    n->n++;
}

void
cg_names_reserve(CgNames *n, const char *name)
{
    if (!cg_names_has(n, name)) {
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
    size_t base = find(n, s);
    if (n->slot[base].name) {
        /* taken: the first free suffix from where the last search of this base stopped,
           so that many ids with the same sanitised form cost linear time in all */
        int i = n->slot[base].next ? n->slot[base].next : 2;
        for (;; i++) {
            snprintf(s + k, 32, "_%d", i);
            if (!cg_names_has(n, s))
                break;
        }
        n->slot[base].next = i + 1;
    }
    remember(n, s);
    return s;
}

/* Appends byte c to a string literal or a comment, escaped. */
static void
put_escaped(Buf *b, unsigned char c)
{
    const char *esc = NULL;
    switch (c) {
    case '"':
        esc = "\\\"";
        break;
    case '\\':
        esc = "\\\\";
        break;
    case '\n':
        esc = "\\n";
        break;
    case '\t':
        esc = "\\t";
        break;
    case '?': /* never a trigraph */
        esc = "\\077";
        break;
    }
    if (esc) {
        buf_add(b, esc, strlen(esc));
    } else if (c < 0x20 || c >= 0x7f) {
        char oct[5] = {'\\', (char)('0' + (c >> 6)), (char)('0' + ((c >> 3) & 7)),
                       (char)('0' + (c & 7)), 0};
        buf_add(b, oct, 4);
    } else {
        char ch = (char)c;
        buf_add(b, &ch, 1);
    }
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
            buf_add(&b, "\\052", 4); /* neither "* /" nor "/ *" can form */
        else
            put_escaped(&b, p[i]);
    }
    return b.s;
}
