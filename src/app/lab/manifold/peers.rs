//! The Manifold lab's other engines (issue "peer engines"): Box2D v3's manifold for the same
//! pair (`b2CollidePolygons`, `b2CollidePolygonAndCircle`, `b2CollideCapsules`, ... through
//! `manifold_lab::peers::box2d_manifold`) and parry2d's contact (`parry::query::contact`), drawn
//! over ours (Box2D orange rings and normal, parry blue points and normal) and set beside ours in
//! a table of differences.

use crate::app::tools::compare::{peer_color, peer_color32 as color32};
use egui_macroquad::egui::{self, RichText};
use glam::Vec2;
use manifold_lab::engine::collide::Manifold;
use manifold_lab::engine::debug::{DebugDraw, Layer};
use manifold_lab::engine::World;
use manifold_lab::peers::box2d_manifold::{self, B2Manifold};
use manifold_lab::peers::parry_contact::{self, ParryContact};
use manifold_lab::peers::Engine;

/// Both peers' answers for bodies 0 and 1 of `world`.
pub struct PeerAnswers {
    /// `None` when Box2D would weld one of the polygons (its hull drops a vertex).
    pub box2d: Option<B2Manifold>,
    /// `None` when parry finds no contact within the world's speculative margin.
    pub parry: Option<ParryContact>,
}

pub fn answers(world: &World) -> Option<PeerAnswers> {
    let (a, b) = (world.bodies.first()?, world.bodies.get(1)?);
    let box2d = (box2d_manifold::accepts(&a.shape) && box2d_manifold::accepts(&b.shape))
        .then(|| box2d_manifold::collide(&a.shape, &a.xf, &b.shape, &b.xf));
    let parry = parry_contact::contact(&a.shape, &a.xf, &b.shape, &b.xf, world.params.speculative_margin);
    Some(PeerAnswers { box2d, parry })
}

/// Box2D's points as rings with their normal, parry's point pair and normal.
pub fn draw(world: &World, d: &mut dyn DebugDraw) {
    let Some(p) = answers(world) else { return };
    let scale = super::trace_view::axis_scale(world, 0, 1);
    let orange = peer_color(Engine::Box2d);
    for (point, _) in p.box2d.iter().flat_map(|m| m.points.iter()) {
        d.circle(Layer::Contact, *point, 0.12 * scale, orange.with_alpha(0.0), orange);
        d.arrow(Layer::Normal, *point, *point + scale * p.box2d.as_ref().map_or(Vec2::ZERO, |m| m.normal), orange);
    }
    if let Some(c) = p.parry {
        let blue = peer_color(Engine::Rapier);
        d.point(Layer::Contact, c.point_a, 6.0, blue);
        d.point(Layer::Contact, c.point_b, 6.0, blue);
        d.arrow(Layer::Normal, c.point_a, c.point_a + scale * c.normal, blue);
    }
}

/// The angle between two normals, degrees.
fn degrees(a: Vec2, b: Vec2) -> f32 {
    a.angle_between(b).abs().to_degrees()
}

/// Each of Box2D's points: its separation, the nearest of our points and how far it is,
/// and our separation there (ours is a depth: separation = −depth).
fn box2d_rows(ui: &mut egui::Ui, ours: &Manifold, m: &B2Manifold) {
    ui.label(format!(
        "normal Δ {:.3}°, {} point(s), ours {}",
        degrees(ours.normal, m.normal),
        m.points.len(),
        ours.count
    ));
    egui::Grid::new("box2d_points").num_columns(3).striped(true).show(ui, |ui| {
        ui.label(RichText::new("separation").strong());
        ui.label(RichText::new("ours").strong());
        ui.label(RichText::new("Δ point m").strong());
        ui.end_row();
        for &(point, separation) in &m.points {
            ui.label(format!("{separation:.4}"));
            match ours.points().iter().min_by(|a, b| a.point.distance(point).total_cmp(&b.point.distance(point))) {
                Some(o) => {
                    ui.label(format!("{:.4}", -o.penetration));
                    ui.label(format!("{:.4}", o.point.distance(point)));
                }
                None => {
                    ui.label("-");
                    ui.label("-");
                }
            }
            ui.end_row();
        }
    });
}

/// The right panel's "Other engines" section under our manifold.
pub fn section(ui: &mut egui::Ui, world: &World, ours: &Manifold) {
    let Some(p) = answers(world) else { return };
    ui.label(RichText::new("Box2D v3").strong().color(color32(Engine::Box2d)));
    match &p.box2d {
        Some(m) => box2d_rows(ui, ours, m),
        None => {
            ui.label(RichText::new("Box2D welds a vertex of this polygon: not compared").small());
        }
    }
    ui.label(RichText::new("parry2d (one point pair)").strong().color(color32(Engine::Rapier)));
    match p.parry {
        Some(c) => {
            let deepest = ours.points().iter().map(|q| -q.penetration).reduce(f32::min);
            ui.label(format!("distance {:.4}, ours {}", c.distance, deepest.map_or("-".into(), |d| format!("{d:.4}"))));
            ui.label(format!("normal Δ {:.3}°", degrees(ours.normal, c.normal)));
        }
        None => {
            ui.label(RichText::new("no contact within the margin").small());
        }
    }
}
