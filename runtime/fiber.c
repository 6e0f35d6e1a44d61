/* fiber.c: user-level contexts for the DSPs (the bottom of the runtime).
 *
 * Every DSP of a run is a fiber of the host thread that called MPIRIO_Run: a stack of
 * its own and the callee-saved registers, switched in a few nanoseconds (no system
 * call, no scheduler), where a thread per DSP cost a futex wake and an OS context
 * switch at every hand-off. On x86-64 the switch is the small routine below; elsewhere
 * (or with shadow stacks, or -DMPIRIO_UCONTEXT) it is swapcontext. errno is saved and
 * restored with the fiber, so each DSP keeps its own.
 *
 * AddressSanitizer is told of every switch (__sanitizer_start/finish_switch_fiber), so
 * it tracks the right stack and its fake stacks, and a stack is unpoisoned before it
 * is unmapped. LeakSanitizer (with ASan, or alone) scans only the stack it believes
 * current: the other fibers' stacks and the host thread's are given to it as root
 * regions, so a DSP that calls exit() does not make what they point to look leaked.
 * valgrind is told of every stack when its header is there. ThreadSanitizer is told of
 * every fiber and switch (__tsan_create_fiber, __tsan_switch_to_fiber), so that each
 * fiber is a thread of its own to it.
 *
 * The state is per host thread (the threads transport runs fibers on several): a fiber
 * is made, switched to and freed by one thread. Nothing reads that state after a switch
 * in the function that switched (a compiler may keep the address of a thread-local
 * across a call): entered() reads it afresh. */
#define _GNU_SOURCE
#include "fiber.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define FIBER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FIBER_ASAN 1
#endif
#endif
#if defined(__SANITIZE_THREAD__)
#define FIBER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define FIBER_TSAN 1
#endif
#endif
#ifdef FIBER_TSAN
#include <sanitizer/tsan_interface.h>
#endif
#ifdef FIBER_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

/* LeakSanitizer's, when its runtime is linked in (ASan or -fsanitize=leak) */
extern void __lsan_register_root_region(const void *p, size_t size) __attribute__((weak));
extern void __lsan_unregister_root_region(const void *p, size_t size)
    __attribute__((weak));

#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#define FIBER_VALGRIND 1
#endif
#endif

#if defined(__x86_64__) && !defined(MPIRIO_UCONTEXT) &&                                  \
    !(defined(__CET__) && (__CET__ & 2))
#define FIBER_ASM 1
#else
#include <ucontext.h>
#endif

struct Fiber {
#ifdef FIBER_ASM
    void *sp; /* saved stack pointer while switched out */
#else
    ucontext_t uc;
#endif
    void *map;    /* the mapping: guard page, then the stack */
    size_t mapsz; /* 0 for the host thread's own context */
    const void *bottom;
    size_t size;
    void *fake; /* ASan's fake stack while switched out */
    int err;    /* errno while switched out */
    unsigned vg;
    void *tsan; /* ThreadSanitizer's fiber */
    void (*fn)(void *);
    void *arg;
};

static _Thread_local Fiber host;            /* the host thread's context */
static _Thread_local Fiber *current;        /* the running fiber (&host between runs) */
static _Thread_local const void *host_root; /* the host's live stack as LSan's root */
static _Thread_local size_t host_rootsz;

/* while the host thread is switched out, its live stack (from the saved stack
 * pointer to the top) is a root region of LeakSanitizer's */
static void
host_root_set(int on)
{
    if (!__lsan_register_root_region)
        return;
    if (host_rootsz) {
        __lsan_unregister_root_region(host_root, host_rootsz);
        host_rootsz = 0;
    }
    pthread_attr_t a;
    void *addr;
    size_t size;
    if (!on || pthread_getattr_np(pthread_self(), &a) != 0)
        return;
    if (pthread_attr_getstack(&a, &addr, &size) == 0) {
#ifdef FIBER_ASM
        const char *lo = host.sp;
#else
        const char *lo = (const char *)&a; /* registers are in host.uc, a global */
#endif
        const char *hi = (const char *)addr + size;
        if (lo > (const char *)addr && lo < hi) {
            host_root = lo;
            host_rootsz = (size_t)(hi - lo);
            __lsan_register_root_region(host_root, host_rootsz);
        }
    }
    pthread_attr_destroy(&a);
}

