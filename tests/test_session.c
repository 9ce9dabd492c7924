/* Sessions (src/host/session.c, session_solve.c) on the backend named on
 * the command line: after every batch of random updates — capacities
 * raised and lowered (saturated arcs below their flow), arcs deleted
 * (flow-carrying ones too), added (parallel arcs, arcs into the source
 * and out of the sink, self-loops), vertices added, terminals moved — the
 * warm answer has the value of a cold seq solve of the network as it now
 * is, and its flow and cut pass the certificate check. A refused batch
 * changes nothing. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/gen.h"
#include "common/knobs.h"
#include "common/updates.h"
#include "host/session_internal.h"
#include "support.h"

static const char *backend;
static int device_bits[32];
static int reduced; /* PORTAFLOW_TEST_REDUCED=1: fewer batches */
static int cut_only; /* sessions that report value and cut: deficits covered, not repaired */

static pf_session *open_session(const pf_network *net)
{
    pf_solve_options opt;
    pf_solve_options_init(&opt);
    opt.backend = backend;
    opt.want_flow = !cut_only;
    opt.want_cut = 1;
    pf_session *s = NULL;
    pf_status st;
    PF_EXPECT(pf_session_open(net, &opt, &s, &st) == PF_OK, "open on %s: %s", backend,
              st.message);
    return s;
}

/* A cold seq solve's value; its flows into *flow where that is not NULL. */
static int64_t cold_value(const pf_network *net, int64_t **flow)
{
    pf_solve_options opt;
    pf_solve_options_init(&opt);
    opt.backend = "seq";
    opt.want_flow = flow != NULL;
    pf_solution sol;
    pf_status st;
    PF_EXPECT(pf_solve(net, &opt, &sol, &st) == PF_OK, "cold seq: %s", st.message);
    int64_t value = sol.value;
    if (flow) {
        *flow = sol.arc_flow;
        sol.arc_flow = NULL;
    }
    pf_solution_free(&sol);
    return value;
}

/* Solves warm; the value is the cold one and the certificate holds (a
 * cut-only session's: the cut's capacity is the value, which the cold
 * flow reaches). Returns the solution, with flows by id for the next
 * batch's choices (a cut-only session's from the cold solve). */
static void solve_checked(pf_session *s, pf_solution *sol, const char *what, int64_t batch)
{
    pf_status st;
    PF_EXPECT(pf_session_solve(s, sol, &st) == PF_OK, "%s batch %lld: %s", what,
              (long long)batch, st.message);
    pf_network *net = pf_session_network(s, &st);
    PF_EXPECT(net != NULL, "network: %s", st.message);
    int64_t *cold_flow = NULL;
    int64_t want = cold_value(net, sol->arc_flow ? NULL : &cold_flow);
    PF_EXPECT(sol->value == want, "%s batch %lld on %s: warm %lld, cold %lld", what,
              (long long)batch, backend, (long long)sol->value, (long long)want);
    PF_EXPECT(pf_verify(net, sol->value, sol->arc_flow, sol->source_side, &st) == PF_OK,
              "%s batch %lld certificate: %s", what, (long long)batch, st.message);
    if (cold_flow)
        sol->arc_flow = cold_flow;
    pf_network_free(net);
}

/* What a batch may do besides arcs: move terminals, add vertices. */
enum { BATCH_TERMINALS = 1, BATCH_VERTICES = 2 };

/* A random batch for the session as it is (flows from the last solve):
 * `count` updates drawn from the arc kinds and those `kinds` allows. */
