/* portaflow: portable maximum-flow / minimum-cut solver.
 *
 * The only header users include. Vertex ids in this API are 0-based; the
 * DIMACS readers and the CLI translate from the files' 1-based ids.
 * Capacities and flows are 64-bit everywhere (sums of 32-bit capacities
 * overflow 32 bits); arc counts and indices are 64-bit too. */
#ifndef PORTAFLOW_H
#define PORTAFLOW_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Marks the library's public functions: the only symbols the shared
 * library exports (it is built with -fvisibility=hidden). */
#if defined(__GNUC__) || defined(__clang__)
#define PF_API __attribute__((visibility("default")))
#else
#define PF_API
#endif

/* The version of this header's API. 1: the first API (networks, solve,
 * APSP, backends); 2: adds the array API, cancel callbacks and sized
 * option/result structs (see "array API" below); 3: adds the log callback
 * (pf_log_fn) to the solve and APSP options, and sizes pf_apsp_options;
 * 4: adds sessions (pf_session_*, pf_update); 5: adds pf_solve_csr_flow
 * (a CSR matrix solved with its flow matrix); 6: adds the graph analytics
 * (pf_bfs, pf_sssp, pf_sssp_many, pf_triangles, pf_wgraph_from_int_arrays);
 * 7: adds the max-flow method (pf_solve_options.method, pf_solution.method);
 * 8: adds a session's graph searched as it stands (pf_session_bfs,
 * pf_session_sssp).
 * The shared library's soname changes only when a later version breaks
 * callers built for an earlier one. */
#define PORTAFLOW_API_VERSION 8

/* Status codes double as the CLI's exit statuses. */
enum pf_code {
    PF_OK = 0,
    PF_E_USAGE = 1,   /* bad arguments or options */
    PF_E_INPUT = 2,   /* malformed input file / invalid network */
    PF_E_DEVICE = 3,  /* backend or device failure, no such backend */
    PF_E_NOMEM = 4,   /* host memory exhausted (CLI maps it to 3) */
    PF_E_VERIFY = 5,  /* a certificate did not verify */
    PF_E_OUTPUT = 6,  /* writing an output file or stdout failed (CLI exit 4) */
    PF_E_CANCELLED = 7, /* the caller's cancel callback stopped the solve */
};

/* Every call that can fail fills one of these: the code and a message that
 * carries the failing call's own error text (file:line for input errors,
 * cudaGetErrorString / the CL error name for device errors). */
typedef struct pf_status {
    int code;
    char message[512];
} pf_status;

/* What the library has to say that is not an error: a backend that failed
 * and the one `auto` falls back to, a variant that runs as another. One
 * message per call, without a newline, from the calling thread. The
 * library never prints anything itself: with no callback (the default,
 * and NULL options) these messages go nowhere. */
enum pf_log_level {
    PF_LOG_WARNING = 1, /* the answer comes, but not as asked (a fallback) */
    PF_LOG_INFO = 2,
};
typedef void (*pf_log_fn)(void *log_data, int level, const char *message);

/* Largest capacity accepted on input: leaves headroom so that sums of
 * excess over all arcs cannot overflow int64. */
#define PF_CAP_MAX ((int64_t)1 << 62)

/* ---- networks ------------------------------------------------------- */

typedef struct pf_network pf_network;

PF_API pf_network *pf_network_new(int64_t vertices, int64_t source, int64_t sink,
                                  pf_status *st);
/* Appends arc (tail -> head, capacity). Parallel arcs, self-loops (they
 * carry no flow), zero capacities, arcs into the source and out of the
 * sink are all accepted. */
PF_API int pf_network_add_arc(pf_network *net, int64_t tail, int64_t head,
                              int64_t capacity, pf_status *st);
PF_API void pf_network_free(pf_network *net);

PF_API int64_t pf_network_vertices(const pf_network *net);
PF_API int64_t pf_network_arcs(const pf_network *net);
PF_API int64_t pf_network_source(const pf_network *net);
PF_API int64_t pf_network_sink(const pf_network *net);
/* Arc i as given (input order). Returns PF_E_USAGE if i is out of range. */
PF_API int pf_network_arc(const pf_network *net, int64_t i, int64_t *tail,
                          int64_t *head, int64_t *capacity);

/* ---- real capacities ------------------------------------------------ */

/* Appends an arc whose capacity is a real number (finite, >= 0). A network
 * with such arcs is solved exactly in fixed point: pf_network_finish picks
 * the finest power-of-two scale 2^k that keeps every capacity and the sum
 * of the capacities out of the sources within 2^bound_log2, and the sum of
 * all capacities within half of that (the parallel engines' excess must
 * hold it, super source and sink included), and stores
 * round(capacity * 2^k). Values and flows of its solutions are then in
 * units of 2^-k (pf_amount_format prints them in input units). The readers
 * call pf_network_finish themselves; after pf_network_add_arc_real the
 * caller must, before solving. */
#define PF_SCALE_BOUND_LOG2 62
PF_API int pf_network_add_arc_real(pf_network *net, int64_t tail, int64_t head, double capacity,
                                   pf_status *st);
PF_API int pf_network_finish(pf_network *net, int bound_log2, pf_status *st);
/* 1 if some capacity was real; *scale_log2 = k, *error = a bound on how far
 * the maximum flow of the rounded capacities (in input units) can be from
 * that of the exact ones (0 when every capacity is a multiple of 2^-k).
 * For an integer network: 0, k = 0, error 0. */
PF_API int pf_network_scale(const pf_network *net, int *scale_log2, double *error);
/* An amount (value, flow) of net's solutions as text in input units: the
 * integer itself for integer networks, else the shortest decimal that
 * pf_amount_parse reads back as the same amount. Returns snprintf's count. */
