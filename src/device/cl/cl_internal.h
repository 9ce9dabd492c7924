/* Internals of the OpenCL backend, shared by its translation units.
 *
 * Layout of the backend:
 *   cl_backend.c  probe, open/close, buffers, the ops table
 *   cl_transfer.c uploads and downloads (big ones through pinned staging)
 *   cl_program.c  building the embedded program (cache or source), kernels
 *   cl_cache.c    the on-disk program binary cache
 *   cl_steps.c    scan / filter and the max-flow step launches
 *   cl_apsp.c     Floyd-Warshall steps (own program per distance kind)
 *   cl_errors.c   CL error code -> name, status helpers
 *   kernels/NAME.cl  __kernel wrappers, embedded at build time (embed_cl.py)
 *
 * Only OpenCL 1.2 core is used, through the ICD loader, plus
 * cl_khr_int64_base_atomics where the device has it (without it, max-flow
 * runs with 32-bit residuals only). */
#ifndef PF_CL_INTERNAL_H
#define PF_CL_INTERNAL_H

#define CL_TARGET_OPENCL_VERSION 120
#if defined(__APPLE__)
#include <OpenCL/opencl.h>
#else
#include <CL/cl.h>
#endif

#include <stddef.h>
#include <stdint.h>

#include "common/hostcopy.h"
#include "device/device.h"

/* The program text: pf_vendor.h + pf_kernels.h + kernels/NAME.cl, generated
 * by embed_cl.py into pf_cl_source.c. */
extern const char pf_cl_program_source[];
extern const size_t pf_cl_program_source_len;

/* Every kernel of the program; names in cl_program.c must follow this
 * order. */
enum pf_cl_kernel_id {
    PF_CLK_MARK_ACTIVE,
    PF_CLK_SATURATE_FROM,
    PF_CLK_PUSH_RELABEL,
    PF_CLK_PUSH_RELABEL_FOLLOW,
    PF_CLK_PUSH_RELABEL_GROUP,
    PF_CLK_CANCEL_VIOLATIONS,
    PF_CLK_BFS_LEVEL,
    PF_CLK_REDUCE_I32,
    PF_CLK_REDUCE_I64,
    PF_CLK_SCAN_I32,
    PF_CLK_SCAN_I64_INPLACE,
    PF_CLK_SCATTER_I32,
    PF_CLK_COUNT
};

/* The two builds of the max-flow program: residuals and excess in 64 or
 * 32 bits (pf_vendor.h: PF_CAP_BITS). */
enum { PF_CL_CAP64 = 0, PF_CL_CAP32 = 1, PF_CL_WIDTHS = 2 };

/* Levels of the recursive scan: level k scans the tile sums of level k-1.
 * Tiles hold at least 2 elements, so 2^47 elements fit in any case (with
 * the usual 2048-element tiles, 2^31 elements need 3 levels). */
#define PF_CL_SCAN_LEVELS 48

struct pf_buf {
    cl_mem mem;
    size_t bytes; /* as requested (the cl_mem may be a little larger) */
};

struct pf_dev {
    cl_platform_id platform;
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
    /* The program per width of residuals and excess (PF_CL_CAP64, _CAP32):
     * the one the device runs by default is built at open (`base`), the
     * other at the first solve that asks for it. Scans use `base`. */
    cl_program programs[PF_CL_WIDTHS];
    cl_kernel kernels[PF_CL_WIDTHS][PF_CLK_COUNT];
    int base;
    int atom64;            /* cl_khr_int64_base_atomics */

    size_t group_size;     /* work-group size of every launch, power of two */
    int push_lanes;        /* work-items per listed vertex in push_relabel: 1, or a
                              power of two for pf_k_push_relabel_group (GPUs) */
    int scan_rows;         /* scan tile = group_size * scan_rows elements */
    size_t stride_groups;  /* groups of grid-stride kernels (saturate_from) */
    cl_ulong max_alloc;    /* CL_DEVICE_MAX_MEM_ALLOC_SIZE */
    cl_ulong global_mem;   /* CL_DEVICE_GLOBAL_MEM_SIZE */

    /* Scan scratch: tile sums per level (int64), grown on demand, and one
     * int64 that receives a scan's grand total. */
    cl_mem scan_sums[PF_CL_SCAN_LEVELS];
    size_t scan_sums_cap[PF_CL_SCAN_LEVELS]; /* elements */
    cl_mem scan_total;

    struct pf_cl_fw *fw; /* APSP programs, built on first use (cl_apsp.c) */
    struct pf_cl_fw_perk *fw_perk; /* per-k APSP programs (cl_fw_perk.c) */
    struct pf_cl_fw_stats *fw_stats; /* APSP statistics programs (cl_fw_stats.c) */
    struct pf_cl_graph *graph; /* analytics program, built on first use (cl_graph.c) */

