//! Screen rectangles bucketed in a uniform grid, so asking whether a rectangle overlaps any of
//! thousands (a label among every body's name) looks only at its neighbours.

use crate::app::camera::ScreenRect;
use glam::Vec2;
use std::collections::HashMap;

/// The grid's cell side, pixels: about two label heights.
const CELL: f32 = 48.0;

/// Rectangles, each listed in every cell it covers.
#[derive(Default)]
pub struct RectGrid {
    rects: Vec<ScreenRect>,
    cells: HashMap<(i32, i32), Vec<usize>>,
}

impl RectGrid {
    pub fn insert(&mut self, r: ScreenRect) {
        let k = self.rects.len();
        self.rects.push(r);
        for c in cells_of(&r) {
            self.cells.entry(c).or_default().push(k);
        }
    }

    /// Whether `r` shares area with any rectangle, each first grown by `margin` on every side.
    pub fn hits(&self, r: &ScreenRect, margin: f32) -> bool {
        let probe = ScreenRect { min: r.min - Vec2::splat(margin), size: r.size + Vec2::splat(2.0 * margin) };
        cells_of(&probe).any(|c| {
            self.cells.get(&c).is_some_and(|ks| {
                ks.iter().any(|&k| {
                    let t = &self.rects[k];
                    let (t1, r1) = (t.min + t.size + Vec2::splat(margin), r.min + r.size);
                    t.min.x - margin < r1.x && r.min.x < t1.x && t.min.y - margin < r1.y && r.min.y < t1.y
                })
            })
        })
    }
}

/// The cells `r` covers (none for a rectangle that is not finite).
fn cells_of(r: &ScreenRect) -> impl Iterator<Item = (i32, i32)> {
    let finite = r.min.is_finite() && r.size.is_finite();
    let lo = (r.min / CELL).floor();
    let hi = ((r.min + r.size) / CELL).floor();
    let (x0, y0, x1, y1) = if finite { (lo.x as i32, lo.y as i32, hi.x as i32, hi.y as i32) } else { (0, 0, -1, -1) };
    (x0..=x1).flat_map(move |x| (y0..=y1).map(move |y| (x, y)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rect(x: f32, y: f32, w: f32, h: f32) -> ScreenRect {
        ScreenRect { min: Vec2::new(x, y), size: Vec2::new(w, h) }
    }

    #[test]
    fn finds_overlaps_across_cells_and_respects_the_margin() {
        let mut g = RectGrid::default();
        g.insert(rect(10.0, 10.0, 200.0, 20.0));
        assert!(g.hits(&rect(190.0, 25.0, 30.0, 30.0), 0.0), "overlaps the far end");
        assert!(!g.hits(&rect(211.0, 10.0, 10.0, 10.0), 0.0), "beside it");
        assert!(g.hits(&rect(210.5, 10.0, 10.0, 10.0), 1.0), "within the margin");
        assert!(!g.hits(&rect(10.0, 30.0, 10.0, 10.0), 0.0), "touching below");
        assert!(!g.hits(&rect(f32::NAN, 0.0, 10.0, 10.0), 0.0));
    }
}
