/* Floyd-Warshall steps of the OpenCL backend: fw_tile and fw_phase
 * (semantics: device.h; kernels: kernels/pf_apsp.cl).
 *
 * The APSP kernels are one source built per (distance kind, next hops,
 * tile) with the element type and the launch shape as macros, so that the
 * per-work-item blocks are compile-time arrays the compiler keeps in
 * registers. A program is built on the first fw_phase that needs it (from
 * the binary cache when it holds one) and kept until the device closes or
 * the tile changes.
 *
 * Shapes (fw_shape): a GPU gets 128-wide tiles, so that phase 3 (nearly
 * all the work) moves little memory per update: each round reads and
 * writes the whole matrix once, 8/T bytes per int32 update. A phase-3
 * work-group stages KC columns of A and KC rows of B at a time in local
 * memory (KC = 32 int32: 33 KiB, within the 48 KiB NVIDIA's OpenCL grants),
 * and each work-item keeps an 8 x 8 block of results (8 x 4 with next hops
 * or int64) in registers. A CPU (PoCL) gets 64-wide tiles and work-items
 * that own whole vector rows, which PoCL turns into SIMD code.
 *
 * PORTAFLOW_CL_FW (tuning): "vec=4,rows=8,cols=8,chunk=32,unroll=16,pivot=4"
 * or any subset overrides the preferred shape (still fitted to the tile
 * and the device's limits); "show" prints the shape each program is built
 * with (after any rebuild for work-group limits). */
#include "cl_kernels.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/status.h"

/* The program's kernels (pf_kernel_table.h: PF_FW_KERNELS). */
#define FW_KERNEL_ID(ID, name) PF_CLK_##ID,
enum { PF_FW_KERNELS(FW_KERNEL_ID) FW_KERNELS };
#undef FW_KERNEL_ID
#define FW_KERNEL_NAME(ID, name) [PF_CLK_##ID] = "pf_k_" #name,
static const char *const fw_kernel_names[FW_KERNELS] = {PF_FW_KERNELS(FW_KERNEL_NAME)};
#undef FW_KERNEL_NAME

/* Tiles fw_phase accepts: multiples of 16 in this range (any that a shape
 * fits on the device). */
#define FW_TILE_MIN 16
#define FW_TILE_MAX 256
/* Tile fw_tile starts from (then halves until a shape fits). */
#define FW_TILE_GPU 128
#define FW_TILE_CPU 64
/* Largest phase-3 block side per work-item (a CPU's block row is 4 SIMD
 * vectors, 32 int32) and largest pivot block: past these the registers
 * would spill. */
#define FW_BLOCK_MAX 64
#define FW_PIVOT_MAX 16
/* Builds tried with ever larger per-work-item blocks when a kernel cannot
 * run the work-group size (CL_KERNEL_WORK_GROUP_SIZE, e.g. registers). */
#define FW_GROW_TRIES 3
/* Register cap on NVIDIA (cl_nv_compiler_options): ptxas gives the phase-3
 * kernel about 170 registers uncapped, which leaves one 256-item group per
 * SM; at 128 (measured with ptxas for sm_90: no spills in the k loop) two
 * groups share an SM and hide each other's staging stalls. */
#define FW_NV_REGISTERS 128

/* Launch shape of one APSP program (the PF_FW_* macros of pf_apsp.cl). */
typedef struct fw_shape {
    int tile;   /* PF_FW_TILE */
    int vec;    /* PF_FW_VB: vector width of row loads and stores */
    int rows;   /* PF_FW_RM: phase-3 rows per work-item */
    int cols;   /* PF_FW_RN: phase-3 columns per work-item */
    int chunk;  /* PF_FW_KC: k values staged in local memory at a time */
    int unroll; /* PF_FW_UNROLL: unroll of the phase-3 k loop */
    int pivot;  /* PF_FW_P: phases 1 and 2, block edge per work-item */
} fw_shape;

/* What a device allows, for one distance kind. */
typedef struct fw_limits {
    int gpu;              /* anything but a CPU: SIMT shapes */
    size_t max_group;     /* CL_DEVICE_MAX_WORK_GROUP_SIZE */
    size_t max_items[3];  /* CL_DEVICE_MAX_WORK_ITEM_SIZES */
    cl_ulong local_mem;   /* CL_DEVICE_LOCAL_MEM_SIZE */
    cl_uint vec_width;    /* CL_DEVICE_PREFERRED_VECTOR_WIDTH_* of the kind */
    size_t elem;          /* bytes of one distance */
} fw_limits;

