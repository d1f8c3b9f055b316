//! Hard limits: numbers out of range, files that are not text, bodies piled on one point and
//! bouncy worlds either give a located error naming the range, or run finite and bounded.
//! The fuzz test mutates the shipped scenes (`FUZZ_CASES`, default 120) and requires each
//! mutant to load and step with finite state, or to fail with `file:line:column`.

use glam::Vec2;
use manifold_lab::engine::broadphase::{MAX_NEW_PAIRS, MAX_PAIRS, MAX_QUERY_VISITS};
use manifold_lab::engine::rng::SplitMix64;
use manifold_lab::engine::shape::Shape;
use manifold_lab::engine::solver::SolverParams;
use manifold_lab::engine::{BodyDef, BodyKind, Material, World};
use manifold_lab::scene::PresetFile;
use manifold_lab::scene::{self, SceneError};
use std::path::{Path, PathBuf};

#[path = "../benches/support/box2d_world.rs"]
#[allow(dead_code)] // the chain test uses part of the bench support
mod box2d_world;
#[path = "limits_parts/chain.rs"]
mod chain;
#[path = "limits_parts/extremes.rs"]
mod extremes;
#[path = "limits_parts/piles.rs"]
mod piles;
mod support;

fn parse(text: &str) -> Result<scene::Scene, SceneError> {
    scene::parse(text, "limits.ron")
}

/// The error of `text`, which must be a located parse error mentioning every part of `needles`.
fn located(text: &str, needles: &[&str]) -> (usize, usize) {
    match parse(text) {
        Ok(_) => panic!("accepted: {text}"),
        Err(SceneError::Parse { line, column, message, .. }) => {
            for n in needles {
                assert!(message.contains(n), "`{n}` missing from {message}");
            }
            (line, column)
        }
        Err(e) => panic!("not located: {e}"),
    }
}

fn body(fields: &str) -> String {
    format!("Scene(version: 1, bodies: [\n    Body(position: (0, 1), shape: Circle(radius: 0.5), {fields}),\n])")
}

#[test]
fn large_finite_values_are_located_errors_that_state_the_range() {
    assert_eq!(located(&body("density: 1e30"), &["`density`", "[0, 100000]", "1e30"]).0, 2);
    located(&body("density: -0.5"), &["`density`", "[0, 100000]", "-0.5"]);
    located(&body("angular_velocity: 1e30"), &["`angular_velocity`", "[-1000, 1000]"]);
    located(&body("friction: 1.8e19"), &["`friction`", "[0, 10]"]);
    located(&body("restitution: 10"), &["`restitution`", "[0, 1]"]);
    located(&body("linear_velocity: (500, 0)"), &["`linear_velocity`", "400 m/s"]);
    located(&body("gravity_scale: -1e9"), &["`gravity_scale`", "[-100, 100]"]);
    located("Scene(version: 1, bodies: [Body(position: (3e38, 0), shape: Circle(radius: 1))])", &["±100000"]);
    located("Scene(version: 1, settings: (gravity: (0, -1e12)))", &["`gravity`", "1000"]);
    // A generator whose bodies land out of range is an error at the generator.
    let rain = "Scene(version: 1, generators: [\n  Rain(columns: 3, rows: 3, spacing: (1e38, 1), shapes: [Circle(radius: 0.5)]),\n])";
    let (line, _) = located(rain, &["`spacing`", "±100000", "1e38"]);
    assert_eq!(line, 2);
    let far = "Scene(version: 1, generators: [\n  Rain(columns: 3, rows: 3, origin: (99999, 0), spacing: (2, 1), shapes: [Circle(radius: 0.5)]),\n])";
    let (line, _) = located(far, &["out of range"]);
    assert_eq!(line, 2);
}

#[test]
fn boxes_and_circles_share_one_minimum_size_and_say_it() {
    let tiny = |shape: &str| {
        parse(&format!("Scene(version: 1, bodies: [Body(position: (0, 1), shape: {shape})])")).map(|_| ())
    };
    assert!(tiny("Circle(radius: 0.005)").is_ok());
    assert!(tiny("Box(half_extents: (0.005, 0.005))").is_ok());
    let e = tiny("Box(half_extents: (0.004, 0.005))").unwrap_err().to_string();
    assert!(e.contains("0.005") && e.contains("between"), "{e}");
    let e = tiny("Circle(radius: 0.004)").unwrap_err().to_string();
    assert!(e.contains("0.005") && e.contains("between"), "{e}");
}

#[test]
fn bytes_that_are_not_utf8_are_located() {
    let path = std::env::temp_dir().join(format!("limits_utf8_{}.ron", std::process::id()));
    let mut bytes = b"Scene(version: 1, bodies: [\n  Body(position: (0, 1), name: \"b".to_vec();
    bytes.push(0xff);
    bytes.extend_from_slice(b"\", shape: Circle(radius: 1)),\n])");
    std::fs::write(&path, &bytes).unwrap();
    let e = scene::load(&path).unwrap_err();
    std::fs::remove_file(&path).ok();
    match e {
        SceneError::Parse { line, column, message, .. } => {
            assert_eq!((line, column), (2, 34), "{message}");
            assert!(message.contains("0xff") && message.contains("UTF-8"), "{message}");
        }
        other => panic!("not located: {other}"),
    }
}

