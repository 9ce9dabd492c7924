/* Suite "dyn": the dynamic residual graph of a session (dyn_graph.h).
 * Hand-made cases for each flow rule (a lowered capacity on a saturated
 * arc, a deleted arc that carried flow, a deficit behind a cycle of flow,
 * arcs into the source and out of the sink), refused batches that leave
 * every array byte for byte as it was, recompaction and growth; then
 * hundreds of random batches on random and generated networks, each
 * followed by pf_dyn_verify, a warm solve of the sequential engine from
 * the graph's own preflow, and a cold solve of a network kept alongside:
 * the two values must agree. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "common/dyn_layout.h"
#include "common/gen.h"
#include "dyn_support.h"

/* ---- hand-made cases ---------------------------------------------------- */

/* s=0 -> 1 -> 2=t, both 5: after a solve the flow is 5; the second arc
 * lowered to 2 leaves 3 at vertex 1 and takes 3 off the sink. */
START_TEST(lower_saturated)
{
    const int64_t arcs[][3] = {{0, 1, 5}, {1, 2, 5}};
    pf_network *net = net_of(3, 0, 2, arcs, 2);
    pf_dyn_graph d = build_from(net, NULL);
    ck_assert_int_eq(d.excess[1], 5);
    ck_assert_int_eq(d.excess[0], -5);
    ck_assert_int_eq(warm_value(&d, 1), 5);
    ck_assert_int_eq(pf_dyn_flow(&d, 1), 5);
    pf_dyn_change c[] = {{.kind = PF_DYN_CAP, .id = 1, .cap = 2}};
    pf_dyn_batch_out out;
    apply_ok(&d, c, 1, &out);
    ck_assert_int_eq(out.flow_cut, 3);
    ck_assert_int_eq(out.deficits, 0);
    ck_assert_int_eq(d.excess[1], 3);
    ck_assert_int_eq(d.excess[2], 2);
    ck_assert_int_eq(pf_dyn_flow(&d, 1), 2);
    ck_assert_int_eq(d.cap_of[1], 2);
    ck_assert_int_eq(warm_value(&d, 1), 2);
    /* Raised again: residual opens, the value comes back. */
    c[0].cap = 9;
    apply_ok(&d, c, 1, &out);
    ck_assert_int_eq(out.flow_cut, 0);
    ck_assert_int_eq(warm_value(&d, 1), 5);
    /* The source's arc lowered: still saturated, its flow cut at 1. */
    pf_dyn_change lower_source[] = {{.kind = PF_DYN_CAP, .id = 0, .cap = 1}};
    apply_ok(&d, lower_source, 1, &out);
    ck_assert_int_eq(out.flow_cut, 4);
    ck_assert_int_eq(out.deficits, 1);
    ck_assert_int_eq(d.excess[0], -1);
    ck_assert_int_eq(warm_value(&d, 1), 1);
    pf_dyn_free(&d);
    pf_network_free(net);
}
END_TEST

/* s=0 -> 1 -> 2 -> 3=t carrying 4: deleting 1 -> 2 leaves excess at 1 and
 * a deficit at 2, which the repair takes from the sink. */
START_TEST(delete_flow_arc)
{
    const int64_t arcs[][3] = {{0, 1, 4}, {1, 2, 4}, {2, 3, 4}, {1, 3, 1}};
    pf_network *net = net_of(4, 0, 3, arcs, 4);
    pf_dyn_graph d = build_from(net, NULL);
    ck_assert_int_eq(warm_value(&d, 1), 4);
    int64_t through = pf_dyn_flow(&d, 1);
    ck_assert(through >= 3);
    pf_dyn_change c[] = {{.kind = PF_DYN_DEL, .id = 1}};
    pf_dyn_batch_out out;
    apply_ok(&d, c, 1, &out);
    ck_assert_int_eq(out.flow_cut, through);
    ck_assert_int_eq(out.deficits, 1);
    ck_assert(out.repair_steps >= 1);
    ck_assert_int_eq(d.excess[2], 0);
    ck_assert_int_eq(d.excess[3], 4 - through);
    ck_assert_int_eq(pf_dyn_flow(&d, 1), 0);
    ck_assert_int_eq(pf_dyn_flow(&d, 2), 0);
    ck_assert_int_eq(d.deleted[1], 1);
    ck_assert_int_eq(d.live_arcs, 3);
    ck_assert_int_eq(d.dead[1], 1);
    ck_assert_int_eq(d.dead[2], 1);
    ck_assert_int_eq(warm_value(&d, 1), 1);
    /* The dead slots are taken again by new arcs. */
    pf_dyn_change add[] = {{.kind = PF_DYN_ADD, .tail = 1, .head = 2, .cap = 7}};
    apply_ok(&d, add, 1, &out);
    ck_assert_int_eq(d.ids, 5);
    ck_assert_int_eq(warm_value(&d, 1), 4);
    pf_dyn_free(&d);
    pf_network_free(net);
}
END_TEST

