/*
 * frontend/import_sdf3.c - synchronous dataflow graphs in the XML format of SDF3 (the
 * dataflow tool of Eindhoven University of Technology, sdf3-sdf.xsd), read with libxml2.
 *
 *   <sdf3 type="sdf" version="1.0">
 *     <applicationGraph name="samplerate">
 *       <sdf name="samplerate" type="Samplerate">
 *         <actor name="a" type="A">                      an actor: a task of the graph
 *           <port name="p1" type="out" rate="1"/>        tokens per firing
 *         </actor>
 *         <channel name="ch1" srcActor="a" srcPort="p1"  a channel: an edge, produce and
 *                  dstActor="b" dstPort="p1"             consume from its ports' rates,
 *                  initialTokens="0"/>                   tokens from initialTokens
 *       </sdf>
 *       <sdfProperties>
 *         <actorProperties actor="a">
 *           <processor type="p1" default="true">         cycles: the execution time on
 *             <executionTime time="5"/>                  the default processor, or on
 *           </processor>                                 --processor TYPE
 *         </actorProperties>
 *         <channelProperties channel="ch1">
 *           <tokenSize sz="32"/>                         bits per token: bytes = sz / 8,
 *         </channelProperties>                           rounded up (0 without one)
 *         <graphProperties><timeConstraints>
 *           <throughput>0.00001</throughput>             iterations per cycle: the
 *         </timeConstraints></graphProperties>           period_constraint 1 / it, down
 *       </sdfProperties>
 *     </applicationGraph>
 *   </sdf3>
 *
 * The default processor follows SDF3 (sdf/base/timed/actor.cc): the last processor
 * marked default="true" of the actor.  Every error is located at its element's line
 * (FILE:LINE: error: ...; libxml2's own as FILE:LINE:COL), all of them are reported, and
 * nothing is returned when there is one.  What SDF3 leaves to the tools that analyse a
 * graph (consistent rates, deadlocks, tgc's limits) the tgc-graph/1 reader checks: the
 * graph is written and read back as `tgc check` would, and its errors are reported at
 * the actors and channels they name, so that an imported graph is one tgc accepts.
 * The result is a multi-rate tgc-graph/1 graph (docs/formats.md) on the platform of
 * --platform (default bwdsp-1board, whose 500 MHz cycles SDF3's testbench assumes).
 */
#include <inttypes.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <stdlib.h>
#include <string.h>

#include "import.h"

typedef struct SPort {
    const char *name;
    int line;
    bool out;
    int64_t rate; /* 0 when missing or bad (already reported) */
    int channel;  /* the channel connected to it, -1 */
} SPort;

typedef struct SActor {
    const char *name;
    int line;
    SPort *ports;
    int nports;
    int props_line;    /* its actorProperties, 0 = none */
    int64_t cycles;    /* on the chosen processor, -1 = none */
    const char *procs; /* its processor types, for messages */
    bool bad;          /* an error was reported about its properties */
} SActor;

typedef struct SChan {
    const char *name;
    int line;
    int src, dst;         /* actors, -1 when unknown */
    int srcport, dstport; /* their ports, -1 */
    int64_t tokens;
    int64_t bytes;
    int props_line;
} SChan;

typedef struct Sdf3 {
    Diag *d;
    const char *file;
    const char *processor; /* --processor, or NULL for the default */
    Arena *a;
    SActor *actors;
    int nactors;
    SChan *chans;
    int nchans;
    const char *name;
    int64_t period_constraint; /* 0 = none */
    int errors;
    /* name maps, so that no lookup is a scan: every port by "ACTOR\x1fport", ACTOR the
     * actor's index (so that two actors of one name, already reported, do not collide;
     * \x1f is in no XML name), with the actor and port of each key; the channels */
    FeIdMap ports, chanmap;
    int *port_actor, *port_k;
} Sdf3;

static void err(Sdf3 *s, const xmlNode *n, const char *fmt, ...) TGC_PRINTF(3, 4);

static void
err(Sdf3 *s, const xmlNode *n, const char *fmt, ...)
{
    Loc loc = {.file = s->file, .line = n ? (int)xmlGetLineNo(n) : 0};
    if (loc.line < 0)
        loc.line = 0;
    va_list ap;
    va_start(ap, fmt);
    diag_vreport(s->d, DIAG_ERROR, &loc, fmt, ap);
    va_end(ap);
    s->errors++;
}

/* A name for a message: quoted by the caller, control bytes escaped. */
static const char *
shown(Sdf3 *s, const char *name)
{
    return ir_shown(s->a, name, 60);
}

static bool
is(const xmlNode *n, const char *name)
{
    return n->type == XML_ELEMENT_NODE && xmlStrEqual(n->name, BAD_CAST name);
}

