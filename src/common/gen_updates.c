/* The writer of `portaflow gen updates` (updates.h): a reproducible
 * update stream for a network, valid when applied in order. It keeps its
 * own account of the graph as the stream changes it (the live arcs, each
 * arc's capacity, the vertex count), so that every `cap` and `del` names a
 * live arc and every `add` a vertex that exists. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "network.h"
#include "status.h"
#include "updates.h"

typedef struct stream_state {
    const pf_network *net;
    const pf_update_gen_params *p;
    FILE *out;
    pf_rng rng;
    int64_t vertices;   /* now, added ones included */
    int64_t arcs;       /* arc ids handed out */
    int64_t alloc;      /* room in cap and live_at */
    int64_t *cap;       /* each arc's capacity now (fixed point on real networks) */
    int64_t *live;      /* the live arc ids, in no order */
    int64_t *live_at;   /* each arc's index in live; -1 once deleted */
    int64_t live_count;
    int64_t max_cap;    /* the input's largest capacity (at least 1) */
    int kinds[4];       /* the mix's kinds, enum pf_update_kind */
    int kind_count;
} stream_state;

/* ---- the model ------------------------------------------------------------ */

static int reserve_arcs(stream_state *s, int64_t need, pf_status *st)
{
    if (need <= s->alloc)
        return PF_OK;
    int64_t alloc = s->alloc * 2 > need ? s->alloc * 2 : need + 64;
    int ok = 1;
    s->cap = pf_regrow(s->cap, (size_t)alloc, sizeof *s->cap, &ok);
    s->live = pf_regrow(s->live, (size_t)alloc, sizeof *s->live, &ok);
    s->live_at = pf_regrow(s->live_at, (size_t)alloc, sizeof *s->live_at, &ok);
    if (!ok)
        return pf_fail(st, PF_E_NOMEM, "out of host memory for an update stream of %lld arcs",
                       (long long)alloc);
    s->alloc = alloc;
    return PF_OK;
}

/* A new live arc of capacity c (the next id). */
static int model_add(stream_state *s, int64_t c, pf_status *st)
{
    int rc = reserve_arcs(s, s->arcs + 1, st);
    if (rc)
        return rc;
    s->cap[s->arcs] = c;
    s->live_at[s->arcs] = s->live_count;
    s->live[s->live_count++] = s->arcs++;
    return PF_OK;
}

static void model_delete(stream_state *s, int64_t arc)
{
    int64_t at = s->live_at[arc], last = s->live[--s->live_count];
    s->live[at] = last;
    s->live_at[last] = at;
    s->live_at[arc] = -1;
}

static int model_init(stream_state *s, pf_status *st)
{
    const pf_network *net = s->net;
    s->vertices = net->n;
    s->max_cap = 1;
    for (int64_t i = 0; i < net->m; i++) {
        int rc = model_add(s, net->cap[i], st);
        if (rc)
            return rc;
        if (net->cap[i] > s->max_cap)
            s->max_cap = net->cap[i];
    }
    for (int kind = PF_UPDATE_CAP; kind <= PF_UPDATE_ADDV; kind++)
        if (s->p->mix & (1u << kind))
            s->kinds[s->kind_count++] = kind;
    return PF_OK;
}

/* ---- drawing ---------------------------------------------------------------- */

static int64_t draw(stream_state *s, int64_t lo, int64_t hi) { return pf_rng_range(&s->rng, lo, hi); }

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

/* 2c, or the largest int64 where that would not fit (capacities near 2^62). */
static int64_t twice(int64_t c) { return c > INT64_MAX / 2 ? INT64_MAX : 2 * c; }

/* A capacity of a real network that a double holds exactly (53
 * significant bits): then its decimal reads back as the same amount. */
static int64_t fits_double(const stream_state *s, int64_t c)
{
    if (!s->net->is_real || c < ((int64_t)1 << 53))
        return c;
    int bits = 64 - __builtin_clzll((unsigned long long)c);
    return c & ~(((int64_t)1 << (bits - 53)) - 1);
}

