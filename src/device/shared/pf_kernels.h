/* Kernel bodies of the max-flow steps, written once for every backend,
 * and the GPU kernels that wrap them (the last section).
 * Each body does the work of one index (one listed vertex, one vertex, one
 * arc); the kernels map a work-item to its index and call the body, and
 * the OpenMP backend calls the bodies in loops. Semantics of each step:
 * src/device/device.h. Include pf_vendor.h first (and pf_kernel_table.h
 * where the dialect defines PF_KERNEL).
 *
 * Residuals and excess are pf_cap (pf_vendor.h): the same bodies run in 64
 * or 32 bits. No include guard: CUDA includes this file once per width,
 * each time inside a namespace that defines pf_cap (cuda_steps.cu).
 *
 * Why 32 bits cannot overflow where the driver chooses them
 * (driver.c: cap_bits_needed): every push moves d <= the pusher's excess
 * and d <= the arc's residual; only the owner of u lowers excess[u] and
 * u's residuals, so no value ever goes below zero except the source's
 * excess. The excess of every other vertex is >= 0 and all of them sum to
 * the source's net outflow, at most S (the source's residual capacity);
 * so each lies in [0, S] and the source's in [-S, 0], in phase 2 too, and
 * also between the four adds of one push (each add only moves one value
 * toward its final one). A residual pair keeps res[a] + res[ra] equal to
 * cap[a] + cap[ra], both >= 0, so each lies in [0, cap[a] + cap[ra]]. The
 * driver clamps every capacity to S + 1 (no flow moves more than S, and an
 * arc that keeps room above the flow value is never saturated, so the cut
 * found is the same) and takes 32 bits only when S + 1 and every pair's
 * clamped sum are below 2^31. */

/* Arc a = (u,v)'s reverse arc: rev[a] is its position in v's arc list (an
 * int32 instead of an int64 index: 8 bytes less per arc on the device).
 * A dialect that keeps absolute indices instead (device.h: rev_absolute)
 * defines its own in pf_vendor.h. */
#ifndef PF_REV_ARC
#define PF_REV_ARC(first, rev, a, v) ((first)[v] + (pf_i64)(rev)[a])
#endif

/* Moves d units along arc a = (u,v) with reverse arc ra. */
PF_FN void pf_push_units(PF_GLOBAL pf_cap *res, PF_GLOBAL pf_cap *excess, pf_i64 a,
                         pf_i64 ra, pf_i32 u, pf_i32 v, pf_cap d)
{
    PF_ATOMIC_ADD_CAP(&res[a], -d);
    PF_ATOMIC_ADD_CAP(&res[ra], d);
    PF_ATOMIC_ADD_CAP(&excess[u], -d);
    PF_ATOMIC_ADD_CAP(&excess[v], d);
}

/* The residual arc in [begin, end) to the lowest neighbour: its index, or
 * -1 with *best_h = n when no arc has residual capacity. */
PF_FN pf_i64 pf_lowest_neighbour(pf_i64 begin, pf_i64 end, PF_GLOBAL const pf_i32 *head,
                                 PF_GLOBAL const pf_cap *res, PF_GLOBAL const pf_i32 *height,
                                 pf_i32 n, pf_i32 *best_h)
{
    pf_i64 best_arc = -1;
    *best_h = n;
    for (pf_i64 a = begin; a < end; a++) {
        if (PF_LOAD_CAP(&res[a]) > 0) {
            pf_i32 hv = PF_LOAD_I32(&height[head[a]]);
            if (hv < *best_h) {
                *best_h = hv;
                best_arc = a;
            }
        }
    }
    return best_arc;
}

/* flags[u] = u is active. */
PF_FN void pf_body_mark_active(pf_i32 u, PF_GLOBAL const pf_cap *excess,
                               PF_GLOBAL const pf_i32 *height, PF_GLOBAL pf_i32 *flags,
                               pf_i32 n, pf_i32 source, pf_i32 sink)
{
    flags[u] = (u != source && u != sink && excess[u] > 0 && height[u] < n) ? 1 : 0;
}

