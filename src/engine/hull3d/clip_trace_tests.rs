//! The clipping trace against the untraced manifold, and its stages on cases worked by hand.

use super::*;
use crate::engine::debug3::{DebugList3, DrawCmd3, LayerSet3};
use crate::engine::hull3d::clip::{contact_manifold, reduce_point_indices, ContactManifold3};
use crate::engine::hull3d::sat::{collide_with, SatConfig};
use crate::engine::hull3d::{shapes, Hull, Pose3};
use glam::Quat;

/// The SAT, then the manifold traced; the untraced manifold beside it.
fn traced(a: &Hull, b: &Hull) -> (ClipTrace3, ContactManifold3, ContactManifold3) {
    let c = collide_with(a, b, &SatConfig::ROBUST, None).expect("the hulls overlap");
    let mut t = ClipTrace3::default();
    let m = contact_manifold(a, b, &c, Some(&mut t));
    (t, m, contact_manifold(a, b, &c, None))
}

fn kinds(t: &ClipTrace3) -> Vec<&'static str> {
    t.steps
        .iter()
        .map(|s| match s {
            ClipStep3::ReferenceFace { .. } => "reference",
            ClipStep3::IncidentFace { .. } => "incident",
            ClipStep3::SidePlane { .. } => "side plane",
            ClipStep3::Classify { .. } => "classify",
            ClipStep3::Fallback(_) => "fallback",
            ClipStep3::EdgeContact(_) => "edge",
            ClipStep3::Reduce(ReduceStep::Kept(_)) => "kept",
            ClipStep3::Reduce(_) => "reduce",
        })
        .collect()
}

#[test]
fn the_traced_manifold_is_the_untraced_one_over_many_poses() {
    let pairs = [
        (shapes::cube(1.0), shapes::cube(0.5)),
        (shapes::cube(1.0), shapes::prism(8, 0.6, 0.6)),
        (shapes::tetrahedron(0.9), shapes::icosahedron(0.8)),
        (shapes::cuboid(Vec3::new(2.0, 0.3, 2.0)), shapes::prism(12, 0.5, 0.2)),
    ];
    let (mut reduced, mut edges, mut faces_of_b) = (0, 0, 0);
    for (a, b) in &pairs {
        for i in 0..120 {
            let f = i as f32;
            let turn = Quat::from_euler(glam::EulerRot::XYZ, 0.37 * f, 0.61 * f, 0.23 * f);
            let dir = Vec3::new((0.7 * f).sin(), 1.0 + (0.3 * f).cos(), (1.3 * f).cos()).normalize();
            let b = b.transformed(&Pose3::new(dir * (0.6 + 0.6 * (0.11 * f).sin().abs()), turn));
            let Ok(c) = collide_with(a, &b, &SatConfig::ROBUST, None) else { continue };
            let mut t = ClipTrace3::default();
            let m = contact_manifold(a, &b, &c, Some(&mut t));
            assert_eq!(m, contact_manifold(a, &b, &c, None), "pair pose {i}");
            assert_eq!(t.manifold_points(), m.points, "the trace ends with the manifold's points");
            if let (Some((kept, _)), Some(ClipStep3::Reduce(ReduceStep::Kept(keep)))) = (t.classified(), t.steps.last())
            {
                assert_eq!(keep, &reduce_point_indices(kept, m.normal));
                reduced += usize::from(kept.len() > 4);
            }
            edges += usize::from(matches!(t.steps[..], [ClipStep3::EdgeContact(_)]));
            faces_of_b += usize::from(t.reference().is_some_and(|r| r.owner == HullSide::B));
        }
    }
    assert!(reduced > 0 && edges > 0 && faces_of_b > 0, "reduced {reduced}, edges {edges}, B faces {faces_of_b}");
}

