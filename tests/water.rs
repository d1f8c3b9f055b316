//! Water: bodies float at the depth their density ratio predicts (boxes exactly, circles by
//! the circular-segment equation solved here by numerical integration), sink when heavier,
//! right themselves; the buoyant force is ρ·g·A at the submerged centroid and leans with a
//! sloped surface; splashes conserve momentum; nothing becomes NaN whatever the input; and
//! the scene format loads, rejects and saves water.

use glam::Vec2;
use manifold_lab::engine::debug::OnLayer;
use manifold_lab::engine::shape::Shape;
use manifold_lab::engine::solver::SolverParams;
use manifold_lab::engine::water::{Surface, Water, WaterParams, Wave};
use manifold_lab::engine::{BodyDef, BodyKind, Material, World};
use manifold_lab::scene;
use proptest::prelude::*;

fn load(name: &str) -> World {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes").join(name);
    scene::load(&path).unwrap_or_else(|e| panic!("{e}")).build_world()
}

fn index(w: &World, name: &str) -> usize {
    w.bodies.iter().position(|b| b.name == name).unwrap_or_else(|| panic!("no body {name}"))
}

/// Steps to `seconds` of simulated time, then records `y` of `name`'s centre every step for one
/// more second: (min, mean, max).
fn settle(w: &mut World, name: &str, seconds: f32) -> (f32, f32, f32) {
    let i = index(w, name);
    for _ in 0..(seconds * w.params.hz) as usize {
        w.step();
    }
    let (mut lo, mut hi, mut sum, mut n) = (f32::MAX, f32::MIN, 0.0, 0);
    for _ in 0..w.params.hz as usize {
        w.step();
        let y = w.bodies[i].center.y;
        (lo, hi, sum, n) = (lo.min(y), hi.max(y), sum + y, n + 1);
    }
    (lo, sum / n as f32, hi)
}

#[test]
fn half_density_box_floats_with_its_centre_on_the_surface() {
    // Archimedes: a box of half the water's density floats half submerged, its centre on the
    // surface (level 0). It starts with its bottom on the surface.
    let mut w = load("buoyancy.ron");
    let level = w.water().unwrap().params.level;
    let i = index(&w, "half_density_box");
    for _ in 0..600 {
        w.step();
    }
    let y = w.bodies[i].center.y;
    assert!((y - level).abs() < 0.02, "after 10 s the centre is {y}, level {level}");
    let (lo, _, hi) = settle(&mut w, "half_density_box", 0.0);
    assert!((lo - level).abs() < 0.02 && (hi - level).abs() < 0.02, "through the 11th second: [{lo}, {hi}]");
    let report = w.buoyancy(i).expect("the box is in the water");
    assert!((report.fraction - 0.5).abs() < 0.03, "fraction {}", report.fraction);
}

/// Fraction of a unit-radius disk below a line `h` above its centre, by the midpoint rule.
fn disk_fraction_below(h: f64) -> f64 {
    let n = 100_000;
    let dy = (h + 1.0) / n as f64;
    let area: f64 = (0..n)
        .map(|k| {
            let y = -1.0 + (k as f64 + 0.5) * dy;
            2.0 * (1.0 - y * y).max(0.0).sqrt() * dy
        })
        .sum();
    area / std::f64::consts::PI
}

#[test]
fn a_quarter_density_circle_floats_at_the_analytic_depth() {
    // Submerged fraction = density ratio = 0.25: solve fraction(h) = 0.25 for the surface's
    // height h above the centre (in radii) by bisection; the centre floats at level − h·r.
    let (mut lo, mut hi) = (-1.0f64, 1.0f64);
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        if disk_fraction_below(mid) < 0.25 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let h = 0.5 * (lo + hi);
    let mut w = load("buoyancy.ron");
    let i = index(&w, "ball_quarter");
    let radius = match w.bodies[i].shape {
        Shape::Circle(c) => c.radius,
        _ => panic!("ball_quarter is a circle"),
    };
    assert_eq!(w.bodies[i].material.density / w.water().unwrap().params.density, 0.25);
    let expected = w.water().unwrap().params.level - h as f32 * radius;
    let (min, mean, max) = settle(&mut w, "ball_quarter", 10.0);
    assert!((mean - expected).abs() < 0.005, "mean centre {mean}, analytic {expected} (h = {h})");
    assert!(max - min < 0.03, "still bobbing by {}", max - min);
    let fraction = w.buoyancy(i).unwrap().fraction;
    assert!((fraction - 0.25).abs() < 0.02, "reported fraction {fraction}");
}

