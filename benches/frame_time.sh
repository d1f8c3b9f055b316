#!/usr/bin/env bash
# Frame time of the window (drawing only: the step is excluded), measured by the app itself
# during `screenshot --frames N` and written to the screenshot's JSON sidecar:
#   frame_ms_median  wall time per frame, median (vsync off in screenshot runs)
#   frame_cpu_ms     CPU time per frame over all threads (a software renderer's included),
#                    which stays meaningful when other work shares the machine
# Usage: benches/frame_time.sh [BINARY] [FRAMES]   (default: a release build, 120 frames)
#   ROUNDS=N      runs every scene N times, alternating binaries, and prints the best and the
#                 median of the runs (default 1). On a shared machine a single run can be
#                 off by 30 %: compare builds only within one invocation.
#   BASELINE=BIN  also measures BIN (an older build), alternating with BINARY, for a paired
#                 before/after.
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
trap 'rm -rf "$out"' EXIT
bins=("$bin")
if [ -n "${BASELINE:-}" ]; then bins=("$BASELINE" "$bin"); fi
for scene in default large_pyramid rain; do
  for round in $(seq "${ROUNDS:-1}"); do
    for i in "${!bins[@]}"; do
      run "${bins[$i]}" screenshot "scenes/$scene.ron" --frames "$frames" --out "$out/shot.png" >/dev/null 2>&1
      mv "$out/shot.json" "$out/$scene.$i.$round.json"
    done
  done
done
python3 - "$out" "${bins[@]}" <<'PY'
import glob, json, statistics, sys
out, bins = sys.argv[1], sys.argv[2:]
print(f"{'scene':<15} {'binary':<36} {'wall ms best':>12} {'median':>7} {'cpu ms best':>11} {'median':>7} {'bodies':>7} {'points':>7}")
for scene in ["default", "large_pyramid", "rain"]:
    for i, b in enumerate(bins):
        runs = [json.load(open(p)) for p in sorted(glob.glob(f"{out}/{scene}.{i}.*.json"))]
        wall = [d["frame_ms_median"] for d in runs]
        cpu = [d["frame_cpu_ms"] for d in runs if d.get("frame_cpu_ms") is not None] or [float("nan")]
        print(f"{scene:<15} {b[-36:]:<36} {min(wall):12.2f} {statistics.median(wall):7.2f} {min(cpu):11.2f} {statistics.median(cpu):7.2f} {runs[0]['body_count']:7} {runs[0]['contact_points']:7}")
PY
