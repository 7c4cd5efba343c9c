#!/usr/bin/env bash
# Opens the real app window under Xvfb on real positions, runs the search,
# saves screenshots and checks they are not blank. Needs xvfb-run and Mesa
# (installed by .ci/run).
#
#   scripts/screenshots.sh            # the quick set, into target/screenshots (CI)
#   scripts/screenshots.sh --gallery  # the README's gallery, into docs/images
#                                     # (long runs: build with --release first and
#                                     #  set PNLAB_BIN=target/release/pnlab)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${PNLAB_BIN:-target/debug/pnlab}
out=${SCREENSHOT_DIR:-target/screenshots}
gallery=0
if [ "${1:-}" = "--gallery" ]; then
  gallery=1
  out=docs/images
fi
mkdir -p "$out"
if ! command -v xvfb-run >/dev/null 2>&1; then
  echo "xvfb-run is not installed: install xvfb (see .ci/run)" >&2
  exit 1
fi
shoot() {
  local name=$1; shift
  rm -f "$out/$name.png"
  LIBGL_ALWAYS_SOFTWARE=1 timeout 1200 xvfb-run -a -s "-screen 0 1600x1000x24" \
    "$bin" "$@" --screenshot "$out/$name.png"
  python3 scripts/png_not_blank.py "$out/$name.png"
}
if [ "$gallery" = 1 ]; then
  shoot seesaw-pns positions/trees/seesaw.tree --algo pns --autoplay 12
  shoot ffo1-dfpn-2000 positions/othello/ffo-1-7.obf --algo dfpn --autoplay 2000
  shoot ffo1-dfpn-200000 positions/othello/ffo-1-7.obf --algo dfpn --autoplay 200000
  shoot hex4-deep-pn positions/hex.toml --entry 4 --algo deep-pn --autoplay 2000
  shoot pgame-ppn positions/pgame.toml --algo ppn --autoplay 3000
  for size in 1024x768 1280x720; do
    shoot present-seesaw-lesson-$size lessons/03-seesaw-and-deep-pn.lesson.toml --step 3 --present --window $size --autoplay 0
    shoot present-ffo1-dfpn-$size positions/othello/ffo-1-7.obf --algo dfpn --autoplay 2000 --present --window $size
  done
else
  shoot tree positions/trees/seesaw.tree --algo pns --autoplay 12
  shoot hex4 --open positions/hex.toml --entry 4 --algo pns --autoplay 200
  shoot othello --open positions/othello/ffo-1-7.obf --algo deep-pn --autoplay 300
fi

# A broken file on the command line: the window opens with the located
# message, the error goes to stderr and the exit status is 2 (bad input,
# as for every pnlab command).
if [ "$gallery" = 0 ]; then
  broken=$(mktemp -d)/broken.tree
  printf 'A or\n  B = win\n  C =\n' > "$broken"
  set +e
  err=$(LIBGL_ALWAYS_SOFTWARE=1 timeout 300 xvfb-run -a -s "-screen 0 1600x1000x24" \
    "$bin" "$broken" --autoplay 1 --state "$out/broken-state.json" 2>&1 >/dev/null)
  status=$?
  set -e
  if [ "$status" != 2 ] || ! grep -q "broken.tree:3:6: expected" <<<"$err"; then
    echo "error: a broken file should exit 2 with its located message; got $status: $err" >&2
    exit 1
  fi
  echo "broken file: exit 2, $(grep -m1 'broken.tree' <<<"$err")"
fi
