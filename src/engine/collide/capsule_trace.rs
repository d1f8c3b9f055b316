//! The capsule traces (Box2D v3's `b2CollideCapsules` and `b2CollideCapsuleAndCircle`, with
//! Ericson's closest points of two segments): capsule–capsule's closest points of the two
//! segments, whether each segment lies within the other's extent, the reference segment by
//! the separations along the segment normals, the other segment clipped to its extent for a
//! second point (or the single closest point), and capsule–circle's closest point of the
//! segment and its distance against the radii. Drawn in world space.

use super::manifold::Manifold;
use super::pair_trace::{draw_result, result_summary, PairStep, PairTrace};
use crate::engine::debug::{palette, Color, DebugDraw, Layer};
use crate::engine::math::left_perp;
use crate::engine::number::Num;
use glam::Vec2;

/// One step of [`super::capsule::collide_capsules_with`] or
/// [`super::capsule::collide_capsule_circle_with`]. Segments are `[A's, B's]`, each
/// `[centre1, centre2]`, in world space.
#[derive(Clone, Debug, PartialEq)]
pub enum CapsuleStep {
    /// The closest points of the two segments, their distance, the radius sum and the reach
    /// (radius sum plus margin): apart when the distance exceeds the reach.
    Closest { segments: [[Vec2; 2]; 2], closest: [Vec2; 2], distance: f32, radius: f32, reach: f32 },
    /// Whether B projects wholly outside A's extent and A outside B's: then no clipping.
    Extents { segments: [[Vec2; 2]; 2], outside: [bool; 2] },
    /// Each segment's normal towards the other and the separation along it; A is tried first
    /// unless B's is deeper by a tenth of the linear slop.
    Reference { segments: [[Vec2; 2]; 2], normals: [Vec2; 2], separations: [f32; 2], a_first: bool },
    /// The other segment clipped to the reference's extent (B's when `flip`); `accepted`
    /// unless clipping cut its deepest end off.
    Clip { flip: bool, reference: [Vec2; 2], normal: Vec2, clipped: [Vec2; 2], accepted: bool },
    /// One point between the closest points, along their difference (or A's normal).
    Single { closest: [Vec2; 2], normal: Vec2 },
    /// Capsule–circle: the point of A's segment closest to the circle's centre: end 0, end 1,
    /// or (2) the projection inside.
    SegmentPoint { segment: [Vec2; 2], closest: Vec2, center: Vec2, feature: usize },
    /// Capsule–circle: the normal from that point and the distance against the radius sum.
    Distance { from: Vec2, normal: Vec2, distance: f32, radius: f32, margin: f32 },
    /// The manifold returned; `at` places "no contact".
    Done(Manifold, Vec2),
}

/// The trace of one capsule–capsule or capsule–circle manifold.
pub type CapsuleTrace = PairTrace<CapsuleStep>;
crate::engine::trace::recorded_steps!(CapsuleTrace, CapsuleStep);

const NONE: Color = Color::rgb(0, 0, 0).with_alpha(0.0);

fn yes(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}

