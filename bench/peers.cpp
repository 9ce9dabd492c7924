// bench_peers FILE [--only NAME] [--reps K] [--no-warmup] [--once S] [--limit S]: times the
// installed CPU max-flow peers on one DIMACS max-flow file, read with
// portaflow's own reader so that every peer sees the identical network.
//
//   peer NAME value VALUE solve_s SECONDS runs K
//
// Peers (each only if its headers were found at build time):
//   boost_pr      Boost.Graph push_relabel_max_flow
//   boost_bk      Boost.Graph boykov_kolmogorov_max_flow
//   lemon_preflow LEMON Preflow (both phases: a flow, like the others)
//   maxflow_bk    libmaxflow (Boykov-Kolmogorov 3.0, Debian libmaxflow-dev)
//
// Building each peer's graph is not timed. Every peer runs once as a
// warm-up and then K times (default 3); the median of the K is printed.
// --no-warmup skips the warm-up (for slow peers on large instances);
// --once S makes a warm-up longer than S seconds the only measurement
// (runs 1). --limit S bounds each solve: past it the program prints
// "peer NAME timeout" and exits 124 (as timeout(1) does) at once.
#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <unistd.h>

#include "portaflow.h"

#ifdef PF_BENCH_BOOST
// Boost's BK header trips -Wmaybe-uninitialized inside its own iterators
// at -O3; the warning is about Boost, not this file.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/boykov_kolmogorov_max_flow.hpp>
#include <boost/graph/push_relabel_max_flow.hpp>
#endif
#ifdef PF_BENCH_LEMON
#include <lemon/preflow.h>
#include <lemon/static_graph.h>
#endif
#ifdef PF_BENCH_MAXFLOW
#include <maxflow/graph.h>
#endif

