/* The tuning variables' table and their parsing (knobs.h). Each knob is
 * kept because a measurement in bench/NOTES.md needs it, a test sets it,
 * or it is a setting users need (the backend, the memory limit, the
 * OpenCL platform, the cache, the CUDA probe helper). */
#include "knobs.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "hostcopy.h"
#include "residual.h"

#define VALUE(field) offsetof(pf_knob_values, field)
#define TEXT(field) offsetof(pf_knob_values, field), sizeof(((pf_knob_values *)0)->field)

static const pf_knob_choice cap_bits_choices[] = {
    {.name = "32", .value = 32},
    {.name = "64", .value = 64},
    {0},
};

static const pf_knob_choice arc_order_choices[] = {
    {.name = "forward", .value = PF_ARCS_FORWARD_FIRST},
    {.name = "rotated", .value = PF_ARCS_FORWARD_ROTATED},
    {.name = "forward-rotated", .value = PF_ARCS_FORWARD_PART_ROTATED},
    {.name = "input", .value = PF_ARCS_INPUT},
    {.name = "input-reversed", .value = PF_ARCS_INPUT_REVERSED},
    {0},
};

/* enum pf_hybrid_mode's values (portaflow.h). */
static const pf_knob_choice hybrid_choices[] = {
    {.name = "auto", .value = 0},
    {.name = "on", .value = 1},
    {.name = "off", .value = 2},
    {0},
};

static const pf_knob_choice hybrid_switch_choices[] = {
    {.name = "model", .value = 0},
    {.name = "alternate", .value = 1},
    {0},
};

static const pf_knob_choice on_off_choices[] = {
    {.name = "on", .value = 1},
    {.name = "off", .value = 0},
    {0},
};

static const pf_knob_choice device_open_choices[] = {
    {.name = "read", .value = 0},
    {.name = "build", .value = 1},
    {0},
};

static const pf_knob_choice hybrid_open_choices[] = {
    {.name = "early", .value = 0},
    {.name = "late", .value = 1},
    {0},
};

enum { INT31 = INT32_MAX };

/* A row's start by kind: the variable, the pf_knob_values field, then what
 * the kind needs (range, choices, default). The rest (auto_text, meaning,
 * power_of_two) follows as designated initialisers. */
#define TEXT_KNOB(var, field) .name = var, .kind = PF_KNOB_TEXT, .offset = TEXT(field)
#define SHAPE_KNOB(var, field) .name = var, .kind = PF_KNOB_SHAPE, .offset = VALUE(field)
#define FLAG_KNOB(var, field, def)                                                       \
    .name = var, .kind = PF_KNOB_FLAG, .offset = VALUE(field), .fallback = def
#define INT_KNOB(var, field, lo, hi, def)                                                \
    .name = var, .kind = PF_KNOB_INT, .offset = VALUE(field), .least = lo, .most = hi,   \
    .fallback = def
#define REAL_KNOB(var, field, lo, hi, def)                                               \
    .name = var, .kind = PF_KNOB_REAL, .offset = VALUE(field), .least = lo, .most = hi,  \
    .fallback = def
#define BYTES_KNOB(var, field, lo, hi)                                                   \
    .name = var, .kind = PF_KNOB_BYTES, .offset = VALUE(field), .least = lo, .most = hi
#define CHOICE_KNOB(var, field, list, def)                                               \
    .name = var, .kind = PF_KNOB_CHOICE, .offset = VALUE(field), .choices = list,        \
    .fallback = def

