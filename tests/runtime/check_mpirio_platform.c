/* check_mpirio_platform.c: presets, the MST routes (Prim from board 0, ties to the
 * lower board), the mesh rule above 64 DSPs, platform files, the trace (valid JSON
 * however the run ends, spans named by the program), invalid settings. */
#include "../check_run.h"
#include <check.h>
#include <jansson.h>
#include <mpirio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static MPIRIO_Stats st;
static int used[4096][2], nused;
static int src_rank, dst_rank, nd;

/* one message src -> dst, then the board links it crossed */
static void
probe(int rank, void *arg)
{
    char b[100] = {0};
    if (rank == src_rank)
        MPIRIO_Send(b, 100, MPIRIO_BYTE, dst_rank, 0, MPIRIO_COMM_WORLD);
    else if (rank == dst_rank) {
        MPIRIO_Recv(b, 100, MPIRIO_BYTE, src_rank, 0, MPIRIO_COMM_WORLD, NULL);
        MPIRIO_Traffic t;
        MPIRIO_traffic(&t);
        nused = 0;
        for (int l = 0; l < t.nlinks; l++) {
            MPIRIO_Link k;
            MPIRIO_link_traffic(l, &k);
            if (k.packets && k.from_kind == 1 && k.to_kind == 1) {
                used[nused][0] = k.from;
                used[nused][1] = k.to;
                nused++;
            }
        }
    }
    if (rank == 0)
        MPIRIO_Comm_size(MPIRIO_COMM_WORLD, &nd);
}

static int
crossed(int a, int b)
{
    for (int i = 0; i < nused; i++)
        if (used[i][0] == a && used[i][1] == b)
            return 1;
    return 0;
}

static void
route(const char *plat, int n, int s, int d)
{
    src_rank = s, dst_rank = d;
    ck_assert_int_eq(MPIRIO_Run(n, plat, MPIRIO_RUN_QUIET, probe, NULL), 0);
    MPIRIO_Run_stats(&st);
}

TEST_CASE("platform", 60)

TEST(ring_tree_is_0_1_2_and_0_3)
{
    route("bwdsp-4board", 16, 9, 13); /* board 2 -> board 3: 2-1-0-3 */
    ck_assert_int_eq(nused, 3);
    ck_assert(crossed(2, 1) && crossed(1, 0) && crossed(0, 3));
}
END_TEST

TEST(mesh_tree_is_a_comb)
{
    /* 4x4 mesh: row 0 is a chain, each column hangs below it */
    route("bwdsp-16board", 64, 63, 48); /* board 15 -> board 12 */
    ck_assert_int_eq(nused, 9);
    ck_assert(crossed(15, 11) && crossed(11, 7) && crossed(7, 3) && crossed(3, 2) &&
              crossed(2, 1) && crossed(1, 0) && crossed(0, 4) && crossed(4, 8) &&
              crossed(8, 12));
    route("bwdsp-16board", 64, 20, 25); /* board 5 -> board 6: 5-1-2-6 */
    ck_assert_int_eq(nused, 3);
    ck_assert(crossed(5, 1) && crossed(1, 2) && crossed(2, 6));
}
END_TEST

TEST(large_jobs_get_a_near_square_mesh)
{
    route(NULL, 256, 255, 0); /* 64 boards, 8x8: board 63 -> 0 up column 7, along row 0 */
    ck_assert_int_eq(st.ndsps, 256);
    ck_assert_int_eq(nd, 256);
    ck_assert_int_eq(nused, 14);
    ck_assert(crossed(63, 55) && crossed(7, 6) && crossed(1, 0));
    route(NULL, 5, 4, 0); /* smallest preset: two boards */
    ck_assert_int_eq(nused, 1);
    ck_assert(crossed(1, 0));
    route(NULL, 100, 99, 0); /* 25 boards, 5x5 */
    ck_assert_int_eq(nused, 8);
}
END_TEST

static char file[64];

static int
with_file(const char *body, int n)
{
    snprintf(file, sizeof file, "/tmp/mpirio-platform-%d.json", (int)getpid());
    FILE *f = fopen(file, "w");
    fputs(body, f);
    fclose(f);
    src_rank = 0, dst_rank = n - 1;
    int rc = MPIRIO_Run(n, file, MPIRIO_RUN_QUIET, probe, NULL);
    MPIRIO_Run_stats(&st);
    unlink(file);
    return rc;
}

