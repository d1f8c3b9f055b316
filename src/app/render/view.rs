//! Drawing a frame's world area: the grid, the world (or the lab) through `MqDraw`, the
//! selection, labels; and a lab's inset.

use crate::app::camera::{ScreenRect, ViewCamera};
use crate::app::input;
use crate::app::lab::{self, Lab};
use crate::app::render::draw::{mq_color, MqDraw, WorldText};
use crate::app::render::grid::GridFrame;
use crate::app::render::labels::{draw_labels, ScreenLabel};
use crate::app::render::materials::Materials;
use crate::app::state::App;
use crate::app::tools::water::WaterView;
use crate::app::view3d::pen::plain;
use glam::Vec2;
use macroquad::prelude as mq;
use manifold_lab::engine::debug::{palette, DrawOptions, Layer, LayerSet};
use manifold_lab::engine::math::Aabb;
use manifold_lab::engine::world::draw::draw_body;

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

/// World labels, in screen space: placed by `labels::draw_labels` (centred on their point
/// when there is room, moved nearby or elided with a tooltip when labels crowd), inside the
/// view, off `keep_clear`. Labels at points outside the view are not drawn.
fn draw_texts(cam: &ViewCamera, vp: &ScreenRect, texts: &[WorldText], keep_clear: &[ScreenRect]) {
    let labels: Vec<ScreenLabel> = texts
        .iter()
        .map(|t| (cam.world_to_screen(vp, t.at), t))
        .filter(|(sp, _)| vp.contains(*sp))
        .map(|(anchor, t)| ScreenLabel {
            anchor,
            offset: Vec2::ZERO,
            // The built-in font has no minus sign, dashes or arrows.
            text: plain(&t.text),
            color: mq_color(t.color),
            priority: t.priority,
        })
        .collect();
    draw_labels(*vp, &labels, keep_clear);
}

/// What the world view asks `World::debug_draw` for at `px` world units per pixel: the
/// selection, the visible box, the tree's depths, the arrows' scales.
pub fn world_options(app: &App, px: f32) -> DrawOptions {
    DrawOptions {
        selected: app.selection.clone(),
        view: Some(app.camera.visible(&app.viewport)),
        pixel_size: px,
        tree_depth: app.tree_depth,
        tree_tight: app.tree_tight,
        buoyancy_scale: app.tools.get::<WaterView>().arrow_scale,
        motion: app.motion_scales,
        selected_joints: app.selected_joint().into_iter().collect(),
        force_scale: if app.layers.contains(Layer::Reaction) {
            crate::app::tools::joints::panel::reaction_scale(&app.world, px)
        } else {
            0.0
        },
        ..Default::default()
    }
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
            let opts = world_options(app, s);
            app.world.debug_draw(&mut d, &opts);
            if let [a, b] = app.selection[..] {
                // The selected pair's manifold in detail: faces, side planes, points, depths.
                let world_layers = d.layers;
                d.layers = LayerSet(world_layers.0 | lab::LAB_LAYERS.0);
                lab::manifold::draw_pair(&app.world, a, b, &mut d, usize::MAX, app.world.params.reference_face, None);
                d.layers = world_layers;
            }
        }
    }
    crate::app::timeline::draw_ghost(app, &mut d);
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
    let v = app.tool_view();
    app.tools.iter().for_each(|t| t.draw(&v, &mut d));
    if let Some((_, center, handle)) = input::rotate_handle(app).filter(|_| !app.tools.dragging()) {
        let col = mq_color(palette::SELECTED);
        d.batch().line(center, handle, 1.0, col);
        d.batch().ring(handle, input::HANDLE_RADIUS_PX * s, 2.0, col);
    }
    d.flush();
    mq::set_default_camera();
    grid.draw_labels(GRID_FONT);
    draw_texts(&app.camera, &vp, &d.texts, &[]);
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
    // The title, cut to the inset's width, and kept clear of the labels.
    let title = crate::app::render::text_fit::elide_to_width(title, rect.size.x - 20.0, |t| {
        mq::measure_text(t, None, 20, 1.0).width
    });
    let title_w = mq::measure_text(&title, None, 20, 1.0).width;
    let title_rect = ScreenRect { min: rect.min + Vec2::new(6.0, 4.0), size: Vec2::new(title_w + 8.0, 24.0) };
    draw_texts(&cam, rect, &d.texts, &[title_rect]);
    let edge = mq::Color::new(1.0, 1.0, 1.0, 0.25);
    mq::draw_line(rect.min.x, rect.min.y, rect.min.x, rect.min.y + rect.size.y, 2.0, edge);
    // On a plate of the inset's colour, over the grid's labels.
    let (p, s) = (title_rect.min, title_rect.size);
    mq::draw_rectangle(p.x, p.y, s.x, s.y, mq::Color::new(0.06, 0.065, 0.08, 1.0));
    mq::draw_text(&title, rect.min.x + 10.0, rect.min.y + 22.0, 20.0, mq::Color::new(0.9, 0.9, 0.95, 0.9));
}
