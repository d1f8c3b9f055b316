//! The local-frame SAT (`collide_posed_with`) against the world-space SAT on the moved hulls:
//! the same overlap answer and depth on random pairs, the same trace when recording, the
//! remembered-axis test agreeing with the SAT, and prism-sized hulls (hill-climbing supports).

use super::common::random_pair;
use glam::{Quat, Vec3};
use manifold_lab::engine::hull3d::sat::{collide_with, SatConfig};
use manifold_lab::engine::hull3d::sat_local::{collide_posed_with, separation_along, SatScratch};
use manifold_lab::engine::hull3d::{shapes, ContactKind, Pose3, SatTrace3};
use manifold_lab::engine::trace::NoTrace;

/// `collide_posed_with` untraced.
fn posed(p: &super::common::Pair, config: &SatConfig, scratch: &mut SatScratch) -> Result<f32, f32> {
    collide_posed_with(&p.a, &p.pose_a, &p.b, &p.pose_b, config, 0.0, scratch, &mut NoTrace)
        .map(|c| c.separation)
        .map_err(|s| s.separation)
}

#[test]
fn local_frame_sat_agrees_with_the_world_space_sat() {
    let mut scratch = SatScratch::default();
    let (mut overlaps, mut max_err, mut near) = (0, 0.0f32, 0);
    for seed in 0..3000u64 {
        let pair = random_pair(0x10CA_0000 + seed, 24, 1.5);
        let (a, b) = pair.world();
        for config in [SatConfig::FAST, SatConfig::ROBUST] {
            let world = collide_with(&a, &b, &config, None);
            let local = posed(&pair, &config, &mut scratch);
            match (world, local) {
                (Ok(w), Ok(l)) => {
                    overlaps += 1;
                    max_err = max_err.max((w.separation - l).abs());
                    assert!((w.separation - l).abs() < 2e-5, "seed {seed}: {} vs {l}", w.separation);
                }
                (Err(_), Err(s)) => assert!(s > 0.0),
                // Touching pairs may fall either way by rounding.
                (Ok(w), Err(s)) => {
                    assert!(w.separation > -2e-5 && s < 2e-5, "seed {seed}: {w:?} vs separated by {s}");
                    near += 1;
                }
                (Err(w), Ok(l)) => {
                    assert!(w.separation < 2e-5 && l > -2e-5, "seed {seed}: {w:?} vs depth {l}");
                    near += 1;
                }
            }
        }
    }
    println!("{overlaps} overlapping answers, max |depth difference| {max_err:.2e}, {near} touching");
    assert!(overlaps > 1000 && near < 10);
}

#[test]
fn recording_gives_the_same_answer_and_lists_every_axis() {
    let mut scratch = SatScratch::default();
    for seed in 0..200u64 {
        let p = random_pair(0x7ACE_0000 + seed, 16, 1.2);
        let mut trace = SatTrace3::default();
        let traced =
            collide_posed_with(&p.a, &p.pose_a, &p.b, &p.pose_b, &SatConfig::FAST, 0.0, &mut scratch, &mut trace);
        let plain = posed(&p, &SatConfig::FAST, &mut scratch);
        match (traced, plain) {
            (Ok(c), Ok(s)) => {
                assert_eq!(c.separation, s);
                let (fa, fb, ea, eb) = (p.a.faces().len(), p.b.faces().len(), p.a.edges().len(), p.b.edges().len());
                assert_eq!(trace.axes.len(), fa + fb + ea * eb, "every face axis and edge pair");
                let w = trace.axes[trace.winner.unwrap()];
                assert_eq!(w.separation, c.separation);
                assert!((w.axis.length() - 1.0).abs() < 1e-4);
            }
            (Err(a), Err(b)) => {
                assert_eq!(a.separation, b);
                assert!(trace.separating_axis().is_some_and(|r| r.separation == b));
            }
            other => panic!("seed {seed}: {other:?}"),
        }
    }
}

#[test]
fn the_remembered_axis_gives_the_sat_separation() {
    let mut scratch = SatScratch::default();
    let mut checked = 0;
    for seed in 0..1000u64 {
        let p = random_pair(0x5E9A_0000 + seed, 24, 2.0);
        let r = collide_posed_with(&p.a, &p.pose_a, &p.b, &p.pose_b, &SatConfig::FAST, 0.0, &mut scratch, &mut NoTrace);
        let mut trace = SatTrace3::default();
        let _ = collide_posed_with(&p.a, &p.pose_a, &p.b, &p.pose_b, &SatConfig::FAST, 0.0, &mut scratch, &mut trace);
        if let Err(sep) = r {
            let s = separation_along(&p.a, &p.pose_a, &p.b, &p.pose_b, sep.kind).unwrap();
            assert!((s - sep.separation).abs() < 1e-5, "seed {seed}: {s} vs {sep:?}");
            checked += 1;
        } else if let Ok(c) = r {
            let w = trace.axes[trace.winner.unwrap()].kind;
            let s = separation_along(&p.a, &p.pose_a, &p.b, &p.pose_b, w).unwrap();
            // On the winning axis the full-support separation is the depth (edge axes flip
            // sign conventions only when separated).
            assert!((s - c.separation).abs() < 1e-5 || c.kind == ContactKind::Edges, "seed {seed}: {s} vs {c:?}");
            assert!(s <= 0.0 + 1e-5);
        }
    }
    assert!(checked > 200);
}

