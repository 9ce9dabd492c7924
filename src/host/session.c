/* Sessions (portaflow.h: pf_session_*): a graph that changes in batches,
 * solved again from the last flow. This file holds the API, the checking
 * and applying of batches, and the network as it now is; session_solve.c
 * runs the engines. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/chunks.h"
#include "../common/knobs.h"
#include "../common/network.h"
#include "../common/omp_threads.h"
#include "../common/status.h"
#include "../common/timer.h"
#include "../device/seq/seq_engine.h"
#include "engine.h"
#include "log.h"
#include "registry.h"
#include "session_internal.h"

/* ---- updates: from the API's form to the dynamic graph's ----------------- */

/* The capacity of an update in the network's units: fixed point with the
 * network's scale for a real network. A real capacity on an integer
 * network, or one past the scale's range, is refused. */
static int update_capacity(const pf_session *s, const pf_update *u, int64_t k, int64_t *cap,
                           pf_status *st)
{
    if (!u->is_real) {
        if (u->capacity < 0)
            return pf_fail(st, PF_E_INPUT, "update %lld: negative capacity %lld", (long long)k,
                           (long long)u->capacity);
        if (!s->is_real) {
            *cap = u->capacity;
            return PF_OK;
        }
    }
    double value = u->is_real ? u->real_capacity : (double)u->capacity;
    if (!isfinite(value) || value < 0)
        return pf_fail(st, PF_E_INPUT, "update %lld: capacity %g is not a non-negative number",
                       (long long)k, value);
    if (!s->is_real) {
        if (value != floor(value))
            return pf_fail(st, PF_E_INPUT,
                           "update %lld: capacity %g is not an integer, and this network's "
                           "capacities are (a session keeps the network's scale: give the "
                           "network real capacities to change them by real amounts)",
                           (long long)k, value);
    }
    double fixed = ldexp(value, s->scale_log2);
    if (fixed > (double)PF_CAP_MAX)
        return pf_fail(st, PF_E_INPUT,
                       "update %lld: capacity %g is past what the network's scale holds "
                       "(2^%d units per unit, at most 2^62 units)",
                       (long long)k, value, s->scale_log2);
    *cap = (int64_t)llround(fixed);
    return PF_OK;
}

/* A user vertex id of update k, checked against the vertices there are
 * then (`vertices`, which counts those the batch has added so far).
 * Messages number vertices as the network does (from 1, or from 0 for a
 * network read 0-based) and arcs from 1, as the update stream does. */
static int update_vertex(const pf_session *s, int64_t v, int64_t vertices, int64_t k,
                         const char *what, pf_status *st)
{
    int64_t base = s->zero_based_ids ? 0 : 1;
    if (v < 0 || v >= vertices)
        return pf_fail(st, PF_E_INPUT, "update %lld: %s %lld outside %lld..%lld", (long long)k,
                       what, (long long)(v + base), (long long)base,
                       (long long)(vertices - 1 + base));
    return PF_OK;
}

/* The ids a batch deletes, as it goes: an open-addressing set. */
typedef struct id_set {
    int64_t *slots; /* -1: empty */
    int64_t mask;
} id_set;

static int id_set_init(id_set *set, int64_t count, pf_status *st)
{
    int64_t size = 16;
    while (size < 2 * count)
        size *= 2;
    set->mask = size - 1;
    set->slots = pf_alloc((size_t)size, sizeof *set->slots, st);
    if (!set->slots)
        return PF_E_NOMEM;
    memset(set->slots, 0xff, (size_t)size * sizeof *set->slots);
    return PF_OK;
}

/* Adds id; returns 1 when it was there already. */
static int id_set_add(id_set *set, int64_t id, int add)
{
    uint64_t h = (uint64_t)id * 0x9e3779b97f4a7c15ull;
    for (int64_t i = (int64_t)(h >> 40) & set->mask;; i = (i + 1) & set->mask) {
        if (set->slots[i] == id)
            return 1;
        if (set->slots[i] < 0) {
            if (add)
                set->slots[i] = id;
            return 0;
        }
    }
}

/* Arc `id` of update k exists and is not deleted, before the batch or (gone
 * given) by an earlier update of it. */