static int64_t random_batch(pf_session *s, const pf_solution *last, const uint8_t *deleted,
                            pf_rng *r, pf_update *u, int64_t count, int kinds)
{
    int64_t n = pf_session_vertices(s), ids = pf_session_arcs(s);
    pf_status st;
    pf_network *net = pf_session_network(s, &st);
    int64_t made = 0;
    int moved = 0; /* one terminal change a batch */
    for (int64_t k = 0; k < count; k++) {
        pf_update *x = &u[made];
        memset(x, 0, sizeof *x);
        int64_t id = pf_rng_range(r, 0, ids - 1);
        int64_t tail, head, cap;
        pf_network_arc(net, id, &tail, &head, &cap);
        int live = !deleted[id];
        switch (pf_rng_range(r, 0, 9)) {
        case 0: case 1: /* lowered below the flow where there is one */
            if (!live)
                continue;
            x->kind = PF_UPDATE_CAP;
            x->arc = id;
            x->capacity = last->arc_flow[id] > 0 ? pf_rng_range(r, 0, last->arc_flow[id] - 1)
                                                 : pf_rng_range(r, 0, cap);
            break;
        case 2: /* raised */
            if (!live)
                continue;
            x->kind = PF_UPDATE_CAP;
            x->arc = id;
            x->capacity = cap + pf_rng_range(r, 1, 20);
            break;
        case 3: case 4: /* deleted: flow-carrying ones first */
            if (!live)
                continue;
            x->kind = PF_UPDATE_DEL;
            x->arc = id;
            break;
        case 5: case 6: case 7: { /* added: parallel, into the source, out of the sink */
            int which = (int)pf_rng_range(r, 0, 4);
            x->kind = PF_UPDATE_ADD;
            x->tail = which == 0 ? tail : pf_rng_range(r, 0, n - 1);
            x->head = which == 0 ? head : which == 1 ? pf_network_source(net)
                                                     : pf_rng_range(r, 0, n - 1);
            if (which == 2)
                x->tail = pf_network_sink(net);
            x->capacity = pf_rng_range(r, 0, 30);
            break;
        }
        case 8:
            if (!(kinds & BATCH_VERTICES))
                continue;
            x->kind = PF_UPDATE_ADDV;
            x->count = pf_rng_range(r, 1, 3);
            n += x->count;
            break;
        default:
            if (!(kinds & BATCH_TERMINALS) || pf_rng_range(r, 0, 5))
                continue;
            x->kind = pf_rng_range(r, 0, 1) ? PF_UPDATE_SOURCE : PF_UPDATE_SINK;
            x->tail = pf_rng_range(r, 0, n - 1);
            if (moved || x->tail == pf_network_source(net) || x->tail == pf_network_sink(net))
                continue;
            moved = 1;
            break;
        }
        if (x->kind == PF_UPDATE_DEL || x->kind == PF_UPDATE_CAP) {
            /* one change per arc per batch keeps the deleted marks simple */
            int again = 0;
            for (int64_t j = 0; j < made; j++)
                again |= (u[j].kind == PF_UPDATE_DEL || u[j].kind == PF_UPDATE_CAP) &&
                         u[j].arc == id;
            if (again)
                continue;
        }
        made++;
    }
    pf_network_free(net);
    return made;
}

/* Families the batches run on: small enough for hundreds of batches. */
static pf_network *family(int i, pf_status *st)
{
    switch (i) {
    case 0: return pf_gen_random(40, 200, 30, 11, st);
    case 1: return pf_gen_rmf(3, 4, 1, 30, 5, st);
    case 2: return pf_gen_rlg(6, 8, 30, 7, st);
    case 3: return pf_gen_grid2d(8, 8, 4, 20, 3, st);
    default: return pf_gen_ac(16, 40, 9, st);
    }
}
enum { FAMILIES = 5 };

/* pf_session_bfs and pf_session_sssp from `source` on the session's
 * backend give what pf_bfs and pf_sssp on seq give for the network as it
 * now is (deleted arcs left out, weights the capacities): distances,
 * parents and the summaries. */
