/* tests/check_platform.c - the platform description tgc and libmpirio share (platform/):
 * the presets, the fit for N DSPs, the reader's results and its messages through the
 * sink, the text of a message, the description line. */
#include <check.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "platform.h"

/* the messages of one reading, one a line, as pd_format_message writes them */
typedef struct Seen {
    char text[4096];
    int n;
} Seen;

static void
keep(void *ctx, const char *file, const char *pointer, int line, int col, const char *msg)
{
    Seen *s = ctx;
    size_t at = strlen(s->text);
    pd_format_message(s->text + at, sizeof s->text - at, file, pointer, line, col, msg);
    at = strlen(s->text);
    if (at + 1 < sizeof s->text)
        strcpy(s->text + at, "\n");
    s->n++;
}

static int
read_doc(const char *text, PlatDesc *p, Seen *s)
{
    memset(s, 0, sizeof *s);
    PdSink sink = {keep, s};
    return pd_read_text(text, strlen(text), "p.json", &sink, p);
}

static int
has_link(const PlatDesc *p, int a, int b)
{
    for (int i = 0; i < p->nlinks; i++)
        if (p->links[i].a == a && p->links[i].b == b)
            return 1;
    return 0;
}

TEST_CASE("platform", 0)

TEST(presets_once)
{
    static const int boards[] = {1, 2, 4, 16}, links[] = {0, 1, 4, 24};
    for (int i = 0; i < 4; i++) {
        PlatDesc p;
        ck_assert_int_eq(pd_preset(&p, pd_preset_names[i]), 0);
        ck_assert_str_eq(p.name, pd_preset_names[i]);
        ck_assert_int_eq(p.model, PD_BWDSP);
        ck_assert_int_eq(p.nboards, boards[i]);
        ck_assert_int_eq(p.ndsps, 4 * boards[i]);
        ck_assert_int_eq(p.nlinks, links[i]);
        ck_assert_int_eq(p.dsp_clock_mhz, 500);
        ck_assert_int_eq(p.payload_bytes, 250);
        ck_assert_int_eq(pd_unreached_board(&p), -1);
        pd_free(&p);
    }
    PlatDesc r;
    pd_preset(&r, "bwdsp-4board");
    ck_assert(has_link(&r, 0, 1) && has_link(&r, 1, 2) && has_link(&r, 2, 3) &&
              has_link(&r, 3, 0));
    pd_free(&r);
    pd_preset(&r, "bwdsp-16board"); /* 4x4, row-major: right and lower neighbours */
    ck_assert(has_link(&r, 0, 1) && has_link(&r, 0, 4) && has_link(&r, 14, 15) &&
              has_link(&r, 11, 15) && !has_link(&r, 3, 4));
    pd_free(&r);
    PlatDesc a;
    ck_assert_int_eq(pd_preset(&a, "abstract"), 0);
    ck_assert_int_eq(a.model, PD_ABSTRACT);
    ck_assert_int_eq(a.ndsps, 4);
    ck_assert_int_eq(a.nboards, 0);
    ck_assert_int_eq(a.send_overhead + a.recv_overhead + a.handshake, 0);
    ck_assert_int_eq(a.eager_limit, 1000000000);
    pd_free(&a);
    PlatDesc u = {.ndsps = 7};
    ck_assert_int_eq(pd_preset(&u, "bwdsp-3board"), -1);
    ck_assert_int_eq(u.ndsps, 7); /* untouched */
}
END_TEST

TEST(fit_for_n_dsps)
{
    PlatDesc p;
    pd_fit(&p, 5);
    ck_assert_str_eq(p.name, "bwdsp-2board");
    pd_free(&p);
    pd_fit(&p, 64);
    ck_assert_str_eq(p.name, "bwdsp-16board");
    pd_free(&p);
    pd_fit(&p, 100); /* 25 boards, 5x5: 2 * 5 * 4 links */
    ck_assert_str_eq(p.name, "mesh-5x5-25board");
    ck_assert_int_eq(p.ndsps, 100);
    ck_assert_int_eq(p.nlinks, 40);
    pd_free(&p);
    pd_fit(&p, 65); /* 17 boards: 5 columns, 4 rows, the last row one board */
    ck_assert_str_eq(p.name, "mesh-4x5-17board");
    ck_assert_int_eq(p.nboards, 17);
    ck_assert_int_eq(p.nlinks, 25);
    ck_assert(has_link(&p, 11, 16) && has_link(&p, 15, 16) && !has_link(&p, 12, 17));
    ck_assert_int_eq(pd_unreached_board(&p), -1);
    pd_free(&p);
}
END_TEST

