// Reference max-flow values from LEMON's Preflow, for cross-checking the
// engines in tests. Built only when pkg-config finds `lemon`
// (PF_PEER_LEMON); C++, linked into the tests only.
#include <cstdint>
#include <vector>

#include <lemon/preflow.h>
#include <lemon/static_graph.h>

#include "support.h"

extern "C" int64_t pf_peer_lemon_value(const pf_network *net)
{
    try {
        const int64_t n = pf_network_vertices(net), m = pf_network_arcs(net);
        // StaticDigraph::build wants arcs sorted by tail; counting sort them.
        std::vector<int64_t> start(static_cast<size_t>(n) + 1, 0);
        for (int64_t i = 0; i < m; i++) {
            int64_t u, v, c;
            pf_network_arc(net, i, &u, &v, &c);
            if (u != v)
                start[static_cast<size_t>(u) + 1]++;
        }
        for (int64_t u = 0; u < n; u++)
            start[static_cast<size_t>(u) + 1] += start[static_cast<size_t>(u)];
        std::vector<std::pair<int, int>> arcs(static_cast<size_t>(start[static_cast<size_t>(n)]));
        std::vector<int64_t> caps(arcs.size());
        for (int64_t i = 0; i < m; i++) {
            int64_t u, v, c;
            pf_network_arc(net, i, &u, &v, &c);
            if (u == v)
                continue; // a self-loop carries no flow
            size_t at = static_cast<size_t>(start[static_cast<size_t>(u)]++);
            arcs[at] = std::make_pair(static_cast<int>(u), static_cast<int>(v));
            caps[at] = c;
        }
        lemon::StaticDigraph g;
        g.build(static_cast<int>(n), arcs.begin(), arcs.end());
        lemon::StaticDigraph::ArcMap<int64_t> cap(g);
        for (size_t i = 0; i < arcs.size(); i++)
            cap[g.arc(static_cast<int>(i))] = caps[i];
        lemon::Preflow<lemon::StaticDigraph, lemon::StaticDigraph::ArcMap<int64_t>> preflow(
            g, cap, g.node(static_cast<int>(pf_network_source(net))),
            g.node(static_cast<int>(pf_network_sink(net))));
        preflow.runMinCut(); // phase 1 is enough for the value
        return preflow.flowValue();
    } catch (...) {
        return -1;
    }
}