/* s=0 -> 1 -> 2 -> t=4 and a second route 1 -> 3 -> 2: the flow of a
 * deleted 1 -> 2 goes round it, leaving no excess and no deficit. */
START_TEST(reroute_round_cut)
{
    const int64_t arcs[][3] = {{0, 1, 5}, {1, 2, 5}, {1, 3, 5}, {3, 2, 5}, {2, 4, 5}};
    pf_network *net = net_of(5, 0, 4, arcs, 5);
    pf_dyn_graph d = build_from(net, NULL);
    ck_assert_int_eq(warm_value(&d, 1), 5);
    int64_t through = pf_dyn_flow(&d, 1);
    pf_dyn_change c[] = {{.kind = PF_DYN_DEL, .id = 1}};
    pf_dyn_batch_out out;
    apply_ok(&d, c, 1, &out);
    ck_assert_int_eq(out.flow_cut, through);
    ck_assert_int_eq(out.rerouted, through);
    ck_assert_int_eq(out.deficits, 0);
    ck_assert_int_eq(d.excess[4], 5);
    ck_assert_int_eq(pf_dyn_flow(&d, 2), 5);
    ck_assert_int_eq(pf_dyn_flow(&d, 3), 5);
    ck_assert_int_eq(warm_value(&d, 1), 5);
    pf_dyn_free(&d);
    pf_network_free(net);
}
END_TEST

/* A deficit whose only flow paths run round a cycle of flow first: s=0 ->
 * 1 (2), 1 -> 2 (3), 2 -> 3 (3), 3 -> 1 (3), 2 -> t=4 (3), with 1 unit
 * circulating 1 -> 2 -> 3 -> 1. Deleting the source's arc leaves 1 with a
 * deficit of 2; the repair cancels the cycle and takes 2 off the sink. */
START_TEST(deficit_through_cycle)
{
    const int64_t arcs[][3] = {{0, 1, 2}, {1, 2, 3}, {2, 3, 3}, {3, 1, 3}, {2, 4, 3}};
    const int64_t flow[] = {2, 3, 1, 1, 2};
    pf_network *net = net_of(5, 0, 4, arcs, 5);
    pf_status st;
    pf_residual g;
    ck_assert_int_eq(pf_residual_build(net, &g, PF_ARCS_FORWARD_FIRST, 1, &st), PF_OK);
    int64_t res[10], excess[5] = {-2, 0, 0, 0, 2};
    for (int i = 0; i < 5; i++) {
        int64_t f = g.fwd_of_input[i];
        res[f] = arcs[i][2] - flow[i];
        res[g.rev[f]] = flow[i];
    }
    pf_dyn_graph d;
    ck_assert_int_eq(pf_dyn_build(&g, res, excess, NULL, &d, &st), PF_OK);
    expect_valid(&d);
    ck_assert_int_eq(pf_dyn_flow(&d, 3), 1);
    pf_dyn_change c[] = {{.kind = PF_DYN_DEL, .id = 0}};
    pf_dyn_batch_out out;
    apply_ok(&d, c, 1, &out);
    ck_assert_int_eq(out.deficits, 1);
    for (int64_t i = 1; i < 5; i++)
        ck_assert_int_eq(pf_dyn_flow(&d, i), 0);
    ck_assert_int_eq(d.excess[4], 0);
    ck_assert_int_eq(d.excess[0], 0);
    pf_dyn_free(&d);
    pf_residual_free(&g);
    pf_network_free(net);
}
END_TEST

/* Arcs into the source and out of the sink, parallel arcs and self-loops,
 * added and changed: values against a cold solve. */
START_TEST(terminal_arcs)
{
    const int64_t arcs[][3] = {{0, 1, 3}, {1, 2, 2}, {2, 0, 5}, {2, 1, 1}, {1, 1, 4}};
    pf_network *net = net_of(3, 0, 2, arcs, 5);
    pf_dyn_graph d = build_from(net, NULL);
    ck_assert_int_eq(d.tail_of[4], -1); /* the build's self-loop: ends unknown */
    ck_assert_int_eq(warm_value(&d, 1), 2);
    pf_dyn_change c[] = {
        {.kind = PF_DYN_ADD, .tail = 1, .head = 0, .cap = 6},   /* into the source */
        {.kind = PF_DYN_ADD, .tail = 2, .head = 1, .cap = 6},   /* out of the sink */
        {.kind = PF_DYN_ADD, .tail = 1, .head = 2, .cap = 1},   /* parallel */
        {.kind = PF_DYN_ADD, .tail = 2, .head = 2, .cap = 9},   /* self-loop */
        {.kind = PF_DYN_ADD, .tail = 0, .head = 2, .cap = 4},   /* source to sink */
        {.kind = PF_DYN_CAP, .id = 4, .cap = 1},
        {.kind = PF_DYN_CAP, .id = 8, .cap = 2},
    };
    pf_dyn_batch_out out;
    apply_ok(&d, c, 7, &out);
    ck_assert_int_eq(d.slot_of[8], -1);
    ck_assert_int_eq(d.cap_of[8], 2);
    ck_assert_int_eq(pf_dyn_flow(&d, 8), 0);
    ck_assert_int_eq(pf_dyn_flow(&d, 9), 4);
    ck_assert_int_eq(out.source_pushed, 4);
    ck_assert_int_eq(warm_value(&d, 1), 2 + 1 + 4);
    pf_dyn_change del[] = {{.kind = PF_DYN_DEL, .id = 9}, {.kind = PF_DYN_DEL, .id = 8}};
    apply_ok(&d, del, 2, &out);
    ck_assert_int_eq(warm_value(&d, 1), 3);
    pf_dyn_free(&d);
    pf_network_free(net);
}
END_TEST