#[test]
fn heavy_bodies_reach_the_bottom_and_stay() {
    let mut w = load("buoyancy.ron");
    let floor_top = {
        let f = &w.bodies[index(&w, "floor")];
        f.shape.compute_aabb(&f.xf).max.y
    };
    for _ in 0..600 {
        w.step();
    }
    for (name, half_height) in [("heavy", 0.4), ("ball_dense", 0.4)] {
        let b = &w.bodies[index(&w, name)];
        assert!((b.center.y - (floor_top + half_height)).abs() < 0.01, "{name} at {}", b.center.y);
        assert!(b.linear_velocity.length() < 0.05, "{name} moves at {}", b.linear_velocity);
        // Still buoyed while resting: fully submerged.
        assert!((w.buoyancy(index(&w, name)).unwrap().fraction - 1.0).abs() < 1e-4);
    }
}

#[test]
fn a_tilted_plank_rights_itself_and_floats_flat() {
    let mut w = load("buoyancy.ron");
    let i = index(&w, "plank");
    assert!(w.bodies[i].angle > 0.25, "starts tilted");
    for _ in 0..600 {
        w.step();
    }
    let b = &w.bodies[i];
    assert!(b.angle.abs() < 0.02, "angle {} after 10 s", b.angle);
    assert!(b.center.y.abs() < 0.02, "half density: centre {} on the surface", b.center.y);
}

fn world_with(water: WaterParams) -> World {
    let mut w = World::new(SolverParams::default());
    w.set_water(Some(Water::new(water)));
    w
}

fn add(w: &mut World, shape: Shape, position: Vec2, angle: f32, density: f32) -> usize {
    let i = w.create_body(&BodyDef {
        angle,
        material: Material { density, ..Material::DEFAULT },
        ..BodyDef::new(BodyKind::Dynamic, shape, position)
    });
    w.refresh_water();
    i
}

#[test]
fn an_undamped_floating_box_bobs_without_gaining_energy() {
    // Without drag a floating box's heave is an undamped spring (stiffness ρ·g·width per
    // mass): the integrator may keep its energy but must not add any. Buoyancy held from the
    // step's start through the sub-steps added (6/16)·dt²·k/m of amplitude squared per step,
    // about 0.2 % here: the bob grew without bound until it left the water.
    let mut w = world_with(WaterParams::flat(0.0, (-10.0, 10.0)));
    assert_eq!(w.params.substeps, 4);
    // A 2 × 0.5 box of half the water's density floats with its centre on the surface;
    // released 5 cm low.
    let b = add(&mut w, Shape::make_box(Vec2::new(1.0, 0.25)).unwrap(), Vec2::new(0.0, -0.05), 0.0, 0.5);
    let amplitude = |w: &mut World, steps: usize| {
        (0..steps).fold(0.0f32, |m, _| {
            w.step();
            m.max(w.bodies[b].center.y.abs())
        })
    };
    let first = amplitude(&mut w, 60);
    assert!((first - 0.05).abs() < 0.005, "the first second's amplitude {first}");
    let _ = amplitude(&mut w, 59 * 60);
    let last = amplitude(&mut w, 60);
    assert!(last <= 1.02 * first, "after a minute the box bobs {last} m, from {first} m");
    assert!(last >= 0.9 * first, "and nothing damped it either: {last} m");
}

#[test]
fn a_diamond_half_under_gets_rho_g_a_at_its_submerged_centroid() {
    // A unit square turned 45° with its centre 0.2 below the surface: the part above is a
    // triangle of height d = √2/2 − 0.2 (area d²), so the submerged area is 1 − d².
    let mut w = world_with(WaterParams { density: 2.0, ..WaterParams::flat(0.0, (-10.0, 10.0)) });
    let b =
        add(&mut w, Shape::make_box(Vec2::splat(0.5)).unwrap(), Vec2::new(1.0, -0.2), std::f32::consts::FRAC_PI_4, 1.0);
    let r = w.buoyancy(b).unwrap().clone();
    let d = std::f32::consts::FRAC_1_SQRT_2 - 0.2;
    let area = 1.0 - d * d;
    assert!((r.area - area).abs() < 1e-5, "{} vs {area}", r.area);
    assert!((r.fraction - area).abs() < 1e-5);
    // First moments: the whole square's centroid is (1, −0.2); the triangle above has its
    // centroid d/3 below its apex at −0.2 + √2/2.
    let tri_y = -0.2 + std::f32::consts::FRAC_1_SQRT_2 - 2.0 * d / 3.0;
    let y = (-0.2 - d * d * tri_y) / area;
    assert!((r.centroid - Vec2::new(1.0, y)).length() < 1e-5, "{} vs (1, {y})", r.centroid);
    assert!((r.force - Vec2::new(0.0, 2.0 * 10.0 * area)).length() < 1e-4, "{}", r.force);
    assert!(r.torque.abs() < 1e-4, "symmetric: no torque");
    assert_eq!((r.drag_force, r.drag.len()), (Vec2::ZERO, 0), "at rest: no drag");
}