const pf_knob_info pf_knob_table[PF_KNOB_COUNT] = {
    [PF_KNOB_BACKEND] = {TEXT_KNOB("PORTAFLOW_BACKEND", backend),
        .auto_text = "auto",
        .meaning = "the backend 'auto' means (seq, omp, opencl, cuda); read by the registry"},
    [PF_KNOB_MEMORY_LIMIT] = {BYTES_KNOB("PORTAFLOW_MEMORY_LIMIT", memory_limit, 0, INT64_MAX),
        .auto_text = "the probe's",
        .meaning = "the memory solve and apsp may count on, instead of the probe"},
    [PF_KNOB_TRACE] = {FLAG_KNOB("PORTAFLOW_TRACE", trace, 0),
        .meaning = "1: where a max-flow solve's time goes, on stderr (residual build, global "
                   "relabel parts; OpenMP discharge counts)"},
    [PF_KNOB_CYCLES] = {INT_KNOB("PORTAFLOW_CYCLES", cycles, 1, INT31, 64),
        .meaning = "push/relabel operations per worker per round (parallel driver)"},
    [PF_KNOB_FOLLOW] = {FLAG_KNOB("PORTAFLOW_FOLLOW", follow, 1),
        .meaning = "1: a worker follows its excess into the neighbour it drained into; 0: one "
                   "hop per round"},
    [PF_KNOB_GR_ALPHA] = {REAL_KNOB("PORTAFLOW_GR_ALPHA", gr_alpha, 0, 1000000, PF_GR_ALPHA),
        .meaning = "parallel driver: global relabel after alpha * n + arcs / 2 relabel work"},
    [PF_KNOB_GR_ROUNDS] = {INT_KNOB("PORTAFLOW_GR_ROUNDS", gr_rounds, 1, INT31, 256),
        .meaning = "parallel driver: global relabel after at most this many rounds"},
    [PF_KNOB_GR_TIME] = {REAL_KNOB("PORTAFLOW_GR_TIME", gr_time, 0, 1000000, 1),
        .meaning = "parallel driver: global relabel once the rounds since the last one took "
                   "this many times its wall time; 0: never by time"},
    [PF_KNOB_GR_HOPS] = {INT_KNOB("PORTAFLOW_GR_HOPS", gr_hops, 1, 8, 1),
        .meaning = "parallel driver on CUDA and OpenCL: levels one launch of the global "
                   "relabel's BFS may go, a work-group going on from its own memory with what "
                   "it reached (label-correcting); 1: one level a launch (bench/NOTES.md 88: "
                   "why 1 stays the default)"},
    [PF_KNOB_HANDOFF] = {INT_KNOB("PORTAFLOW_HANDOFF", handoff, 0, INT64_MAX, 1024),
        .meaning = "parallel driver: phase 1 goes to the host's sequential engine (which also "
                   "does the cut and phase 2) once a batch of rounds ran to the round cap with "
                   "at most this many vertices active (the excess crawls); 0: never"},
    [PF_KNOB_HYBRID] = {CHOICE_KNOB("PORTAFLOW_HYBRID", hybrid, hybrid_choices, PF_KNOB_AUTO),
        .auto_text = "the --hybrid option's (pf_solve_options.hybrid)",
        .meaning = "what --hybrid auto becomes: the backend with the host's engines (on) or "
                   "alone (off; also what auto is)"},
    [PF_KNOB_HYBRID_START] = {INT_KNOB("PORTAFLOW_HYBRID_START", hybrid_start, 0, INT31, 1),
        .meaning = "the hybrid's first try of the device: once the host has this many "
                   "vertices active and more left to do than a round trip of the state "
                   "costs; then the measured rates decide"},
    [PF_KNOB_HYBRID_STRETCH] = {INT_KNOB("PORTAFLOW_HYBRID_STRETCH", hybrid_stretch, 0, INT31, 0),
        .meaning = "the hybrid's stretches: at most this many host discharges or device rounds "
                   "(of at most 64 times as many relabel arcs); 0: one global-relabel period"},
    [PF_KNOB_HYBRID_SWITCH] = {
        CHOICE_KNOB("PORTAFLOW_HYBRID_SWITCH", hybrid_switch, hybrid_switch_choices, 0),
        .meaning = "the hybrid's switches: as its model says, or after every stretch "
                   "(alternate, which first waits for the device; for tests)"},
    [PF_KNOB_HYBRID_OPEN] = {
        CHOICE_KNOB("PORTAFLOW_HYBRID_OPEN", hybrid_open, hybrid_open_choices, 0),
        .meaning = "the hybrid's device opens while the residual graph is built (early) or "
                   "after (late; for measuring)"},
    [PF_KNOB_HYBRID_TEAM] = {
        CHOICE_KNOB("PORTAFLOW_HYBRID_TEAM", hybrid_team, on_off_choices, PF_KNOB_AUTO),
        .auto_text = "on where auto would take the CPU backend for max-flow (4 threads and more)",
        .meaning = "the hybrid's host side: the parallel CPU backend (on; seq finishes a crawl, "
                   "the cut and phase 2) or seq alone (off), beside a GPU"},
    [PF_KNOB_GPU_MIN_VERTICES] = {
        INT_KNOB("PORTAFLOW_GPU_MIN_VERTICES", gpu_min_vertices, 0, INT64_MAX, 300000),
        .meaning = "auto takes no GPU for a max-flow network of fewer vertices (too few to "
                   "fill one: its start and exit cost more than the CPU's whole solve); 0: "
                   "a GPU for every network"},
    [PF_KNOB_DEVICE_BUILD] = {FLAG_KNOB("PORTAFLOW_DEVICE_BUILD", device_build, 1),
        .meaning = "1: a device backend that can (cuda) builds the residual graph of a network "
                   "from its arcs itself, the host never lays it out; 0: the host builds it and "
                   "uploads it (for measuring)"},
    [PF_KNOB_DEVICE_OPEN] = {
        CHOICE_KNOB("PORTAFLOW_DEVICE_OPEN", device_open, device_open_choices, PF_KNOB_AUTO),
        .auto_text = "read where the device builds the residual graph itself, else build",
        .meaning = "when the CLI's solve opens auto's or --backend's device: while the input is "
                   "read (read) or after it, while the host builds the residual graph (build)"},
    [PF_KNOB_SESSION_LABELS] = {
        CHOICE_KNOB("PORTAFLOW_SESSION_LABELS", session_labels, on_off_choices, PF_KNOB_AUTO),
        .auto_text = "where measured cheaper than the global relabel they replace",
        .meaning = "a device session's warm solve starts from the heights the last solve "
                   "ended with, read back and repaired on the host (on), or with a global "
                   "relabel (off)"},
    [PF_KNOB_CAP_BITS] = {
        CHOICE_KNOB("PORTAFLOW_CAP_BITS", cap_bits, cap_bits_choices, PF_KNOB_AUTO),
        .auto_text = "64 where the device has 64-bit atomics, else 32 where the graph allows",
        .meaning = "max-flow's residuals and excess on CUDA and OpenCL in 32 or 64 bits "
                   "(refused with exit 3 where the device or the graph cannot take it)"},
    [PF_KNOB_ARC_ORDER] = {
        CHOICE_KNOB("PORTAFLOW_ARC_ORDER", arc_order, arc_order_choices, PF_KNOB_AUTO),
        .auto_text = "forward-rotated for the sequential engine, rotated for the parallel driver",
        .meaning = "every engine's residual arc lists in this order"},
    [PF_KNOB_ASYNC] = {FLAG_KNOB("PORTAFLOW_ASYNC", async, 1),
        .meaning = "0: OpenMP runs synchronous rounds like the GPUs instead of its "
                   "asynchronous highest-label discharge"},
    [PF_KNOB_OMP_BLOCKS] = {INT_KNOB("PORTAFLOW_OMP_BLOCKS", omp_blocks, 1, INT31, 8),
        .meaning = "OpenMP discharge: ownership blocks per thread (spreads a wave of excess "
                   "over the threads)"},
    [PF_KNOB_OMP_HL_SHARE] = {
        INT_KNOB("PORTAFLOW_OMP_HL_SHARE", omp_hl_share, 0, INT31, PF_KNOB_AUTO),
        .auto_text = "32 / threads^2, 1 to 8",
        .meaning = "OpenMP discharge: highest-label discharges per sweep discharge; 0: sweeps "
                   "only"},
    [PF_KNOB_OMP_BFS_TEAM] = {INT_KNOB("PORTAFLOW_OMP_BFS_TEAM", omp_bfs_team, 1, INT31, 256),
        .meaning = "OpenMP BFS: a frontier of at least this many vertices starts a team that "
                   "runs level after level"},
    [PF_KNOB_PINNED] = {
        INT_KNOB("PORTAFLOW_PINNED", pinned, 0, INT64_MAX, (double)PF_STAGE_MIN_DEFAULT),
        .meaning = "CUDA and OpenCL: transfers of at least this many bytes go through pinned "
                   "staging buffers; 0: never; when set, also on devices sharing host memory"},
    [PF_KNOB_CL_PLATFORM] = {TEXT_KNOB("PORTAFLOW_CL_PLATFORM", cl_platform),
        .auto_text = "every platform",
        .meaning = "OpenCL: only platforms whose name contains this, any case (e.g. rusticl); "
                   "--device counts within them"},
    [PF_KNOB_CL_REUSE] = {FLAG_KNOB("PORTAFLOW_CL_REUSE", cl_reuse, 1),
        .meaning = "0: a closed OpenCL device is released instead of kept for the process's "
                   "next solve"},
    [PF_KNOB_NO_CL_CACHE] = {FLAG_KNOB("PORTAFLOW_NO_CL_CACHE", no_cl_cache, 0),
        .meaning = "1: no OpenCL program binary cache in $XDG_CACHE_HOME/portaflow"},
    [PF_KNOB_CL_GROUP_SIZE] = {
        INT_KNOB("PORTAFLOW_CL_GROUP_SIZE", cl_group_size, 1, 65536, PF_KNOB_AUTO),
        .auto_text = "256",
        .meaning = "OpenCL: the largest work-group size tried (lowered to what the device and "
                   "kernels allow, then to a power of two)"},
    [PF_KNOB_CL_PUSH_LANES] = {
        INT_KNOB("PORTAFLOW_CL_PUSH_LANES", cl_push_lanes, 1, 65536, PF_KNOB_AUTO),
        .auto_text = "32 on GPUs, 1 on CPUs",
        .meaning = "OpenCL push-relabel: work-items per active vertex (rounded down to a power "
                   "of two, at most the work-group)"},
    [PF_KNOB_CL_FW] = {SHAPE_KNOB("PORTAFLOW_CL_FW", cl_fw),
        .auto_text = "fitted to the tile and device",
        .meaning = "OpenCL Floyd-Warshall shape, e.g. rows=8,cols=8,chunk=32,unroll=16,pivot=4,"
                   "vec=4 (any subset); show: print the shape built"},
    [PF_KNOB_CUDA_PROBE] = {TEXT_KNOB("PORTAFLOW_CUDA_PROBE", cuda_probe),
        .auto_text = "next to the library or program, in libexecdir, in the build folder",
        .meaning = "path of the portaflow-cuda-probe helper that lists CUDA devices in a "
                   "process of its own"},
    [PF_KNOB_CUDA_PUSH_LANES] = {INT_KNOB("PF_CUDA_PUSH_LANES", cuda_push_lanes, 1, 32, 32),
        .power_of_two = 1,
        .meaning = "CUDA push-relabel: threads per active vertex"},
    [PF_KNOB_CUDA_FW_VARIANT] = {INT_KNOB("PF_CUDA_FW_VARIANT", cuda_fw_variant, 0, 3, 2),
        .meaning = "CUDA Floyd-Warshall phase 3 without paths: 0 loads the output block first; "
                   "1-3 merge it at the end after an L2 prefetch at the start (1) or half-way "
                   "(2); 3 as 2 with streaming stores"},
    [PF_KNOB_CHECK_ARGS] = {FLAG_KNOB("PORTAFLOW_CHECK_ARGS", check_args, PF_KNOB_AUTO),
        .auto_text = "1 in builds without NDEBUG, else 0",
        .meaning = "1: every call at the device interface has its arguments checked first "
                   "(src/host/dev_check.h), and the labels a host session's warm solve "
                   "resumes from on every arc; the test suites set it"},
    [PF_KNOB_GRAPH_BALANCE] = {FLAG_KNOB("PORTAFLOW_GRAPH_BALANCE", graph_balance, PF_KNOB_AUTO),
        .auto_text = "per step, on GPUs, when the frontier's mean degree passes 32",
        .meaning = "bfs and sssp on CUDA and OpenCL: 1 always, 0 never advance one thread per "
                   "arc (scanned degrees, a binary search per arc) instead of lanes per vertex"},
    [PF_KNOB_GRAPH_HOPS] = {INT_KNOB("PORTAFLOW_GRAPH_HOPS", graph_hops, 1, 16, PF_KNOB_AUTO),
        .auto_text = "8 where a vertex gets at most 8 workers, else 1",
        .meaning = "sssp (and small-graph bfs) on CUDA and OpenCL, batched steps: hops a launch "
                   "relaxes, a work-group relaxing again in its own memory what it lowered"},
};