/* The attribute's value in s->a, or NULL when it is absent. */
static const char *
attr(Sdf3 *s, const xmlNode *n, const char *name)
{
    xmlChar *v = xmlGetProp(n, BAD_CAST name);
    if (!v)
        return NULL;
    const char *r = arena_strdup(s->a, (const char *)v);
    xmlFree(v);
    return r;
}

/* An xs:decimal with an integral value in [lo, hi] ("7", " +7 ", "7.0"): 1 and *out,
 * 0 when the attribute is absent, -1 after reporting.  `what` names it in messages. */
static int
int_attr(Sdf3 *s, const xmlNode *n, const char *name, const char *what, int64_t lo,
         int64_t hi, int64_t *out)
{
    const char *v = attr(s, n, name);
    if (!v)
        return 0;
    const char *p = v;
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        p++;
    bool neg = *p == '-';
    if (*p == '-' || *p == '+')
        p++;
    int64_t x = 0;
    bool digits = false, big = false, frac = false;
    for (; *p >= '0' && *p <= '9'; p++) {
        digits = true;
        if (x > (INT64_MAX - 9) / 10)
            big = true;
        else
            x = 10 * x + (*p - '0');
    }
    if (*p == '.') {
        for (p++; *p >= '0' && *p <= '9'; p++) {
            digits = true;
            frac |= *p != '0';
        }
    }
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        p++;
    if (!digits || *p) {
        err(s, n, "%s must be an integer, got \"%s\"", what, shown(s, v));
        return -1;
    }
    if (frac) {
        err(s, n, "%s must be a whole number, got \"%s\"", what, shown(s, v));
        return -1;
    }
    if (neg && x > 0) {
        err(s, n, "%s must be >= %" PRId64 ", got -%" PRId64, what, lo, x);
        return -1;
    }
    if (big || x > hi) {
        err(s, n, "%s must be at most %" PRId64 ", got \"%s\"", what, hi, shown(s, v));
        return -1;
    }
    if (x < lo) {
        err(s, n, "%s must be >= %" PRId64 ", got %" PRId64, what, lo, x);
        return -1;
    }
    *out = x;
    return 1;
}

/* A required, non-empty name attribute; NULL after reporting. */
static const char *
name_attr(Sdf3 *s, const xmlNode *n, const char *name, const char *what)
{
    const char *v = attr(s, n, name);
    if (!v)
        err(s, n, "%s has no %s attribute", what, name);
    else if (!*v) {
        err(s, n, "%s has an empty %s", what, name);
        return NULL;
    }
    return v;
}

static int
count_elements(const xmlNode *parent, const char *name)
{
    int k = 0;
    for (const xmlNode *c = parent->children; c; c = c->next)
        k += is(c, name);
    return k;
}

/* The only child element called name: NULL when there is none (reported when
 * required), the first one after reporting when there are several. */
static const xmlNode *
only_child(Sdf3 *s, const xmlNode *parent, const char *name, bool required)
{
    const xmlNode *first = NULL;
    for (const xmlNode *c = parent->children; c; c = c->next) {
        if (!is(c, name))
            continue;
        if (first) {
            err(s, c, "a second <%s> in <%s> (the first is at line %ld)", name,
                (const char *)parent->name, xmlGetLineNo(first));
            break;
        }
        first = c;
    }
    if (!first && required)
        err(s, parent, "<%s> has no <%s>", (const char *)parent->name, name);
    return first;
}

/* ------------------------------------------------------------------ the structure */

static int
find_actor(const Sdf3 *s, const FeIdMap *m, const char *name)
{
    (void)s;
    return name ? fe_idmap_find(m, name) : -1;
}

static void
read_actor(Sdf3 *s, const xmlNode *n, SActor *a)
{
    a->line = (int)xmlGetLineNo(n);
    a->name = name_attr(s, n, "name", "<actor>");
    a->cycles = -1;
    int np = count_elements(n, "port");
    a->ports = arena_array(s->a, (size_t)np + 1, sizeof *a->ports);
    for (const xmlNode *c = n->children; c; c = c->next) {
        if (c->type != XML_ELEMENT_NODE)
            continue;
        if (!is(c, "port")) {
            err(s, c, "unknown element <%s> in <actor> (an actor holds <port> elements)",
                shown(s, (const char *)c->name));
            continue;
        }
        SPort *p = &a->ports[a->nports];
        p->line = (int)xmlGetLineNo(c);
        p->channel = -1;
        p->name = name_attr(s, c, "name", "<port>");
        const char *who = arena_printf(s->a, "port \"%s\" of actor \"%s\"",
                                       p->name ? shown(s, p->name) : "?",
                                       a->name ? shown(s, a->name) : "?");
        const char *type = attr(s, c, "type");
        if (!type)
            err(s, c, "%s has no type (\"in\" or \"out\")", who);
        else if (strcmp(type, "in") == 0 || strcmp(type, "out") == 0)
            p->out = type[0] == 'o';
        else
            err(s, c, "%s: type must be \"in\" or \"out\", got \"%s\"", who,
                shown(s, type));
        int rc = int_attr(s, c, "rate", arena_printf(s->a, "the rate of %s", who), 1,
                          FE_MAX_RATE, &p->rate);
        if (rc == 0)
            err(s, c, "%s has no rate", who);
        if (rc != 1)
            p->rate = 0;
        a->nports++;
    }
}

