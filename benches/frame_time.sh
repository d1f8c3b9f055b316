#!/usr/bin/env bash
# Frame time of the window (drawing only: the step is excluded), measured by the app itself
# during `screenshot --frames N` and written to the screenshot's JSON sidecar:
#   frame_ms_median  wall time per frame, median (vsync off in screenshot runs)
#   frame_cpu_ms     CPU time per frame over all threads (a software renderer's included),
#                    which stays meaningful when other work shares the machine
# Usage: benches/frame_time.sh [BINARY] [FRAMES]   (default: a release build, 120 frames)
# Runs under Xvfb when no display is set.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-target/release/manifold-lab}
frames=${2:-120}
if [ "$bin" = target/release/manifold-lab ]; then
  cargo build --release --bin manifold-lab >&2
fi
run() {
  if [ -n "${DISPLAY:-}" ]; then "$@"; else xvfb-run -a -s "-screen 0 1280x800x24" "$@"; fi
}
out=$(mktemp -d)
printf '%-16s %10s %10s %8s %9s\n' scene frame_ms cpu_ms bodies points
for scene in default large_pyramid rain; do
  run "$bin" screenshot "scenes/$scene.ron" --frames "$frames" --out "$out/$scene.png" >/dev/null 2>&1
  python3 - "$out/$scene.json" "$scene" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
cpu = d.get("frame_cpu_ms")
print(f"{sys.argv[2]:<16} {d['frame_ms_median']:10.1f} {cpu if cpu is None else round(cpu, 1)!s:>10} {d['body_count']:8} {d['contact_points']:9}")
PY
done
rm -rf "$out"