static void check_searches(pf_session *s, const uint8_t *deleted, int64_t source, int64_t batch)
{
    pf_status st;
    pf_network *net = pf_session_network(s, &st);
    PF_EXPECT(net != NULL, "network: %s", st.message);
    int64_t n = pf_network_vertices(net), m = pf_network_arcs(net), live = 0;
    int64_t *tails = malloc((size_t)(m + 1) * 3 * sizeof *tails);
    int64_t *heads = tails + m + 1, *caps = heads + m + 1;
    for (int64_t i = 0; i < m; i++)
        if (!deleted[i]) {
            pf_network_arc(net, i, &tails[live], &heads[live], &caps[live]);
            live++;
        }
    pf_wgraph *g = pf_wgraph_from_int_arrays(n, live, tails, heads, caps, 0, &st);
    PF_EXPECT(g != NULL, "graph: %s", st.message);
    pf_analytics_options aopt;
    pf_analytics_options_init(&aopt);
    aopt.backend = "seq";
    aopt.parents = 1;
    pf_bfs_solution want, got;
    PF_EXPECT(pf_bfs(g, source, &aopt, &want, &st) == PF_OK, "bfs: %s", st.message);
    PF_EXPECT(pf_session_bfs(s, source, &aopt, &got, &st) == PF_OK,
              "batch %lld: session bfs on %s: %s", (long long)batch, backend, st.message);
    PF_EXPECT(got.vertices == n && got.reached == want.reached && got.depth == want.depth &&
                  got.checksum == want.checksum && got.arcs_traversed == want.arcs_traversed,
              "batch %lld, %s: bfs reached %lld/%lld depth %d/%d arcs %lld/%lld",
              (long long)batch, backend, (long long)got.reached, (long long)want.reached,
              got.depth, want.depth, (long long)got.arcs_traversed,
              (long long)want.arcs_traversed);
    for (int64_t v = 0; v < n; v++)
        PF_EXPECT(got.dist[v] == want.dist[v] && got.parent[v] == want.parent[v],
                  "batch %lld, %s: vertex %lld dist %d/%d parent %d/%d", (long long)batch,
                  backend, (long long)v, got.dist[v], want.dist[v], got.parent[v],
                  want.parent[v]);
    pf_bfs_solution_free(&want);
    pf_bfs_solution_free(&got);
    pf_sssp_solution dw, dg;
    PF_EXPECT(pf_sssp(g, source, &aopt, &dw, &st) == PF_OK, "sssp: %s", st.message);
    PF_EXPECT(pf_session_sssp(s, source, &aopt, &dg, &st) == PF_OK,
              "batch %lld: session sssp on %s: %s", (long long)batch, backend, st.message);
    PF_EXPECT(!dg.real && dg.reached == dw.reached && dg.checksum == dw.checksum,
              "batch %lld, %s: sssp reached %lld/%lld", (long long)batch, backend,
              (long long)dg.reached, (long long)dw.reached);
    for (int64_t v = 0; v < n; v++)
        PF_EXPECT(dg.dist_i[v] == dw.dist_i[v], "batch %lld, %s: vertex %lld sssp %lld/%lld",
                  (long long)batch, backend, (long long)v, (long long)dg.dist_i[v],
                  (long long)dw.dist_i[v]);
    pf_sssp_solution_free(&dw);
    pf_sssp_solution_free(&dg);
    pf_wgraph_free(g);
    free(tails);
    pf_network_free(net);
}

/* Returns how many solves started from the labels the last one left
 * (host sessions: session_labels.c). */
static int64_t run_batches(pf_network *net, uint64_t seed, int64_t batches, int kinds)
{
    pf_session *s = open_session(net);
    pf_solution sol;
    solve_checked(s, &sol, "first", 0);
    pf_rng r;
    pf_rng_seed(&r, seed);
    enum { MAX_UPDATES = 24 };
    pf_update u[MAX_UPDATES];
    uint8_t *deleted = calloc(1 << 16, 1);
    for (int64_t b = 1; b <= batches; b++) {
        int64_t count = random_batch(s, &sol, deleted, &r, u, pf_rng_range(&r, 1, MAX_UPDATES),
                                     kinds);
        int64_t bad = 0;
        pf_status st;
        PF_EXPECT(pf_session_apply(s, u, count, &bad, &st) == PF_OK,
                  "batch %lld update %lld: %s", (long long)b, (long long)bad, st.message);
        for (int64_t k = 0; k < count; k++)
            if (u[k].kind == PF_UPDATE_DEL)
                deleted[u[k].arc] = 1;
        pf_solution_free(&sol);
        solve_checked(s, &sol, "random", b);
        check_searches(s, deleted, (b * 7919) % pf_session_vertices(s), b);
    }
    pf_session_stats stats;
    pf_session_get_stats(s, &stats);
    PF_EXPECT(stats.solves == batches + 1 && stats.batches == batches,
              "%lld solves, %lld batches", (long long)stats.solves, (long long)stats.batches);
    int64_t reused = s->labels_resumed;
    pf_solution_free(&sol);
    free(deleted);
    pf_session_close(s);
    return reused;
}

