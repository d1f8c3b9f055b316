//! The time-of-impact lab's other engines (issue "peer engines"; the 004 article's
//! "Continuous collision"): Box2D v3's `b2TimeOfImpact` and parry2d's nonlinear shape cast
//! (`cast_shapes_nonlinear`) on the lab's sweep, through `manifold_lab::peers::box2d_toi` and
//! `parry_toi`. Each peer's pose at its time of impact is outlined in its colour (Box2D orange,
//! parry blue) with its point and normal, a legend names every engine's time, and a table sets
//! each answer beside the shown method's.

use super::ToiLab;
use crate::app::stage::Stage;
use crate::app::tools::compare::{color32, peer_color};
use egui_macroquad::egui::{self, RichText};
use glam::Vec2;
use manifold_lab::engine::collide::support::draw_proxy;
use manifold_lab::engine::collide::toi::{ToiInput, ToiOutput, ToiState};
use manifold_lab::engine::debug::{palette, Color, DebugDraw, Layer};
use manifold_lab::engine::number::Num;
use manifold_lab::peers::{box2d_toi, parry_toi, Engine};

/// Both peers' answers on one sweep.
pub struct PeerAnswers {
    pub box2d: ToiOutput,
    /// `None` when parry refuses a shape (a polygon it does not take as convex).
    pub parry: Option<ToiOutput>,
}

pub fn answers(input: &ToiInput) -> PeerAnswers {
    PeerAnswers { box2d: box2d_toi::time_of_impact(input), parry: parry_toi::time_of_impact(input) }
}

/// Whether an answer has a pose worth drawing (a hit, or the last safe time of a failure).
fn has_pose(o: &ToiOutput) -> bool {
    matches!(o.state, ToiState::Hit | ToiState::IterationLimit)
}

/// Each engine's answer as (name, colour, output), ours (the shown method) first.
fn rows<'a>(lab: &'a ToiLab, p: &'a PeerAnswers) -> Vec<(&'static str, Color, &'a ToiOutput)> {
    let mut rows = vec![("ours", palette::WINNER, lab.result()), ("Box2D v3", peer_color(Engine::Box2d), &p.box2d)];
    if let Some(o) = &p.parry {
        rows.push(("parry2d", peer_color(Engine::Rapier), o));
    }
    rows
}

/// Each peer's two shapes at its time of impact, its point and normal, and the legend at the
/// view's top left corner.
pub fn draw(lab: &ToiLab, app: &Stage, d: &mut dyn DebugDraw) {
    let input = lab.spec.input();
    let p = answers(&input);
    for (_, color, o) in rows(lab, &p).into_iter().skip(1).filter(|r| has_pose(r.2)) {
        let (xa, xb) = input.transforms(o.t);
        for (proxy, xf) in [(&input.proxy_a, xa), (&input.proxy_b, xb)] {
            draw_proxy(d, Layer::Contact, proxy, &xf, color.with_alpha(0.0), color);
        }
        d.point(Layer::Contact, o.point, 8.0, color);
        d.arrow(Layer::Normal, o.point, o.point + 0.6 * o.normal, color);
    }
    legend(lab, app, &p, d);
}

/// One line per engine, "Box2D v3  t = 0.38833  hit", in its colour, from the view's top left.
fn legend(lab: &ToiLab, app: &Stage, p: &PeerAnswers, d: &mut dyn DebugDraw) {
    let px = app.camera.scale(&app.viewport);
    let corner = app.camera.screen_to_world(&app.viewport, app.viewport.min + Vec2::new(16.0, 24.0));
    for (k, (name, color, o)) in rows(lab, p).into_iter().enumerate() {
        let at = corner - Vec2::new(0.0, 20.0 * px * k as f32);
        d.text(Layer::Label, at, &format!("{name}  t = {:.5}  {}", Num(o.t), state_name(o.state)), color);
    }
}

fn state_name(s: ToiState) -> &'static str {
    match s {
        ToiState::Hit => "hit",
        ToiState::Separated => "separated",
        ToiState::Overlapped => "overlapped",
        ToiState::IterationLimit => "iteration limit",
    }
}

/// The table: each engine's time and state, and its difference from ours in time, normal
/// (degrees) and point (metres), two lines per engine so it fits the panel.
pub fn section(ui: &mut egui::Ui, lab: &ToiLab) {
    let p = answers(&lab.spec.input());
    let ours = lab.result();
    for (name, color, o) in rows(lab, &p) {
        let head = format!("{name}: t {:.5} {}, Δt {:+.5}", Num(o.t), state_name(o.state), Num(o.t - ours.t));
        ui.label(RichText::new(head).color(color32(color)));
        let both = has_pose(o) && has_pose(ours) && o.normal != Vec2::ZERO && ours.normal != Vec2::ZERO;
        if both && name != "ours" {
            let dn = o.normal.angle_between(ours.normal).abs().to_degrees();
            let line = format!("from ours: normal {dn:.3}°, point {:.4} m", o.point.distance(ours.point));
            ui.label(RichText::new(line).small());
        }
    }
    if p.parry.is_none() {
        ui.label(RichText::new("parry2d refuses a shape of this sweep: not compared").small());
    }
    ui.label(
        RichText::new(
            "Box2D stops a linear slop (5 mm) before touching, as ours; parry stops at touching and turns at \
             a constant rate where Box2D and ours blend the rotations.",
        )
        .small()
        .weak(),
    );
}

/// The peers' answers for `--state-out`: each engine's state, time, point and normal.
pub fn report(input: &ToiInput) -> serde_json::Value {
    let p = answers(input);
    let one = |o: &ToiOutput| serde_json::json!({ "state": state_name(o.state), "t": o.t, "point": [o.point.x, o.point.y], "normal": [o.normal.x, o.normal.y] });
    serde_json::json!({ "box2d": one(&p.box2d), "parry": p.parry.as_ref().map(one) })
}