TEST(reader_fills_the_description)
{
    PlatDesc p;
    Seen s;
    ck_assert_int_eq(
        read_doc("{\"format\": \"tgc-platform/1\", \"preset\": \"bwdsp-4board\", "
                 "\"handshake\": 0, \"x-a\": 1}",
                 &p, &s),
        0);
    ck_assert_int_eq(s.n, 0);
    ck_assert_str_eq(p.name, "p.json"); /* a file's name is its path */
    ck_assert_int_eq(p.nlinks, 4);      /* the preset's ring while the boards stay */
    ck_assert_int_eq(p.handshake, 0);
    ck_assert_int_eq(p.send_overhead, 600);
    pd_free(&p);
    ck_assert_int_eq(
        read_doc("{\"format\": \"tgc-platform/1\", \"preset\": \"bwdsp-4board\", "
                 "\"boards\": 5, \"name\": \"five\"}",
                 &p, &s),
        0);
    ck_assert_str_eq(p.name, "five");
    ck_assert_int_eq(p.ndsps, 20);
    ck_assert_int_eq(p.nlinks, 4); /* a chain of five */
    ck_assert(has_link(&p, 3, 4) && !has_link(&p, 3, 0));
    pd_free(&p);
    ck_assert_int_eq(read_doc("{\"format\": \"tgc-platform/1\", \"model\": \"abstract\", "
                              "\"dsps\": 3, \"link_mbps\": 1e3}",
                              &p, &s),
                     0);
    ck_assert_int_eq(p.model, PD_ABSTRACT);
    ck_assert_int_eq(p.ndsps, 3);
    ck_assert_int_eq(p.link_mbps, 1000); /* an integral real */
    pd_free(&p);
    /* inline, at a pointer of another document, format optional */
    json_t *g = json_loads("{\"platform\": {\"boards\": 2, \"bords\": 1}}", 0, NULL);
    memset(&s, 0, sizeof s);
    PdSink sink = {keep, &s};
    ck_assert_int_eq(pd_read_object(json_object_get(g, "platform"), "g.json", "/platform",
                                    "inline", false, &sink, &p),
                     -1);
    ck_assert_str_eq(s.text, "g.json: /platform/bords: error: unknown field \"bords\" "
                             "(did you mean \"boards\"?)\n");
    ck_assert_ptr_null(p.name);
    ck_assert_int_eq(pd_read_object(json_object_get(g, "platform"), "g.json", "/platform",
                                    "inline", false, NULL, &p),
                     -1); /* no sink: refused all the same */
    json_object_del(json_object_get(g, "platform"), "bords");
    ck_assert_int_eq(pd_read_object(json_object_get(g, "platform"), "g.json", "/platform",
                                    "inline", false, &sink, &p),
                     0);
    ck_assert_str_eq(p.name, "inline");
    ck_assert(has_link(&p, 0, 1));
    pd_free(&p);
    json_decref(g);
}
END_TEST