typedef struct fw_program {
    fw_shape shape; /* shape.tile == 0: nothing built */
    int capped;     /* built with the NVIDIA register cap */
    cl_program program;
    cl_kernel kernels[FW_KERNELS];
} fw_program;

enum { FW_KINDS = 3 };

struct pf_cl_fw {
    fw_program programs[FW_KINDS][2]; /* by kind, then next hops off / on */
};

static int kind_valid(int32_t kind)
{
    return kind == PF_DIST_I32 || kind == PF_DIST_I64 || kind == PF_DIST_F32;
}

static const char *kind_name(int32_t kind)
{
    return kind == PF_DIST_I64 ? "int64" : kind == PF_DIST_F32 ? "float" : "int32";
}

/* ---- shapes ----------------------------------------------------------- */

static void query_limits(pf_dev *dev, int32_t kind, fw_limits *lim)
{
    memset(lim, 0, sizeof *lim);
    lim->gpu = strcmp(dev->desc.kind, "cpu") != 0;
    lim->elem = kind == PF_DIST_I64 ? 8 : 4;
    cl_device_info width = kind == PF_DIST_I64   ? CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG
                           : kind == PF_DIST_F32 ? CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT
                                                 : CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT;
    /* A failed query leaves 0, which every fit below refuses or clamps. */
    clGetDeviceInfo(dev->device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof lim->max_group,
                    &lim->max_group, NULL);
    clGetDeviceInfo(dev->device, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof lim->max_items,
                    lim->max_items, NULL);
    clGetDeviceInfo(dev->device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof lim->local_mem,
                    &lim->local_mem, NULL);
    clGetDeviceInfo(dev->device, width, sizeof lim->vec_width, &lim->vec_width, NULL);
}

/* The shape a device would like before fitting it to a tile. */
static void preferred_shape(const fw_limits *lim, int paths, fw_shape *want)
{
    if (lim->gpu) {
        /* 16-byte loads; 8 x 8 int32 results (64 registers) leave room for
         * two 256-item groups per NVIDIA SM; hops or int64 double the
         * registers per result, so half the columns. Unrolling 16 k keeps
         * ptxas within 128 registers without spills (32 spills). */
        int wide = lim->elem == 8;
        *want = (fw_shape){.vec = 16 / (int)lim->elem,
                           .rows = 8,
                           .cols = paths || wide ? 4 : 8,
                           .chunk = wide ? 16 : 32,
                           .unroll = 16,
                           .pivot = 4};
    } else {
        /* A work-item owns 2 rows of 4 SIMD vectors: 8 accumulators, half
         * the AVX2 register file; the whole A and B tiles fit in local
         * memory (a CPU's caches), so one chunk. PoCL runs a work-group's
         * items in a loop per barrier, so the pivot kernel wants few,
         * heavy items: 16 x 16 blocks (phase 2 takes about half the time
         * it takes with 8 x 8). */
        int vec = lim->vec_width >= 2 ? (int)lim->vec_width : 4;
        *want = (fw_shape){.vec = vec,
                           .rows = 2,
                           .cols = 4 * vec,
                           .chunk = FW_TILE_MAX,
                           .unroll = 4,
                           .pivot = 16};
    }
}

/* Applies PORTAFLOW_CL_FW (knobs.h: "key=value,..." and "show"; a bad
 * value was refused there). *show: print each program's shape when it is
 * built. */
static int apply_tuning(fw_shape *want, int *show, pf_status *st)
{
    (void)st;
    const pf_cl_fw_tuning *t = &pf_knobs()->cl_fw;
    const int given[] = {t->vec, t->rows, t->cols, t->chunk, t->unroll, t->pivot};
    int *const field[] = {&want->vec,   &want->rows,   &want->cols,
                          &want->chunk, &want->unroll, &want->pivot};
    for (size_t i = 0; i < sizeof given / sizeof *given; i++)
        if (given[i])
            *field[i] = given[i];
    *show = t->show;
    return PF_OK;
}

/* The largest power of two <= want (and >= 1) that divides tile. */
static int pow2_part(int tile, int want)
{
    int p = 1;
    while (p * 2 <= want && tile % (p * 2) == 0)
        p *= 2;
    return p;
}

static size_t rest_local_bytes(const fw_shape *s, size_t elem)
{
    return ((size_t)s->tile * (size_t)(s->chunk + 1) + (size_t)s->chunk * s->tile) * elem;
}

static size_t pivot_local_bytes(const fw_shape *s, size_t elem, int paths)
{
    return 4 * (size_t)s->tile * elem + (paths ? 2 * (size_t)s->tile * sizeof(cl_int) : 0);
}