START_TEST(refused_batches)
{
    const int64_t arcs[][3] = {{0, 1, 5}, {1, 2, 5}, {0, 2, 1}};
    pf_network *net = net_of(3, 0, 2, arcs, 3);
    pf_dyn_graph d = build_from(net, NULL);
    warm_value(&d, 1);
    pf_dyn_change del[] = {{.kind = PF_DYN_DEL, .id = 2}};
    apply_ok(&d, del, 1, NULL);
    pf_dyn_clean(&d);

    pf_dyn_change bad_id[] = {{.kind = PF_DYN_CAP, .id = 0, .cap = 1},
                              {.kind = PF_DYN_CAP, .id = 3, .cap = 1}};
    expect_refused(&d, bad_id, 2, "change 1: arc 3 does not exist");
    pf_dyn_change deleted[] = {{.kind = PF_DYN_ADD, .tail = 0, .head = 1, .cap = 1},
                               {.kind = PF_DYN_DEL, .id = 2}};
    expect_refused(&d, deleted, 2, "change 1: arc 2 was deleted");
    pf_dyn_change twice[] = {{.kind = PF_DYN_DEL, .id = 1}, {.kind = PF_DYN_CAP, .id = 0, .cap = 0},
                             {.kind = PF_DYN_CAP, .id = 1, .cap = 3}};
    expect_refused(&d, twice, 3, "change 2: arc 1 was deleted (by change 0)");
    pf_dyn_change added_then_deleted[] = {{.kind = PF_DYN_ADD, .tail = 0, .head = 1, .cap = 1},
                                          {.kind = PF_DYN_DEL, .id = 3},
                                          {.kind = PF_DYN_DEL, .id = 3}};
    expect_refused(&d, added_then_deleted, 3, "change 2: arc 3 was deleted");
    pf_dyn_change vertex[] = {{.kind = PF_DYN_ADDV, .count = 2},
                              {.kind = PF_DYN_ADD, .tail = 4, .head = 1, .cap = 1},
                              {.kind = PF_DYN_ADD, .tail = 5, .head = 1, .cap = 1}};
    expect_refused(&d, vertex, 3, "change 2: vertex 5 outside the graph (5 vertices)");
    pf_dyn_change negative[] = {{.kind = PF_DYN_CAP, .id = 0, .cap = -1}};
    expect_refused(&d, negative, 1, "change 0: negative capacity -1");
    pf_dyn_change negative_add[] = {{.kind = PF_DYN_ADD, .tail = 0, .head = 1, .cap = -4}};
    expect_refused(&d, negative_add, 1, "negative capacity -4");
    pf_dyn_change no_vertices[] = {{.kind = PF_DYN_ADDV, .count = 0}};
    expect_refused(&d, no_vertices, 1, "adds 0 vertices");
    pf_dyn_change kind[] = {{.kind = 9}};
    expect_refused(&d, kind, 1, "unknown kind 9");
    pf_dyn_change huge[] = {{.kind = PF_DYN_ADD, .tail = 0, .head = 1, .cap = INT64_MAX - 2}};
    expect_refused(&d, huge, 1, "capacity out of the source passes");
    pf_dyn_change too_many[] = {{.kind = PF_DYN_ADDV, .count = PF_MAX_VERTICES}};
    expect_refused(&d, too_many, 1, "pass the limit");
    pf_status st;
    ck_assert_int_eq(pf_dyn_check(&d, negative, 1, &st), PF_E_INPUT);
    ck_assert_int_eq(pf_dyn_check(&d, del, 0, &st), PF_OK);
    pf_dyn_free(&d);
    pf_network_free(net);
}
END_TEST

/* No slack at all (and no windows): the first added arc recompacts; ids
 * follow their slots; the vertex room exhausted: the arrays grow. */
