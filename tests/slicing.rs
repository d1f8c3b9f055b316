//! Slicing bodies with a line and removing bodies: pieces keep the parent's mass and motion,
//! names derive from the parent, circles are refused, slivers removed, polygons stay within
//! the vertex limit, and every index-based reference (contacts, broadphase, mouse joint)
//! follows the bodies. The property test slices a running scene along random lines.

use glam::Vec2;
use manifold_lab::engine::geometry::{area_centroid, is_convex_ccw};
use manifold_lab::engine::math::cross_sv;
use manifold_lab::engine::shape::{Polygon, Shape, MAX_POLYGON_VERTICES};
use manifold_lab::engine::solver::SolverParams;
use manifold_lab::engine::world::slice::{MIN_PIECE_AREA, MIN_PIECE_THICKNESS};
use manifold_lab::engine::{BodyDef, BodyKind, Material, World};
use manifold_lab::scene;
use proptest::prelude::*;

fn world() -> World {
    let mut w = World::new(SolverParams::default());
    w.create_body(&BodyDef {
        name: "ground".into(),
        ..BodyDef::new(BodyKind::Static, Shape::make_box(Vec2::new(20.0, 0.5)).unwrap(), Vec2::new(0.0, -0.5))
    });
    w
}

fn add(w: &mut World, name: &str, shape: Shape, position: Vec2, angle: f32) -> usize {
    w.create_body(&BodyDef {
        name: name.into(),
        angle,
        material: Material { density: 2.0, ..Material::DEFAULT },
        ..BodyDef::new(BodyKind::Dynamic, shape, position)
    })
}

fn polygon(w: &World, i: usize) -> Polygon {
    match w.bodies[i].shape {
        Shape::Polygon(p) => p,
        _ => panic!("body {i} is not a polygon"),
    }
}

#[test]
fn a_box_cut_in_two_keeps_its_mass_and_motion() {
    let mut w = world();
    let b = add(&mut w, "crate", Shape::make_box(Vec2::new(1.0, 0.5)).unwrap(), Vec2::new(3.0, 2.0), 0.4);
    let other = add(&mut w, "other", Shape::circle(0.5).unwrap(), Vec2::new(-5.0, 0.5), 0.0);
    w.bodies[b].linear_velocity = Vec2::new(1.0, -2.0);
    w.bodies[b].angular_velocity = 3.0;
    let parent = w.bodies[b].clone();
    // A vertical cut, 0.3 right of the centre in the box's frame, from below to above.
    let (a, up) = (parent.xf.apply(Vec2::new(0.3, -2.0)), parent.xf.apply(Vec2::new(0.3, 2.0)));
    let report = w.slice(a, up);
    assert_eq!(report.sliced.len(), 1, "{report:?}");
    assert_eq!(w.bodies.len(), 4);
    assert_eq!((w.bodies[b].name.as_str(), w.bodies[3].name.as_str()), ("crate#a", "crate#b"));
    assert_eq!(w.bodies[other].name, "other", "no other body moved");
    let pieces = [&w.bodies[b], &w.bodies[3]];
    let mass: f32 = pieces.iter().map(|p| p.mass).sum();
    assert!((mass - parent.mass).abs() < 1e-5 * parent.mass, "{mass} vs {}", parent.mass);
    // Left of the upward cut: the part at x < 0.3, 1.3 wide; right: 0.7 wide (box frame).
    assert!((pieces[0].mass - 2.0 * 1.3).abs() < 1e-4 && (pieces[1].mass - 2.0 * 0.7).abs() < 1e-4);
    let moment: Vec2 = pieces.iter().map(|p| p.mass * p.center).sum();
    assert!((moment / mass - parent.center).length() < 1e-5, "centre of mass kept");
    for (p, width, x) in [(pieces[0], 1.3f32, -0.35f32), (pieces[1], 0.7, 0.65)] {
        // A w × 1 rectangle: I = m (w² + 1) / 12 about its own centre.
        assert!((p.inertia - p.mass * (width * width + 1.0) / 12.0).abs() < 1e-4, "{}", p.inertia);
        assert!((p.center - parent.xf.apply(Vec2::new(x, 0.0))).length() < 1e-5);
        let v = parent.linear_velocity + cross_sv(parent.angular_velocity, p.center - parent.center);
        assert!((p.linear_velocity - v).length() < 1e-5, "v + ω × r");
        assert_eq!(p.angular_velocity, parent.angular_velocity);
        assert_eq!((p.material, p.kind), (parent.material, BodyKind::Dynamic));
    }
    let trace = {
        let mut before = world();
        let i = add(&mut before, "crate", Shape::make_box(Vec2::new(1.0, 0.5)).unwrap(), Vec2::new(3.0, 2.0), 0.4);
        before.slice_trace(i, a, up).unwrap()
    };
    assert_eq!(trace.len(), 4, "one step per edge of the box");
    let traced = trace.result.as_ref().unwrap();
    let (traced_a, _) = area_centroid(&traced.behind);
    assert!((traced_a - 1.3).abs() < 1e-5, "the trace splits the same way: {traced_a}");
    let total_momentum: Vec2 = pieces.iter().map(|p| p.mass * p.linear_velocity).sum();
    assert!((total_momentum - parent.mass * parent.linear_velocity).length() < 1e-4);
    assert_eq!(report.sliced[0].pieces.iter().map(|p| p.index).collect::<Vec<_>>(), [b, 3]);
    assert_eq!(report.new_index(b), Some(b));
    // Slicing a piece again names it after the piece.
    let report = w.slice(Vec2::new(-10.0, 2.0), Vec2::new(10.0, 2.05));
    let names: Vec<&str> = report.sliced.iter().flat_map(|s| s.pieces.iter().map(|p| p.name.as_str())).collect();
    assert!(names.contains(&"crate#aa") && names.contains(&"crate#ab"), "{names:?}");
}

