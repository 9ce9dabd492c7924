/* The backend registry: the compiled-in backends, their probe (cached for
 * the process), and the one selection loop every command runs: which
 * backends to try, in which order, and the fall back from one that fails
 * to open or run to the next.
 *
 * A command uses it so:
 *
 *     pf_backend_walk walk;
 *     pf_backend_walk_init(&walk, opt->backend, PF_WORK_MAXFLOW, opt->threads,
 *                          NULL, NULL);
 *     rc = pf_backend_run(&walk, try_one, &ctx, &log, st);
 *
 * pf_backend_run calls try_one(ops, ctx, st) for each candidate in turn
 * until one returns anything but PF_E_DEVICE (or none is left); only
 * `auto` falls back, and says so through the log callback. Nothing else in
 * the library chooses a backend or compares a backend's name. */
#ifndef PF_REGISTRY_H
#define PF_REGISTRY_H

#include <stddef.h>

#include "../device/device.h"
#include "log.h"

/* The compiled-in backends, best first: cuda, opencl, omp, then seq, which
 * is always there. */
int pf_backend_count(void);
const pf_device_ops *pf_backend_at(int i);
/* NULL if `name` is not compiled in. */
const pf_device_ops *pf_backend_find(const char *name);
/* pf_backend_find, or NULL with PF_E_DEVICE saying whether `name` is not
 * compiled in or not a backend at all. */
const pf_device_ops *pf_backend_require(const char *name, pf_status *st);
/* Whether a backend name is known to portaflow at all. */
int pf_backend_name_known(const char *name);

/* ops->probe, one at a time in the whole process, each backend probed once
 * per process: later calls get the first answer (a CUDA probe alone starts
 * a helper process and the driver). */
int pf_backend_probe(const pf_device_ops *ops, pf_device_desc *out, int max, char *why,
                     size_t why_len);
/* Forgets every cached probe answer: the next probe asks the backend again
 * (for tests that change what a probe sees). */
void pf_backend_probe_forget(void);

/* What the candidates must run. A new command adds its value here and
 * passes a `runs` filter saying which backends have its steps; `auto` puts
 * the parallel CPU backends before the one-thread engine for every work
 * but max-flow (see PF_AUTO_CPU_MAXFLOW_MIN_THREADS). */
typedef enum pf_work {
    PF_WORK_MAXFLOW, /* a whole solve (maxflow_solve) or the max-flow steps */
    PF_WORK_APSP,    /* Floyd-Warshall: `runs` says which variant */
    PF_WORK_GRAPH,   /* bfs, sssp, tc: the analytics steps, or the one-thread
                        engine (host algorithms, graph_seq.c) */
} pf_work;

/* `auto` for max-flow puts a parallel CPU backend before the one-thread
 * engine only from this many threads on: with 2 threads seq won 6 of the
 * suite's 10 instances, with 16 OpenMP won 9 of 10
 * (bench/results/2026-11-22-suite-2core-s9, bench/results/suite-h100). */
#define PF_AUTO_CPU_MAXFLOW_MIN_THREADS 4

typedef struct pf_backend_walk {
    char requested[16]; /* the backend asked for, or "auto" */
    int is_auto;
    pf_work work;
    /* Optional: whether a backend runs the work at all (an APSP variant). */
    int (*runs)(const pf_device_ops *ops, const void *runs_ctx);
    const void *runs_ctx;
    int threads;        /* the caller's thread count, 0 = the default */
    int stage, index;   /* where the walk is (registry.c) */
    /* Set by an attempt that must not be retried elsewhere (it has handed
     * out part of its answer already). */
    int final;
    /* The candidate taken without its probe (pf_backend_walk_unprobed):
     * its failure to open falls back without a warning, as its probe's
     * "no device" would have. */
    const pf_device_ops *unprobed;
    /* auto takes no GPU: the network is too small for one
     * (pf_backend_walk_size). */
    int skip_gpus;
    /* Stages auto passes over for the max-flow method (bit 0: GPU
     * backends, bit 1: parallel CPU backends; pf_backend_walk_method), and
     * why. */
    unsigned skip_stages;
    char why_method[160];
    char why[1024];     /* one line per backend `auto` passed over, and why */
} pf_backend_walk;

/* requested: a backend's name, or NULL, "" or "auto" for auto (then
 * PORTAFLOW_BACKEND, where set, names it instead). */
void pf_backend_walk_init(pf_backend_walk *w, const char *requested, pf_work work, int threads,
                          int (*runs)(const pf_device_ops *, const void *),
                          const void *runs_ctx);
