"""An independent max-flow for dump-network.test: reads DIMACS max-flow problems
(`c function @f` names the next one) and prints `@f: max-flow value: V` per problem,
computed with Edmonds-Karp on floats (small networks only)."""
import collections
import sys


def max_flow(n, s, t, arcs):
    cap = collections.defaultdict(float)
    adj = collections.defaultdict(set)
    for u, v, c in arcs:
        cap[(u, v)] += c
        adj[u].add(v)
        adj[v].add(u)
    flow = 0.0
    while True:
        prev = {s: None}
        q = collections.deque([s])
        while q and t not in prev:
            u = q.popleft()
            for v in adj[u]:
                if v not in prev and cap[(u, v)] > 1e-12:
                    prev[v] = u
                    q.append(v)
        if t not in prev:
            return flow
        path, v = [], t
        while prev[v] is not None:
            path.append((prev[v], v))
            v = prev[v]
        push = min(cap[e] for e in path)
        for u, v in path:
            cap[(u, v)] -= push
            cap[(v, u)] += push
        flow += push


def main():
    name, probs = "?", []
    for line in open(sys.argv[1]):
        f = line.split()
        if not f:
            continue
        if f[0] == "c" and len(f) >= 3 and f[1] == "function":
            name = f[2]
        elif f[0] == "p":
            probs.append([name, int(f[2]), 0, 0, []])
        elif f[0] == "n":
            probs[-1][2 if f[2] == "s" else 3] = int(f[1])
        elif f[0] == "a":
            probs[-1][4].append((int(f[1]), int(f[2]), float(f[3])))
    for name, n, s, t, arcs in probs:
        print(f"{name}: max-flow value: {max_flow(n, s, t, arcs):g}")


main()
