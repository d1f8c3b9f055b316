//! Drawing truth for the grid: every label the frame writes, parsed back, equals the position
//! of the line it is written beside, at zooms from millimetre to ten-kilometre label steps and
//! at many offsets, and at the opening views of the labs.

use crate::app::camera::{ScreenRect, ViewCamera};
use crate::app::lab::LabKind;
use crate::app::render::grid::{GridFrame, GridLabel};
use crate::app::state::{Action, App};
use glam::Vec2;
use manifold_lab::scene;

/// Screen distance within which a label's anchor is "at" its line, pixels.
const AT_LINE_PX: f32 = 0.05;

/// The line coordinates of a frame, split by direction: x of the vertical lines, y of the
/// horizontal ones (world units).
fn line_coordinates(frame: &GridFrame) -> (Vec<f32>, Vec<f32>) {
    let vertical = frame.lines.iter().filter(|l| l.a.x == l.b.x).map(|l| l.a.x).collect();
    let horizontal = frame.lines.iter().filter(|l| l.a.y == l.b.y).map(|l| l.a.y).collect();
    (vertical, horizontal)
}

/// The value a label writes, metres; panics on anything but a plain decimal and " m".
fn parse(label: &GridLabel) -> f64 {
    let number = label.text.strip_suffix(" m").unwrap_or_else(|| panic!("no unit: {:?}", label.text));
    let v: f64 = number.parse().unwrap_or_else(|e| panic!("{:?} does not parse: {e}", label.text));
    assert!(!(v == 0.0 && number.starts_with('-')), "negative zero: {:?}", label.text);
    if let Some((_, fraction)) = number.split_once('.') {
        assert!(!fraction.is_empty() && !fraction.ends_with('0'), "not the shortest decimal: {:?}", label.text);
    }
    v
}

/// The smallest gap between neighbouring coordinates.
fn spacing(coords: &[f32]) -> f64 {
    let mut c: Vec<f64> = coords.iter().map(|&v| f64::from(v)).collect();
    c.sort_by(f64::total_cmp);
    c.windows(2).map(|w| w[1] - w[0]).fold(f64::INFINITY, f64::min)
}

/// Checks every label of the frame of `cam` in `vp` against its line; returns the labels'
/// values (bottom row, left column).
fn check_frame(cam: &ViewCamera, vp: &ScreenRect) -> (Vec<f64>, Vec<f64>) {
    let frame = GridFrame::new(cam, vp);
    let (xs, ys) = line_coordinates(&frame);
    assert!(xs.len() >= 2 && ys.len() >= 2, "too few lines at {cam:?}");
    let step = spacing(&xs).min(spacing(&ys));
    let bottom_row = vp.min.y + vp.size.y - 6.0;
    let (mut bottom, mut left) = (Vec::new(), Vec::new());
    for label in &frame.labels {
        let v = parse(label);
        // Whole inside the view: its glyphs (at most 12 px above the baseline, 8.5 px a
        // character) neither rise above the view nor run past its right edge.
        let right = label.at.x + 8.5 * label.text.len() as f32;
        assert!(
            label.at.y - 12.0 >= vp.min.y && right <= vp.min.x + vp.size.x,
            "label {:?} at {:?} leaves the view {vp:?}",
            label.text,
            label.at
        );
        // The line the label is drawn beside: a vertical line just left of a bottom-row label,
        // or a horizontal line just under a left-column label.
        let beside_vertical = xs.iter().copied().find(|&x| {
            let s = cam.world_to_screen(vp, Vec2::new(x, 0.0));
            label.at.y == bottom_row && (s.x + 3.0 - label.at.x).abs() < AT_LINE_PX
        });
        let beside_horizontal = ys.iter().copied().find(|&y| {
            let s = cam.world_to_screen(vp, Vec2::new(0.0, y));
            label.at.x == vp.min.x + 4.0 && (s.y - 3.0 - label.at.y).abs() < AT_LINE_PX
        });
        let (line, out) = match (beside_vertical, beside_horizontal) {
            (Some(x), _) if agrees(v, x, step) => (x, &mut bottom),
            (_, Some(y)) => (y, &mut left),
            (Some(x), None) => (x, &mut bottom),
            (None, None) => panic!("label {:?} at {:?} is beside no line ({cam:?})", label.text, label.at),
        };
        assert!(
            agrees(v, line, step),
            "label {:?} is beside the line at {line} (spacing {step}) at {cam:?} in {vp:?}",
            label.text
        );
        out.push(v);
    }
    (bottom, left)
}