/* The ports' map (a port named twice in one actor reported) and the ports' keys. */
static void
map_ports(Sdf3 *s)
{
    int np = 0;
    for (int i = 0; i < s->nactors; i++)
        np += s->actors[i].nports;
    const char **key = arena_array(s->a, (size_t)np + 1, sizeof *key);
    s->port_actor = arena_array(s->a, (size_t)np + 1, sizeof *s->port_actor);
    s->port_k = arena_array(s->a, (size_t)np + 1, sizeof *s->port_k);
    int j = 0;
    for (int i = 0; i < s->nactors; i++)
        for (int k = 0; k < s->actors[i].nports; k++, j++) {
            const SActor *a = &s->actors[i];
            key[j] = a->ports[k].name
                         ? arena_printf(s->a, "%d\x1f%s", i, a->ports[k].name)
                         : NULL;
            s->port_actor[j] = i;
            s->port_k[j] = k;
        }
    fe_namemap_init(&s->ports, key, np);
    for (j = 0; j < np; j++) {
        int first = key[j] ? fe_idmap_find(&s->ports, key[j]) : j;
        if (first != j) {
            const SActor *a = &s->actors[s->port_actor[j]];
            const SPort *p = &a->ports[s->port_k[j]];
            Loc loc = {.file = s->file, .line = p->line};
            diag_error(s->d, &loc,
                       "actor \"%s\" has two ports \"%s\" (the first at line %d)",
                       a->name ? shown(s, a->name) : "?", shown(s, p->name),
                       a->ports[s->port_k[first]].line);
            s->errors++;
        }
    }
}

static int
find_port(Sdf3 *s, int actor, const char *name)
{
    if (!name)
        return -1;
    int j = fe_idmap_find(&s->ports, arena_printf(s->a, "%d\x1f%s", actor, name));
    return j >= 0 ? s->port_k[j] : -1;
}

/* " (did you mean "NAME"?)" with the name of names[0 .. n) closest to word, or "". */
static const char *
did_you_mean(Sdf3 *s, const char *word, const char **names, int n)
{
    const char *hint = diag_suggest(word, names, (size_t)n);
    return hint ? arena_printf(s->a, " (did you mean \"%s\"?)", shown(s, hint)) : "";
}

/* One end of a channel: its actor and port, checked (known, the right direction, not
 * connected twice). */
static void
channel_end(Sdf3 *s, const xmlNode *n, SChan *ch, const FeIdMap *m, bool src, int *actor,
            int *port)
{
    const char *an = src ? "srcActor" : "dstActor", *pn = src ? "srcPort" : "dstPort";
    const char *who = ch->name ? shown(s, ch->name) : "?";
    const char *aname = attr(s, n, an), *pname = attr(s, n, pn);
    *actor = *port = -1;
    if (!aname) {
        err(s, n, "channel \"%s\" has no %s", who, an);
        return;
    }
    int ai = find_actor(s, m, aname);
    if (ai < 0) {
        const char **names = arena_array(s->a, (size_t)s->nactors + 1, sizeof *names);
        for (int i = 0; i < s->nactors; i++)
            names[i] = s->actors[i].name ? s->actors[i].name : "";
        err(s, n, "channel \"%s\": unknown %s \"%s\"%s", who, an, shown(s, aname),
            did_you_mean(s, aname, names, s->nactors));
        return;
    }
    *actor = ai;
    SActor *a = &s->actors[ai];
    if (!pname) {
        err(s, n, "channel \"%s\" has no %s", who, pn);
        return;
    }
    int pi = find_port(s, ai, pname);
    if (pi < 0) {
        const char **names = arena_array(s->a, (size_t)a->nports + 1, sizeof *names);
        for (int i = 0; i < a->nports; i++)
            names[i] = a->ports[i].name ? a->ports[i].name : "";
        err(s, n, "channel \"%s\": actor \"%s\" has no port \"%s\"%s", who,
            shown(s, aname), shown(s, pname), did_you_mean(s, pname, names, a->nports));
        return;
    }
    SPort *p = &a->ports[pi];
    if (p->out != src) {
        err(s, n, "channel \"%s\": %s \"%s\" of actor \"%s\" is an %s port", who, pn,
            shown(s, pname), shown(s, aname), p->out ? "output" : "input");
        return;
    }
    if (p->channel >= 0) {
        err(s, n,
            "channel \"%s\": port \"%s\" of actor \"%s\" is already connected by "
            "channel \"%s\" (line %d)",
            who, shown(s, pname), shown(s, aname),
            s->chans[p->channel].name ? shown(s, s->chans[p->channel].name) : "?",
            s->chans[p->channel].line);
        return;
    }
    p->channel = (int)(ch - s->chans);
    *port = pi;
}