PF_API int pf_amount_format(const pf_network *net, int64_t amount, char *buf, size_t len);
/* Text in input units (integer or real) to an amount; PF_E_INPUT if it is
 * not a number or does not fit 64 bits. */
PF_API int pf_amount_parse(const pf_network *net, const char *text, int64_t *amount);
PF_API double pf_amount_to_double(const pf_network *net, int64_t amount);

/* Several sources and sinks: the maximum flow from all the sources to all
 * the sinks (solved through a super source and sink that never show in a
 * solution). Replaces the terminals given so far; duplicates are ignored,
 * a vertex both source and sink is PF_E_INPUT. pf_network_source/sink then
 * give the lowest of each. */
PF_API int pf_network_set_terminals(pf_network *net, const int64_t *sources, int64_t source_count,
                                    const int64_t *sinks, int64_t sink_count, pf_status *st);
/* How many sources (sink = 0) or sinks (sink = 1); the i-th of them,
 * ascending (-1 if i is out of range). */
PF_API int64_t pf_network_terminal_count(const pf_network *net, int sink);
PF_API int64_t pf_network_terminal(const pf_network *net, int sink, int64_t i);

/* DIMACS max-flow ("p max", "n ID s|t", "a U V CAP", "c ..."); n lines may
 * repeat (several sources or sinks), CAP may be real (pf_network_finish is
 * then done). path NULL or "-" reads standard input, gzip-compressed input
 * is inflated. Errors are "FILE:LINE: what is wrong". */
PF_API pf_network *pf_network_read_dimacs(const char *path, pf_status *st);
/* Adjacency-matrix text: first line N, then N rows of N capacities;
 * source = first vertex, sink = last. */
PF_API pf_network *pf_network_read_matrix(const char *path, pf_status *st);
/* Picks the reader by content (see pf_network_read_with), no options. */
PF_API pf_network *pf_network_read(const char *path, pf_status *st);

/* What a file does not say. Terminal ids are 0-based (the API's); given,
 * they replace the file's own (DIMACS n lines, the matrix's first and last
 * vertex); formats that name none (edge lists, Matrix Market) need them. */
typedef struct pf_read_options {
    const int64_t *sources;
    int64_t source_count;
    const int64_t *sinks;
    int64_t sink_count;
    int zero_based;   /* edge lists: vertex ids start at 0 (default 1) */
    int bound_log2;   /* real capacities: the fixed-point bound, 0 = 62 */
} pf_read_options;

PF_API void pf_read_options_init(pf_read_options *opt);

/* Reads a network, choosing the format by content (gzip-compressed input
 * is inflated first, recognised by its magic bytes):
 *   - first non-blank line "%%MatrixMarket ...": Matrix Market coordinate;
 *   - first non-blank line starting with '#' or '%': edge list;
 *   - first line that is not blank or a 'c' comment starts with a letter:
 *     DIMACS max-flow;
 *   - else it starts with a number: an edge list if that line holds
 *     exactly three fields ("U V CAP"), else the adjacency matrix.
 * opt may be NULL. Capacities may be real (a decimal point or an exponent):
 * see pf_network_finish. Errors are "FILE:LINE: what is wrong". */
PF_API pf_network *pf_network_read_with(const char *path, const pf_read_options *opt,
                                        pf_status *st);
PF_API int pf_network_write_dimacs(const pf_network *net, const char *path,
                                   pf_status *st);

/* ---- solving -------------------------------------------------------- */

typedef struct pf_solve_options {
    /* sizeof the caller's struct, set by pf_solve_options_init; 0 (a
     * struct filled by hand) means the API-version-1 fields only. Lets the
     * struct grow at its end without breaking callers built earlier. */
    size_t struct_size;
    const char *backend;  /* "auto" (NULL), "seq", "omp", "opencl", "cuda" */
    int device_index;     /* -1: the backend's best device */
    int want_flow;        /* fill pf_solution.arc_flow (runs phase 2) */
    int want_cut;         /* fill pf_solution.source_side */
    int threads;          /* OpenMP threads, 0 = runtime default */
    int progress;         /* status line on stderr: 1 past a second, 2 at once */
    /* Since API version 2. Called between rounds of the parallel engines
     * and between stretches of the sequential one (a few times a second
     * or more on large graphs, from the solving thread); a non-zero return
     * stops the solve with PF_E_CANCELLED, the device released. NULL: never. */
    int (*cancel)(void *cancel_data);
    void *cancel_data;
    /* Since API version 3: messages that are not errors (pf_log_fn);
     * NULL: none. */
    pf_log_fn log;
    void *log_data;
    /* Since API version 3 (appended): the hybrid of a parallel backend and
     * the host's engines (README: "The hybrid"), enum pf_hybrid_mode.
     * 0 = auto: PORTAFLOW_HYBRID where set, else off (the engine alone). */
    int hybrid;
    /* Since API version 7 (appended): the max-flow algorithm, enum
     * pf_maxflow_method (README: "Methods"). */
    int method;
} pf_solve_options;

enum pf_maxflow_method {
    /* Push-relabel, except where the backend is seq (or auto takes seq)
     * and the network is shaped like a segmentation (most vertices hang
     * off a terminal, few arcs per vertex): Boykov-Kolmogorov there. */
    PF_METHOD_AUTO = 0,
    PF_METHOD_PUSH_RELABEL = 1, /* every backend */
    /* Boykov and Kolmogorov's augmenting paths over two search trees: the
     * seq backend only (auto then takes seq); fast on segmentation grids,
     * slow where augmenting paths are long (RLG, RMFGEN). */
    PF_METHOD_BOYKOV_KOLMOGOROV = 2,
};