static int fits_items(const fw_limits *lim, size_t x, size_t y)
{
    return x * y <= lim->max_group && x <= lim->max_items[0] && y <= lim->max_items[1];
}

/* Fits the wanted shape to a tile and the device, with the per-work-item
 * blocks of the pivot and phase-3 kernels grown 2^pivot_grow and
 * 2^rest_grow times (fewer, heavier work-items). 0 on success, -1 when no
 * shape runs this tile. */
static int fit_shape(const fw_limits *lim, int paths, int tile, int pivot_grow, int rest_grow,
                     const fw_shape *want, fw_shape *s)
{
    if (tile < FW_TILE_MIN || tile > FW_TILE_MAX || tile % 16)
        return -1;
    int cap = tile < FW_BLOCK_MAX ? tile : FW_BLOCK_MAX;
    int pivot_cap = tile < FW_PIVOT_MAX ? tile : FW_PIVOT_MAX;
    s->tile = tile;
    s->vec = pow2_part(tile, want->vec < 2 ? 2 : want->vec > 16 ? 16 : want->vec);
    s->cols = pow2_part(cap, (want->cols > s->vec ? want->cols : s->vec) << rest_grow);
    s->rows = pow2_part(cap, want->rows << rest_grow);
    s->pivot = pow2_part(pivot_cap, (want->pivot > 2 ? want->pivot : 2) << pivot_grow);
    if (s->cols < s->vec)
        return -1;
    while (!fits_items(lim, (size_t)(tile / s->cols), (size_t)(tile / s->rows))) {
        if (s->rows < cap)
            s->rows *= 2;
        else if (s->cols < cap)
            s->cols *= 2;
        else
            return -1;
    }
    while (!fits_items(lim, (size_t)(tile / s->pivot), (size_t)(tile / s->pivot))) {
        if (s->pivot >= pivot_cap)
            return -1;
        s->pivot *= 2;
    }
    /* A chunk holds whole vectors of an A row. */
    s->chunk = pow2_part(tile, want->chunk > s->vec ? want->chunk : s->vec);
    while (rest_local_bytes(s, lim->elem) > lim->local_mem && s->chunk > s->vec)
        s->chunk /= 2;
    if (rest_local_bytes(s, lim->elem) > lim->local_mem ||
        pivot_local_bytes(s, lim->elem, paths) > lim->local_mem)
        return -1;
    s->unroll = want->unroll < 1 ? 1 : want->unroll > s->chunk ? s->chunk : want->unroll;
    return 0;
}

/* "16, 32, 48" : the tiles a shape fits for this kind on this device. */
static void list_tiles(const fw_limits *lim, int paths, const fw_shape *want, char *out,
                       size_t len)
{
    size_t used = 0;
    out[0] = '\0';
    for (int tile = FW_TILE_MIN; tile <= FW_TILE_MAX && used < len; tile += 16) {
        fw_shape s;
        if (fit_shape(lim, paths, tile, 0, 0, want, &s) == 0)
            used += (size_t)snprintf(out + used, len - used, "%s%d", used ? ", " : "", tile);
    }
    if (!out[0])
        snprintf(out, len, "none");
}

int32_t pf_cl_fw_tile(pf_dev *dev, int32_t kind, int paths)
{
    fw_limits lim;
    fw_shape want, s;
    query_limits(dev, kind, &lim);
    int show;
    preferred_shape(&lim, paths, &want);
    apply_tuning(&want, &show, NULL);
    for (int tile = lim.gpu ? FW_TILE_GPU : FW_TILE_CPU; tile > FW_TILE_MIN; tile /= 2)
        if (fit_shape(&lim, paths, tile, 0, 0, &want, &s) == 0)
            return tile;
    return FW_TILE_MIN;
}

/* ---- programs --------------------------------------------------------- */

static void release_program(fw_program *p)
{
    for (int k = 0; k < FW_KERNELS; k++) {
        if (p->kernels[k])
            clReleaseKernel(p->kernels[k]);
        p->kernels[k] = NULL;
    }
    if (p->program)
        clReleaseProgram(p->program);
    p->program = NULL;
    p->shape.tile = 0;
}

void pf_cl_fw_release(pf_dev *dev)
{
    if (!dev->fw)
        return;
    for (int kind = 0; kind < FW_KINDS; kind++)
        for (int paths = 0; paths < 2; paths++)
            release_program(&dev->fw->programs[kind][paths]);
    free(dev->fw);
    dev->fw = NULL;
}