static void
read_channel(Sdf3 *s, const xmlNode *n, SChan *ch, const FeIdMap *m)
{
    ch->line = (int)xmlGetLineNo(n);
    ch->name = name_attr(s, n, "name", "<channel>");
    channel_end(s, n, ch, m, true, &ch->src, &ch->srcport);
    channel_end(s, n, ch, m, false, &ch->dst, &ch->dstport);
    const char *what = arena_printf(s->a, "the initialTokens of channel \"%s\"",
                                    ch->name ? shown(s, ch->name) : "?");
    if (int_attr(s, n, "initialTokens", what, 0, INT64_C(1) << 40, &ch->tokens) != 1)
        ch->tokens = 0;
}

static void
read_sdf(Sdf3 *s, const xmlNode *sdf)
{
    s->nactors = count_elements(sdf, "actor");
    s->nchans = count_elements(sdf, "channel");
    s->actors = arena_array(s->a, (size_t)s->nactors + 1, sizeof *s->actors);
    s->chans = arena_array(s->a, (size_t)s->nchans + 1, sizeof *s->chans);
    if (s->nactors == 0)
        err(s, sdf, "<sdf> has no <actor>");
    int k = 0;
    for (const xmlNode *c = sdf->children; c; c = c->next) {
        if (is(c, "actor"))
            read_actor(s, c, &s->actors[k++]);
        else if (c->type == XML_ELEMENT_NODE && !is(c, "channel"))
            err(s, c,
                "unknown element <%s> in <sdf> (an SDF graph holds <actor> and <channel> "
                "elements)",
                shown(s, (const char *)c->name));
    }
    const char **names = arena_array(s->a, (size_t)s->nactors + 1, sizeof *names);
    for (int i = 0; i < s->nactors; i++)
        names[i] = s->actors[i].name;
    FeIdMap m;
    fe_namemap_init(&m, names, s->nactors);
    map_ports(s);
    for (int i = 0; i < s->nactors; i++) {
        int first = names[i] ? fe_idmap_find(&m, names[i]) : i;
        if (first != i) {
            Loc loc = {.file = s->file, .line = s->actors[i].line};
            diag_error(s->d, &loc, "a second actor \"%s\" (the first is at line %d)",
                       shown(s, names[i]), s->actors[first].line);
            s->errors++;
            s->actors[i].bad = true; /* its properties go to the first */
        }
    }
    k = 0;
    for (const xmlNode *c = sdf->children; c; c = c->next)
        if (is(c, "channel"))
            read_channel(s, c, &s->chans[k++], &m);
    fe_idmap_free(&m);
    const char **cn = arena_array(s->a, (size_t)s->nchans + 1, sizeof *cn);
    for (int i = 0; i < s->nchans; i++)
        cn[i] = s->chans[i].name;
    fe_namemap_init(&s->chanmap, cn, s->nchans);
    for (int i = 0; i < s->nchans; i++) {
        int first = cn[i] ? fe_idmap_find(&s->chanmap, cn[i]) : i;
        if (first != i) {
            Loc loc = {.file = s->file, .line = s->chans[i].line};
            diag_error(s->d, &loc, "a second channel \"%s\" (the first is at line %d)",
                       shown(s, cn[i]), s->chans[first].line);
            s->errors++;
        }
    }
}

/* ------------------------------------------------------------------ the properties */

static bool
truth(const char *v, bool *out)
{
    if (strcmp(v, "true") == 0 || strcmp(v, "1") == 0)
        *out = true;
    else if (strcmp(v, "false") == 0 || strcmp(v, "0") == 0)
        *out = false;
    else
        return false;
    return true;
}