enum pf_hybrid_mode {
    PF_HYBRID_AUTO = 0,
    PF_HYBRID_ON = 1,  /* the backend (cuda, opencl, omp; auto: the best) with the host's
                          engines (the CPU backend's team where auto takes it, and seq) */
    PF_HYBRID_OFF = 2, /* the backend alone */
};

/* One move of the hybrid's state between the host and the device. */
typedef struct pf_hybrid_switch {
    double time;      /* seconds since the solve's phase 1 began */
    int to_device;    /* 1: host -> device, 0: device -> host */
    int64_t active;   /* active vertices then */
} pf_hybrid_switch;

PF_API void pf_solve_options_init(pf_solve_options *opt);

typedef struct pf_phase_times {
    double total;          /* seconds, the whole solve (no file parsing) */
    double setup;          /* building the residual graph, device open */
    double upload;         /* host -> device transfers */
    double push_relabel;   /* phase 1 push/relabel rounds */
    double global_relabel; /* violation cancel + BFS */
    double phase2;         /* turning the preflow into a flow */
    double download;       /* device -> host transfers */
} pf_phase_times;

typedef struct pf_solution {
    int64_t value;          /* the maximum flow value */
    int64_t *arc_flow;      /* per input arc, input order (want_flow) */
    uint8_t *source_side;   /* per vertex: 1 on the source side of a min cut */
    char backend[16];       /* the backend that ran */
    char device[160];       /* the device it ran on */
    pf_phase_times times;
    int64_t pushes_rounds;  /* parallel rounds (or pushes for seq) */
    int64_t global_relabels;
    int64_t host_pushes;    /* parallel: pushes of the sequential engine that
                               finished phase 1 on the host (0: none) */
    uint64_t device_bytes;  /* device memory held for the solve */
    int scale_log2;         /* the network's fixed-point scale: value and flows
                               are in units of 2^-scale_log2 input units (0 for
                               integer networks; see pf_network_scale) */
    /* 1 when the hybrid ran (backend then names its device's backend, or
     * where auto found no device to pair or the host finished first, the
     * host's team where it worked, else "seq"),
     * and its switches, in order (NULL, 0 when none); switches are freed
     * by pf_solution_free. */
    int hybrid;
    pf_hybrid_switch *switches;
    int64_t switch_count;
    /* Since API version 7: the algorithm that ran, "push-relabel" or
     * "boykov-kolmogorov". */
    char method[24];
} pf_solution;

PF_API int pf_solve(const pf_network *net, const pf_solve_options *opt,
                    pf_solution *sol, pf_status *st);
PF_API void pf_solution_free(pf_solution *sol);

/* The sized forms behind the two macros below: the library learns the
 * size of the caller's structs, so a library built with larger ones never
 * writes past them. Calls written as pf_solve(...) and
 * pf_solve_options_init(...) use them without a change in the source. */
PF_API void pf_solve_options_init_sized(pf_solve_options *opt, size_t opt_size);
PF_API int pf_solve_sized(const pf_network *net, const pf_solve_options *opt, pf_solution *sol,
                          size_t solution_size, pf_status *st);
#define pf_solve_options_init(opt) pf_solve_options_init_sized((opt), sizeof *(opt))
#define pf_solve(net, opt, sol, st) pf_solve_sized((net), (opt), (sol), sizeof *(sol), (st))

/* Independent certificate check: capacity and conservation of arc_flow,
 * value = net flow out of s = net flow into t, and (if source_side is given)
 * a cut containing s but not t whose capacity equals the value. */
PF_API int pf_verify(const pf_network *net, int64_t value, const int64_t *arc_flow,
                     const uint8_t *source_side, pf_status *st);

/* ---- all-pairs shortest paths --------------------------------------- */

/* A weighted directed graph. Weights are kept as integers (int64) while
 * every weight given is integral, and as reals (double) from the first
 * weight that is not. Parallel arcs (the lightest counts), self-loops (a
 * negative one is a negative cycle) and negative weights are accepted. */
typedef struct pf_wgraph pf_wgraph;

PF_API pf_wgraph *pf_wgraph_new(int64_t vertices, pf_status *st);
PF_API int pf_wgraph_add_arc(pf_wgraph *g, int64_t tail, int64_t head, int64_t weight,
                             pf_status *st);
PF_API int pf_wgraph_add_arc_real(pf_wgraph *g, int64_t tail, int64_t head, double weight,
                                  pf_status *st);
PF_API void pf_wgraph_free(pf_wgraph *g);
PF_API int64_t pf_wgraph_vertices(const pf_wgraph *g);
PF_API int64_t pf_wgraph_arcs(const pf_wgraph *g);
/* 1 when some weight is not an integer (the graph holds reals). */
PF_API int pf_wgraph_is_real(const pf_wgraph *g);

/* Reads DIMACS shortest-path ("p sp N M", "a U V W", "c ..."), Matrix
 * Market coordinate (.mtx: integer, real or pattern = weight 1; general or
 * symmetric) or the adjacency-matrix text (N, then N rows of N weights; 0
 * off the diagonal, "inf" and "-" mean no arc), chosen by content. path NULL
 * or "-" reads standard input. Errors are "FILE:LINE: what is wrong". */
PF_API pf_wgraph *pf_wgraph_read(const char *path, pf_status *st);

/* Element type of a distance matrix. */
enum pf_dist_kind {
    PF_DIST_AUTO = -1, /* options only: the narrowest exact type */
    PF_DIST_I32 = 0,
    PF_DIST_I64 = 1,
    PF_DIST_F32 = 2,   /* real weights (or forced) */
};