/* ---- parsing ----------------------------------------------------------- */

static int64_t *int_at(pf_knob_values *v, const pf_knob_info *k)
{
    return (int64_t *)((char *)v + k->offset);
}

static int parse_int(const pf_knob_info *k, const char *text, int64_t *out, const char **why)
{
    char *end;
    errno = 0;
    long long value = strtoll(text, &end, 10);
    if (end == text || *end || errno == ERANGE) {
        *why = "not a whole number";
        return -1;
    }
    if (value < k->least || value > k->most) {
        *why = "out of range";
        return -1;
    }
    if (k->power_of_two && (value & (value - 1)) != 0) {
        *why = "not a power of two";
        return -1;
    }
    *out = value;
    return 0;
}

static int parse_real(const pf_knob_info *k, const char *text, double *out, const char **why)
{
    char *end;
    errno = 0;
    double value = strtod(text, &end);
    if (end == text || *end || errno == ERANGE || !isfinite(value)) {
        *why = "not a number";
        return -1;
    }
    if (value < (double)k->least || value > (double)k->most) {
        *why = "out of range";
        return -1;
    }
    *out = value;
    return 0;
}

/* Digits, then optionally one of K, M, G, T (powers of 1024). */
static int parse_bytes(const pf_knob_info *k, const char *text, int64_t *out, const char **why)
{
    char *end;
    errno = 0;
    unsigned long long value = strtoull(text, &end, 10);
    *why = "not a byte count (digits, optionally followed by K, M, G or T)";
    if (end == text || errno || text[0] == '-' || text[0] == '+' || text[0] == ' ')
        return -1;
    static const char suffixes[] = "KMGT";
    int shift = 0;
    const char *unit = *end ? strchr(suffixes, *end) : NULL;
    if (unit) {
        shift = 10 * (int)(unit - suffixes + 1);
        end++;
    }
    if (*end)
        return -1;
    if (value > ((unsigned long long)k->most >> shift)) {
        *why = "out of range";
        return -1;
    }
    *out = (int64_t)(value << shift);
    return 0;
}