static int live_arc(const pf_session *s, id_set *gone, int64_t ids, int64_t id, int64_t k,
                    int deleting, pf_status *st)
{
    if (id < 0 || id >= ids)
        return pf_fail(st, PF_E_INPUT, "update %lld: no arc %lld (there are %lld)",
                       (long long)k, (long long)id + 1, (long long)ids);
    if ((id < s->g.ids && s->g.deleted[id]) || (gone && id_set_add(gone, id, deleting)))
        return pf_fail(st, PF_E_INPUT, "update %lld: arc %lld was deleted", (long long)k,
                       (long long)id + 1);
    return PF_OK;
}

/* Arc or vertex update u (index k) as a change, given the ids and
 * vertices before it (and, with gone, the arcs the batch deleted before
 * it); the error, worded, where it is at fault. Terminal updates are the
 * caller's. */
static int translate_one(const pf_session *s, const pf_update *u, int64_t k, int64_t ids,
                         int64_t vertices, id_set *gone, pf_dyn_change *out, pf_status *st)
{
    memset(out, 0, sizeof *out);
    int rc;
    switch (u->kind) {
    case PF_UPDATE_CAP:
    case PF_UPDATE_DEL:
        if ((rc = live_arc(s, gone, ids, u->arc, k, u->kind == PF_UPDATE_DEL, st)))
            return rc;
        out->kind = u->kind == PF_UPDATE_CAP ? PF_DYN_CAP : PF_DYN_DEL;
        out->id = u->arc;
        return u->kind == PF_UPDATE_CAP ? update_capacity(s, u, k, &out->cap, st) : PF_OK;
    case PF_UPDATE_ADD:
        if ((rc = update_vertex(s, u->tail, vertices, k, "tail", st)) ||
            (rc = update_vertex(s, u->head, vertices, k, "head", st)) ||
            (rc = update_capacity(s, u, k, &out->cap, st)))
            return rc;
        out->kind = PF_DYN_ADD;
        out->tail = pf_session_view_id(s, u->tail);
        out->head = pf_session_view_id(s, u->head);
        return PF_OK;
    case PF_UPDATE_ADDV:
        if (u->count < 1 || u->count > PF_MAX_VERTICES - vertices - 2)
            return pf_fail(st, PF_E_INPUT, "update %lld: cannot add %lld vertices to %lld",
                           (long long)k, (long long)u->count, (long long)vertices);
        out->kind = PF_DYN_ADDV;
        out->count = u->count;
        return PF_OK;
    default:
        return pf_fail(st, PF_E_INPUT, "update %lld: unknown kind %d", (long long)k, u->kind);
    }
}

/* The ids and vertices update u adds (a bad count: past any limit). */
static void update_adds(const pf_update *u, int64_t *ids, int64_t *vertices)
{
    *ids += u->kind == PF_UPDATE_ADD;
    if (u->kind == PF_UPDATE_ADDV)
        *vertices += u->count > 0 && u->count <= PF_MAX_VERTICES ? u->count : PF_MAX_VERTICES;
}

/* The batch's arc and vertex changes in the dynamic graph's form (view
 * ids), its terminal changes in *source and *sink (-1: unchanged), all
 * checked: on error *bad = the update's index. */
