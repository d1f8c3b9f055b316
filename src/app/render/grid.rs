//! The world grid with metre labels, spaced so lines stay 48+ pixels apart at any zoom.
//!
//! A frame's grid is built once as plain data ([`GridFrame`]: the lines in world units, the
//! labels at screen positions) and then drawn as it is, so what the window writes can be
//! checked against where the lines are without a window (`grid_tests`).
//!
//! Spacings are a 1-2-5 sequence, `mantissa · 10^exponent`, and labels sit on every fifth
//! line (`5 · mantissa · 10^exponent`: 5, 10 or 25 times a power of ten). A label is written
//! from that integer and exponent in decimal, never by rounding a float to a number of
//! decimals, so the line at 2.5 m reads "2.5 m" and the one at 0.025 m "0.025 m".

use crate::app::camera::{ScreenRect, ViewCamera};
use crate::app::render::batch::Batch;
use glam::Vec2;
use macroquad::prelude as mq;

/// Fewest pixels between two grid lines.
pub const MIN_LINE_PX: f32 = 48.0;
/// Lines per direction beyond which the grid is not drawn (a degenerate viewport).
const MAX_LINES: i64 = 400;
/// Labels per direction at most.
const MAX_LABELS: usize = 100;
/// Every `MAJOR`-th line is brighter and labelled.
const MAJOR: i64 = 5;

/// A grid spacing `mantissa · 10^exponent` with `mantissa` 1, 2 or 5.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GridStep {
    pub mantissa: i64,
    pub exponent: i32,
}

impl GridStep {
    /// The 1-2-5 step giving at least `min_px` pixels between lines at `world_per_px`.
    pub fn for_scale(world_per_px: f32, min_px: f32) -> GridStep {
        let raw = f64::from(world_per_px) * f64::from(min_px);
        let mut exponent = raw.log10().floor() as i32;
        loop {
            for mantissa in [1, 2, 5] {
                let step = GridStep { mantissa, exponent };
                if step.value() >= raw {
                    return step;
                }
            }
            exponent += 1;
        }
    }

    /// The spacing in metres.
    pub fn value(self) -> f64 {
        self.mantissa as f64 * 10f64.powi(self.exponent)
    }

    /// The position of line `i`, metres (f64, then rounded once to f32).
    pub fn line(self, i: i64) -> f32 {
        (i as f64 * self.value()) as f32
    }

    /// The label of line `i`: its exact decimal value, `i · mantissa · 10^exponent`.
    pub fn label(self, i: i64) -> String {
        decimal(i * self.mantissa, self.exponent)
    }
}

/// `digits · 10^exponent` written in decimal without rounding, trailing zeros or a minus
/// sign on zero.
pub fn decimal(digits: i64, exponent: i32) -> String {
    let sign = if digits < 0 { "-" } else { "" };
    let mut units = digits.unsigned_abs().to_string();
    if exponent >= 0 {
        if digits != 0 {
            units.push_str(&"0".repeat(exponent as usize));
        }
        return format!("{sign}{units}");
    }
    let places = exponent.unsigned_abs() as usize;
    if units.len() <= places {
        units = format!("{}{units}", "0".repeat(places + 1 - units.len()));
    }
    let (whole, fraction) = units.split_at(units.len() - places);
    let fraction = fraction.trim_end_matches('0');
    if fraction.is_empty() {
        format!("{sign}{whole}")
    } else {
        format!("{sign}{whole}.{fraction}")
    }
}

/// One grid line in world units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GridLine {
    pub a: Vec2,
    pub b: Vec2,
    pub color: mq::Color,
}

/// A label in screen pixels: the text's left end on its baseline.
#[derive(Clone, Debug, PartialEq)]
pub struct GridLabel {
    pub at: Vec2,
    pub text: String,
}

/// What one frame draws of the grid.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GridFrame {
    pub lines: Vec<GridLine>,
    /// The vertical lines' labels along the bottom edge, then the horizontal lines' along the
    /// left edge.
    pub labels: Vec<GridLabel>,
}

/// Label offsets from the line, pixels.
const LABEL_PAD_X: f32 = 3.0;
const LABEL_PAD_Y: f32 = 3.0;
/// The labels' glyph height above the baseline and the widest character's advance, pixels (at
/// the 15 px font the view uses; a little over, so a label never runs past the view's edge).
const LABEL_HEIGHT: f32 = 12.0;
const LABEL_CHAR_WIDTH: f32 = 8.5;

