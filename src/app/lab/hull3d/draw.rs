//! Drawing the 3D hull lab: the engine describes the SAT (`SatView3::draw`, through
//! `DebugDraw3`, with the lab's layers, its selected axis and the camera's eye as viewpoint);
//! the shared renderer projects it with the orbit camera over a ground grid; an axes gizmo in
//! the corner and the Gauss-map inset (`gauss`).

use super::Hull3dLab;
use crate::app::camera::ScreenRect;
use crate::app::stage::Stage;
use crate::app::view3d::pen::{c, draw_gizmo, gizmo_rect, set_camera_3d};
use crate::app::view3d::MqDraw3;
use glam::Vec3;
use macroquad::prelude as mq;
use manifold_lab::engine::hull3d::sat_draw::AXIS;
use manifold_lab::engine::hull3d::SatDrawOptions3;

/// The whole lab view (called by `view::draw_world`).
pub fn draw(app: &Stage, lab: &Hull3dLab) {
    let vp = app.viewport;
    ground_grid(lab, &vp);
    let mut d = MqDraw3::new(lab.layers);
    let opts = SatDrawOptions3 { selected: lab.axis, eye: Some(lab.camera.eye()), up: lab.camera.up() };
    lab.view.draw(&opts, &mut d);
    d.keep_clear.push(gizmo_rect(&vp));
    d.keep_clear.extend(app.inset.filter(|_| lab.show_gauss));
    d.finish(&lab.camera, &vp);
    draw_gizmo(&lab.camera, &vp);
    if lab.show_gauss {
        if let Some(rect) = app.inset {
            super::gauss::draw_inset(lab, &rect);
        }
    }
}

/// The ground grid under the hulls, around the camera's target.
pub fn ground_grid(lab: &Hull3dLab, vp: &ScreenRect) {
    set_camera_3d(&lab.camera, vp);
    let grid_center = Vec3::new(lab.camera.target.x.round(), lab.ground, lab.camera.target.z.round());
    mq::draw_grid_ex(24, 0.5, c(AXIS, 0.25), c(AXIS, 0.08), grid_center, glam::Quat::IDENTITY);
}