static int translate(const pf_session *s, const pf_update *u, int64_t count, pf_dyn_change *c,
                     int64_t *changes, int64_t *source, int64_t *sink, int64_t *bad,
                     pf_status *st)
{
    int64_t vertices = s->n_user, ids = s->g.ids, made = 0;
    id_set gone;
    int rc = id_set_init(&gone, count, st);
    *source = *sink = -1;
    for (int64_t k = 0; !rc && k < count; k++) {
        *bad = k;
        if (u[k].kind == PF_UPDATE_SOURCE || u[k].kind == PF_UPDATE_SINK) {
            rc = update_vertex(s, u[k].tail, vertices, k,
                               u[k].kind == PF_UPDATE_SOURCE ? "source" : "sink", st);
            *(u[k].kind == PF_UPDATE_SOURCE ? source : sink) = u[k].tail;
            continue;
        }
        rc = translate_one(s, &u[k], k, ids, vertices, &gone, &c[made], st);
        if (!rc) {
            update_adds(&u[k], &ids, &vertices);
            made++;
        }
    }
    free(gone.slots);
    if (rc)
        return rc;
    /* The terminals as they will be: never one vertex. */
    int64_t new_source = *source >= 0 ? *source : s->source_count == 1 ? s->sources[0] : -1;
    int64_t new_sink = *sink >= 0 ? *sink : s->sink_count == 1 ? s->sinks[0] : -1;
    if (new_source >= 0 && new_source == new_sink) {
        *bad = count - 1;
        return pf_fail(st, PF_E_INPUT, "the batch makes vertex %lld both the source and the sink",
                       (long long)new_source + (s->zero_based_ids ? 0 : 1));
    }
    for (int64_t i = 0; *source >= 0 && i < s->sink_count; i++)
        if (s->sinks[i] == *source && *sink < 0)
            return pf_fail(st, PF_E_INPUT, "the batch makes sink %lld a source too",
                           (long long)*source + (s->zero_based_ids ? 0 : 1));
    for (int64_t i = 0; *sink >= 0 && i < s->source_count; i++)
        if (s->sources[i] == *sink && *source < 0)
            return pf_fail(st, PF_E_INPUT, "the batch makes source %lld a sink too",
                           (long long)*sink + (s->zero_based_ids ? 0 : 1));
    *bad = -1;
    *changes = made;
    return PF_OK; /* pf_dyn_apply checks the changes against the graph */
}

/* A long batch without terminal updates is translated in chunks on the
 * host's threads (chunks.h: each update's lookups wait on memory). What
 * only the order finds (an arc named after the batch deleted it) is left
 * to pf_dyn_apply's check. Any fault, or a terminal update, sends the
 * batch to translate, which finds the first fault and words it. */

/* The chunks' walk (chunks.h): the counts are the ids and the vertices. */
typedef struct translate_walk {
    const pf_session *s;
    const pf_update *u;
    pf_dyn_change *c;
} translate_walk;

static void translate_adds(const void *ctx, int64_t k, int64_t counts[2])
{
    const translate_walk *w = ctx;
    update_adds(&w->u[k], &counts[0], &counts[1]);
}

static int translate_fault(const void *ctx, int64_t k, const int64_t counts[2], int64_t *more)
{
    const translate_walk *w = ctx;
    *more = 0;
    const pf_update *u = &w->u[k];
    /* terminal updates go to translate, which words every fault */
    return u->kind == PF_UPDATE_SOURCE || u->kind == PF_UPDATE_SINK ||
           translate_one(w->s, u, k, counts[0], counts[1], NULL, &w->c[k], NULL);
}

/* Every update of u into c (count changes); 0 when none was at fault. */
static int translate_chunked(const pf_session *s, const pf_update *u, int64_t count,
                             pf_dyn_change *c)
{
    const translate_walk w = {.s = s, .u = u, .c = c};
    const pf_chunk_judge j = {.ctx = &w, .count = count, .start = {s->g.ids, s->n_user},
                              .most = {INT64_MAX - 1, PF_MAX_VERTICES}, .adds = translate_adds,
                              .fault = translate_fault};
    return !pf_chunks_fine(&j, pf_resolve_threads(s->threads));
}

/* With several terminals the super arcs carry what their terminal's own
 * arcs do: the capacity out of each source, into each sink, as the
 * residual graph's build gives them (residual.h). */
static int refresh_super_arcs(pf_session *s, pf_status *st)
{
    pf_dyn_graph *g = &s->g;
    int64_t super_source = s->n_input, super_sink = s->n_input + 1;
    int64_t *supply = pf_calloc((size_t)g->view.n, sizeof *supply, st);
    int64_t *demand = pf_calloc((size_t)g->view.n, sizeof *demand, st);
    int rc = supply && demand ? PF_OK : PF_E_NOMEM;
    for (int64_t id = 0; !rc && id < g->ids; id++) {
        if (g->deleted[id])
            continue;
        supply[g->tail_of[id]] += g->cap_of[id];
        demand[g->head_of[id]] += g->cap_of[id];
    }
    const pf_residual *v = &g->view;
    for (int64_t a = v->first[super_source]; !rc && a < v->first[super_source + 1]; a++)
        if (v->head[a] != super_source && v->cap[a] != supply[v->head[a]] &&
            !pf_dyn_is_cover_slot(g, a))
            rc = pf_dyn_set_slot_cap(g, a, supply[v->head[a]], st);
    for (int64_t i = 0; !rc && i < s->sink_count; i++) {
        int64_t t = pf_session_view_id(s, s->sinks[i]);
        for (int64_t a = v->first[t]; !rc && a < v->first[t + 1]; a++)
            if (v->head[a] == super_sink && v->cap[a] != demand[t] &&
                !pf_dyn_is_cover_slot(g, a))
                rc = pf_dyn_set_slot_cap(g, a, demand[t], st);
    }
    if (!rc)
        rc = pf_dyn_repair(g, NULL, st);
    free(supply);
    free(demand);
    return rc;
}

