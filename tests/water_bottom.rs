//! The water's bottom: by default the floor of the basin the static bodies make under it (the
//! shipped tanks' floors), or the scene's `bottom`. Nothing below it is in the water: a body
//! wholly below feels no buoyancy and falls as it would in air, one across it is buoyed by the
//! part above it only (boxes and circles, exactly), and the water is drawn between the bottom
//! and the surface only. The scene field loads, is rejected with a located error, and saves.

use glam::Vec2;
use manifold_lab::engine::debug::{DebugList, DrawCmd, DrawOptions, Layer, LayerSet};
use manifold_lab::engine::math::Aabb;
use manifold_lab::engine::shape::Shape;
use manifold_lab::engine::solver::SolverParams;
use manifold_lab::engine::water::{Water, WaterParams};
use manifold_lab::engine::{BodyDef, BodyKind, Material, World};
use manifold_lab::scene;

fn load(name: &str) -> World {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes").join(name);
    scene::load(&path).unwrap_or_else(|e| panic!("{e}")).build_world()
}

fn add(w: &mut World, shape: Shape, position: Vec2, density: f32) -> usize {
    let def = BodyDef {
        material: Material { density, ..Material::DEFAULT },
        ..BodyDef::new(BodyKind::Dynamic, shape, position)
    };
    let i = w.create_body(&def);
    w.refresh_water();
    i
}

/// The top of the static body named `name`.
fn top(w: &World, name: &str) -> f32 {
    let b = w.bodies.iter().find(|b| b.name == name).unwrap_or_else(|| panic!("no {name}"));
    b.shape.compute_aabb(&b.xf).max.y
}

#[test]
fn the_shipped_tanks_floors_are_their_waters_bottoms() {
    for scene in ["buoyancy.ron", "waves.ron"] {
        let w = load(scene);
        assert_eq!(w.water_bottom(), Some(top(&w, "floor")), "{scene}");
        assert_eq!(w.water().unwrap().bottom, w.water_bottom(), "{scene}: the bottom in force");
    }
    // Without the floor the basin is open: no bottom.
    let mut w = load("buoyancy.ron");
    let floor = w.bodies.iter().position(|b| b.name == "floor").unwrap();
    w.bodies[floor].xf.p.y -= 100.0;
    w.bodies[floor].center.y -= 100.0;
    assert_eq!(w.water_bottom(), Some(top(&w, "floor")), "a floor far below is still the floor");
    w.bodies[floor].xf.p.x += 30.0;
    w.bodies[floor].center.x += 30.0;
    assert_eq!(w.water_bottom(), None, "moved from under the region: the basin is open");
}

#[test]
fn a_body_below_the_bottom_feels_no_water() {
    let mut w = load("buoyancy.ron");
    let bottom = w.water_bottom().unwrap();
    let floor_bottom = bottom - 1.0;
    // Under the floor, in the water's x range: a light box and a light ball (they would float
    // up if the water reached them).
    let boxed = add(&mut w, Shape::make_box(Vec2::new(0.5, 0.5)).unwrap(), Vec2::new(-3.0, floor_bottom - 2.0), 0.3);
    let ball = add(&mut w, Shape::circle(0.5).unwrap(), Vec2::new(3.0, floor_bottom - 2.0), 0.3);
    for i in [boxed, ball] {
        assert!(w.buoyancy(i).is_none(), "body {i} below the bottom is not in the water");
    }
    // They fall as in air: after a step their speed is gravity's alone.
    let dt = w.dt();
    w.step();
    for i in [boxed, ball] {
        let v = w.bodies[i].linear_velocity;
        assert!((v.y - w.params.gravity.y * dt).abs() < 1e-5 && v.x == 0.0, "body {i}: {v}");
        assert!(w.buoyancy(i).is_none());
    }
}

#[test]
fn a_body_across_the_bottom_is_buoyed_by_its_part_above_it() {
    let params = WaterParams { bottom: Some(-2.0), ..WaterParams::flat(0.0, (-10.0, 10.0)) };
    let mut w = World::new(SolverParams::default());
    w.set_water(Some(Water::new(params)));
    assert_eq!(w.water_bottom(), Some(-2.0), "the scene's bottom, though no floor is there");
    // A 1 × 1 box with its centre 0.2 above the bottom: 0.7 of it is in the water.
    let b = add(&mut w, Shape::make_box(Vec2::new(0.5, 0.5)).unwrap(), Vec2::new(-4.0, -1.8), 1.0);
    let r = w.buoyancy(b).unwrap();
    assert!((r.area - 0.7).abs() < 1e-5, "{}", r.area);
    assert!((r.centroid - Vec2::new(-4.0, -2.0 + 0.35)).length() < 1e-5, "{}", r.centroid);
    assert!((r.force - Vec2::new(0.0, 10.0 * 0.7)).length() < 1e-4, "{}", r.force);
    assert!(r.pieces.iter().flatten().all(|p| p.y >= -2.0 - 1e-6), "the pieces stay above the bottom");
    // A ball of radius 0.5 with its centre 0.2 above the bottom: the disk less the segment
    // below the bottom, by the midpoint rule.
    let c = add(&mut w, Shape::circle(0.5).unwrap(), Vec2::new(4.0, -1.8), 1.0);
    let r = w.buoyancy(c).unwrap();
    let (area, centroid_y) = disk_above(0.5, -0.2);
    assert!((r.area as f64 - area).abs() < 1e-5, "{} vs {area}", r.area);
    assert!((r.centroid.y as f64 - (-1.8 + centroid_y)).abs() < 1e-4, "{} vs {centroid_y}", r.centroid.y);
    assert!(r.pieces.iter().flatten().all(|p| p.y >= -2.0 - 1e-5));
    assert!(r.drag.iter().all(|a| a.point.y >= -2.0 - 1e-5), "drag only where water is");
    // Wholly below the bottom: nothing.
    let d = add(&mut w, Shape::circle(0.5).unwrap(), Vec2::new(0.0, -2.6), 1.0);
    assert!(w.buoyancy(d).is_none());
}