/// 10,000 circles created at one point: each step adds at most `MAX_NEW_PAIRS` pairs, and
/// stops short of it only when its move-buffer queries visited `MAX_QUERY_VISITS` tree nodes
/// (each query of a coincident pile walks the whole tree); the pairs kept are the same on one
/// and two threads.
#[test]
fn ten_thousand_coincident_circles_step_within_the_pair_limit() {
    let pile = |threads: u32| {
        let mut w = World::new(SolverParams { threads, ..SolverParams::default() });
        let circle = Shape::circle(0.5).unwrap();
        for _ in 0..10_000 {
            w.create_body(&BodyDef::new(BodyKind::Dynamic, circle, Vec2::new(0.0, 5.0)));
        }
        w
    };
    let (mut w, mut two) = (pile(1), pile(2));
    let mut before = 0;
    for step in 1..=3 {
        w.step();
        two.step();
        let pairs = w.broadphase.pairs().len();
        let stats = w.broadphase.stats;
        assert_eq!(stats.new_pairs, pairs - before, "step {step}");
        assert!(stats.new_pairs <= MAX_NEW_PAIRS, "step {step}");
        let visits = stats.query.nodes_visited as u64;
        assert!(stats.new_pairs == MAX_NEW_PAIRS || visits > MAX_QUERY_VISITS, "step {step}: {visits}");
        if step == 1 {
            // The first queries report only pairs with smaller proxies: the visits bound them.
            assert!(stats.new_pairs < MAX_NEW_PAIRS && visits < 2 * MAX_QUERY_VISITS, "{visits}");
        }
        assert!(w.broadphase.pairs() == two.broadphase.pairs(), "step {step}: the pairs differ on two threads");
        before = pairs;
        assert!(pairs <= MAX_PAIRS);
        assert!(w.contacts.len() <= pairs);
        assert!(w.bodies.iter().all(|b| b.center.is_finite() && b.linear_velocity.is_finite()));
    }
    assert!(w.broadphase.stats.deferred > 0, "the limit was reached and reported");
    assert!(w.kinetic_energy().is_finite());
}

/// A closed box of static walls in zero gravity, all of restitution 1 (the upper limit).
fn closed_box() -> World {
    let mut w = World::new(SolverParams { gravity: Vec2::ZERO, ..SolverParams::default() });
    for (p, h) in [
        (Vec2::new(0.0, -5.5), Vec2::new(6.0, 0.5)),
        (Vec2::new(0.0, 5.5), Vec2::new(6.0, 0.5)),
        (Vec2::new(-5.5, 0.0), Vec2::new(0.5, 6.0)),
        (Vec2::new(5.5, 0.0), Vec2::new(0.5, 6.0)),
    ] {
        w.create_body(&BodyDef {
            material: Material { restitution: 1.0, ..Material::DEFAULT },
            ..BodyDef::new(BodyKind::Static, Shape::make_box(h).unwrap(), p)
        });
    }
    w
}

/// The largest kinetic energy over `steps` steps, as a multiple of the first.
fn peak_energy_ratio(w: &mut World, steps: usize) -> f32 {
    let start = w.kinetic_energy();
    let mut peak = start;
    for _ in 0..steps {
        w.step();
        peak = peak.max(w.kinetic_energy());
    }
    peak / start
}

#[test]
fn a_spinning_box_bouncing_at_restitution_one_never_gains_energy() {
    let mut w = closed_box();
    w.create_body(&BodyDef {
        material: Material { restitution: 1.0, friction: 0.0, ..Material::DEFAULT },
        linear_velocity: Vec2::new(7.0, 4.0),
        angular_velocity: 3.0,
        ..BodyDef::new(BodyKind::Dynamic, Shape::make_box(Vec2::new(0.6, 0.3)).unwrap(), Vec2::ZERO)
    });
    // f32 round-off only: a single body's bounces at e = 1 return exactly what came in.
    let ratio = peak_energy_ratio(&mut w, 1200);
    assert!(ratio <= 1.0 + 1e-5, "the box gained energy: ×{ratio}");
}

#[test]
fn forty_balls_at_restitution_one_stay_bounded() {
    let mut w = closed_box();
    let mut rng = SplitMix64::new(7);
    for i in 0..40 {
        let p = Vec2::new(-4.0 + (i % 8) as f32, -3.0 + (i / 8) as f32 * 1.5);
        let v = Vec2::new(rng.f32(-8.0, 8.0), rng.f32(-8.0, 8.0));
        w.create_body(&BodyDef {
            material: Material { restitution: 1.0, friction: 0.0, ..Material::DEFAULT },
            linear_velocity: v,
            ..BodyDef::new(BodyKind::Dynamic, Shape::circle(0.3).unwrap(), p)
        });
    }
    // Simultaneous contacts solved one after another can pass a little energy around (1.1 %
    // at most over these 20 s), but never build it up as restitution above 1 does.
    let ratio = peak_energy_ratio(&mut w, 1200);
    assert!(ratio < 1.05, "the balls gained energy: ×{ratio}");
}

