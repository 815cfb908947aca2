#!/usr/bin/env python3
"""Prints what a test checks in an SVG file, one fact per line, for FileCheck.

--timeline: parses remat's memory timeline (it must be well-formed XML) and prints, per
chart, each polyline (id, number of points, whether that is at most 2 per pixel of the
image's width) and each peak marker, and whether the marker sits on its polyline's
highest point.
--graphviz: counts the nodes and edges of an SVG that `dot -Tsvg` rendered."""
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"


def timeline(root):
    lines = {p.get("id"): p for p in root.iter(NS + "polyline")}
    width = float(root.get("width"))
    for pid in sorted(lines):
        pts = [tuple(map(float, xy.split(","))) for xy in lines[pid].get("points").split()]
        print(f"polyline {pid} points={len(pts)} at-most-2-per-pixel={len(pts) <= 2 * width}")
    for c in root.iter(NS + "circle"):
        if c.get("class") != "peak":
            continue
        cid = c.get("id")  # f<i>-peak-<case> marks polyline f<i>-<case>
        chart, case = cid.split("-peak-")
        line = lines[f"{chart}-{case}"]
        pts = [tuple(map(float, xy.split(","))) for xy in line.get("points").split()]
        top = min(y for _, y in pts)  # SVG y grows downwards
        cx, cy = float(c.get("cx")), float(c.get("cy"))
        on_top = abs(cy - top) < 0.05
        # the marker's x lies inside a horizontal segment at the top
        inside = any(abs(y0 - top) < 0.05 and x0 <= cx <= x1
                     for (x0, y0), (x1, _) in zip(pts[0::2], pts[1::2]))
        print(f"peak {cid} on-highest-point={on_top and inside}")


def graphviz(root):
    groups = [g.get("class") for g in root.iter(NS + "g")]
    print(f"nodes={groups.count('node')} edges={groups.count('edge')} "
          f"clusters={groups.count('cluster')}")


def main():
    mode, path = sys.argv[1], sys.argv[2]
    root = ET.parse(path).getroot()  # raises on malformed XML: the test fails
    if root.tag != NS + "svg":
        sys.exit(f"{path}: root element is {root.tag}, not svg")
    timeline(root) if mode == "--timeline" else graphviz(root)


if __name__ == "__main__":
    main()