#[test]
fn under_a_sloped_surface_the_pressure_also_pushes_sideways() {
    // Columns on a straight ramp of slope 0.1: a fully submerged box feels ρ·g·A·(−0.1, 1).
    let params = WaterParams {
        surface: Surface::Simulated { columns: 41, stiffness: 0.0, spread: 0.0, damping: 0.0 },
        ..WaterParams::flat(0.0, (-10.0, 10.0))
    };
    let mut water = Water::new(params);
    for (i, h) in water.state.heights.iter_mut().enumerate() {
        *h = 2.0 + 0.1 * (-10.0 + 0.5 * i as f32);
    }
    let mut w = World::new(SolverParams::default());
    w.set_water(Some(water));
    let b = add(&mut w, Shape::make_box(Vec2::new(1.0, 0.5)).unwrap(), Vec2::new(0.3, 0.0), 0.0, 1.0);
    let r = w.buoyancy(b).unwrap();
    assert!((r.area - 2.0).abs() < 1e-5);
    assert!((r.force - 20.0 * Vec2::new(-0.1, 1.0)).length() < 1e-3, "{}", r.force);
    assert!(r.pieces.len() >= 4, "one piece per column interval under the box: {}", r.pieces.len());
    // Across the surface on the ramp (it runs from 1.4 to 1.6 over the box, bottom 1.0, top
    // 2.0): the pieces follow the ramp, area = ∫ (surface − bottom) dx.
    let c = add(&mut w, Shape::make_box(Vec2::new(1.0, 0.5)).unwrap(), Vec2::new(-5.0, 1.5), 0.0, 1.0);
    let r = w.buoyancy(c).unwrap();
    let area: f32 = 2.0 * ((2.0 + 0.1 * -5.0) - 1.0);
    assert!((r.area - area).abs() < 1e-4, "{} vs {area}", r.area);
    assert!((r.force.x / r.force.y + 0.1).abs() < 1e-4);
}

#[test]
fn a_circle_across_the_end_of_the_water_is_clipped_there() {
    // Centre on x_max, half below the surface: a quarter disk is in the water (32-gon: within
    // 1 % of π r²/4). Well inside, the same circle is exact.
    let mut w = world_with(WaterParams::flat(0.0, (-10.0, 10.0)));
    let edge = add(&mut w, Shape::circle(1.0).unwrap(), Vec2::new(10.0, 0.0), 0.0, 0.5);
    let inside = add(&mut w, Shape::circle(1.0).unwrap(), Vec2::new(0.0, 0.0), 0.0, 0.5);
    let quarter = std::f32::consts::FRAC_PI_4;
    let r = w.buoyancy(edge).unwrap();
    assert!((r.area - quarter).abs() < 0.01 * quarter, "{}", r.area);
    assert!(r.centroid.x < 10.0 && r.centroid.y < 0.0);
    let r = w.buoyancy(inside).unwrap();
    assert!((r.area - 2.0 * quarter).abs() < 1e-5);
    let out = add(&mut w, Shape::circle(1.0).unwrap(), Vec2::new(11.5, 0.0), 0.0, 0.5);
    assert!(w.buoyancy(out).is_none(), "beyond the region: no water");
}

#[test]
fn drag_opposes_motion_through_the_water() {
    let mut w = world_with(WaterParams { linear_drag: 1.0, ..WaterParams::flat(0.0, (-10.0, 10.0)) });
    let b = add(&mut w, Shape::make_box(Vec2::splat(0.5)).unwrap(), Vec2::new(0.0, -2.0), 0.0, 1.0);
    w.bodies[b].linear_velocity = Vec2::new(2.0, 0.0);
    w.refresh_water();
    let r = w.buoyancy(b).unwrap();
    // Only the right face (normal +x) faces the flow: ρ·C·v²·L = 1·1·4·1 along −x.
    assert_eq!(r.drag.len(), 1);
    assert!((r.drag_force - Vec2::new(-4.0, 0.0)).length() < 1e-4, "{}", r.drag_force);
    // A neutrally buoyant box slows down and does not sink or rise.
    for _ in 0..120 {
        w.step();
    }
    assert!(w.bodies[b].linear_velocity.x < 1.0 && w.bodies[b].linear_velocity.x > 0.0);
    assert!((w.bodies[b].center.y + 2.0).abs() < 1e-3);
}

