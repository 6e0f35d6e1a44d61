/* datatype.c: the sizes of the basic datatypes and the reduction operators.
 *
 * The bottom of the runtime: the API layer (argument checks, the MPICH reduce) and
 * the transport (the reduction in the switches) both use it, and it calls nothing
 * of either. */
#include "mpirio_int.h"

size_t
dt_size(MPIRIO_Datatype t)
{
    switch (t) {
    case MPIRIO_BYTE:
    case MPIRIO_CHAR:
        return 1;
    case MPIRIO_INT:
    case MPIRIO_FLOAT:
    case MPIRIO_UNSIGNED:
        return 4;
    case MPIRIO_DOUBLE:
        return 8;
    case MPIRIO_LONG:
        return sizeof(long);
    }
    return 0;
}

int
dt_op_valid(MPIRIO_Datatype t, MPIRIO_Op op)
{
    return op >= MPIRIO_SUM && op <= MPIRIO_MAX && t != MPIRIO_BYTE && dt_size(t);
}

#define FOLD(T)                                                                          \
    do {                                                                                 \
        T *a = acc;                                                                      \
        const T *b = in;                                                                 \
        for (int i = 0; i < n; i++)                                                      \
            switch (op) {                                                                \
            case MPIRIO_SUM:                                                             \
                a[i] = (T)(a[i] + b[i]);                                                 \
                break;                                                                   \
            case MPIRIO_PROD:                                                            \
                a[i] = (T)(a[i] * b[i]);                                                 \
                break;                                                                   \
            case MPIRIO_MIN:                                                             \
                a[i] = b[i] < a[i] ? b[i] : a[i];                                        \
                break;                                                                   \
            default:                                                                     \
                a[i] = b[i] > a[i] ? b[i] : a[i];                                        \
                break;                                                                   \
            }                                                                            \
    } while (0)

int
dt_reduce(void *acc, const void *in, int n, MPIRIO_Datatype t, MPIRIO_Op op)
{
    if (!dt_op_valid(t, op))
        return MPIRIO_ERR_OP;
    switch (t) {
    case MPIRIO_CHAR:
        FOLD(signed char);
        break;
    case MPIRIO_INT:
        FOLD(int);
        break;
    case MPIRIO_UNSIGNED:
        FOLD(unsigned);
        break;
    case MPIRIO_LONG:
        FOLD(long);
        break;
    case MPIRIO_FLOAT:
        FOLD(float);
        break;
    case MPIRIO_DOUBLE:
        FOLD(double);
        break;
    }
    return MPIRIO_SUCCESS;
}