/* Floyd-Warshall variants (pf_apsp_options.variant), after the study that
 * compares them: which backend runs which is declared by the backend
 * (pf_apsp_variant_check). */
enum pf_fw_variant {
    PF_FW_DEFAULT = 0, /* the backend's fastest: blocked (seq: plain, the reference) */
    PF_FW_BLOCKED = 1, /* tiles: the diagonal one, its row and column, the rest */
    PF_FW_PLAIN = 2,   /* the triple loop, k outermost (seq, omp: rows over threads) */
    PF_FW_SIMD = 3,    /* plain with the j loop in SIMD vectors (seq, omp) */
    PF_FW_PER_K = 4,   /* one kernel launch per k, 32 x 32 blocks (cuda, opencl) */
    PF_FW_VARIANTS = 5,
};

/* "No path" in a result matrix, per kind (F32: +INFINITY). */
#define PF_APSP_NONE_I32 INT32_MAX
#define PF_APSP_NONE_I64 INT64_MAX

typedef struct pf_apsp_options {
    const char *backend;  /* "auto" (NULL), "seq", "omp", "opencl", "cuda" */
    int device_index;     /* -1: the backend's best device */
    int threads;          /* OpenMP threads, 0 = runtime default */
    int want_paths;       /* fill pf_apsp_result.next */
    int kind;             /* PF_DIST_AUTO, or a type to force (refused when
                             distances could overflow it) */
    int tile;             /* tile edge; 0 = the device's choice (blocked only) */
    int variant;          /* enum pf_fw_variant */
    int simd_width;       /* PF_FW_SIMD: 8 (AVX2) or 16 (AVX-512) 32-bit lanes;
                             0 = the widest the CPU has */
    /* Since API version 3: messages that are not errors (pf_log_fn);
     * NULL: none. */
    pf_log_fn log;
    void *log_data;
} pf_apsp_options;

PF_API void pf_apsp_options_init(pf_apsp_options *opt);

typedef struct pf_apsp_times {
    double total;    /* seconds, the whole call (no file parsing) */
    double setup;    /* matrix build, negative-cycle check, device open */
    double upload;   /* host -> device */
    double compute;  /* the Floyd-Warshall rounds */
    double download; /* device -> host, and marking "no path" */
} pf_apsp_times;

typedef struct pf_apsp_result {
    int64_t n;
    int kind;               /* enum pf_dist_kind of dist */
    void *dist;             /* n*n row-major: int32_t, int64_t or float */
    int32_t *next;          /* n*n 0-based next hop on a shortest path from
                               row to column, -1 = no path (want_paths) */
    /* On PF_E_INPUT for a negative cycle: its vertices in order (0-based). */
    int32_t *cycle;
    int64_t cycle_len;
    char backend[16];
    char device[160];
    int tile;
    char variant[96];       /* what ran: "blocked", "simd avx2 (8 lanes)", ... */
    pf_apsp_times times;
    uint64_t device_bytes;  /* device memory held for the solve */
} pf_apsp_result;

/* All-pairs shortest-path distances. A negative cycle is PF_E_INPUT with
 * the cycle's vertices in result->cycle. */
PF_API int pf_apsp(const pf_wgraph *g, const pf_apsp_options *opt, pf_apsp_result *res,
                   pf_status *st);
PF_API void pf_apsp_result_free(pf_apsp_result *res);

/* The sized forms behind the two macros below (pf_apsp_options has no
 * size field of its own): the library learns the size of the caller's
 * options, so one built for API version 2 (without the log fields) is
 * read and initialised within its size. opt may be NULL (the defaults). */
PF_API void pf_apsp_options_init_sized(pf_apsp_options *opt, size_t opt_size);
PF_API int pf_apsp_sized(const pf_wgraph *g, const pf_apsp_options *opt, size_t opt_size,
                         pf_apsp_result *res, pf_status *st);
#define pf_apsp_options_init(opt) pf_apsp_options_init_sized((opt), sizeof *(opt))
#define pf_apsp(g, opt, res, st) pf_apsp_sized((g), (opt), sizeof(pf_apsp_options), (res), (st))

/* Name of a variant ("plain", "simd", "blocked", "per-k"; "default"), and
 * back (-1 for an unknown name). */
PF_API const char *pf_apsp_variant_name(int variant);
PF_API int pf_apsp_variant_parse(const char *name);
/* PF_OK when `backend` ("auto"/NULL included: some backend compiled in)
 * runs `variant` with these options (simd_width only with PF_FW_SIMD, tile
 * only with blocked), else PF_E_USAGE saying which backends run it. */
PF_API int pf_apsp_variant_check(const char *backend, const pf_apsp_options *opt, pf_status *st);

/* Independent check of a distance matrix (and next hops, if present):
 * for each checked source i, d(i,i) = 0, no arc (u,v,w) has
 * d(i,v) > d(i,u) + w, "no path" exactly where i does not reach, and every
 * reached vertex is reached from i along arcs with d(i,v) = d(i,u) + w
 * (reals: within a relative 1e-5). Checks every source when n*m allows,
 * else max_sources spread evenly (0 = no limit); *checked = sources checked. */
PF_API int pf_apsp_verify(const pf_wgraph *g, const pf_apsp_result *res,
                          int64_t max_sources, int64_t *checked, pf_status *st);

/* ---- backends ------------------------------------------------------- */