static int parse_choice(const pf_knob_info *k, const char *text, int64_t *out,
                        const char **why)
{
    for (const pf_knob_choice *c = k->choices; c->name; c++)
        if (!strcmp(text, c->name)) {
            *out = c->value;
            return 0;
        }
    *why = "not one of the choices";
    return -1;
}

static int parse_text(const pf_knob_info *k, const char *text, char *out, const char **why)
{
    size_t len = strlen(text);
    if (len >= k->size) {
        *why = "too long";
        return -1;
    }
    memcpy(out, text, len + 1);
    return 0;
}

/* "show" and key=value pairs separated by commas; keys vec, rows, cols,
 * chunk, unroll, pivot; values 1..1024. */
static int parse_shape(const char *text, pf_cl_fw_tuning *out, const char **why)
{
    static const struct {
        const char *key;
        size_t offset;
    } keys[] = {
        {.key = "vec", .offset = offsetof(pf_cl_fw_tuning, vec)},
        {.key = "rows", .offset = offsetof(pf_cl_fw_tuning, rows)},
        {.key = "cols", .offset = offsetof(pf_cl_fw_tuning, cols)},
        {.key = "chunk", .offset = offsetof(pf_cl_fw_tuning, chunk)},
        {.key = "unroll", .offset = offsetof(pf_cl_fw_tuning, unroll)},
        {.key = "pivot", .offset = offsetof(pf_cl_fw_tuning, pivot)},
    };
    pf_cl_fw_tuning shape = {0};
    *why = "expected show and key=value pairs (vec, rows, cols, chunk, unroll, pivot; 1..1024)";
    for (const char *p = text; *p;) {
        size_t len = strcspn(p, "=,");
        int found = 0;
        if (len == 4 && !strncmp(p, "show", 4) && (p[4] == ',' || !p[4])) {
            shape.show = 1;
            p += p[4] ? 5 : 4;
            continue;
        }
        for (size_t i = 0; i < sizeof keys / sizeof *keys && !found; i++) {
            if (strlen(keys[i].key) != len || strncmp(p, keys[i].key, len) || p[len] != '=')
                continue;
            char *end;
            long value = strtol(p + len + 1, &end, 10);
            if (end == p + len + 1 || (*end && *end != ',') || value < 1 || value > 1024)
                return -1;
            *(int *)((char *)&shape + keys[i].offset) = (int)value;
            p = *end ? end + 1 : end;
            found = 1;
        }
        if (!found)
            return -1;
    }
    *out = shape;
    return 0;
}