TEST(platform_files)
{
    /* a chain 0-2-1 of two-DSP boards: DSP 5 is on board 2, DSP 3 on board 1 */
    ck_assert_int_eq(with_file("{\"format\": \"tgc-platform/1\", \"boards\": 3, "
                               "\"dsps_per_board\": 2, \"links\": [[0, 2], [2, 1]]}",
                               6),
                     0);
    ck_assert_int_eq(nused, 1);
    ck_assert(crossed(0, 2));
    ck_assert_int_eq(with_file("{\"format\": \"tgc-platform/1\", \"boards\": 3, "
                               "\"dsps_per_board\": 2, \"links\": [[0, 2], [2, 1]]}",
                               4),
                     0);
    ck_assert(crossed(0, 2) && crossed(2, 1));
    ck_assert_int_eq(with_file("{\"format\": \"tgc-platform/1\", \"boards\": 2,\n"
                               "  \"links\": [[0, 1]],,}",
                               2),
                     1);
    ck_assert_ptr_nonnull(strstr(st.report, ":2:"));
    ck_assert_int_eq(with_file("{\"format\": \"tgc-graph/1\", \"boards\": 2}", 2), 1);
    ck_assert_ptr_nonnull(strstr(st.report, "/format: error"));
    ck_assert_int_eq(with_file("{\"format\": \"tgc-platform/1\", \"boards\": 2, "
                               "\"links\": [[0, 5]]}",
                               2),
                     1);
    ck_assert_ptr_nonnull(strstr(
        st.report, "/links/0/1: error: link to unknown board 5 (the boards are 0 to 1)"));
    ck_assert_int_eq(with_file("{\"format\": \"tgc-platform/1\", \"boards\": 3, "
                               "\"links\": [[0, 1]]}",
                               9),
                     1);
    ck_assert_ptr_nonnull(strstr(st.report, "do not connect board 2 to board 0"));
    /* defaults: one board; boards without links are a chain; x- fields are ignored */
    ck_assert_int_eq(with_file("{\"format\": \"tgc-platform/1\", \"x-note\": [1]}", 4),
                     0);
    ck_assert_int_eq(nused, 0);
    ck_assert_int_eq(with_file("{\"format\": \"tgc-platform/1\", \"boards\": 3}", 12), 0);
    ck_assert(crossed(0, 1) && crossed(1, 2));
    /* a preset as the base: its links while the board count stays */
    ck_assert_int_eq(with_file("{\"format\": \"tgc-platform/1\", \"preset\": "
                               "\"bwdsp-4board\", \"handshake\": 0}",
                               16),
                     0);
    ck_assert_int_eq(nused, 1);
    ck_assert(crossed(0, 3));
    ck_assert_int_eq(with_file("{\"format\": \"tgc-platform/1\", \"preset\": "
                               "\"bwdsp-4board\", \"boards\": 5}",
                               20),
                     0);
    ck_assert_int_eq(nused, 4);
    ck_assert_int_eq(with_file("{\"format\": \"tgc-platform/1\", \"colour\": 1}", 2), 1);
    ck_assert_ptr_nonnull(strstr(st.report, "/colour: error: unknown field"));
    ck_assert_int_eq(
        with_file("{\"format\": \"tgc-platform/1\", \"model\": \"abstract\", "
                  "\"dsps\": 4, \"links\": []}",
                  2),
        1);
    ck_assert_ptr_nonnull(
        strstr(st.report, "/links: error: links applies to the bwdsp model only"));
    ck_assert_int_eq(with_file("{\"format\": \"tgc-platform/1\", \"dsps\": 4}", 2), 1);
    ck_assert_ptr_nonnull(
        strstr(st.report, "/dsps: error: dsps applies to the abstract model"));
    ck_assert_int_eq(with_file("{\"format\": \"tgc-platform/1\", \"model\": \"toy\"}", 2),
                     1);
    ck_assert_ptr_nonnull(strstr(st.report, "/model: error"));
    ck_assert_int_eq(with_file("{\"format\": \"tgc-platform/1\", \"boards\": 1, "
                               "\"send_overhead\": -4}",
                               2),
                     1);
    ck_assert_ptr_nonnull(strstr(st.report, "/send_overhead: error"));
    ck_assert_int_eq(MPIRIO_Run(2, "/nonexistent/p.json", MPIRIO_RUN_QUIET, probe, NULL),
                     1);
    ck_assert_int_eq(MPIRIO_Run(2, "bwdsp-9board", MPIRIO_RUN_QUIET, probe, NULL), 1);
    MPIRIO_Run_stats(&st);
    ck_assert_ptr_nonnull(strstr(st.report, "unknown platform \"bwdsp-9board\""));
}
END_TEST