/* The families, then random graphs whose terminals move too. */
static void run_family(int i)
{
    pf_status st;
    int terminals = i >= FAMILIES;
    pf_network *net = terminals ? pf_gen_random(30, 150, 25, 21 + (uint64_t)i, &st)
                                : family(i, &st);
    ck_assert_msg(net != NULL, "%s", st.message);
    int64_t batches = terminals ? (reduced ? 15 : 60) : (reduced ? 25 : 120);
    run_batches(net, 100 + (uint64_t)i, batches,
                BATCH_VERTICES | (terminals ? BATCH_TERMINALS : 0));
    pf_network_free(net);
}

START_TEST(families_warm_equals_cold)
{
    run_family(_i);
}
END_TEST

/* The same with sessions that report value and cut only. */
START_TEST(cut_only_warm_equals_cold)
{
    cut_only = 1;
    run_family(_i);
    cut_only = 0;
}
END_TEST

/* Batches of arcs only: each warm solve starts from the labels the last
 * one left, repaired for the batch and checked on every arc
 * (PORTAFLOW_CHECK_ARGS, which the suites set): a host session (seq) from
 * its engine's run, a device session from the heights it read back
 * (PORTAFLOW_SESSION_LABELS=on here: the measured choice may keep none on
 * graphs this small). */
START_TEST(kept_labels_warm_equals_cold)
{
    pf_status st;
    cut_only = _i >= FAMILIES;
    setenv("PORTAFLOW_SESSION_LABELS", "on", 1);
    pf_knobs_reload();
    pf_network *net = family(_i % FAMILIES, &st);
    ck_assert_msg(net != NULL, "%s", st.message);
    int64_t batches = reduced ? 25 : 120;
    int64_t reused = run_batches(net, 700 + (uint64_t)_i, batches, 0);
    PF_EXPECT(reused > batches / 4, "%lld of %lld warm solves from kept labels",
              (long long)reused, (long long)batches);
    pf_network_free(net);
    unsetenv("PORTAFLOW_SESSION_LABELS");
    pf_knobs_reload();
    cut_only = 0;
}
END_TEST

START_TEST(several_terminals)
{
    pf_status st;
    cut_only = _i;
    pf_network *net = pf_gen_random(30, 160, 25, 41, &st);
    ck_assert_msg(net != NULL, "%s", st.message);
    int64_t sources[] = {0, 3, 5}, sinks[] = {29, 27};
    ck_assert_msg(pf_network_set_terminals(net, sources, 3, sinks, 2, &st) == PF_OK, "%s",
                  st.message);
    run_batches(net, 500, reduced ? 15 : 60, BATCH_VERTICES);
    pf_network_free(net);
    cut_only = 0;
}
END_TEST

/* The whole state, to compare before and after a refused batch. */
static char *snapshot(pf_session *s)
{
    pf_status st;
    pf_network *net = pf_session_network(s, &st);
    int64_t m = pf_network_arcs(net);
    char *text = malloc((size_t)(m + 2) * 64);
    size_t at = (size_t)sprintf(text, "n %lld m %lld\n", (long long)pf_network_vertices(net),
                                (long long)m);
    for (int64_t i = 0; i < m; i++) {
        int64_t u, v, c;
        pf_network_arc(net, i, &u, &v, &c);
        at += (size_t)sprintf(text + at, "%lld %lld %lld\n", (long long)u, (long long)v,
                              (long long)c);
    }
    pf_network_free(net);
    return text;
}

