//! The manifold lab on every pair kind: each kind's trace gives the manifold the world's
//! dispatch gives, bit for bit, steps to its end and draws every step; its panel steps it
//! and lists its numbers (the egui harness, as the lab panel tests).

use super::traces::PairTrace;
use super::{act, trace_pair, ManifoldAction, ManifoldLab};
use crate::app::lab::pair::PairAction;
use crate::app::lab::test_support::lab_app;
use crate::app::lab::LabKind;
use crate::app::state::App;
use crate::app::ui_tests::{all_texts, Harness};
use glam::Vec2;
use manifold_lab::engine::collide::polygon::ReferenceFaceRule;
use manifold_lab::engine::debug::{DebugList, DrawCmd, Layer, LayerSet};
use manifold_lab::engine::trace::Trace;
use manifold_lab::scene::ShapeDesc;

fn shapes() -> [ShapeDesc; 4] {
    [
        ShapeDesc::Box { half_extents: Vec2::new(1.0, 0.5), radius: 0.0 },
        ShapeDesc::Circle { radius: 0.6 },
        ShapeDesc::Capsule { center1: None, center2: None, half_length: Some(0.7), radius: 0.3 },
        ShapeDesc::Polygon {
            points: vec![Vec2::new(-0.8, -0.5), Vec2::new(0.8, -0.5), Vec2::new(0.0, 0.9)],
            radius: 0.0,
        },
    ]
}

fn set_shape(app: &mut App, body: usize, shape: ShapeDesc) {
    app.apply(act(ManifoldAction::Pair(PairAction::SetShape { body, shape })));
    assert!(app.error.is_none(), "{:?}", app.error);
}

fn place(app: &mut App, body: usize, p: Vec2, angle: f32) {
    app.world.bodies[body].set_transform(p, angle);
}

/// The trace's manifold and the dispatch's, as bits.
fn both_bits(app: &App) -> (Vec<u32>, Vec<u32>) {
    let bits = |m: manifold_lab::engine::collide::Manifold| {
        let mut v = vec![m.count as u32, m.normal.x.to_bits(), m.normal.y.to_bits()];
        for p in m.points() {
            v.extend([p.point.x.to_bits(), p.point.y.to_bits(), p.penetration.to_bits(), p.id.0]);
        }
        v
    };
    let rule = ReferenceFaceRule::default();
    let t = trace_pair(&app.world, 0, 1, rule).unwrap();
    (bits(t.result()), bits(super::manifold_of(&app.world, 0, 1, rule).unwrap()))
}

#[test]
fn every_pair_kind_is_traced_to_the_dispatchs_manifold_bit_for_bit() {
    let mut app = lab_app(LabKind::Manifold, "scenes/pairs/box_on_box.ron");
    let mut seed = 7u32;
    let mut next = move || {
        seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        (seed >> 8) as f32 / (1u32 << 24) as f32
    };
    for a in shapes() {
        for b in shapes() {
            set_shape(&mut app, 0, a.clone());
            set_shape(&mut app, 1, b.clone());
            for _ in 0..60 {
                place(&mut app, 0, Vec2::new(next() - 0.5, next() - 0.5), 6.0 * next());
                place(&mut app, 1, Vec2::new(3.0 * next() - 1.5, 3.0 * next() - 1.5), 6.0 * next());
                let (traced, dispatched) = both_bits(&app);
                assert_eq!(traced, dispatched, "{a:?} against {b:?}");
                let t = trace_pair(&app.world, 0, 1, ReferenceFaceRule::default()).unwrap();
                for k in 0..t.steps() {
                    let mut d = DebugList::new(LayerSet::ALL);
                    t.draw_step(k, &mut d);
                    assert!(!d.cmds.is_empty() && !t.step_label(k).is_empty(), "{a:?} {b:?} step {k}");
                }
            }
        }
    }
}