namespace {

// The network as plain arrays, self-loops dropped (they carry no flow).
struct arc_list {
    int64_t n = 0, source = 0, sink = 0;
    std::vector<int64_t> tail, head, cap;
};

double now()
{
    using clock = std::chrono::steady_clock;
    return std::chrono::duration<double>(clock::now().time_since_epoch()).count();
}

// prepare() builds (untimed), solve() runs the algorithm and returns the
// value (timed). One warm-up, then the median of three.
struct result {
    int64_t value;
    double seconds;
    int runs;
};

int g_reps = 3, g_warmup = 1;
double g_once = 0;     // a warm-up longer than this is the one measurement
unsigned g_limit = 0;  // seconds per solve, 0: none
char g_timeout_line[64];

void on_alarm(int)
{
    ssize_t ignored = write(STDOUT_FILENO, g_timeout_line, std::strlen(g_timeout_line));
    (void)ignored;
    _exit(124);
}

result measure(const char *name, const std::function<void()> &prepare,
               const std::function<int64_t()> &solve)
{
    std::snprintf(g_timeout_line, sizeof g_timeout_line, "peer %s timeout\n", name);
    std::vector<double> times;
    int64_t value = -1;
    for (int rep = 0; rep < g_reps + g_warmup; rep++) {
        prepare();
        alarm(g_limit);
        double t0 = now();
        value = solve();
        double t1 = now();
        alarm(0);
        if (rep >= g_warmup)
            times.push_back(t1 - t0);
        else if (g_once > 0 && t1 - t0 > g_once)
            return {value, t1 - t0, 1};
    }
    std::sort(times.begin(), times.end());
    return {value, times[times.size() / 2], static_cast<int>(times.size())};
}

void report(const char *name, const result &r)
{
    std::printf("peer %s value %lld solve_s %.6f runs %d\n", name,
                static_cast<long long>(r.value), r.seconds, r.runs);
    std::fflush(stdout);
}

#ifdef PF_BENCH_BOOST
typedef boost::adjacency_list_traits<boost::vecS, boost::vecS, boost::directedS> bg_traits;
typedef boost::adjacency_list<
    boost::vecS, boost::vecS, boost::directedS,
    boost::property<boost::vertex_color_t, boost::default_color_type,
        boost::property<boost::vertex_distance_t, int64_t,
            boost::property<boost::vertex_predecessor_t, bg_traits::edge_descriptor>>>,
    boost::property<boost::edge_capacity_t, int64_t,
        boost::property<boost::edge_residual_capacity_t, int64_t,
            boost::property<boost::edge_reverse_t, bg_traits::edge_descriptor>>>>
    boost_graph;

// Both Boost algorithms reset the residual capacities themselves, so one
// graph serves every run.
std::unique_ptr<boost_graph> boost_build(const arc_list &net)
{
    std::unique_ptr<boost_graph> g(new boost_graph(static_cast<size_t>(net.n)));
    auto cap = boost::get(boost::edge_capacity, *g);
    auto rev = boost::get(boost::edge_reverse, *g);
    for (size_t i = 0; i < net.tail.size(); i++) {
        bg_traits::edge_descriptor e = boost::add_edge(net.tail[i], net.head[i], *g).first;
        bg_traits::edge_descriptor r = boost::add_edge(net.head[i], net.tail[i], *g).first;
        cap[e] = net.cap[i];
        cap[r] = 0;
        rev[e] = r;
        rev[r] = e;
    }
    return g;
}

void run_boost(const arc_list &net, bool pr, bool bk)
{
    std::unique_ptr<boost_graph> g = boost_build(net);
    auto s = boost::vertex(net.source, *g), t = boost::vertex(net.sink, *g);
    if (pr)
        report("boost_pr", measure("boost_pr", [] {}, [&] {
                   return static_cast<int64_t>(boost::push_relabel_max_flow(*g, s, t));
               }));
    if (bk)
        report("boost_bk", measure("boost_bk", [] {}, [&] {
                   return static_cast<int64_t>(boost::boykov_kolmogorov_max_flow(*g, s, t));
               }));
}
#endif

#ifdef PF_BENCH_LEMON
void run_lemon(const arc_list &net)
{
    // StaticDigraph wants its arcs sorted by tail.
    std::vector<size_t> order(net.tail.size());
    for (size_t i = 0; i < order.size(); i++)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return net.tail[a] < net.tail[b]; });
    std::vector<std::pair<int, int>> arcs(order.size());
    for (size_t i = 0; i < order.size(); i++)
        arcs[i] = std::make_pair(static_cast<int>(net.tail[order[i]]),
                                 static_cast<int>(net.head[order[i]]));
    lemon::StaticDigraph g;
    g.build(static_cast<int>(net.n), arcs.begin(), arcs.end());
    lemon::StaticDigraph::ArcMap<int64_t> cap(g);
    for (size_t i = 0; i < order.size(); i++)
        cap[g.arc(static_cast<int>(i))] = net.cap[order[i]];
    typedef lemon::Preflow<lemon::StaticDigraph, lemon::StaticDigraph::ArcMap<int64_t>> preflow;
    std::unique_ptr<preflow> alg;
    report("lemon_preflow", measure("lemon_preflow",
                                [&] {
                                    alg.reset(new preflow(g, cap,
                                                          g.node(static_cast<int>(net.source)),
                                                          g.node(static_cast<int>(net.sink))));
                                },
                                [&] {
                                    alg->run();
                                    return static_cast<int64_t>(alg->flowValue());
                                }));
}
#endif

#ifdef PF_BENCH_MAXFLOW
// libmaxflow only ships int and double instances. Arcs out of the source
// and into the sink become terminal capacities; arcs into the source or out
// of the sink cannot carry flow in a maximum flow and are left out.
template <typename T> int64_t maxflow_run(const arc_list &net, result *r)
{
    typedef maxflow::Graph<T, T, T> bk_graph;
    std::unique_ptr<bk_graph> g;
    int64_t direct = 0; // arcs straight from source to sink
    auto prepare = [&] {
        g.reset(new bk_graph(static_cast<int>(net.n), static_cast<int>(net.tail.size())));
        g->add_node(static_cast<int>(net.n));
        direct = 0;
        for (size_t i = 0; i < net.tail.size(); i++) {
            int64_t u = net.tail[i], v = net.head[i];
            T c = static_cast<T>(net.cap[i]);
            if (u == net.source && v == net.sink)
                direct += net.cap[i];
            else if (u == net.source)
                g->add_tweights(static_cast<int>(v), c, 0);
            else if (v == net.sink)
                g->add_tweights(static_cast<int>(u), 0, c);
            else if (v != net.source && u != net.sink)
                g->add_edge(static_cast<int>(u), static_cast<int>(v), c, 0);
        }
    };
    *r = measure("maxflow_bk", prepare, [&] { return static_cast<int64_t>(g->maxflow()) + direct; });
    return 0;
}