/* A new capacity for an arc of capacity now: 0 (1 in 8), below now (2 in
 * 8: saturated arcs are lowered under their flow this way), up to twice
 * now (3 in 8), or anywhere up to the input's largest (2 in 8). Never
 * above twice the input's largest, so capacities do not grow batch after
 * batch. */
static int64_t draw_new_capacity(stream_state *s, int64_t now)
{
    int64_t pick = draw(s, 0, 7);
    int64_t c;
    if (pick == 0)
        c = 0;
    else if (pick <= 2)
        c = now > 0 ? draw(s, 0, now - 1) : 0;
    else if (pick <= 5)
        c = draw(s, 0, now > 0 ? twice(min64(now, s->max_cap)) : s->max_cap);
    else
        c = draw(s, 0, s->max_cap);
    return fits_double(s, c);
}

/* An added arc's capacity: the input's capacity distribution (one of its
 * arcs' at random). */
static int64_t draw_arc_capacity(stream_state *s)
{
    const pf_network *net = s->net;
    int64_t c = net->m ? net->cap[draw(s, 0, net->m - 1)] : draw(s, 0, s->max_cap);
    return fits_double(s, c);
}

static int64_t draw_terminal(stream_state *s, int sink)
{
    int64_t count = pf_network_terminal_count(s->net, sink);
    return pf_network_terminal(s->net, sink, draw(s, 0, count - 1));
}

/* An endpoint: one of the added vertices now and then (so they get arcs),
 * else any. */
static int64_t draw_vertex(stream_state *s)
{
    if (s->vertices > s->net->n && draw(s, 0, 3) == 0)
        return draw(s, s->net->n, s->vertices - 1);
    return draw(s, 0, s->vertices - 1);
}

/* ---- writing ---------------------------------------------------------------- */

/* A capacity as the stream writes it: an integer, or on a real network the
 * shortest decimal that reads back as the same double, with a decimal
 * point or an exponent so that it reads as a real. */
static void put_capacity(stream_state *s, int64_t c)
{
    if (!s->net->is_real) {
        fprintf(s->out, "%lld", (long long)c);
        return;
    }
    double value = ldexp((double)c, -s->net->scale_log2);
    char text[40];
    for (int digits = 1; digits <= 17; digits++) {
        snprintf(text, sizeof text, "%.*g", digits, value);
        if (strtod(text, NULL) == value)
            break;
    }
    fputs(text, s->out);
    if (!strpbrk(text, ".eE"))
        fputs(".0", s->out);
}

/* The kind of the next change: the mix's, drawn evenly; cap and del need a
 * live arc and addv room for 4 more vertices, so when a drawn kind cannot
 * be, the first of the others that can is taken. 0: none can. */
static int draw_kind(stream_state *s)
{
    int first = (int)draw(s, 0, s->kind_count - 1);
    for (int i = 0; i < s->kind_count; i++) {
        int kind = s->kinds[(first + i) % s->kind_count];
        if ((kind == PF_UPDATE_CAP || kind == PF_UPDATE_DEL) && s->live_count == 0)
            continue;
        if (kind == PF_UPDATE_ADDV && s->vertices + 4 > PF_MAX_VERTICES)
            continue;
        return kind;
    }
    return 0;
}

static int write_change(stream_state *s, int kind, pf_status *st)
{
    int base = s->p->base;
    if (kind == PF_UPDATE_CAP) {
        int64_t arc = s->live[draw(s, 0, s->live_count - 1)];
        int64_t c = draw_new_capacity(s, s->cap[arc]);
        s->cap[arc] = c;
        fprintf(s->out, "cap %lld ", (long long)arc + 1);
        put_capacity(s, c);
        fputc('\n', s->out);
    } else if (kind == PF_UPDATE_DEL) {
        int64_t arc = s->live[draw(s, 0, s->live_count - 1)];
        model_delete(s, arc);
        fprintf(s->out, "del %lld\n", (long long)arc + 1);
    } else if (kind == PF_UPDATE_ADDV) {
        int64_t count = draw(s, 1, 4);
        s->vertices += count;
        fprintf(s->out, "addv %lld\n", (long long)count);
    } else {
        int64_t pick = draw(s, 0, 99); /* 1 in 100 into a source, 1 out of a sink */
        int64_t tail = pick == 1 ? draw_terminal(s, 1) : draw_vertex(s);
        int64_t head = pick == 0 ? draw_terminal(s, 0) : draw_vertex(s);
        int64_t c = draw_arc_capacity(s);
        int rc = model_add(s, c, st);
        if (rc)
            return rc;
        fprintf(s->out, "add %lld %lld ", (long long)(tail + base), (long long)(head + base));
        put_capacity(s, c);
        fputc('\n', s->out);
    }
    return PF_OK;
}