static void
read_actor_props(Sdf3 *s, const xmlNode *n, const FeIdMap *m)
{
    const char *name = name_attr(s, n, "actor", "<actorProperties>");
    if (!name)
        return;
    int ai = find_actor(s, m, name);
    if (ai < 0) {
        err(s, n, "<actorProperties> of an unknown actor \"%s\"", shown(s, name));
        return;
    }
    SActor *a = &s->actors[ai];
    if (a->props_line) {
        err(s, n, "a second <actorProperties> of actor \"%s\" (the first is at line %d)",
            shown(s, name), a->props_line);
        return;
    }
    a->props_line = (int)xmlGetLineNo(n);
    const xmlNode *chosen = NULL;
    const char *procs = "";
    for (const xmlNode *c = n->children; c; c = c->next) {
        if (!is(c, "processor"))
            continue;
        const char *type = attr(s, c, "type");
        if (!type) {
            err(s, c, "a processor of actor \"%s\" has no type", shown(s, name));
            a->bad = true;
            continue;
        }
        procs =
            arena_printf(s->a, "%s%s\"%s\"", procs, *procs ? ", " : "", shown(s, type));
        bool def = false;
        const char *dv = attr(s, c, "default");
        if (dv && !truth(dv, &def)) {
            err(s, c,
                "processor \"%s\" of actor \"%s\": default must be \"true\" or "
                "\"false\", got \"%s\"",
                shown(s, type), shown(s, name), shown(s, dv));
            a->bad = true;
        }
        /* --processor picks its type; else the last default, as SDF3 does */
        if (s->processor ? strcmp(type, s->processor) == 0 : def)
            chosen = c;
    }
    a->procs = procs;
    if (!chosen)
        return; /* reported with the actors that lack a time */
    const xmlNode *et = only_child(s, chosen, "executionTime", false);
    if (!et) {
        err(s, chosen, "processor \"%s\" of actor \"%s\" has no <executionTime>",
            shown(s, attr(s, chosen, "type")), shown(s, name));
        a->bad = true;
        return;
    }
    const char *what =
        arena_printf(s->a, "the execution time of actor \"%s\"", shown(s, name));
    int rc = int_attr(s, et, "time", what, 0, FE_MAX_CYCLES, &a->cycles);
    if (rc == 0)
        err(s, et, "the <executionTime> of actor \"%s\" has no time", shown(s, name));
    if (rc != 1) {
        a->cycles = -1;
        a->bad = true;
    }
}

static void
read_channel_props(Sdf3 *s, const xmlNode *n)
{
    const char *name = name_attr(s, n, "channel", "<channelProperties>");
    if (!name)
        return;
    int ci = fe_idmap_find(&s->chanmap, name);
    if (ci < 0) {
        err(s, n, "<channelProperties> of an unknown channel \"%s\"", shown(s, name));
        return;
    }
    SChan *ch = &s->chans[ci];
    if (ch->props_line) {
        err(s, n,
            "a second <channelProperties> of channel \"%s\" (the first is at line %d)",
            shown(s, name), ch->props_line);
        return;
    }
    ch->props_line = (int)xmlGetLineNo(n);
    /* SDF3 reads the first tokenSize */
    for (const xmlNode *c = n->children; c; c = c->next)
        if (is(c, "tokenSize")) {
            int64_t bits;
            const char *what =
                arena_printf(s->a, "the token size of channel \"%s\"", shown(s, name));
            int rc = int_attr(s, c, "sz", what, 0, 8 * FE_MAX_BYTES, &bits);
            if (rc == 0)
                err(s, c, "the <tokenSize> of channel \"%s\" has no sz", shown(s, name));
            else if (rc == 1)
                ch->bytes = (bits + 7) / 8;
            break;
        }
}

/* The throughput constraint, iterations per cycle, as the largest period that meets it:
 * floor(1 / throughput), exactly (the decimal text M x 10^E). */
static void
read_throughput(Sdf3 *s, const xmlNode *n)
{
    xmlChar *text = xmlNodeGetContent(n);
    const char *v = arena_strdup(s->a, text ? (const char *)text : "");
    xmlFree(text);
    const char *p = v;
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        p++;
    if (*p == '+')
        p++;
    __extension__ typedef __int128 i128;
    i128 mant = 0;
    int exp10 = 0, sig = 0;
    bool digits = false, ok = true;
    for (; *p >= '0' && *p <= '9'; p++) {
        digits = true;
        if (mant > 0 || *p != '0')
            sig++;
        if (sig <= 30)
            mant = 10 * mant + (*p - '0');
        else
            exp10++;
    }
    if (*p == '.')
        for (p++; *p >= '0' && *p <= '9'; p++) {
            digits = true;
            if (mant > 0 || *p != '0')
                sig++;
            if (sig <= 30) {
                mant = 10 * mant + (*p - '0');
                exp10--;
            }
        }
    if (digits && (*p == 'e' || *p == 'E')) {
        p++;
        bool neg = *p == '-';
        if (*p == '-' || *p == '+')
            p++;
        int e = 0;
        bool ed = false;
        for (; *p >= '0' && *p <= '9'; p++) {
            ed = true;
            if (e < 100000)
                e = 10 * e + (*p - '0');
        }
        ok = ed;
        exp10 += neg ? -e : e;
    }
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        p++;
    if (!digits || !ok || *p) {
        err(s, n,
            "the throughput constraint must be a number of iterations per cycle, "
            "got \"%s\"",
            shown(s, v));
        return;
    }
    if (mant == 0) {
        err(s, n, "the throughput constraint must be above 0, got \"%s\"", shown(s, v));
        return;
    }
    /* 1 / (mant 10^exp10) = 10^-exp10 / mant; the period must be at least one cycle and
     * below 2^62 */
    i128 period = 0;
    bool huge = false;
    if (exp10 < 0) {
        i128 pow = 1;
        for (int i = 0; i < -exp10 && !huge; i++) {
            if (pow > (((i128)1) << 100))
                huge = true;
            pow *= 10;
        }
        if (!huge)
            period = pow / mant;
    }
    if (huge || period >= FE_MAX_TOTAL) {
        err(s, n,
            "the throughput constraint \"%s\" asks for a period above 2^62 cycles per "
            "iteration",
            shown(s, v));
        return;
    }
    if (period < 1) {
        err(s, n,
            "the throughput constraint \"%s\" asks for more than one iteration per cycle",
            shown(s, v));
        return;
    }
    s->period_constraint = (int64_t)period;
}