/* Replaces the sources by `source` and the sinks by `sink` (-1: keeps
 * them) and starts the graph and preflow over. */
static int change_terminals(pf_session *s, int64_t source, int64_t sink, pf_status *st)
{
    if (source >= 0) {
        s->sources[0] = (int32_t)source;
        s->source_count = 1;
    }
    if (sink >= 0) {
        s->sinks[0] = (int32_t)sink;
        s->sink_count = 1;
    }
    pf_network *net = pf_session_network(s, st);
    if (!net)
        return st->code;
    int rc = pf_session_rebuild(s, net, st);
    pf_network_free(net);
    return rc;
}

int pf_session_apply(pf_session *s, const pf_update *updates, int64_t count, int64_t *bad,
                     pf_status *st)
{
    int64_t where = -1;
    if (bad)
        *bad = -1;
    pf_status_ok(st);
    if (!s || count < 0 || (count > 0 && !updates))
        return pf_fail(st, PF_E_USAGE, "pf_session_apply: no session or no updates");
    double t0 = pf_now();
    pf_dyn_change *c = pf_alloc((size_t)(count ? count : 1), sizeof *c, st);
    if (!c)
        return PF_E_NOMEM;
    int64_t changes = 0, source = -1, sink = -1;
    const int chunked =
        count >= PF_CHUNKS_MIN && !translate_chunked(s, updates, count, c);
    int rc = PF_OK;
    if (chunked)
        changes = count;
    else
        rc = translate(s, updates, count, c, &changes, &source, &sink, &where, st);
    if (pf_knobs()->trace)
        fprintf(stderr, "portaflow trace: batch of %lld updates read in %.4f s\n",
                (long long)count, pf_now() - t0);
    pf_dyn_batch_out out = {0};
    if (!rc)
        rc = pf_dyn_apply(&s->g, c, changes, &out, st);
    if (rc == PF_E_INPUT && chunked) {
        /* a fault only the order finds: worded by update, as translate does */
        pf_status again = {0};
        int64_t changes_again = 0;
        if (translate(s, updates, count, c, &changes_again, &source, &sink, &where, &again)) {
            if (st)
                *st = again;
            rc = again.code;
        }
    }
    free(c);
    if (!rc) {
        for (int64_t k = 0; k < count; k++)
            if (updates[k].kind == PF_UPDATE_ADDV)
                s->n_user += updates[k].count;
        if (source >= 0 || sink >= 0) {
            rc = change_terminals(s, source, sink, st);
            snprintf(s->cold_reason, sizeof s->cold_reason, "the %s changed",
                     source >= 0 && sink >= 0 ? "source and sink" : source >= 0 ? "source"
                                                                                : "sink");
            s->cold_next = 1;
        } else if (s->super) {
            rc = refresh_super_arcs(s, st);
        }
        if (!rc && out.reset) {
            snprintf(s->cold_reason, sizeof s->cold_reason,
                     "repairing the batch's deficits would cost more than starting over");
            s->cold_next = 1;
        }
    }
    if (rc) {
        if (bad)
            *bad = where;
        return rc;
    }
    s->stats.batches++;
    s->stats.updates += count;
    s->stats.recompactions = s->g.recompactions;
    s->stats.apply_seconds = pf_now() - t0;
    s->solved = 0;
    return PF_OK;
}

/* ---- the network as it is now ------------------------------------------ */

