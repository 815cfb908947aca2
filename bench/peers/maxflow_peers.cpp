// Solves the flow networks --remat-mincut writes (dump-network=FILE, DIMACS max-flow
// format) with remat's own solver (lib/analysis/flow_network.c, augmenting paths with two search
// trees) and three peers: Boost.Graph's Boykov-Kolmogorov and push-relabel, and LEMON's
// Preflow. Prints per network the max-flow value of each (they must agree: exit 1
// otherwise) and, per solver, the median over --runs freshly built graphs of the first
// solve ("cold") and the median of --runs further solves on one graph ("warm"); graph
// construction is not timed.
//
// Boost's push-relabel checks flow conservation with exact comparisons (it asserts on
// doubles), so the peers get integer capacities: the file's capacities times the
// smallest power of ten that makes them all integers (bytes are integers; scalars weigh
// bytes x 0.1). remat's solver gets the file's doubles; its value is compared after the
// same scaling.
//
// Usage: maxflow_peers [--runs N] FILE...   (default 5)   (a FILE may hold several networks, one per
// `p max` line, as --remat-mincut writes one per joint function).
//
// This is the peers' code, built by bench/peers/run.sh (g++ with Boost and LEMON
// headers); the tests never run it.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/boykov_kolmogorov_max_flow.hpp>
#include <boost/graph/push_relabel_max_flow.hpp>
#include <lemon/preflow.h>
#include <lemon/smart_graph.h>

extern "C" {
#include "flow_network.h"
}

namespace {

struct Network {
  std::string name;
  size_t nodes = 0, source = 0, sink = 0;
  std::vector<size_t> from, to;  // 0-based
  std::vector<double> cap;
  std::vector<long long> icap;   // cap * scale
  double scale = 1;
  double infinite = -1;          // the stand-in for FLOW_INFINITY (a `c` line), or -1
};

// The smallest 10^k (k <= 6) that makes every capacity an integer; false if none does.
bool integer_capacities(Network &g) {
  for (int k = 0; k <= 6; k++) {
    double scale = std::pow(10.0, k);
    bool ok = true;
    for (double c : g.cap) {
      double x = c * scale;
      if (std::fabs(x - std::nearbyint(x)) > 1e-6 * std::max(1.0, std::fabs(x)) || x > 9e15) {
        ok = false;
        break;
      }
    }
    if (ok) {
      g.scale = scale;
      g.icap.clear();
      for (double c : g.cap)
        g.icap.push_back((long long)std::nearbyint(c * scale));
      return true;
    }
  }
  return false;
}

// Reads every problem of a DIMACS max-flow file. A `c function @name` line names the
// network that follows.
bool read_dimacs(const char *path, std::vector<Network> &out) {
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "maxflow_peers: error: cannot read '%s'\n", path);
    return false;
  }
  std::string stem = path, line, pending;
  double pending_infinite = -1;
  stem = stem.substr(stem.find_last_of('/') + 1);
  stem = stem.substr(0, stem.find('.'));
  Network *cur = nullptr;
  size_t lineno = 0;
  while (std::getline(in, line)) {
    lineno++;
    if (line.empty())
      continue;
    std::istringstream ls(line);
    char kind;
    ls >> kind;
    if (kind == 'c') {
      std::string word, fn;
      if (ls >> word >> fn && word == "function")
        pending = fn;
      else if (word == "infinite" && fn == "capacity" && ls >> word >> fn && fn == "as")
        ls >> pending_infinite;
    } else if (kind == 'p') {
      std::string what;
      size_t n, m;
      if (!(ls >> what >> n >> m) || what != "max") {
        std::fprintf(stderr, "%s:%zu: error: expected 'p max NODES ARCS'\n", path, lineno);
        return false;
      }
      out.emplace_back();
      cur = &out.back();
      cur->name = stem + (pending.empty() ? "" : ":" + pending);
      cur->infinite = pending_infinite;
      pending_infinite = -1;
      cur->nodes = n;
      cur->from.reserve(m);
      cur->to.reserve(m);
      cur->cap.reserve(m);
    } else if (kind == 'n' && cur) {
      size_t v;
      char which;
      ls >> v >> which;
      (which == 's' ? cur->source : cur->sink) = v - 1;
    } else if (kind == 'a' && cur) {
      size_t u, v;
      double c;
      if (!(ls >> u >> v >> c) || u < 1 || v < 1 || u > cur->nodes || v > cur->nodes) {
        std::fprintf(stderr, "%s:%zu: error: bad arc line\n", path, lineno);
        return false;
      }
      cur->from.push_back(u - 1);
      cur->to.push_back(v - 1);
      cur->cap.push_back(c);
    } else {
      std::fprintf(stderr, "%s:%zu: error: unexpected line\n", path, lineno);
      return false;
    }
  }
  return true;
}

