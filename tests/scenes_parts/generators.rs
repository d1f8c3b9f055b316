//! Generators lay bodies out as documented; scenes built in code save and load; no input
//! makes the parser panic.

use super::root;
use glam::Vec2;
use manifold_lab::engine::shape::Shape;
use manifold_lab::engine::BodyKind;
use manifold_lab::scene::{self, Generator, Scene, ShapeDesc, ShapeSpec};
use proptest::prelude::*;

fn pyramid(base: u32, half_size: f32, origin: Vec2, gap: f32) -> Scene {
    let text = format!(
        "Scene(version: 1, generators: [Pyramid(base: {base}, half_size: {half_size}, origin: ({}, {}), gap: {gap})])",
        origin.x, origin.y
    );
    scene::parse(&text, "pyramid").unwrap()
}

#[test]
fn pyramid_of_base_n_has_n_n_plus_1_over_2_boxes_in_box2d_layout() {
    for n in 1..=15u32 {
        let world = pyramid(n, 0.5, Vec2::ZERO, 0.0).build_world();
        assert_eq!(world.bodies.len() as u32, n * (n + 1) / 2);
        // Box2D large_pyramid: row i, column j in i..n.
        let h = 0.5f32;
        let mut k = 0;
        for i in 0..n {
            for j in i..n {
                let x = (i as f32 + 1.0) * h + 2.0 * (j - i) as f32 * h - h * n as f32;
                let y = (2.0 * i as f32 + 1.0) * h;
                let p = world.bodies[k].center;
                assert!((p - Vec2::new(x, y)).length() < 1e-5, "n {n} row {i} col {j}: {p}");
                k += 1;
            }
        }
    }
    // Origin, size and gap: rows are 2h + gap apart, the bottom row rests on origin.y.
    let world = pyramid(3, 0.25, Vec2::new(10.0, 2.0), 0.1).build_world();
    let c: Vec<Vec2> = world.bodies.iter().map(|b| b.center).collect();
    assert_eq!(c.len(), 6);
    assert!((c[0] - Vec2::new(10.0 - 0.6, 2.25)).length() < 1e-5);
    assert!((c[2] - Vec2::new(10.0 + 0.6, 2.25)).length() < 1e-5);
    assert!((c[5] - Vec2::new(10.0, 2.25 + 1.2)).length() < 1e-5);
    assert_eq!(world.bodies[5].name, "pyramid_5");
}

#[test]
fn stack_places_shapes_on_top_of_each_other() {
    let s = scene::parse(
        "Scene(version: 1, generators: [Stack(count: 4, shape: Circle(radius: 0.5), origin: (1, 0.5), gap: 0.5, prefix: \"ball\")])",
        "stack",
    )
    .unwrap();
    let w = s.build_world();
    let ys: Vec<f32> = w.bodies.iter().map(|b| b.center.y).collect();
    assert_eq!(ys, vec![0.5, 2.0, 3.5, 5.0]);
    assert!(w.bodies.iter().all(|b| b.center.x == 1.0));
    assert_eq!(w.bodies[3].name, "ball3");
}

fn rain(seed: u64) -> Vec<(Vec2, f32)> {
    let text = format!(
        "Scene(version: 1, generators: [Rain(columns: 7, rows: 5, origin: (-3, 4), spacing: (1.5, 1.2), seed: {seed}, \
         jitter: 0.2, angle_jitter: 1.0, shapes: [Circle(radius: 0.4), Box(half_extents: (0.4, 0.3)), \
         Polygon(points: [(-0.4, -0.3), (0.4, -0.3), (0.0, 0.4)])])])"
    );
    scene::parse(&text, "rain").unwrap().build_world().bodies.iter().map(|b| (b.center, b.angle)).collect()
}

#[test]
fn rain_is_deterministic_per_seed_and_jitter_is_bounded() {
    let a = rain(7);
    assert_eq!(a.len(), 35);
    assert_eq!(a, rain(7));
    assert_ne!(a, rain(8));
    let w = scene::parse(
        "Scene(version: 1, generators: [Rain(columns: 3, rows: 2, origin: (0, 0), spacing: (2, 3), seed: 1, jitter: 0.25, \
         shapes: [Circle(radius: 0.4), Box(half_extents: (0.4, 0.3))])])",
        "rain",
    )
    .unwrap()
    .build_world();
    for (i, b) in w.bodies.iter().enumerate() {
        let grid = Vec2::new((i % 3) as f32 * 2.0, (i / 3) as f32 * 3.0);
        let d = b.position() - grid;
        assert!(d.x.abs() <= 0.25 && d.y.abs() <= 0.25, "body {i} off by {d}");
        assert_eq!(b.angle, 0.0);
        let is_circle = matches!(b.shape, Shape::Circle(_));
        assert_eq!(is_circle, i % 2 == 0, "shapes cycle");
    }
}