int pf_knob_parse(pf_knob_id id, const char *text, pf_knob_values *v, const char **why)
{
    const pf_knob_info *k = &pf_knob_table[id];
    char *at = (char *)v + k->offset;
    switch (k->kind) {
    case PF_KNOB_FLAG:
        if (strcmp(text, "0") && strcmp(text, "1")) {
            *why = "not 0 or 1";
            return -1;
        }
        *int_at(v, k) = text[0] == '1';
        return 0;
    case PF_KNOB_INT:
        return parse_int(k, text, int_at(v, k), why);
    case PF_KNOB_REAL:
        return parse_real(k, text, (double *)at, why);
    case PF_KNOB_BYTES:
        return parse_bytes(k, text, int_at(v, k), why);
    case PF_KNOB_CHOICE:
        return parse_choice(k, text, int_at(v, k), why);
    case PF_KNOB_TEXT:
        return parse_text(k, text, at, why);
    case PF_KNOB_SHAPE:
        return parse_shape(text, (pf_cl_fw_tuning *)at, why);
    }
    *why = "unknown kind";
    return -1;
}

void pf_knobs_defaults(pf_knob_values *v)
{
    memset(v, 0, sizeof *v);
    for (int id = 0; id < PF_KNOB_COUNT; id++) {
        const pf_knob_info *k = &pf_knob_table[id];
        if (k->kind == PF_KNOB_REAL)
            *(double *)((char *)v + k->offset) = k->fallback;
        else if (k->kind != PF_KNOB_TEXT && k->kind != PF_KNOB_SHAPE)
            *int_at(v, k) = (int64_t)k->fallback;
    }
}