    /* Pinned staging for transfers of at least stage_min bytes (0: never;
     * PORTAFLOW_PINNED, common/hostcopy.h; devices that share the host's
     * memory only when forced): PF_STAGE_COUNT buffers of PF_STAGE_CHUNK
     * bytes made with CL_MEM_ALLOC_HOST_PTR and kept mapped at stage[b].
     * Made at the first big transfer; stage_state 0 = not yet tried,
     * 1 = ready, -1 = unavailable (transfers go straight from/to the
     * caller's memory). */
    size_t stage_min;
    int stage_state;
    cl_mem stage_mem[PF_STAGE_COUNT];
    void *stage[PF_STAGE_COUNT];

    pf_device_desc desc;
};

/* ---- cl_errors.c ------------------------------------------------------ */

/* "CL_MEM_OBJECT_ALLOCATION_FAILURE"; NULL for a code outside the table
 * (the fail helpers then print the number). */
const char *pf_cl_error_name(cl_int err);
/* PF_E_DEVICE with "CALL: CL_ERROR_NAME". */
int pf_cl_fail(pf_status *st, const char *call, cl_int err);
/* PF_E_DEVICE with "CALL(WHAT): CL_ERROR_NAME". */
int pf_cl_fail_on(pf_status *st, const char *call, const char *what, cl_int err);

/* ---- cl_backend.c ----------------------------------------------------- */

/* One usable device, in probe order. */
typedef struct pf_cl_device_ref {
    cl_platform_id platform;
    cl_device_id device;
    cl_device_type type;
} pf_cl_device_ref;

/* Fills a descriptor for a device (backend "opencl", given index). */
void pf_cl_describe(cl_device_id device, int index, pf_device_desc *desc);
/* Reads a string property of a device or platform into buf (trimmed);
 * "" on failure. */
void pf_cl_device_string(cl_device_id device, cl_device_info what, char *buf, size_t len);
void pf_cl_platform_string(cl_platform_id platform, cl_platform_info what, char *buf,
                           size_t len);
/* PF_E_USAGE unless [offset, offset + bytes) lies within buf; `what`
 * names the operation ("upload"). */
int pf_cl_check_range(const pf_buf *buf, size_t offset, size_t bytes, const char *what,
                      pf_status *st);
/* Whether the device lists `ext` among its extensions. */
int pf_cl_has_extension(cl_device_id device, const char *ext);

/* ---- cl_transfer.c ---------------------------------------------------- */

/* Sets dev->stage_min from PORTAFLOW_PINNED and the device's kind. */
void pf_cl_staging_init(pf_dev *dev);
/* Blocking: on PF_OK the data has arrived and the caller may reuse src
 * (upload) or read dst (download). */
int pf_cl_upload(pf_dev *dev, pf_buf *dst, size_t offset, const void *src, size_t bytes,
                 pf_status *st);
int pf_cl_download(pf_dev *dev, pf_buf *src, size_t offset, void *dst, size_t bytes,
                   pf_status *st);
/* Unmaps and releases the staging buffers (the queue must be idle). */
void pf_cl_staging_release(pf_dev *dev);

/* ---- cl_program.c ----------------------------------------------------- */

/* Kernel function names, by enum pf_cl_kernel_id. */
extern const char *const pf_cl_kernel_names[PF_CLK_COUNT];
/* Builds the program of dev->base for dev->device (from the binary cache
 * when possible) and creates every kernel. Sets dev->group_size, scan_rows
 * and stride_groups. */
int pf_cl_build(pf_dev *dev, pf_status *st);
/* The kernels of the program for `bits`-bit residuals (32 or 64), built
 * on first use; PF_E_DEVICE when the device cannot run that width. */
int pf_cl_kernels_for(pf_dev *dev, int bits, cl_kernel **kernels, pf_status *st);
/* The build options of the max-flow program for a width, and whether the
 * device has 64-bit atomics (tests print the build log with these). */
void pf_cl_steps_options(int width, int atom64, char *out, size_t len);
/* Builds `source` with `options` for dev->device, from the binary cache
 * when it holds a match (else from source, then cached), and creates the
 * `count` kernels named. On failure nothing is left to release. */
int pf_cl_build_program(pf_dev *dev, const char *source, size_t source_len,
                        const char *options, const char *const *names, int count,
                        cl_program *program, cl_kernel *kernels, pf_status *st);

/* ---- cl_cache.c ------------------------------------------------------- */

/* 64-bit FNV-1a, to key the cache (not a security measure). */
uint64_t pf_cl_hash(const void *data, size_t len, uint64_t seed);
#define PF_CL_HASH_SEED UINT64_C(0xcbf29ce484222325)

/* Whether to use the cache: yes unless PORTAFLOW_NO_CL_CACHE is set to
 * something other than "" or "0". */
int pf_cl_cache_wanted(void);
/* Cache file for a key, creating its directory (NULL if no directory can
 * be found or made); the caller frees it. */
char *pf_cl_cache_path(const char *key);
/* Loads the binary stored for key; NULL (silently) on any failure. The
 * caller frees *bin. */
unsigned char *pf_cl_cache_load(const char *path, const char *key, size_t *len);
/* Stores a binary atomically (temp file + rename); failures are ignored. */
void pf_cl_cache_store(const char *path, const char *key, const unsigned char *bin,
                       size_t len);