#[test]
fn programmatic_scenes_build_and_save() {
    let mut s = Scene::new("built in code");
    let ball = ShapeSpec::new(ShapeDesc::Circle { radius: 0.5 }).unwrap();
    s.bodies.push(scene::BodySpec::new(BodyKind::Dynamic, ball.clone(), Vec2::new(0.0, 3.0)));
    s.generators.push(Generator::Stack {
        count: 2,
        shape: ball,
        origin: Vec2::ZERO,
        gap: 0.0,
        prefix: "s".into(),
        density: 2.0,
        friction: 0.1,
        restitution: 0.3,
    });
    assert_eq!(s.build_world().bodies.len(), 3);
    let back = scene::parse(&s.to_ron_string().unwrap(), "code").unwrap();
    assert_eq!(back, s);
    assert!(ShapeSpec::new(ShapeDesc::Box { half_extents: Vec2::new(1.0, -1.0), radius: 0.0 }).is_err());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// Corrupting a valid file anywhere never panics: it parses, or reports file:line:col.
    #[test]
    fn corrupted_files_never_panic(cut in 0usize..2000, len in 0usize..12, junk in "[ -~\n]{0,8}") {
        let text = std::fs::read_to_string(root().join("scenes/default.ron")).unwrap();
        let mut bytes = text.into_bytes();
        let cut = cut.min(bytes.len());
        let end = (cut + len).min(bytes.len());
        bytes.splice(cut..end, junk.bytes());
        let text = String::from_utf8_lossy(&bytes).into_owned();
        match scene::parse(&text, "fuzz.ron") {
            Ok(s) => prop_assert!(s.build_world().bodies.len() <= 100_001 + s.bodies.len()),
            Err(e) => prop_assert!(e.to_string().starts_with("fuzz.ron:"), "{}", e),
        }
    }

    /// Any text at all is an error or a scene, never a panic.
    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,200}") {
        let _ = scene::parse(&text, "any.ron");
        let _ = scene::parse(&format!("Scene(version: 1, bodies: [{text}])"), "any.ron");
    }
}

#[test]
fn a_pyramid_grid_repeats_the_pyramid_pitch_apart() {
    let text = "Scene(version: 1, generators: [Pyramid(base: 3, half_size: 0.5, origin: (1.0, 2.0), \
                grid: (columns: 2, rows: 3, pitch: (5.0, 7.0)))])";
    let scene = scene::parse(text, "grid").unwrap();
    let world = scene.build_world();
    assert_eq!((world.bodies.len(), scene.body_count()), (6 * 6, 6 * 6));
    // Bottom row of pyramids first, left to right, each one bottom row first.
    let mut k = 0;
    for r in 0..3 {
        for c in 0..2 {
            let origin = Vec2::new(1.0 + 5.0 * c as f32, 2.0 + 7.0 * r as f32);
            for p in scene::pyramid_positions(3, 0.5, origin, 0.0) {
                assert_eq!(world.bodies[k].xf.p, p, "body {k}");
                k += 1;
            }
        }
    }
    // A bad count is an error at its line.
    let bad = "Scene(version: 1, generators: [\n  Pyramid(base: 3, grid: (columns: 0, rows: 3, pitch: (5.0, 7.0)))])";
    let e = scene::parse(bad, "bad.ron").unwrap_err().to_string();
    assert!(e.starts_with("bad.ron:2:") && e.contains("`columns` must be at least 1"), "{e}");
}

#[test]
fn bodies_created_asleep_stay_asleep_until_touched() {
    let text = "Scene(version: 1, settings: (gravity: (0.0, 0.0)), bodies: [\
                (name: \"ball\", position: (-2.0, 0.0), linear_velocity: (6.0, 0.0), shape: Circle(radius: 0.5)),\
                (name: \"sleeper\", position: (4.0, 3.0), shape: Circle(radius: 0.5), awake: false)],\
                generators: [Rain(columns: 3, rows: 1, origin: (0.0, 0.0), spacing: (1.0, 1.0), \
                shapes: [Box(half_extents: (0.5, 0.5))], awake: false)])";
    let scene = scene::parse(text, "asleep").unwrap();
    let mut world = scene.build_world();
    let awake = |w: &manifold_lab::engine::World| w.bodies.iter().map(|b| b.awake).collect::<Vec<_>>();
    assert_eq!(awake(&world), [true, false, false, false, false]);
    // Saved and read back, the sleepers are still asleep.
    let saved = scene::scene_from_world(&world, "asleep", None).to_ron_string().unwrap();
    assert!(saved.contains("awake: false"), "{saved}");
    let back = scene::parse(&saved, "saved").unwrap().build_world();
    assert_eq!(awake(&back), awake(&world));
    for _ in 0..30 {
        world.step();
    }
    // The ball (1 m from the first box, 10 steps away) has hit the row and woken it; the
    // sleeper above it, touched by nothing, sleeps on.
    assert_eq!(awake(&world)[1..], [false, true, true, true], "{:?}", awake(&world));
    assert!(world.bodies[2].linear_velocity.x > 0.0, "the first box was pushed");
}
