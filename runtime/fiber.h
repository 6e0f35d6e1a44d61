/* fiber.h: user-level contexts (fiber.c), the bottom of the simulated transport and of
 * the threads transport: a fiber runs on a stack of its own and is switched to by the
 * host thread it belongs to. Each host thread has its own current fiber, so several
 * threads may each run fibers at once; a fiber runs only on the thread that made it. */
#ifndef MPIRIO_FIBER_H
#define MPIRIO_FIBER_H

#include <stddef.h>

typedef struct Fiber Fiber;
Fiber *fiber_host(void); /* the calling host thread's context, made current */
/* a fiber that will run fn(arg) on a stack of its own; NULL if there is no memory.
 * fn must never return: it ends with fiber_exit_to. */
Fiber *fiber_new(size_t stack, void (*fn)(void *), void *arg);
void fiber_switch(Fiber *from, Fiber *to);  /* from: the running fiber */
void fiber_exit_to(Fiber *from, Fiber *to); /* the same, from never runs again */
void fiber_free(Fiber *f);                  /* not the running one */

#endif