START_TEST(recompact_and_grow)
{
    const int64_t arcs[][3] = {{0, 1, 5}, {1, 2, 5}, {0, 2, 2}, {2, 3, 9}};
    pf_network *net = net_of(4, 0, 3, arcs, 4);
    pf_dyn_params p;
    pf_dyn_params_default(&p);
    p.whole_layouts = 1;
    p.slack_min = 0;
    p.slack = 1e-9; /* not both 0: ceil gives 1 slot at a vertex with arcs */
    p.vertex_room = 0;
    p.page_log2 = 2;
    pf_dyn_graph d = build_from(net, &p);
    ck_assert_int_eq(warm_value(&d, 1), 7);
    pf_dyn_clean(&d);
    ck_assert_int_eq(d.all_dirty, 0);
    pf_dyn_batch_out out;
    int64_t before = d.recompactions;
    for (int round = 0; round < 4; round++) {
        pf_dyn_change c[] = {{.kind = PF_DYN_ADD, .tail = 1, .head = 3, .cap = 1}};
        apply_ok(&d, c, 1, &out);
    }
    ck_assert(d.recompactions > before);
    ck_assert_int_eq(d.all_dirty, 1);
    ck_assert_int_eq(warm_value(&d, 1), 7);
    pf_dyn_clean(&d);
    /* One more vertex than the room: growth. */
    pf_dyn_change grow[] = {{.kind = PF_DYN_ADDV, .count = 3},
                            {.kind = PF_DYN_ADD, .tail = 0, .head = 5, .cap = 4},
                            {.kind = PF_DYN_ADD, .tail = 5, .head = 3, .cap = 3},
                            {.kind = PF_DYN_ADD, .tail = 5, .head = 6, .cap = 3}};
    apply_ok(&d, grow, 4, &out);
    ck_assert_int_eq(out.recompacted, 1);
    ck_assert_int_eq(d.view.n, 7);
    ck_assert_int_eq(warm_value(&d, 1), 10);
    /* Dirty pages only where a batch wrote, once nothing moves. */
    pf_dyn_clean(&d);
    pf_dyn_change cap[] = {{.kind = PF_DYN_CAP, .id = 3, .cap = 1}};
    apply_ok(&d, cap, 1, &out);
    ck_assert_int_eq(out.recompacted, 0);
    ck_assert_int_eq(d.all_dirty, 0);
    int64_t f = d.slot_of[3], dirty = 0;
    ck_assert_int_eq(d.dirty[f >> d.page_log2], 1);
    for (int64_t k = 0; k < d.pages; k++)
        dirty += d.dirty[k];
    ck_assert(dirty >= 2 && dirty < d.pages); /* the pair's, and the reroute's */
    pf_dyn_free(&d);
    pf_network_free(net);
}
END_TEST

/* Arcs added at one vertex one batch at a time (whole layouts only):
 * every layout within 8 batches of the last raises the slack by 2 (to 10
 * at most); once the slack lasts longer than that, the layouts leave it
 * (at 8 here). */
START_TEST(slack_follows_stream)
{
    const int64_t arcs[][3] = {{0, 1, 5}, {1, 2, 5}, {2, 3, 9}};
    pf_network *net = net_of(4, 0, 3, arcs, 3);
    pf_dyn_params p = {.slack = 1e-9, .slack_min = 0, .vertex_room = 0, .page_log2 = 2,
                       .whole_layouts = 1};
    pf_dyn_graph d = build_from(net, &p);
    pf_dyn_batch_out out;
    int32_t expect = 0;
    for (int k = 0; k < 40; k++) {
        pf_dyn_change c[] = {{.kind = PF_DYN_ADD, .tail = 1, .head = k % 2 ? 3 : 2, .cap = 1}};
        int32_t slack = d.params.slack_min;
        int64_t last = d.last_room_layout;
        apply_ok(&d, c, 1, &out);
        if (out.recompacted)
            expect = d.batches_applied - last <= 8 && slack < 10 ? slack + 2 : slack;
        ck_assert_int_eq(d.params.slack_min, expect);
    }
    ck_assert_int_eq(d.params.slack_min, 8);
    ck_assert_int_eq(warm_value(&d, 1), 5);
    pf_dyn_free(&d);
    pf_network_free(net);
}
END_TEST

/* A super source's arcs (no ids) set by slot: their deficits repaired by
 * pf_dyn_repair or by the next batch. Sources 0 and 1, sink 4. */