START_TEST(refused_batch_changes_nothing)
{
    pf_status st;
    pf_network *net = pf_gen_random(20, 80, 20, 5, &st);
    pf_session *s = open_session(net);
    pf_solution before;
    solve_checked(s, &before, "before", 0);
    pf_update del = {.kind = PF_UPDATE_DEL, .arc = 3};
    ck_assert_int_eq(pf_session_apply(s, &del, 1, NULL, &st), PF_OK);
    pf_solution_free(&before);
    solve_checked(s, &before, "deleted", 1);
    char *want = snapshot(s);
    const pf_update bad[][3] = {
        {{.kind = PF_UPDATE_CAP, .arc = 0, .capacity = 5}, {.kind = PF_UPDATE_DEL, .arc = 3}},
        {{.kind = PF_UPDATE_ADD, .tail = 0, .head = 1, .capacity = 4},
         {.kind = PF_UPDATE_CAP, .arc = 1000, .capacity = 1}},
        {{.kind = PF_UPDATE_ADDV, .count = 2}, {.kind = PF_UPDATE_ADD, .tail = 0, .head = 22}},
        {{.kind = PF_UPDATE_CAP, .arc = 1, .capacity = -4}},
        {{.kind = PF_UPDATE_SOURCE, .tail = 19}, {.kind = PF_UPDATE_SINK, .tail = 19}},
        {{.kind = PF_UPDATE_ADDV, .count = 0}},
        {{.kind = PF_UPDATE_CAP, .arc = 2, .is_real = 1, .real_capacity = 2.5}},
    };
    const int64_t counts[] = {2, 2, 2, 1, 2, 1, 1}, where[] = {1, 1, 1, 0, 1, 0, 0};
    for (size_t i = 0; i < sizeof counts / sizeof *counts; i++) {
        int64_t at = -2;
        int rc = pf_session_apply(s, bad[i], counts[i], &at, &st);
        PF_EXPECT(rc == PF_E_INPUT, "bad batch %zu: rc %d", i, rc);
        PF_EXPECT(at == where[i], "bad batch %zu: update %lld named, not %lld (%s)", i,
                  (long long)at, (long long)where[i], st.message);
        char *got = snapshot(s);
        PF_EXPECT(strcmp(got, want) == 0, "bad batch %zu changed the graph", i);
        free(got);
    }
    pf_solution after;
    solve_checked(s, &after, "after", 2);
    PF_EXPECT(after.value == before.value, "value %lld after refused batches, %lld before",
              (long long)after.value, (long long)before.value);
    pf_solution_free(&before);
    pf_solution_free(&after);
    free(want);
    pf_session_close(s);
    pf_network_free(net);
}
END_TEST

/* Long batches (translated in chunks on the host's threads, session.c):
 * a fault is named by its update as in a short batch, the state kept; a
 * long batch without one is applied and solves warm as it solves cold. */
START_TEST(long_batches)
{
    pf_status st;
    pf_network *net = pf_gen_random(300, 2000, 20, 7, &st);
    pf_session *s = open_session(net);
    pf_solution sol;
    solve_checked(s, &sol, "before", 0);
    pf_solution_free(&sol);
    pf_update del = {.kind = PF_UPDATE_DEL, .arc = 3};
    ck_assert_int_eq(pf_session_apply(s, &del, 1, NULL, &st), PF_OK);
    char *want = snapshot(s);
    enum { LONG = 9000 };
    pf_update *u = calloc(LONG, sizeof *u);
    for (int64_t k = 0; k < LONG; k++)
        u[k] = k % 4 ? (pf_update){.kind = PF_UPDATE_CAP, .arc = 4 + k % 1990,
                                   .capacity = k % 25}
                     : (pf_update){.kind = PF_UPDATE_ADD, .tail = k % 300,
                                   .head = (k * 7 + 1) % 300, .capacity = 3};
    u[10] = (pf_update){.kind = PF_UPDATE_DEL, .arc = 1999};
    u[20] = (pf_update){.kind = PF_UPDATE_ADDV, .count = 2};
    const struct {
        int64_t at;
        pf_update bad;
        const char *says;
    } faults[] = {
        {8500, {.kind = PF_UPDATE_CAP, .arc = 3, .capacity = 1}, "arc 4 was deleted"},
        {8001, {.kind = PF_UPDATE_CAP, .arc = 1999, .capacity = 1}, "arc 2000 was deleted"},
        {7000, {.kind = PF_UPDATE_ADD, .tail = 302, .head = 0, .capacity = 1}, "tail 303"},
        {6001, {.kind = PF_UPDATE_CAP, .arc = 5, .capacity = -2}, "negative capacity"},
        {4001, {.kind = PF_UPDATE_SINK, .tail = 1000}, "sink 1001"},
    };
    for (size_t f = 0; f < sizeof faults / sizeof *faults; f++) {
        pf_update keep = u[faults[f].at];
        u[faults[f].at] = faults[f].bad;
        int64_t at = -2;
        PF_EXPECT(pf_session_apply(s, u, LONG, &at, &st) == PF_E_INPUT, "fault %zu: applied", f);
        PF_EXPECT(at == faults[f].at && strstr(st.message, faults[f].says),
                  "fault %zu: update %lld named (%s)", f, (long long)at, st.message);
        char *got = snapshot(s);
        PF_EXPECT(strcmp(got, want) == 0, "fault %zu changed the graph", f);
        free(got);
        u[faults[f].at] = keep;
    }
    /* a vertex the batch's ADDV made, used after it */
    u[7000] = (pf_update){.kind = PF_UPDATE_ADD, .tail = 301, .head = 0, .capacity = 1};
    ck_assert_int_eq(pf_session_apply(s, u, LONG, NULL, &st), PF_OK);
    solve_checked(s, &sol, "long", 1);
    pf_solution_free(&sol);
    free(u);
    free(want);
    pf_session_close(s);
    pf_network_free(net);
}
END_TEST

