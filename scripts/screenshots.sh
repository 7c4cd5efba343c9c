#!/usr/bin/env bash
# Opens the real app window under Xvfb on a tree, a Hex 4x4 and an Othello
# endgame, runs some iterations, saves screenshots and checks they are not
# blank (issue #5 item 10). Needs xvfb-run and Mesa (installed by .ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${PNLAB_BIN:-target/debug/pnlab}
out=${SCREENSHOT_DIR:-target/screenshots}
mkdir -p "$out"
if ! command -v xvfb-run >/dev/null 2>&1; then
  echo "xvfb-run is not installed: install xvfb (see .ci/run)" >&2
  exit 1
fi
shoot() {
  local name=$1; shift
  rm -f "$out/$name.png"
  LIBGL_ALWAYS_SOFTWARE=1 timeout 120 xvfb-run -a -s "-screen 0 1600x1000x24" \
    "$bin" "$@" --screenshot "$out/$name.png"
  python3 scripts/png_not_blank.py "$out/$name.png"
}
shoot tree --open positions/trees/seesaw.tree --algo pns --autoplay 12
shoot hex4 --open positions/hex.toml --algo pns --autoplay 200
shoot othello --open positions/othello/ffo-1-7.obf --algo deep-pn --autoplay 300