#[test]
fn large_hulls_use_hill_climbing_and_agree() {
    // 140 and 64 vertices: A's supports by hill climbing, B's by the packed scan.
    let (a, b) = (shapes::prism(70, 1.0, 0.8), shapes::prism(32, 0.9, 1.2));
    assert!(a.positions().len() > 128 && b.positions().len() < 128);
    let mut scratch = SatScratch::default();
    for k in 0..60 {
        let t = k as f32 * 0.37;
        let xa = Pose3::new(Vec3::new(0.1 * t.sin(), 0.0, 0.0), Quat::from_rotation_x(0.3 * t));
        let xb = Pose3::new(
            Vec3::new(1.2 * t.cos(), 0.9 + 0.5 * t.sin(), 0.4),
            Quat::from_axis_angle(Vec3::new(1.0, t.sin(), 0.3).normalize(), t),
        );
        let w = collide_with(&a.transformed(&xa), &b.transformed(&xb), &SatConfig::FAST, None);
        let l = collide_posed_with(&a, &xa, &b, &xb, &SatConfig::FAST, 0.0, &mut scratch, &mut NoTrace);
        match (w, l) {
            (Ok(w), Ok(l)) => assert!((w.separation - l.separation).abs() < 2e-5, "{k}: {w:?} {l:?}"),
            (Err(_), Err(_)) => {}
            other => panic!("{k}: {other:?}"),
        }
    }
}

/// 20,000 unless `SAT_MODE_PAIRS` says otherwise.
fn mode_pairs() -> u64 {
    std::env::var("SAT_MODE_PAIRS").ok().and_then(|n| n.parse().ok()).unwrap_or(20_000)
}

#[test]
fn the_default_sat_mode_agrees_with_the_robust_one() {
    use manifold_lab::engine::world3d::{SatChoice, World3Params};
    // The 3D world's default is the fastest mode (`docs/performance.md`, 3D hull SAT: LOCAL);
    // it must give the robust mode's answer, as the world calls both (local frame, margin 0).
    assert_eq!(World3Params::default().sat, SatChoice::Fast);
    let (fast, robust) = (SatChoice::Fast.config(), SatChoice::Robust.config());
    let mut scratch = SatScratch::default();
    let (mut overlaps, mut separated, mut touching, mut same_kind) = (0, 0, 0, 0);
    let mut max_depth = 0.0f32;
    let n = mode_pairs();
    for seed in 0..n {
        let p = random_pair(0x5A7D_0000 + seed, 24, 1.5);
        let f = collide_posed_with(&p.a, &p.pose_a, &p.b, &p.pose_b, &fast, 0.0, &mut scratch, &mut NoTrace);
        let r = collide_posed_with(&p.a, &p.pose_a, &p.b, &p.pose_b, &robust, 0.0, &mut scratch, &mut NoTrace);
        match (f, r) {
            (Ok(f), Ok(r)) => {
                overlaps += 1;
                same_kind += usize::from(f.kind == r.kind);
                max_depth = max_depth.max((f.separation - r.separation).abs());
            }
            // Separated: both find an axis with a gap (the fast mode may stop at a first one).
            (Err(f), Err(r)) => {
                separated += 1;
                assert!(f.separation > 0.0 && r.separation > 0.0, "seed {seed}: {f:?} vs {r:?}");
            }
            // Touching pairs may fall either way by rounding.
            (Ok(c), Err(s)) | (Err(s), Ok(c)) => {
                assert!(c.separation > -2e-5 && s.separation < 2e-5, "seed {seed}: {c:?} vs {s:?}");
                touching += 1;
            }
        }
    }
    println!(
        "{n} random pairs: {overlaps} overlapping (depth equal to {max_depth:.1e}, the same kind of axis in \
         {same_kind}), {separated} separated, {touching} touching"
    );
    assert!(max_depth < 2e-5, "the fast mode's depth differs from the robust one's by {max_depth}");
    assert!(overlaps as u64 > n / 4 && separated as u64 > n / 4 && touching * 1000 < n as usize);
}

