//! What a step-by-step view of one hull–hull SAT (seed article 001) shows, computed once per
//! pose: both hulls in world space, every axis tested ([`SatTrace3`]), the result and its
//! contact manifold with how it was clipped ([`ClipTrace3`]), the best axis of each family (a face of A, a face of B, an edge pair), and
//! the Gauss maps of A and −B with the arcs that cross (the edge pairs that form faces of the
//! Minkowski difference, Gregorius, GDC 2013). [`super::sat_draw`] and [`super::gauss_draw`]
//! describe it through `DebugDraw3`.

use super::gauss::{minkowski_edge_pairs, GaussMap};
use super::sat::{collide_with, SatConfig, SeparatingAxis};
use super::{contact_manifold, ClipTrace3, ContactManifold3, Hull, HullContact, Pose3, SatTrace3};
use glam::Vec3;

/// One SAT between two posed hulls, with everything a view of it needs.
#[derive(Clone, Debug)]
pub struct SatView3 {
    /// Both hulls in world space (A, B).
    pub hulls: [Hull; 2],
    pub trace: SatTrace3,
    pub result: Result<HullContact, SeparatingAxis>,
    /// The contact manifold when the hulls overlap.
    pub manifold: Option<ContactManifold3>,
    /// How the manifold was made: the faces, each side plane's clip, the points kept and the
    /// reduction (empty when the hulls are apart).
    pub clip: ClipTrace3,
    /// Indices in `trace.axes` of the best scored face axis of A, of B, and edge pair.
    pub best: [Option<usize>; 3],
    /// A's Gauss map and −B's.
    pub gauss: [GaussMap; 2],
    /// Edge pairs (`[edge of A, edge of B]`) whose arcs cross, with the crossing point.
    pub crossings: Vec<([usize; 2], Vec3)>,
}

impl SatView3 {
    /// Runs the SAT of `local` hulls placed at `poses` with `config`, traced.
    pub fn compute(local: &[Hull; 2], poses: &[Pose3; 2], config: &SatConfig) -> SatView3 {
        let hulls = [local[0].transformed(&poses[0]), local[1].transformed(&poses[1])];
        let mut trace = SatTrace3::default();
        let result = collide_with(&hulls[0], &hulls[1], config, Some(&mut trace));
        let mut clip = ClipTrace3::default();
        let manifold = result.as_ref().ok().map(|c| contact_manifold(&hulls[0], &hulls[1], c, Some(&mut clip)));
        let best = best_per_family(&trace);
        let gauss = [GaussMap::of(&hulls[0]), GaussMap::of(&hulls[1]).negated()];
        let crossings = minkowski_edge_pairs(&hulls[0], &hulls[1]);
        SatView3 { hulls, trace, result, manifold, clip, best, gauss, crossings }
    }

    /// Index in `trace.axes` of the deciding axis: the winner, or the separating axis.
    pub fn decisive(&self) -> Option<usize> {
        self.trace.winner.or_else(|| self.trace.axes.iter().rposition(|a| a.separating))
    }

    /// The face of hull `i` that is its family's best axis, if a face axis is.
    pub fn best_face(&self, i: usize) -> Option<usize> {
        let k = (*self.best.get(i)?)?;
        match self.trace.axes[k].kind {
            super::AxisKind::FaceA { face } | super::AxisKind::FaceB { face } => Some(face),
            super::AxisKind::Edges { .. } => None,
        }
    }
}

/// The largest separation of each family, ties to the first tested (as the SAT keeps them), so
/// the best of the winning family is the winner itself; on exact ties the SAT may keep a later
/// pair (the one realizing the separation), so the winner always stands for its family.
fn best_per_family(trace: &SatTrace3) -> [Option<usize>; 3] {
    let mut best: [Option<usize>; 3] = [None; 3];
    for (i, r) in trace.axes.iter().enumerate() {
        if r.skipped.is_some() {
            continue;
        }
        let slot = &mut best[r.kind.family()];
        if slot.is_none_or(|b| trace.axes[b].separation < r.separation) {
            *slot = Some(i);
        }
    }
    if let Some(w) = trace.winner {
        best[trace.axes[w].kind.family()] = Some(w);
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::hull3d::{shapes, AxisKind};
    use glam::Quat;

    #[test]
    fn best_of_each_family_and_the_winner() {
        let a = shapes::cube(1.0);
        let b = shapes::cube(0.5);
        let poses = [Pose3::IDENTITY, Pose3::new(Vec3::new(0.3, 1.4, 0.1), Quat::from_rotation_y(0.5))];
        let v = SatView3::compute(&[a, b], &poses, &SatConfig::ROBUST);
        let c = v.result.as_ref().expect("overlap");
        let w = v.decisive().unwrap();
        assert_eq!(v.trace.axes[w].separation, c.separation);
        for (family, k) in v.best.iter().enumerate() {
            let k = k.expect("every family scored");
            assert_eq!(v.trace.axes[k].kind.family(), family);
            let top = v.trace.scored().filter(|r| r.kind.family() == family).map(|r| r.separation);
            assert_eq!(top.fold(f32::NEG_INFINITY, f32::max), v.trace.axes[k].separation);
        }
        // B rests on A's top face (+y, face 3 of the box): A's face axis decides, depth 0.1.
        assert!(matches!(v.trace.axes[w].kind, AxisKind::FaceA { .. } | AxisKind::FaceB { .. }));
        assert!((c.separation + 0.1).abs() < 1e-5, "{}", c.separation);
        assert!(v.best_face(0).is_some() && v.best_face(2).is_none());
    }
}
