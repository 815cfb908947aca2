"""Reads the --remat-fuse report's "all functions" block and checks the issue's bounds:
no kernel of view ops only, launches + host reductions at most LAUNCH% of the previous
grouping's, modelled traffic at most TRAFFIC% (both measured in the same run).
usage: report_check.py REPORT LAUNCH TRAFFIC"""
import re
import sys

text = open(sys.argv[1]).read()
block = text[text.rindex("remat-fuse: all functions"):]
launch = re.search(r"launches \+ host reductions: (\d+) -> (\d+) \(([\d.]+)% of previous\)", block)
traffic = re.search(r"modelled traffic: (\d+) -> (\d+) bytes \(([\d.]+)% of previous", block)
views = int(re.search(r"kernels of view ops only: (\d+)", block).group(1))
print("launches %s -> %s (%s%%), traffic %s -> %s (%s%%), view-only kernels %d" %
      (launch.group(1), launch.group(2), launch.group(3), traffic.group(1), traffic.group(2),
       traffic.group(3), views))
ok = views == 0 and float(launch.group(3)) <= float(sys.argv[2]) and \
    float(traffic.group(3)) <= float(sys.argv[3])
print("within bounds" if ok else "OUT OF BOUNDS")
sys.exit(0 if ok else 1)