#ifdef FIBER_ASM
/* swap(&from->sp, to->sp): pushes the callee-saved registers and the SSE/x87 control
 * words, stores the stack pointer, loads the other, pops its registers, returns into
 * it. A new fiber's stack is laid out so that the return goes to start, which calls
 * r13(r12), i.e. entry(fiber). */
__attribute__((visibility("hidden"))) void mpirio_fiber_swap(void **save, void *to);
__attribute__((visibility("hidden"))) void mpirio_fiber_start(void);
__asm__(".text\n"
        ".p2align 4\n"
        ".globl mpirio_fiber_swap\n"
        ".hidden mpirio_fiber_swap\n"
        ".type mpirio_fiber_swap, @function\n"
        "mpirio_fiber_swap:\n"
        "    pushq %rbp\n"
        "    pushq %rbx\n"
        "    pushq %r12\n"
        "    pushq %r13\n"
        "    pushq %r14\n"
        "    pushq %r15\n"
        "    subq $8, %rsp\n"
        "    stmxcsr (%rsp)\n"
        "    fnstcw 4(%rsp)\n"
        "    movq %rsp, (%rdi)\n"
        "    movq %rsi, %rsp\n"
        "    ldmxcsr (%rsp)\n"
        "    fldcw 4(%rsp)\n"
        "    addq $8, %rsp\n"
        "    popq %r15\n"
        "    popq %r14\n"
        "    popq %r13\n"
        "    popq %r12\n"
        "    popq %rbx\n"
        "    popq %rbp\n"
        "    ret\n"
        ".size mpirio_fiber_swap, .-mpirio_fiber_swap\n"
        ".p2align 4\n"
        ".globl mpirio_fiber_start\n"
        ".hidden mpirio_fiber_start\n"
        ".type mpirio_fiber_start, @function\n"
        "mpirio_fiber_start:\n"
        "    movq %r12, %rdi\n"
        "    callq *%r13\n"
        "    ud2\n"
        ".size mpirio_fiber_start, .-mpirio_fiber_start\n");
#endif

static _Thread_local Fiber *starting_from; /* the fiber that switched to a new one */

/* the fiber current again (after a switch: its thread's state read afresh) */
__attribute__((noinline)) static void
entered(void)
{
    Fiber *from = starting_from;
#ifdef FIBER_ASAN
    const void *bottom;
    size_t size;
    __sanitizer_finish_switch_fiber(current->fake, &bottom, &size);
    if (from && !from->mapsz) { /* the host thread's stack, learnt on the way */
        from->bottom = bottom;
        from->size = size;
    }
#else
    (void)from;
#endif
    if (from == &host)
        host_root_set(1);
    errno = current->err;
}

static void
entry(Fiber *f)
{
    entered();
    f->fn(f->arg);
    abort(); /* a fiber's function never returns: it switches away for good */
}

#ifndef FIBER_ASM
static _Thread_local Fiber *starting;
static void
entry_uc(void)
{
    entry(starting);
}
#endif

Fiber *
fiber_host(void)
{
    host.bottom = NULL; /* learnt at the first switch (ASan) */
    host.size = 0;
#ifdef FIBER_TSAN
    host.tsan = __tsan_get_current_fiber();
#endif
    current = &host;
    return &host;
}

#ifndef FIBER_ASM
static int
uc_init(Fiber *f)
{
    Fiber *volatile g = f; /* getcontext returns twice */
    if (getcontext(&g->uc) != 0)
        return -1;
    g->uc.uc_stack.ss_sp = (void *)g->bottom;
    g->uc.uc_stack.ss_size = g->size;
    g->uc.uc_link = NULL;
    makecontext(&g->uc, entry_uc, 0);
    return 0;
}
#endif

