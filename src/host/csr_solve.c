/* pf_solve_csr_flow (portaflow.h): the maximum flow of a CSR capacity
 * matrix read in place, with the flow matrix scipy.sparse.csgraph
 * returns. Its structure is read off the residual graph the solve builds
 * (csr_flow.h) on a thread beside the engine, from the engine's start
 * (after the solve, on every core, where the engine keeps them all busy);
 * its values come after the engine, before the residual graph goes.
 * Where the device builds the residual graph itself, it makes the matrix
 * too (device.h: flow_matrix). Where the lists cannot give it (some
 * repeats under measuring arc orders, a network solved as a compact copy,
 * a graph built on a device that could not make it), the matrix comes
 * from the input and its transpose (pf_csr_flow_plan: beside the solve
 * too, where it can) and the arc flows. */
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../common/omp_threads.h"

#include "../common/network.h"
#include "../common/status.h"
#include "../common/timer.h"
#include "csr_flow.h"
#include "engine.h"
#include "solve_hooks.h"

/* What a job's structure is, so far. */
enum structure_kind {
    STRUCTURE_NONE,  /* not made (or dropped with the graph it was read from) */
    STRUCTURE_LISTS, /* job->lists, from the residual lists */
    STRUCTURE_PLAN,  /* job->plan, from the input */
    STRUCTURE_FAILED /* job->rc, job->why */
};

typedef struct csr_flow_job {
    int64_t n;
    const void *indptr, *indices;
    int index_size, repeats;
    int threads; /* the caller's opt->threads (0: OpenMP's default) */

    /* The builder beside the engine. */
    pthread_t thread;
    int running, threads_beside;
    int abandon; /* set (atomically) when the graph it reads goes */
    const pf_residual *g;

    int kind; /* enum structure_kind */
    int rc;
    pf_status why;
    pf_residual_flow lists;
    pf_csr_flow_plan *plan;

    pf_csr_matrix matrix; /* from the lists or the device, once solved */
    pf_matrix_request request; /* the device's matrix, where it builds the graph */
    double t_solved;      /* when the solve's engine ended (0: no hook came) */
    pf_csr_flow_times times;
} csr_flow_job;

/* The structure from g's lists, else from the input, on `threads`. */
static void make_structure(csr_flow_job *job, const pf_residual *g, int threads)
{
    double t0 = pf_now();
    int rc = pf_residual_flow_structure(g, job->indptr, job->indices, job->index_size,
                                        job->repeats, threads, &job->abandon, &job->lists,
                                        &job->why);
    if (rc == PF_RESIDUAL_FLOW_CANNOT) {
        job->plan = pf_csr_flow_plan_new(job->n, job->indptr, job->indices, job->index_size,
                                         job->repeats, &job->why);
        rc = job->plan ? PF_OK : job->why.code;
        job->kind = job->plan ? STRUCTURE_PLAN : STRUCTURE_FAILED;
    } else {
        job->kind = rc == PF_OK ? STRUCTURE_LISTS : STRUCTURE_FAILED;
    }
    job->rc = rc;
    job->times.structure += pf_now() - t0;
}

static void *structure_beside(void *arg)
{
    csr_flow_job *job = arg;
#ifdef _OPENMP
    /* This thread's own setting, for the transpose path's passes. */
    omp_set_num_threads(job->threads_beside);
#endif
    make_structure(job, job->g, job->threads_beside);
    return NULL;
}

/* The engine starts: the structure on all cores but one (seq's, or the
 * one that drives a device; opt->threads, where set, counts as the
 * cores), unless the engine takes them all. */
static void on_engine_start(void *data, const pf_residual *g, int host_busy)
{
    csr_flow_job *job = data;
    if (!g)
        return; /* the device makes the matrix where it can; else the plan after */
    int cores = pf_resolve_threads(job->threads);
    if (job->running || job->kind != STRUCTURE_NONE || host_busy || cores < 2)
        return;
    job->g = g;
    job->threads_beside = cores - 1;
    __atomic_store_n(&job->abandon, 0, __ATOMIC_RELAXED);
    job->running = pthread_create(&job->thread, NULL, structure_beside, job) == 0;
    job->times.beside = job->running;
}

static void join_builder(csr_flow_job *job)
{
    if (job->running)
        pthread_join(job->thread, NULL);
    job->running = 0;
}

/* The graph goes (freed, or rebuilt for another engine): the builder
 * stops, and a structure read from it goes too, but for the input's. */
static void on_release(void *data, const pf_residual *g)
{
    (void)g;
    csr_flow_job *job = data;
    if (job->running)
        __atomic_store_n(&job->abandon, 1, __ATOMIC_RELAXED);
    join_builder(job);
    if (job->kind == STRUCTURE_LISTS || job->kind == STRUCTURE_FAILED) {
        pf_residual_flow_free(&job->lists);
        job->kind = STRUCTURE_NONE;
    }
}

/* The solve succeeded: the structure (waited for, or made now), and the
 * values from the residuals. */