#[test]
fn the_robust_modes_edge_bound_changes_no_answer() {
    // Untraced, the robust mode leaves unscored the edge pairs whose cheap bound (edge vertices
    // and inscribed balls) can neither separate nor win; recording scores every pair. The two
    // must give the same contact or the same separating axis, bit for bit.
    let mut scratch = SatScratch::default();
    let (mut contacts, mut edge_wins) = (0, 0);
    let cube = shapes::cube(0.5);
    for seed in 0..2000u64 {
        let mut p = random_pair(0xB0D0_0000 + seed, 24, 1.5);
        if seed % 4 == 0 {
            // Cubes too: many parallel and tied edge pairs.
            (p.a, p.b) = (cube.clone(), cube.clone());
        }
        let mut trace = SatTrace3::default();
        let robust = SatConfig::ROBUST;
        let all = collide_posed_with(&p.a, &p.pose_a, &p.b, &p.pose_b, &robust, 0.02, &mut scratch, &mut trace);
        let bounded = collide_posed_with(&p.a, &p.pose_a, &p.b, &p.pose_b, &robust, 0.02, &mut scratch, &mut NoTrace);
        match (all, bounded) {
            (Ok(x), Ok(y)) => {
                contacts += 1;
                edge_wins += usize::from(x.kind == ContactKind::Edges);
                assert_eq!(
                    (x.kind, x.separation, x.normal, x.point),
                    (y.kind, y.separation, y.normal, y.point),
                    "seed {seed}"
                );
                if x.kind == ContactKind::Edges {
                    assert_eq!(x.edges, y.edges, "seed {seed}");
                }
            }
            (Err(x), Err(y)) => assert_eq!(x, y, "seed {seed}"),
            other => panic!("seed {seed}: {other:?}"),
        }
    }
    println!("{contacts} contacts, {edge_wins} won by an edge pair");
    assert!(contacts > 500 && edge_wins > 20, "{contacts} contacts, {edge_wins} edge wins");
}

#[test]
fn the_guarded_mode_gives_the_exhaustive_answer() {
    // The 3D world's robust mode (GUARDED: Gauss-map pruning with a wide margin, full supports)
    // against ROBUST (every non-parallel edge pair, full supports), both in the local frame, with
    // a speculative margin, on random hulls, cubes (parallel edges, ties) and prisms.
    // Overlapping, the SAT's answer lies on a face or a Minkowski-face pair, so the two agree.
    // Apart (within the margin), the largest gap over faces and Minkowski faces is only a lower
    // bound on the distance, and a non-Minkowski edge axis can show a larger one: the
    // exhaustive search may then report more separation (or a separating axis) than GUARDED
    // (and the default fast mode) do, never less.
    let margin = 0.02;
    let mut scratch = SatScratch::default();
    let (guarded, robust) = (SatConfig::GUARDED, SatConfig::ROBUST);
    let (mut overlaps, mut max_depth, mut apart_lower) = (0, 0.0f32, 0);
    let cube = shapes::cube(0.5);
    let prism = shapes::prism(24, 0.7, 1.0);
    // A quarter of SAT_MODE_PAIRS (5,000 by default): the exhaustive side is slow.
    for seed in 0..mode_pairs() / 4 {
        let mut p = random_pair(0x6A2D_0000 + seed, 24, 1.5);
        match seed % 5 {
            0 => (p.a, p.b) = (cube.clone(), cube.clone()),
            1 => (p.a, p.b) = (prism.clone(), cube.clone()),
            _ => {}
        }
        let g = collide_posed_with(&p.a, &p.pose_a, &p.b, &p.pose_b, &guarded, margin, &mut scratch, &mut NoTrace);
        let r = collide_posed_with(&p.a, &p.pose_a, &p.b, &p.pose_b, &robust, margin, &mut scratch, &mut NoTrace);
        match (g, r) {
            (Ok(g), Ok(r)) if r.separation <= 0.0 => {
                overlaps += 1;
                max_depth = max_depth.max((g.separation - r.separation).abs());
                assert_eq!(g.kind, r.kind, "seed {seed}");
            }
            (Ok(g), Ok(r)) => {
                assert!(g.separation <= r.separation + 1e-6, "seed {seed}: {g:?} vs {r:?}");
                apart_lower += usize::from(g.separation < r.separation - 1e-6);
            }
            (Ok(g), Err(r)) => {
                assert!(g.separation > 0.0 && r.separation > margin, "seed {seed}: {g:?} vs {r:?}");
                apart_lower += 1;
            }
            (Err(g), Err(r)) => assert!(g.separation > margin && r.separation > margin, "seed {seed}"),
            other => panic!("seed {seed}: {other:?}"),
        }
    }
    println!(
        "{overlaps} overlapping, depth equal to {max_depth:.1e}; {apart_lower} apart with a larger exhaustive gap"
    );
    assert!(overlaps > 300, "{overlaps}");
    assert!(max_depth <= 1e-6, "the guarded mode's depth differs from the exhaustive one's by {max_depth}");
}