static void
read_props(Sdf3 *s, const xmlNode *props)
{
    const char **names = arena_array(s->a, (size_t)s->nactors + 1, sizeof *names);
    for (int i = 0; i < s->nactors; i++)
        names[i] = s->actors[i].name;
    FeIdMap m;
    fe_namemap_init(&m, names, s->nactors);
    for (const xmlNode *c = props->children; c; c = c->next) {
        if (is(c, "actorProperties"))
            read_actor_props(s, c, &m);
        else if (is(c, "channelProperties"))
            read_channel_props(s, c);
        else if (is(c, "graphProperties")) {
            const xmlNode *tc = only_child(s, c, "timeConstraints", false);
            const xmlNode *th = tc ? only_child(s, tc, "throughput", false) : NULL;
            if (th)
                read_throughput(s, th);
        }
    }
    fe_idmap_free(&m);
}

/* ------------------------------------------------------------------ the document */

/* libxml2 reports through a callback: the first error of the document, located. */
static void
on_xml_error(void *ctx, xmlErrorPtr e)
{
    Sdf3 *s = ctx;
    if (!e || e->level < XML_ERR_ERROR || s->errors > 0)
        return;
    char msg[512];
    snprintf(msg, sizeof msg, "%s", e->message ? e->message : "malformed XML");
    size_t n = strlen(msg);
    while (n > 0 && (msg[n - 1] == '\n' || msg[n - 1] == ' '))
        msg[--n] = 0;
    for (char *c = msg; *c; c++)
        if (*c == '\n')
            *c = ' ';
    /* libxml2's messages start with a capital ("Opening and ending tag mismatch") */
    if (msg[0] >= 'A' && msg[0] <= 'Z' && !(msg[1] >= 'A' && msg[1] <= 'Z'))
        msg[0] = (char)(msg[0] - 'A' + 'a');
    Loc loc = {.file = s->file,
               .line = e->line > 0 ? e->line : 0,
               .col = e->line > 0 && e->int2 > 0 ? e->int2 : 0};
    diag_error(s->d, &loc, "malformed XML: %s", msg);
    s->errors++;
}

/* The graph's platform: --platform (written as given) or tgc's default, bwdsp-1board;
 * --dsps resizes it (then written inline).  0, or -1 after reporting. */
static int
graph_platform(Graph *g, const Options *opt, const Loc *loc, Diag *d)
{
    const char *ref = opt->platform ? opt->platform : "bwdsp-1board";
    Platform *p = fe_load_platform(g->arena, ref, NULL, d);
    if (!p)
        return -1;
    g->platform_ref = arena_strdup(g->arena, ref);
    if (opt->dsps > 0 && opt->dsps != p->ndsps) {
        const char *why = NULL;
        if (opt->dsps > opt->limits.max_dsps) {
            diag_error(d, loc, "%d DSPs exceed --max-dsps=%lld", opt->dsps,
                       (long long)opt->limits.max_dsps);
            return -1;
        }
        int set = plat_set_dsps(g->arena, p, opt->dsps, &why);
        if (set != 0) {
            diag_error(d, &(Loc){.file = "tgc"}, "--dsps %d: %s", opt->dsps,
                       why ? why : "the board links are not connected");
            ir_usage_error = set == -1;
            return -1;
        }
        g->platform_ref = "inline";
    }
    g->platform = p;
    return 0;
}

/* The tasks and edges of the graph. */
static Graph *
lower(Sdf3 *s, const char *path, const Options *opt)
{
    Graph *g = ir_graph_new();
    Arena *a = g->arena;
    g->file = arena_strdup(a, s->file);
    g->name = arena_strdup(a, s->name ? s->name : fe_base_name(a, path));
    g->iterations = opt->iterations > 0 ? opt->iterations : 1;
    g->period_constraint = s->period_constraint;
    g->ntasks = s->nactors;
    g->tasks = arena_array(a, (size_t)s->nactors + 1, sizeof *g->tasks);
    for (int i = 0; i < s->nactors; i++) {
        int64_t *c = arena_alloc(a, sizeof *c);
        *c = s->actors[i].cycles;
        g->tasks[i] = (Task){.id = arena_strdup(a, s->actors[i].name),
                             .cycles = c,
                             .ncycles = 1,
                             .dsp = -1};
    }
    g->nedges = s->nchans;
    g->edges = arena_array(a, (size_t)s->nchans + 1, sizeof *g->edges);
    for (int i = 0; i < s->nchans; i++) {
        const SChan *ch = &s->chans[i];
        g->edges[i] = (Edge){
            .from = ch->src,
            .to = ch->dst,
            .bytes = ch->bytes,
            .produce = s->actors[ch->src].ports[ch->srcport].rate,
            .consume = s->actors[ch->dst].ports[ch->dstport].rate,
            .tokens = ch->tokens,
        };
    }
    return g;
}

