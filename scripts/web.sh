#!/usr/bin/env bash
# pnlab in the browser: builds the static page, or serves it.
#
#   scripts/web.sh                  # build web/dist/ (release): index.html,
#                                   # pnlab_bg.wasm, pnlab.js, favicon, bench.html, docs/
#   scripts/web.sh --serve [PORT]   # serve web/dist/ on http://127.0.0.1:PORT/
#                                   # (default 8080; 0 = any free port)
#
# The build installs what it lacks from the ordinary registries: the
# wasm32-unknown-unknown target (rustup) and wasm-bindgen-cli (crates.io)
# at exactly the version of the wasm-bindgen crate in Cargo.lock — the
# two must agree. wasm-opt (Binaryen) is used when it is on the PATH
# (optional; WASM_OPT=PATH names another) and recent enough.
# web/dist/ is a plain folder of static files: copy it to any web host.
set -euo pipefail
cd "$(dirname "$0")/.."

dist=web/dist

serve() {
  local port=${1:-8080}
  if [ ! -f "$dist/index.html" ]; then
    echo "error: $dist/index.html is missing: run scripts/web.sh first" >&2
    exit 2
  fi
  # Python's static server, bound to loopback, with the WebAssembly media
  # type set explicitly (browsers compile .wasm while it downloads only
  # when it is served as application/wasm).
  exec python3 - "$dist" "$port" <<'PY'
import functools, http.server, sys
root, port = sys.argv[1], int(sys.argv[2])
class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".wasm": "application/wasm", ".js": "text/javascript",
                      ".svg": "image/svg+xml", ".md": "text/plain; charset=utf-8"}
    def log_message(self, fmt, *args):
        pass
server = http.server.ThreadingHTTPServer(("127.0.0.1", port),
                                          functools.partial(Handler, directory=root))
print(f"serving {root} on http://127.0.0.1:{server.server_address[1]}/", flush=True)
try:
    server.serve_forever()
except KeyboardInterrupt:
    pass
PY
}

if [ "${1:-}" = "--serve" ]; then
  serve "${2:-8080}"
fi
if [ $# -gt 0 ]; then
  echo "usage: scripts/web.sh [--serve [PORT]]" >&2
  exit 2
fi

# 1. The target.
if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  echo "== rustup target add wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi

# 2. wasm-bindgen-cli at the version Cargo.lock pins.
version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' Cargo.lock)
if [ -z "$version" ]; then
  echo "error: no wasm-bindgen in Cargo.lock" >&2
  exit 1
fi
have=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
if [ "$have" != "$version" ]; then
  echo "== cargo install wasm-bindgen-cli $version (found: ${have:-none})"
  # --locked builds with the tool's own lockfile. Where the registry no
  # longer serves one of the versions that lockfile names, cargo resolves
  # the tool's dependencies afresh instead; the tool's version stays the
  # pinned one either way.
  if ! cargo install --locked --no-default-features wasm-bindgen-cli --version "=$version"; then
    echo "NOTICE: the locked install failed; installing wasm-bindgen-cli $version with fresh dependency resolution" >&2
    cargo install --no-default-features wasm-bindgen-cli --version "=$version"
  fi
fi

# 3. The program, for the browser (the web shell starts in main on wasm32),
# without the `raster` feature: a page writes no PNG frames.
echo "== cargo build --profile web --target wasm32-unknown-unknown --no-default-features --features gui"
cargo build --profile web --target wasm32-unknown-unknown --bin pnlab \
  --no-default-features --features gui

# 4. The JavaScript glue and the final .wasm (without the function-name
# section: names only serve debuggers, and they are 8% of the module).
rm -rf "$dist"
mkdir -p "$dist"
wasm-bindgen target/wasm32-unknown-unknown/web/pnlab.wasm \
  --out-dir "$dist" --target web --no-typescript \
  --remove-name-section --remove-producers-section
# wasm-opt (Binaryen) shrinks the module further, but releases before
# WASM_OPT_MIN rewrite the reference-typed table wasm-bindgen's glue fills
# at start, and the page then fails to load ("WebAssembly.Table.set():
# Argument 1 is invalid"; seen with Debian's binaryen 108): an older one
# is skipped.
WASM_OPT_MIN=132
wasm_opt=${WASM_OPT:-wasm-opt}
if command -v "$wasm_opt" >/dev/null 2>&1; then
  opt_version=$("$wasm_opt" --version 2>/dev/null | awk '{print $3}')
  if [ "${opt_version:-0}" -ge "$WASM_OPT_MIN" ] 2>/dev/null; then
    echo "== $wasm_opt -Os (Binaryen $opt_version)"
    if "$wasm_opt" -Os --enable-bulk-memory --enable-nontrapping-float-to-int \
        --enable-sign-ext --enable-reference-types --enable-multivalue \
        --enable-mutable-globals "$dist/pnlab_bg.wasm" -o "$dist/pnlab_bg.opt.wasm"; then
      mv "$dist/pnlab_bg.opt.wasm" "$dist/pnlab_bg.wasm"
    else
      echo "NOTICE: wasm-opt failed; keeping wasm-bindgen's output" >&2
      rm -f "$dist/pnlab_bg.opt.wasm"
    fi
  else
    echo "NOTICE: $wasm_opt is Binaryen ${opt_version:-?}, older than $WASM_OPT_MIN: skipped (it breaks the page)" >&2
  fi
fi

# 5. The pages, the icon and the docs the Help menu links to.
cp web/index.html web/bench.html web/favicon.svg "$dist/"
mkdir -p "$dist/docs"
cp docs/*.md "$dist/docs/"

# 6. The download budget: 3 MB gzipped (what a class downloads over a
# school's network before the first frame), and 8.5 MB as the browser
# holds it (the module the browser compiles).
wasm_bytes=$(wc -c < "$dist/pnlab_bg.wasm")
# A gzipped copy beside it: `pnlab serve` sends it to browsers that
# accept gzip (other hosts may serve it the same way, or ignore it).
gzip -9 -c "$dist/pnlab_bg.wasm" > "$dist/pnlab_bg.wasm.gz"
gz_bytes=$(wc -c < "$dist/pnlab_bg.wasm.gz")
echo "web/dist: pnlab_bg.wasm $wasm_bytes bytes, gzipped $gz_bytes bytes (budget 8500000 and 3000000)"
if [ "$wasm_bytes" -gt 8500000 ] || [ "$gz_bytes" -gt 3000000 ]; then
  echo "error: web/dist/pnlab_bg.wasm is over its download budget (8.5 MB, 3 MB gzipped)" >&2
  exit 1
fi
echo "serve it with: scripts/web.sh --serve"