static int on_solved(void *data, const pf_residual *g, const int64_t *res, pf_status *st)
{
    csr_flow_job *job = data;
    job->t_solved = pf_now();
    join_builder(job);
    if (job->kind == STRUCTURE_NONE) {
        job->times.beside = 0;
        make_structure(job, g, job->threads);
    }
    if (job->kind == STRUCTURE_FAILED) {
        *st = job->why;
        return job->rc;
    }
    if (job->kind != STRUCTURE_LISTS)
        return PF_OK; /* the plan's matrix comes from arc_flow, after */
    int rc = pf_residual_flow_values(&job->lists, g, res, &job->matrix, st);
    pf_residual_flow_free(&job->lists);
    job->kind = STRUCTURE_NONE;
    job->times.from_residual = rc == PF_OK;
    return rc;
}

/* The matrix from the input's plan and the arc flows, where the lists
 * did not give it. */
static int matrix_from_plan(csr_flow_job *job, const int64_t *arc_flow, pf_status *st)
{
    if (!job->plan) {
        double t0 = pf_now();
        job->plan = pf_csr_flow_plan_new(job->n, job->indptr, job->indices, job->index_size,
                                         job->repeats, st);
        job->times.structure += pf_now() - t0;
        if (!job->plan)
            return st->code;
    }
    return pf_csr_flow_plan_matrix(job->plan, arc_flow, &job->matrix, st);
}

/* The solution the caller's struct holds (solution_size bytes of it). */
static void hand_over(pf_solution *full, pf_solution *sol, size_t solution_size)
{
    if (solution_size >= sizeof *sol) {
        *sol = *full;
        return;
    }
    memcpy(sol, full, solution_size);
    if (solution_size < offsetof(pf_solution, switches) + sizeof full->switches)
        free(full->switches); /* a field the caller cannot free */
}

static void hand_times(const pf_csr_flow_times *full, pf_csr_flow_times *times)
{
    if (!times || times->struct_size < sizeof times->struct_size)
        return;
    size_t size = times->struct_size < sizeof *full ? times->struct_size : sizeof *full;
    memcpy((char *)times + sizeof times->struct_size, (const char *)full + sizeof full->struct_size,
           size - sizeof full->struct_size);
}

static int solve_job(csr_flow_job *job, const pf_network *net, const pf_solve_options *opt,
                     pf_solution *sol, pf_status *st)
{
    pf_solve_hooks hooks = {.engine_start = on_engine_start, .solved = on_solved,
                            .release = on_release, .data = job, .matrix = &job->request};
    int rc = pf_solve_hooked(net, opt, sol, &hooks, st);
    if (!rc && job->request.made) { /* read off the residual graph, on the device */
        job->matrix = job->request.matrix;
        job->t_solved = pf_now();
        job->times.from_residual = 1;
    } else
        pf_csr_matrix_free(&job->request.matrix);
    if (rc)
        return rc;
    if (!job->matrix.indptr) { /* no hook came (a compact copy), or the plan's turn */
        double t0 = job->t_solved > 0 ? job->t_solved : pf_now();
        rc = matrix_from_plan(job, sol->arc_flow, st);
        job->t_solved = t0;
    }
    job->times.after_solve = pf_now() - job->t_solved;
    return rc;
}

int pf_solve_csr_flow_sized(int64_t vertices, int64_t source, int64_t sink, const void *indptr,
                            const void *indices, int index_size, const void *capacities,
                            int capacity_size, int repeats, const pf_solve_options *opt_in,
                            pf_solution *sol, size_t solution_size, pf_csr_matrix *flow,
                            pf_csr_flow_times *times, pf_status *st)
{
    memset(flow, 0, sizeof *flow);
    memset(sol, 0, solution_size < sizeof *sol ? solution_size : sizeof *sol);
    if (repeats != PF_CSR_SUM_REPEATS && repeats != PF_CSR_KEEP_REPEATS)
        return pf_fail(st, PF_E_USAGE,
                       "repeats %d: must be PF_CSR_SUM_REPEATS or PF_CSR_KEEP_REPEATS", repeats);
    csr_flow_job job = {.n = vertices, .indptr = indptr, .indices = indices,
                        .index_size = index_size, .repeats = repeats};
    job.request = (pf_matrix_request){.repeats = repeats,
                                      .flows_wanted = opt_in && opt_in->want_flow};
    double t0 = pf_now();
    pf_network *net = pf_network_view_csr(vertices, source, sink, indptr, indices, index_size,
                                          capacities, capacity_size, st);
    job.times.network = pf_now() - t0;
    if (!net)
        return st->code;
    pf_solve_options opt;
    pf_solve_options_copy(opt_in, &opt);
    opt.want_flow = 1; /* the values need the residuals of a flow */
    job.threads = opt.threads;
    pf_solution full;
    int rc = solve_job(&job, net, &opt, &full, st);
    pf_network_free(net);
    pf_csr_flow_plan_free(job.plan);
    if (rc) {
        pf_csr_matrix_free(&job.matrix);
        pf_solution_free(&full);
        return rc;
    }
    if (!opt_in || !opt_in->want_flow)
        PF_FREE_NULL(full.arc_flow);
    *flow = job.matrix;
    hand_over(&full, sol, solution_size);
    hand_times(&job.times, times);
    pf_status_ok(st);
    return PF_OK;
}