/// Whether a label's value is its line's position: equal but for the line's f32 rounding,
/// which must stay a tiny part of the spacing for the check to mean anything.
fn agrees(label: f64, line: f32, spacing: f64) -> bool {
    let rounding = 4.0 * f64::from(line.abs().max(f32::MIN_POSITIVE)) * f64::from(f32::EPSILON);
    assert!(rounding < 1e-2 * spacing, "the sweep went where f32 cannot place lines: {line}, spacing {spacing}");
    (label - f64::from(line)).abs() <= rounding + 1e-6 * spacing
}

fn viewports() -> [ScreenRect; 3] {
    [
        ScreenRect { min: Vec2::new(320.0, 24.0), size: Vec2::new(960.0, 668.0) },
        ScreenRect { min: Vec2::new(0.0, 0.0), size: Vec2::new(400.0, 300.0) },
        ScreenRect { min: Vec2::new(250.5, 30.25), size: Vec2::new(1517.0, 1011.0) },
    ]
}

#[test]
fn every_label_is_its_lines_value_from_millimetres_to_kilometres() {
    // Offsets in view heights, so every zoom sees them at the same place on screen.
    let offsets = [(0.0, 0.0), (0.31, -0.07), (-1.73, 2.41), (13.1, -7.7), (-420.5, 299.9)];
    let (mut finest, mut coarsest, mut fractional, mut labels) = (f64::INFINITY, 0.0f64, 0, 0);
    for vp in viewports() {
        let mut height = 0.002f32;
        while height < 300_000.0 {
            for (ox, oy) in offsets {
                let cam = ViewCamera { center: Vec2::new(ox, oy) * height, height };
                let (bottom, left) = check_frame(&cam, &vp);
                labels += bottom.len() + left.len();
                for w in bottom.windows(2).chain(left.windows(2)) {
                    let gap = (w[1] - w[0]).abs();
                    (finest, coarsest) = (finest.min(gap), coarsest.max(gap));
                }
                // A 2.5 · 10^k label step with a label on an odd multiple of it (2.5, 7.5, ...):
                // the case that was rounded to a whole number.
                if let [first, second, ..] = bottom[..] {
                    let gap = (second - first).abs();
                    let mantissa = gap / 10f64.powf(gap.log10().floor());
                    let odd = bottom.iter().any(|v| (v / gap).round().rem_euclid(2.0) == 1.0);
                    fractional += usize::from((mantissa - 2.5).abs() < 1e-9 && odd);
                }
            }
            height *= 1.09;
        }
    }
    assert!(labels > 10_000, "the sweep checked {labels} labels");
    assert!(finest <= 0.0011, "the sweep reaches millimetre labels, finest {finest}");
    assert!(coarsest >= 10_000.0, "the sweep reaches ten-kilometre labels, coarsest {coarsest}");
    assert!(fractional > 0, "the sweep includes 2.5 · 10^k steps");
}

#[test]
fn the_labs_open_with_labels_on_their_lines() {
    for (kind, preset) in [
        (LabKind::Manifold, None),
        (LabKind::Slice, None),
        (LabKind::Toi, None),
        (LabKind::Minkowski, None),
        (LabKind::Toi, Some("scenes/toi/box_onto_box.ron")),
    ] {
        let mut app = App::new(scene::Scene::new("empty"), None);
        let file = preset.map(|p| std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(p));
        app.apply(Action::OpenLab { kind, file });
        assert!(app.error.is_none(), "{kind:?}: {:?}", app.error);
        let free = ScreenRect { min: Vec2::new(330.0, 26.0), size: Vec2::new(950.0, 668.0) };
        let (main, inset) = app.lab.as_ref().map_or((free, None), |l| l.viewport(free));
        app.set_viewport(main, inset);
        let (bottom, left) = check_frame(&app.camera, &app.viewport);
        assert!(!bottom.is_empty() && !left.is_empty(), "{kind:?}: both edges are labelled");
    }
}