/// The shipped scenes small enough to step often.
fn fuzz_bases() -> Vec<(PathBuf, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes");
    let mut out = Vec::new();
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "ron") {
            let text = std::fs::read_to_string(&p).unwrap();
            if scene::parse(&text, "base").is_ok_and(|s| s.body_count() <= 400) {
                out.push((p, text));
            }
        }
    }
    out.sort();
    out
}

/// One mutation: truncation, a byte flip, or a number swapped for an extreme one.
fn mutate(text: &str, rng: &mut SplitMix64) -> Vec<u8> {
    let extremes = ["1e38", "0", "-0.0001", "1e-30", "99999", "-7", "1000000", "0.001"];
    support::mutate::mutate(text, rng, 4, &extremes)
}

#[test]
fn mutated_scenes_load_and_step_finite_or_fail_located() {
    let cases: usize = std::env::var("FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(120);
    let bases = fuzz_bases();
    assert!(bases.len() >= 5, "{} small scenes", bases.len());
    let mut rng = SplitMix64::new(2026);
    let dir = std::env::temp_dir().join(format!("limits_fuzz_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (mut loaded, mut refused) = (0, 0);
    for case in 0..cases {
        let (base, text) = &bases[case % bases.len()];
        let bytes = mutate(text, &mut rng);
        let path = dir.join(format!("case{case}.ron"));
        std::fs::write(&path, &bytes).unwrap();
        match scene::load(&path) {
            Ok(s) => {
                loaded += 1;
                let mut w = s.build_world();
                for _ in 0..60 {
                    w.step();
                }
                let finite = w.bodies.iter().all(|b| b.center.is_finite() && b.angle.is_finite());
                assert!(finite && w.kinetic_energy().is_finite(), "case {case} from {}: not finite", base.display());
            }
            Err(SceneError::Parse { line, column, .. }) => {
                refused += 1;
                assert!(line >= 1 && column >= 1);
            }
            Err(e) => panic!("case {case} from {}: not located: {e}", base.display()),
        }
    }
    std::fs::remove_dir_all(&dir).ok();
    assert!(loaded > 0 && refused > 0, "{loaded} loaded, {refused} refused");
}

/// Every kind of file the labs read, mutated: each loads and runs its algorithm with finite
/// answers (3D worlds step 60 steps), or fails with `file:line:column`.
#[test]
fn mutated_lab_files_load_and_run_finite_or_fail_located() {
    use manifold_lab::engine::collide::collide;
    use manifold_lab::engine::collide::toi::ToiMethod;
    let cases: usize = std::env::var("FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(120);
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes");
    let mut bases = Vec::new();
    for dir in ["pairs", "hulls", "toi", "slice", "world3d"] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(root.join(dir)).unwrap().map(|e| e.unwrap().path()).collect();
        files.retain(|p| p.extension().is_some_and(|x| x == "ron"));
        files.sort();
        bases.extend(files.into_iter().map(|p| (dir, std::fs::read_to_string(&p).unwrap())));
    }
    let mut rng = SplitMix64::new(7);
    let dir = std::env::temp_dir().join(format!("limits_lab_fuzz_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let located = |r: Result<(), SceneError>, case: usize| match r {
        Ok(()) | Err(SceneError::Parse { .. }) => {}
        Err(e) => panic!("case {case}: not located: {e}"),
    };
    for case in 0..cases {
        let (kind, text) = &bases[case % bases.len()];
        let path = dir.join(format!("case{case}.ron"));
        std::fs::write(&path, mutate(text, &mut rng)).unwrap();
        let r = match *kind {
            "pairs" => scene::PairSpec::load(&path).map(|p| {
                let w = p.build_world();
                let (a, b) = (&w.bodies[0], &w.bodies[1]);
                let m = collide(&a.shape, &a.xf, &b.shape, &b.xf, 0.0);
                assert!(m.points().iter().all(|p| p.point.is_finite()), "case {case}: {m:?}");
            }),
            "hulls" => scene::HullsSpec::load(&path).map(|h| {
                let [a, b] = h.world_hulls();
                if let Some(c) = manifold_lab::engine::hull3d::sat::collide(&a, &b) {
                    assert!(c.separation.is_finite() && c.normal.is_finite(), "case {case}");
                }
            }),
            "toi" => scene::ToiSpec::load(&path).map(|t| {
                for m in ToiMethod::ALL {
                    let out = t.run(m, None);
                    assert!(out.t.is_finite() && (0.0..=1.0).contains(&out.t), "case {case}: {m:?} {out:?}");
                }
            }),
            "slice" => scene::SliceSpec::load(&path).map(|s| {
                let _ = s.trace();
            }),
            _ => scene::World3dScene::load(&path).map(|spec| {
                if let Ok(mut w) = spec.build_world() {
                    for _ in 0..60 {
                        w.step();
                    }
                    assert!(w.kinetic_energy().is_finite(), "case {case}: 3D world not finite");
                }
            }),
        };
        located(r, case);
    }
    std::fs::remove_dir_all(&dir).ok();
}