static void read_environment(pf_knob_values *v)
{
    pf_knobs_defaults(v);
    for (int id = 0; id < PF_KNOB_COUNT; id++) {
        const char *text = getenv(pf_knob_table[id].name);
        if (!text || !*text)
            continue;
        pf_knob_values parsed = *v;
        const char *why = NULL;
        if (pf_knob_parse((pf_knob_id)id, text, &parsed, &why) == 0) {
            *v = parsed;
            v->set[id] = 1;
        } else {
            v->bad[id] = 1;
            v->bad_why[id] = why;
            snprintf(v->bad_text[id], sizeof v->bad_text[id], "%s", text);
        }
    }
}

static pf_knob_values knobs;
static pthread_once_t knobs_once = PTHREAD_ONCE_INIT;

static void read_once(void)
{
    read_environment(&knobs);
}

const pf_knob_values *pf_knobs(void)
{
    pthread_once(&knobs_once, read_once);
    return &knobs;
}

void pf_knobs_reload(void)
{
    pthread_once(&knobs_once, read_once);
    read_environment(&knobs);
}

/* ---- text for listings ---------------------------------------------------- */

void pf_knob_default_text(pf_knob_id id, char *out, size_t len)
{
    const pf_knob_info *k = &pf_knob_table[id];
    if (k->auto_text && (k->kind == PF_KNOB_TEXT || k->kind == PF_KNOB_SHAPE ||
                         k->kind == PF_KNOB_BYTES || k->fallback == PF_KNOB_AUTO))
        snprintf(out, len, "%s", k->auto_text);
    else if (k->kind == PF_KNOB_REAL)
        snprintf(out, len, "%g", k->fallback);
    else
        snprintf(out, len, "%lld", (long long)k->fallback);
}

