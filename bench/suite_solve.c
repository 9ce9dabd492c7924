/* bench_solve: times one portaflow backend on one DIMACS file for the
 * benchmark suite (bench/suite.sh), all runs in one process so that the
 * warm-up warms what a process can (driver load, CUDA/OpenCL start-up,
 * kernel binary caches, page faults).
 *
 * Usage: bench_solve FILE --backend B [--device I] [--threads T] [--reps K]
 *                    [--once S] [--limit S]
 *
 * One warm-up solve, then K timed ones (default 3); every solve computes a
 * full flow and a cut (as the peers do) and every answer is verified with
 * the certificate checker (outside the timed part). If the warm-up's solve
 * time is above --once S, the warm-up is the only measurement (runs 1): on
 * solves that long, what a warm-up warms is noise, and the suite's time on
 * the GPU machine is scarce. --limit S bounds each solve (wall clock, warm-up
 * included): past it the process prints "timeout" and exits 124, as
 * timeout(1) does, without waiting for the solve. Prints:
 *
 *   file PATH vertices N arcs M read_s R
 *   run I value V solve_s T upload_s U ...      (I = 0: the warm-up)
 *   result value V runs K solve_s MEDIAN upload_s ... times T1;T2;T3 device NAME
 *
 * The result's phase times are those of the median run. solve_s is
 * pf_solution.times.total: residual-graph build, device open, upload, both
 * phases, download; file parsing excluded. Exit: 0 ok, 1 usage, 2 input,
 * 3 solve failed, 5 verification failed, 124 timeout. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/timer.h"
#include "portaflow.h"

#define MAX_REPS 63

static void on_alarm(int sig)
{
    (void)sig;
    static const char msg[] = "timeout\n";
    ssize_t ignored = write(STDOUT_FILENO, msg, sizeof msg - 1);
    (void)ignored;
    _exit(124);
}

static int usage(void)
{
    fprintf(stderr, "usage: bench_solve FILE --backend seq|omp|opencl|cuda [--device I] "
                    "[--threads T] [--reps 1..%d] [--once S] [--limit S]\n",
            MAX_REPS);
    return 1;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void print_phases(const pf_solution *sol)
{
    const pf_phase_times *t = &sol->times;
    printf("value %lld solve_s %.6f upload_s %.6f setup_s %.6f push_relabel_s %.6f "
           "global_relabel_s %.6f phase2_s %.6f download_s %.6f rounds %lld global_relabels "
           "%lld host_pushes %lld device_bytes %llu",
           (long long)sol->value, t->total, t->upload, t->setup, t->push_relabel,
           t->global_relabel, t->phase2, t->download, (long long)sol->pushes_rounds,
           (long long)sol->global_relabels, (long long)sol->host_pushes,
           (unsigned long long)sol->device_bytes);
}

/* One solve under the alarm, verified. 0, or the exit status to return. */
static int solve_once(const pf_network *net, const pf_solve_options *opt, unsigned limit,
                      pf_solution *sol)
{
    pf_status st;
    alarm(limit);
    if (pf_solve(net, opt, sol, &st)) {
        alarm(0);
        printf("failed %s\n", st.message);
        return 3;
    }
    int bad = pf_verify(net, sol->value, sol->arc_flow, sol->source_side, &st);
    alarm(0);
    if (bad) {
        printf("failed verification: %s\n", st.message);
        pf_solution_free(sol);
        return 5;
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *path = NULL;
    pf_solve_options opt;
    pf_solve_options_init(&opt);
    int reps = 3;
    double once = 0;
    long limit = 0;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        int more = i + 1 < argc;
        if (!strcmp(arg, "--backend") && more)
            opt.backend = argv[++i];
        else if (!strcmp(arg, "--device") && more)
            opt.device_index = atoi(argv[++i]);
        else if (!strcmp(arg, "--threads") && more)
            opt.threads = atoi(argv[++i]);
        else if (!strcmp(arg, "--reps") && more)
            reps = atoi(argv[++i]);
        else if (!strcmp(arg, "--once") && more)
            once = atof(argv[++i]);
        else if (!strcmp(arg, "--limit") && more)
            limit = atol(argv[++i]);
        else if (arg[0] == '-' && arg[1] != '\0')
            return usage();
        else if (!path)
            path = arg;
        else
            return usage();
    }
    if (!path || !opt.backend || reps < 1 || reps > MAX_REPS || limit < 0)
        return usage();
    opt.want_flow = opt.want_cut = 1;
    signal(SIGALRM, on_alarm);
    setvbuf(stdout, NULL, _IOLBF, 0);

    pf_status st;
    double t0 = pf_now();
    pf_network *net = pf_network_read(path, &st);
    if (!net) {
        fprintf(stderr, "bench_solve: %s\n", st.message);
        return 2;
    }
    printf("file %s vertices %lld arcs %lld read_s %.6f\n", path,
           (long long)pf_network_vertices(net), (long long)pf_network_arcs(net), pf_now() - t0);

    pf_solution runs[MAX_REPS + 1];
    double totals[MAX_REPS];
    int timed = 0, rc = 0;
    for (int r = 0; r <= reps; r++) {
        pf_solution *sol = &runs[timed];
        if ((rc = solve_once(net, &opt, (unsigned)limit, sol)))
            break;
        printf("run %d ", r);
        print_phases(sol);
        printf("\n");
        if (r == 0 && !(once > 0 && sol->times.total > once)) {
            pf_solution_free(sol); /* an ordinary warm-up: not measured */
            continue;
        }
        if (timed && sol->value != runs[0].value) {
            printf("failed value %lld in run %d, %lld before\n", (long long)sol->value, r,
                   (long long)runs[0].value);
            rc = 5;
            timed++;
            break;
        }
        totals[timed++] = sol->times.total;
        if (r == 0) /* a warm-up past --once: the one measurement */
            break;
    }
    if (!rc) {
        double sorted[MAX_REPS];
        memcpy(sorted, totals, sizeof(double) * (size_t)timed);
        qsort(sorted, (size_t)timed, sizeof(double), cmp_double);
        double median = sorted[(timed - 1) / 2];
        int pick = 0;
        while (totals[pick] != median)
            pick++;
        printf("result runs %d ", timed);
        print_phases(&runs[pick]);
        printf(" times ");
        for (int i = 0; i < timed; i++)
            printf(i ? ";%.6f" : "%.6f", totals[i]);
        printf(" device %s\n", runs[pick].device);
    }
    for (int i = 0; i < timed; i++)
        pf_solution_free(&runs[i]);
    pf_network_free(net);
    return rc;
}