static void fw_options(int32_t kind, int paths, const fw_shape *s, char *out, size_t len)
{
    snprintf(out, len,
             "-cl-std=CL1.2 -DPF_FW_T=%s -DPF_FW_FLOAT=%d -DPF_FW_PATHS=%d -DPF_FW_TILE=%d "
             "-DPF_FW_VB=%d -DPF_FW_RM=%d -DPF_FW_RN=%d -DPF_FW_KC=%d -DPF_FW_UNROLL=%d "
             "-DPF_FW_P=%d",
             kind == PF_DIST_I64 ? "long" : kind == PF_DIST_F32 ? "float" : "int",
             kind == PF_DIST_F32, paths ? 1 : 0, s->tile, s->vec, s->rows, s->cols, s->chunk,
             s->unroll, s->pivot);
}

/* Work-items of each kernel's work-group under a shape (fw_program's). */
static size_t group_items(const fw_shape *s, int k)
{
    if (k == PF_CLK_FW_PIVOT)
        return (size_t)(s->tile / s->pivot) * (size_t)(s->tile / s->pivot);
    return (size_t)(s->tile / s->cols) * (size_t)(s->tile / s->rows);
}

/* Whether kernel k can run its work-group (registers allowing). */
static int kernel_fits(pf_dev *dev, const fw_program *p, int k)
{
    size_t most = 0;
    return clGetKernelWorkGroupInfo(p->kernels[k], dev->device, CL_KERNEL_WORK_GROUP_SIZE,
                                    sizeof most, &most, NULL) != CL_SUCCESS ||
           most >= group_items(&p->shape, k);
}

/* Builds p for shape s; on NVIDIA with a register cap first (see
 * FW_NV_REGISTERS), then without it should the driver refuse the option. */
static int build_shape(pf_dev *dev, int32_t kind, int paths, const fw_shape *s, int nv,
                       fw_program *p, pf_status *st)
{
    char options[360];
    fw_options(kind, paths, s, options, sizeof options);
    p->shape = *s;
    p->capped = 0;
    if (nv) {
        size_t used = strlen(options);
        snprintf(options + used, sizeof options - used, " -cl-nv-maxrregcount=%d",
                 FW_NV_REGISTERS);
        p->capped = pf_cl_build_program(dev, pf_cl_apsp_source, pf_cl_apsp_source_len,
                                        options, fw_kernel_names, FW_KERNELS, &p->program,
                                        p->kernels, NULL) == PF_OK;
        if (p->capped)
            return PF_OK;
        options[used] = '\0';
    }
    return pf_cl_build_program(dev, pf_cl_apsp_source, pf_cl_apsp_source_len, options,
                               fw_kernel_names, FW_KERNELS, &p->program, p->kernels, st);
}

/* The program for a kind, next hops on/off and tile, built if needed. A
 * kernel that cannot run its work-group gets heavier work-items and the
 * program is built again. */
static int get_program(pf_dev *dev, int32_t kind, int paths, int32_t tile, fw_program **out,
                       pf_status *st)
{
    if (!dev->fw && !(dev->fw = pf_calloc(1, sizeof *dev->fw, st)))
        return PF_E_NOMEM;
    fw_program *p = &dev->fw->programs[kind][paths ? 1 : 0];
    *out = p;
    if (p->shape.tile == tile && p->program)
        return PF_OK;
    release_program(p);

    fw_limits lim;
    fw_shape want, s;
    int show;
    query_limits(dev, kind, &lim);
    preferred_shape(&lim, paths, &want);
    int rc = apply_tuning(&want, &show, st);
    if (rc)
        return rc;
    if (fit_shape(&lim, paths, tile, 0, 0, &want, &s) != 0) {
        char tiles[FW_TILE_MAX / 16 * 6 + 8];
        list_tiles(&lim, paths, &want, tiles, sizeof tiles);
        return pf_fail(st, PF_E_USAGE,
                       "tile %d: OpenCL device %s cannot run it for %s distances%s; tiles it "
                       "can run: %s",
                       (int)tile, dev->desc.name, kind_name(kind),
                       paths ? " with next hops" : "", tiles);
    }
    int nv = pf_cl_has_extension(dev->device, "cl_nv_compiler_options");
    int grow[FW_KERNELS] = {0, 0};
    for (int tries = 0; tries < FW_GROW_TRIES; tries++) {
        if ((rc = build_shape(dev, kind, paths, &s, nv, p, st)))
            return rc;
        int fits = 1;
        for (int k = 0; k < FW_KERNELS; k++)
            if (!kernel_fits(dev, p, k)) {
                grow[k]++;
                fits = 0;
            }
        if (fits) {
            if (show)
                fprintf(stderr,
                        "portaflow: OpenCL APSP on %s, %s%s, tile %d: vec=%d rows=%d cols=%d "
                        "chunk=%d unroll=%d pivot=%d (groups of %zu and %zu work-items)%s\n",
                        dev->desc.name, kind_name(kind), paths ? " with next hops" : "",
                        (int)tile, s.vec, s.rows, s.cols, s.chunk, s.unroll, s.pivot,
                        group_items(&s, PF_CLK_FW_PIVOT), group_items(&s, PF_CLK_FW_REST),
                        p->capped ? ", NVIDIA register cap" : "");
            return PF_OK;
        }
        release_program(p);
        if (fit_shape(&lim, paths, tile, grow[PF_CLK_FW_PIVOT], grow[PF_CLK_FW_REST], &want,
                      &s) != 0)
            break;
    }
    return pf_fail(st, PF_E_DEVICE,
                   "tile %d: the APSP kernels for %s distances need larger work-groups than "
                   "OpenCL device %s runs them with (CL_KERNEL_WORK_GROUP_SIZE)",
                   (int)tile, kind_name(kind), dev->desc.name);
}

