//! The Minkowski lab's other engines (issue "peer engines"; the 002 article's GJK): Box2D v3's
//! `b2ShapeDistance` and parry2d's `distance` and `closest_points` for the same pair, through
//! `manifold_lab::peers::box2d_distance` and `parry_contact`. Each peer's closest points are
//! drawn in its colour (Box2D orange rings, parry blue dots, joined by a segment) in the world
//! and, as `point A − point B`, in configuration space; a table sets them beside our GJK.

use super::view::MinkowskiView;
use crate::app::tools::compare::{peer_color, peer_color32};
use egui_macroquad::egui::{self, RichText};
use manifold_lab::engine::debug::{DebugDraw, Layer};
use manifold_lab::engine::number::Num;
use manifold_lab::engine::World;
use manifold_lab::peers::{box2d_distance, parry_contact, ClosestPoints, Engine};

/// Both peers' answers for bodies 0 and 1 of `world`, by engine.
pub fn answers(world: &World) -> Vec<(Engine, ClosestPoints)> {
    let (Some(a), Some(b)) = (world.bodies.first(), world.bodies.get(1)) else { return Vec::new() };
    let box2d = box2d_distance::shape_distance(&a.shape, &a.xf, &b.shape, &b.xf);
    let parry = parry_contact::closest_points(&a.shape, &a.xf, &b.shape, &b.xf);
    std::iter::once((Engine::Box2d, box2d)).chain(parry.map(|p| (Engine::Rapier, p))).collect()
}

/// Each peer's closest points joined by a segment: rings for Box2D, dots for parry.
pub fn draw_world(world: &World, d: &mut dyn DebugDraw) {
    for (e, c) in answers(world) {
        let color = peer_color(e);
        d.segment(Layer::Simplex, c.point_a, c.point_b, color);
        for p in [c.point_a, c.point_b] {
            if e == Engine::Box2d {
                d.circle(Layer::Simplex, p, 0.06, color.with_alpha(0.0), color);
            } else {
                d.point(Layer::Simplex, p, 6.0, color);
            }
        }
    }
}

/// Each peer's closest point of A − B to the origin, `point A − point B`.
pub fn draw_config(world: &World, d: &mut dyn DebugDraw) {
    for (e, c) in answers(world) {
        let color = peer_color(e);
        d.circle(Layer::Simplex, c.point_a - c.point_b, 0.05, color.with_alpha(0.0), color);
    }
}

/// The table: each engine's distance and how far it and its closest points lie from ours,
/// two lines per engine so it fits the panel.
pub fn section(ui: &mut egui::Ui, world: &World, v: &MinkowskiView) {
    let ours = &v.gjk_out;
    ui.label(RichText::new(format!("ours (GJK): distance {:.5}", Num(ours.distance))).strong());
    for (e, c) in answers(world) {
        let name = if e == Engine::Box2d { "Box2D v3" } else { "parry2d" };
        let head = format!("{name}: distance {:.5}, Δ {:+.1e}", Num(c.distance), c.distance - ours.distance);
        ui.label(RichText::new(head).color(peer_color32(e)));
        let (da, db) = (c.point_a.distance(ours.point_a), c.point_b.distance(ours.point_b));
        ui.label(RichText::new(format!("closest points from ours: A {da:.1e} m, B {db:.1e} m")).small());
    }
    ui.label(
        RichText::new("On overlap the distance is 0 in every engine and the points are not unique: EPA above.")
            .small()
            .weak(),
    );
}

/// The peers' answers for `--state-out`.
pub fn report(world: &World) -> serde_json::Value {
    let one = |c: &ClosestPoints| serde_json::json!({ "distance": c.distance, "point_a": [c.point_a.x, c.point_a.y], "point_b": [c.point_b.x, c.point_b.y] });
    answers(world).iter().map(|(e, c)| (e.cli_name().to_string(), one(c))).collect::<serde_json::Map<_, _>>().into()
}