impl GridFrame {
    /// The grid of `cam` in `vp`: lines across the view, and the labels of the major lines
    /// inside it, each beside its own line.
    pub fn new(cam: &ViewCamera, vp: &ScreenRect) -> GridFrame {
        let step = GridStep::for_scale(cam.scale(vp), MIN_LINE_PX);
        let view = cam.visible(vp);
        let spacing = step.value();
        let range =
            |lo: f32, hi: f32| ((f64::from(lo) / spacing).floor() as i64, (f64::from(hi) / spacing).ceil() as i64);
        let (x0, x1) = range(view.min.x, view.max.x);
        let (y0, y1) = range(view.min.y, view.max.y);
        let mut frame = GridFrame::default();
        if x1 - x0 > MAX_LINES || y1 - y0 > MAX_LINES {
            return frame;
        }
        let bottom = vp.min.y + vp.size.y - 6.0;
        let mut labelled = 0;
        for i in x0..=x1 {
            let x = step.line(i);
            frame.lines.push(GridLine { a: Vec2::new(x, view.min.y), b: Vec2::new(x, view.max.y), color: color(i) });
            if i % MAJOR == 0 && (view.min.x..=view.max.x).contains(&x) && labelled < MAX_LABELS {
                let s = cam.world_to_screen(vp, Vec2::new(x, 0.0));
                let text = metres(step, i);
                // Whole inside the view: a label that would run past its right edge is left out.
                if s.x + LABEL_PAD_X + LABEL_CHAR_WIDTH * text.len() as f32 <= vp.min.x + vp.size.x {
                    frame.labels.push(GridLabel { at: Vec2::new(s.x + LABEL_PAD_X, bottom), text });
                    labelled += 1;
                }
            }
        }
        labelled = 0;
        for j in y0..=y1 {
            let y = step.line(j);
            frame.lines.push(GridLine { a: Vec2::new(view.min.x, y), b: Vec2::new(view.max.x, y), color: color(j) });
            let s = cam.world_to_screen(vp, Vec2::new(0.0, y));
            // Whole inside the view: a label whose glyphs would rise above its top is left out.
            let fits = s.y - LABEL_PAD_Y - LABEL_HEIGHT >= vp.min.y;
            if j % MAJOR == 0 && (view.min.y..=view.max.y).contains(&y) && fits && labelled < MAX_LABELS {
                frame
                    .labels
                    .push(GridLabel { at: Vec2::new(vp.min.x + 4.0, s.y - LABEL_PAD_Y), text: metres(step, j) });
                labelled += 1;
            }
        }
        frame
    }

    /// Queues the lines (world units) into `batch`.
    pub fn draw_lines(&self, batch: &mut Batch) {
        for l in &self.lines {
            batch.line(l.a, l.b, 1.0, l.color);
        }
    }

    /// Draws the labels in screen space.
    pub fn draw_labels(&self, font_size: f32) {
        let color = mq::Color::new(1.0, 1.0, 1.0, 0.45);
        for l in &self.labels {
            mq::draw_text(&l.text, l.at.x, l.at.y, font_size, color);
        }
    }
}

/// The label of line `i`, with its unit.
fn metres(step: GridStep, i: i64) -> String {
    format!("{} m", step.label(i))
}

/// The axis, a major line or a minor one.
fn color(i: i64) -> mq::Color {
    if i == 0 {
        mq::Color::new(1.0, 1.0, 1.0, 0.28)
    } else if i % MAJOR == 0 {
        mq::Color::new(1.0, 1.0, 1.0, 0.11)
    } else {
        mq::Color::new(1.0, 1.0, 1.0, 0.05)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spacing_is_one_two_five() {
        let spacing = |px| GridStep::for_scale(px, 48.0).value();
        assert_eq!(spacing(0.01), 0.5);
        assert_eq!(spacing(0.03), 2.0);
        assert_eq!(spacing(1.0), 50.0);
        assert_eq!(GridStep::for_scale(1e-4, 48.0), GridStep { mantissa: 5, exponent: -3 });
    }

    #[test]
    fn decimals_are_exact() {
        for (digits, exponent, text) in [
            (25, -1, "2.5"),
            (75, -1, "7.5"),
            (25, -2, "0.25"),
            (-25, -3, "-0.025"),
            (0, -3, "0"),
            (0, 4, "0"),
            (10, -1, "1"),
            (-5, 3, "-5000"),
            (1, -4, "0.0001"),
        ] {
            assert_eq!(decimal(digits, exponent), text, "{digits}e{exponent}");
        }
    }
}