typedef struct pf_device_desc {
    char backend[16];
    int index;              /* for --device */
    char name[128];
    char vendor[128];
    char kind[8];           /* "gpu", "cpu" */
    int compute_units;
    uint64_t global_mem;    /* bytes */
    uint64_t max_alloc;     /* bytes, largest single buffer */
    /* What the device runs, per command (a device without 64-bit atomics
     * still runs max-flow in 32 bits and every APSP kind): */
    int maxflow_bits;       /* PF_MAXFLOW_32 | PF_MAXFLOW_64: the widths of
                               residuals and excess it runs max-flow in */
    int fp64;               /* double-precision arithmetic */
    char limits[160];       /* what it does not run and why; "" = all */
} pf_device_desc;

/* pf_device_desc.maxflow_bits. 32 bits serve graphs whose source capacity
 * stays below 2^31 (README: "32-bit max-flow"). */
#define PF_MAXFLOW_32 1
#define PF_MAXFLOW_64 2

/* Lists every device of every compiled-in backend. For a backend with no
 * usable device, *why gets one line per backend saying why. Returns the
 * number of descriptors written (at most max). */
PF_API int pf_list_devices(pf_device_desc *out, int max, char *why, size_t why_len);

PF_API const char *pf_version(void);

/* ---- array API (API version 2) ---------------------------------------- */

/* A network from arrays: arc i runs tails[i] -> heads[i] with capacities[i].
 * `base` is 0 when the ids (vertex ids, source and sink) are 0-based, 1 when
 * they are 1-based (as in DIMACS); the network itself is 0-based. Errors
 * name the first bad arc: "arc 12: head 40 outside 0..39". */
PF_API pf_network *pf_network_from_arrays(int64_t vertices, int64_t source, int64_t sink,
                                          int64_t arcs, const int64_t *tails, const int64_t *heads,
                                          const int64_t *capacities, int base, pf_status *st);
/* Sets capacities of many arcs: arc arc_ids[k] (0-based input order) gets
 * capacities[k]; arc_ids NULL means arcs 0..count-1. All are checked
 * before any changes (no partial update on error). */
PF_API int pf_network_set_capacities(pf_network *net, int64_t count, const int64_t *arc_ids,
                                     const int64_t *capacities, pf_status *st);
/* Copies the arcs out: any of the three arrays may be NULL; 0-based ids. */
PF_API void pf_network_get_arcs(const pf_network *net, int64_t *tails, int64_t *heads,
                                int64_t *capacities);

/* The two sides of the minimum cut of a solution solved with want_cut:
 * source_vertices gets the ids on the source side in increasing order,
 * sink_vertices the others (either may be NULL; each needs room for the
 * vertex count). Returns how many are on the source side, -1 if the
 * solution has no cut. */
PF_API int64_t pf_solution_cut_sides(const pf_network *net, const pf_solution *sol,
                                     int64_t *source_vertices, int64_t *sink_vertices);
/* The arcs crossing the cut from the source side to the sink side (their
 * capacities sum to the flow value), in input order, into arc_ids (NULL:
 * count only; else room for pf_network_arcs). Returns the count, -1 if
 * the solution has no cut. */
PF_API int64_t pf_solution_cut_arcs(const pf_network *net, const pf_solution *sol,
                                    int64_t *arc_ids);

/* A network from a compressed-sparse-row matrix of capacities, as
 * scipy.sparse stores one: row u's entries k = indptr[u] .. indptr[u+1]-1
 * are arcs u -> indices[k] of capacity capacities[k], and arc k of the
 * network is entry k (its flows come back in that order). indptr has
 * vertices + 1 elements, starting at 0; ids are 0-based. `index_size` is
 * the byte size of the elements of indptr and indices, `capacity_size`
 * that of capacities: 4 (int32) or 8 (int64) each; the arrays are read as
 * they are (no copy or conversion is asked of the caller). Unsorted
 * columns, repeated entries (parallel arcs), explicit zeros and diagonal
 * entries (self-loops) are all allowed. Errors name the first bad row or
 * entry: "entry 12 (row 3): column 40 outside 0..39". Built on OpenMP's
 * threads where the library has OpenMP. */
PF_API pf_network *pf_network_from_csr(int64_t vertices, int64_t source, int64_t sink,
                                       const void *indptr, const void *indices, int index_size,
                                       const void *capacities, int capacity_size, pf_status *st);

/* A sparse matrix in CSR form with integer elements of a stated size. */
typedef struct pf_csr_matrix {
    int64_t rows;    /* rows (= columns) */
    int64_t entries; /* stored entries: indptr[rows] */
    int index_size;  /* bytes of each indptr and indices element: 4 or 8 */
    int value_size;  /* bytes of each value (signed): 4 or 8 */
    void *indptr;    /* rows + 1 elements; malloc'ed, as are the two below */
    void *indices;   /* entries elements, increasing within each row */
    void *values;    /* entries elements */
} pf_csr_matrix;

/* pf_csr_flow_matrix's treatment of an input position stored p times
 * (p > 1: parallel arcs) whose transpose position is stored q times. */
enum {
    PF_CSR_SUM_REPEATS = 0, /* one entry, as from a matrix whose repeats were summed */
    PF_CSR_KEEP_REPEATS = 1 /* max(p, q) entries, the first with the flow, the
                               others 0 (scipy's result for an int32 matrix) */
};

/* The flow of a network built by pf_network_from_csr from (vertices,
 * indptr, indices, index_size), given arc_flow (pf_solution.arc_flow), as
 * the matrix scipy.sparse.csgraph.maximum_flow returns: F[u][v] = flow
 * u -> v minus flow v -> u, stored at every position of the input's
 * entries and of its transpose's (explicit zeros and the diagonal kept),
 * columns increasing within each row; repeated positions as `repeats`
 * says. Indices are int32 while the entries fit (else int64), values
 * int32 while every value fits (else int64). *out is filled on success
 * (free it with pf_csr_matrix_free) and zeroed on error. */