impl PairStep for CapsuleStep {
    fn title(&self) -> &'static str {
        match self {
            CapsuleStep::Closest { .. } => "closest points of the two segments",
            CapsuleStep::Extents { .. } => "does a segment lie beyond the other's ends?",
            CapsuleStep::Reference { .. } => "reference segment: separation along each segment normal",
            CapsuleStep::Clip { accepted: true, .. } => "other segment clipped to the reference's extent",
            CapsuleStep::Clip { accepted: false, .. } => "clip refused: it cuts the deepest end off",
            CapsuleStep::Single { .. } => "one point between the closest points",
            CapsuleStep::SegmentPoint { .. } => "closest point of the segment to the centre",
            CapsuleStep::Distance { .. } => "distance against the radius sum",
            CapsuleStep::Done(..) => "manifold",
        }
    }

    fn summary(&self) -> String {
        match self {
            CapsuleStep::Closest { distance, radius, reach, .. } => format!(
                "distance {:.4} vs rA + rB {:.4}{}",
                Num(*distance),
                Num(*radius),
                if distance > reach { ": apart" } else { "" }
            ),
            CapsuleStep::Extents { outside, .. } => {
                format!("B beyond A's ends: {}; A beyond B's ends: {}", yes(outside[0]), yes(outside[1]))
            }
            CapsuleStep::Reference { separations, a_first, .. } => format!(
                "separation along A's normal {:.4}, B's {:.4}: {} first",
                Num(separations[0]),
                Num(separations[1]),
                if *a_first { "A" } else { "B" }
            ),
            CapsuleStep::Clip { flip, accepted, .. } => format!(
                "reference {}: {}",
                if *flip { "B" } else { "A" },
                if *accepted { "two clipped points" } else { "refused" }
            ),
            CapsuleStep::Single { normal, .. } => format!("normal ({:.3}, {:.3})", Num(normal.x), Num(normal.y)),
            CapsuleStep::SegmentPoint { feature, .. } => {
                ["end 0 of the segment", "end 1 of the segment", "inside the segment"][(*feature).min(2)].to_string()
            }
            CapsuleStep::Distance { distance, radius, margin, .. } => format!(
                "distance {:.4} vs rA + rB {:.4}{}",
                Num(*distance),
                Num(*radius),
                if distance - radius > *margin { ": apart" } else { "" }
            ),
            CapsuleStep::Done(m, _) => result_summary(m),
        }
    }

    fn draw(&self, d: &mut dyn DebugDraw, scale: f32, current: bool) {
        match self {
            CapsuleStep::Closest { segments, closest, distance, radius, .. } => {
                draw_cores(d, segments);
                d.segment(Layer::SatAxis, closest[0], closest[1], palette::WINNER);
                for p in closest {
                    d.point(Layer::SatAxis, *p, 8.0, palette::WINNER);
                }
                if current {
                    let label = format!("closest: {:.3} vs rA + rB {:.3}", Num(*distance), Num(*radius));
                    let at = 0.5 * (closest[0] + closest[1]) + Vec2::new(0.0, 0.5 * scale);
                    d.text(Layer::SatAxis, at, &label, palette::WINNER);
                }
            }
            CapsuleStep::Extents { segments, outside } => {
                if current {
                    draw_extents(d, segments, *outside, scale);
                }
            }
            CapsuleStep::Reference { segments, normals, separations, a_first } => {
                if current {
                    draw_reference(d, segments, normals, separations, *a_first, scale);
                }
            }
            CapsuleStep::Clip { flip, reference, normal, clipped, accepted } => {
                draw_clip(d, *flip, reference, *normal, clipped, *accepted, scale, current)
            }
            CapsuleStep::Single { closest, normal } => {
                d.arrow(Layer::Normal, closest[0], closest[0] + scale * *normal, palette::NORMAL);
                if current {
                    d.text(Layer::Normal, closest[0] + 1.3 * scale * *normal, "single closest point", palette::NORMAL);
                }
            }
            CapsuleStep::SegmentPoint { segment, closest, center, feature } => {
                d.segment(Layer::SatAxis, segment[0], segment[1], palette::SHAPE_A);
                d.point(Layer::SatAxis, *closest, 9.0, palette::WINNER);
                d.segment(Layer::SatAxis, *closest, *center, palette::WINNER);
                if current {
                    let label = ["end 0", "end 1", "inside the segment"][(*feature).min(2)];
                    d.text(Layer::SatAxis, *closest - Vec2::new(0.0, 0.5 * scale), label, palette::WINNER);
                }
            }
            CapsuleStep::Distance { from, normal, distance, radius, .. } => {
                d.arrow(Layer::Normal, *from, *from + scale * *normal, palette::NORMAL);
                d.circle(Layer::ClipPlane, *from, *radius, NONE, palette::CLIP_PLANE);
                if current {
                    let label = format!("distance {:.3} vs rA + rB {:.3}", Num(*distance), Num(*radius));
                    d.text(Layer::ClipPlane, *from + 1.4 * scale * *normal, &label, palette::CLIP_PLANE);
                }
            }
            CapsuleStep::Done(m, at) => {
                if current {
                    draw_result(m, d, scale, *at);
                }
            }
        }
    }

    fn result(&self) -> Option<&Manifold> {
        match self {
            CapsuleStep::Done(m, _) => Some(m),
            _ => None,
        }
    }

    fn result_mut(&mut self) -> Option<&mut Manifold> {
        match self {
            CapsuleStep::Done(m, _) => Some(m),
            _ => None,
        }
    }
}

