/* The checking layer's analytics steps (device.h: bfs_push .. bfs_push_levels):
 * the graph's sizes and buffers, every list, distance and flag buffer
 * against the vertex count, vertex ids, and the places for the answers,
 * then the backend's step with its own buffers. */
#include "dev_check_internal.h"

#include "../common/status.h"

#define ELEMS pf_dc_check_elems

/* g's sizes and buffers, and the copy of g with the backend's buffers. */
static int check_csr(const pf_dev_csr *g, const char *step, pf_dev_csr *inner, pf_status *st)
{
    if (!g)
        return pf_dc_usage(st, step, "no graph");
    if (g->n < 1 || g->n > INT32_MAX || g->m < 0)
        return pf_fail(st, PF_E_USAGE, "%s: a graph of %lld vertices and %lld arcs", step,
                       (long long)g->n, (long long)g->m);
    if (g->weights < 0 || g->weights > 2 || (g->weights != 0) != (g->weight != NULL))
        return pf_fail(st, PF_E_USAGE, "%s: weights of kind %d with%s a weight buffer", step,
                       g->weights, g->weight ? "" : "out");
    int rc;
    if ((rc = ELEMS(g->first, g->n + 1, 8, step, "first", st)) ||
        (rc = ELEMS(g->head, g->m, 4, step, "head", st)) ||
        (g->weight && (rc = ELEMS(g->weight, g->m, 8, step, "weight", st))) ||
        (g->rfirst && (rc = ELEMS(g->rfirst, g->n + 1, 8, step, "rfirst", st))) ||
        (g->rfirst && (rc = ELEMS(g->rhead, g->m, 4, step, "rhead", st))) ||
        (rc = ELEMS(g->counters, PF_GCTR_COUNT, 8, step, "counters", st)) ||
        (rc = ELEMS(g->lb_degree, g->n, 4, step, "lb_degree", st)) ||
        (rc = ELEMS(g->lb_offset, g->n, 4, step, "lb_offset", st)))
        return rc;
    *inner = *g;
    pf_buf **bufs[] = {&inner->first,  &inner->head,     &inner->weight,   &inner->rfirst,
                       &inner->rhead,  &inner->counters, &inner->lb_degree, &inner->lb_offset};
    for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++)
        *bufs[i] = INNER(*bufs[i]);
    return PF_OK;
}

/* A frontier of count of g's vertices in list. */
static int check_frontier(const pf_dev_csr *g, const pf_buf *list, int64_t count,
                          const char *step, pf_status *st)
{
    if (count > g->n)
        return pf_fail(st, PF_E_USAGE, "%s: a frontier of %lld vertices in a graph of %lld",
                       step, (long long)count, (long long)g->n);
    return ELEMS(list, count, 4, step, "frontier", st);
}

/* A search's source among g's vertices, and its distances (dist_bytes
 * per vertex). */
static int check_source(const pf_dev_csr *g, int32_t source, const pf_buf *dist,
                        size_t dist_bytes, const char *step, pf_status *st)
{
    if (source < 0 || source >= g->n)
        return pf_fail(st, PF_E_USAGE, "%s: source %d outside 0..%lld", step, source,
                       (long long)g->n - 1);
    return pf_dc_check_elems(dist, g->n, dist_bytes, step, "dist", st);
}

/* One or two buffers of an element of elem bytes per vertex (a NULL name:
 * no buffer to check). */
static int per_vertex(const pf_dev_csr *g, size_t elem, const char *step, pf_status *st,
                      const pf_buf *a, const char *a_name, const pf_buf *b, const char *b_name)
{
    int rc = a_name ? ELEMS(a, g->n, elem, step, a_name, st) : PF_OK;
    return rc || !b_name ? rc : ELEMS(b, g->n, elem, step, b_name, st);
}

/* What a frontier step reads and hands back: the graph (into *c_g), a
 * frontier of count vertices in `in`, a distance of dist_bytes per vertex,
 * and places for the vertices and arcs it found. */
static int check_frontier_step(const pf_dev_csr *g, const pf_buf *in, int64_t count,
                               const pf_buf *dist, size_t dist_bytes, const int64_t *found,
                               const int64_t *found_arcs, const char *step, pf_dev_csr *c_g,
                               pf_status *st)
{
    int rc = check_csr(g, step, c_g, st);
    if (!rc)
        rc = check_frontier(g, in, count, step, st);
    if (!rc)
        rc = per_vertex(g, dist_bytes, step, st, dist, "dist", NULL, NULL);
    return rc || (found && found_arcs) ? rc : pf_dc_usage(st, step, "no place for the counts");
}