void pf_knob_range_text(pf_knob_id id, char *out, size_t len)
{
    const pf_knob_info *k = &pf_knob_table[id];
    size_t used = 0;
    switch (k->kind) {
    case PF_KNOB_FLAG:
        snprintf(out, len, "0|1");
        return;
    case PF_KNOB_INT:
    case PF_KNOB_REAL:
        if (k->most == INT64_MAX)
            snprintf(out, len, "%lld..", (long long)k->least);
        else
            snprintf(out, len, "%lld..%lld%s", (long long)k->least, (long long)k->most,
                     k->power_of_two ? ", a power of two" : "");
        return;
    case PF_KNOB_BYTES:
        snprintf(out, len, "bytes, e.g. 512M, 3G");
        return;
    case PF_KNOB_CHOICE:
        if (len)
            out[0] = '\0';
        for (const pf_knob_choice *c = k->choices; c->name && used < len; c++) {
            int n = snprintf(out + used, len - used, "%s%s", c == k->choices ? "" : "|",
                             c->name);
            used += n > 0 ? (size_t)n : 0;
        }
        return;
    case PF_KNOB_TEXT:
        snprintf(out, len, "text");
        return;
    case PF_KNOB_SHAPE:
        snprintf(out, len, "show, vec|rows|cols|chunk|unroll|pivot=1..1024");
        return;
    }
}

static void shape_text(const pf_cl_fw_tuning *s, char *out, size_t len)
{
    const int values[] = {s->vec, s->rows, s->cols, s->chunk, s->unroll, s->pivot};
    static const char *const keys[] = {"vec", "rows", "cols", "chunk", "unroll", "pivot"};
    size_t used = 0;
    if (len)
        out[0] = '\0';
    if (s->show && used < len)
        used += (size_t)snprintf(out, len, "show");
    for (int i = 0; i < 6 && used < len; i++)
        if (values[i]) {
            int n = snprintf(out + used, len - used, "%s%s=%d", used ? "," : "", keys[i],
                             values[i]);
            used += n > 0 ? (size_t)n : 0;
        }
}

void pf_knob_value_text(const pf_knob_values *v, pf_knob_id id, char *out, size_t len)
{
    const pf_knob_info *k = &pf_knob_table[id];
    const char *at = (const char *)v + k->offset;
    if (!v->set[id]) {
        pf_knob_default_text(id, out, len);
        return;
    }
    switch (k->kind) {
    case PF_KNOB_REAL:
        snprintf(out, len, "%g", *(const double *)at);
        return;
    case PF_KNOB_TEXT:
        snprintf(out, len, "%s", at);
        return;
    case PF_KNOB_SHAPE:
        shape_text((const pf_cl_fw_tuning *)at, out, len);
        return;
    case PF_KNOB_CHOICE:
        for (const pf_knob_choice *c = k->choices; c->name; c++)
            if (c->value == *(const int64_t *)at) {
                snprintf(out, len, "%s", c->name);
                return;
            }
        break;
    default:
        break;
    }
    snprintf(out, len, "%lld", (long long)*(const int64_t *)at);
}

int pf_knob_problem(const pf_knob_values *v, pf_knob_id id, char *out, size_t len)
{
    if (!v->bad[id])
        return 0;
    char range[128], fallback[128];
    pf_knob_range_text(id, range, sizeof range);
    pf_knob_default_text(id, fallback, sizeof fallback);
    snprintf(out, len, "%s='%s': %s (%s); the default (%s) is used", pf_knob_table[id].name,
             v->bad_text[id], v->bad_why[id], range, fallback);
    return 1;
}