#[test]
fn two_axis_aligned_boxes_show_the_articles_construction_beside_sat() {
    let mut app = lab_app(LabKind::Manifold, "scenes/pairs/box_on_box.ron");
    place(&mut app, 1, Vec2::new(0.7, 0.9), 0.0);
    let t = trace_pair(&app.world, 0, 1, ReferenceFaceRule::default()).unwrap();
    assert!(matches!(t, PairTrace::Boxes(..)));
    assert_eq!(t.steps(), 4 + 7, "the article's four steps, then SAT + clipping's seven");
    assert!(t.step_label(0).contains("overlap on x"), "{}", t.step_label(0));
    assert_eq!(t.step_label(10), "Step 11 of 11 · SAT 7. Manifold");
    // The last step draws SAT's points and the article's area as a rectangle.
    let mut d = DebugList::new(LayerSet::ALL);
    t.draw_step(usize::MAX, &mut d);
    assert!(d.cmds.iter().any(|c| matches!(c, DrawCmd::Aabb { layer: Layer::ClipPlane, .. })));
    assert!(d.count(Layer::Contact) > 0);
    let texts = panel_texts(&app);
    assert!(texts.iter().any(|s| s.contains("article's AABB construction")), "{texts:?}");
    assert!(texts.iter().any(|s| s == "SAT + clipping"));
    // The overlaps are the article's: x 1 + 0.5 − 0.7 = 0.8, y 0.5 + 0.5 − 0.9 = 0.1.
    assert!(texts.iter().any(|s| s.contains("= 0.1000")), "{texts:?}");
    // Turned by a milliradian, the pair is SAT + clipping only.
    place(&mut app, 1, Vec2::new(0.7, 0.9), 1e-3);
    assert!(matches!(trace_pair(&app.world, 0, 1, ReferenceFaceRule::default()), Some(PairTrace::Polygons(_))));
}

/// Every text the panels draw for the app as it is.
fn panel_texts(app: &App) -> Vec<String> {
    let mut h = Harness::new();
    h.frame(app, Vec::new());
    all_texts(&h.frame(app, Vec::new()).1.shapes)
}

#[test]
fn the_panel_steps_a_circle_pair_and_lists_each_steps_numbers() {
    let mut app = lab_app(LabKind::Manifold, "scenes/pairs/box_circle.ron");
    set_shape(&mut app, 0, ShapeDesc::Circle { radius: 0.8 });
    let steps = trace_pair(&app.world, 0, 1, ReferenceFaceRule::default()).unwrap().steps();
    assert_eq!(steps, 4, "centre line, distance, normal, manifold");
    // The lab opened on the last step; ◀ asks for the one before.
    let back = Harness::new().click(&app, "◀");
    assert!(back.contains(&act(ManifoldAction::SetStage(steps - 2))), "{back:?}");
    for a in back {
        app.apply(a);
    }
    assert_eq!(app.lab_as::<ManifoldLab>().unwrap().stage, steps - 2);
    let texts = panel_texts(&app);
    assert!(texts.iter().any(|s| s.starts_with("Step 3 of 4 · normal along the centre line")), "{texts:?}");
    assert!(texts.iter().any(|s| s == "1. centre line t = cB − cA"), "{texts:?}");
    assert!(!texts.iter().any(|s| s.contains("not traced") || s.contains("no SAT stages")));
    // Coincident centres: the fallback normal is the step's title.
    let c = app.world.bodies[0].xf.p;
    place(&mut app, 1, c, 0.0);
    let texts = panel_texts(&app);
    assert!(texts.iter().any(|s| s.contains("coincident centres: the fallback normal")), "{texts:?}");
}

