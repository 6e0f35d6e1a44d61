/* deadlock: DSPs 0 and 1 both receive first; mpirio-run must stop with the report
 * and exit status 2 instead of hanging. */
#include <mpirio.h>

int
main(int argc, char **argv)
{
    int rank, v = 0;
    MPIRIO_Init(&argc, &argv);
    MPIRIO_Comm_rank(MPIRIO_COMM_WORLD, &rank);
    if (rank < 2) {
        MPIRIO_Recv(&v, 1, MPIRIO_INT, 1 - rank, 0, MPIRIO_COMM_WORLD,
                    MPIRIO_STATUS_IGNORE);
        MPIRIO_Send(&v, 1, MPIRIO_INT, 1 - rank, 0, MPIRIO_COMM_WORLD);
    }
    MPIRIO_Finalize();
    return 0;
}
