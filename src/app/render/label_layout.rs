//! Label placement: screen-space text labels kept inside their view and off each other. Each
//! label tries its anchor, then nearby spots within about two label heights (below, above,
//! beside, the diagonals), each pushed inside the view; the first spot that covers neither a
//! placed label nor a kept-clear rectangle wins. A label with no such spot is elided (its text
//! is left for a hover tooltip at the anchor). Labels are placed by priority (higher first),
//! then in input order, so the result is deterministic. Pure: sizes are measured by the caller.

use crate::app::camera::ScreenRect;
use crate::app::render::rect_grid::RectGrid;
use glam::Vec2;

/// A label to place: the point it labels, where its centre would like to be, its measured
/// size (the plate, pixels) and its priority (higher is placed first).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LabelBox {
    pub anchor: Vec2,
    /// The preferred centre relative to the anchor (zero: centred on it).
    pub offset: Vec2,
    pub size: Vec2,
    pub priority: i32,
}

impl LabelBox {
    pub fn new(anchor: Vec2, size: Vec2) -> LabelBox {
        LabelBox { anchor, offset: Vec2::ZERO, size, priority: 0 }
    }
}

/// Where a label went.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Placement {
    Placed(ScreenRect),
    /// No free spot near the anchor: not drawn, shown as a tooltip there.
    Elided,
}

impl Placement {
    pub fn rect(&self) -> Option<ScreenRect> {
        match self {
            Placement::Placed(r) => Some(*r),
            Placement::Elided => None,
        }
    }
}

/// Pixels left between two labels.
const GAP: f32 = 1.0;

/// Candidate centres around the preferred one, nearest first, in units of (half the label's
/// width plus half its height, the label's height): the spot itself, below, above, right, left,
/// the diagonals, then half-way shifts and two heights out.
const CANDIDATES: [(f32, f32); 21] = [
    (0.0, 0.0),
    (0.0, 1.0),
    (0.0, -1.0),
    (1.0, 0.0),
    (-1.0, 0.0),
    (1.0, 1.0),
    (-1.0, 1.0),
    (1.0, -1.0),
    (-1.0, -1.0),
    (0.5, 1.0),
    (-0.5, 1.0),
    (0.5, -1.0),
    (-0.5, -1.0),
    (0.0, 2.0),
    (0.0, -2.0),
    (1.0, 2.0),
    (-1.0, 2.0),
    (1.0, -2.0),
    (-1.0, -2.0),
    (2.0, 0.0),
    (-2.0, 0.0),
];

/// Places `labels` inside `view`, clear of each other and of `keep_clear`; one placement per
/// label, in input order.
pub fn place_labels(labels: &[LabelBox], view: ScreenRect, keep_clear: &[ScreenRect]) -> Vec<Placement> {
    let mut order: Vec<usize> = (0..labels.len()).collect();
    // A stable sort: equal priorities keep their input order.
    order.sort_by_key(|&i| std::cmp::Reverse(labels[i].priority));
    let mut taken = RectGrid::default();
    for r in keep_clear {
        taken.insert(*r);
    }
    let mut out = vec![Placement::Elided; labels.len()];
    for i in order {
        if let Some(r) = find_spot(&labels[i], view, &taken) {
            taken.insert(r);
            out[i] = Placement::Placed(r);
        }
    }
    out
}

/// The first candidate spot for `label` inside `view` that covers nothing `taken`.
fn find_spot(label: &LabelBox, view: ScreenRect, taken: &RectGrid) -> Option<ScreenRect> {
    let size = label.size;
    let fits = size.x <= view.size.x && size.y <= view.size.y && size.is_finite() && label.anchor.is_finite();
    if !fits {
        return None;
    }
    let unit = Vec2::new(0.5 * (size.x + size.y) + GAP, size.y + GAP);
    let home = label.anchor + label.offset;
    CANDIDATES.iter().find_map(|&(ux, uy)| {
        let center = home + Vec2::new(ux, uy) * unit;
        let r = clamp_into(ScreenRect { min: center - 0.5 * size, size }, view);
        (!taken.hits(&r, GAP)).then_some(r)
    })
}

