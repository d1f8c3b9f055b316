//! The Minkowski lab's other engines: Box2D's distance is `b2ShapeDistance` called directly,
//! and every engine gives the closed forms of two circles apart and of a box and a point.

use super::{act, MinkowskiAction, MinkowskiLab, PairAction};
use crate::app::lab::test_support::lab_app;
use crate::app::lab::LabKind;
use crate::app::state::{Action, App};
use glam::Vec2;
use manifold_lab::scene::ShapeDesc;

fn open(pair: &str) -> App {
    let mut app = lab_app(LabKind::Minkowski, pair);
    app.apply(act(MinkowskiAction::ShowPeers(true)));
    assert!(app.lab_as::<MinkowskiLab>().unwrap().peers);
    app
}

/// Two circles (radii 0.8 and 0.6) with centres 3 m apart along (0.6, 0.8): the distance is
/// 3 − 1.4 = 1.6 and the closest points lie on the centre line at each radius. Box2D's answer
/// is `b2ShapeDistance` called on an input built here from Box2D's own proxies.
#[test]
fn two_circles_apart_every_engine_gives_the_closed_form_and_box2d_is_b2_shape_distance() {
    use boxdd_sys::ffi as b2;
    let mut app = open("scenes/pairs/circles.ron");
    let u = Vec2::new(0.6, 0.8);
    app.apply(Action::SetPose { body: 1, position: 3.0 * u, angle: 0.0 });
    let peers = super::peers::answers(&app.world);
    assert_eq!(peers.len(), 2, "Box2D and parry both answer");
    let v = |x: f32, y: f32| b2::b2Vec2 { x, y };
    // B in A's frame, as Box2D's input takes it (A sits at the origin unturned).
    let (a, b) = (&app.world.bodies[0], &app.world.bodies[1]);
    assert_eq!((a.xf.p, a.angle, b.angle), (Vec2::ZERO, 0.0, 0.0));
    // SAFETY: plain C functions on stack data.
    let direct = unsafe {
        let proxy = |r: f32| b2::b2MakeProxy(&v(0.0, 0.0), 1, r);
        let input = b2::b2DistanceInput {
            proxyA: proxy(0.8),
            proxyB: proxy(0.6),
            transform: b2::b2Transform { p: v(b.xf.p.x, b.xf.p.y), q: b2::b2Rot { c: 1.0, s: 0.0 } },
            useRadii: true,
        };
        let mut cache = b2::b2SimplexCache { count: 0, indexA: [0; 3], indexB: [0; 3] };
        b2::b2ShapeDistance(&input, &mut cache, std::ptr::null_mut(), 0)
    };
    let (_, box2d) = peers[0];
    assert_eq!(box2d.distance, direct.distance);
    assert_eq!(box2d.point_a, Vec2::new(direct.pointA.x, direct.pointA.y));
    assert_eq!(box2d.point_b, Vec2::new(direct.pointB.x, direct.pointB.y));
    let ours = super::MinkowskiView::compute(&app.world).unwrap().gjk_out;
    let all = [(ours.distance, ours.point_a, ours.point_b), (box2d.distance, box2d.point_a, box2d.point_b)];
    let parry = peers[1].1;
    for (d, pa, pb) in all.into_iter().chain([(parry.distance, parry.point_a, parry.point_b)]) {
        assert!((d - 1.6).abs() < 1e-5, "distance {d}");
        assert!(pa.distance(0.8 * u) < 1e-5 && pb.distance(2.4 * u) < 1e-5, "{pa} {pb}");
    }
    let report = crate::app::lab::Lab::report(app.lab_as::<MinkowskiLab>().unwrap(), &app.stage).unwrap();
    assert_eq!(report["peers"]["box2d"]["distance"], serde_json::json!(box2d.distance));
}

/// A box (half extents 1 × 0.5) and a small circle (radius 0.1) beyond its corner at
/// (1, 0.5) + (0.3, 0.4): the distance is |(0.3, 0.4)| − 0.1 = 0.4, the box's closest point its
/// corner; and straight above its top face at height 2: the distance 2 − 0.5 − 0.1 = 1.4.
#[test]
fn a_box_and_a_point_every_engine_gives_the_closed_form() {
    let mut app = open("scenes/pairs/box_circle.ron");
    let shape = |body, shape| act(MinkowskiAction::Pair(PairAction::SetShape { body, shape }));
    app.apply(shape(0, ShapeDesc::Box { half_extents: Vec2::new(1.0, 0.5), radius: 0.0 }));
    app.apply(shape(1, ShapeDesc::Circle { radius: 0.1 }));
    app.apply(Action::SetPose { body: 0, position: Vec2::ZERO, angle: 0.0 });
    for (centre, distance, on_a) in
        [(Vec2::new(1.3, 0.9), 0.4, Vec2::new(1.0, 0.5)), (Vec2::new(0.2, 2.0), 1.4, Vec2::new(0.2, 0.5))]
    {
        app.apply(Action::SetPose { body: 1, position: centre, angle: 0.0 });
        let ours = super::MinkowskiView::compute(&app.world).unwrap().gjk_out;
        let peers = super::peers::answers(&app.world);
        assert_eq!(peers.len(), 2);
        for (d, pa) in
            [(ours.distance, ours.point_a)].into_iter().chain(peers.iter().map(|(_, c)| (c.distance, c.point_a)))
        {
            assert!((d - distance).abs() < 1e-5, "distance {d}, expected {distance}");
            assert!(pa.distance(on_a) < 1e-5, "{pa} vs {on_a}");
        }
    }
}
