/* The labels a session's last solve ended with, kept for the next one
 * (session_internal.h), so that a warm solve starts from them without a
 * global relabel. On a host session they are the sequential engine's run,
 * kept whole with its arrays; on a device session, the device's heights
 * read back after phase 1 (exact then: the closing relabel made them) and
 * sent up again with the next batch. On a grid that relabel is most of a
 * warm solve: a search over every slot for a batch that touched a few
 * thousand (bench/NOTES.md 58 and 74).
 *
 * Why the repair is enough. Push-relabel needs valid labels: label[u] <=
 * label[v] + 1 on every residual arc u->v, the sink at 0. A solve ends with
 * valid ones. A batch changes residuals only on the slots it touches (the
 * dynamic graph lists them, dyn_graph.h): a residual that falls to 0 takes
 * an arc away, which no validity rests on; one that rises from 0 adds an
 * arc u->v, which is valid unless label[u] > label[v] + 1. Such a u is
 * lowered to label[v] + 1, which keeps its own arcs valid (their tail only
 * fell) but may break the arcs into it: every vertex with a residual arc
 * into a lowered one is lowered the same way, in turn. Labels only fall,
 * so this ends; a vertex at n (cut off from the sink) that a new arc joins
 * to it comes down with the rest. The source keeps its blocking label (the
 * engine saturates its arcs), and the sink stays at 0.
 *
 * The lists only hold so much (touched_full), and a layout or growth of
 * the arrays (all_dirty) or new vertices change what a slot or a label
 * means: then nothing is kept, and the solve relabels as before. */
#include <stdlib.h>

#include "../common/knobs.h"
#include "../common/status.h"
#include "../common/timer.h"
#include "../device/seq/seq_engine.h"
#include "dev_check.h"
#include "session_internal.h"

/* A repair gives way to a global relabel once it has scanned this share
 * of the slots (a global relabel scans them all, once, at about the same
 * cost per slot), or, on a device session, once it has taken as long as
 * the device's last relabel (the one it would spare: on a GPU a few
 * milliseconds, which a 1% batch's repair on the host passes many times
 * over), its clock read every REPAIR_CLOCK steps. */
enum { REPAIR_SHARE = 2, REPAIR_CLOCK = 4096 };

/* A host session whose repair gave way (the batch reached as far as half
 * the graph: a stream whose added arcs join far-apart vertices does so on
 * every batch) skips the next REPAIR_SKIPS tries, each of which would
 * cost about half a global relabel before the relabel ran anyway, then
 * tries again. */
enum { REPAIR_SKIPS = 7 };

void pf_session_labels_drop(pf_session *s)
{
    pf_seq_run_free(s->seq_kept);
    free(s->dev_labels);
    free(s->label_queue);
    free(s->label_queued);
    s->seq_kept = NULL;
    s->dev_labels = NULL;
    s->label_queue = NULL;
    s->label_queued = NULL;
    s->kept_n = 0;
}

/* The view's vertex count and terminals noted for labels now kept, with
 * the repair's queue and marks for them; 0 (all dropped) on no memory. */
static int note_kept(pf_session *s)
{
    const pf_residual *v = &s->g.view;
    if (s->kept_n != v->n || !s->label_queue) {
        free(s->label_queue);
        free(s->label_queued);
        s->label_queue = malloc((size_t)v->n * sizeof *s->label_queue);
        s->label_queued = calloc((size_t)v->n, 1);
    }
    s->kept_n = v->n;
    s->kept_source = v->source;
    s->kept_sink = v->sink;
    if (s->label_queue && s->label_queued)
        return 1;
    pf_session_labels_drop(s); /* out of memory: the next solve starts afresh */
    return 0;
}

void pf_session_seq_keep(pf_session *s, pf_seq_run *run)
{
    if (s->seq_kept != run)
        pf_seq_run_free(s->seq_kept);
    s->seq_kept = run;
    note_kept(s);
}

int pf_session_dev_keep(pf_session *s, pf_status *st)
{
    const int64_t n = s->g.view.n;
    if (s->dev_labels && s->kept_n != n) {
        free(s->dev_labels);
        s->dev_labels = NULL;
    }
    if (!s->dev_labels && !(s->dev_labels = pf_alloc((size_t)(n ? n : 1), 4, st)))
        return PF_E_NOMEM;
    int rc = pf_dev_session_heights(s->dev, s->dev_labels, st);
    if (rc || !note_kept(s)) {
        free(s->dev_labels);
        s->dev_labels = NULL;
    }
    return rc;
}

/* label[x] lowered to `to`, x queued (once) for its in-arcs. */
static void lower(pf_session *s, int32_t *label, int32_t x, int32_t to, int64_t *tail,
                  int64_t *count)
{
    label[x] = to;
    if (s->label_queued[x])
        return;
    s->label_queued[x] = 1;
    s->label_queue[*tail] = x;
    *tail = *tail + 1 == s->kept_n ? 0 : *tail + 1;
    (*count)++;
}

/* Whether a repair begun at `begun` with a time budget (0: none) has
 * passed it; read every REPAIR_CLOCK steps. */
static int out_of_time(double begun, double budget, int64_t step)
{
    return budget > 0 && step % REPAIR_CLOCK == 0 && pf_now() - begun > budget;
}

