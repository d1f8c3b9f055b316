//! The circle–circle trace (000 article, "Circle to Circle"): the centre line from A to B, its
//! length against the radius sum (squared first, before any square root), the normal along it
//! or the article's consistent fallback for coincident centres, and the manifold.

use super::manifold::Manifold;
use super::pair_trace::{draw_result, result_summary, PairStep, PairTrace};
use crate::engine::debug::{palette, Color, DebugDraw, Layer};
use crate::engine::number::Num;
use glam::Vec2;

/// One step of [`super::circle::collide_circles_with`].
#[derive(Clone, Debug, PartialEq)]
pub enum CircleStep {
    /// The translation `t = cB − cA` between the centres.
    CentreLine { ca: Vec2, cb: Vec2, t: Vec2 },
    /// `|t|` against `rA + rB` (and the margin): `separated` when `|t|² > (rA + rB + margin)²`.
    Distance { ca: Vec2, cb: Vec2, distance: f32, radius: f32, reach: f32, separated: bool },
    /// The normal from A's centre: `t / |t|`, or `(1, 0)` when the centres coincide.
    Normal { ca: Vec2, normal: Vec2, coincident: bool, penetration: f32 },
    /// The manifold returned; `at` places "no contact" between the shapes.
    Done(Manifold, Vec2),
}

/// The trace of one circle–circle manifold.
pub type CircleTrace = PairTrace<CircleStep>;
crate::engine::trace::recorded_steps!(CircleTrace, CircleStep);

const NONE: Color = Color::rgb(0, 0, 0).with_alpha(0.0);