/* Arc a of x: saturate it if it leads to a live vertex. */
PF_FN void pf_body_saturate_arc(pf_i64 a, pf_i32 x, PF_GLOBAL const pf_i64 *first,
                                PF_GLOBAL const pf_i32 *head, PF_GLOBAL const pf_i32 *rev,
                                PF_GLOBAL pf_cap *res, PF_GLOBAL pf_cap *excess,
                                PF_GLOBAL const pf_i32 *height, pf_i32 n)
{
    pf_cap r = res[a];
    pf_i32 v = head[a];
    if (r > 0 && height[v] < n)
        pf_push_units(res, excess, a, PF_REV_ARC(first, rev, a, v), x, v, r);
}

/* Hong's lock-free push-relabel on one vertex. Only this worker lowers
 * excess[u] and the residuals of u's own arcs; others only raise them, so
 * a fresh read never overstates what may be pushed. Returns the number of
 * arcs scanned by relabels (the work measure for global-relabel pacing). */
PF_FN pf_i64 pf_body_push_relabel(pf_i32 u, PF_GLOBAL const pf_i64 *first,
                                  PF_GLOBAL const pf_i32 *head, PF_GLOBAL const pf_i32 *rev,
                                  PF_GLOBAL pf_cap *res, PF_GLOBAL pf_cap *excess,
                                  PF_GLOBAL pf_i32 *height, pf_i32 n, pf_i32 cycles)
{
    pf_i64 work = 0;
    pf_i64 begin = first[u], end = first[u + 1];
    for (pf_i32 c = 0; c < cycles; c++) {
        pf_cap e = PF_LOAD_CAP(&excess[u]);
        pf_i32 hu = PF_LOAD_I32(&height[u]);
        if (e <= 0 || hu >= n)
            break;
        pf_i32 best_h;
        pf_i64 best_arc = pf_lowest_neighbour(begin, end, head, res, height, n, &best_h);
        if (best_arc >= 0 && hu > best_h) {
            pf_cap r = PF_LOAD_CAP(&res[best_arc]);
            pf_cap d = e < r ? e : r;
            pf_i32 v = head[best_arc];
            pf_push_units(res, excess, best_arc, PF_REV_ARC(first, rev, best_arc, v), u, v, d);
        } else {
            /* No lower residual neighbour: relabel. best_h + 1 > hu since
             * heights only grow; reaching n means u is cut off. */
            PF_STORE_I32(&height[u], best_h + 1 < n ? best_h + 1 : n);
            work += end - begin;
        }
    }
    return work;
}

/* Asynchronous variant of the above that follows the excess: once the
 * worker has drained u into a neighbour v that nobody owns (and that is no
 * terminal), it claims v and carries on from there, so excess can travel
 * many hops per launch instead of one per round. owner[] is 0 for every
 * vertex between launches; the claim keeps "only the owner lowers excess[u]
 * and the residuals of u's arcs". `budget` bounds the operations per worker.
 * Returns the arcs scanned by relabels.
 *
 * What a hand-over of u between workers within one launch relies on: the
 * old owner's atomic adds to excess[u] and u's residuals are done before
 * its release of owner[u] (PF_FENCE), and the new owner's loads after its
 * claim see them. Atomics are device-coherent in OpenCL 1.2, but its
 * mem_fence orders one work-item's accesses only, and a volatile load may
 * in principle be served from a work-group's own cache: the spec does not
 * promise this hand-over across work-groups. It holds where volatile loads
 * read the coherence point and the fence is a device-wide release: NVIDIA
 * (ld.volatile, membar.gl), CPUs (PoCL, llvmpipe), and AMD's compilers
 * (volatile = L1 bypass). A device without that would need atomic loads
 * (atomic_add(p, 0)) for excess and residuals here, or
 * PORTAFLOW_FOLLOW=0: the one-hop body hands nothing over within a launch
 * (kernel boundaries order everything). */
