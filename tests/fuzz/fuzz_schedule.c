/*
 * tests/fuzz/fuzz_schedule.c - libFuzzer target of the tgc-schedule/1 reader
 * (frontend/sched_json.c, with the graph and platform it embeds and ir_sched_verify), as
 * `tgc schedule --from FILE` reads a file; a schedule it accepts must write and read back
 * unchanged (docs/formats.md promises the same bytes).
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_path("schedule.json");
    fuzz_write(path, data, size);
    Options opt = fuzz_options();
    Diag *d = diag_new();
    Graph *g = NULL;
    Sched *s = fe_load_schedule(path, &opt, &g, d);
    fuzz_check_diag(d, s != NULL, "tgc-schedule/1 reader");
    if (s) {
        char *text = cg_sched_json_file(s, NULL, path);
        fuzz_write(path, text, strlen(text));
        Diag *d2 = diag_new();
        Graph *h = NULL;
        Sched *t = fe_load_schedule(path, &opt, &h, d2);
        if (!t)
            fuzz_fail("the schedule it wrote does not read back:\n%s%s", diag_text(d2),
                      text);
        char *again = cg_sched_json_file(t, NULL, path);
        if (strcmp(text, again) != 0)
            fuzz_fail("the schedule read back writes differently:\n%s\n---\n%s", text,
                      again);
        free(again);
        free(text);
        ir_sched_free(t);
        ir_graph_free(h);
        diag_free(d2);
    }
    ir_sched_free(s);
    ir_graph_free(g);
    diag_free(d);
    return 0;
}
