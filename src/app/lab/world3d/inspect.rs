//! The 3D contact inspector's hover (the 2D inspector's first part, in 3D): the contact point
//! nearest the pointer on screen, while the contact layer shows, described by its pair, the
//! feature that made it (the SAT axis: a face of A or B, or an edge pair; the reference and
//! incident faces; the point's feature id), its separation, its accumulated normal and friction
//! impulses and its age (steps it has been matched and warm started), as article 003's
//! "your skill grows with your debug draw" asks of a contact.

use super::World3dLab;
use crate::app::camera::ScreenRect;
use glam::Vec2;
use manifold_lab::engine::debug3::Layer3;
use manifold_lab::engine::hull3d::trace::AxisKind;
use manifold_lab::engine::number::Num;
use manifold_lab::engine::world3d::World3;

/// How near the pointer a contact point must be drawn, pixels.
pub const HOVER_PX: f32 = 8.0;

/// The contact point drawn nearest `screen` within [`HOVER_PX`], as (contact, point).
pub fn contact_under(lab: &World3dLab, vp: &ScreenRect, screen: Vec2) -> Option<(usize, usize)> {
    if !lab.layers.contains(Layer3::Contact) {
        return None;
    }
    let points = lab
        .world
        .contacts
        .iter()
        .enumerate()
        .flat_map(|(c, contact)| contact.points.iter().enumerate().map(move |(k, p)| ((c, k), p.position)));
    points
        .filter_map(|(at, p)| lab.camera.project(vp, p).map(|(s, _)| (at, s.distance(screen))))
        .filter(|&(_, d)| d <= HOVER_PX)
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(at, _)| at)
}

/// The first contact points with where they are drawn (`null` behind the camera), for the
/// lab's report: `[contact, point, [x, y]]`.
pub fn points_json(lab: &World3dLab, app: &crate::app::stage::Stage) -> serde_json::Value {
    let points = lab
        .world
        .contacts
        .iter()
        .enumerate()
        .flat_map(|(c, x)| x.points.iter().enumerate().map(move |(k, p)| (c, k, p.position)));
    let rows: Vec<serde_json::Value> = points
        .take(200)
        .map(|(c, k, p)| {
            let screen = lab.camera.project(&app.viewport, p).map(|(s, _)| s.to_array());
            serde_json::json!([c, k, screen])
        })
        .collect();
    serde_json::Value::Array(rows)
}

/// The rows the inspector shows for point `k` of contact `c` (name, value); empty when gone.
pub fn describe(w: &World3, c: usize, k: usize) -> Vec<(&'static str, String)> {
    let Some((contact, p)) = w.contacts.get(c).and_then(|x| x.points.get(k).map(|p| (x, p))) else {
        return Vec::new();
    };
    let name = |i: usize| w.bodies.get(i).map_or(format!("#{i}"), |b| b.name.clone());
    let axis = match contact.sat.kind {
        AxisKind::FaceA { face } => format!("face {face} of A"),
        AxisKind::FaceB { face } => format!("face {face} of B"),
        AxisKind::Edges { edge_a, edge_b } => format!("edges {edge_a} × {edge_b}"),
    };
    let face = |f: Option<(manifold_lab::engine::hull3d::clip::HullSide, usize)>| {
        f.map_or("—".to_string(), |(side, i)| format!("{side:?} face {i}"))
    };
    vec![
        ("pair", format!("{} ↔ {}", name(contact.a), name(contact.b))),
        ("axis", axis),
        ("reference", face(contact.reference)),
        ("incident", face(contact.incident)),
        ("feature id", format!("{:#x}", p.id)),
        ("separation", format!("{:.4} m", Num(p.base_separation))),
        ("normal impulse", format!("{:.4} N·s", Num(p.normal_impulse))),
        ("friction impulse", format!("{:.4}, {:.4} N·s", Num(p.tangent_impulse[0]), Num(p.tangent_impulse[1]))),
        ("age", format!("{} steps", p.persisted)),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::input::PointerFrame;
    use crate::app::lab::LabKind;
    use crate::app::state::{Action, App};
    use std::path::Path;

    #[test]
    fn hovering_a_drawn_contact_point_describes_it() {
        let mut app = App::new(manifold_lab::scene::Scene::new("empty"), None);
        let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/world3d/stack.ron");
        app.apply(Action::OpenLab { kind: LabKind::World3d, file: Some(file) });
        for _ in 0..30 {
            app.apply(Action::Step);
        }
        let lab = app.lab_as::<World3dLab>().unwrap();
        let vp = app.viewport;
        // The point of the first contact that projects into the view.
        let (c, k, at) = (lab.world.contacts.iter().enumerate())
            .flat_map(|(c, x)| x.points.iter().enumerate().map(move |(k, p)| (c, k, p.position)))
            .find_map(|(c, k, p)| lab.camera.project(&vp, p).filter(|(s, _)| vp.contains(*s)).map(|(s, _)| (c, k, s)))
            .expect("a contact point in view");
        let hit = contact_under(lab, &vp, at + Vec2::new(3.0, -2.0)).expect("within reach");
        // Another point may project at the same pixel; it is then as near.
        let p = |(c, k): (usize, usize)| lab.world.contacts[c].points[k].position;
        let d = |x| lab.camera.project(&vp, p(x)).unwrap().0.distance(at);
        assert!(hit == (c, k) || d(hit) <= 0.01 + d((c, k)), "{hit:?} vs {:?}", (c, k));
        assert_eq!(contact_under(lab, &vp, at + Vec2::new(400.0, 400.0)).filter(|&h| h == (c, k)), None);
        let rows = describe(&lab.world, hit.0, hit.1);
        let x = &lab.world.contacts[hit.0];
        let pt = &x.points[hit.1];
        let row = |n: &str| rows.iter().find(|r| r.0 == n).map(|r| r.1.clone()).unwrap();
        assert_eq!(row("pair"), format!("{} ↔ {}", lab.world.bodies[x.a].name, lab.world.bodies[x.b].name));
        assert_eq!(row("separation"), format!("{:.4} m", Num(pt.base_separation)));
        assert_eq!(row("age"), format!("{} steps", pt.persisted));
        assert!(pt.persisted > 0 && pt.normal_impulse > 0.0, "a resting contact is warm started and pushes");
        // Pointing at it through the lab's gestures sets the hover.
        let mut app = app;
        let f = PointerFrame { pos: at, ..Default::default() };
        app.with_lab(|l, stage| l.pointer(stage, &f, false));
        assert!(app.lab_as::<World3dLab>().unwrap().hover.is_some());
        assert!(describe(&lab_world(&app), 9999, 0).is_empty());
    }

    fn lab_world(app: &App) -> World3 {
        app.lab_as::<World3dLab>().unwrap().world.clone()
    }
}