/* A graph of several read-back spans (driver_sparse.c: a quarter of the
 * larger array each) with 64-bit residuals, and `gen updates` batches
 * whose added arcs open long new paths: a warm solve changes more than a
 * tenth of every span, so the read-back takes the spans whole, in a row
 * (one transfer; omp, whose memory is the host's, copies everything
 * anyway), and the next batch starts from what came back. Value
 * and cut only: with flows to report, repairing these batches' deficits
 * costs more than a cold start, which reads back everything. */
START_TEST(whole_spans_read_back)
{
    pf_status st;
    cut_only = 1;
    pf_network *net = pf_gen_rlg(64, 512, 100000000, 5, &st);
    ck_assert_msg(net != NULL, "%s", st.message);
    FILE *stream = tmpfile();
    ck_assert(stream != NULL);
    pf_update_gen_params p = {.fraction = 0.01, .batches = 3, .seed = 1, .base = 1,
                              .mix = 1u << PF_UPDATE_CAP | 1u << PF_UPDATE_ADD |
                                     1u << PF_UPDATE_DEL};
    ck_assert_int_eq(pf_update_gen_write(net, &p, stream, &st), PF_OK);
    rewind(stream);
    pf_update_reader *reader = NULL;
    ck_assert_int_eq(pf_update_reader_open_stream(stream, "stream", 0, &reader, &st), PF_OK);
    pf_session *s = open_session(net);
    pf_solution sol;
    solve_checked(s, &sol, "before", 0);
    pf_update_batch batch;
    memset(&batch, 0, sizeof batch);
    for (int64_t b = 1; pf_update_reader_next(reader, &batch, &st) == 1; b++) {
        pf_solution_free(&sol);
        PF_EXPECT(pf_session_apply(s, batch.items, batch.count, NULL, &st) == PF_OK,
                  "batch %lld: %s", (long long)b, st.message);
        solve_checked(s, &sol, "long paths", b);
    }
    PF_EXPECT(st.code == PF_OK, "stream: %s", st.message);
    pf_solution_free(&sol);
    pf_update_batch_free(&batch);
    pf_update_reader_close(reader);
    fclose(stream);
    pf_session_close(s);
    pf_network_free(net);
    cut_only = 0;
}
END_TEST