#[test]
fn entering_the_water_conserves_vertical_momentum() {
    // No gravity (so no buoyancy) and no drag: the splash's inelastic exchange is the only
    // interaction, and body plus columns keep their total vertical momentum.
    let params = WaterParams {
        surface: Surface::Simulated { columns: 101, stiffness: 0.0, spread: 0.0, damping: 0.0 },
        ..WaterParams::flat(0.0, (-5.0, 5.0))
    };
    let mut w = World::new(SolverParams { gravity: Vec2::ZERO, ..Default::default() });
    w.set_water(Some(Water::new(params)));
    let b = add(&mut w, Shape::circle(0.3).unwrap(), Vec2::new(0.02, 0.31), 0.0, 1.0);
    w.bodies[b].linear_velocity = Vec2::new(0.0, -3.0);
    let spacing = 0.1f32;
    let momentum = |w: &World| {
        let water = w.water().unwrap();
        let columns: f32 = water.state.velocities.iter().map(|v| v * water.params.density * spacing * spacing).sum();
        w.bodies[b].mass * w.bodies[b].linear_velocity.y + columns
    };
    let before = momentum(&w);
    let mut splashed = 0;
    for _ in 0..20 {
        w.step();
        splashed = splashed.max(w.water().unwrap().state.velocities.iter().filter(|v| **v < 0.0).count());
    }
    assert!(splashed >= 3, "the ball pushed columns down: {splashed}");
    assert!(w.bodies[b].linear_velocity.y > -3.0, "and was slowed by them");
    assert!((momentum(&w) - before).abs() < 1e-4 * before.abs(), "{} vs {before}", momentum(&w));
}

#[test]
fn splashes_make_waves_that_rock_the_boats_and_the_water_settles() {
    // How long the splash's waves take to die down depends on where the boats happen to be
    // (the run is chaotic: 50 to 110 s for one to eight sub-steps), so the check waits 150 s;
    // what must not happen is a bob that never ends (buoyancy held over a step's sub-steps kept
    // the boats moving at 0.17 m/s after five minutes, and growing).
    let mut w = load("waves.ron");
    let raft = index(&w, "raft");
    let start = w.bodies[raft].center;
    let level = w.water().unwrap().params.level;
    let wave_height = |w: &World| w.water().unwrap().state.heights.iter().fold(0.0f32, |m, h| m.max((h - level).abs()));
    let (mut rocked, mut early, mut late, mut speed) = (0.0f32, 0.0f32, 0.0f32, 0.0f32);
    for step in 0..150 * 60 {
        w.step();
        rocked = rocked.max(w.bodies[raft].angle.abs());
        if (5 * 60..10 * 60).contains(&step) {
            early = early.max(wave_height(&w));
        }
        if step >= 140 * 60 {
            late = late.max(wave_height(&w));
            speed = w.bodies.iter().fold(speed, |m, b| m.max(b.linear_velocity.length()));
        }
    }
    assert!(early > 0.1, "the ball's splash made waves: {early}");
    assert!(rocked > 0.05, "the raft was rocked: {rocked}");
    assert!((w.bodies[raft].center - start).length() > 0.1, "and moved");
    assert!(late < 0.01, "after 140 s the surface is still {late} off level");
    assert!(speed < 0.05, "after 140 s a body still moves at {speed} m/s");
    assert!(w.bodies.iter().all(|b| b.center.is_finite()));
}

