#!/bin/sh
# Renders the README's pictures into docs/pictures/ (`make pictures`):
#   docs/pictures/render.sh [BUILD_DIR]
# For each example: NAME.dot (remat-opt --remat-dot), NAME.svg (Graphviz: dot -Tsvg) and
# NAME-timeline.svg (remat-opt --remat-timeline). test/mincut/pictures.test regenerates
# the .dot and timeline files and fails when the committed ones are stale.
set -e
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
opt=${1:-$root/build}/bin/remat-opt
render() { # NAME INPUT
  "$opt" --remat-mincut --remat-dot="$here/$1.dot" --remat-timeline="$here/$1-timeline.svg" \
    "$root/$2" > /dev/null
  dot -Tsvg "$here/$1.dot" -o "$here/$1.svg"
}
render dropout examples/dropout.mlir
render gpt examples/gpt-joint.mlir
