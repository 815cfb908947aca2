// maxflow_before_after: remat's max-flow solver (lib/analysis/flow_network.c) against the same file
// at an older revision and Boost's Boykov-Kolmogorov, on the networks maxflow_peers reads.
// Per run, each solver in turn builds its graph (not timed), solves it once ("cold") and
// again ("warm"), so the load of a shared machine falls on the three alike; prints the
// medians over the runs and the ratios. Built by bench/peers/before_after.sh, which
// compiles the old revision's solver with its functions renamed before_*. Asserts
// nothing; exit 1 if the values differ, or if the two remat solvers' minimum cuts (source
// sides) differ ("cuts" column).
//
// Usage: maxflow_before_after RUNS ARG...   where an ARG is a DIMACS FILE, `runs=N`, which
// sets the runs for the files after it (fewer for the largest networks), or `inf=1`
// (`inf=0`), after which the two remat solvers get FLOW_INFINITY for the edges the file
// writes as its stand-in for infinity (`c infinite capacity written as X`), as they do in
// --remat-mincut (nodes reached from the source over infinite edges join the source), or
// (the default) the stand-in itself, like BK.
#define main maxflow_peers_main
#include "maxflow_peers.cpp"
#undef main

extern "C" {
flow_network *before_flow_network_create(size_t num_nodes);
void before_flow_network_destroy(flow_network *net);
int before_flow_network_add_edge(flow_network *net, size_t from, size_t to, double capacity);
double before_flow_network_max_flow(flow_network *net, size_t source, size_t sink);
int before_flow_network_source_side(const flow_network *net, unsigned char *source_side);
}

namespace {

struct Solver {
  flow_network *(*create)(size_t);
  void (*destroy)(flow_network *);
  int (*add_edge)(flow_network *, size_t, size_t, double);
  double (*max_flow)(flow_network *, size_t, size_t);
  int (*source_side)(const flow_network *, unsigned char *);
};

// Times a cold and a warm solve of G with S; the value in *value, the source side of the
// minimum cut in *side.
void remat_pair(const Solver &s, const Network &g, bool inf, double *cold, double *warm,
                double *value, std::vector<unsigned char> *side) {
  flow_network *net = s.create(g.nodes);
  for (size_t e = 0; e < g.cap.size(); e++)
    s.add_edge(net, g.from[e], g.to[e],
               inf && g.cap[e] == g.infinite ? FLOW_INFINITY : g.cap[e]);
  double t0 = now_s();
  *value = s.max_flow(net, g.source, g.sink) * g.scale;
  *cold = now_s() - t0;
  t0 = now_s();
  s.max_flow(net, g.source, g.sink);
  *warm = now_s() - t0;
  side->assign(g.nodes, 2);
  s.source_side(net, side->data());
  s.destroy(net);
}

}  // namespace

int main(int argc, char **argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: maxflow_before_after RUNS [runs=N] [inf=0|1] FILE...\n");
    return 2;
  }
  int runs = std::max(1, std::atoi(argv[1]));
  bool inf = false;
  const Solver now = {flow_network_create, flow_network_destroy, flow_network_add_edge,
                      flow_network_max_flow, flow_network_source_side};
  const Solver before = {before_flow_network_create, before_flow_network_destroy,
                         before_flow_network_add_edge, before_flow_network_max_flow,
                         before_flow_network_source_side};
  int bad = 0;
  std::printf("%-20s %3s %8s %5s %9s %9s %9s %9s %9s %9s %9s %9s %9s %9s %s\n", "network",
              "inf", "nodes", "runs", "now-cold", "now-warm", "bef-cold", "bef-warm", "bk-cold",
              "bk-warm", "now/bk-c", "now/bk-w", "now/bef-c", "now/bef-w", "values cuts");
  for (int i = 2; i < argc; i++) {
    if (std::strncmp(argv[i], "runs=", 5) == 0) {
      runs = std::max(1, std::atoi(argv[i] + 5));
      continue;
    }
    if (std::strncmp(argv[i], "inf=", 4) == 0) {
      inf = std::atoi(argv[i] + 4) != 0;
      continue;
    }
    // one file at a time, so the largest networks are not all in memory at once
    std::vector<Network> nets;
    if (!read_dimacs(argv[i], nets))
      return 1;
    for (Network &g : nets) {
      if (!integer_capacities(g)) {
        std::fprintf(stderr, "maxflow_before_after: error: %s: capacities are not integers\n",
                     g.name.c_str());
        return 1;
      }
      std::vector<double> c[3], w[3];
      double val[3] = {0, 0, 0};
      std::vector<unsigned char> side[2];
      for (int r = 0; r < runs; r++) {
        double cold, warm;
        remat_pair(now, g, inf, &cold, &warm, &val[0], &side[0]);
        c[0].push_back(cold);
        w[0].push_back(warm);
        remat_pair(before, g, inf, &cold, &warm, &val[1], &side[1]);
        c[1].push_back(cold);
        w[1].push_back(warm);
        auto bg = build_boost(g);
        double t0 = now_s();
        val[2] = (double)boost::boykov_kolmogorov_max_flow(*bg, g.source, g.sink);
        c[2].push_back(now_s() - t0);
        t0 = now_s();
        boost::boykov_kolmogorov_max_flow(*bg, g.source, g.sink);
        w[2].push_back(now_s() - t0);
      }
      double mc[3], mw[3];
      for (int k = 0; k < 3; k++) {
        mc[k] = 1e3 * median(c[k]);
        mw[k] = 1e3 * median(w[k]);
      }
      bool same = agree(val[0], val[2]) && agree(val[1], val[2]);
      bool same_cut = side[0] == side[1];
      bad += !same || !same_cut;
      std::printf(
          "%-20s %3s %8zu %5d %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f %9.2f %9.2f %9.2f %9.2f %s %s\n",
          g.name.c_str(), inf ? "inf" : "fin", g.nodes, runs, mc[0], mw[0], mc[1], mw[1], mc[2], mw[2],
          mc[0] / mc[2], mw[0] / mw[2], mc[0] / mc[1], mw[0] / mw[1],
          same ? "equal " : "DIFFER", same_cut ? "equal" : "DIFFER");
      std::fflush(stdout);
    }
  }
  return bad ? 1 : 0;
}
