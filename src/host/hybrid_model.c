/* The hybrid's efficiency model (hybrid.h): each engine's rate of
 * progress on the current workload, the transfer time T, and He & Hong's
 * threshold (their Eq. 3) above which moving the state to the other
 * engine pays. */
#include <math.h>

#include "hybrid.h"

void pf_hybrid_model_init(pf_hybrid_model *m, int64_t start_active)
{
    *m = (pf_hybrid_model){.smooth = 0.5, .start_active = start_active};
}

static double blend(int measured, double old, double now, double weight)
{
    return measured ? (1 - weight) * old + weight * now : now;
}

/* ln(1 + excess): the progress scale (hybrid.h). */
static double level(int64_t excess) { return log1p(excess > 0 ? (double)excess : 0); }

/* The drop in L since the last stretch ended (whichever engine ran it), so
 * that a stretch is credited with what its global relabel cut off too;
 * the first stretch measured starts from its own relabelled state
 * (excess_before; -1: unknown, no drop counted). */
static double drop_to(pf_hybrid_model *m, int64_t excess_before, int64_t excess_after)
{
    if (!m->level_known)
        m->level = level(excess_before >= 0 ? excess_before : excess_after);
    double drop = m->level - level(excess_after);
    m->level = level(excess_after);
    m->level_known = 1;
    return drop > 0 ? drop : 0;
}

/* A rate as the ratio of two decaying sums (progress, and seconds or
 * vertices): excess drains in lumps (many stretches move it between
 * vertices, one delivers it), which a ratio of sums rides out where an
 * average of per-stretch rates would swing between 0 and spikes. */
static void accumulate(double *progress, double *effort, double drop, double spent, double keep)
{
    *progress = keep * *progress + drop;
    *effort = keep * *effort + spent;
}

void pf_hybrid_model_host(pf_hybrid_model *m, int64_t excess_before, int64_t excess_after,
                          double seconds)
{
    if (seconds <= 0 || excess_before < 0 || excess_after < 0)
        return;
    accumulate(&m->host_progress, &m->host_seconds, drop_to(m, excess_before, excess_after),
               seconds, 1 - m->smooth);
    m->host_rate = m->host_progress / m->host_seconds;
    m->host_measured = 1;
}

/* The device's round costs latency + x / throughput for a list of x
 * vertices. A round whose vertices cost less than the latency says little
 * about the throughput: it updates the latency (throughput kept); the
 * others update the throughput (latency kept). */
static void fit_rounds(pf_hybrid_model *m, double x, double y)
{
    double lat = m->dev_latency;
    if (m->dev_throughput > 0 && x / m->dev_throughput < lat) {
        double fit = y - x / m->dev_throughput;
        m->dev_latency = blend(1, lat, fit > 0 ? fit : y / 2, m->smooth);
        return;
    }
    /* Past the latency: what the vertices themselves cost. A round no
     * slower than the latency alone means the latency guess is high. */
    double busy = y - lat;
    if (busy <= y * 0.1) {
        m->dev_latency = y / 2;
        busy = y / 2;
    }
    m->dev_throughput = blend(m->dev_throughput > 0, m->dev_throughput, x / busy, m->smooth);
}

void pf_hybrid_model_device(pf_hybrid_model *m, int64_t rounds, int64_t listed,
                            int64_t excess_after, double seconds)
{
    if (rounds <= 0 || listed <= 0 || seconds <= 0)
        return;
    fit_rounds(m, (double)listed / (double)rounds, seconds / (double)rounds);
    if (excess_after < 0) {
        m->dev_unmeasurable = 1; /* the backend cannot sum its excess */
        m->level_known = 0;
        return;
    }
    accumulate(&m->dev_progress, &m->dev_listed, drop_to(m, -1, excess_after),
               (double)listed, 1 - m->smooth);
    m->dev_per_listed = m->dev_progress / m->dev_listed;
    m->dev_measured = 1;
}

void pf_hybrid_model_transfer(pf_hybrid_model *m, double seconds)
{
    if (seconds > 0)
        m->transfer = blend(m->transfer > 0, m->transfer, seconds, m->smooth);
}

double pf_hybrid_model_dev_rate(const pf_hybrid_model *m, int64_t active)
{
    if (!m->dev_measured || m->dev_throughput <= 0 || active <= 0)
        return 0;
    double n = (double)active;
    return m->dev_per_listed * n / (m->dev_latency + n / m->dev_throughput);
}

/* Eq. 3 on the progress scale: the level L* above which an engine of rate
 * `faster` gains `cost` seconds over one of rate `slower`. As excess. */
static double threshold(double cost, double faster, double slower)
{
    if (faster <= slower)
        return INFINITY;
    return expm1(cost * faster * slower / (faster - slower));
}

int pf_hybrid_model_to_device(const pf_hybrid_model *m, int64_t active, int64_t excess,
                              double *at)
{
    double round_trip = 2 * m->transfer;
    if (!m->dev_measured && !m->dev_unmeasurable) {
        /* He & Hong start with a small threshold: try the device once the
         * host has enough active vertices and more left to do than the
         * state's round trip costs. */
        *at = (double)m->start_active;
        int long_left = m->host_rate <= 0 || level(excess) / m->host_rate > round_trip;
        return active >= m->start_active && long_left;
    }
    if (m->dev_unmeasurable) { /* no rate to compare: the device's rounds decide */
        *at = (double)m->start_active;
        return active >= m->start_active;
    }
    *at = m->host_rate > 0
              ? threshold(round_trip, pf_hybrid_model_dev_rate(m, active), m->host_rate)
              : 0;
    return (double)excess > *at;
}

int pf_hybrid_model_to_host(const pf_hybrid_model *m, int64_t active, int64_t excess,
                            double *at)
{
    *at = INFINITY;
    if (!m->host_measured || !m->dev_measured)
        return 0;
    /* Rounds whose vertices cost more than the latency are the device at
     * its best; its rate there is compared with the host's only by
     * measurements of different stages, which drained excess in lumps
     * (RMF: tens of stretches without a drop, then one): leave it be. */
    if (m->dev_throughput > 0 && (double)active / m->dev_throughput > m->dev_latency)
        return 0;
    /* The state comes back to the host at the end anyway: a switch costs
     * no transfer overall, but one T is asked of it so that rates equal
     * within noise do not make the state bounce. */
    *at = threshold(m->transfer, m->host_rate, pf_hybrid_model_dev_rate(m, active));
    return (double)excess > *at;
}