void run_maxflow(const arc_list &net)
{
    // The flow is at most what leaves the source; that bounds every sum.
    int64_t out_of_source = 0, biggest = 0;
    for (size_t i = 0; i < net.tail.size(); i++) {
        biggest = std::max(biggest, net.cap[i]);
        if (net.tail[i] == net.source && out_of_source < (int64_t(1) << 62))
            out_of_source += net.cap[i];
    }
    int64_t bound = std::max(biggest, out_of_source);
    result r;
    if (bound < INT32_MAX / 2)
        maxflow_run<int>(net, &r);
    else if (bound < (int64_t(1) << 53))
        maxflow_run<double>(net, &r);
    else {
        std::fprintf(stderr, "bench_peers: maxflow_bk skipped (capacities beyond 2^53)\n");
        return;
    }
    report("maxflow_bk", r);
}
#endif

int usage()
{
    std::fprintf(stderr, "usage: bench_peers FILE [--only boost_pr|boost_bk|lemon_preflow|"
                         "maxflow_bk] [--reps K] [--no-warmup] [--once S] [--limit S]\n");
    return 1;
}

} // namespace

int main(int argc, char **argv)
{
    const char *path = nullptr, *only = nullptr;
    for (int i = 1; i < argc; i++) {
        if (!std::strcmp(argv[i], "--only") && i + 1 < argc)
            only = argv[++i];
        else if (!std::strcmp(argv[i], "--reps") && i + 1 < argc) {
            g_reps = std::atoi(argv[++i]);
            if (g_reps < 1)
                return usage();
        } else if (!std::strcmp(argv[i], "--no-warmup"))
            g_warmup = 0;
        else if (!std::strcmp(argv[i], "--once") && i + 1 < argc)
            g_once = std::atof(argv[++i]);
        else if (!std::strcmp(argv[i], "--limit") && i + 1 < argc)
            g_limit = static_cast<unsigned>(std::atoi(argv[++i]));
        else if (argv[i][0] == '-' && argv[i][1] != '\0')
            return usage();
        else if (!path)
            path = argv[i];
        else
            return usage();
    }
    if (!path)
        return usage();
    auto wanted = [&](const char *name) { return !only || !std::strcmp(only, name); };
    std::signal(SIGALRM, on_alarm);

    pf_status st;
    pf_network *pnet = pf_network_read_dimacs(path, &st);
    if (!pnet) {
        std::fprintf(stderr, "bench_peers: %s\n", st.message);
        return 2;
    }
    arc_list net;
    net.n = pf_network_vertices(pnet);
    net.source = pf_network_source(pnet);
    net.sink = pf_network_sink(pnet);
    for (int64_t i = 0; i < pf_network_arcs(pnet); i++) {
        int64_t u, v, c;
        pf_network_arc(pnet, i, &u, &v, &c);
        if (u == v)
            continue;
        net.tail.push_back(u);
        net.head.push_back(v);
        net.cap.push_back(c);
    }
    pf_network_free(pnet);

    int ran = 0;
#ifdef PF_BENCH_BOOST
    if (wanted("boost_pr") || wanted("boost_bk")) {
        run_boost(net, wanted("boost_pr"), wanted("boost_bk"));
        ran++;
    }
#endif
#ifdef PF_BENCH_LEMON
    if (wanted("lemon_preflow")) {
        run_lemon(net);
        ran++;
    }
#endif
#ifdef PF_BENCH_MAXFLOW
    if (wanted("maxflow_bk")) {
        run_maxflow(net);
        ran++;
    }
#endif
    if (!ran) {
        std::fprintf(stderr, "bench_peers: no peer %s was built\n", only ? only : "at all");
        return 1;
    }
    return 0;
}