pf_network *pf_session_network(const pf_session *s, pf_status *st)
{
    const pf_dyn_graph *g = &s->g;
    int64_t source = s->sources[0], sink = s->sinks[0];
    pf_network *net = pf_network_new(s->n_user, source, sink, st);
    if (!net)
        return NULL;
    int rc = pf_network_reserve(net, g->ids, st);
    for (int64_t id = 0; !rc && id < g->ids; id++)
        rc = pf_network_add_arc(net, pf_session_user_id(s, g->tail_of[id]),
                                pf_session_user_id(s, g->head_of[id]),
                                g->deleted[id] ? 0 : g->cap_of[id], st);
    if (!rc && (s->source_count > 1 || s->sink_count > 1)) {
        int64_t *ids = pf_alloc((size_t)(s->source_count + s->sink_count), sizeof *ids, st);
        if (!ids) {
            rc = PF_E_NOMEM;
        } else {
            for (int64_t i = 0; i < s->source_count; i++)
                ids[i] = s->sources[i];
            for (int64_t i = 0; i < s->sink_count; i++)
                ids[s->source_count + i] = s->sinks[i];
            rc = pf_network_set_terminals(net, ids, s->source_count, ids + s->source_count,
                                          s->sink_count, st);
            free(ids);
        }
    }
    if (rc) {
        pf_network_free(net);
        return NULL;
    }
    net->zero_based_ids = s->zero_based_ids;
    net->is_real = s->is_real;
    net->scale_log2 = s->scale_log2;
    net->scale_error = s->scale_error;
    return net;
}

/* ---- open, solve, close ------------------------------------------------ */

typedef struct open_attempt {
    pf_session *s;
    const pf_network *net;
} open_attempt;

/* One backend of the selection loop: the graph in its arc order, and its
 * device opened on it (a backend without max-flow steps that runs on one
 * thread is the host's sequential engine: nothing to open). */
static int attempt_open(const pf_device_ops *ops, void *ctx, pf_status *st)
{
    open_attempt *a = ctx;
    pf_session *s = a->s;
    if (!ops->caps.maxflow_steps && !ops->caps.one_thread)
        return pf_fail(st, PF_E_DEVICE, "%s runs no session", ops->name);
    s->ops = ops;
    pf_dyn_free(&s->g);
    memset(&s->g, 0, sizeof s->g);
    int rc = pf_session_rebuild(s, a->net, st);
    if (rc || !ops->caps.maxflow_steps)
        return rc;
    rc = pf_dev_session_open(ops, &s->g.view, &s->opt, &s->dev, st);
    if (rc)
        s->dev = NULL;
    return rc;
}

static int copy_terminals(pf_session *s, const pf_network *net, pf_status *st)
{
    s->source_count = pf_network_terminal_count(net, 0);
    s->sink_count = pf_network_terminal_count(net, 1);
    s->sources = pf_alloc((size_t)s->source_count, sizeof *s->sources, st);
    s->sinks = pf_alloc((size_t)s->sink_count, sizeof *s->sinks, st);
    if (!s->sources || !s->sinks)
        return PF_E_NOMEM;
    for (int64_t i = 0; i < s->source_count; i++)
        s->sources[i] = (int32_t)pf_network_terminal(net, 0, i);
    for (int64_t i = 0; i < s->sink_count; i++)
        s->sinks[i] = (int32_t)pf_network_terminal(net, 1, i);
    return PF_OK;
}

int pf_session_open(const pf_network *net, const pf_solve_options *opt, pf_session **session,
                    pf_status *st)
{
    pf_status_ok(st);
    if (!net || !session)
        return pf_fail(st, PF_E_USAGE, "pf_session_open: no network or no session pointer");
    *session = NULL;
    if (net->scale_pending)
        return pf_fail(st, PF_E_USAGE, "pf_session_open: the network's real capacities are "
                                       "not fixed yet (pf_network_finish)");
    pf_session *s = pf_calloc(1, sizeof *s, st);
    if (!s)
        return PF_E_NOMEM;
    pf_solve_options_copy(opt, &s->opt);
    snprintf(s->backend_name, sizeof s->backend_name, "%s",
             s->opt.backend && *s->opt.backend ? s->opt.backend : "auto");
    s->opt.backend = s->backend_name;
    s->opt.progress = 0;
    s->threads = s->opt.threads;
    s->zero_based_ids = net->zero_based_ids;
    s->is_real = net->is_real;
    s->scale_log2 = net->scale_log2;
    s->scale_error = net->scale_error;
    s->n_input = s->n_user = net->n;
    int rc = copy_terminals(s, net, st);
    if (!rc) {
        pf_backend_walk walk;
        pf_backend_walk_init(&walk, s->opt.backend, PF_WORK_MAXFLOW, s->opt.threads, NULL,
                             NULL);
        pf_logger log = {.fn = s->opt.log, .data = s->opt.log_data};
        open_attempt attempt = {.s = s, .net = net};
        rc = pf_backend_run(&walk, NULL, attempt_open, &attempt, &log, st);
    }
    if (rc) {
        pf_session_close(s);
        return rc;
    }
    snprintf(s->cold_reason, sizeof s->cold_reason, "the first solve");
    s->cold_next = 1;
    *session = s;
    return PF_OK;
}

