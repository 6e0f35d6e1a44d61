/*
 * ir/heap.c - a binary min-heap of ints under a caller's strict order.
 *
 * Ready lists of the list schedulers and topological sorts use it; the order must be
 * total (ties broken by index) so that every pop sequence is deterministic.
 */
#include "ir.h"

void
ir_heap_push(IntHeap *h, int x)
{
    int k = h->n++;
    h->v[k] = x;
    while (k > 0 && h->before(h->ctx, h->v[k], h->v[(k - 1) / 2])) {
        int up = (k - 1) / 2, tmp = h->v[k];
        h->v[k] = h->v[up];
        h->v[up] = tmp;
        k = up;
    }
}

int
ir_heap_pop(IntHeap *h)
{
    if (h->n <= 0)
        ice("pop from an empty heap");
    int top = h->v[0];
    h->v[0] = h->v[--h->n];
    for (int k = 0;;) {
        int l = 2 * k + 1, r = l + 1, m = k;
        if (l < h->n && h->before(h->ctx, h->v[l], h->v[m]))
            m = l;
        if (r < h->n && h->before(h->ctx, h->v[r], h->v[m]))
            m = r;
        if (m == k)
            break;
        int tmp = h->v[k];
        h->v[k] = h->v[m];
        h->v[m] = tmp;
        k = m;
    }
    return top;
}

bool
ir_heap_by_index(const void *ctx, int a, int b)
{
    (void)ctx;
    return a < b;
}