/// Area and centroid height (from the centre) of the part of a disk of radius `r` above the
/// line `h` from its centre, by the midpoint rule in f64.
fn disk_above(r: f64, h: f64) -> (f64, f64) {
    let n = 200_000;
    let dy = 2.0 * r / n as f64;
    let (mut area, mut moment) = (0.0, 0.0);
    for k in 0..n {
        let y = -r + (k as f64 + 0.5) * dy;
        if y > h {
            let width = 2.0 * (r * r - y * y).max(0.0).sqrt();
            area += width * dy;
            moment += y * width * dy;
        }
    }
    (area, moment / area)
}

/// Every point of the `Water` layer's filled polygons.
fn water_polygons(w: &World, view: Option<Aabb>) -> Vec<Vec2> {
    let mut d = DebugList::new(LayerSet::of(&[Layer::Water]));
    w.debug_draw(&mut d, &DrawOptions { view, ..Default::default() });
    d.cmds
        .iter()
        .filter_map(|c| match c {
            DrawCmd::Polygon { layer: Layer::Water, points, .. } => Some(points.clone()),
            _ => None,
        })
        .flatten()
        .collect()
}

#[test]
fn the_water_is_drawn_between_its_bottom_and_its_surface() {
    for scene in ["buoyancy.ron", "waves.ron"] {
        let w = load(scene);
        let bottom = w.water_bottom().unwrap();
        let view = Aabb::new(Vec2::new(-30.0, -40.0), Vec2::new(30.0, 10.0));
        for v in [Some(view), None] {
            let pts = water_polygons(&w, v);
            assert!(!pts.is_empty(), "{scene}: the water is drawn");
            let lowest = pts.iter().map(|p| p.y).fold(f32::MAX, f32::min);
            assert_eq!(lowest, bottom, "{scene} (view {v:?}): down to the bottom and no further");
        }
        // A view whose lower edge is above the bottom: down to the edge.
        let high = Aabb::new(Vec2::new(-30.0, bottom + 1.0), Vec2::new(30.0, 10.0));
        let lowest = water_polygons(&w, Some(high)).iter().map(|p| p.y).fold(f32::MAX, f32::min);
        assert_eq!(lowest, bottom + 1.0);
    }
    // An open basin (no statics under the water): down to the view's lower edge.
    let mut w = World::new(SolverParams::default());
    w.set_water(Some(Water::new(WaterParams::flat(0.0, (-5.0, 5.0)))));
    let view = Aabb::new(Vec2::new(-10.0, -40.0), Vec2::new(10.0, 10.0));
    let lowest = water_polygons(&w, Some(view)).iter().map(|p| p.y).fold(f32::MAX, f32::min);
    assert_eq!(lowest, -40.0);
}

#[test]
fn the_bottom_in_a_scene_file_loads_is_checked_and_saves() {
    let text = "Scene(version: 1,\n water: (level: 1, region: (-2, 2),\n  bottom: -3))";
    let w = scene::parse(text, "w.ron").unwrap().build_world();
    assert_eq!((w.water().unwrap().params.bottom, w.water_bottom()), (Some(-3.0), Some(-3.0)));
    let saved = scene::scene_from_world(&w, "b", None).to_ron_string().unwrap();
    assert!(saved.contains("bottom: -3"), "{saved}");
    let back = scene::parse(&saved, "back.ron").unwrap().build_world();
    assert_eq!(back.water().unwrap().params, w.water().unwrap().params);
    let e = scene::parse(&text.replace("-3", "2"), "w.ron").unwrap_err().to_string();
    assert!(e.starts_with("w.ron:") && e.contains("water: `bottom` must be a finite number below `level`"), "{e}");
    // Not written when not given.
    let plain = scene::scene_from_world(&load("buoyancy.ron"), "p", None).to_ron_string().unwrap();
    assert!(!plain.contains("bottom"), "{plain}");
}