Fiber *
fiber_new(size_t stack, void (*fn)(void *), void *arg)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    stack = (stack + page - 1) / page * page;
    Fiber *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    f->mapsz = stack + page;
    f->map = mmap(NULL, f->mapsz, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (f->map == MAP_FAILED) {
        free(f);
        return NULL;
    }
    mprotect(f->map, page, PROT_NONE); /* an overflow faults instead of overwriting */
    f->bottom = (char *)f->map + page;
    f->size = stack;
    f->fn = fn;
    f->arg = arg;
#ifdef FIBER_TSAN
    f->tsan = __tsan_create_fiber(0);
#endif
#ifdef FIBER_VALGRIND
    f->vg = VALGRIND_STACK_REGISTER(f->bottom, (char *)f->bottom + f->size);
#endif
    if (__lsan_register_root_region)
        __lsan_register_root_region(f->bottom, f->size);
#ifdef FIBER_ASM
    uintptr_t top = ((uintptr_t)f->bottom + f->size) & ~(uintptr_t)15;
    void **sp = (void **)(top - 8 * sizeof(void *));
    uint32_t ctl[2];
    __asm__ volatile("stmxcsr %0\n\tfnstcw %1" : "=m"(ctl[0]), "=m"(ctl[1]));
    ctl[1] &= 0xffff;
    sp[0] = (void *)(((uintptr_t)ctl[1] << 32) | ctl[0]); /* mxcsr, x87 control word */
    sp[1] = sp[2] = NULL;                                 /* r15, r14 */
    void (*e)(Fiber *) = entry;
    memcpy(&sp[3], &e, sizeof e); /* r13: the function start calls */
    sp[4] = f;                    /* r12: its argument */
    sp[5] = sp[6] = NULL;         /* rbx, rbp */
    void (*s)(void) = mpirio_fiber_start;
    memcpy(&sp[7], &s, sizeof s); /* where the first switch returns to */
    f->sp = sp;
#else
    if (uc_init(f) != 0) {
        fiber_free(f);
        return NULL;
    }
#endif
    return f;
}

/* from is the running fiber; dying: it never runs again (ASan frees its fake stack) */
static void
swap(Fiber *from, Fiber *to, int dying)
{
    from->err = errno;
    starting_from = from;
#ifdef FIBER_ASAN
    __sanitizer_start_switch_fiber(dying ? NULL : &from->fake, to->bottom, to->size);
#else
    (void)dying;
#endif
    if (to == &host)
        host_root_set(0);
    current = to;
#ifdef FIBER_TSAN
    __tsan_switch_to_fiber(to->tsan, 0);
#endif
#ifdef FIBER_ASM
    mpirio_fiber_swap(&from->sp, to->sp);
#else
    starting = to;
    swapcontext(&from->uc, &to->uc);
#endif
    /* back in from */
    entered();
}

void
fiber_switch(Fiber *from, Fiber *to)
{
    if (from != to)
        swap(from, to, 0);
}

void
fiber_exit_to(Fiber *from, Fiber *to)
{
    swap(from, to, 1);
    abort(); /* nothing switches back to a fiber that has exited */
}

void
fiber_free(Fiber *f)
{
    if (!f || f == &host)
        return;
#ifdef FIBER_TSAN
    if (f->tsan)
        __tsan_destroy_fiber(f->tsan);
#endif
#ifdef FIBER_VALGRIND
    VALGRIND_STACK_DEREGISTER(f->vg);
#endif
    if (__lsan_unregister_root_region)
        __lsan_unregister_root_region(f->bottom, f->size);
#ifdef FIBER_ASAN
    /* a fiber left blocked (a deadlock) leaves its frames' redzones poisoned */
    __asan_unpoison_memory_region(f->bottom, f->size);
#endif
    munmap(f->map, f->mapsz);
    free(f);
}