/// Both core segments, in the colours of A and B.
fn draw_cores(d: &mut dyn DebugDraw, segments: &[[Vec2; 2]; 2]) {
    for (s, c) in segments.iter().zip([palette::SHAPE_A, palette::SHAPE_B]) {
        d.segment(Layer::SatAxis, s[0], s[1], c);
        d.point(Layer::SatAxis, s[0], 6.0, c);
        d.point(Layer::SatAxis, s[1], 6.0, c);
    }
}

/// The lines through a segment's ends across it: its extent.
fn extent_lines(d: &mut dyn DebugDraw, s: &[Vec2; 2], reach: f32, color: Color) {
    let n = left_perp((s[1] - s[0]).normalize_or_zero());
    for v in s {
        d.segment(Layer::ClipPlane, *v - reach * n, *v + reach * n, color);
    }
}

fn draw_extents(d: &mut dyn DebugDraw, segments: &[[Vec2; 2]; 2], outside: [bool; 2], scale: f32) {
    for (k, (s, c)) in segments.iter().zip([palette::SHAPE_A, palette::SHAPE_B]).enumerate() {
        extent_lines(d, s, 3.0 * scale, c.with_alpha(0.7));
        let other = ["B", "A"][k];
        let label = format!("{other} beyond {}'s ends: {}", ["A", "B"][k], yes(outside[k]));
        d.text(Layer::ClipPlane, s[1] + Vec2::new(0.0, (1.0 + k as f32) * scale), &label, c);
    }
}

fn draw_reference(
    d: &mut dyn DebugDraw,
    segments: &[[Vec2; 2]; 2],
    normals: &[Vec2; 2],
    separations: &[f32; 2],
    a_first: bool,
    scale: f32,
) {
    for k in 0..2 {
        let mid = 0.5 * (segments[k][0] + segments[k][1]);
        let chosen = a_first == (k == 0);
        let color = if chosen { palette::WINNER } else { [palette::SHAPE_A, palette::SHAPE_B][k] };
        d.arrow(Layer::SatAxis, mid, mid + scale * normals[k], color);
        let label = format!("{}: {:+.3}{}", ["A", "B"][k], Num(separations[k]), if chosen { " (first)" } else { "" });
        d.text(Layer::SatAxis, mid + 1.4 * scale * normals[k], &label, color);
    }
}

#[allow(clippy::too_many_arguments)]
fn draw_clip(
    d: &mut dyn DebugDraw,
    flip: bool,
    reference: &[Vec2; 2],
    normal: Vec2,
    clipped: &[Vec2; 2],
    accepted: bool,
    scale: f32,
    current: bool,
) {
    if !current {
        return;
    }
    d.segment(Layer::RefFace, reference[0], reference[1], palette::REFERENCE_FACE);
    d.arrow(Layer::RefFace, reference[0], reference[0] + scale * normal, palette::REFERENCE_FACE);
    extent_lines(d, reference, 3.0 * scale, palette::CLIP_PLANE);
    let color = if accepted { palette::KEPT } else { palette::REJECTED };
    d.segment(Layer::IncidentFace, clipped[0], clipped[1], color);
    for p in clipped {
        d.point(Layer::IncidentFace, *p, 9.0, color);
    }
    let label = format!(
        "reference {}: {}",
        if flip { "B" } else { "A" },
        if accepted { "clipped, two points" } else { "refused (cuts the deepest end off)" }
    );
    d.text(Layer::RefFace, reference[0] - 1.2 * scale * normal, &label, palette::REFERENCE_FACE);
}

#[cfg(test)]
mod tests {
    use super::super::capsule::*;
    use super::super::pair_trace::manifold_bits;
    use super::*;
    use crate::engine::debug::{DebugList, LayerSet};
    use crate::engine::math::Transform;
    use crate::engine::shape::Capsule;
    use crate::engine::trace::Trace;
    use proptest::prelude::*;

    fn cap(h: f32, r: f32) -> Capsule {
        Capsule::horizontal(h, r).unwrap()
    }

    fn capsules(a: &Capsule, xa: &Transform, b: &Capsule, xb: &Transform) -> (CapsuleTrace, Manifold) {
        let mut t = CapsuleTrace::new(0.2);
        let m = collide_capsules_with(a, xa, b, xb, 0.0, &mut t);
        (t, m)
    }