PF_FN pf_i64 pf_body_push_relabel_follow(pf_i32 start, PF_GLOBAL const pf_i64 *first,
                                         PF_GLOBAL const pf_i32 *head,
                                         PF_GLOBAL const pf_i32 *rev, PF_GLOBAL pf_cap *res,
                                         PF_GLOBAL pf_cap *excess, PF_GLOBAL pf_i32 *height,
                                         PF_GLOBAL pf_i32 *owner, pf_i32 n, pf_i32 source,
                                         pf_i32 sink, pf_i32 budget)
{
    pf_i32 u = start;
    if (PF_ATOMIC_CAS_I32(&owner[u], 0, 1) != 0)
        return 0; /* a worker following its excess got here first */
    pf_i64 work = 0;
    for (pf_i32 op = 0; op < budget; op++) {
        pf_cap e = PF_LOAD_CAP(&excess[u]);
        pf_i32 hu = PF_LOAD_I32(&height[u]);
        if (e <= 0 || hu >= n)
            break;
        pf_i64 begin = first[u], end = first[u + 1];
        pf_i32 best_h;
        pf_i64 best_arc = pf_lowest_neighbour(begin, end, head, res, height, n, &best_h);
        if (best_arc < 0 || hu <= best_h) {
            PF_STORE_I32(&height[u], best_h + 1 < n ? best_h + 1 : n);
            work += end - begin;
            continue;
        }
        pf_cap r = PF_LOAD_CAP(&res[best_arc]);
        pf_cap d = e < r ? e : r;
        pf_i32 v = head[best_arc];
        pf_push_units(res, excess, best_arc, PF_REV_ARC(first, rev, best_arc, v), u, v, d);
        if (d == e && v != source && v != sink && PF_ATOMIC_CAS_I32(&owner[v], 0, 1) == 0) {
            PF_FENCE();
            PF_STORE_I32(&owner[u], 0);
            u = v;
        }
    }
    PF_FENCE();
    PF_STORE_I32(&owner[u], 0);
    return work;
}

#ifdef PF_HAVE_LANES
/* pf_body_push_relabel(_follow) with a group of workers (pf_lanes) on one
 * vertex: the lanes split the lowest-neighbour search, lane 0 does the
 * rest, in the same order. A vertex's neighbour heights then load in
 * parallel instead of one after another; rounds are latency-bound, so this
 * pays even on sparse graphs. Every decision comes
 * through pf_lanes_bcast / pf_lanes_lowest, so the whole group takes the
 * same path. Returns the relabel work on lane 0, 0 on the others. */
PF_FN pf_i64 pf_body_push_relabel_lanes(pf_lanes *grp, pf_i32 u, PF_GLOBAL const pf_i64 *first,
                                        PF_GLOBAL const pf_i32 *head,
                                        PF_GLOBAL const pf_i32 *rev, PF_GLOBAL pf_cap *res,
                                        PF_GLOBAL pf_cap *excess, PF_GLOBAL pf_i32 *height,
                                        PF_GLOBAL pf_i32 *owner, pf_i32 n, pf_i32 source,
                                        pf_i32 sink, pf_i32 follow, pf_i32 cycles)
{
    const int leader = grp->lane == 0;
    if (follow && !pf_lanes_bcast(grp, leader && PF_ATOMIC_CAS_I32(&owner[u], 0, 1) == 0))
        return 0; /* a worker following its excess got here first */
    pf_i64 work = 0;
    for (pf_i32 c = 0; c < cycles; c++) {
        pf_cap e = (pf_cap)pf_lanes_bcast(grp, leader ? PF_LOAD_CAP(&excess[u]) : 0);
        pf_i32 hu = (pf_i32)pf_lanes_bcast(grp, leader ? PF_LOAD_I32(&height[u]) : 0);
        if (e <= 0 || hu >= n)
            break;
        pf_i64 begin = first[u], end = first[u + 1], best_arc = -1;
        pf_i32 best_h = n;
        for (pf_i64 a = begin + grp->lane; a < end; a += grp->lanes)
            if (PF_LOAD_CAP(&res[a]) > 0) {
                pf_i32 hv = PF_LOAD_I32(&height[head[a]]);
                if (hv < best_h) {
                    best_h = hv;
                    best_arc = a;
                }
            }
        pf_lanes_lowest(grp, &best_h, &best_arc);
        if (best_arc < 0 || hu <= best_h) {
            if (leader)
                PF_STORE_I32(&height[u], best_h + 1 < n ? best_h + 1 : n);
            work += end - begin;
            continue;
        }
        pf_i32 v = head[best_arc], moved = 0;
        if (leader) {
            pf_cap r = PF_LOAD_CAP(&res[best_arc]);
            pf_cap d = e < r ? e : r;
            pf_push_units(res, excess, best_arc, PF_REV_ARC(first, rev, best_arc, v), u, v, d);
            if (follow && d == e && v != source && v != sink &&
                PF_ATOMIC_CAS_I32(&owner[v], 0, 1) == 0) {
                PF_FENCE();
                PF_STORE_I32(&owner[u], 0);
                moved = 1;
            }
        }
        if (pf_lanes_bcast(grp, moved))
            u = v;
    }
    if (!leader)
        return 0;
    if (follow) {
        PF_FENCE();
        PF_STORE_I32(&owner[u], 0);
    }
    return work;
}
#endif

