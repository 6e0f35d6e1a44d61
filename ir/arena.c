/*
 * ir/arena.c - bump allocator for the IR.
 *
 * Blocks are chained; an allocation larger than a block gets a block of its own.  Memory
 * is zeroed and aligned to max_align_t.  Nothing is freed before arena_free().  Out of
 * memory is an internal error (ice): input-size limits keep real inputs far below it.
 */
#include <stdlib.h>
#include <string.h>

#include "ir.h"

enum { BLOCK_SIZE = 64 * 1024 };

typedef struct Block {
    struct Block *next;
    size_t used, size;
    _Alignas(max_align_t) unsigned char data[];
} Block;

struct Arena {
    Block *head;
    size_t total; /* bytes handed out */
};

static Block *
block_new(size_t size)
{
    Block *b = malloc(sizeof(Block) + size);
    if (!b)
        ice("out of memory (%zu bytes)", size);
    b->next = NULL;
    b->used = 0;
    b->size = size;
    return b;
}

Arena *
arena_new(void)
{
    return ir_xcalloc(1, sizeof(Arena));
}

void *
arena_alloc(Arena *a, size_t n)
{
    const size_t align = _Alignof(max_align_t);
    if (n == 0)
        n = 1;
    if (n > SIZE_MAX - align)
        ice("allocation of %zu bytes overflows", n);
    n = (n + align - 1) & ~(align - 1);
    Block *b = a->head;
    if (!b || b->size - b->used < n) {
        if (n > BLOCK_SIZE / 4) {
            /* Large: own block, linked behind the head so the head's free space is kept.
             */
            Block *big = block_new(n);
            big->used = n;
            if (b) {
                big->next = b->next;
                b->next = big;
            } else {
                a->head = big;
            }
            a->total += n;
            memset(big->data, 0, n);
            return big->data;
        }
        b = block_new(BLOCK_SIZE);
        b->next = a->head;
        a->head = b;
    }
    void *p = b->data + b->used;
    b->used += n;
    a->total += n;
    memset(p, 0, n);
    return p;
}

void *
arena_array(Arena *a, size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size)
        ice("array of %zu x %zu bytes overflows", n, size);
    return arena_alloc(a, n * size);
}

char *
arena_strndup(Arena *a, const char *s, size_t n)
{
    char *p = arena_alloc(a, n + 1);
    memcpy(p, s, n);
    p[n] = 0;
    return p;
}

char *
arena_strdup(Arena *a, const char *s)
{
    return arena_strndup(a, s, strlen(s));
}

char *
arena_printf(Arena *a, const char *fmt, ...)
{
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        ice("bad format \"%s\"", fmt);
    char *p = arena_alloc(a, (size_t)n + 1);
    vsnprintf(p, (size_t)n + 1, fmt, ap2);
    va_end(ap2);
    return p;
}

size_t
arena_used(const Arena *a)
{
    return a->total;
}

void *
ir_xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        ice("out of memory (%zu x %zu bytes)", n, size);
    return p;
}

void *
ir_xrealloc(void *p, size_t n, size_t size)
{
    size_t bytes;
    if (__builtin_mul_overflow(n ? n : 1, size ? size : 1, &bytes))
        ice("out of memory (%zu x %zu bytes)", n, size);
    void *q = realloc(p, bytes);
    if (!q)
        ice("out of memory (%zu x %zu bytes)", n, size);
    return q;
}

void *
ir_xmalloc(size_t n, size_t size)
{
    return ir_xrealloc(NULL, n, size);
}

void *
ir_xmemdup(const void *p, size_t bytes)
{
    return memcpy(ir_xmalloc(bytes, 1), p, bytes);
}

char *
ir_xstrdup(const char *s)
{
    char *c = strdup(s);
    if (!c)
        ice("out of memory");
    return c;
}

void
arena_free(Arena *a)
{
    if (!a)
        return;
    for (Block *b = a->head, *next; b; b = next) {
        next = b->next;
        free(b);
    }
    free(a);
}