/* Appends s[0..n) to the buffer b (malloc'd, *len bytes so far). */
static void
put(char **b, size_t *len, const char *s, size_t n)
{
    char *nb = realloc(*b, *len + n + 1);
    if (!nb)
        ice("out of memory");
    memcpy(nb + *len, s, n);
    *len += n;
    nb[*len] = 0;
    *b = nb;
}

/* The reader's message `msg` with every "/edges/N" written as the channel it is,
 * "/tasks/N" as the actor and the field "tokens" as SDF3's initialTokens (malloc'd). */
static char *
named(const Sdf3 *s, const char *msg)
{
    char *out = NULL;
    size_t len = 0;
    put(&out, &len, "", 0);
    for (const char *p = msg; *p;) {
        bool edge = strncmp(p, "/edges/", 7) == 0, task = strncmp(p, "/tasks/", 7) == 0;
        char *end;
        long k = edge || task ? strtol(p + 7, &end, 10) : -1;
        if ((edge || task) && end != p + 7 && k >= 0 &&
            k < (edge ? s->nchans : s->nactors)) {
            char buf[300];
            /* "channel /edges/1", "channels /edges/0 ..., /edges/2": the word is there */
            bool said = (len >= 8 && strcmp(out + len - 8, "channel ") == 0) ||
                        (len >= 9 && strcmp(out + len - 9, "channels ") == 0) ||
                        (len >= 2 && strcmp(out + len - 2, ", ") == 0);
            if (edge)
                snprintf(buf, sizeof buf, "%s\"%s\" (line %d)", said ? "" : "channel ",
                         ir_shown(s->a, s->chans[k].name, 60), s->chans[k].line);
            else
                snprintf(buf, sizeof buf, "actor \"%s\" (line %d)",
                         ir_shown(s->a, s->actors[k].name, 60), s->actors[k].line);
            put(&out, &len, buf, strlen(buf));
            p = end;
            /* the rest of the pointer (a field of it) says nothing more here */
            while (*p == '/' || (*p >= 'a' && *p <= 'z') || *p == '_')
                p++;
        } else if (strncmp(p, "\"tokens\"", 8) == 0) {
            /* the field is initialTokens here */
            put(&out, &len, "initialTokens", 13);
            p += 8;
        } else {
            put(&out, &len, p, 1);
            p++;
        }
    }
    return out;
}

/* Reads the graph g as it will be written, as `tgc check` reads a file, and reports the
 * errors found at the element they are about.  Returns the number of errors. */
static int
check_as_read(Sdf3 *s, const Graph *g, const Options *opt)
{
    char *text = cg_graph_json(g);
    Options o = *opt;
    o.platform = NULL; /* written into the text already */
    o.dsps = 0;
    o.iterations = 0;
    o.read_kernels = false;
    Diag *vd = diag_new();
    const char *name = "<sdf3>";
    Graph *back = fe_load_graph_string(text, name, &o, vd);
    free(text);
    int errors = 0;
    if (!back) {
        char *all = strdup(diag_text(vd));
        if (!all)
            ice("out of memory");
        size_t nl = strlen(name);
        for (char *line = all, *next; line && *line; line = next) {
            next = strchr(line, '\n');
            if (next)
                *next++ = 0;
            if (strncmp(line, name, nl) != 0 || strncmp(line + nl, ": ", 2) != 0)
                continue;
            char *rest = line + nl + 2, *msg = strstr(rest, "error: ");
            if (!msg)
                continue;
            Loc loc = {.file = s->file};
            long k;
            char *end;
            if (strncmp(rest, "/edges/", 7) == 0 &&
                (k = strtol(rest + 7, &end, 10)) >= 0 && end != rest + 7 && k < s->nchans)
                loc.line = s->chans[k].line;
            else if (strncmp(rest, "/tasks/", 7) == 0 &&
                     (k = strtol(rest + 7, &end, 10)) >= 0 && end != rest + 7 &&
                     k < s->nactors)
                loc.line = s->actors[k].line;
            char *m = named(s, msg + 7);
            diag_error(s->d, &loc, "%s", m);
            free(m);
            errors++;
        }
        free(all);
        if (errors == 0) { /* a message of another shape: still an error */
            diag_error(s->d, &(Loc){.file = s->file}, "the graph is not one tgc accepts");
            errors = 1;
        }
    }
    ir_graph_free(back);
    diag_free(vd);
    return errors;
}