int pf_session_solve_sized(pf_session *s, pf_solution *sol, size_t solution_size,
                           pf_status *st)
{
    pf_status_ok(st);
    if (!s || !sol)
        return pf_fail(st, PF_E_USAGE, "pf_session_solve: no session or no solution");
    pf_solution full;
    memset(&full, 0, sizeof full);
    double t0 = pf_now();
    int rc = pf_session_run(s, &full, st);
    if (!rc) {
        s->stats.solves++;
        s->stats.warm_solves += !s->cold_next;
        snprintf(s->stats.cold_reason, sizeof s->stats.cold_reason, "%s",
                 s->cold_next ? s->cold_reason : "");
        s->cold_next = 0;
        s->solved = 1;
        full.times.total = s->stats.solve_seconds = pf_now() - t0;
    }
    if (solution_size < sizeof full) {
        memcpy(sol, &full, solution_size);
        if (solution_size < offsetof(pf_solution, switches) + sizeof full.switches)
            free(full.switches);
    } else {
        *sol = full;
    }
    return rc;
}

int pf_session_restart(pf_session *s, pf_status *st)
{
    pf_status_ok(st);
    if (!s)
        return pf_fail(st, PF_E_USAGE, "pf_session_restart: no session");
    double t0 = pf_now();
    pf_network *net = pf_session_network(s, st);
    if (!net)
        return st->code;
    int rc = pf_session_rebuild(s, net, st);
    pf_network_free(net);
    if (rc)
        return rc;
    snprintf(s->cold_reason, sizeof s->cold_reason, "restarted");
    s->cold_next = 1;
    s->stats.apply_seconds = pf_now() - t0;
    return PF_OK;
}

int64_t pf_session_vertices(const pf_session *s) { return s ? s->n_user : 0; }
int64_t pf_session_arcs(const pf_session *s) { return s ? s->g.ids : 0; }

void pf_session_get_stats(const pf_session *s, pf_session_stats *out)
{
    memset(out, 0, sizeof *out);
    if (!s)
        return;
    *out = s->stats;
    out->recompactions = s->g.recompactions;
    out->slots = s->g.view.arcs;
    out->live_arcs = s->g.live_arcs - 2 * s->g.cover_count; /* not the deficits' pairs */
    out->device_bytes = s->dev ? pf_dev_session_bytes(s->dev) : 0;
    /* per slot: head, rev, cap, res, and the page marks; per vertex: first,
     * excess, used, pair; per id: slot, ends, capacity, deleted; the pairs
     * and their spare terminal slots; the lists of touched slots and
     * vertices */
    out->host_bytes = (uint64_t)s->g.view.arcs * (4 + 8 + 8 + 8) +
                      (uint64_t)s->g.view.n * (8 + 8 + 8 + 8) +
                      (uint64_t)s->g.ids * (8 + 4 + 4 + 8 + 1) +
                      (uint64_t)s->g.cover_room * (sizeof *s->g.covers + 2 * 8) +
                      (uint64_t)(s->g.touched_cap[0] + s->g.touched_cap[1]) * 4 +
                      (s->seq_kept ? pf_seq_run_bytes(s->seq_kept) : 0) +
                      (s->seq_kept || s->dev_labels ? (uint64_t)s->kept_n * 5 : 0) +
                      (s->dev_labels ? (uint64_t)s->kept_n * 4 : 0);
}

void pf_session_close(pf_session *s)
{
    if (!s)
        return;
    pf_dev_session_close(s->dev);
    pf_session_labels_drop(s);
    pf_dyn_free(&s->g);
    free(s->sources);
    free(s->sinks);
    free(s);
}
