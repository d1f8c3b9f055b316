//! The timeline on `large_pyramid`: keyframe memory against the budget after N steps
//! (`TIMELINE_STEPS`, default 10,000) and the time to scrub to steps spread over the run.
//! A measurement, not a test: `cargo bench --bench timeline_memory`.

use manifold_lab::engine::timeline::{world_bytes, Cause, Timeline};
use manifold_lab::scene;
use std::time::Instant;

fn main() {
    let steps: u64 = std::env::var("TIMELINE_STEPS").ok().and_then(|s| s.parse().ok()).unwrap_or(10_000);
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/large_pyramid.ron");
    let mut w = scene::load(&path).expect("shipped scene").build_world();
    w.refresh_contacts();
    let mut t = Timeline::new(&w);
    println!("world {:.2} MB, first stretch {:.0} ms", world_bytes(&w) as f64 / 1e6, t.segment_ms());
    let start = Instant::now();
    for k in 1..=steps {
        w.step();
        t.observe(&w, Cause::Stepped);
        if k % 1000 == 0 {
            println!(
                "step {k:>6}: stretch {:>4.0} ms, {:>4} keyframes, {:>7.1} MB of {:.0} MB, {} awake",
                t.segment_ms(),
                t.keyframe_count(),
                t.keyframe_bytes() as f64 / 1e6,
                t.budget() as f64 / 1e6,
                w.awake_body_count()
            );
        }
    }
    let ms_per_step = start.elapsed().as_secs_f64() * 1000.0 / steps as f64;
    println!(
        "after {steps} steps: stretch {:.0} ms, {} keyframes ({:.0} steps apart on average), {:.1} MB (budget {:.0} MB, {}), {ms_per_step:.2} ms per step",
        t.segment_ms(),
        t.keyframe_count(),
        t.mean_spacing(),
        t.keyframe_bytes() as f64 / 1e6,
        t.budget() as f64 / 1e6,
        if t.keyframe_bytes() <= t.budget() { "within" } else { "OVER" }
    );
    // Steps spread over the run, plus the last step before each keyframe (the longest
    // re-simulation from it).
    let mut targets: Vec<u64> = (0..40).map(|i| (i * 7919 + 13) % (steps + 1)).collect();
    let kf: Vec<u64> = t.current_branch().keyframes().map(|(&s, _)| s).collect();
    targets.extend(kf.iter().skip(1).map(|&s| s - 1));
    targets.push(steps);
    let (mut worst, mut worst_at, mut total) = (0.0f64, 0, 0.0);
    for &s in &targets {
        let t0 = Instant::now();
        let got = t.world_at(0, s, None).expect("reachable");
        let ms = t0.elapsed().as_secs_f64() * 1000.0;
        assert_eq!(got.step_count, s);
        if ms > worst {
            (worst, worst_at) = (ms, s);
        }
        total += ms;
    }
    println!(
        "scrub to {} steps (40 spread over the run, the step before each keyframe, the last): mean {:.0} ms, worst {worst:.0} ms (step {worst_at}); recorded step time of the longest stretch {:.0} ms",
        targets.len(),
        total / targets.len() as f64,
        t.current_branch().worst_seek_cost()
    );
}