double now_s() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

struct Result {
  double value;
  double cold;  // median of first solves, each on a freshly built graph
  double warm;  // median of the solves after the first on one graph
};

// RUNS times: build a graph (make(), not timed) and time its first solve; then RUNS more
// solves on the last graph. solve(graph) returns the flow value.
template <class Make, class Solve>
Result timed(int runs, Make make, Solve solve) {
  std::vector<double> cold, warm;
  double value = 0;
  for (int r = 0; r < runs; r++) {
    auto g = make();
    double t0 = now_s();
    value = solve(*g);
    cold.push_back(now_s() - t0);
    if (r == runs - 1)
      for (int w = 0; w < runs; w++) {
        t0 = now_s();
        value = solve(*g);
        warm.push_back(now_s() - t0);
      }
  }
  return {value, median(cold), median(warm)};
}

struct RematNet {
  flow_network *net;
  explicit RematNet(const Network &g) : net(flow_network_create(g.nodes)) {
    for (size_t e = 0; e < g.cap.size(); e++)
      flow_network_add_edge(net, g.from[e], g.to[e], g.cap[e]);
  }
  ~RematNet() { flow_network_destroy(net); }
};

Result run_remat(const Network &g, int runs) {
  return timed(
      runs, [&] { return std::make_unique<RematNet>(g); },
      [&](RematNet &r) { return flow_network_max_flow(r.net, g.source, g.sink); });
}

// Boost: one graph type for both algorithms (the documented interior-property setup:
// each arc with its reverse of capacity 0).
using Traits = boost::adjacency_list_traits<boost::vecS, boost::vecS, boost::directedS>;
using BGraph = boost::adjacency_list<
    boost::vecS, boost::vecS, boost::directedS,
    // vecS vertices: the vertex index is built in
    boost::property<boost::vertex_color_t, boost::default_color_type,
                    boost::property<boost::vertex_distance_t, long,
                                    boost::property<boost::vertex_predecessor_t,
                                                    Traits::edge_descriptor>>>,
    boost::property<boost::edge_capacity_t, long long,
                    boost::property<boost::edge_residual_capacity_t, long long,
                                    boost::property<boost::edge_reverse_t,
                                                    Traits::edge_descriptor>>>>;

std::unique_ptr<BGraph> build_boost(const Network &g) {
  auto bg = std::make_unique<BGraph>(g.nodes);
  auto cap = boost::get(boost::edge_capacity, *bg);
  auto rev = boost::get(boost::edge_reverse, *bg);
  for (size_t e = 0; e < g.cap.size(); e++) {
    auto a = boost::add_edge(g.from[e], g.to[e], *bg).first;
    auto b = boost::add_edge(g.to[e], g.from[e], *bg).first;
    cap[a] = g.icap[e];
    cap[b] = 0;
    rev[a] = b;
    rev[b] = a;
  }
  return bg;
}

Result run_boost_bk(const Network &g, int runs) {
  return timed(
      runs, [&] { return build_boost(g); },
      [&](BGraph &bg) {
        return (double)boost::boykov_kolmogorov_max_flow(bg, boost::vertex(g.source, bg),
                                                         boost::vertex(g.sink, bg));
      });
}

