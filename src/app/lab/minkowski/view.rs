//! The Minkowski lab: the two shapes in the world view and, beside them, configuration space:
//! the Minkowski difference A − B with its edges coloured by the shape they come from, the
//! origin, the GJK simplex of iteration k, the EPA polytope of expansion k, the closest
//! feature and the penetration vector (002 and 004 articles). The SAT result is overlaid for
//! comparison.

use glam::Vec2;
use manifold_lab::engine::collide::epa::{penetration_from_gjk, Penetration};
use manifold_lab::engine::collide::epa_trace::EpaTrace;
use manifold_lab::engine::collide::gjk::{gjk, GjkOutput};
use manifold_lab::engine::collide::gjk_trace::GjkTrace;
use manifold_lab::engine::collide::minkowski::MinkowskiDifference;
use manifold_lab::engine::collide::support::Proxy;
use manifold_lab::engine::collide::{collide, Manifold};
use manifold_lab::engine::debug::{palette, DebugDraw, Layer};
use manifold_lab::engine::math::Aabb;
use manifold_lab::engine::number::Num;
use manifold_lab::engine::trace::Trace;
use manifold_lab::engine::World;

/// Everything the lab shows for the current poses.
pub struct MinkowskiView {
    pub difference: MinkowskiDifference,
    pub gjk: GjkTrace,
    pub gjk_out: GjkOutput,
    /// EPA, when the shapes overlap.
    pub epa: Option<(EpaTrace, Penetration)>,
    /// The SAT + clipping manifold of the same pair.
    pub sat: Manifold,
}

/// Normal directions closer than this (radians) agree.
pub const NORMAL_TOLERANCE: f32 = 0.02;
/// Depths closer than this (metres) agree.
pub const DEPTH_TOLERANCE: f32 = 2.0e-3;

impl MinkowskiView {
    pub fn compute(world: &World) -> Option<MinkowskiView> {
        let (a, b) = (world.bodies.first()?, world.bodies.get(1)?);
        let pa = Proxy::from_shape(&a.shape, &a.xf, Vec2::ZERO);
        let pb = Proxy::from_shape(&b.shape, &b.xf, Vec2::ZERO);
        let mut trace = GjkTrace::new();
        let gjk_out = gjk(&pa, &pb, Some(&mut trace));
        let epa = gjk_out.overlap.then(|| {
            let mut t = EpaTrace::new();
            let p = penetration_from_gjk(&pa, &pb, &gjk_out, Some(&mut t));
            (t, p)
        });
        Some(MinkowskiView {
            difference: MinkowskiDifference::new(&pa, &pb),
            gjk: trace,
            gjk_out,
            epa,
            sat: collide(&a.shape, &a.xf, &b.shape, &b.xf, 0.0),
        })
    }

    /// GJK iterations followed by EPA expansions: the range of the step slider.
    pub fn step_count(&self) -> usize {
        self.gjk.len() + self.epa.as_ref().map_or(0, |(t, _)| t.len())
    }

    /// Where configuration space should be framed: the difference and the origin.
    pub fn bounds(&self) -> Aabb {
        let r = Vec2::splat(self.difference.radius + 0.3);
        let mut bb = Aabb::new(Vec2::ZERO - r, Vec2::ZERO + r);
        for v in &self.difference.vertices {
            bb = bb.union(&Aabb::new(*v - r, *v + r));
        }
        bb
    }
}

/// GJK's iterations, then EPA's expansions, as one trace for the step slider; each step is
/// drawn in configuration space over the Minkowski difference.
impl Trace for MinkowskiView {
    fn steps(&self) -> usize {
        self.step_count()
    }

    fn step_label(&self, k: usize) -> String {
        let g = self.gjk.len();
        match &self.epa {
            Some((t, _)) if k >= g => t.step_label(k - g),
            _ => self.gjk.step_label(k),
        }
    }

    fn draw_step(&self, k: usize, d: &mut dyn DebugDraw) {
        self.draw_config(k, d);
    }
}

impl MinkowskiView {
    /// Draws configuration space at step `k` (GJK first, then EPA) around the origin.
    pub fn draw_config(&self, k: usize, d: &mut dyn DebugDraw) {
        self.difference.draw(d, Vec2::ZERO, 1.0);
        let g = self.gjk.len();
        if k < g {
            self.gjk.draw(k, d, Vec2::ZERO, 1.0);
        } else if let Some((t, _)) = &self.epa {
            t.draw(k - g, d, Vec2::ZERO, 1.0);
        } else if g > 0 {
            self.gjk.draw(g - 1, d, Vec2::ZERO, 1.0);
        }
    }

    /// The world-space results: GJK closest points when apart, the EPA penetration vector when
    /// overlapping, and the SAT manifold for comparison.
    pub fn draw_world(&self, d: &mut dyn DebugDraw) {
        match &self.epa {
            None => {
                let (pa, pb) = (self.gjk_out.point_a, self.gjk_out.point_b);
                d.segment(Layer::Simplex, pa, pb, palette::SEARCH_DIRECTION);
                d.point(Layer::Simplex, pa, 8.0, palette::SEARCH_DIRECTION);
                d.point(Layer::Simplex, pb, 8.0, palette::SEARCH_DIRECTION);
                d.text(
                    Layer::Simplex,
                    0.5 * (pa + pb),
                    &format!("distance {:.3}", Num(self.gjk_out.distance)),
                    palette::TEXT,
                );
            }
            Some((_, p)) => {
                d.arrow(Layer::Polytope, p.point_b, p.point_a, palette::PENETRATION);
                d.point(Layer::Polytope, p.point_a, 7.0, palette::PENETRATION);
                d.text(
                    Layer::Polytope,
                    p.point_a + 0.2 * p.normal,
                    &format!("EPA depth {:.3}", Num(p.depth)),
                    palette::PENETRATION,
                );
            }
        }
        for q in self.sat.points() {
            d.point(Layer::Contact, q.point, 8.0, palette::CONTACT_WARM);
            d.arrow(Layer::Normal, q.point, q.point + 0.4 * self.sat.normal, palette::NORMAL);
        }
    }

    /// SAT and GJK+EPA compared: (depth difference, normal angle difference in radians), or
    /// `None` when only one of them reports overlap.
    pub fn disagreement(&self) -> Option<(f32, f32)> {
        match (&self.epa, self.sat.count > 0) {
            (Some((_, p)), true) => {
                let dd = (p.depth - self.sat.max_penetration()).abs();
                let da = p.normal.angle_between(self.sat.normal).abs();
                Some((dd, da))
            }
            (None, false) => Some((0.0, 0.0)),
            _ => None,
        }
    }

    /// Whether the two methods disagree beyond the tolerances.
    pub fn disagrees(&self) -> bool {
        match self.disagreement() {
            Some((dd, da)) => dd > DEPTH_TOLERANCE || da > NORMAL_TOLERANCE,
            None => {
                // Overlap seen by one method only: fine within a grazing tolerance.
                let depth = self.epa.as_ref().map_or(0.0, |(_, p)| p.depth).max(self.sat.max_penetration());
                depth > DEPTH_TOLERANCE
            }
        }
    }
}