PF_API int pf_csr_flow_matrix(int64_t vertices, const void *indptr, const void *indices,
                              int index_size, const int64_t *arc_flow, int repeats,
                              pf_csr_matrix *out, pf_status *st);
PF_API void pf_csr_matrix_free(pf_csr_matrix *m);

/* pf_csr_flow_matrix in two steps, so that the part that depends on the
 * input alone (its transpose, the result's indptr and indices: most of
 * the work) can run before or during the solve, on another thread: a plan
 * from the input's structure, which reads the caller's indptr and indices
 * again when filled (keep them unchanged until then), then the matrix
 * from the flows. A plan gives one matrix; free it after. */
typedef struct pf_csr_flow_plan pf_csr_flow_plan;
PF_API pf_csr_flow_plan *pf_csr_flow_plan_new(int64_t vertices, const void *indptr,
                                              const void *indices, int index_size, int repeats,
                                              pf_status *st);
PF_API int pf_csr_flow_plan_matrix(pf_csr_flow_plan *plan, const int64_t *arc_flow,
                                   pf_csr_matrix *out, pf_status *st);
PF_API void pf_csr_flow_plan_free(pf_csr_flow_plan *plan);

/* ---- a CSR matrix solved with its flow matrix (API version 5) ---------- */

/* Where pf_solve_csr_flow's time went, in seconds. The caller sets
 * struct_size (sizeof); fields past it are not written. NULL: not asked. */
typedef struct pf_csr_flow_times {
    size_t struct_size;
    double network;     /* the arrays taken in (indptr checked; the entries are
                           checked as the solve reads them) */
    double structure;   /* the flow matrix's indptr and indices */
    double after_solve; /* from the engine's end to the matrix: the wait for
                           the structure where it was made beside, the values */
    int beside;         /* the structure was made during the solve, on a
                           thread of its own beside the engine */
    int from_residual;  /* the matrix was read off the residual graph of the
                           solve (0: from the input and its transpose) */
} pf_csr_flow_times;

/* pf_network_from_csr's arrays (read in place, not copied: keep them
 * unchanged until this returns) solved with pf_solve's options, and the
 * flow matrix pf_csr_flow_matrix would give from the solution's arc flows
 * (`repeats` as there) into *flow (free it with pf_csr_matrix_free).
 * Faster than the two calls: the matrix's structure is read off the
 * residual graph the solve builds (each vertex's residual arcs lead to
 * the columns of its row of the input and of its transpose), on a thread
 * beside the engine where the engine leaves the host cores free (on
 * opt->threads - 1 of them where set), and the values off the residuals
 * before they are freed; no transpose, no
 * second pass over the input (but for the rows of an input with
 * self-loops, which have no residual arcs). Repeated positions kept
 * (PF_CSR_KEEP_REPEATS) under PORTAFLOW_ARC_ORDER=input or input-reversed,
 * and a network solved as a compact copy, take the transpose path: the
 * same matrix. sol is filled as by pf_solve
 * (arc_flow only with opt->want_flow; solution_size as pf_solve_sized
 * takes it); on error *flow and *sol are empty. */
PF_API int pf_solve_csr_flow_sized(int64_t vertices, int64_t source, int64_t sink,
                                   const void *indptr, const void *indices, int index_size,
                                   const void *capacities, int capacity_size, int repeats,
                                   const pf_solve_options *opt, pf_solution *sol,
                                   size_t solution_size, pf_csr_matrix *flow,
                                   pf_csr_flow_times *times, pf_status *st);
#define pf_solve_csr_flow(n, s, t, ip, ix, is, c, cs, rp, opt, sol, flow, times, st)           \
    pf_solve_csr_flow_sized((n), (s), (t), (ip), (ix), (is), (c), (cs), (rp), (opt), (sol),     \
                            sizeof *(sol), (flow), (times), (st))

/* A weighted graph from arrays (0- or 1-based as above): integral weights
 * stay integers, as pf_wgraph_add_arc_real decides. */
PF_API pf_wgraph *pf_wgraph_from_arrays(int64_t vertices, int64_t arcs, const int64_t *tails,
                                        const int64_t *heads, const double *weights, int base,
                                        pf_status *st);

/* ---- sessions: a graph that changes, solved again warm (API version 4) --- */

/* One change in a batch (README: "Sessions"). Ids are 0-based: arcs in
 * input order, added arcs taking the next ids (a deleted arc's id is never
 * reused), vertices as the network numbers them (added ones next). */
enum pf_update_kind {
    PF_UPDATE_CAP = 1,    /* arc `arc` gets capacity `capacity` */
    PF_UPDATE_ADD = 2,    /* a new arc tail -> head of capacity `capacity` */
    PF_UPDATE_DEL = 3,    /* arc `arc` is deleted */
    PF_UPDATE_ADDV = 4,   /* `count` vertices added */
    PF_UPDATE_SOURCE = 5, /* vertex `tail` becomes the only source */
    PF_UPDATE_SINK = 6,   /* vertex `tail` becomes the only sink */
};

typedef struct pf_update {
    int kind;              /* enum pf_update_kind */
    int64_t arc;           /* CAP, DEL */
    int64_t tail, head;    /* ADD; SOURCE and SINK: the vertex in tail */
    int64_t count;         /* ADDV */
    int64_t capacity;      /* CAP, ADD: an integer capacity, in input units */
    int is_real;           /* CAP, ADD: 1 = the capacity is real_capacity */
    double real_capacity;
} pf_update;