#[test]
fn a_cube_resting_on_a_larger_cube_keeps_its_four_corners() {
    let a = shapes::cube(1.0);
    let pose = Pose3::new(Vec3::new(0.2, 1.45, -0.1), Quat::from_rotation_y(0.3));
    let b = shapes::cube(0.5).transformed(&pose);
    let (t, m, untraced) = traced(&a, &b);
    assert_eq!(m, untraced);
    let mut expected = vec!["reference", "incident"];
    expected.extend(["side plane"; 4]);
    expected.extend(["classify", "kept"]);
    assert_eq!(kinds(&t), expected);
    // The big cube's top face is the reference (ties go to A's faces), the small cube's bottom
    // face the incident one, lying inside it: no side plane cuts.
    let r = t.reference().unwrap();
    assert_eq!((r.owner, r.normal), (HullSide::A, Some(Vec3::Y)));
    let inc = t.incident().unwrap();
    assert_eq!(inc.owner, HullSide::B);
    assert!(matches!(t.steps[1], ClipStep3::IncidentFace { dot, .. } if (dot + 1.0).abs() < 1e-6));
    for s in &t.steps {
        if let ClipStep3::SidePlane { before, after, .. } = s {
            assert_eq!((before.len(), after), (4, before));
        }
    }
    let (kept, rejected) = t.classified().unwrap();
    assert!(rejected.is_empty());
    assert_eq!(kept.len(), 4);
    // The kept points are the small cube's bottom corners, 5 cm into the top face.
    for (p, local) in kept.iter().zip(shapes::cube(0.5).face_polygon(inc.face)) {
        assert!(p.position.distance(pose.transform_point(local)) < 1e-6);
        assert!((p.separation + 0.05).abs() < 1e-5, "{}", p.separation);
    }
    assert_eq!(t.steps.last(), Some(&ClipStep3::Reduce(ReduceStep::Kept(vec![0, 1, 2, 3]))));
    assert_eq!(m.points, kept);
    assert!(t.step_label(2).ends_with("side plane 1 of 4: 4 -> 4 vertices (0 cut off, 0 made)"), "{}", t.step_label(2));
    assert!(t.step_label(7).contains("4 points, at most four, all kept"));
}

#[test]
fn a_tilted_cube_keeps_its_low_edge_and_rejects_its_high_one() {
    let a = shapes::cube(1.0);
    let tilt = 0.2f32;
    let b = shapes::cube(0.5).transformed(&Pose3::new(Vec3::new(0.0, 1.45, 0.0), Quat::from_rotation_z(tilt)));
    let (t, m, untraced) = traced(&a, &b);
    assert_eq!(m, untraced);
    assert_eq!(t.side_plane_count(), 4);
    assert_eq!(t.reference().map(|r| (r.owner, r.normal)), Some((HullSide::A, Some(Vec3::Y))));
    assert!(matches!(t.steps[1], ClipStep3::IncidentFace { dot, .. } if (dot + tilt.cos()).abs() < 1e-6));
    // The bottom corners sit at 1.45 - 0.5 cos t ± 0.5 sin t: two below the top face at y = 1.
    let (s, c) = (0.5 * tilt.sin(), 0.5 * tilt.cos());
    let (kept, rejected) = t.classified().unwrap();
    assert_eq!((kept.len(), rejected.len()), (2, 2));
    for p in kept {
        assert!((p.separation - (0.45 - c - s)).abs() < 1e-5, "{}", p.separation);
        assert!(p.position.x < 0.0);
    }
    for p in rejected {
        assert!((p.separation - (0.45 - c + s)).abs() < 1e-5, "{}", p.separation);
        assert!(p.position.x > 0.0);
    }
    assert_eq!(m.points, kept);
    assert!(t.step_label(6).contains("2 kept behind the reference face, 2 rejected in front"));
}