START_TEST(slot_cap_and_repair)
{
    const int64_t arcs[][3] = {{0, 2, 5}, {1, 2, 5}, {2, 3, 8}, {3, 4, 8}};
    pf_network *net = net_of(5, 0, 4, arcs, 4);
    pf_status st;
    const int64_t sources[] = {0, 1}, sinks[] = {4};
    ck_assert_int_eq(pf_network_set_terminals(net, sources, 2, sinks, 1, &st), PF_OK);
    pf_dyn_graph d = build_from(net, NULL);
    ck_assert_int_eq(d.ids, 4);
    ck_assert_int_eq(d.view.source, 5);
    ck_assert_int_eq(warm_value(&d, 1), 8);
    int64_t super[2], found = 0;
    for (int64_t a = d.view.first[5]; a < d.view.first[6]; a++)
        if (d.view.rev[a] != a && d.view.cap[a] > 0)
            super[found++] = a;
    ck_assert_int_eq(found, 2);
    ck_assert_int_eq(pf_dyn_set_slot_cap(&d, d.view.rev[super[0]], 3, &st), PF_E_INPUT);
    ck_assert_int_eq(pf_dyn_set_slot_cap(&d, super[0], -1, &st), PF_E_INPUT);
    ck_assert_int_eq(pf_dyn_set_slot_cap(&d, super[0], 1, &st), PF_OK);
    ck_assert_int_eq(pf_dyn_set_slot_cap(&d, super[1], 2, &st), PF_OK);
    ck_assert_int_eq(d.excess[0] + d.excess[1], 3 - 10); /* both were saturated */
    ck_assert_int_eq(d.deficits_pending, 1);
    expect_valid(&d); /* a pending deficit is allowed */
    pf_dyn_batch_out out = {0};
    ck_assert_int_eq(pf_dyn_repair(&d, &out, &st), PF_OK);
    ck_assert_int_eq(out.deficits, 2);
    ck_assert(out.repair_steps >= 2);
    ck_assert_int_eq(d.deficits_pending, 0);
    expect_valid(&d);
    ck_assert_int_eq(warm_value(&d, 1), 3);
    /* Left to the next batch instead, raised again through a batch too. */
    ck_assert_int_eq(pf_dyn_set_slot_cap(&d, super[1], 0, &st), PF_OK);
    apply_ok(&d, NULL, 0, &out);
    ck_assert_int_eq(out.deficits, 1);
    ck_assert_int_eq(warm_value(&d, 1), 1);
    ck_assert_int_eq(pf_dyn_set_slot_cap(&d, super[1], 5, &st), PF_OK);
    ck_assert_int_eq(warm_value(&d, 1), 6);
    pf_dyn_free(&d);
    pf_network_free(net);
}
END_TEST

/* The initial preflow on the graph as it is: a cold start after changes. */
START_TEST(reset_preflow)
{
    pf_status st;
    pf_network *net = pf_gen_rlg(4, 5, 20, 3, &st);
    pf_dyn_graph d = build_from(net, NULL);
    int64_t value = warm_value(&d, 1);
    pf_dyn_change c[] = {{.kind = PF_DYN_DEL, .id = 7}, {.kind = PF_DYN_CAP, .id = 9, .cap = 0},
                         {.kind = PF_DYN_ADD, .tail = 3, .head = 9, .cap = 11}};
    apply_ok(&d, c, 3, NULL);
    pf_dyn_clean(&d);
    pf_dyn_reset_preflow(&d);
    ck_assert_int_eq(d.all_dirty, 1);
    expect_valid(&d);
    for (int64_t a = d.view.first[d.view.source]; a < d.view.first[d.view.source + 1]; a++)
        ck_assert_int_eq(d.res[a], 0);
    for (int64_t i = 0; i < d.ids; i++)
        ck_assert_int_eq(pf_dyn_flow(&d, i),
                         d.tail_of[i] == d.view.source && d.slot_of[i] >= 0 ? d.cap_of[i] : 0);
    net->cap[7] = 0;
    net->cap[9] = 0;
    ck_assert_int_eq(pf_network_add_arc(net, 3, 9, 11, &st), PF_OK);
    ck_assert_int_eq(warm_value(&d, 1), cold_value(net));
    ck_assert(value >= 0);
    pf_dyn_free(&d);
    pf_network_free(net);
}
END_TEST

/* A covered deficit at a vertex whose range has dead slots and no free
 * one: its pair takes two of them (not one slot twice), without a
 * layout. s=0, t=1, v=2, a=3; one free slot per vertex, which the batch's
 * added arc v -> a takes at v. */
static int64_t warm_kept(pf_dyn_graph *d);