/* A session keeps a backend's device open with the graph and the last
 * flow on it: batches of updates change the graph in place, and each
 * solve starts from the previous flow (README: "Sessions"). The device is
 * opened once, by pf_session_open. The options are copied; want_flow and
 * want_cut apply to every solve. Without want_flow a batch's deficits (flow
 * cut off by a lowered or deleted arc) are covered by hidden source and
 * sink arcs that raise every cut alike, which costs a batch far less than
 * repairing them along flow paths, as a session with want_flow does
 * (README: "Sessions"). */
typedef struct pf_session pf_session;
PF_API int pf_session_open(const pf_network *net, const pf_solve_options *opt,
                           pf_session **session, pf_status *st);
/* Applies a batch of `count` updates, all or none: a batch with a bad
 * entry is refused whole (PF_E_INPUT, "update K: what is wrong"; *bad, if
 * not NULL, gets K, else -1) and leaves graph and flow as they were. So
 * does a batch the device cannot take (PF_E_DEVICE). */
PF_API int pf_session_apply(pf_session *session, const pf_update *updates, int64_t count,
                            int64_t *bad, pf_status *st);
/* Solves the graph as it is now: value, and with the session's want_flow
 * and want_cut, arc_flow over every arc id (0 for deleted arcs) and
 * source_side over every vertex. Free with pf_solution_free. */
PF_API int pf_session_solve_sized(pf_session *session, pf_solution *sol, size_t solution_size,
                                  pf_status *st);
#define pf_session_solve(s, sol, st) pf_session_solve_sized((s), (sol), sizeof *(sol), (st))
/* Makes the next solve cold: the graph rebuilt from the network as it is
 * and the flow started from zero (what a session saves, measured). */
PF_API int pf_session_restart(pf_session *session, pf_status *st);
PF_API int64_t pf_session_vertices(const pf_session *session);
PF_API int64_t pf_session_arcs(const pf_session *session); /* arc ids handed out */
/* The network as it is now, deleted arcs kept with capacity 0 so that arc
 * ids stay input order (for pf_verify, or to write it out). */
PF_API pf_network *pf_session_network(const pf_session *session, pf_status *st);

typedef struct pf_session_stats {
    int64_t batches, updates;  /* applied so far */
    int64_t solves, warm_solves;
    int64_t recompactions;     /* slot arrays rebuilt for room */
    double apply_seconds;      /* the last batch: graph and flow changed, device updated */
    double solve_seconds;      /* the last solve */
    uint64_t device_bytes;     /* device memory held now */
    uint64_t host_bytes;       /* host memory held for the graph and flow */
    int64_t slots;             /* arc slots held (free ones included) */
    int64_t live_arcs;         /* arcs in the graph */
    char cold_reason[128];     /* why the last solve was cold ("" = it was warm) */
} pf_session_stats;
PF_API void pf_session_get_stats(const pf_session *session, pf_session_stats *out);
PF_API void pf_session_close(pf_session *session);

/* ---- graph analytics: BFS, SSSP, triangles (API version 6) ------------- */

/* A weighted graph from arrays with integer weights (0- or 1-based as
 * pf_wgraph_from_arrays); weights NULL: every arc weighs 1 (BFS and
 * triangle counting read no weights). Errors name the first bad arc
 * ("arc 12: ..."): PF_E_USAGE for a negative count or a missing array,
 * PF_E_INPUT for an id outside the graph or |weight| > 2^62. */
PF_API pf_wgraph *pf_wgraph_from_int_arrays(int64_t vertices, int64_t arcs, const int64_t *tails,
                                            const int64_t *heads, const int64_t *weights,
                                            int base, pf_status *st);

/* How pf_bfs, pf_sssp and pf_triangles run. The backend is chosen as for
 * every command: "auto" (NULL) takes $PORTAFLOW_BACKEND where set, else a
 * GPU backend, else OpenMP, else seq, falling back past one that fails to
 * open; a backend named that does not run the analytics is PF_E_DEVICE. */
typedef struct pf_analytics_options {
    size_t struct_size;  /* set by pf_analytics_options_init (as pf_solve_options) */
    const char *backend; /* "auto" (NULL), "seq", "omp", "opencl", "cuda" */
    int device_index;    /* -1: the backend's best device */
    int threads;         /* OpenMP threads, 0 = runtime default */
    int parents;         /* pf_bfs: fill pf_bfs_solution.parent */
    int undirected;      /* each arc is also read in reverse (an edge) */
    double delta;        /* pf_sssp: near-far bucket width; 0 = chosen from
                            the weights (README: "sssp") */
    /* Called between a search's steps, levels and rounds (and every 65536
     * vertices of seq's searches); nonzero stops the call with
     * PF_E_CANCELLED. NULL: never. A backend's search in one step (omp's
     * SSSP, a triangle count) is checked before it starts only. */
    int (*cancel)(void *cancel_data);
    void *cancel_data;
} pf_analytics_options;

PF_API void pf_analytics_options_init(pf_analytics_options *opt);
PF_API void pf_analytics_options_init_sized(pf_analytics_options *opt, size_t opt_size);
#define pf_analytics_options_init(opt) pf_analytics_options_init_sized((opt), sizeof *(opt))

/* Where an analytics call's time went, in seconds. */
typedef struct pf_analytics_times {
    double total;    /* the whole call, the graph's CSR build included */
    double open;     /* the backend's device opened */
    double prepare;  /* host-side preparation (CSR, transposes, orientation) */
    double upload;   /* host -> device */
    double kernel;   /* the algorithm's steps */
    double download; /* device -> host */
} pf_analytics_times;