#[test]
fn capsule_and_polygon_circle_pairs_step_their_own_stages() {
    let steps = |file: &str| {
        let app = lab_app(LabKind::Manifold, file);
        let t = trace_pair(&app.world, 0, 1, ReferenceFaceRule::default()).unwrap();
        (0..t.steps()).map(|k| t.step_label(k)).collect::<Vec<_>>()
    };
    let labels = steps("scenes/pairs/box_circle.ron");
    assert!(labels[0].contains("change of basis") && labels[2].contains("centre inside"), "{labels:?}");
    let labels = steps("scenes/pairs/capsule_capsule.ron");
    assert!(labels[0].contains("closest points of the two segments"), "{labels:?}");
    assert!(labels.iter().any(|l| l.contains("clipped to the reference's extent")), "{labels:?}");
    let labels = steps("scenes/pairs/capsule_circle.ron");
    assert!(labels[0].contains("closest point of the segment"), "{labels:?}");
    // The polygon–capsule pair walks the SAT + clipping stages with the capsule's radius.
    let app = lab_app(LabKind::Manifold, "scenes/pairs/capsule_box.ron");
    let Some(PairTrace::PolygonCapsule { trace, swapped: false }) =
        trace_pair(&app.world, 0, 1, ReferenceFaceRule::default())
    else {
        panic!("polygon–capsule expected")
    };
    assert_eq!((trace.radii, trace.axes.len()), ([0.0, 0.25], 6));
    let texts = panel_texts(&app);
    assert!(texts.iter().any(|s| s.starts_with("capsule as a rounded two-gon, radius 0.250")), "{texts:?}");
}

/// The lab's Box2D overlay is `b2CollidePolygons` called directly on the pair (B in A's frame,
/// as Box2D's contact update calls it), point for point; parry's contact has the same depth
/// as ours on the box-on-box preset.
#[cfg(feature = "peers")]
#[test]
fn the_box2d_overlay_is_b2_collide_polygons_called_directly() {
    use boxdd_sys::ffi as b2;
    let mut app = lab_app(LabKind::Manifold, "scenes/pairs/box_on_box.ron");
    app.apply(act(ManifoldAction::ShowPeers(true)));
    assert!(app.lab_as::<ManifoldLab>().unwrap().peers);
    let p = super::peers::answers(&app.world).unwrap();
    let overlay = p.box2d.unwrap();
    let (a, b) = (&app.world.bodies[0], &app.world.bodies[1]);
    let poly = |s: &manifold_lab::engine::shape::Shape| match s {
        manifold_lab::engine::shape::Shape::Polygon(p) => {
            let pts: Vec<b2::b2Vec2> = p.vertices().iter().map(|v| b2::b2Vec2 { x: v.x, y: v.y }).collect();
            // SAFETY: plain C calls on the points above.
            unsafe { b2::b2MakePolygon(&b2::b2ComputeHull(pts.as_ptr(), pts.len() as i32), 0.0) }
        }
        _ => panic!("the preset is two boxes"),
    };
    let r = a.xf.inv_mul(&b.xf);
    let xf = b2::b2Transform { p: b2::b2Vec2 { x: r.p.x, y: r.p.y }, q: b2::b2Rot { c: r.q.c, s: r.q.s } };
    // SAFETY: both polygons were made by Box2D above.
    let m = unsafe { b2::b2CollidePolygons(&poly(&a.shape), &poly(&b.shape), xf) };
    assert_eq!(overlay.points.len(), m.pointCount as usize);
    assert!(overlay.points.len() == 2);
    for (k, &(point, separation)) in overlay.points.iter().enumerate() {
        let q = m.points[k];
        assert_eq!(point, a.xf.apply(Vec2::new(q.point.x, q.point.y)));
        assert_eq!(separation, q.separation);
    }
    assert_eq!(overlay.normal, a.xf.q.apply(Vec2::new(m.normal.x, m.normal.y)));
    let ours = super::manifold_of(&app.world, 0, 1, ReferenceFaceRule::default()).unwrap();
    let deepest = ours.points().iter().map(|q| q.penetration).fold(0.0, f32::max);
    let parry = p.parry.unwrap();
    assert!((parry.distance + deepest).abs() < 1e-4, "parry {} ours {deepest}", parry.distance);
}
