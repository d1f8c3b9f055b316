//! Drawing a frame's world area: the grid, the world (or the lab) through `MqDraw`, the
//! selection, labels; and a lab's inset.

use super::camera::{ScreenRect, ViewCamera};
use super::draw::{mq_color, MqDraw};
use super::grid::GridFrame;
use super::input;
use super::lab::{self, Lab};
use super::materials::Materials;
use super::state::App;
use glam::Vec2;
use macroquad::prelude as mq;
use manifold_lab::engine::debug::{palette, Color, DrawOptions, Layer, LayerSet};
use manifold_lab::engine::math::Aabb;
use manifold_lab::engine::world_draw::draw_body;

/// The window's background: the world view's and, under egui's transparent panel fill, the
/// panels' (one clear, no second colour to fill: on a software renderer filling the panels'
/// area cost 0.6 ms a frame). egui's separators mark the view's edges.
pub const BACKGROUND: mq::Color = mq::Color::new(0.09, 0.10, 0.12, 1.0);

/// The plots' background (`UiState::backdrops`).
pub const PLOT_BACKGROUND: mq::Color = mq::Color::new(18.0 / 255.0, 18.0 / 255.0, 18.0 / 255.0, 1.0);

/// Clears the screen to `BACKGROUND`, then fills `backdrops` (screen pixels) with
/// `PLOT_BACKGROUND` as opaque untextured quads: egui filling them would sample a texture and
/// blend, the largest cost of a frame on a software renderer.
pub fn clear_frame(backdrops: impl Iterator<Item = ScreenRect>, materials: Option<&Materials>) {
    mq::clear_background(BACKGROUND);
    if let Some(m) = materials {
        mq::gl_use_material(&m.opaque);
    }
    for r in backdrops {
        mq::draw_rectangle(r.min.x, r.min.y, r.size.x, r.size.y, PLOT_BACKGROUND);
    }
    mq::gl_use_default_material();
}

/// The grid labels' font size, pixels.
const GRID_FONT: f32 = 15.0;

/// Sets a world camera showing `cam` in `vp`, clipped to it (y up).
fn set_view_camera(cam: &ViewCamera, vp: &ScreenRect) {
    let s = cam.scale(vp);
    let sh = mq::screen_height();
    let viewport = (vp.min.x as i32, (sh - (vp.min.y + vp.size.y)) as i32, vp.size.x as i32, vp.size.y as i32);
    mq::set_camera(&mq::Camera2D {
        target: cam.center,
        zoom: Vec2::new(2.0 / (vp.size.x * s), -2.0 / (vp.size.y * s)),
        viewport: Some(viewport),
        ..Default::default()
    });
}

/// World labels, in screen space: centred on their point (shifted to stay inside the view),
/// on a dark plate so they read over any shape. A label that would cover one already placed
/// moves down below it, so labels at nearby points (a face and its vertex) stay readable.
fn draw_texts(cam: &ViewCamera, vp: &ScreenRect, texts: &[(Vec2, String, Color)]) {
    const SIZE: u16 = 17;
    // Clipped to the view: a label wider than the room left is cut, not drawn over a panel.
    let gl = unsafe { mq::get_internal_gl() }.quad_gl;
    gl.scissor(Some((vp.min.x as i32, vp.min.y as i32, vp.size.x as i32, vp.size.y as i32)));
    let mut placed: Vec<mq::Rect> = Vec::new();
    for (p, text, color) in texts {
        let sp = cam.world_to_screen(vp, *p);
        if !vp.contains(sp) || placed.len() > 400 {
            continue;
        }
        // The built-in font has no minus sign, dashes or arrows.
        let text = &text.replace(['−', '–'], "-").replace('→', "->");
        let dims = mq::measure_text(text, None, SIZE, 1.0);
        let mut plate = mq::Rect::new(
            sp.x - 0.5 * dims.width - 3.0,
            sp.y - 0.5 * dims.height - 2.0,
            dims.width + 6.0,
            dims.height + 4.0,
        );
        // Inside the view: a long label near its edge is shifted, not drawn over a panel.
        plate.x = plate.x.min(vp.min.x + vp.size.x - plate.w).max(vp.min.x);
        while let Some(hit) = placed.iter().find(|r| r.overlaps(&plate)) {
            plate.y = hit.y + hit.h + 1.0;
        }
        placed.push(plate);
        mq::draw_rectangle(plate.x, plate.y, plate.w, plate.h, mq::Color::new(0.05, 0.05, 0.07, 0.72));
        mq::draw_text(text, plate.x + 3.0, plate.y + 2.0 + dims.offset_y, f32::from(SIZE), mq_color(*color));
    }
    unsafe { mq::get_internal_gl() }.quad_gl.scissor(None);
}

