/* Phase 2 of the sequential engine (seq_internal.h): the maximum preflow
 * of phase 1 made a maximum flow, as seq_engine.c's opening comment describes. */
#include <stdint.h>

#include "seq_internal.h"

/* Flow on residual arc a (negative on the reverse of a flow arc). */
static inline int64_t arc_flow(const seq *S, int64_t a)
{
    return S->cap[a] - S->res[a];
}

/* `inside[v]` marks source-side vertices other than the source: every
 * vertex with excess is one, and flow into one comes only from another or
 * from the source, so phase 2 never leaves this set. Cancels every flow
 * cycle inside it and writes its vertices to `order`, descendants before
 * ancestors in the (now acyclic) flow; returns how many. Here vx[].cur is
 * an absolute arc index and the bucket links hold the DFS state. */
static int64_t cancel_cycles(seq *S, const uint8_t *inside, int32_t *order)
{
    const int32_t n = S->n;
    const int64_t *first = S->first;
    int32_t *stack = S->queue;
    vertex *vx = S->vx;
    bucket_link *state = S->link; /* next: 0 new, 1 on the stack, 2 done; prev: depth */
    int64_t done = 0;

    for (int32_t v = 0; v < n; v++) {
        state[v].next = 0;
        vx[v].cur = first[v];
    }
    for (int32_t root = 0; root < n; root++) {
        if (!inside[root] || state[root].next != 0)
            continue;
        int32_t top = 0;
        stack[0] = root;
        state[root].next = 1;
        state[root].prev = 0;
        while (top >= 0) {
            int32_t v = stack[top];
            int64_t a = vx[v].cur, end = first[v + 1];
            int32_t descend = -1;
            for (; a < end; a++) {
                int32_t w = S->head[a];
                if (!inside[w] || arc_flow(S, a) <= 0 || state[w].next == 2)
                    continue;
                if (state[w].next == 0) {
                    descend = w;
                    break;
                }
                /* w is on the stack: cancel the cycle w .. v -> w. */
                vx[v].cur = a;
                int64_t delta = INT64_MAX;
                for (int32_t i = state[w].prev; i <= top; i++) {
                    int64_t f = arc_flow(S, vx[stack[i]].cur);
                    if (f < delta)
                        delta = f;
                }
                int32_t cut_at = -1;
                for (int32_t i = state[w].prev; i <= top; i++) {
                    int64_t b = vx[stack[i]].cur;
                    S->res[b] += delta;
                    S->res[S->rev[b]] -= delta;
                    if (cut_at < 0 && arc_flow(S, b) == 0)
                        cut_at = i;
                }
                /* Resume at the first vertex whose arc emptied; those
                 * above it leave the stack and may be visited again (their
                 * skipped arcs stay skippable: cancelling creates no flow). */
                for (int32_t i = cut_at + 1; i <= top; i++)
                    state[stack[i]].next = 0;
                top = cut_at;
                break;
            }
            if (descend >= 0) {
                vx[v].cur = a;
                stack[++top] = descend;
                state[descend].next = 1;
                state[descend].prev = top;
            } else if (a == end) {
                vx[v].cur = end;
                state[v].next = 2;
                order[done++] = v;
                top--;
            }
        }
    }
    return done;
}

/* Returns each vertex's excess along the flow arcs that brought it, in an
 * order where a vertex comes before every vertex it hands excess to. */
void pf_seq_phase2(seq *S, const uint8_t *inside)
{
    int32_t *order = S->label; /* free once the cut is known */
    int64_t count = cancel_cycles(S, inside, order);
    for (int64_t i = 0; i < count; i++) {
        int32_t v = order[i];
        int64_t ex = S->vx[v].excess;
        for (int64_t a = S->first[v], end = S->first[v + 1]; a < end && ex > 0; a++) {
            int64_t back = -arc_flow(S, a); /* flow into v on the pair */
            if (back <= 0)
                continue;
            int64_t delta = ex < back ? ex : back;
            S->res[a] -= delta;
            S->res[S->rev[a]] += delta;
            S->vx[S->head[a]].excess += delta;
            ex -= delta;
        }
        S->vx[v].excess = ex;
    }
}

