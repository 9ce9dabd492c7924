/* The hybrid's efficiency model (hybrid.h): each engine's rate on the
 * current workload, the transfer time T, and He & Hong's threshold N* on
 * the number of active vertices above which the device pays. */
#include <math.h>

#include "hybrid.h"

void pf_hybrid_model_init(pf_hybrid_model *m, int64_t start_threshold)
{
    *m = (pf_hybrid_model){.smooth = 0.5, .start_threshold = start_threshold};
}

static double blend(double old, double now, double weight)
{
    return old > 0 ? (1 - weight) * old + weight * now : now;
}

void pf_hybrid_model_host(pf_hybrid_model *m, int64_t discharges, double seconds)
{
    if (discharges > 0 && seconds > 0)
        m->c_host = blend(m->c_host, (double)discharges / seconds, m->smooth);
}

/* One stretch: `rounds` rounds over `listed` vertices in all. The mean
 * round is y = latency + x / throughput with x its mean list size. A round
 * whose vertices cost less than the latency says little about the
 * throughput: it updates the latency (throughput kept); the others update
 * the throughput (latency kept). The first stretch sets the throughput. */
void pf_hybrid_model_device(pf_hybrid_model *m, int64_t rounds, int64_t listed, double seconds)
{
    if (rounds <= 0 || listed <= 0 || seconds <= 0)
        return;
    double x = (double)listed / (double)rounds, y = seconds / (double)rounds;
    double lat = m->dev_latency;
    if (m->dev_throughput > 0 && x / m->dev_throughput < lat) {
        double fit = y - x / m->dev_throughput;
        m->dev_latency = blend(lat, fit > 0 ? fit : y / 2, m->smooth);
        return;
    }
    /* Past the latency: what the vertices themselves cost. A round no
     * slower than the latency alone means the latency guess is high. */
    double busy = y - lat;
    if (busy <= y * 0.1) {
        m->dev_latency = y / 2;
        busy = y / 2;
    }
    m->dev_throughput = blend(m->dev_throughput, x / busy, m->smooth);
}

void pf_hybrid_model_transfer(pf_hybrid_model *m, double seconds)
{
    if (seconds > 0)
        m->transfer = blend(m->transfer, seconds, m->smooth);
}

double pf_hybrid_model_c_dev(const pf_hybrid_model *m, int64_t active)
{
    if (m->dev_throughput <= 0 || active <= 0)
        return 0;
    double n = (double)active;
    return n / (m->dev_latency + n / m->dev_throughput);
}

double pf_hybrid_model_threshold(const pf_hybrid_model *m, int64_t active)
{
    double c_dev = pf_hybrid_model_c_dev(m, active), c_host = m->c_host;
    if (c_dev <= 0 || c_host <= 0)
        return (double)m->start_threshold;
    if (c_dev <= c_host)
        return INFINITY;
    return m->transfer * c_dev * c_host / (c_dev - c_host);
}