START_TEST(real_capacities)
{
    pf_status st;
    pf_network *net = pf_network_new(4, 0, 3, &st);
    const double caps[] = {1.5, 2.25, 0.75, 3.125, 1.0};
    const int64_t ends[][2] = {{0, 1}, {0, 2}, {1, 2}, {1, 3}, {2, 3}};
    for (int i = 0; i < 5; i++)
        ck_assert_int_eq(pf_network_add_arc_real(net, ends[i][0], ends[i][1], caps[i], &st),
                         PF_OK);
    ck_assert_int_eq(pf_network_finish(net, PF_SCALE_BOUND_LOG2, &st), PF_OK);
    pf_session *s = open_session(net);
    pf_solution sol;
    solve_checked(s, &sol, "real", 0);
    pf_update u[] = {{.kind = PF_UPDATE_CAP, .arc = 4, .is_real = 1, .real_capacity = 0.5},
                     {.kind = PF_UPDATE_ADD, .tail = 0, .head = 3, .is_real = 1,
                      .real_capacity = 0.25},
                     {.kind = PF_UPDATE_CAP, .arc = 0, .capacity = 2}};
    ck_assert_int_eq(pf_session_apply(s, u, 3, NULL, &st), PF_OK);
    pf_solution_free(&sol);
    solve_checked(s, &sol, "real", 1);
    int scale = 0;
    pf_network_scale(net, &scale, NULL);
    /* 0->1->3 carries 2 (arc 0 now), 0->2->3 0.5 (arc 4 now), 0->3 0.25 */
    PF_EXPECT(sol.value == (int64_t)(2.75 * (double)(1LL << scale)), "value %lld at scale %d",
              (long long)sol.value, scale);
    /* Real capacities as real distances: 0->1 2, 0->2 2.25, 0->3 0.25
     * (the added arc), 1->2 0.75. */
    pf_sssp_solution d;
    PF_EXPECT(pf_session_sssp(s, 0, NULL, &d, &st) == PF_OK, "session sssp: %s", st.message);
    const double want[] = {0, 2, 2.25, 0.25};
    PF_EXPECT(d.real && d.dist_f && !d.dist_i && d.reached == 4, "real %d reached %lld", d.real,
              (long long)d.reached);
    for (int v = 0; v < 4; v++)
        PF_EXPECT(d.dist_f[v] == want[v], "vertex %d: %.17g, not %g", v, d.dist_f[v], want[v]);
    pf_sssp_solution_free(&d);
    pf_solution_free(&sol);
    pf_session_close(s);
    pf_network_free(net);
}
END_TEST