#[test]
fn only_lines_that_cross_a_body_cut_it_and_circles_are_refused() {
    let mut w = world();
    let b = add(&mut w, "crate", Shape::make_box(Vec2::splat(0.5)).unwrap(), Vec2::new(0.0, 2.0), 0.0);
    let ball = add(&mut w, "ball", Shape::circle(0.5).unwrap(), Vec2::new(3.0, 2.0), 0.0);
    // Ends inside the box: partial, nothing cut.
    let report = w.slice(Vec2::new(-2.0, 2.0), Vec2::new(0.0, 2.0));
    assert_eq!((report.sliced.len(), report.partial.as_slice()), (0, [b].as_slice()));
    // Missing everything.
    let missed = w.slice(Vec2::new(-2.0, 5.0), Vec2::new(5.0, 5.0));
    assert!(missed.sliced.is_empty() && missed.partial.is_empty() && missed.refused.is_empty());
    // Through the box and the ball: the box is cut, the ball refused with a reason.
    let report = w.slice(Vec2::new(-2.0, 2.1), Vec2::new(5.0, 2.1));
    assert_eq!(report.sliced.len(), 1);
    assert_eq!(report.refused.len(), 1);
    assert_eq!(report.refused[0].0, ball);
    assert!(report.refused[0].1.starts_with("circles are not sliced"), "{}", report.refused[0].1);
    assert!(report.summary().contains("1 refused"));
    // The static ground is never cut.
    let report = w.slice(Vec2::new(0.0, -2.0), Vec2::new(0.0, 1.0));
    assert!(report.sliced.iter().all(|s| s.name != "ground"));
    assert_eq!(w.bodies[0].name, "ground");
}

#[test]
fn slivers_are_removed_and_a_body_with_none_left_goes() {
    let mut w = world();
    let big = add(&mut w, "big", Shape::make_box(Vec2::splat(1.0)).unwrap(), Vec2::new(0.0, 3.0), 0.0);
    let tiny = add(&mut w, "tiny", Shape::make_box(Vec2::splat(0.03)).unwrap(), Vec2::new(5.0, 3.0), 0.0);
    let last = add(&mut w, "last", Shape::make_box(Vec2::splat(0.5)).unwrap(), Vec2::new(9.0, 8.0), 0.0);
    // 4 mm off the big box's top edge, then through the middle of the tiny one (two 0.0018 m²
    // halves, under the minimum).
    let report = w.slice(Vec2::new(-3.0, 3.996), Vec2::new(3.0, 3.996));
    assert_eq!((report.sliced.len(), report.removed_small), (1, 1));
    assert_eq!(w.bodies[big].name, "big#b", "only the part below the line is kept");
    let report = w.slice(Vec2::new(5.0, 2.0), Vec2::new(5.0, 4.0));
    assert_eq!(report.removed_small, 2);
    assert_eq!(report.removed, [tiny]);
    assert_eq!(report.new_index(tiny), None);
    assert_eq!(report.new_index(last), Some(last - 1));
    assert_eq!(w.bodies[last - 1].name, "last");
    const { assert!(0.0018 < MIN_PIECE_AREA && 0.0036 > MIN_PIECE_AREA && MIN_PIECE_THICKNESS > 0.0) };
}