fn water_strategy() -> impl Strategy<Value = WaterParams> {
    let surface = prop_oneof![
        Just(Surface::Flat),
        prop::collection::vec((0.0f32..5.0, 0.01f32..50.0, -100.0f32..100.0), 1..4).prop_map(|w| Surface::Waves(
            w.into_iter().map(|(amplitude, wavelength, speed)| Wave { amplitude, wavelength, speed }).collect()
        )),
        (2u32..300, 0.0f32..1e4, 0.0f32..1e5, 0.0f32..1e3).prop_map(|(columns, stiffness, spread, damping)| {
            Surface::Simulated { columns, stiffness, spread, damping }
        }),
    ];
    let depth = prop::option::of(0.01f32..30.0);
    (-5.0f32..5.0, 1e-3f32..1e6, 0.0f32..1e4, 0.0f32..1e4, -50.0f32..0.0, 0.01f32..100.0, surface, depth).prop_map(
        |(level, density, linear_drag, angular_drag, x_min, width, surface, depth)| WaterParams {
            level,
            density,
            linear_drag,
            angular_drag,
            region: (x_min, x_min + width),
            surface,
            bottom: depth.map(|d| level - d),
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(120))]

    #[test]
    fn no_input_makes_anything_nan(
        params in water_strategy(),
        bodies in prop::collection::vec((0usize..3, 0.01f32..20.0, -20.0f32..20.0, -10.0f32..10.0, 1e-3f32..100.0, -300.0f32..300.0, -50.0f32..50.0), 1..8),
        hz in prop::sample::select(vec![1.0f32, 60.0, 1000.0]),
    ) {
        prop_assume!(params.validate().is_ok());
        let mut w = World::new(SolverParams { hz, ..Default::default() });
        w.set_water(Some(Water::new(params)));
        for (kind, size, x, y, density, v, spin) in bodies {
            let shape = match kind {
                0 => Shape::circle(size).unwrap(),
                1 => Shape::make_box(Vec2::new(size, 0.05 * size + 0.01)).unwrap(),
                _ => Shape::make_box(Vec2::splat(size)).unwrap(),
            };
            let i = w.create_body(&BodyDef { material: Material { density, ..Material::DEFAULT }, ..BodyDef::new(BodyKind::Dynamic, shape, Vec2::new(x, y)) });
            w.bodies[i].linear_velocity = Vec2::new(0.3 * v, v);
            w.bodies[i].angular_velocity = spin;
        }
        for _ in 0..40 {
            w.step();
            for b in &w.bodies {
                prop_assert!(b.center.is_finite() && b.angle.is_finite() && b.linear_velocity.is_finite());
            }
            let water = w.water().unwrap();
            prop_assert!(water.state.heights.iter().chain(&water.state.velocities).all(|h| h.is_finite()));
            for r in &water.reports {
                prop_assert!(r.force.is_finite() && r.drag_force.is_finite() && r.centroid.is_finite());
                prop_assert!(r.area > 0.0 && r.fraction <= 1.0);
                prop_assert!(r.angular_drag_rate.is_finite() && r.angular_drag_rate >= 0.0);
            }
        }
    }
}

#[test]
fn water_in_scene_files_loads_rejects_and_saves_its_state() {
    let ok = "Scene(version: 1, water: (level: 1, region: (-2, 2), surface: Simulated(columns: 5, stiffness: 1, \
              spread: 10, damping: 0.1)))";
    let s = scene::parse(ok, "w.ron").unwrap();
    let w = s.build_world();
    let water = w.water().unwrap();
    assert_eq!((water.params.density, water.params.linear_drag, water.state.heights.len()), (1.0, 0.0, 5));
    assert!(scene::parse("Scene(version: 1)", "old.ron").unwrap().build_world().water().is_none());
    let err = |text: &str| scene::parse(text, "w.ron").unwrap_err().to_string();
    let e = err("Scene(version: 1,\n water: (level: 0,\n  region: (3, 1)))");
    assert!(e.starts_with("w.ron:3:11: water: `region` must be"), "{e}");
    let e = err("Scene(version: 1, water: (level: 0, region: (0, 1), surface: Waves([])))");
    assert!(e.contains("water: `surface`: `Waves` needs 1 to 16 waves"), "{e}");
    let e = err("Scene(version: 1, water: (level: 0, region: (0, 1), depth: 3))");
    assert!(e.contains("water: unknown field `depth`"), "{e}");
    let e = err("Scene(version: 1, water: (level: 0, region: (0, 1), columns: [(0, 0)]))");
    assert!(e.contains("`columns` (saved column state) needs a `Simulated` surface"), "{e}");

    // A world saved mid-splash reads back to the same state and goes on identically.
    let mut w = load("waves.ron");
    for _ in 0..80 {
        w.step();
    }
    let saved = scene::scene_from_world(&w, "mid", None);
    let text = saved.to_ron_string().unwrap();
    assert!(text.contains("columns: ["), "the moving columns are saved");
    let mut back = scene::parse(&text, "mid.ron").unwrap().build_world();
    assert_eq!(back.state_hash(), w.state_hash());
    for _ in 0..60 {
        w.step();
        back.step();
    }
    assert_eq!(back.state_hash(), w.state_hash());
    let mut b = load("buoyancy.ron");
    b.step();
    let text = scene::scene_from_world(&b, "b", None).to_ron_string().unwrap();
    assert!(text.contains("time: ") && !text.contains("columns"), "flat water saves only its clock");
}