/* The max-flow method (enum pf_maxflow_method) and whether the network
 * is shaped like a segmentation (src/common/shape.h). Boykov-Kolmogorov
 * runs on seq only: asked for, auto takes seq. On a segmentation network
 * auto keeps a GPU first (faster than seq's Boykov-Kolmogorov there) but
 * takes seq, which then runs Boykov-Kolmogorov, before a parallel CPU
 * backend's push-relabel (bench/NOTES.md 59). */
void pf_backend_walk_method(pf_backend_walk *w, int method, int segmentation);
/* The size of the work, for max-flow: auto takes no GPU for a network of
 * fewer than PORTAFLOW_GPU_MIN_VERTICES vertices. Push-relabel's
 * parallelism is the active vertices, so such a network cannot fill a GPU
 * (an H100 or H200 holds 132 x 2048 threads at once), and the GPU's start
 * and teardown at exit cost more than the CPU's whole solve
 * (bench/results/2026-11-29-h200-hybrid.md). vertices < 0: not known. */
void pf_backend_walk_size(pf_backend_walk *w, int64_t vertices);
/* The next candidate, probing lazily (once CUDA answers, OpenCL's driver
 * is never loaded); NULL when none is left. An explicit name is the only
 * candidate: NULL with PF_E_DEVICE in st when it is not compiled in. auto:
 * backends with a GPU (GPU-kind first device), then a parallel CPU backend
 * (for max-flow from PF_AUTO_CPU_MAXFLOW_MIN_THREADS threads on), then the
 * one-thread engine; each only where `runs` allows. */
const pf_device_ops *pf_backend_walk_next(pf_backend_walk *w, pf_status *st);
/* For a caller that opens the device at once and never forks (the CLI's
 * solve): `auto`'s first candidate where it is the registry's first
 * backend, runs the work and probes in a process of its own
 * (caps.probe_elsewhere: CUDA, whose probe starts the driver a second
 * time), taken without that probe; its open says whether there is a
 * device, and pf_backend_run goes on past it quietly where there is none.
 * NULL (the walk untouched) where that does not apply. */
const pf_device_ops *pf_backend_walk_unprobed(pf_backend_walk *w);
/* Whether the probe lists a GPU first for ops. */
int pf_backend_has_gpu(const pf_device_ops *ops);
/* 0 where the machine shows no GPU to programs (on Linux: no GPU device
 * node, registry.c lists them): `auto` then probes no GPU backend and
 * takes none unprobed. 1 elsewhere. */
int pf_backend_machine_shows_gpu(void);
/* Probes, on a thread of its own, the GPU backends in the order `auto`
 * tries them, until one lists a GPU. The answers are kept as
 * pf_backend_probe keeps them, so the walk that comes to them later takes
 * them, waiting for one still being asked. For a caller that reads its
 * input first (the CLI's solve): a probe that starts the driver in a
 * child process (CUDA, a tenth of a second or more) then overlaps the
 * reading instead of following it. */
void pf_backend_probe_ahead(void);
/* The same on the calling thread, passing over `tried` (a backend opened
 * without its probe that found no device): the walk's fallback then finds
 * its answers ready. */
void pf_backend_probe_after(const pf_device_ops *tried);

/* One attempt on one backend: PF_E_DEVICE lets `auto` fall back. */
typedef int (*pf_backend_attempt)(const pf_device_ops *ops, void *ctx, pf_status *st);

/* The selection loop: attempt(ops) for `first` (NULL: the walk's next
 * candidate), then, while it fails with PF_E_DEVICE under `auto` and the
 * attempt did not set w->final, for the walk's next candidates, each
 * fallback logged as "BACKEND failed (WHY); falling back to NEXT". */
int pf_backend_run(pf_backend_walk *w, const pf_device_ops *first, pf_backend_attempt attempt,
                   void *ctx, const pf_logger *log, pf_status *st);

/* `auto`'s order for a work (runs, runs_ctx as for the walk), as a line
 * ("cuda, seq"), with a line per backend it passes over saying why (for
 * `portaflow backends`). */
void pf_backend_auto_explain(pf_work work, int threads,
                             int (*runs)(const pf_device_ops *, const void *),
                             const void *runs_ctx, char *order, size_t order_len, char *why,
                             size_t why_len);

/* The CPU backend a hybrid pairs with seq where there is no GPU, or NULL. */
const char *pf_backend_cpu_partner(void);
/* The parallel CPU backend `auto` takes for max-flow with `threads`
 * threads (0: the machine's), or NULL where it would take seq: the host's
 * side of a hybrid beside a GPU. */
const pf_device_ops *pf_backend_host_team(int threads);

#endif