START_TEST(pair_in_dead_slots)
{
    const int64_t arcs[][3] = {{0, 3, 10}, {3, 2, 10}, {2, 1, 10}, {2, 0, 5}, {2, 0, 5},
                               {3, 1, 4}};
    pf_network *net = net_of(4, 0, 1, arcs, 6);
    pf_dyn_params p;
    pf_dyn_params_default(&p);
    p.slack = 0.01;
    p.slack_min = 0;
    pf_dyn_graph d = build_from(net, &p);
    d.cover_deficits = 1;
    ck_assert_int_eq(warm_value(&d, 1), 10);
    ck_assert_int_eq(d.view.first[3] - d.view.first[2] - d.used[2], 1);
    /* v -> s twice and a -> v deleted: three dead slots at v and a
     * deficit there (what v sent to t came from a). */
    pf_dyn_change c[] = {{.kind = PF_DYN_ADD, .tail = 2, .head = 3, .cap = 1},
                         {.kind = PF_DYN_DEL, .id = 3},
                         {.kind = PF_DYN_DEL, .id = 4},
                         {.kind = PF_DYN_DEL, .id = 1}};
    pf_dyn_batch_out out;
    apply_ok(&d, c, 4, &out);
    ck_assert_int_eq(out.deficits, 1);
    ck_assert_int_eq(out.covered, 1);
    ck_assert_int_eq(out.recompacted, 0);
    ck_assert_int_eq(d.dead[2], 1);
    net->cap[3] = net->cap[4] = net->cap[1] = 0;
    ck_assert_int_eq(pf_network_add_arc(net, 2, 3, 1, &(pf_status){0}), PF_OK);
    ck_assert_int_eq(warm_kept(&d), cold_value(net));
    pf_dyn_free(&d);
    pf_network_free(net);
}
END_TEST

/* A vertex short of room for its added arcs, and then for a covered
 * deficit's pair: both made in windows (dyn_window.c), no whole layout;
 * the graph verifies and its value is a cold solve's. */
START_TEST(rooms_in_windows)
{
    pf_status st;
    pf_network *net = pf_gen_grid2d(30, 30, 4, 30, 1, &st);
    ck_assert_ptr_nonnull(net);
    pf_dyn_graph d = build_from(net, NULL);
    d.cover_deficits = 1;
    ck_assert_int_eq(warm_kept(&d), cold_value(net));
    /* an arc out of the source that carries flow, and its head */
    int64_t id = 0;
    while (id < d.ids && (d.tail_of[id] != d.view.source || pf_dyn_flow(&d, id) == 0))
        id++;
    ck_assert_int_lt(id, d.ids);
    const int64_t v = d.head_of[id];
    const int64_t layouts = d.recompactions;
    enum { MOST = 64 };
    pf_dyn_change c[MOST];
    /* three arcs more than v has room for */
    int64_t k = pf_dyn_room_at(&d, v) + 3;
    ck_assert_int_le(k, MOST);
    for (int64_t i = 0; i < k; i++)
        c[i] = (pf_dyn_change){.kind = PF_DYN_ADD, .tail = v, .head = (v + 7 * (i + 1)) % d.view.n,
                               .cap = 2};
    pf_dyn_batch_out out;
    apply_ok(&d, c, k, &out);
    for (int64_t i = 0; i < k; i++)
        ck_assert_int_eq(pf_network_add_arc(net, c[i].tail, c[i].head, c[i].cap, &st), PF_OK);
    ck_assert_int_eq(d.windows_laid, 1);
    ck_assert_int_eq(out.recompacted, 0);
    /* v's room filled exactly, then its arc from the source cut: the pair
     * needs two slots there */
    k = pf_dyn_room_at(&d, v);
    ck_assert_int_le(k, MOST);
    for (int64_t i = 0; i < k; i++)
        c[i] = (pf_dyn_change){.kind = PF_DYN_ADD, .tail = v, .head = (v + 11 * (i + 1)) % d.view.n,
                               .cap = 1};
    apply_ok(&d, c, k, &out);
    for (int64_t i = 0; i < k; i++)
        ck_assert_int_eq(pf_network_add_arc(net, c[i].tail, c[i].head, c[i].cap, &st), PF_OK);
    ck_assert_int_eq(pf_dyn_room_at(&d, v), 0);
    pf_dyn_change cut = {.kind = PF_DYN_CAP, .id = id, .cap = 0};
    apply_ok(&d, &cut, 1, &out);
    net->cap[id] = 0;
    ck_assert_int_ge(out.covered, 1);
    ck_assert_int_eq(d.windows_laid, 2);
    ck_assert_int_eq(d.recompactions, layouts);
    ck_assert_int_eq(warm_kept(&d), cold_value(net));
    pf_dyn_free(&d);
    pf_network_free(net);
}
END_TEST

/* ---- random batches ----------------------------------------------------- */

typedef struct fuzz {
    pf_rng rng;
    pf_network *net;       /* the mirror: deleted arcs at capacity 0 */
    pf_dyn_graph d;
    int64_t max_cap;
} fuzz;

static int64_t random_live_id(fuzz *z)
{
    for (int tries = 0; tries < 64; tries++) {
        int64_t id = pf_rng_range(&z->rng, 0, z->d.ids - 1);
        if (!z->d.deleted[id])
            return id;
    }
    return -1;
}

