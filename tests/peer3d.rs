//! The 3D world against rapier3d (issue 37): a stack of 10 unit cubes stands, in both engines,
//! with its top within 1 cm of rapier3d's at every checkpoint. `PEER3D_STACK_STEPS` sets the
//! steps (600 by default; the figure is 10,000: `PEER3D_STACK_STEPS=10000 cargo test
//! --release --test peer3d -- --nocapture`). The worlds are `tests/support/peer3d.rs`, as in
//! `benches/peer3d.rs`.

#[path = "support/peer3d.rs"]
mod peer3d;

use glam::Vec3;
use peer3d::{our_centres, rapier_centres, rapier_from, stack};

/// A standing stack's cubes stay this close to their column, m.
const LEAN: f32 = 0.03;

fn steps() -> usize {
    std::env::var("PEER3D_STACK_STEPS").ok().and_then(|n| n.parse().ok()).unwrap_or(600)
}

/// How far the stack's cubes have left their column (horizontal distance from the axis), m.
fn lean(centres: &[Vec3]) -> f32 {
    centres.iter().map(|c| Vec3::new(c.x, 0.0, c.z).length()).fold(0.0, f32::max)
}

#[test]
fn a_stack_of_ten_cubes_stands_with_its_top_within_a_centimetre_of_rapier3ds() {
    let mut ours = stack(10);
    let mut rapier = rapier_from(&ours);
    let n = steps();
    let (mut worst, mut worst_at) = (0.0f32, 0);
    for step in 1..=n {
        ours.step();
        rapier.step();
        if step % 50 != 0 && step != n {
            continue;
        }
        let (a, b) = (our_centres(&ours), rapier_centres(&rapier));
        let (top, peer_top) = (a[9].y, b[9].y);
        if (top - peer_top).abs() > worst {
            (worst, worst_at) = ((top - peer_top).abs(), step);
        }
        assert!((top - peer_top).abs() < 0.01, "step {step}: our top at {top}, rapier3d's at {peer_top}");
        if std::env::var("PEER3D_TRACE").is_ok() {
            println!("{step}: top {top} / {peer_top}, lean {} / {}", lean(&a), lean(&b));
        }
        assert!(lean(&a) < LEAN && lean(&b) < LEAN, "step {step}: the stacks lean {} and {}", lean(&a), lean(&b));
        // Standing: each cube still a cube's height above the one below it (to 1 cm).
        for k in 1..10 {
            let gap = a[k].y - a[k - 1].y;
            assert!((gap - 1.0).abs() < 0.01, "step {step}: cubes {} and {k} are {gap} apart", k - 1);
        }
    }
    let (a, b) = (our_centres(&ours), rapier_centres(&rapier));
    println!(
        "{n} steps: top at {:.4} (rapier3d {:.4}), largest difference {worst:.2e} m at step {worst_at}, lean {:.1e} \
         and {:.1e} m",
        a[9].y,
        b[9].y,
        lean(&a),
        lean(&b)
    );
}