/* ---- the step --------------------------------------------------------- */

static int check_apsp(const pf_dev_apsp *a, int32_t round, int32_t phase, pf_status *st)
{
    if (!a || !a->dist)
        return pf_fail(st, PF_E_USAGE, "fw_phase: no distance matrix");
    if (!kind_valid(a->kind))
        return pf_fail(st, PF_E_USAGE, "fw_phase: unknown distance kind %d", (int)a->kind);
    if (a->tile < FW_TILE_MIN || a->tile % 16 || a->n <= 0 || a->n % a->tile)
        return pf_fail(st, PF_E_USAGE,
                       "fw_phase: order %d is not a positive multiple of tile %d (a positive "
                       "multiple of 16)",
                       (int)a->n, (int)a->tile);
    uint64_t cells = (uint64_t)a->n * (uint64_t)a->n;
    if (a->dist->bytes / (a->kind == PF_DIST_I64 ? 8 : 4) < cells ||
        (a->next && a->next->bytes / sizeof(cl_int) < cells))
        return pf_fail(st, PF_E_USAGE, "fw_phase: buffers smaller than %d x %d", (int)a->n,
                       (int)a->n);
    if (round < 0 || round >= a->n / a->tile || phase < 1 || phase > 3)
        return pf_fail(st, PF_E_USAGE, "fw_phase: no phase %d of round %d (%d rounds)",
                       (int)phase, (int)round, (int)(a->n / a->tile));
    return PF_OK;
}

int pf_cl_fw_phase(pf_dev *dev, const pf_dev_apsp *a, int32_t round, int32_t phase,
                   pf_status *st)
{
    fw_program *p;
    int rc = check_apsp(a, round, phase, st);
    if (rc || (rc = get_program(dev, a->kind, a->next != NULL, a->tile, &p, st)))
        return rc;
    const fw_shape *s = &p->shape;
    size_t others = (size_t)(a->n / a->tile) - 1; /* tiles off the pivot, per side */
    if (phase > 1 && others == 0)
        return PF_OK; /* one tile: phase 1 did everything */

    int k = phase == 3 ? PF_CLK_FW_REST : PF_CLK_FW_PIVOT;
    size_t local[2], groups[2];
    if (k == PF_CLK_FW_PIVOT) {
        local[0] = local[1] = (size_t)(s->tile / s->pivot);
        groups[0] = phase == 1 ? 1 : 2 * others; /* row tiles, then column tiles */
        groups[1] = 1;
    } else {
        local[0] = (size_t)(s->tile / s->cols);
        local[1] = (size_t)(s->tile / s->rows);
        groups[0] = groups[1] = others;
    }
    size_t global[2] = {groups[0] * local[0], groups[1] * local[1]};
    cl_mem dist = a->dist->mem, next = a->next ? a->next->mem : NULL;
    if (k == PF_CLK_FW_PIVOT)
        rc = pf_cl_args_fw_pivot(p->kernels[k], st, dist, next, a->n, round, phase);
    else
        rc = pf_cl_args_fw_rest(p->kernels[k], st, dist, next, a->n, round);
    if (rc)
        return rc;
    cl_int err = clEnqueueNDRangeKernel(dev->queue, p->kernels[k], 2, NULL, global, local, 0,
                                        NULL, NULL);
    return err == CL_SUCCESS ? PF_OK
                             : pf_cl_fail_on(st, "clEnqueueNDRangeKernel", fw_kernel_names[k],
                                             err);
}
