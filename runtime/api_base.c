/* api_base.c: the bottom of the API layer, in the libraries of every transport: what
 * the MPIRIO names (api.c) and the MPI names (mpi_*.c) share below all of them: the
 * texts of the error codes, the handle tables (the requests of both APIs). Calls
 * nothing of the API layer (tests/runtime/layers.sh). */
#include "mpirio_int.h"

#include <stdint.h>
#include <string.h>

const char *
MPIRIO_Error_string(int code)
{
    static const char *const s[] = {
        "success",
        "invalid buffer (NULL with a nonzero count)",
        "invalid count",
        "invalid datatype",
        "invalid tag",
        "invalid communicator",
        "invalid rank",
        "invalid root",
        "invalid reduce operation",
        "message truncated",
        "invalid request",
        "invalid argument",
        "not inside an initialised DSP",
        "platform error",
    };
    if (code < 0 || code >= MPIRIO_ERR_LASTCODE)
        return "unknown error code";
    return s[code];
}

/* ---- handle tables ---- */

_Static_assert(sizeof(uintptr_t) >= 8, "handles keep a generation in 32 bits");

enum { GROW = 64 };

uintptr_t
hnd_new(HandleTab *t, void *obj)
{
    int i;
    if (t->free) { /* the most recently freed entry */
        i = t->free - 1;
        t->free = t->e[i].next;
    } else {
        if (t->n == t->cap) {
            int cap = t->cap ? 2 * t->cap : GROW;
            Hnd *e = tr_tmp_alloc((size_t)cap * sizeof *e);
            if (t->n)
                memcpy(e, t->e, (size_t)t->n * sizeof *e);
            if (t->e)
                tr_tmp_free(t->e);
            t->e = e;
            t->cap = cap;
        }
        i = t->n++;
        t->e[i].gen = 1;
    }
    t->e[i].obj = obj;
    t->e[i].next = 0;
    return (uintptr_t)t->e[i].gen << 32 | (uintptr_t)(i + 1);
}

void *
hnd_get(const HandleTab *t, uintptr_t h)
{
    uintptr_t i = (h & 0xffffffffu) - 1;
    if (!t || !h || i >= (uintptr_t)t->n || t->e[i].gen != (unsigned)(h >> 32))
        return NULL;
    return t->e[i].obj;
}

void
hnd_drop(HandleTab *t, uintptr_t h)
{
    if (!hnd_get(t, h))
        return;
    int i = (int)(h & 0xffffffffu) - 1;
    t->e[i].obj = NULL;
    t->e[i].gen++; /* the handle is stale from now on */
    t->e[i].next = t->free;
    t->free = i + 1;
}
