/* The parts every max-flow reader shares (formats.h): the terminal lists
 * of repeated n lines, real capacities with FILE:LINE messages, and the
 * finishing step (terminals from the options, the fixed-point scale). The
 * readers (dimacs.c, edgelist.c, mf_mtx.c) call these, and the dispatch
 * in read_network.c calls the readers; nothing here calls back. */
#include <stdlib.h>
#include <string.h>

#include "formats.h"
#include "realcap.h"
#include "sort.h"
#include "status.h"

/* ---- terminal lists ------------------------------------------------- */

/* Room for one more terminal in list. */
static int grow_terminals(pf_terminal_list *list, pf_status *st)
{
    if (list->count < list->alloc)
        return PF_OK;
    int64_t grow = list->alloc ? 2 * list->alloc : 4;
    int ok = 1;
    list->ids = pf_regrow(list->ids, (size_t)grow, sizeof *list->ids, &ok);
    list->lines = pf_regrow(list->lines, (size_t)grow, sizeof *list->lines, &ok);
    if (!ok)
        return pf_fail(st, PF_E_NOMEM, "out of host memory for %lld terminals", (long long)grow);
    list->alloc = grow;
    return PF_OK;
}

int pf_terminal_list_add(pf_terminal_list *list, int64_t id, int64_t line, pf_status *st)
{
    int rc = grow_terminals(list, st);
    if (rc)
        return rc;
    list->ids[list->count] = id;
    list->lines[list->count++] = line;
    return PF_OK;
}

void pf_terminal_list_free(pf_terminal_list *list)
{
    free(list->ids);
    free(list->lines);
    memset(list, 0, sizeof *list);
}

/* A list's (id, line) pairs by id, then line, for the overlap walk. */
static pf_id_at *sorted_terminals(const pf_terminal_list *list, pf_status *st)
{
    pf_id_at *out = pf_alloc((size_t)list->count, sizeof *out, st);
    for (int64_t i = 0; out && i < list->count; i++)
        out[i] = (pf_id_at){.id = list->ids[i], .at = list->lines[i]};
    if (out)
        qsort(out, (size_t)list->count, sizeof *out, pf_compare_id_at);
    return out;
}

/* A vertex named both source and sink: reported on the later line. */
static int find_overlap(const pf_terminal_list lists[2], const line_ctx *lc)
{
    pf_id_at *src = sorted_terminals(&lists[0], lc->st);
    pf_id_at *snk = src ? sorted_terminals(&lists[1], lc->st) : NULL;
    int rc = src && snk ? PF_OK : PF_E_NOMEM;
    for (int64_t i = 0, j = 0; !rc && i < lists[0].count && j < lists[1].count;) {
        if (src[i].id < snk[j].id) {
            i++;
        } else if (src[i].id > snk[j].id) {
            j++;
        } else {
            int sink_first = snk[j].at < src[i].at;
            int64_t later = sink_first ? src[i].at : snk[j].at;
            int64_t earlier = sink_first ? snk[j].at : src[i].at;
            rc = pf_io_fail(lc->st, lc->name, later,
                            "vertex %lld is already the %s (line %lld); source and sink must differ",
                            (long long)src[i].id + 1, sink_first ? "sink" : "source",
                            (long long)earlier);
        }
    }
    free(src);
    free(snk);
    return rc;
}

int pf_terminal_lists_apply(pf_terminal_list lists[2], pf_network *net, const line_ctx *lc)
{
    int rc = find_overlap(lists, lc);
    if (rc)
        return rc;
    if (lists[0].count == 1 && lists[1].count == 1) {
        net->source = (int32_t)lists[0].ids[0];
        net->sink = (int32_t)lists[1].ids[0];
        return PF_OK;
    }
    return pf_network_set_terminals(net, lists[0].ids, lists[0].count, lists[1].ids,
                                    lists[1].count, lc->st);
}

/* ---- real capacities ------------------------------------------------- */

int pf_read_real_cap(const line_ctx *lc, pf_network *net, int64_t i, const char *field, int len)
{
    const char *why = pf_real_cap_text(net, i, field, len, lc->st);
    if (!why)
        return PF_OK;
    if (lc->st && lc->st->code == PF_E_NOMEM)
        return PF_E_NOMEM;
    return pf_io_fail(lc->st, lc->name, lc->line, "capacity '%.*s' %s", field_len(field), field,
                      why);
}

/* ---- finishing ------------------------------------------------------ */

/* The options' terminals, checked against the vertex count with the ids
 * as the user wrote them (1-based unless zero_based). */
static int apply_option_terminals(pf_network *net, const pf_read_options *opt, const char *name,
                                  pf_status *st)
{
    int64_t base = opt->zero_based ? 0 : 1;
    for (int sink = 0; sink < 2; sink++) {
        const int64_t *ids = sink ? opt->sinks : opt->sources;
        int64_t count = sink ? opt->sink_count : opt->source_count;
        for (int64_t i = 0; i < count; i++)
            if (ids[i] < 0 || ids[i] >= net->n)
                return pf_fail(st, PF_E_INPUT, "%s: %s %lld is not a vertex (ids %lld..%lld)",
                               name, sink ? "sink" : "source", (long long)(ids[i] + base),
                               (long long)base, (long long)(net->n - 1 + base));
    }
    /* A side the options leave out keeps the file's terminals. */
    int64_t *kept[2] = {NULL, NULL};
    for (int sink = 0; sink < 2; sink++) {
        int64_t count = pf_network_terminal_count(net, sink);
        kept[sink] = pf_alloc((size_t)count, sizeof *kept[sink], st);
        for (int64_t i = 0; kept[sink] && i < count; i++)
            kept[sink][i] = pf_network_terminal(net, sink, i);
    }
    int rc = kept[0] && kept[1] ? PF_OK : PF_E_NOMEM;
    if (!rc)
        rc = pf_network_set_terminals(
            net, opt->source_count ? opt->sources : kept[0],
            opt->source_count ? opt->source_count : pf_network_terminal_count(net, 0),
            opt->sink_count ? opt->sinks : kept[1],
            opt->sink_count ? opt->sink_count : pf_network_terminal_count(net, 1), st);
    free(kept[0]);
    free(kept[1]);
    if (rc && st) {
        char why[sizeof st->message];
        memcpy(why, st->message, sizeof why);
        return pf_fail(st, rc, "%s: %.400s", name, why);
    }
    return rc;
}

pf_network *pf_read_finish(pf_network *net, const pf_read_options *opt, const char *name,
                           pf_status *st)
{
    if (!net)
        return NULL;
    int rc = PF_OK;
    if (opt && (opt->source_count || opt->sink_count))
        rc = apply_option_terminals(net, opt, name, st);
    int bound = opt && opt->bound_log2 ? opt->bound_log2 : PF_SCALE_BOUND_LOG2;
    if (!rc)
        rc = pf_network_finish(net, bound, st);
    if (rc) {
        pf_network_free(net);
        return NULL;
    }
    pf_status_ok(st);
    return net;
}