static void write_header(const stream_state *s)
{
    const pf_update_gen_params *p = s->p;
    static const char *const names[] = {
        [PF_UPDATE_CAP] = "cap", [PF_UPDATE_ADD] = "add", [PF_UPDATE_DEL] = "del",
        [PF_UPDATE_ADDV] = "addv"};
    fprintf(s->out, "c update stream: %lld batches, each changing %.15g of the live arcs, mix ",
            (long long)p->batches, p->fraction);
    for (int i = 0; i < s->kind_count; i++)
        fprintf(s->out, "%s%s", i ? "," : "", names[s->kinds[i]]);
    fprintf(s->out, ", seed %llu\n", (unsigned long long)p->seed);
    fprintf(s->out, "c for a network of %lld vertices and %lld arcs (%s capacities), vertex "
            "ids from %d\n",
            (long long)s->net->n, (long long)s->net->m, s->net->is_real ? "real" : "integer",
            p->base);
}

static int check_params(const pf_network *net, const pf_update_gen_params *p, pf_status *st)
{
    unsigned kinds = (1u << PF_UPDATE_CAP) | (1u << PF_UPDATE_ADD) | (1u << PF_UPDATE_DEL) |
                     (1u << PF_UPDATE_ADDV);
    if (!(p->fraction > 0 && p->fraction <= 1))
        return pf_fail(st, PF_E_USAGE, "the fraction of arcs per batch must be in (0, 1], not %g",
                       p->fraction);
    if (p->batches < 1)
        return pf_fail(st, PF_E_USAGE, "the batch count must be at least 1, not %lld",
                       (long long)p->batches);
    if (!p->mix || (p->mix & ~kinds))
        return pf_fail(st, PF_E_USAGE, "the mix must name some of cap, add, del and addv");
    if (p->base != 0 && p->base != 1)
        return pf_fail(st, PF_E_USAGE, "vertex ids start at 0 or 1, not %d", p->base);
    if (net->n < 1)
        return pf_fail(st, PF_E_USAGE, "the network has no vertices");
    return PF_OK;
}

static int write_stream(stream_state *s, pf_status *st)
{
    write_header(s);
    for (int64_t batch = 1; batch <= s->p->batches; batch++) {
        int64_t changes = llround(s->p->fraction * (double)s->live_count);
        if (changes < 1)
            changes = 1;
        fprintf(s->out, "c batch %lld: %lld changes\n", (long long)batch, (long long)changes);
        for (int64_t i = 0; i < changes; i++) {
            int kind = draw_kind(s);
            int rc = kind ? write_change(s, kind, st) : PF_OK;
            if (rc)
                return rc;
        }
        fputs("solve\n", s->out);
        if (ferror(s->out))
            break;
    }
    if (fflush(s->out) || ferror(s->out))
        return pf_fail(st, PF_E_OUTPUT, "<output stream>: write failed: %s", strerror(errno));
    return PF_OK;
}

int pf_update_gen_write(const pf_network *net, const pf_update_gen_params *p, FILE *out,
                        pf_status *st)
{
    int rc = check_params(net, p, st);
    if (rc)
        return rc;
    stream_state s = {.net = net, .p = p, .out = out};
    pf_rng_seed(&s.rng, p->seed);
    rc = model_init(&s, st);
    if (!rc)
        rc = write_stream(&s, st);
    PF_FREE_ALL(s.cap, s.live, s.live_at);
    if (!rc)
        pf_status_ok(st);
    return rc;
}
