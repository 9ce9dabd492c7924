/* libFuzzer target: a session on the sequential engine, the host path whose
 * warm solves resume the last solve's run from its labels, repaired for
 * each batch (src/host/session_labels.c), against cold solves. The input
 * is bytes, not text: a small network, then batches of updates (capacities
 * raised and lowered, arcs added and deleted, now and then a new vertex or
 * a moved terminal). After every batch the session takes, the warm value
 * must be a cold seq solve's of the network as it now is, and the warm
 * flow (or, in a session without flows, the cold one) and the warm cut
 * must pass the certificate check. PORTAFLOW_CHECK_ARGS is on, so every
 * repair's labels are also checked on every arc (PF_E_VERIFY otherwise). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "fuzz_support.h"

enum { MAX_VERTICES = 24, MAX_ARCS = 64, MAX_BATCH = 8, MAX_BATCHES = 32, MAX_CAP = 40 };

typedef struct reader {
    const uint8_t *at, *end;
} reader;

/* The next byte, or -1 at the end of the input. */
static int next(reader *r) { return r->at < r->end ? *r->at++ : -1; }

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    setenv("PORTAFLOW_CHECK_ARGS", "1", 1);
    return 0;
}

/* Vertices, arcs and their ends and capacities from the input; source 0,
 * sink the last vertex. NULL where the input ends first. */
static pf_network *read_network(reader *r)
{
    int vertices = next(r), arcs = next(r);
    if (vertices < 0 || arcs < 0)
        return NULL;
    int64_t n = 2 + vertices % (MAX_VERTICES - 1);
    pf_status st;
    pf_network *net = pf_network_new(n, 0, n - 1, &st);
    fuzz_expect_ok(net ? PF_OK : st.code, "pf_network_new", &st);
    for (int k = 0; k < arcs % (MAX_ARCS + 1); k++) {
        int u = next(r), v = next(r), cap = next(r);
        if (cap < 0)
            break;
        fuzz_expect_ok(pf_network_add_arc(net, u % n, v % n, cap % MAX_CAP, &st),
                       "pf_network_add_arc", &st);
    }
    return net;
}

/* One batch for the session as it is; its length (0: the input ended). */
static int64_t read_batch(reader *r, pf_session *s, pf_update *u)
{
    int length = next(r);
    if (length < 0)
        return 0;
    int64_t made = 0, n = pf_session_vertices(s), ids = pf_session_arcs(s);
    for (int k = 0; k <= length % MAX_BATCH; k++) {
        int kind = next(r), a = next(r), b = next(r);
        if (b < 0)
            break;
        pf_update *x = &u[made++];
        *x = (pf_update){0};
        switch (kind % 16) {
        case 0: case 1: case 2: case 3: case 4: case 5:
            x->kind = PF_UPDATE_CAP;
            x->arc = ids ? a % ids : 0;
            x->capacity = b % MAX_CAP;
            break;
        case 6: case 7: case 8: case 9:
            x->kind = PF_UPDATE_ADD;
            x->tail = a % n;
            x->head = b % n;
            x->capacity = (a + b) % MAX_CAP;
            break;
        case 10: case 11: case 12:
            x->kind = PF_UPDATE_DEL;
            x->arc = ids ? a % ids : 0;
            break;
        case 13:
            x->kind = PF_UPDATE_ADDV;
            x->count = 1 + a % 2;
            n += x->count;
            break;
        default:
            x->kind = kind % 2 ? PF_UPDATE_SOURCE : PF_UPDATE_SINK;
            x->tail = a % n;
            break;
        }
    }
    return made;
}

/* The warm answer against a cold seq solve of the network as it is. */
static void check_solve(pf_session *s, int want_flow)
{
    pf_status st;
    pf_solution warm, cold;
    fuzz_expect_ok(pf_session_solve(s, &warm, &st), "pf_session_solve", &st);
    pf_network *net = pf_session_network(s, &st);
    fuzz_expect_ok(net ? PF_OK : st.code, "pf_session_network", &st);
    pf_solve_options opt;
    pf_solve_options_init(&opt);
    opt.backend = "seq";
    opt.want_flow = 1;
    fuzz_expect_ok(pf_solve(net, &opt, &cold, &st), "pf_solve (cold)", &st);
    if (warm.value != cold.value)
        fuzz_fail("session", "the warm value differs from a cold solve's");
    fuzz_expect_ok(pf_verify(net, warm.value, want_flow ? warm.arc_flow : cold.arc_flow,
                             warm.source_side, &st),
                   "pf_verify of the warm answer", &st);
    pf_solution_free(&warm);
    pf_solution_free(&cold);
    pf_network_free(net);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    reader r = {data, data + size};
    int flags = next(&r);
    pf_network *net = flags < 0 ? NULL : read_network(&r);
    if (!net)
        return 0;
    pf_solve_options opt;
    pf_solve_options_init(&opt);
    opt.backend = "seq";
    opt.want_flow = flags & 1;
    opt.want_cut = 1;
    pf_session *s = NULL;
    pf_status st;
    fuzz_expect_ok(pf_session_open(net, &opt, &s, &st), "pf_session_open", &st);
    pf_network_free(net);
    check_solve(s, opt.want_flow);
    pf_update u[MAX_BATCH + 1];
    for (int batch = 0; batch < MAX_BATCHES; batch++) {
        int64_t count = read_batch(&r, s, u);
        if (count == 0)
            break;
        int rc = pf_session_apply(s, u, count, NULL, &st);
        if (rc == PF_E_INPUT)
            continue; /* refused whole (a deleted arc named again, source = sink) */
        fuzz_expect_ok(rc, "pf_session_apply", &st);
        check_solve(s, opt.want_flow);
    }
    pf_session_close(s);
    return 0;
}