/* Pushes u's excess along arcs that violate height[u] <= height[v] + 1. */
PF_FN void pf_body_cancel_violations(pf_i32 u, PF_GLOBAL const pf_i64 *first,
                                     PF_GLOBAL const pf_i32 *head, PF_GLOBAL const pf_i32 *rev,
                                     PF_GLOBAL pf_cap *res, PF_GLOBAL pf_cap *excess,
                                     PF_GLOBAL const pf_i32 *height)
{
    pf_cap e = PF_LOAD_CAP(&excess[u]);
    pf_i32 hu = height[u];
    for (pf_i64 a = first[u]; a < first[u + 1] && e > 0; a++) {
        pf_cap r = PF_LOAD_CAP(&res[a]);
        pf_i32 v = head[a];
        if (r > 0 && hu > PF_LOAD_I32(&height[v]) + 1) {
            pf_cap d = e < r ? e : r;
            pf_push_units(res, excess, a, PF_REV_ARC(first, rev, a, v), u, v, d);
            e -= d;
        }
    }
}

/* Sparse transfers (device.h: put_at, take_at, mark_changed): element i
 * of a list, at base + index[i] of an array of `limit` elements. */
PF_FN void pf_body_put_at(pf_i64 i, PF_GLOBAL pf_i32 *dst, pf_i32 words, pf_i64 base,
                          pf_i64 limit, PF_GLOBAL const pf_i32 *index,
                          PF_GLOBAL const pf_i32 *values)
{
    /* elements of `words` 32-bit words (1 or 2), copied word by word:
     * nothing else writes dst meanwhile */
    pf_i64 at = base + (pf_i64)index[i];
    if (at >= 0 && at < limit)
        for (pf_i32 w = 0; w < words; w++)
            dst[at * words + w] = values[i * words + w];
}
PF_FN void pf_body_take_at_i64(pf_i64 i, PF_GLOBAL const pf_i64 *src, pf_i64 base,
                               pf_i64 limit, PF_GLOBAL const pf_i32 *index,
                               PF_GLOBAL pf_i64 *out)
{
    pf_i64 at = base + (pf_i64)index[i];
    out[i] = at >= 0 && at < limit ? src[at] : 0;
}
PF_FN void pf_body_mark_changed_i64(pf_i64 i, PF_GLOBAL const pf_i64 *cur,
                                    PF_GLOBAL pf_i64 *snap, pf_i64 base,
                                    PF_GLOBAL pf_i32 *flags)
{
    pf_i64 now = cur[base + i];
    flags[i] = now != snap[base + i];
    snap[base + i] = now;
}

#ifdef PF_KERNEL
/* ---- the kernels (OpenCL and CUDA) ------------------------------------
 * One wrapper per step, written once in the neutral dialect of
 * pf_vendor.h: PF_KERNEL(name) opens kernel pf_k_name with the parameters
 * its line in pf_kernel_table.h lists (adding a step: see there).
 * PF_CTR_WORK_SLOT is device.h's PF_CTR_WORK (OpenCL: a build option).
 * CUDA includes pf_hops.h at file scope first (this file is included once
 * per width, in a namespace each). */
#include "pf_hops.h"

/* ---- the global relabel's reverse BFS --------------------------------
 * GPU kernels only (the OpenMP backend runs its own BFS, omp_bfs.c). A
 * launch takes the list it is given over the whole grid, then, with
 * hops > 1, each work-group follows what it reached for up to hops - 1
 * more levels from its own queue (pf_hops.h). Groups drift apart within a
 * launch, so a vertex may first be reached along a longer way: heights are
 * lowered by an atomic minimum and every lowering lists the vertex again
 * (label-correcting), so once a list comes back empty every height is its
 * exact distance, as a level-synchronous BFS leaves it. */

/* What one launch reads and writes besides its list: the residual graph,
 * the heights, the claims (hops > 1: owner[] holds `step` for a vertex on
 * `out`), `out` and its count. */