#[test]
fn the_water_layers_draw_the_surface_submerged_parts_and_forces() {
    use manifold_lab::engine::debug::{DebugList, DrawCmd, DrawOptions, Layer, LayerSet};
    let mut w = load("waves.ron");
    for _ in 0..90 {
        w.step();
    }
    let mut all = DebugList::new(LayerSet::ALL);
    w.debug_draw(&mut all, &DrawOptions::default());
    let pieces: usize = w.water().unwrap().reports.iter().map(|r| r.pieces.len()).sum();
    assert!(pieces > 0);
    assert_eq!(all.count(Layer::Submerged), pieces);
    // The surface: one segment per column interval, and as many quads of water under it.
    let surface = all.cmds.iter().filter(|c| matches!(c, DrawCmd::Segment { layer: Layer::Water, .. })).count();
    assert_eq!(surface, 120);
    assert!(all.count(Layer::Water) >= 2 * 120 - 5);
    let reports = w.water().unwrap().reports.len();
    let points = all.cmds.iter().filter(|c| matches!(c, DrawCmd::Point { layer: Layer::Buoyancy, .. })).count();
    assert_eq!(points, reports, "a centre of buoyancy per body in the water");
    // The water is drawn before the first body, so it lies under them.
    let first_water = all.cmds.iter().position(|c| c.layer() == Layer::Water).unwrap();
    let first_shape = all.cmds.iter().position(|c| c.layer() == Layer::Shape).unwrap();
    assert!(first_water < first_shape);
    let mut none = DebugList::new(LayerSet::of(&[Layer::Shape]));
    w.debug_draw(&mut none, &DrawOptions::default());
    assert!(none.cmds.iter().all(|c| c.layer() == Layer::Shape));
}

#[test]
fn a_capsule_half_under_displaces_half_its_area_below_the_surface() {
    // A level capsule (half length l, radius r) centred on the surface: by symmetry the lower
    // half is under, area 2lr + πr²/2, centroid from the rectangle half (at −r/2) and the half
    // disk the two lower caps make (at −4r/3π). The caps are clipped as 16-sided half
    // polygons, inscribed, so the area is a little under the exact one.
    let (l, r) = (1.0f32, 0.4f32);
    let mut w = world_with(WaterParams { density: 2.0, ..WaterParams::flat(0.0, (-10.0, 10.0)) });
    let capsule = Shape::capsule(Vec2::new(-l, 0.0), Vec2::new(l, 0.0), r).unwrap();
    let b = add(&mut w, capsule, Vec2::new(2.0, 0.0), 0.0, 1.0);
    let rep = w.buoyancy(b).unwrap().clone();
    let (rect, half_disk) = (2.0 * l * r, std::f32::consts::PI * r * r / 2.0);
    let area = rect + half_disk;
    assert!(rep.area < area && rep.area > area - 0.01 * half_disk, "{} vs {area}", rep.area);
    assert!((rep.fraction - 0.5).abs() < 0.005, "{}", rep.fraction);
    let y = (rect * (-r / 2.0) + half_disk * (-4.0 * r / (3.0 * std::f32::consts::PI))) / area;
    assert!((rep.centroid - Vec2::new(2.0, y)).length() < 2e-3, "{} vs (2, {y})", rep.centroid);
    assert!((rep.force.y - 2.0 * 10.0 * rep.area).abs() < 1e-3 && rep.torque.abs() < 1e-3);
}

#[test]
fn bodies_on_moving_water_stay_awake_and_on_still_water_fall_asleep() {
    let mut waves = load("waves.ron");
    let mut flat = load("buoyancy.ron");
    for _ in 0..600 {
        waves.step();
        flat.step();
    }
    let floating = |w: &World| w.water().unwrap().reports.iter().map(|r| r.body).collect::<Vec<_>>();
    assert!(!floating(&waves).is_empty());
    assert!(floating(&waves).iter().all(|&i| waves.bodies[i].awake), "waves carry what floats");
    assert!(floating(&flat).iter().any(|&i| !flat.bodies[i].awake), "still water lets floaters rest");
    // Changing the water wakes what is in it.
    let _ = flat.water_mut();
    assert!(floating(&flat).iter().all(|&i| flat.bodies[i].awake));
}