/* ---- cl_steps.c ------------------------------------------------------- */

/* One kernel argument: a value of `size` bytes, or (value NULL) a __local
 * buffer of `size` bytes. */
typedef struct cl_arg {
    size_t size;
    const void *value;
} cl_arg;

#define ARG(v) {sizeof(v), &(v)}
#define LOCAL_ARG(bytes) {(bytes), NULL}
#define NARGS(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* Sets a kernel's arguments; a failure names the kernel (`name`) and the
 * argument. */
int pf_cl_set_args(cl_kernel kernel, const char *name, const cl_arg *args, int nargs,
                   pf_status *st);

int pf_cl_scan_i32(pf_dev *dev, pf_buf *in, pf_buf *out, int64_t count, int64_t *total,
                   pf_status *st);
int pf_cl_filter_i32(pf_dev *dev, pf_buf *flags, pf_buf *out, int64_t count,
                     int64_t *selected, pf_status *st);
int pf_cl_mark_active(pf_dev *dev, const pf_dev_graph *g, pf_buf *flags, pf_status *st);
int pf_cl_saturate_from(pf_dev *dev, const pf_dev_graph *g, int32_t x, pf_status *st);
int pf_cl_push_relabel(pf_dev *dev, const pf_dev_graph *g, pf_buf *list, int64_t count,
                       int32_t cycles, int64_t *work, pf_status *st);
int pf_cl_cancel_violations(pf_dev *dev, const pf_dev_graph *g, pf_buf *list,
                            int64_t count, pf_status *st);
int pf_cl_bfs_levels(pf_dev *dev, const pf_dev_graph *g, pf_buf *const frontier[2],
                     int32_t level, int32_t levels, int32_t excluded, int64_t *count,
                     pf_status *st);
/* Releases the scan scratch buffers. */
void pf_cl_steps_release(pf_dev *dev);

/* ---- cl_apsp.c -------------------------------------------------------- */

/* The APSP program text (kernels/pf_apsp.cl), generated by embed_cl.py. */
extern const char pf_cl_apsp_source[];
extern const size_t pf_cl_apsp_source_len;

int32_t pf_cl_fw_tile(pf_dev *dev, int32_t kind, int paths);
int pf_cl_fw_phase(pf_dev *dev, const pf_dev_apsp *a, int32_t round, int32_t phase,
                   pf_status *st);
/* Releases the APSP programs (dev->fw). */
void pf_cl_fw_release(pf_dev *dev);

/* ---- cl_fw_perk.c ----------------------------------------------------- */

extern const char pf_cl_fw_perk_source[];
extern const size_t pf_cl_fw_perk_source_len;
int pf_cl_fw_step(pf_dev *dev, const pf_dev_apsp *a, int32_t variant, int32_t k,
                  pf_status *st);
/* Releases the per-k programs (dev->fw_perk). */
void pf_cl_fw_perk_release(pf_dev *dev);

/* ---- cl_fw_stats.c ---------------------------------------------------- */

extern const char pf_cl_fw_stats_source[];
extern const size_t pf_cl_fw_stats_source_len;
int pf_cl_fw_stats(pf_dev *dev, const pf_dev_apsp *a, int32_t n, pf_fw_stats *out,
                   pf_status *st);
/* Releases the statistics programs (dev->fw_stats). */
void pf_cl_fw_stats_release(pf_dev *dev);

/* ---- cl_graph.c: the analytics steps (device.h) ----------------------- */

extern const char pf_cl_graph_source[];
extern const size_t pf_cl_graph_source_len;
int pf_cl_bfs_push(pf_dev *dev, const pf_dev_csr *g, pf_buf *in, int64_t count, int64_t in_arcs,
                   pf_buf *dist, int32_t level, pf_buf *out, int64_t *out_count,
                   int64_t *out_arcs, pf_status *st);
int pf_cl_bfs_pull(pf_dev *dev, const pf_dev_csr *g, pf_buf *dist, int32_t level, pf_buf *flags,
                   int64_t *found, int64_t *found_arcs, pf_status *st);
int pf_cl_bfs_parents(pf_dev *dev, const pf_dev_csr *g, pf_buf *dist, int32_t source,
                      pf_buf *parent, pf_status *st);
int pf_cl_sssp_relax(pf_dev *dev, const pf_dev_csr *g, pf_buf *in, int64_t count,
                     int64_t in_arcs, pf_buf *dist, pf_buf *claim, int32_t step, pf_buf *near,
                     pf_buf *far, int64_t bound_i, double bound_f, int64_t *near_count,
                     int64_t *near_arcs, pf_status *st);
int pf_cl_sssp_far(pf_dev *dev, const pf_dev_csr *g, pf_buf *dist, pf_buf *far, int64_t bound_i,
                   double bound_f, pf_buf *out, pf_sssp_far_out *res, pf_status *st);
int pf_cl_intersect_count(pf_dev *dev, const pf_dev_csr *g, int64_t *total, pf_status *st);
/* Releases the analytics program (dev->graph). */
void pf_cl_graph_release(pf_dev *dev);

#endif