typedef struct pf_bfs_solution {
    int64_t vertices;    /* the length of dist and parent */
    int32_t *dist;       /* hops from the source, -1 unreached */
    int32_t *parent;     /* with opt->parents: the smallest-id in-neighbour one
                            hop nearer, -1 unreached, the source itself at the
                            source; else NULL */
    int64_t reached;     /* vertices reached, the source included */
    int32_t depth;       /* the largest finite distance */
    int64_t checksum;    /* the sum of the finite distances */
    int64_t arcs_traversed; /* out-arcs of the reached vertices */
    char backend[16];    /* the backend that ran */
    pf_analytics_times times;
} pf_bfs_solution;

typedef struct pf_sssp_solution {
    int64_t vertices;
    int real;            /* 1: the distances are in dist_f, 0: in dist_i */
    int64_t *dist_i;     /* integer weights: INT64_MAX unreached (else NULL) */
    double *dist_f;      /* real weights: +inf unreached (else NULL) */
    int64_t reached;
    double max_distance; /* the largest finite distance (exact below 2^53) */
    double checksum;     /* the sum of the finite distances */
    /* On PF_E_INPUT for a negative cycle reachable from the source: its
     * vertices in order (0-based), else NULL, 0. */
    int32_t *cycle;
    int64_t cycle_len;
    char backend[16];
    pf_analytics_times times;
} pf_sssp_solution;

typedef struct pf_triangle_solution {
    int64_t triangles;   /* of the undirected simple graph */
    int64_t edges;       /* that graph's edges */
    char backend[16];
    pf_analytics_times times;
} pf_triangle_solution;

/* Hop distances from `source` (0-based) along g's arcs (weights ignored),
 * and parents with opt->parents. opt may be NULL (the defaults). PF_E_USAGE
 * for a source outside g; PF_E_DEVICE / PF_E_NOMEM for engine failures.
 * On error *sol is empty (nothing to free). */
PF_API int pf_bfs_sized(const pf_wgraph *g, int64_t source, const pf_analytics_options *opt,
                        pf_bfs_solution *sol, size_t solution_size, pf_status *st);
/* Shortest-path distances from `source`: int64 for integer weights, double
 * for real ones. Negative weights run Bellman-Ford with frontiers; a
 * negative cycle reachable from the source is PF_E_INPUT with its vertices
 * in sol->cycle (free it with pf_sssp_solution_free); weights whose
 * distances could overflow 64 bits are PF_E_INPUT. */
PF_API int pf_sssp_sized(const pf_wgraph *g, int64_t source, const pf_analytics_options *opt,
                         pf_sssp_solution *sol, size_t solution_size, pf_status *st);
/* pf_sssp from each of `count` sources into sols[0..count-1], the graph
 * prepared once (faster than count calls on large graphs). Every source is
 * checked before any search (PF_E_USAGE naming the bad one). On an error
 * from source i (its message starts "source S: ") the solutions before it
 * are freed, sols[i] holds the negative cycle if that was the error, and
 * the rest are empty. */
PF_API int pf_sssp_many_sized(const pf_wgraph *g, const int64_t *sources, int64_t count,
                              const pf_analytics_options *opt, pf_sssp_solution *sols,
                              size_t solution_size, pf_status *st);
/* Triangles of the undirected simple graph of g's arcs: directions,
 * self-loops and repeated arcs ignored. */
PF_API int pf_triangles_sized(const pf_wgraph *g, const pf_analytics_options *opt,
                              pf_triangle_solution *sol, size_t solution_size, pf_status *st);
#define pf_bfs(g, s, opt, sol, st) pf_bfs_sized((g), (s), (opt), (sol), sizeof *(sol), (st))
#define pf_sssp(g, s, opt, sol, st) pf_sssp_sized((g), (s), (opt), (sol), sizeof *(sol), (st))
#define pf_sssp_many(g, s, k, opt, sols, st)                                                  \
    pf_sssp_many_sized((g), (s), (k), (opt), (sols), sizeof *(sols), (st))
#define pf_triangles(g, opt, sol, st) pf_triangles_sized((g), (opt), (sol), sizeof *(sol), (st))
PF_API void pf_bfs_solution_free(pf_bfs_solution *sol);
PF_API void pf_sssp_solution_free(pf_sssp_solution *sol);

/* ---- a session's graph searched as it stands (API version 8) ----------- */

/* pf_bfs and pf_sssp over a session's graph after its batches so far: its
 * live arcs, tail -> head (those of capacity 0 included; the hidden arcs
 * of covered deficits and of several terminals not), SSSP's weights their
 * capacities (a real network's as real distances). They run on the
 * session's backend and its open device, over the session's own arc
 * layout: no graph is built again, whatever the batches changed. The
 * options' backend, device_index and undirected are not read (PF_E_USAGE
 * for undirected: a session's graph is directed); ids are the session's
 * (0-based; arcs and vertices as pf_session_apply counts them). The flow
 * and the next solve are left as they were. */
PF_API int pf_session_bfs_sized(pf_session *session, int64_t source,
                                const pf_analytics_options *opt, pf_bfs_solution *sol,
                                size_t solution_size, pf_status *st);
PF_API int pf_session_sssp_sized(pf_session *session, int64_t source,
                                 const pf_analytics_options *opt, pf_sssp_solution *sol,
                                 size_t solution_size, pf_status *st);
#define pf_session_bfs(s, src, opt, sol, st)                                                  \
    pf_session_bfs_sized((s), (src), (opt), (sol), sizeof *(sol), (st))
#define pf_session_sssp(s, src, opt, sol, st)                                                 \
    pf_session_sssp_sized((s), (src), (opt), (sol), sizeof *(sol), (st))

#ifdef __cplusplus
}
#endif
#endif
