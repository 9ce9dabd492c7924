/* A work-group's own queue, for the batched steps that go several hops in
 * one launch (sssp_bucket_steps in pf_graph_kernels.h, the max-flow
 * relabel's bfs_level in pf_kernels.h): the vertices a group lowered are
 * taken up again by the same group after a group barrier, instead of
 * waiting for the next launch. Include pf_vendor.h (and pf_kernel_table.h
 * where the dialect has kernels) first. Claims: claim[v] == step says v is
 * on the list the next launch reads; the caller keeps step values unique
 * per launch and claim[] free of them before the first. */
#ifndef PF_HOPS_H
#define PF_HOPS_H

/* Whether this worker, having lowered v, appends v to the next step's
 * list (SSSP: the near list): once per step (claim[v] is exchanged for
 * `step`, and only the worker that saw another value appends). */
PF_FN int pf_relax_claim(PF_GLOBAL pf_i32 *claim, pf_i32 v, pf_i32 step)
{
    /* A plain load first: a vertex lowered again in the same step is
     * listed already, and the exchange would only fight over its line. */
    if (PF_LOAD_I32(&claim[v]) == step)
        return 0;
    return PF_ATOMIC_XCHG_I32(&claim[v], step) != step;
}

/* A vertex lowered again within the launch (sssp_bucket_steps, bfs_level
 * with hops > 1): the work-group that lowered it lists it in its own
 * memory, up to `room` vertices, and relaxes it in the launch's next hop
 * after a group barrier. No claim: a vertex lowered twice is listed twice (a
 * claim would say "listed", not "relaxed after this lowering", once the
 * group has gone past it). room 0: no queue (the last hop, or a step of
 * one hop): the vertex goes to the next step's list through its claim. */
typedef struct pf_hop_queue {
    PF_LOCAL pf_i32 *list;
    PF_LOCAL pf_i32 *count;
    pf_i32 room;
} pf_hop_queue;

/* A batched step's hops: up to PF_HOPS_MOST; each hop lists at most
 * PF_HOP_ROOM vertices in the group's memory (two halves: one filled while
 * the other is relaxed; a count per hop), the rest going to the next
 * step's list. A thin wavefront (a lattice, a road network) then moves
 * several hops per launch instead of one. */
#define PF_HOPS_MOST 16 /* device.h: PF_DEV_HOPS_MOST */
#define PF_HOP_ROOM 512
#define PF_HOP_WORDS (2 * PF_HOP_ROOM + PF_HOPS_MOST) /* the queues, then the counts */

/* Hop `hop`'s queue, for the vertices the next hop relaxes; none on the
 * last hop (pf_hop_queue_of(0, 0, 0, 1): none at all). */
PF_FN pf_hop_queue pf_hop_queue_of(PF_LOCAL pf_i32 *lists, PF_LOCAL pf_i32 *counts, pf_i32 hop,
                                   pf_i32 hops)
{
    pf_hop_queue q;
    q.list = lists + (hop % 2) * PF_HOP_ROOM;
    q.count = counts + hop;
    q.room = hop + 1 < hops ? PF_HOP_ROOM : 0;
    return q;
}

/* Whether this worker, having lowered v, appends v to the next step's
 * list: not when v is listed there already (it will be relaxed after this
 * lowering), nor when the group's queue takes it; else through v's claim. */
PF_FN int pf_relax_near(PF_GLOBAL pf_i32 *claim, pf_i32 v, pf_i32 step, pf_hop_queue q)
{
    if (q.room == 0)
        return pf_relax_claim(claim, v, step);
    if (PF_LOAD_I32(&claim[v]) == step)
        return 0;
    pf_i32 at = PF_LOCAL_NEXT_I32(q.count);
    if (at < q.room) {
        q.list[at] = v;
        return 0;
    }
    return pf_relax_claim(claim, v, step);
}

#ifdef PF_KERNEL
/* Every hop's count zeroed, before the first hop lists anything. */
PF_FN void pf_hops_begin(PF_LOCAL pf_i32 *counts)
{
    for (pf_i64 i = PF_LOCAL_ID(); i < PF_HOPS_MOST; i += PF_LOCAL_SIZE())
        counts[i] = 0;
    PF_GROUP_BARRIER();
}

/* How many vertices hop `hop` relaxes: what hop - 1 listed, read after the
 * group's barrier (the same value for the whole group). */
PF_FN pf_i32 pf_hop_queued(PF_LOCAL pf_i32 *counts, pf_i32 hop)
{
    PF_GROUP_BARRIER();
    pf_i32 listed = counts[hop - 1];
    return listed < PF_HOP_ROOM ? listed : PF_HOP_ROOM;
}
#endif

#endif
