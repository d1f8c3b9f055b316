//! Drawing the 3D dynamics lab: the engine describes the world through `DebugDraw3` (it decides
//! what each layer shows); the shared renderer projects it with the orbit camera; an axes
//! gizmo in the corner.

use super::World3dLab;
use crate::app::stage::Stage;
use crate::app::view3d::pen::{draw_gizmo, gizmo_rect};
use crate::app::view3d::MqDraw3;
use manifold_lab::engine::world3d::DrawOptions3;

pub fn draw(app: &Stage, lab: &World3dLab) {
    let vp = app.viewport;
    let mut d = MqDraw3::new(lab.layers);
    let opts = DrawOptions3 { selected: lab.selected.into_iter().collect(), ..Default::default() };
    lab.world.debug_draw(&mut d, &opts);
    super::timeline_3d::draw_ghost(lab, &mut d);
    // The hovered contact point and the pinned one, marked (the 2D inspector's colours).
    use manifold_lab::engine::debug::palette;
    use manifold_lab::engine::debug3::{DebugDraw3, Layer3};
    for (at, color) in [(lab.hover, palette::SELECTED), (lab.pinned_point(), palette::JOINT)] {
        if let Some(p) = at.and_then(|(c, k)| lab.world.contacts.get(c)?.points.get(k)) {
            d.point(Layer3::Contact, p.position, 11.0, color);
        }
    }
    d.keep_clear.push(gizmo_rect(&vp));
    d.finish(&lab.camera, &vp);
    draw_gizmo(&lab.camera, &vp);
}
