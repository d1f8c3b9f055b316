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
#   SCENES="a b"  the scenes under scenes/ to measure (default: default large_pyramid rain);
#                 SCENES=benchmark measures every scene of scenes/benchmark/.
# Besides drawing, each row gives the frame rate the status bar showed (`fps_shown`: step and
# drawing together) and where a drawn frame went (`frame_parts_ms`: world mesh, panels,
# panels' paint, present).
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
scenes=${SCENES:-default large_pyramid rain}
if [ "$scenes" = benchmark ]; then
  scenes=$(cd scenes && ls benchmark/*.ron | sed 's/\.ron$//' | tr '\n' ' ')
fi
bins=("$bin")
if [ -n "${BASELINE:-}" ]; then bins=("$BASELINE" "$bin"); fi
for scene in $scenes; do
  tag=${scene//\//_}
  for round in $(seq "${ROUNDS:-1}"); do
    for i in "${!bins[@]}"; do
      run "${bins[$i]}" screenshot "scenes/$scene.ron" --frames "$frames" --out "$out/shot.png" >/dev/null 2>&1
      mv "$out/shot.json" "$out/$tag.$i.$round.json"
    done
  done
done
python3 - "$out" "$scenes" "${bins[@]}" <<'PY'
import glob, json, statistics, sys
out, scenes, bins = sys.argv[1], sys.argv[2].split(), sys.argv[3:]
print(f"{'scene':<24} {'binary':<24} {'wall ms best':>12} {'median':>7} {'cpu ms best':>11} {'median':>7} {'bodies':>7} {'points':>7} {'fps':>4}  parts ms (world, panels, paint, present)")
for scene in scenes:
    tag = scene.replace("/", "_")
    for i, b in enumerate(bins):
        runs = [json.load(open(p)) for p in sorted(glob.glob(f"{out}/{tag}.{i}.*.json"))]
        wall = [d["frame_ms_median"] for d in runs]
        cpu = [d["frame_cpu_ms"] for d in runs if d.get("frame_cpu_ms") is not None] or [float("nan")]
        fps = min(d.get("fps_shown") or 0 for d in runs)
        p = runs[0].get("frame_parts_ms") or {}
        parts = ", ".join(f"{p.get(k, float('nan')):.1f}" for k in ["world", "panels", "panels_paint", "present"])
        print(f"{scene:<24} {b[-24:]:<24} {min(wall):12.2f} {statistics.median(wall):7.2f} {min(cpu):11.2f} {statistics.median(cpu):7.2f} {runs[0]['body_count']:7} {runs[0]['contact_points']:7} {fps:4}  {parts}")
PY