TEST(file_parameters_change_the_timing)
{
    /* handshake 0, send_overhead 0: 100 bytes = one 126-byte packet, ser 115, so the
     * data is in at 115 + (100 + 115) = 330, then recv_overhead 400 */
    ck_assert_int_eq(with_file("{\"format\": \"tgc-platform/1\", \"boards\": 1, "
                               "\"handshake\": 0, \"send_overhead\": 0}",
                               2),
                     0);
    ck_assert_int_eq(st.cycles, 330 + 400);
}
END_TEST

static long long at[4];

static void
abstract_dsp(int rank, void *arg)
{
    static char b[1000];
    int e = 0;
    if (rank == 0) {
        MPIRIO_Compute(100);
        e = MPIRIO_Send(b, 1000, MPIRIO_BYTE, 1, 0, MPIRIO_COMM_WORLD);
    } else if (rank == 1) {
        MPIRIO_Request r;
        e = MPIRIO_Irecv(b, 1000, MPIRIO_BYTE, 0, 0, MPIRIO_COMM_WORLD, &r);
        e |= MPIRIO_Wait(&r, NULL);
    }
    e |= MPIRIO_Bcast(b, 10, MPIRIO_BYTE, 2, MPIRIO_COMM_WORLD);
    at[rank] = e ? -1 : MPIRIO_time();
}

TEST(abstract_model)
{
    /* n bytes cost n cycles, no overheads, every message eager; collectives are
     * MPICH's (no switches): the binomial bcast from 2 sends to 0 (in at 10, taken
     * at 1100, passed on to 1 by 1110), then to 3 (10 to 20); a blocking send ends
     * when its data is in */
    ck_assert_int_eq(
        with_file("{\"format\": \"tgc-platform/1\", \"model\": \"abstract\", "
                  "\"dsps\": 4}",
                  4),
        0);
    ck_assert_int_eq(MPIRIO_Run(4, "abstract", MPIRIO_RUN_QUIET, abstract_dsp, NULL), 0);
    MPIRIO_Run_stats(&st);
    ck_assert_int_eq(at[0], 1110);
    ck_assert_int_eq(at[1], 1110);
    ck_assert_int_eq(at[2], 20);
    ck_assert_int_eq(at[3], 20);
    ck_assert_int_eq(st.traffic.link_packets, 0);
    ck_assert_int_eq(st.traffic.packets, 4 + 3);
}
END_TEST

TEST(trace_is_chrome_json)
{
    char tf[64];
    snprintf(tf, sizeof tf, "/tmp/mpirio-trace-%d.json", (int)getpid());
    setenv("MPIRIO_TRACE", tf, 1);
    route("bwdsp-2board", 8, 1, 6);
    unsetenv("MPIRIO_TRACE");
    json_error_t e;
    json_t *j = json_load_file(tf, 0, &e);
    ck_assert_msg(j != NULL, "%s:%d: %s", tf, e.line, e.text);
    json_t *ev = json_object_get(j, "traceEvents");
    ck_assert(json_is_array(ev));
    int dsp_spans = 0, link_spans = 0, names = 0;
    size_t i;
    json_t *x;
    json_array_foreach (ev, i, x) {
        const char *ph = json_string_value(json_object_get(x, "ph"));
        int pid = (int)json_integer_value(json_object_get(x, "pid"));
        if (strcmp(ph, "M") == 0)
            names++;
        else if (strcmp(ph, "X") == 0 && pid == 0)
            dsp_spans++;
        else if (strcmp(ph, "X") == 0 && pid == 1) {
            link_spans++;
            ck_assert(json_is_real(json_object_get(x, "ts")));
        }
    }
    /* 2 process names, 8 DSP tracks, 2 * 8 + 2 link tracks */
    ck_assert_int_eq(names, 2 + 8 + 18);
    ck_assert_int_eq(link_spans, 3); /* one packet over three links */
    ck_assert_int_ge(dsp_spans, 2);
    json_decref(j);
    unlink(tf);
}
END_TEST

/* the events of a trace file (ck fails if it is not JSON); *named: spans of `name` */
static json_t *
load_trace(const char *tf, const char *name, int *named)
{
    json_error_t e;
    json_t *j = json_load_file(tf, 0, &e);
    ck_assert_msg(j != NULL, "%s:%d: %s", tf, e.line, e.text);
    json_t *ev = json_object_get(j, "traceEvents");
    ck_assert(json_is_array(ev));
    size_t i;
    json_t *x;
    *named = 0;
    json_array_foreach (ev, i, x) {
        const char *n = json_string_value(json_object_get(x, "name"));
        if (n && name && strcmp(n, name) == 0)
            (*named)++;
    }
    return j;
}