#[test]
fn an_octagon_cut_near_a_vertex_stays_within_the_vertex_limit() {
    let mut w = world();
    let pts: Vec<Vec2> = (0..8).map(|k| Vec2::from_angle(k as f32 * std::f32::consts::TAU / 8.0)).collect();
    let oct = add(&mut w, "oct", Shape::Polygon(Polygon::new(&pts).unwrap()), Vec2::new(0.0, 3.0), 0.0);
    let mass = w.bodies[oct].mass;
    // Cuts off the vertex at angle 0 (x = 1): the rest has 7 old + 2 new = 9 vertices.
    let report = w.slice(Vec2::new(0.8, 1.0), Vec2::new(0.8, 5.0));
    let pieces = &report.sliced[0].pieces;
    assert_eq!(pieces.len(), 2);
    let big = &pieces.iter().find(|p| p.area > 1.0).unwrap();
    assert_eq!(big.vertices, MAX_POLYGON_VERTICES);
    // Visvalingam–Whyatt drops the vertex with the smallest triangle: under 2 % here.
    let octagon_area = mass / 2.0;
    assert!(big.simplified_area > 0.0 && big.simplified_area < 0.02 * octagon_area, "{}", big.simplified_area);
    let p = polygon(&w, big.index);
    assert!(is_convex_ccw(p.vertices(), 0.0));
    let kept: f32 = pieces.iter().map(|p| p.mass).sum();
    let lost = 2.0 * big.simplified_area;
    assert!((kept + lost - mass).abs() < 1e-4 * mass, "{kept} + {lost} vs {mass}");
}

#[test]
fn removing_a_body_renumbers_contacts_pairs_and_the_mouse_joint() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/pyramid.ron");
    let mut w = scene::load(&path).unwrap().build_world();
    for _ in 0..30 {
        w.step();
    }
    let victim = 57;
    let top = w.bodies.len() - 1;
    assert!(w.start_mouse_joint(top, w.bodies[top].center));
    let before: Vec<_> = w
        .contacts
        .iter()
        .filter(|c| c.a != victim && c.b != victim)
        .map(|c| (w.bodies[c.a].name.clone(), w.bodies[c.b].name.clone(), c.points[0].normal_impulse))
        .collect();
    let removed = w.remove_body(victim).unwrap();
    assert!(w.bodies.iter().all(|b| b.name != removed.name));
    let after: Vec<_> = w
        .contacts
        .iter()
        .map(|c| (w.bodies[c.a].name.clone(), w.bodies[c.b].name.clone(), c.points[0].normal_impulse))
        .collect();
    assert_eq!(after, before, "the same contacts, by name, with their impulses");
    assert!(w.contacts.windows(2).all(|p| (p[0].a, p[0].b) < (p[1].a, p[1].b)), "still sorted");
    assert_eq!(w.mouse_joint.as_ref().unwrap().body, top - 1);
    assert!(w.broadphase.pairs().iter().all(|&(i, j)| (j as usize) < w.bodies.len() && i < j));
    w.broadphase.tree.validate().unwrap();
    for leaf in w.broadphase.tree.leaves() {
        let i = leaf.user_data as usize;
        assert_eq!(w.broadphase.proxy_of(i), Some(leaf.id), "proxy {} holds body {i}", leaf.id);
    }
    // The next step finds exactly the contacts a fresh broadphase finds.
    let mut fresh = w.clone();
    fresh.broadphase.reset();
    w.refresh_contacts();
    fresh.refresh_contacts();
    let pairs = |w: &World| w.contacts.iter().map(|c| (c.a, c.b, c.manifold)).collect::<Vec<_>>();
    assert_eq!(pairs(&w), pairs(&fresh));
    for _ in 0..30 {
        w.step();
    }
    assert!(w.bodies.iter().all(|b| b.center.is_finite()));
    assert!(w.remove_body(w.bodies.len()).is_none());
    // Removing the grabbed body drops the joint.
    let grabbed = w.mouse_joint.as_ref().unwrap().body;
    w.remove_body(grabbed);
    assert!(w.mouse_joint.is_none());
}