TEST(reader_reports_every_error)
{
    PlatDesc p;
    Seen s;
    ck_assert_int_eq(read_doc("{\"format\": \"tgc-platform/2\", \"model\": \"toy\",\n"
                              " \"boards\": 2, \"links\": [[0, 0], [0, 7], 3],\n"
                              " \"send_overhead\": -1, \"packet_bytes\": 100}",
                              &p, &s),
                     -1);
    ck_assert_int_eq(s.n, 7);
    ck_assert_str_eq(
        s.text,
        "p.json: /format: error: format must be \"tgc-platform/1\", got "
        "\"tgc-platform/2\"\n"
        "p.json: /model: error: unknown model \"toy\" (the models are \"bwdsp\" and "
        "\"abstract\")\n"
        "p.json: /links/0: error: link joins board 0 to itself\n"
        "p.json: /links/1/1: error: link to unknown board 7 (the boards are 0 to 1)\n"
        "p.json: /links/2: error: a link must be a pair of board indices [a, b], got 3\n"
        "p.json: /send_overhead: error: send_overhead must be >= 0, got -1\n"
        "p.json: /packet_bytes: error: payload_bytes (250) must be less than "
        "packet_bytes "
        "(100)\n");
    ck_assert_ptr_null(p.name);
    ck_assert_ptr_null(p.links);
    ck_assert_int_eq(
        read_doc("{\"format\": \"tgc-platform/1\",\n  \"boards\": 2,,}", &p, &s), -1);
    ck_assert_str_eq(s.text, "p.json:2:15: error: string or '}' expected near ','\n");
    /* connectivity only when nothing else is wrong */
    ck_assert_int_eq(read_doc("{\"format\": \"tgc-platform/1\", \"boards\": 3, "
                              "\"links\": [[2, 1]]}",
                              &p, &s),
                     -1);
    ck_assert_str_eq(s.text, "p.json: /links: error: the board links do not connect "
                             "board 1 to board 0\n");
}
END_TEST

TEST(message_text)
{
    char b[128];
    ck_assert_uint_eq(pd_format_message(b, sizeof b, "f.json", NULL, 3, 9, "bad"), 22);
    ck_assert_str_eq(b, "f.json:3:9: error: bad");
    pd_format_message(b, sizeof b, "f.json", "", 0, 0, "bad");
    ck_assert_str_eq(b, "f.json: /: error: bad");
    pd_format_message(b, sizeof b, "f.json", NULL, 0, 0, "bad");
    ck_assert_str_eq(b, "f.json: error: bad");
    pd_format_message(b, sizeof b, NULL, NULL, 0, 0, "bad");
    ck_assert_str_eq(b, "error: bad");
    pd_format_message(b, sizeof b, "f.json", "/a\nb", 0, 0, "key \"\x01\"\t");
    ck_assert_str_eq(b, "f.json: /a\\nb: error: key \"\\x01\"\\t");
    char small[8];
    ck_assert_uint_eq(pd_format_message(small, sizeof small, "f.json", "/x", 0, 0, "bad"),
                      22);
    ck_assert_str_eq(small, "f.json:"); /* cut to the buffer, NUL-terminated */
}
END_TEST

TEST(description_line)
{
    PlatDesc p;
    pd_preset(&p, "bwdsp-2board");
    char *d = pd_describe(&p);
    ck_assert_str_eq(d,
                     "bwdsp-2board: bwdsp, 2 boards of 4 DSPs, links 0-1, dsp_clock_mhz "
                     "500, link_mbps 4416, packet_bytes 276, payload_bytes 250, "
                     "switch_latency 100, send_overhead 600, recv_overhead 400, "
                     "post_overhead 300, wait_overhead 200, copy_bytes_per_cycle 8, "
                     "handshake 300, eager_limit 0, dsp_memory_bytes 2097152");
    free(d);
    pd_free(&p);
    pd_abstract(&p, 3);
    d = pd_describe(&p);
    ck_assert_ptr_nonnull(strstr(d, "abstract: abstract, 3 DSPs, dsp_clock_mhz 500"));
    free(d);
    pd_free(&p);
}
END_TEST

TEST(names_and_hints)
{
    ck_assert_str_eq(pd_suggest_preset("bwdsp-3board"), "bwdsp-2board");
    ck_assert_str_eq(pd_suggest_preset("bwdsp-100board"), "bwdsp-16board");
    ck_assert_str_eq(pd_suggest_preset("abstrct"), "abstract");
    ck_assert_ptr_null(pd_suggest_preset("cluster"));
    static const char *const words[] = {"boards", "links"};
    ck_assert_str_eq(pd_suggest("bosrd", words, 2), "boards");
    ck_assert_ptr_null(pd_suggest("colour", words, 2));
    ck_assert(pd_is_path("p.json") && pd_is_path("dir/p") &&
              !pd_is_path("bwdsp-1board") && !pd_is_path("p.jsonx"));
    Seen s = {0};
    PdSink sink = {keep, &s};
    pd_unknown_platform("bwdsp-9board", NULL, NULL, &sink);
    ck_assert_str_eq(
        s.text,
        "error: unknown platform \"bwdsp-9board\" (did you mean \"bwdsp-4board\"?)\n");
}
END_TEST
