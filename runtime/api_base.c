/* api_base.c: the bottom of the API layer, in the libraries of every transport: what
 * the MPIRIO names (api.c) and the MPI names (mpi_*.c) share below all of them. Calls
 * nothing of the API layer (tests/runtime/layers.sh). */
#include "mpirio_int.h"

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