typedef struct pf_bfs_step {
    PF_GLOBAL const pf_i64 *first;
    PF_GLOBAL const pf_i32 *head;
    PF_GLOBAL const pf_i32 *rev;
    PF_GLOBAL const pf_cap *res;
    PF_GLOBAL pf_i32 *height;
    PF_GLOBAL pf_i32 *claim;
    PF_GLOBAL pf_i32 *out;
    PF_GLOBAL pf_i64 *out_count;
    pf_i32 step, excluded, hops;
} pf_bfs_step;

/* Listed vertex u, or `lane` of `lanes` workers sharing it (arcs lane,
 * lane + lanes, ...: a level costs the latency of the longest arc chain,
 * so splitting a vertex's arcs shortens it): every v != excluded with an
 * arc (v,u) of residual > 0 gets height[u] + 1 where that is lower than
 * its own. With one hop a launch, each v is lowered once, from n, and goes
 * straight on `out`; else the group's queue or its claim decides. */
PF_FN void pf_body_bfs_vertex(pf_i32 u, pf_i32 lane, pf_i32 lanes, const pf_bfs_step *s,
                              pf_hop_queue q)
{
    pf_i32 hv = PF_LOAD_I32(&s->height[u]) + 1;
    for (pf_i64 a = s->first[u] + lane; a < s->first[u + 1]; a += lanes) {
        pf_i32 v = s->head[a];
        /* Height first: a vertex as near already needs no load of first[v]. */
        if (v == s->excluded || PF_LOAD_I32(&s->height[v]) <= hv ||
            s->res[PF_REV_ARC(s->first, s->rev, a, v)] <= 0)
            continue;
        if (PF_ATOMIC_MIN_I32(&s->height[v], hv) > hv &&
            (s->hops == 1 || pf_relax_near(s->claim, v, s->step, q)))
            s->out[PF_COUNTER_NEXT(s->out_count)] = v;
    }
}

/* Worker `worker` of `workers` in one launch of a bfs_levels batch: the
 * list `in`, whose size counts[in_slot] is only known on the device, then
 * the group's hops; worker 0 clears counts[clear_slot] for the launch
 * after this one (nobody touches that slot during this one: three slots
 * rotate). `hop_room`: the group's queues and counts (PF_HOP_WORDS). */
PF_FN void pf_bfs_launch(pf_i64 worker, pf_i64 workers, pf_i32 lanes, PF_GLOBAL const pf_i32 *in,
                         PF_GLOBAL pf_i64 *counts, pf_i32 in_slot, pf_i32 clear_slot,
                         const pf_bfs_step *s, PF_LOCAL pf_i32 *hop_room)
{
    PF_LOCAL pf_i32 *lists = hop_room, *listed = hop_room + 2 * PF_HOP_ROOM;
    pf_i64 frontier = counts[in_slot];
    /* A short list gets every worker: level 0 is the target alone, and in
     * a segmentation grid it has an arc to every pixel (one vertex of
     * degree ~n crawled by `lanes` workers would hold the level for
     * milliseconds). */
    pf_i64 spread = frontier > 0 ? workers / frontier : 1;
    pf_i64 width = spread > lanes ? spread : lanes;
    if (worker == 0)
        counts[clear_slot] = 0;
    if (s->hops > 1)
        pf_hops_begin(listed);
    /* i >= 0 and width >= 1: the unsigned division, the cheaper one. */
    for (pf_i64 i = worker; i < frontier * width; i += workers)
        pf_body_bfs_vertex(in[(pf_u64)i / (pf_u64)width], (pf_i32)((pf_u64)i % (pf_u64)width),
                           (pf_i32)width, s, pf_hop_queue_of(lists, listed, 0, s->hops));
    for (pf_i32 hop = 1; hop < s->hops; hop++) {
        pf_i64 queued = pf_hop_queued(listed, hop);
        if (queued == 0)
            break;
        PF_LOCAL const pf_i32 *from = lists + ((hop - 1) % 2) * PF_HOP_ROOM;
        pf_i64 share = PF_LOCAL_SIZE() / queued;
        pf_i64 w = share > lanes ? share : lanes;
        for (pf_i64 i = PF_LOCAL_ID(); i < queued * w; i += PF_LOCAL_SIZE())
            pf_body_bfs_vertex(from[(pf_u64)i / (pf_u64)w], (pf_i32)((pf_u64)i % (pf_u64)w),
                               (pf_i32)w, s, pf_hop_queue_of(lists, listed, hop, s->hops));
    }
}