/// Draws the world area of the frame (the scene or the open lab), and the lab's inset.
pub fn draw_world(app: &App, materials: Option<&Materials>) {
    if app.lab.as_ref().is_some_and(|l| l.draw_view(app)) {
        return;
    }
    let vp = app.viewport;
    let s = app.camera.scale(&vp);
    set_view_camera(&app.camera, &vp);
    let mut d = MqDraw::new(app.layers, s, materials);
    let grid = GridFrame::new(&app.camera, &vp);
    grid.draw_lines(d.batch());
    match &app.lab {
        Some(l) => {
            d.layers = LayerSet(app.layers.0 | l.layers().0);
            l.draw(app, &mut d);
        }
        None => {
            let opts = DrawOptions {
                selected: app.selection.clone(),
                view: Some(app.camera.visible(&vp)),
                pixel_size: s,
                tree_depth: app.tree_depth,
                tree_tight: app.tree_tight,
                buoyancy_scale: app.buoyancy_scale,
                selected_joints: app.selected_joint().into_iter().collect(),
                force_scale: if app.layers.contains(Layer::Reaction) {
                    super::joint_panel::reaction_scale(&app.world, s)
                } else {
                    0.0
                },
                ..Default::default()
            };
            app.world.debug_draw(&mut d, &opts);
            super::sweep_view::draw_over(app, &mut d);
            if let [a, b] = app.selection[..] {
                // The selected pair's manifold in detail: faces, side planes, points, depths.
                let world_layers = d.layers;
                d.layers = LayerSet(world_layers.0 | lab::LAB_LAYERS.0);
                lab::manifold::draw_pair(
                    &app.world,
                    a,
                    b,
                    &mut d,
                    lab::manifold::LAST_STAGE,
                    app.world.params.reference_face,
                    None,
                );
                d.layers = world_layers;
            }
        }
    }
    super::timeline::draw_ghost(app, &mut d);
    // Selection highlight: the selected shapes again, with lines twice as wide.
    d.width_scale = 2.0;
    for b in app.selection.iter().filter_map(|&i| app.world.bodies.get(i)) {
        draw_body(&mut d, b, palette::SELECTED);
    }
    d.width_scale = 1.0;
    // The selected joint: a ring around each anchor, the size of the pick radius.
    if let Some(j) = app.selected_joint().and_then(|k| app.world.joints().get(k)) {
        let (pa, pb) = j.base().world_anchors(&app.world.bodies);
        let col = mq_color(palette::SELECTED);
        for p in [pa, pb] {
            d.batch().ring(p, input::JOINT_PICK_PX * s, 2.0, col);
        }
    }
    super::slice_tool::draw_knife(app, d.batch(), s);
    super::ray_tool::draw_ray(app, &mut d, s);
    super::contact_inspect_ui::draw_marker(app, d.batch(), s);
    if let Some((_, center, handle)) = input::rotate_handle(app).filter(|_| !app.slice.on && !app.ray.on) {
        let col = mq_color(palette::SELECTED);
        d.batch().line(center, handle, 1.0, col);
        d.batch().ring(handle, input::HANDLE_RADIUS_PX * s, 2.0, col);
    }
    d.flush();
    mq::set_default_camera();
    grid.draw_labels(GRID_FONT);
    draw_texts(&app.camera, &vp, &d.texts);
    if let (Some(rect), Some(l)) = (app.inset, &app.lab) {
        if let Some((bounds, title)) = l.inset(app) {
            draw_inset(app, l.as_ref(), &rect, bounds, title, materials);
        }
    }
}

/// A lab's second view in its own rectangle, with its own origin, grid and scale (the
/// Minkowski lab's configuration space).
fn draw_inset(app: &App, lab: &dyn Lab, rect: &ScreenRect, bounds: Aabb, title: &str, materials: Option<&Materials>) {
    let mut cam = ViewCamera::default();
    cam.frame(rect, bounds);
    mq::draw_rectangle(rect.min.x, rect.min.y, rect.size.x, rect.size.y, mq::Color::new(0.06, 0.065, 0.08, 1.0));
    set_view_camera(&cam, rect);
    let mut d = MqDraw::new(LayerSet(app.layers.0 | lab.layers().0), cam.scale(rect), materials);
    let grid = GridFrame::new(&cam, rect);
    grid.draw_lines(d.batch());
    lab.draw_inset(app, &mut d);
    d.flush();
    mq::set_default_camera();
    grid.draw_labels(GRID_FONT);
    draw_texts(&cam, rect, &d.texts);
    let edge = mq::Color::new(1.0, 1.0, 1.0, 0.25);
    mq::draw_line(rect.min.x, rect.min.y, rect.min.x, rect.min.y + rect.size.y, 2.0, edge);
    mq::draw_text(title, rect.min.x + 10.0, rect.min.y + 22.0, 20.0, mq::Color::new(0.9, 0.9, 0.95, 0.9));
}
