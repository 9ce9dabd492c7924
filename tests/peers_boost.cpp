// Reference max-flow values from Boost.Graph's push_relabel_max_flow, for
// cross-checking the engines in tests. Built only when the Boost headers
// are found (PF_PEER_BOOST); C++, linked into the tests only.
#include <cstdint>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/push_relabel_max_flow.hpp>

#include "support.h"

namespace {

typedef boost::adjacency_list_traits<boost::vecS, boost::vecS, boost::directedS> traits;
typedef boost::adjacency_list<
    boost::vecS, boost::vecS, boost::directedS, boost::no_property,
    boost::property<boost::edge_capacity_t, int64_t,
        boost::property<boost::edge_residual_capacity_t, int64_t,
            boost::property<boost::edge_reverse_t, traits::edge_descriptor>>>>
    graph;

} // namespace

extern "C" int64_t pf_peer_boost_value(const pf_network *net)
{
    try {
        const int64_t n = pf_network_vertices(net), m = pf_network_arcs(net);
        graph g(static_cast<size_t>(n));
        auto cap = boost::get(boost::edge_capacity, g);
        auto rev = boost::get(boost::edge_reverse, g);
        for (int64_t i = 0; i < m; i++) {
            int64_t u, v, c;
            pf_network_arc(net, i, &u, &v, &c);
            if (u == v)
                continue; // a self-loop carries no flow
            // Boost wants every edge paired with an explicit reverse edge.
            traits::edge_descriptor e = boost::add_edge(u, v, g).first;
            traits::edge_descriptor r = boost::add_edge(v, u, g).first;
            cap[e] = c;
            cap[r] = 0;
            rev[e] = r;
            rev[r] = e;
        }
        return boost::push_relabel_max_flow(g, pf_network_source(net), pf_network_sink(net));
    } catch (...) {
        return -1;
    }
}