Graph *
fe_import_sdf3(const char *path, const Options *opt, const char *processor, Diag *d)
{
    Arena *a = arena_new();
    Sdf3 s = {.d = d,
              .file = strcmp(path, "-") == 0 ? "<stdin>" : path,
              .processor = processor,
              .a = a};
    size_t len;
    char *text = fe_import_read(path, opt, &len, d);
    if (!text) {
        arena_free(a);
        return NULL;
    }
    xmlInitParser();
    xmlSetStructuredErrorFunc(&s, on_xml_error);
    xmlParserCtxtPtr ctxt = xmlNewParserCtxt();
    xmlDocPtr doc = NULL;
    if (!ctxt)
        ice("out of memory creating the XML parser");
    if (len > INT32_MAX)
        err(&s, NULL, "the file is too large for the XML parser");
    else
        /* no network, no external DTD, entities left as they are (refused below) */
        doc = xmlCtxtReadMemory(ctxt, text, (int)len, s.file, NULL,
                                XML_PARSE_NONET | XML_PARSE_BIG_LINES |
                                    XML_PARSE_NOWARNING);
    xmlSetStructuredErrorFunc(NULL, NULL);
    int doctype_line = 0; /* libxml2 keeps no line on a DTD node */
    if (doc && doc->intSubset) {
        const char *dt = strstr(text, "<!DOCTYPE");
        doctype_line = 1;
        for (const char *c = text; dt && c < dt; c++)
            doctype_line += *c == '\n';
    }
    free(text);
    if (!doc && s.errors == 0)
        err(&s, NULL, "malformed XML: the file holds no document");
    const xmlNode *root = doc && s.errors == 0 ? xmlDocGetRootElement(doc) : NULL;
    if (doc && s.errors == 0 && doc->intSubset) {
        diag_error(d, &(Loc){.file = s.file, .line = doctype_line},
                   "a document type declaration (<!DOCTYPE ...>) is not part of the SDF3 "
                   "format");
        s.errors++;
    } else if (doc && s.errors == 0 && !root)
        err(&s, NULL, "the document has no root element");
    else if (root && !is(root, "sdf3"))
        err(&s, root, "the root element is <%s>, not <sdf3>",
            shown(&s, (const char *)root->name));
    else if (root) {
        const char *type = attr(&s, root, "type");
        if (type && strcmp(type, "sdf") != 0)
            err(&s, root,
                "an SDF3 file of type \"%s\": tgc imports synchronous dataflow graphs "
                "(type \"sdf\")",
                shown(&s, type));
        const xmlNode *app = only_child(&s, root, "applicationGraph", true);
        const xmlNode *sdf = app ? only_child(&s, app, "sdf", true) : NULL;
        if (sdf && s.errors == 0) {
            s.name = attr(&s, app, "name");
            if (!s.name || !*s.name)
                s.name = attr(&s, sdf, "name");
            if (s.name && !*s.name)
                s.name = NULL;
            read_sdf(&s, sdf);
            const xmlNode *props = only_child(&s, app, "sdfProperties", false);
            if (props)
                read_props(&s, props);
            for (int i = 0; i < s.nactors; i++) {
                SActor *ac = &s.actors[i];
                if (ac->cycles >= 0 || ac->bad || !ac->name)
                    continue;
                Loc loc = {.file = s.file,
                           .line = ac->props_line ? ac->props_line : ac->line};
                if (!ac->props_line)
                    diag_error(d, &loc,
                               "actor \"%s\" has no execution time (no "
                               "<actorProperties>)",
                               shown(&s, ac->name));
                else if (s.processor)
                    diag_error(d, &loc,
                               "actor \"%s\" has no processor of type \"%s\" (its "
                               "processors: %s)",
                               shown(&s, ac->name), shown(&s, s.processor),
                               *ac->procs ? ac->procs : "none");
                else
                    diag_error(d, &loc,
                               "actor \"%s\" has no default processor (its processors: "
                               "%s); --processor TYPE picks one",
                               shown(&s, ac->name), *ac->procs ? ac->procs : "none");
                s.errors++;
            }
        }
    }
    Graph *g = NULL;
    if (s.errors == 0) {
        g = lower(&s, path, opt);
        Loc loc = {.file = s.file};
        if (graph_platform(g, opt, &loc, d) != 0 || check_as_read(&s, g, opt) != 0) {
            ir_graph_free(g);
            g = NULL;
        }
    }
    xmlFreeDoc(doc);
    xmlFreeParserCtxt(ctxt);
    fe_idmap_free(&s.ports);
    fe_idmap_free(&s.chanmap);
    arena_free(a);
    return g;
}