static int how_to_end; /* 0: return, 1: exit(5), 2: MPIRIO_Abort(7) */

static void
ending_dsp(int rank, void *arg)
{
    char b[1000] = {0};
    MPIRIO_Compute_named(100 + rank, "kernel \"fir\" \\ 1");
    if (rank == 0)
        MPIRIO_Send(b, sizeof b, MPIRIO_BYTE, 1, 0, MPIRIO_COMM_WORLD);
    else if (rank == 1)
        MPIRIO_Recv(b, sizeof b, MPIRIO_BYTE, 0, 0, MPIRIO_COMM_WORLD, NULL);
    MPIRIO_Bcast(b, 10, MPIRIO_BYTE, 0, MPIRIO_COMM_WORLD);
    if (rank == 2 && how_to_end == 1)
        exit(5);
    if (rank == 2 && how_to_end == 2)
        MPIRIO_Abort(MPIRIO_COMM_WORLD, 7);
    MPIRIO_Barrier(MPIRIO_COMM_WORLD);
}

/* runs ending_dsp in a child process; its exit status */
static int
run_child(const char *tf, int how)
{
    fflush(stdout);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        how_to_end = how;
        setenv("MPIRIO_TRACE", tf, 1);
        int rc = MPIRIO_Run(4, NULL, MPIRIO_RUN_QUIET, ending_dsp, NULL);
        exit(rc == 0 ? 0 : 99);
    }
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert(WIFEXITED(status));
    return WEXITSTATUS(status);
}

TEST(trace_is_json_however_the_run_ends)
{
    char tf[64];
    snprintf(tf, sizeof tf, "/tmp/mpirio-trace-end-%d.json", (int)getpid());
    static const int want[] = {0, 5, 7};
    for (int how = 0; how < 3; how++) {
        unlink(tf);
        ck_assert_int_eq(run_child(tf, how), want[how]);
        int named;
        json_t *j = load_trace(tf, "kernel \"fir\" \\ 1", &named);
        ck_assert_int_eq(named, 4); /* each DSP's compute span, by its name */
        json_decref(j);
    }
    unlink(tf);
}
END_TEST

TEST(unwritable_trace_fails)
{
    setenv("MPIRIO_TRACE", "/nonexistent/t.json", 1);
    ck_assert_int_eq(MPIRIO_Run(4, NULL, MPIRIO_RUN_QUIET, ending_dsp, NULL), 1);
    unsetenv("MPIRIO_TRACE");
    MPIRIO_Run_stats(&st);
    ck_assert_str_eq(st.report, "mpirio: cannot write the trace \"/nonexistent/t.json\": "
                                "No such file or directory\n");
}
END_TEST

TEST(invalid_settings_are_refused)
{
    static const char *const bad[][3] = {
        {"MPIRIO_FAULTS", "abc", "(--faults) \"abc\": expected a fraction"},
        {"MPIRIO_FAULTS", "-0.1", "(--faults) \"-0.1\": expected a fraction"},
        {"MPIRIO_FAULTS", "2", "(--faults) \"2\": expected a fraction"},
        {"MPIRIO_FAULTS", "1", "(--faults) \"1\": expected a fraction"},
        {"MPIRIO_COLL", "bogus", "(--coll) \"bogus\": expected switch or mpich"},
        {"MPIRIO_FAULT_SEED", "-1", "(--fault-seed) \"-1\": expected an unsigned"},
        {"MPIRIO_SUMMARY", "yes", "(--summary) \"yes\": expected 0 or 1"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        setenv(bad[i][0], bad[i][1], 1);
        int rc = MPIRIO_Run(4, NULL, MPIRIO_RUN_QUIET, ending_dsp, NULL);
        unsetenv(bad[i][0]);
        ck_assert_int_eq(rc, 1);
        MPIRIO_Run_stats(&st);
        ck_assert_msg(strstr(st.report, bad[i][2]) != NULL, "%s", st.report);
    }
    setenv("MPIRIO_FAULTS", "0.25", 1);
    setenv("MPIRIO_FAULT_SEED", "0x10", 1);
    ck_assert_int_eq(MPIRIO_Run(4, NULL, MPIRIO_RUN_QUIET, ending_dsp, NULL), 0);
    unsetenv("MPIRIO_FAULTS");
    unsetenv("MPIRIO_FAULT_SEED");
    MPIRIO_Run_stats(&st);
    ck_assert_int_gt(st.traffic.retries, 0);
}
END_TEST