/// `r` moved (not resized) to lie inside `view`; `r` must fit in it.
fn clamp_into(r: ScreenRect, view: ScreenRect) -> ScreenRect {
    let max = view.min + view.size - r.size;
    ScreenRect { min: r.min.clamp(view.min, max), size: r.size }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether two rectangles share area (touching edges do not).
    fn overlaps(a: &ScreenRect, b: &ScreenRect) -> bool {
        let (a1, b1) = (a.min + a.size, b.min + b.size);
        a.min.x < b1.x && b.min.x < a1.x && a.min.y < b1.y && b.min.y < a1.y
    }

    /// Whether `r` lies inside `view` (edges included).
    fn inside(r: &ScreenRect, view: &ScreenRect) -> bool {
        let eps = 1e-3;
        let (r1, v1) = (r.min + r.size, view.min + view.size);
        r.min.x >= view.min.x - eps && r.min.y >= view.min.y - eps && r1.x <= v1.x + eps && r1.y <= v1.y + eps
    }

    fn view() -> ScreenRect {
        ScreenRect { min: Vec2::new(100.0, 50.0), size: Vec2::new(600.0, 400.0) }
    }

    fn label(x: f32, y: f32, w: f32) -> LabelBox {
        LabelBox::new(Vec2::new(x, y), Vec2::new(w, 20.0))
    }

    /// No two placed rectangles overlap and every one is inside the view.
    fn check(placements: &[Placement], view: ScreenRect) {
        let rects: Vec<ScreenRect> = placements.iter().filter_map(Placement::rect).collect();
        for (i, a) in rects.iter().enumerate() {
            assert!(inside(a, &view), "label {a:?} outside {view:?}");
            for b in &rects[i + 1..] {
                assert!(!overlaps(a, b), "{a:?} overlaps {b:?}");
            }
        }
    }

    #[test]
    fn a_lone_label_sits_centred_on_its_anchor() {
        let p = place_labels(&[label(300.0, 200.0, 80.0)], view(), &[]);
        let r = p[0].rect().expect("placed");
        assert_eq!(r.min + 0.5 * r.size, Vec2::new(300.0, 200.0));
    }

    #[test]
    fn a_label_at_the_edge_is_pushed_inside() {
        let p = place_labels(&[label(695.0, 445.0, 120.0)], view(), &[]);
        let r = p[0].rect().expect("placed");
        assert!(inside(&r, &view()));
        assert_eq!(r.min + r.size, Vec2::new(700.0, 450.0));
    }

    #[test]
    fn fifty_labels_at_one_point_never_overlap_and_the_rest_are_elided() {
        let labels: Vec<LabelBox> = (0..50).map(|k| label(400.0, 250.0, 40.0 + k as f32)).collect();
        let p = place_labels(&labels, view(), &[]);
        check(&p, view());
        let placed = p.iter().filter(|p| p.rect().is_some()).count();
        assert!(placed >= 5, "only {placed} of a pile placed");
        assert!(placed < 50, "a pile of 50 cannot all fit within two heights");
        // The first label (all priorities equal) keeps its anchor.
        assert_eq!(p[0].rect().map(|r| r.min + 0.5 * r.size), Some(Vec2::new(400.0, 250.0)));
    }

    #[test]
    fn piles_in_a_corner_stay_inside_and_apart() {
        let labels: Vec<LabelBox> = (0..50).map(|k| label(102.0 + (k % 3) as f32, 52.0, 70.0)).collect();
        let p = place_labels(&labels, view(), &[]);
        check(&p, view());
        assert!(p.contains(&Placement::Elided));
    }

    #[test]
    fn higher_priority_wins_the_anchor() {
        let mut labels = vec![label(300.0, 200.0, 80.0), label(300.0, 200.0, 80.0)];
        labels[1].priority = 1;
        let p = place_labels(&labels, view(), &[]);
        assert_eq!(p[1].rect().map(|r| r.min + 0.5 * r.size), Some(Vec2::new(300.0, 200.0)));
        assert_ne!(p[0].rect().map(|r| r.min + 0.5 * r.size), Some(Vec2::new(300.0, 200.0)));
    }

    #[test]
    fn kept_clear_rectangles_are_not_covered() {
        let dot = ScreenRect { min: Vec2::new(290.0, 190.0), size: Vec2::new(20.0, 20.0) };
        let p = place_labels(&[label(300.0, 200.0, 60.0)], view(), &[dot]);
        assert!(!overlaps(&p[0].rect().expect("placed"), &dot));
    }

    #[test]
    fn a_label_wider_than_the_view_is_elided() {
        let p = place_labels(&[label(300.0, 200.0, 700.0)], view(), &[]);
        assert_eq!(p, vec![Placement::Elided]);
    }

    #[test]
    fn placement_is_deterministic() {
        let labels: Vec<LabelBox> =
            (0..40).map(|k| label(200.0 + 7.0 * (k % 6) as f32, 150.0 + 5.0 * (k / 6) as f32, 50.0)).collect();
        let a = place_labels(&labels, view(), &[]);
        assert_eq!(a, place_labels(&labels, view(), &[]));
        check(&a, view());
    }

    #[test]
    fn thousands_of_labels_over_a_view_never_overlap() {
        // Every body's name in a large scene: 5,000 labels at scattered points (a fixed LCG).
        let mut seed: u32 = 12345;
        let mut next = || {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (seed >> 8) as f32 / (1u32 << 24) as f32
        };
        let labels: Vec<LabelBox> =
            (0..5000).map(|_| label(100.0 + 600.0 * next(), 50.0 + 400.0 * next(), 20.0 + 80.0 * next())).collect();
        let p = place_labels(&labels, view(), &[]);
        check(&p, view());
        let placed = p.iter().filter(|p| p.rect().is_some()).count();
        assert!(placed > 50 && placed < 5000, "{placed} placed");
    }

    #[test]
    fn touching_edges_do_not_overlap() {
        let a = ScreenRect { min: Vec2::ZERO, size: Vec2::new(10.0, 10.0) };
        let b = ScreenRect { min: Vec2::new(10.0, 0.0), size: Vec2::new(10.0, 10.0) };
        assert!(!overlaps(&a, &b));
        assert!(overlaps(&a, &ScreenRect { min: Vec2::new(9.0, 9.0), ..b }));
    }
}