impl PairStep for CircleStep {
    fn title(&self) -> &'static str {
        match self {
            CircleStep::CentreLine { .. } => "centre line t = cB − cA",
            CircleStep::Distance { .. } => "distance against the radius sum",
            CircleStep::Normal { coincident: false, .. } => "normal along the centre line",
            CircleStep::Normal { coincident: true, .. } => "coincident centres: the fallback normal",
            CircleStep::Done(..) => "manifold",
        }
    }

    fn summary(&self) -> String {
        match self {
            CircleStep::CentreLine { t, .. } => format!("t = ({:.3}, {:.3})", Num(t.x), Num(t.y)),
            CircleStep::Distance { distance, radius, separated, .. } => format!(
                "|t| = {:.4} vs rA + rB = {:.4}: {}",
                Num(*distance),
                Num(*radius),
                if *separated { "apart beyond the margin" } else { "within reach" }
            ),
            CircleStep::Normal { normal, coincident, penetration, .. } => format!(
                "normal ({:.3}, {:.3}){}, depth {:.4}",
                Num(normal.x),
                Num(normal.y),
                if *coincident { " (fallback: centres coincide)" } else { " = t / |t|" },
                Num(*penetration)
            ),
            CircleStep::Done(m, _) => result_summary(m),
        }
    }

    fn draw(&self, d: &mut dyn DebugDraw, scale: f32, current: bool) {
        match *self {
            CircleStep::CentreLine { ca, cb, t } => {
                d.segment(Layer::SatAxis, ca, cb, palette::WINNER);
                d.point(Layer::SatAxis, ca, 7.0, palette::SHAPE_A);
                d.point(Layer::SatAxis, cb, 7.0, palette::SHAPE_B);
                if current {
                    let label = format!("t = cB − cA = ({:.3}, {:.3})", Num(t.x), Num(t.y));
                    d.text(Layer::SatAxis, 0.5 * (ca + cb) + Vec2::new(0.0, 0.5 * scale), &label, palette::WINNER);
                }
            }
            CircleStep::Distance { ca, cb, distance, radius, reach, separated } => {
                d.circle(Layer::ClipPlane, ca, radius, NONE, palette::CLIP_PLANE);
                if reach > radius {
                    d.circle(Layer::ClipPlane, ca, reach, NONE, palette::CLIP_PLANE.with_alpha(0.4));
                }
                if current {
                    let verdict = if separated { "apart" } else { "overlap" };
                    let label = format!("|t| = {:.3} vs rA + rB = {:.3}: {verdict}", Num(distance), Num(radius));
                    let color = if separated { palette::SEPARATING } else { palette::CLIP_PLANE };
                    d.text(Layer::ClipPlane, cb + Vec2::new(0.0, -scale), &label, color);
                }
            }
            CircleStep::Normal { ca, normal, coincident, .. } => {
                d.arrow(Layer::Normal, ca, ca + 2.0 * scale * normal, palette::NORMAL);
                if current {
                    let label = if coincident {
                        "centres coincide: fallback normal (1, 0), depth rA + rB".to_string()
                    } else {
                        format!("normal t / |t| = ({:.3}, {:.3})", Num(normal.x), Num(normal.y))
                    };
                    d.text(
                        Layer::Normal,
                        ca + 2.3 * scale * normal + Vec2::new(0.0, 0.3 * scale),
                        &label,
                        palette::NORMAL,
                    );
                }
            }
            CircleStep::Done(m, at) => {
                if current {
                    draw_result(&m, d, scale, at);
                }
            }
        }
    }

    fn result(&self) -> Option<&Manifold> {
        match self {
            CircleStep::Done(m, _) => Some(m),
            _ => None,
        }
    }

    fn result_mut(&mut self) -> Option<&mut Manifold> {
        match self {
            CircleStep::Done(m, _) => Some(m),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::circle::{collide_circles, collide_circles_with};
    use super::super::pair_trace::manifold_bits;
    use super::*;
    use crate::engine::debug::{DebugList, LayerSet};
    use crate::engine::trace::Trace;
    use proptest::prelude::*;

    fn traced(ca: Vec2, ra: f32, cb: Vec2, rb: f32, margin: f32) -> (CircleTrace, Manifold) {
        let mut t = CircleTrace::new(0.3);
        let m = collide_circles_with(ca, ra, cb, rb, margin, &mut t);
        (t, m)
    }

    proptest! {
        #[test]
        fn the_trace_returns_the_untraced_manifold_bit_for_bit(
            ax in -3.0f32..3.0, ay in -3.0f32..3.0, bx in -3.0f32..3.0, by in -3.0f32..3.0,
            ra in 0.05f32..2.0, rb in 0.05f32..2.0, margin in prop_oneof![Just(0.0f32), 0.0f32..0.1],
        ) {
            let (ca, cb) = (Vec2::new(ax, ay), Vec2::new(bx, by));
            let (t, m) = traced(ca, ra, cb, rb, margin);
            let plain = collide_circles(ca, ra, cb, rb, margin);
            prop_assert_eq!(manifold_bits(&m), manifold_bits(&plain));
            prop_assert_eq!(manifold_bits(&t.result().unwrap()), manifold_bits(&plain));
            // Apart: centre line, distance, result; touching: the normal step too.
            prop_assert_eq!(t.steps(), if plain.count == 0 { 3 } else { 4 });
        }
    }

    #[test]
    fn coincident_centres_take_the_articles_fallback_normal() {
        let c = Vec2::new(1.0, 2.0);
        let (t, m) = traced(c, 0.5, c, 0.25, 0.0);
        assert!(matches!(t.steps[2], CircleStep::Normal { coincident: true, normal: Vec2::X, .. }));
        assert_eq!(m.points[0].penetration, 0.75);
        assert!(t.step_label(2).contains("fallback"), "{}", t.step_label(2));
        // Apart by a hair more than the radius sum: the distance step says so, no normal step.
        let (t, _) = traced(Vec2::ZERO, 1.0, Vec2::new(2.001, 0.0), 1.0, 0.0);
        assert!(matches!(t.steps[1], CircleStep::Distance { separated: true, .. }));
        assert_eq!(t.step_label(9), "Step 3 of 3 · manifold");
    }

    #[test]
    fn each_step_draws_and_only_the_current_one_is_labelled() {
        let (t, _) = traced(Vec2::ZERO, 1.0, Vec2::new(1.5, 0.3), 0.8, 0.0);
        for k in 0..t.steps() {
            let mut d = DebugList::new(LayerSet::ALL);
            t.draw_step(k, &mut d);
            assert_eq!(d.count(Layer::Contact) > 0, k == 3, "step {k}");
            let texts = d.cmds.iter().filter(|c| matches!(c, crate::engine::debug::DrawCmd::Text { .. })).count();
            assert!(texts >= 1, "step {k} has its caption in the view");
        }
    }
}