/* Counts the lines of `text` that start with `prefix`. */
static int count_lines(const char *text, const char *prefix)
{
    int count = 0;
    size_t len = strlen(prefix);
    for (const char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
        count += strncmp(line, prefix, len) == 0;
    return count;
}

START_TEST(cli_session)
{
    /* 0 -> 1 -> 3 (2), 0 -> 1 -> 2 -> 3 (1), 0 -> 2 -> 3 (2): value 5 */
    const char *graph = pf_test_tmpfile("p max 4 5\nn 1 s\nn 4 t\na 1 2 3\na 1 3 2\n"
                                        "a 2 3 1\na 2 4 2\na 3 4 3\n");
    const char *updates = pf_test_tmpfile("c lower, add, delete\ncap 4 1\nsolve\n"
                                          "add 1 4 7\ndel 2\nsolve\naddv 1\nadd 5 4 2\n"
                                          "add 1 5 1\nsource 2\nsolve\n");
    char *out, *err;
    const char *args[] = {"session", "--verify", "--backend", backend, "--flow", "--cut",
                          graph, updates, NULL};
    ck_assert_int_eq(pf_test_run_cli(args, NULL, &out, &err), 0);
    PF_EXPECT(count_lines(out, "s ") == 4 && count_lines(out, "c verify ok") == 4,
              "4 verified solves: %s", out);
    /* 5; arc 4 (2 -> 4) at 1: 4; an arc 1 -> 4 of 7, arc 2 (1 -> 3) gone: 7 + 2;
     * from vertex 2: 2 -> 4 (1) and 2 -> 3 -> 4 (1) */
    const char *values[] = {"\ns 5\n", "\ns 4\n", "\ns 9\n", "\ns 2\n"};
    for (int i = 0; i < 4; i++)
        PF_EXPECT(strstr(out, values[i]), "value %d (%s): %s", i, values[i], out);
    PF_EXPECT(strstr(out, "c cold: the source changed"), "cold line: %s", out);
    PF_EXPECT(count_lines(out, "f ") == 5 + 5 + 7 + 7, "f lines: %s", out);
    free(out), free(err);

    const char *bad = pf_test_tmpfile("cap 1 5\nsolve\ndel 2\ncap 2 7\nsolve\n");
    const char *refused[] = {"session", "--backend", backend, graph, bad, NULL};
    ck_assert_int_eq(pf_test_run_cli(refused, NULL, &out, &err), 2);
    PF_EXPECT(strstr(err, ":4: arc 2 was deleted"), "refused batch: %s", err);
    PF_EXPECT(count_lines(out, "s ") == 2, "two solves before the refused batch: %s", out);
    free(out), free(err);

    const char *stdin_args[] = {"session", "--json", "--backend", backend, graph, "-", NULL};
    const char *piped = pf_test_tmpfile("add 1 4 99999999999\nsolve\nadd 1 9 1\nsolve\n");
    ck_assert_int_eq(pf_test_run_cli(stdin_args, piped, &out, &err), 2);
    PF_EXPECT(strstr(out, "\"batch\":1") && strstr(out, "\"warm\":true"), "json: %s", out);
    PF_EXPECT(strstr(err, "<stdin>:3: head 9 outside 1..4"), "stdin error: %s", err);
    free(out), free(err);

    /* Searches between solves: from 1 after arc 4 (2 -> 4) is deleted,
     * vertex 4 is 2 hops away (1 -> 3 -> 4), at length 2 + 3; the solve
     * after them: 3, all of it over 3 -> 4. */
    const char *searched = pf_test_tmpfile("del 4\nbfs 1\nsssp 1\nsolve\nbfs 9\n");
    const char *search_args[] = {"session", "--backend", backend, graph, searched, NULL};
    ck_assert_int_eq(pf_test_run_cli(search_args, NULL, &out, &err), 2);
    PF_EXPECT(strstr(out, "c bfs from 1 on ") && strstr(out, "\ns reached 4\ns depth 2\n"
                                                              "s checksum 4\n"),
              "bfs lines: %s", out);
    PF_EXPECT(strstr(out, "c sssp from 1 on ") && strstr(out, "\ns reached 4\n"
                                                               "s max_distance 5\n"
                                                               "s checksum 10\n"),
              "sssp lines: %s", out);
    PF_EXPECT(count_lines(out, "s ") == 2 + 3 + 3 && strstr(out, "\ns 3\n"), "solves: %s", out);
    PF_EXPECT(strstr(err, ":5: source 9 outside 1..4"), "bad source: %s", err);
    free(out), free(err);

    const char *none[] = {"session", NULL};
    ck_assert_int_eq(pf_test_run_cli(none, NULL, &out, &err), 1);
    free(out), free(err);
    remove(graph), remove(updates), remove(bad), remove(piped), remove(searched);
}
END_TEST

int main(int argc, char **argv)
{
    backend = argc > 1 ? argv[1] : "omp";
    reduced = pf_test_reduced();
    if (pf_test_backend_missing(backend))
        return PF_TEST_SKIP;
    pf_test_device_widths(backend, device_bits, 32);
    if (strcmp(backend, "seq") && !(device_bits[0] & PF_MAXFLOW_64)) {
        printf("SKIP: %s's first device has 32-bit residuals only; sessions need 64\n",
               backend);
        return PF_TEST_SKIP;
    }
    Suite *s = suite_create(backend);
    TCase *tc = tcase_create("session");
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, families_warm_equals_cold, 0, FAMILIES + 2);
    tcase_add_loop_test(tc, cut_only_warm_equals_cold, 0, FAMILIES + 2);
    tcase_add_loop_test(tc, kept_labels_warm_equals_cold, 0, 2 * FAMILIES);
    tcase_add_loop_test(tc, several_terminals, 0, 2);
    tcase_add_test(tc, refused_batch_changes_nothing);
    tcase_add_test(tc, long_batches);
    tcase_add_test(tc, whole_spans_read_back);
    tcase_add_test(tc, real_capacities);
    tcase_add_test(tc, cli_session);
    suite_add_tcase(s, tc);
    return pf_test_run_in_process(s);
}