/* The repair above, of the kept run's labels, within `budget` seconds (0:
 * no bound but the slots'); 0 when it gave way. */
static int repair(pf_session *s, int32_t *label, double budget)
{
    const pf_dyn_graph *g = &s->g;
    const pf_residual *v = &g->view;
    const int32_t source = v->source, n = (int32_t)v->n;
    const int64_t *res = g->res;
    int64_t head = 0, tail = 0, count = 0, scanned = 0, steps = 0;
    int64_t limit = v->arcs / REPAIR_SHARE;
    const double begun = pf_now();
    for (int64_t i = 0; i < g->touched_count[0]; i++) {
        if (out_of_time(begun, budget, ++steps)) {
            limit = -1;
            break;
        }
        int64_t a = g->touched[0][i];
        if (res[a] <= 0)
            continue;
        int32_t u = v->head[v->rev[a]], w = v->head[a];
        if (u != source && label[u] > label[w] + 1)
            lower(s, label, u, label[w] + 1, &tail, &count);
    }
    while (count > 0 && scanned <= limit) {
        if (out_of_time(begun, budget, ++steps)) {
            limit = -1;
            break;
        }
        int32_t x = s->label_queue[head];
        head = head + 1 == n ? 0 : head + 1;
        count--;
        s->label_queued[x] = 0;
        const int32_t to = label[x] + 1;
        for (int64_t b = v->first[x]; b < v->first[x + 1]; b++) {
            int32_t y = v->head[b];
            if (y != source && label[y] > to && res[v->rev[b]] > 0)
                lower(s, label, y, to, &tail, &count);
        }
        scanned += v->first[x + 1] - v->first[x];
    }
    for (; count > 0; count--) { /* gave way: the marks go back to 0 */
        s->label_queued[s->label_queue[head]] = 0;
        head = head + 1 == n ? 0 : head + 1;
    }
    return scanned <= limit;
}

/* Every residual arc checked, for the test suites (PORTAFLOW_CHECK_ARGS):
 * a repair that missed one would let the engine stop short of a maximum
 * flow where no test batch happens to show it. */
static int check_labels(const pf_session *s, const int32_t *label, pf_status *st)
{
    const pf_residual *v = &s->g.view;
    for (int32_t u = 0; u < (int32_t)v->n; u++) {
        if (u == v->source)
            continue;
        for (int64_t a = v->first[u]; a < v->first[u + 1]; a++) {
            int32_t w = v->head[a];
            if (s->g.res[a] > 0 && label[u] > label[w] + 1)
                return pf_fail(st, PF_E_VERIFY,
                               "session: the kept label %d of vertex %d is over %d + 1, the "
                               "label of %d, across a residual arc (slot %lld)",
                               (int)label[u], (int)u, (int)label[w], (int)w, (long long)a);
        }
    }
    return PF_OK;
}

/* The kept labels made valid for the batches since (repaired within
 * `budget` seconds, 0: no time bound; checked where the test suites ask);
 * 0 where they cannot be kept, with *gave_way 1 where the repair ran and
 * gave way. */
static int repaired(pf_session *s, int32_t *label, double budget, int *gave_way, pf_status *st,
                    int *rc)
{
    const pf_dyn_graph *g = &s->g;
    *rc = PF_OK;
    *gave_way = 0;
    int usable = s->kept_n == g->view.n && s->kept_source == g->view.source &&
                 s->kept_sink == g->view.sink && !g->all_dirty && !g->touched_full;
    if (usable && !repair(s, label, budget))
        usable = 0, *gave_way = 1;
    if (usable && pf_dev_check_enabled())
        *rc = check_labels(s, label, st);
    return usable && !*rc;
}

int pf_session_seq_take(pf_session *s, pf_seq_run **run, pf_status *st)
{
    *run = NULL;
    if (!s->seq_kept)
        return PF_OK;
    int rc = PF_OK, gave_way = 0;
    /* Skipping is part of the measured choice: labels forced on are tried
     * every time. */
    int measured = pf_knobs()->session_labels == PF_KNOB_AUTO;
    if (measured && s->repair_skips > 0) {
        s->repair_skips--;
    } else if (repaired(s, pf_seq_run_labels(s->seq_kept), 0, &gave_way, st, &rc)) {
        *run = s->seq_kept;
        s->seq_kept = NULL;
        s->labels_resumed++;
        return rc;
    } else if (gave_way && measured) {
        s->repair_skips = REPAIR_SKIPS;
    }
    pf_seq_run_free(s->seq_kept);
    s->seq_kept = NULL;
    return rc;
}

int pf_session_dev_take(pf_session *s, const int32_t **labels, pf_status *st)
{
    *labels = NULL;
    if (!s->dev_labels)
        return PF_OK;
    int rc;
    /* The time bound is part of the measured choice: labels forced on
     * (PORTAFLOW_SESSION_LABELS=on) are repaired however long it takes. */
    double budget = pf_knobs()->session_labels == PF_KNOB_AUTO ? s->first_relabel_s : 0;
    int gave_way;
    if (repaired(s, s->dev_labels, budget, &gave_way, st, &rc)) {
        *labels = s->dev_labels;
        s->labels_resumed++;
    } else {
        free(s->dev_labels);
        s->dev_labels = NULL;
    }
    return rc;
}