/// Every polygon is valid: convex, counter-clockwise, within the vertex limit, big enough.
fn check_bodies(w: &World) -> Result<(), TestCaseError> {
    for b in &w.bodies {
        prop_assert!(b.center.is_finite() && b.angle.is_finite() && b.linear_velocity.is_finite(), "{}", b.name);
        prop_assert!(b.mass.is_finite() && b.inertia.is_finite());
        if let Shape::Polygon(p) = &b.shape {
            prop_assert!(p.count >= 3 && p.count <= MAX_POLYGON_VERTICES);
            let (area, _) = area_centroid(p.vertices());
            prop_assert!(area >= MIN_PIECE_AREA * 0.999, "{}: area {area}", b.name);
            prop_assert!(is_convex_ccw(p.vertices(), 1e-7), "{}: {:?}", b.name, p.vertices());
            if b.kind == BodyKind::Dynamic {
                prop_assert!(b.mass > 0.0 && b.inertia > 0.0);
            }
        }
    }
    for c in &w.contacts {
        prop_assert!(c.a < c.b && c.b < w.bodies.len());
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn slicing_a_running_scene_never_breaks_it(
        cuts in prop::collection::vec((0u32..40, 0.0f32..std::f32::consts::PI, -1.0f32..1.0, 0.5f32..30.0), 1..6),
    ) {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/mixed_shapes.ron");
        let mut w = scene::load(&path).unwrap().build_world();
        let bounds = w.bounds().unwrap();
        for (steps, angle, offset, length) in cuts {
            for _ in 0..steps {
                w.step();
            }
            // A line through a point of the scene at any angle.
            let mid = bounds.center() + Vec2::new(offset * bounds.extents().x, 0.5 * offset * bounds.extents().y);
            let d = Vec2::from_angle(angle) * length;
            let count = w.bodies.len();
            let report = w.slice(mid - d, mid + d);
            let pieces: usize = report.sliced.iter().map(|s| s.pieces.len()).sum();
            prop_assert_eq!(w.bodies.len(), count + pieces - report.sliced.len());
            for s in &report.sliced {
                for p in &s.pieces {
                    prop_assert!(w.bodies[p.index].name == p.name);
                }
            }
            check_bodies(&w)?;
            w.step();
            check_bodies(&w)?;
            w.broadphase.tree.validate().map_err(TestCaseError::fail)?;
        }
    }
}

#[test]
fn capsules_are_refused_and_joints_follow_the_piece_holding_their_anchor() {
    use manifold_lab::engine::solver::joints::{JointBase, RevoluteJoint};
    use manifold_lab::engine::solver::Joint;
    let mut w = world();
    let plank = add(&mut w, "plank", Shape::make_box(Vec2::new(2.0, 0.2)).unwrap(), Vec2::new(0.0, 3.0), 0.0);
    let left = add(&mut w, "left", Shape::circle(0.2).unwrap(), Vec2::new(-1.5, 4.0), 0.0);
    let right = add(&mut w, "right", Shape::circle(0.2).unwrap(), Vec2::new(1.5, 4.0), 0.0);
    let pill = add(
        &mut w,
        "pill",
        Shape::capsule(Vec2::new(-0.5, 0.0), Vec2::new(0.5, 0.0), 0.2).unwrap(),
        Vec2::new(0.0, 6.0),
        0.0,
    );
    let hinge = |w: &World, a, b, at| Joint::Revolute(RevoluteJoint::new(JointBase::at(&w.bodies, a, b, at)));
    w.add_joint(hinge(&w, plank, left, Vec2::new(-1.5, 3.0))).unwrap();
    w.add_joint(hinge(&w, right, plank, Vec2::new(1.5, 3.0))).unwrap();
    w.add_joint(hinge(&w, pill, right, Vec2::new(0.5, 6.0))).unwrap();
    // A vertical cut through the plank and the capsule.
    let report = w.slice(Vec2::new(0.2, 8.0), Vec2::new(0.2, 1.0));
    assert_eq!(report.sliced.len(), 1);
    assert_eq!(
        report.refused,
        vec![(pill, "capsules are not sliced: a piece would lose its round end to a polygon".into())]
    );
    let pieces: Vec<usize> = report.sliced[0].pieces.iter().map(|p| p.index).collect();
    assert_eq!(pieces.len(), 2);
    // Each hinge now holds the piece its anchor lies in, and still holds its anchor there.
    let holder =
        |x: f32| pieces.iter().copied().find(|&i| w.bodies[i].shape.test_point(&w.bodies[i].xf, Vec2::new(x, 3.0)));
    let (lp, rp) = (holder(-1.5).unwrap(), holder(1.5).unwrap());
    assert_ne!(lp, rp);
    assert_eq!(w.joints()[0].bodies(), (lp, left));
    assert_eq!(w.joints()[1].bodies(), (right, rp));
    for j in w.joints() {
        let (pa, pb) = j.base().world_anchors(&w.bodies);
        assert!(pa.distance(pb) < 1e-5, "{pa} {pb}");
    }
    // Removing a body takes its joints and renumbers the others.
    w.remove_body(left);
    assert_eq!(w.joints().len(), 2);
    assert_eq!(w.joints()[0].bodies(), (right - 1, if rp > left { rp - 1 } else { rp }));
    assert_eq!(w.joints()[1].bodies(), (pill - 1, right - 1));
    for _ in 0..60 {
        w.step();
    }
    assert!(w.bodies.iter().all(|b| b.center.is_finite()));
}