static int c_bfs_push(pf_dev *dev, const pf_dev_csr *g, pf_buf *in, int64_t count,
                      int64_t in_arcs, pf_buf *dist, int32_t level, pf_buf *out,
                      int64_t *out_count, int64_t *out_arcs, pf_status *st)
{
    const char *step = "bfs_push";
    pf_dev_csr c_g;
    int rc = check_frontier_step(g, in, count, dist, 4, out_count, out_arcs, step, &c_g, st);
    if (!rc)
        rc = per_vertex(g, 4, step, st, out, "out", NULL, NULL);
    checked_dev *c = CDEV(dev);
    return rc ? rc : c->inner->bfs_push(c->dev, &c_g, INNER(in), count, in_arcs, INNER(dist),
                                        level, INNER(out), out_count, out_arcs, st);
}

/* The graph (into *c_g) with its reverse, which pulls and parents read. */
static int check_with_reverse(const pf_dev_csr *g, const char *step, pf_dev_csr *c_g,
                              pf_status *st)
{
    int rc = check_csr(g, step, c_g, st);
    return rc || g->rfirst ? rc : pf_dc_usage(st, step, "no reverse graph");
}

static int c_bfs_pull(pf_dev *dev, const pf_dev_csr *g, pf_buf *dist, int32_t level,
                      pf_buf *flags, int64_t *found, int64_t *found_arcs, pf_status *st)
{
    const char *step = "bfs_pull";
    pf_dev_csr c_g;
    int rc = check_with_reverse(g, step, &c_g, st);
    if (!rc)
        rc = per_vertex(g, 4, step, st, dist, "dist", flags, "flags");
    if (!rc && (!found || !found_arcs))
        rc = pf_dc_usage(st, step, "no place for the counts");
    checked_dev *c = CDEV(dev);
    return rc ? rc : c->inner->bfs_pull(c->dev, &c_g, INNER(dist), level, INNER(flags), found,
                                        found_arcs, st);
}

static int c_bfs_parents(pf_dev *dev, const pf_dev_csr *g, pf_buf *dist, int32_t source,
                         pf_buf *parent, pf_status *st)
{
    const char *step = "bfs_parents";
    pf_dev_csr c_g;
    int rc = check_with_reverse(g, step, &c_g, st);
    if (!rc)
        rc = check_source(g, source, dist, 4, step, st);
    if (!rc)
        rc = per_vertex(g, 4, step, st, parent, "parent", NULL, NULL);
    checked_dev *c = CDEV(dev);
    return rc ? rc : c->inner->bfs_parents(c->dev, &c_g, INNER(dist), source, INNER(parent), st);
}

static int c_sssp_relax(pf_dev *dev, const pf_dev_csr *g, pf_buf *in, int64_t count,
                        int64_t in_arcs, pf_buf *dist, pf_buf *claim, int32_t step_no,
                        pf_buf *near, pf_buf *far, int64_t bound_i, double bound_f,
                        int64_t *near_count, int64_t *near_arcs, pf_status *st)
{
    const char *step = "sssp_relax";
    pf_dev_csr c_g;
    int rc = check_frontier_step(g, in, count, dist, 8, near_count, near_arcs, step, &c_g, st);
    if (!rc)
        rc = per_vertex(g, 4, step, st, claim, "claim", near, "near");
    if (!rc)
        rc = per_vertex(g, 4, step, st, far, "far", NULL, NULL);
    checked_dev *c = CDEV(dev);
    return rc ? rc : c->inner->sssp_relax(c->dev, &c_g, INNER(in), count, in_arcs, INNER(dist),
                                          INNER(claim), step_no, INNER(near), INNER(far),
                                          bound_i, bound_f, near_count, near_arcs, st);
}

static int c_sssp_far(pf_dev *dev, const pf_dev_csr *g, pf_buf *dist, pf_buf *far,
                      int64_t bound_i, double bound_f, pf_buf *out, pf_sssp_far_out *res,
                      pf_status *st)
{
    const char *step = "sssp_far";
    pf_dev_csr c_g;
    int rc = check_csr(g, step, &c_g, st);
    if (!rc)
        rc = per_vertex(g, 8, step, st, dist, "dist", NULL, NULL);
    if (!rc)
        rc = per_vertex(g, 4, step, st, far, "far", out, "out");
    if (!rc && !res)
        rc = pf_dc_usage(st, step, "no place for the answer");
    checked_dev *c = CDEV(dev);
    return rc ? rc : c->inner->sssp_far(c->dev, &c_g, INNER(dist), INNER(far), bound_i, bound_f,
                                        INNER(out), res, st);
}

static int c_intersect_count(pf_dev *dev, const pf_dev_csr *g, int64_t *total, pf_status *st)
{
    pf_dev_csr c_g;
    int rc = check_csr(g, "intersect_count", &c_g, st);
    if (!rc && !total)
        rc = pf_dc_usage(st, "intersect_count", "no place for the total");
    checked_dev *c = CDEV(dev);
    return rc ? rc : c->inner->intersect_count(c->dev, &c_g, total, st);
}