static int64_t random_vertex(fuzz *z, int64_t n)
{
    int64_t pick = pf_rng_range(&z->rng, 0, 9);
    if (pick == 0)
        return z->d.view.source;
    if (pick == 1)
        return z->d.view.sink;
    return pf_rng_range(&z->rng, 0, n - 1);
}

/* One random change valid after the ones before it (n: vertices then). */
static pf_dyn_change random_change(fuzz *z, int64_t *n, int64_t *ids)
{
    int64_t kind = pf_rng_range(&z->rng, 0, 19);
    int64_t id = z->d.ids > 0 ? random_live_id(z) : -1;
    if (kind < 7 && id >= 0) {
        /* Lower (often below the flow), zero, or raise. */
        int64_t now = z->d.cap_of[id];
        int64_t cap = pf_rng_range(&z->rng, 0, 2) == 0 ? 0 : pf_rng_range(&z->rng, 0, now + z->max_cap);
        return (pf_dyn_change){.kind = PF_DYN_CAP, .id = id, .cap = cap};
    }
    if (kind < 11 && id >= 0)
        return (pf_dyn_change){.kind = PF_DYN_DEL, .id = id};
    if (kind == 11)
        return (pf_dyn_change){.kind = PF_DYN_ADDV, .count = pf_rng_range(&z->rng, 1, 3)};
    int64_t u = random_vertex(z, *n), v = random_vertex(z, *n);
    if (pf_rng_range(&z->rng, 0, 5) == 0 && id >= 0 && z->d.tail_of[id] >= 0) {
        u = z->d.tail_of[id]; /* parallel to a live arc */
        v = z->d.head_of[id];
    }
    (*ids)++;
    return (pf_dyn_change){.kind = PF_DYN_ADD, .tail = u, .head = v,
                           .cap = pf_rng_range(&z->rng, 0, z->max_cap)};
}

/* The mirror network after change x. */
static void mirror(fuzz *z, const pf_dyn_change *x)
{
    pf_status st;
    switch (x->kind) {
    case PF_DYN_CAP:
        z->net->cap[x->id] = x->cap;
        break;
    case PF_DYN_DEL:
        z->net->cap[x->id] = 0;
        break;
    case PF_DYN_ADD:
        ck_assert_int_eq(pf_network_add_arc(z->net, x->tail, x->head, x->cap, &st), PF_OK);
        break;
    case PF_DYN_ADDV:
        z->net->n += x->count;
        break;
    }
}

/* A batch's changes, with a few that are not drawn twice on one id (a
 * deleted arc is not named again in its batch). */
static int64_t random_batch(fuzz *z, pf_dyn_change *c, int64_t most)
{
    int64_t n = z->d.view.n, ids = z->d.ids, count = 0;
    int64_t want = pf_rng_range(&z->rng, 1, most);
    while (count < want) {
        pf_dyn_change x = random_change(z, &n, &ids);
        if (x.kind == PF_DYN_ADDV)
            n += x.count;
        int clash = 0;
        for (int64_t k = 0; k < count; k++)
            clash |= (x.kind == PF_DYN_CAP || x.kind == PF_DYN_DEL) && c[k].kind == PF_DYN_DEL &&
                     c[k].id == x.id;
        if (clash) {
            ids -= x.kind == PF_DYN_ADD;
            continue;
        }
        c[count++] = x;
    }
    return count;
}

/* `batches` random batches on net (taken over): after each one the graph
 * verifies and, every `solve_every` batches, a warm solve from its preflow
 * equals a cold one of the mirror (the warm result kept, as a session's). */
typedef struct fuzz_totals {
    int64_t batches, flow_cut, rerouted, deficits, covered, repair_steps, recompactions, grown;
    int64_t windows;
} fuzz_totals;

static fuzz_totals totals;
static int covering; /* the loop tests' _i: deficits covered by pairs, not repaired */

/* A warm solve kept as d's preflow, then the pairs trimmed as a session
 * does: the graph's own value either way. */
static int64_t warm_kept(pf_dyn_graph *d)
{
    int64_t value = warm_value(d, 1) - d->cover_total;
    pf_dyn_cover_trim(d);
    expect_valid(d);
    ck_assert_int_eq(pf_dyn_value(d), value);
    return value;
}

