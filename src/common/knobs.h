/* The tuning variables (PORTAFLOW_*, PF_CUDA_*): declared once in a table
 * (knobs.c), read from the environment once per process into one struct
 * that every part of portaflow reads, host and device code alike:
 *
 *     if (pf_knobs()->trace) ...
 *     int lanes = (int)pf_knobs()->cuda_push_lanes;
 *
 * A variable that is unset or empty keeps its default. A value that does
 * not parse or lies outside the knob's range also keeps the default, and
 * is recorded as a problem (pf_knob_problem) that the command line prints
 * once at start-up and `portaflow backends --knobs` lists; the library
 * itself prints nothing. Knobs whose default depends on the device or the
 * thread count hold PF_KNOB_AUTO (or "" for text) until set, and the code
 * that reads them works the default out. Standard variables (HOME,
 * XDG_CACHE_HOME, ...) are read where they are used, not here.
 *
 * knobs_doc.c writes the table as the listing of `portaflow backends
 * --knobs` and as docs/KNOBS.md (a test keeps that file equal to it). */
#ifndef PF_KNOBS_H
#define PF_KNOBS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Global relabel pacing shared by the sequential engine and the parallel
 * driver (PORTAFLOW_GR_ALPHA's default): a global relabel once the relabel
 * work since the last one exceeds PF_GR_ALPHA * n + arcs / 2. */
#define PF_GR_ALPHA 6

/* A numeric knob's value while unset where its default is worked out by
 * the code that reads it (the device, the thread count). */
#define PF_KNOB_AUTO (-1)

/* One entry per variable, in the table's order (the listing's). */
typedef enum pf_knob_id {
    PF_KNOB_BACKEND,
    PF_KNOB_MEMORY_LIMIT,
    PF_KNOB_TRACE,
    PF_KNOB_CYCLES,
    PF_KNOB_FOLLOW,
    PF_KNOB_GR_ALPHA,
    PF_KNOB_GR_ROUNDS,
    PF_KNOB_GR_TIME,
    PF_KNOB_GR_HOPS,
    PF_KNOB_HANDOFF,
    PF_KNOB_HYBRID,
    PF_KNOB_HYBRID_START,
    PF_KNOB_HYBRID_STRETCH,
    PF_KNOB_HYBRID_SWITCH,
    PF_KNOB_HYBRID_OPEN,
    PF_KNOB_HYBRID_TEAM,
    PF_KNOB_GPU_MIN_VERTICES,
    PF_KNOB_DEVICE_BUILD,
    PF_KNOB_DEVICE_OPEN,
    PF_KNOB_SESSION_LABELS,
    PF_KNOB_CAP_BITS,
    PF_KNOB_ARC_ORDER,
    PF_KNOB_ASYNC,
    PF_KNOB_OMP_BLOCKS,
    PF_KNOB_OMP_HL_SHARE,
    PF_KNOB_OMP_BFS_TEAM,
    PF_KNOB_PINNED,
    PF_KNOB_CL_PLATFORM,
    PF_KNOB_CL_REUSE,
    PF_KNOB_NO_CL_CACHE,
    PF_KNOB_CL_GROUP_SIZE,
    PF_KNOB_CL_PUSH_LANES,
    PF_KNOB_CL_FW,
    PF_KNOB_CUDA_PROBE,
    PF_KNOB_CUDA_PUSH_LANES,
    PF_KNOB_CUDA_FW_VARIANT,
    PF_KNOB_CHECK_ARGS,
    PF_KNOB_GRAPH_BALANCE,
    PF_KNOB_GRAPH_HOPS,
    PF_KNOB_COUNT
} pf_knob_id;

/* How a knob's text is read. */
typedef enum pf_knob_kind {
    PF_KNOB_FLAG,   /* 0 or 1 */
    PF_KNOB_INT,    /* a whole number in [least, most] */
    PF_KNOB_REAL,   /* a decimal number in [least, most] */
    PF_KNOB_BYTES,  /* digits, optionally followed by K, M, G or T (powers of 1024) */
    PF_KNOB_CHOICE, /* one of the names in choices */
    PF_KNOB_TEXT,   /* any text up to the field's size */
    PF_KNOB_SHAPE,  /* "show" and key=value pairs (PORTAFLOW_CL_FW) */
} pf_knob_kind;

typedef struct pf_knob_choice {
    const char *name;
    int64_t value;
} pf_knob_choice;

/* The OpenCL Floyd-Warshall shape asked for (PORTAFLOW_CL_FW); 0 where a
 * key was not given. */
typedef struct pf_cl_fw_tuning {
    int vec, rows, cols, chunk, unroll, pivot;
    int show; /* print each program's shape when it is built */
} pf_cl_fw_tuning;

/* Every knob's value (the default where unset or bad). */
typedef struct pf_knob_values {
    char backend[64];          /* "": auto (read by the registry itself) */
    int64_t memory_limit;      /* bytes; 0: the probe's */
    int64_t trace;
    int64_t cycles;
    int64_t follow;
    double gr_alpha;
    int64_t gr_rounds;
    double gr_time;
    int64_t gr_hops;
    int64_t handoff;           /* 0: the parallel driver never hands phase 1 to the host */
    int64_t hybrid;            /* enum pf_hybrid_mode, or PF_KNOB_AUTO: the option's */
    int64_t hybrid_start;
    int64_t hybrid_stretch;    /* 0: one global-relabel period */
    int64_t hybrid_switch;     /* 0 model, 1 alternate */
    int64_t hybrid_open;       /* 0 early, 1 late */
    int64_t hybrid_team;       /* PF_KNOB_AUTO, 1 on, 0 off */
    int64_t gpu_min_vertices;  /* auto takes no GPU for max-flow below this */
    int64_t device_build;      /* 1: a device that can builds the residual graph */
    int64_t device_open;       /* 0 while the input is read, 1 after it */
    int64_t session_labels;    /* PF_KNOB_AUTO: measured; 1 always, 0 never */
    int64_t cap_bits;          /* 32, 64, or PF_KNOB_AUTO */
    int64_t arc_order;         /* a pf_arc_order, or PF_KNOB_AUTO */
    int64_t async;
    int64_t omp_blocks;
    int64_t omp_hl_share;      /* PF_KNOB_AUTO: by the thread count */
    int64_t omp_bfs_team;
    int64_t pinned;
    char cl_platform[256];     /* "": every platform */
    int64_t cl_reuse;
    int64_t no_cl_cache;
    int64_t cl_group_size;     /* PF_KNOB_AUTO: the backend's own */
    int64_t cl_push_lanes;     /* PF_KNOB_AUTO: by the device's kind */
    pf_cl_fw_tuning cl_fw;
    char cuda_probe[4096];     /* "": looked for in the usual places */
    int64_t cuda_push_lanes;
    int64_t cuda_fw_variant;
    int64_t check_args;        /* PF_KNOB_AUTO: on without NDEBUG */
    int64_t graph_balance;     /* PF_KNOB_AUTO: per step, by the frontier */
    int64_t graph_hops;        /* PF_KNOB_AUTO: by the step's lanes */
    /* 1 where the environment gave a valid value. */
    unsigned char set[PF_KNOB_COUNT];
    /* Where the environment gave a value that was refused: the text (cut
     * to fit) and why; the default is kept. */
    unsigned char bad[PF_KNOB_COUNT];
    char bad_text[PF_KNOB_COUNT][64];
    const char *bad_why[PF_KNOB_COUNT];
} pf_knob_values;

/* One row of the table. */
typedef struct pf_knob_info {
    const char *name;       /* the environment variable */
    pf_knob_kind kind;
    size_t offset;          /* of the value in pf_knob_values */
    size_t size;            /* TEXT: the field's size, NUL included */
    int64_t least, most;    /* INT, REAL, BYTES: the range */
    int power_of_two;       /* INT: only powers of two */
    const pf_knob_choice *choices; /* CHOICE: ended by {0} */
    double fallback;        /* the default of a numeric knob */
    const char *auto_text;  /* where the default is worked out later: how */
    const char *meaning;    /* one line */
} pf_knob_info;

extern const pf_knob_info pf_knob_table[PF_KNOB_COUNT];

/* The values, read from the environment at the first call (thread-safe). */
const pf_knob_values *pf_knobs(void);

/* Reads the environment again: for tests and measurements that change a
 * variable between solves in one process. Not safe while another thread
 * reads the knobs. */
void pf_knobs_reload(void);

/* Parses one knob's text into *values (the whole struct is only written
 * at that knob's place): 0 when valid, else -1 with *why saying what is
 * wrong. Exposed for the tests. */
int pf_knob_parse(pf_knob_id id, const char *text, pf_knob_values *values, const char **why);

/* The values every knob has when nothing is set. */
void pf_knobs_defaults(pf_knob_values *values);

/* "NAME='TEXT': why; the default D is used" for a refused value; 0 when
 * the knob was not refused. */
int pf_knob_problem(const pf_knob_values *values, pf_knob_id id, char *out, size_t len);

/* The knob's value, default and range as text (for listings). */
void pf_knob_value_text(const pf_knob_values *values, pf_knob_id id, char *out, size_t len);
void pf_knob_default_text(pf_knob_id id, char *out, size_t len);
void pf_knob_range_text(pf_knob_id id, char *out, size_t len);

/* knobs_doc.c: the listing of `portaflow backends --knobs` (name, value
 * and whether set, default, range, meaning) and the Markdown table of
 * docs/KNOBS.md. Both return 0, or -1 when writing failed. */
int pf_knobs_write_list(FILE *out, const pf_knob_values *values);
int pf_knobs_write_markdown(FILE *out);

#ifdef __cplusplus
}
#endif
#endif