#[test]
fn the_reduction_keeps_the_deepest_the_farthest_and_the_largest_triangles() {
    // The cube-on-cube preset: the small cube's turned bottom face overhangs the big one's
    // x = 1 side. The depths tie (8 cm along either face normal), so either face may be the
    // reference; both ways the faces overlap in the turned square with its corner beyond x = 1
    // cut into two: five points, reduced to four.
    let a = shapes::cube(1.0);
    let b = shapes::cube(0.5).transformed(&Pose3::new(Vec3::new(0.7, 1.42, 0.3), Quat::from_rotation_y(0.6)));
    let (t, m, untraced) = traced(&a, &b);
    assert_eq!(m, untraced);
    let cuts: Vec<(usize, usize)> = t
        .steps
        .iter()
        .filter_map(|s| match s {
            ClipStep3::SidePlane { before, after, .. } => Some((before.len(), after.len())),
            _ => None,
        })
        .collect();
    assert!(cuts.iter().any(|(b, a)| a > b), "a side plane cuts a corner into two: {cuts:?}");
    let (kept, _) = t.classified().unwrap();
    assert_eq!(kept.len(), 5);
    assert_eq!(kept.iter().filter(|p| (p.position.x - 1.0).abs() < 1e-5).count(), 2, "two on x = 1");
    assert!(kept.iter().all(|p| (p.separation + 0.08).abs() < 1e-5), "{kept:?}");
    let choices: Vec<&ReduceStep> = t
        .steps
        .iter()
        .filter_map(|s| match s {
            ClipStep3::Reduce(r) => Some(r),
            _ => None,
        })
        .collect();
    let [ReduceStep::Deepest { index: i0 }, ReduceStep::Farthest { index: i1, distance }, ReduceStep::LargestTriangle { index: i2, positive: true, area: a2, kept: k2 }, ReduceStep::LargestTriangle { index: i3, positive: false, area: a3, kept: k3 }, ReduceStep::Kept(keep)] =
        choices[..]
    else {
        panic!("{choices:?}")
    };
    let deepest = kept.iter().map(|p| p.separation).fold(f32::INFINITY, f32::min);
    assert_eq!(kept[*i0].separation, deepest);
    let p0 = kept[*i0].position;
    let far = kept.iter().map(|p| p.position.distance(p0)).fold(0.0, f32::max);
    assert!((distance - far).abs() < 1e-6 && (kept[*i1].position.distance(p0) - far).abs() < 1e-6);
    // Twice the signed area of (p0, p1, p) about the normal: the largest of each sign.
    let p1 = kept[*i1].position;
    let area = |p: Vec3| (p1 - p0).cross(p - p0).dot(m.normal);
    let (most, least) =
        kept.iter().map(|p| area(p.position)).fold((0.0f32, 0.0f32), |(hi, lo), x| (hi.max(x), lo.min(x)));
    assert_eq!((*a2, *a3), (most, least));
    assert_eq!((area(kept[*i2].position), area(kept[*i3].position)), (most, least));
    assert!(*k2 && *k3, "both sides have a point");
    assert_eq!(keep, &vec![*i0, *i2, *i1, *i3]);
    assert_eq!(m.points, keep.iter().map(|&i| kept[i]).collect::<Vec<_>>());
    let last = t.step_label(t.len() - 1);
    assert!(last.ends_with("the manifold: 4 of 5 points kept (deepest, + triangle, farthest, - triangle)"), "{last}");
    // Every point is as deep as the others: the first is the deepest.
    assert!(t.step_label(t.len() - 5).ends_with("separation -0.080 (5 tied: the first in polygon order)"));
    assert_eq!(*i0, 0);
}

#[test]
fn an_edge_contact_is_one_step_and_every_step_draws_on_its_layers() {
    // Two cubes turned 45 degrees about crossing axes meet edge to edge.
    let a = shapes::cube(1.0).transformed(&Pose3::new(Vec3::ZERO, Quat::from_rotation_z(std::f32::consts::FRAC_PI_4)));
    let b = shapes::cube(1.0)
        .transformed(&Pose3::new(Vec3::new(0.0, 2.7, 0.0), Quat::from_rotation_x(std::f32::consts::FRAC_PI_4)));
    let (t, m, _) = traced(&a, &b);
    assert_eq!(kinds(&t), vec!["edge"]);
    assert_eq!(t.manifold_points(), m.points);
    assert!(t.step_label(0).contains("edge contact"));
    assert_eq!(ClipTrace3::default().step_label(0), "nothing to clip: the hulls are apart");

    let b = shapes::cube(0.5).transformed(&Pose3::new(Vec3::new(0.7, 1.42, 0.3), Quat::from_rotation_y(0.6)));
    let (t, _, _) = traced(&shapes::cube(1.0), &b);
    for k in 0..t.steps() {
        let mut d = DebugList3::new(LayerSet3::ALL);
        t.draw_step(k, &mut d);
        assert!(d.count(Layer3::RefFace) > 0, "step {k}: the reference face throughout");
        match &t.steps[k] {
            ClipStep3::SidePlane { .. } => assert!(d.count(Layer3::ClipPlane) >= 5, "wall, arrow, label, polygons"),
            ClipStep3::Classify { kept, rejected } => {
                let points = d.cmds.iter().filter(|c| matches!(c, DrawCmd3::Point { layer: Layer3::Contact, .. }));
                assert_eq!(points.count(), kept.len() + rejected.len());
            }
            ClipStep3::Reduce(ReduceStep::Kept(_)) => assert_eq!(d.count(Layer3::Normal), 1),
            _ => {}
        }
        let mut none = DebugList3::new(LayerSet3(0));
        t.draw_step(k, &mut none);
        assert!(none.cmds.is_empty(), "unwanted layers cost nothing");
    }
}