static void fuzz_network(pf_network *net, const pf_dyn_params *p, int64_t max_cap, int batches,
                         int most, int solve_every, uint64_t seed)
{
    fuzz z = {.net = net, .max_cap = max_cap};
    pf_rng_seed(&z.rng, seed);
    z.d = build_from(net, p);
    z.d.cover_deficits = covering;
    ck_assert_int_eq(warm_kept(&z.d), cold_value(net));
    pf_dyn_change *c = malloc((size_t)most * sizeof *c);
    for (int b = 0; b < batches; b++) {
        int64_t count = random_batch(&z, c, most);
        pf_dyn_batch_out out;
        int64_t room = z.d.vertex_cap;
        apply_ok(&z.d, c, count, &out);
        for (int64_t k = 0; k < count; k++)
            mirror(&z, &c[k]);
        totals.batches++;
        totals.flow_cut += out.flow_cut;
        totals.rerouted += out.rerouted;
        totals.deficits += out.deficits;
        totals.covered += out.covered;
        totals.repair_steps += out.repair_steps;
        totals.recompactions += out.recompacted;
        totals.grown += z.d.vertex_cap != room;
        ck_assert_int_eq(z.d.view.n, z.net->n);
        if ((b + 1) % solve_every == 0) {
            int64_t warm = warm_kept(&z.d), cold = cold_value(z.net);
            PF_EXPECT(warm == cold, "seed %llu batch %d: warm %lld, cold %lld",
                      (unsigned long long)seed, b, (long long)warm, (long long)cold);
        }
    }
    totals.windows += z.d.windows_laid;
    free(c);
    pf_dyn_free(&z.d);
    pf_network_free(z.net);
}

START_TEST(random_small)
{
    pf_status st;
    covering = _i;
    for (uint64_t seed = 1; seed <= 24; seed++) {
        int64_t n = 4 + (int64_t)(seed % 9) * 3, m = n * 3;
        pf_network *net = pf_gen_random(n, m, 20, seed, &st);
        ck_assert_ptr_nonnull(net);
        pf_dyn_params p;
        pf_dyn_params_default(&p);
        if (seed % 3 == 0) { /* tight: recompaction and growth happen */
            p.slack = 0.01;
            p.slack_min = 0;
            p.vertex_room = 1;
        }
        fuzz_network(net, &p, 20, 20, 6, 1, seed);
    }
    /* The batches did what they are here for. */
    ck_assert_int_eq(totals.batches, 24 * 20);
    ck_assert(totals.flow_cut > 0 && totals.deficits > 0);
    ck_assert_msg(covering ? totals.covered == totals.deficits
                           : totals.covered == 0 && totals.repair_steps > 0,
                  "%lld deficits, %lld covered", (long long)totals.deficits,
                  (long long)totals.covered);
    ck_assert(totals.rerouted > 0 && totals.rerouted < totals.flow_cut);
    ck_assert(totals.recompactions > 0 && totals.grown > 0);
    /* (tight slack: a window rarely holds what its vertices need) */
    ck_assert(covering || totals.windows > 0);
}
END_TEST

START_TEST(random_families)
{
    pf_status st;
    covering = _i;
    for (uint64_t seed = 1; seed <= 4; seed++) {
        fuzz_network(pf_gen_rmf(3, 3, 1, 50, seed, &st), NULL, 60, 25, 12, 1, seed);
        fuzz_network(pf_gen_rlg(4, 6, 30, seed, &st), NULL, 40, 25, 12, 1, seed + 100);
        fuzz_network(pf_gen_random(60, 400, 100, seed, &st), NULL, 100, 25, 30, 1, seed + 200);
        fuzz_network(pf_gen_grid2d(6, 5, 4, 20, seed, &st), NULL, 40, 25, 12, 1, seed + 300);
    }
}
END_TEST

/* Larger batches between solves: many deficits per repair. */
START_TEST(random_many_deficits)
{
    pf_status st;
    covering = _i;
    for (uint64_t seed = 1; seed <= 3; seed++) {
        pf_dyn_params p;
        pf_dyn_params_default(&p);
        p.threads = (int)seed; /* the layout on 1..3 threads */
        p.page_log2 = 3;
        fuzz_network(pf_gen_rlg(8, 12, 50, seed, &st), &p, 50, 12, 120, 2, seed + 400);
        fuzz_network(pf_gen_random(150, 900, 50, seed, &st), &p, 50, 12, 200, 3, seed + 500);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("dyn");
    TCase *known = tcase_create("known");
    tcase_add_test(known, lower_saturated);
    tcase_add_test(known, delete_flow_arc);
    tcase_add_test(known, reroute_round_cut);
    tcase_add_test(known, deficit_through_cycle);
    tcase_add_test(known, terminal_arcs);
    tcase_add_test(known, refused_batches);
    tcase_add_test(known, recompact_and_grow);
    tcase_add_test(known, slack_follows_stream);
    tcase_add_test(known, slot_cap_and_repair);
    tcase_add_test(known, reset_preflow);
    tcase_add_test(known, pair_in_dead_slots);
    tcase_add_test(known, rooms_in_windows);
    suite_add_tcase(s, known);

    TCase *random = tcase_create("random");
    tcase_set_timeout(random, 120);
    /* each twice: deficits repaired (0), covered by pairs (1) */
    tcase_add_loop_test(random, random_small, 0, 2);
    tcase_add_loop_test(random, random_families, 0, 2);
    tcase_add_loop_test(random, random_many_deficits, 0, 2);
    suite_add_tcase(s, random);
    return pf_test_run(s);
}