static int c_sssp_solve(pf_dev *dev, const pf_dev_csr *g, pf_buf *dist, int32_t source,
                        int64_t delta_i, double delta_f, double max_weight, int64_t *rounds,
                        pf_status *st)
{
    const char *step = "sssp_solve";
    pf_dev_csr c_g;
    int rc = check_csr(g, step, &c_g, st);
    if (!rc)
        rc = check_source(g, source, dist, 8, step, st);
    if (!rc && (delta_i < 0 || !(delta_f >= 0)))
        rc = pf_fail(st, PF_E_USAGE, "%s: bucket width %lld / %g", step, (long long)delta_i,
                     delta_f);
    if (!rc && !rounds)
        rc = pf_dc_usage(st, step, "no place for the rounds");
    checked_dev *c = CDEV(dev);
    return rc ? rc : c->inner->sssp_solve(c->dev, &c_g, INNER(dist), source, delta_i, delta_f,
                                          max_weight, rounds, st);
}

static int c_sssp_bucket_steps(pf_dev *dev, const pf_dev_csr *g, pf_buf *const list[2],
                               pf_buf *const pile[2], pf_buf *slots, int32_t steps, int64_t hint,
                               pf_buf *dist, pf_buf *claim, int32_t step_no, pf_buf *far,
                               int64_t delta_i, double delta_f, pf_status *st)
{
    const char *step = "sssp_bucket_steps";
    pf_dev_csr c_g;
    int rc = check_csr(g, step, &c_g, st);
    if (!rc && (!list || !pile))
        rc = pf_dc_usage(st, step, "no lists or piles");
    if (!rc && steps < 1)
        rc = pf_fail(st, PF_E_USAGE, "%s: %d steps", step, steps);
    if (!rc)
        rc = per_vertex(g, 4, step, st, list[0], "list 0", list[1], "list 1");
    if (!rc)
        rc = per_vertex(g, 4, step, st, pile[0], "pile 0", pile[1], "pile 1");
    if (!rc)
        rc = ELEMS(slots, ((int64_t)steps + 1) * PF_SSSP_SLOT_WORDS, 8, step, "slots", st);
    if (!rc)
        rc = per_vertex(g, 8, step, st, dist, "dist", NULL, NULL);
    if (!rc)
        rc = per_vertex(g, 4, step, st, claim, "claim", far, "far");
    checked_dev *c = CDEV(dev);
    if (rc)
        return rc;
    pf_buf *const lists[2] = {INNER(list[0]), INNER(list[1])};
    pf_buf *const piles[2] = {INNER(pile[0]), INNER(pile[1])};
    return c->inner->sssp_bucket_steps(c->dev, &c_g, lists, piles, INNER(slots), steps, hint,
                                       INNER(dist), INNER(claim), step_no, INNER(far), delta_i,
                                       delta_f, st);
}

static int c_bfs_push_levels(pf_dev *dev, const pf_dev_csr *g, pf_buf *const list[2],
                             int64_t count, int64_t in_arcs, pf_buf *dist, int32_t level,
                             int32_t levels, int64_t unexplored, int32_t alpha, int64_t least_pull,
                             int64_t *found, double *seconds, int32_t *done, pf_status *st)
{
    const char *step = "bfs_push_levels";
    pf_dev_csr c_g;
    int rc = check_csr(g, step, &c_g, st);
    if (!rc && !list)
        rc = pf_dc_usage(st, step, "no lists");
    if (!rc)
        rc = check_frontier(g, list[0], count, step, st);
    if (!rc)
        rc = per_vertex(g, 4, step, st, list[1], "list 1", dist, "dist");
    if (!rc && levels < 1)
        rc = pf_fail(st, PF_E_USAGE, "%s: %d levels", step, levels);
    if (!rc && (!found || !seconds || !done))
        rc = pf_dc_usage(st, step, "no place for the levels' counts");
    checked_dev *c = CDEV(dev);
    if (rc)
        return rc;
    pf_buf *const lists[2] = {INNER(list[0]), INNER(list[1])};
    return c->inner->bfs_push_levels(c->dev, &c_g, lists, count, in_arcs, INNER(dist), level,
                                     levels, unexplored, alpha, least_pull, found, seconds, done,
                                     st);
}

#define CHECKED_IF_PRESENT(slot) t->slot = in->slot ? c_##slot : NULL
void pf_dc_graph_table(pf_device_ops *t, const pf_device_ops *in)
{
    CHECKED_IF_PRESENT(bfs_push);
    CHECKED_IF_PRESENT(bfs_pull);
    CHECKED_IF_PRESENT(bfs_parents);
    CHECKED_IF_PRESENT(sssp_relax);
    CHECKED_IF_PRESENT(sssp_far);
    CHECKED_IF_PRESENT(intersect_count);
    CHECKED_IF_PRESENT(sssp_solve);
    CHECKED_IF_PRESENT(sssp_bucket_steps);
    CHECKED_IF_PRESENT(bfs_push_levels);
}
#undef CHECKED_IF_PRESENT