PF_KERNEL(mark_active)
{
    pf_i64 u = PF_GLOBAL_ID();
    if (u < n)
        pf_body_mark_active((pf_i32)u, excess, height, flags, n, source, sink);
}

/* Grid-stride over x's arcs: the host does not know x's degree without a
 * read-back, so a fixed number of work-items walks first[x]..first[x+1]. */
PF_KERNEL(saturate_from)
{
    pf_i64 end = first[x + 1];
    pf_i64 stride = PF_GLOBAL_SIZE();
    for (pf_i64 a = first[x] + PF_GLOBAL_ID(); a < end; a += stride)
        pf_body_saturate_arc(a, x, first, head, rev, res, excess, height, n);
}

/* One listed vertex per work-item. PF_ADD_WORK adds the relabel work to
 * the counter (OpenCL sums it per work-group first, so every work-item
 * must reach it). */
PF_KERNEL(push_relabel)
{
    pf_i64 i = PF_GLOBAL_ID();
    pf_i64 work = 0;
    if (i < count)
        work = pf_body_push_relabel(list[i], first, head, rev, res, excess, height, n, cycles);
    PF_ADD_WORK(&counters[PF_CTR_WORK_SLOT], work, scratch);
}

/* The same with the worker following its excess into unowned neighbours
 * (pf_body_push_relabel_follow); `budget` operations per worker. Every
 * claim in owner[] is released before the kernel ends. */
PF_KERNEL(push_relabel_follow)
{
    pf_i64 i = PF_GLOBAL_ID();
    pf_i64 work = 0;
    if (i < count)
        work = pf_body_push_relabel_follow(list[i], first, head, rev, res, excess, height,
                                           owner, n, source, sink, budget);
    PF_ADD_WORK(&counters[PF_CTR_WORK_SLOT], work, scratch);
}

/* pf_body_push_relabel_lanes with a group of workers per listed vertex
 * (pf_lanes: an OpenCL work-group, or CUDA's LANES threads of a warp;
 * GPUs, the host picks it). */
PF_KERNEL_LANES(push_relabel_group)
{
    pf_i64 i = PF_LANES_VERTEX();
    if (i >= count)
        return; /* the whole group */
    pf_lanes grp = PF_LANES_INIT(lane_h, lane_arc, word);
    pf_i64 work = pf_body_push_relabel_lanes(&grp, list[i], first, head, rev, res, excess,
                                             height, owner, n, source, sink, follow, cycles);
    if (work != 0)
        PF_COUNTER_ADD(&counters[PF_CTR_WORK_SLOT], work);
}

PF_KERNEL(cancel_violations)
{
    pf_i64 i = PF_GLOBAL_ID();
    if (i < count)
        pf_body_cancel_violations(list[i], first, head, rev, res, excess, height);
}

/* The listed vertices' excess into counters[slot]: a fixed grid that
 * strides over the list, each work-item adding its part once (OpenCL:
 * once per work-group), so a long list costs few atomics. */
PF_KERNEL(sum_excess)
{
    pf_i64 part = 0;
    for (pf_i64 i = PF_GLOBAL_ID(); i < count; i += PF_GLOBAL_SIZE())
        part += (pf_i64)excess[list[i]];
    PF_ADD_WORK(&counters[slot], part, scratch);
}

PF_KERNEL(put_at)
{
    pf_i64 i = PF_GLOBAL_ID();
    if (i < count)
        pf_body_put_at(i, dst, words, base, limit, index, values);
}

PF_KERNEL(take_at_i64)
{
    pf_i64 i = PF_GLOBAL_ID();
    if (i < count)
        pf_body_take_at_i64(i, src, base, limit, index, out);
}

PF_KERNEL(mark_changed_i64)
{
    pf_i64 i = PF_GLOBAL_ID();
    if (i < count)
        pf_body_mark_changed_i64(i, cur, snap, base, flags);
}

/* One launch of a bfs_levels batch over a fixed grid. */
PF_KERNEL(bfs_level)
{
    PF_LOCAL_ARRAY(pf_i32, hop_room, PF_HOP_WORDS);
    pf_bfs_step s = {first, head, rev, res, height, claim, out, &counts[out_slot], claim_step,
                     excluded, hops};
    pf_bfs_launch(PF_GLOBAL_ID(), PF_GLOBAL_SIZE(), lanes, in, counts, in_slot, clear_slot, &s,
                  hop_room);
}
#endif