    proptest! {
        #[test]
        fn the_capsule_traces_return_the_untraced_manifolds_bit_for_bit(
            ha in 0.05f32..1.5, ra in 0.05f32..0.8, hb in 0.05f32..1.5, rb in 0.05f32..0.8,
            ax in -1.0f32..1.0, aa in -4.0f32..4.0, bx in -2.5f32..2.5, by in -2.5f32..2.5, ab in -4.0f32..4.0,
            margin in prop_oneof![Just(0.0f32), 0.0f32..0.1],
        ) {
            let (a, b) = (cap(ha, ra), cap(hb, rb));
            let (xa, xb) = (Transform::new(Vec2::new(ax, 0.3), aa), Transform::new(Vec2::new(bx, by), ab));
            let mut t = CapsuleTrace::new(0.2);
            let m = collide_capsules_with(&a, &xa, &b, &xb, margin, &mut t);
            let plain = collide_capsules(&a, &xa, &b, &xb, margin);
            prop_assert_eq!(manifold_bits(&m), manifold_bits(&plain));
            prop_assert_eq!(manifold_bits(&t.result().unwrap()), manifold_bits(&plain));
            // Two points only ever come from an accepted clip.
            let accepted = t.steps.iter().any(|s| matches!(s, CapsuleStep::Clip { accepted: true, .. }));
            prop_assert!(plain.count < 2 || accepted);
            let mut t = CapsuleTrace::new(0.2);
            let c = Vec2::new(by, bx);
            let m = collide_capsule_circle_with(&a, &xa, c, rb, margin, &mut t);
            let plain = collide_capsule_circle(&a, &xa, c, rb, margin);
            prop_assert_eq!(manifold_bits(&m), manifold_bits(&plain));
            prop_assert_eq!(manifold_bits(&t.result().unwrap()), manifold_bits(&plain));
        }
    }

    #[test]
    fn parallel_capsules_clip_to_two_points_and_crossed_ones_take_the_closest_point() {
        let (t, m) = capsules(
            &cap(1.0, 0.25),
            &Transform::IDENTITY,
            &cap(0.5, 0.25),
            &Transform::new(Vec2::new(0.2, 0.45), 0.0),
        );
        assert_eq!(m.count, 2);
        let clip = t.steps.iter().find(|s| matches!(s, CapsuleStep::Clip { .. })).unwrap();
        // B lies within A's extent, so B's whole segment is kept: its ends at x = -0.3, 0.7.
        let CapsuleStep::Clip { flip: false, clipped, accepted: true, .. } = clip else { panic!("{clip:?}") };
        assert!((clipped[0].x + 0.3).abs() < 1e-5 && (clipped[1].x - 0.7).abs() < 1e-5, "{clipped:?}");
        // End to end: B beyond A's ends, so the single closest point.
        let (t, m) =
            capsules(&cap(1.0, 0.25), &Transform::IDENTITY, &cap(0.2, 0.25), &Transform::new(Vec2::new(1.6, 0.1), 0.0));
        assert_eq!(m.count, 1);
        assert!(matches!(t.steps[1], CapsuleStep::Extents { outside: [true, true], .. }));
        assert!(t.steps.iter().any(|s| matches!(s, CapsuleStep::Single { .. })));
        let CapsuleStep::Closest { closest, .. } = t.steps[0] else { panic!() };
        assert!(
            (closest[0] - Vec2::new(1.0, 0.0)).length() < 1e-6 && (closest[1] - Vec2::new(1.4, 0.1)).length() < 1e-6
        );
    }

    #[test]
    fn capsule_and_circle_regions_and_every_step_draws() {
        let mut t = CapsuleTrace::new(0.2);
        collide_capsule_circle_with(&cap(1.0, 0.25), &Transform::IDENTITY, Vec2::new(1.5, 0.0), 0.3, 0.0, &mut t);
        assert!(matches!(t.steps[0], CapsuleStep::SegmentPoint { feature: 1, .. }), "beyond end 1");
        assert_eq!(t.steps(), 3);
        let (t, _) = capsules(
            &cap(1.0, 0.25),
            &Transform::IDENTITY,
            &cap(0.5, 0.25),
            &Transform::new(Vec2::new(0.2, 0.45), 0.1),
        );
        for k in 0..t.steps() {
            let mut d = DebugList::new(LayerSet::ALL);
            t.draw_step(k, &mut d);
            assert!(!d.cmds.is_empty(), "step {k}: {}", t.step_label(k));
            assert_eq!(d.count(Layer::Contact) > 0, k + 1 == t.steps());
        }
    }
}