Result run_boost_pr(const Network &g, int runs) {
  return timed(
      runs, [&] { return build_boost(g); },
      [&](BGraph &bg) {
        return (double)boost::push_relabel_max_flow(bg, boost::vertex(g.source, bg),
                                                    boost::vertex(g.sink, bg));
      });
}

struct LemonNet {
  lemon::SmartDigraph lg;
  std::vector<lemon::SmartDigraph::Node> nodes;
  lemon::SmartDigraph::ArcMap<long long> cap{lg};
  explicit LemonNet(const Network &g) : nodes(g.nodes) {
    lg.reserveNode((int)g.nodes);
    lg.reserveArc((int)g.cap.size());
    for (size_t v = 0; v < g.nodes; v++)
      nodes[v] = lg.addNode();
    for (size_t e = 0; e < g.cap.size(); e++)
      cap[lg.addArc(nodes[g.from[e]], nodes[g.to[e]])] = g.icap[e];
  }
};

Result run_lemon(const Network &g, int runs) {
  return timed(
      runs, [&] { return std::make_unique<LemonNet>(g); },
      [&](LemonNet &l) {
        // first phase only, as remat's solver: the flow value and the cut
        lemon::Preflow<lemon::SmartDigraph, lemon::SmartDigraph::ArcMap<long long>> pf(
            l.lg, l.cap, l.nodes[g.source], l.nodes[g.sink]);
        pf.runMinCut();
        return (double)pf.flowValue();
      });
}

bool agree(double a, double b) {
  return std::fabs(a - b) <= 1e-9 * std::max({1.0, std::fabs(a), std::fabs(b)});
}

}  // namespace

int main(int argc, char **argv) {
  int runs = 5;
  std::vector<Network> nets;
  for (int i = 1; i < argc; i++) {
    if (!std::strcmp(argv[i], "--runs") && i + 1 < argc) {
      runs = std::max(1, std::atoi(argv[++i]));
    } else if (!std::strcmp(argv[i], "--help")) {
      std::printf("usage: maxflow_peers [--runs N] FILE...\n");
      return 0;
    } else if (!read_dimacs(argv[i], nets)) {
      return 1;
    }
  }
  if (nets.empty()) {
    std::fprintf(stderr, "maxflow_peers: error: no network given\n");
    return 1;
  }
  int bad = 0;
  std::printf("%-22s %8s %8s %16s %10s %10s %10s %10s %10s %10s %s\n", "network", "nodes",
              "arcs", "max-flow", "remat-cold", "remat-warm", "bk-cold", "bk-warm", "b-pr-warm",
              "lemon-warm", "values");
  for (Network &g : nets) {
    if (!integer_capacities(g)) {
      std::fprintf(stderr, "maxflow_peers: error: %s: capacities are not integers at any "
                   "scale up to 10^6\n", g.name.c_str());
      return 1;
    }
    Result r[4] = {run_remat(g, runs), run_boost_bk(g, runs), run_boost_pr(g, runs),
                   run_lemon(g, runs)};
    r[0].value *= g.scale;
    bool same = agree(r[0].value, r[1].value) && agree(r[0].value, r[2].value) &&
                agree(r[0].value, r[3].value);
    bad += !same;
    std::printf("%-22s %8zu %8zu %16.10g %10.3f %10.3f %10.3f %10.3f %10.3f %10.3f %s\n",
                g.name.c_str(), g.nodes, g.cap.size(), r[0].value / g.scale, 1e3 * r[0].cold,
                1e3 * r[0].warm, 1e3 * r[1].cold, 1e3 * r[1].warm, 1e3 * r[2].warm,
                1e3 * r[3].warm, same ? "equal" : "DIFFER");
    if (!same)
      std::printf("  values: remat %.17g, boost-bk %.17g, boost-pr %.17g, lemon %.17g\n",
                  r[0].value, r[1].value, r[2].value, r[3].value);
  }
  return bad ? 1 : 0;
}
