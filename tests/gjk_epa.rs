//! GJK, EPA and the Minkowski difference: analytic cases, degenerate inputs and traces,
//! checked against closed forms and the SAT narrowphase (`sat::find_max_separation`). The
//! property tests are in `gjk_epa_props.rs`.

mod support;

use glam::Vec2;
use manifold_lab::engine::collide::collide;
use manifold_lab::engine::collide::distance::signed_distance;
use manifold_lab::engine::collide::epa::{epa, penetration, EpaEnd};
use manifold_lab::engine::collide::epa_trace::EpaTrace;
use manifold_lab::engine::collide::gjk::{distance, gjk, Simplex, SimplexVertex};
use manifold_lab::engine::collide::gjk_trace::GjkTrace;
use manifold_lab::engine::collide::minkowski::{EdgeSource, FeaturePair, MinkowskiDifference};
use manifold_lab::engine::collide::support::{Proxy, SupportPoint};
use manifold_lab::engine::debug::{DebugList, Layer, LayerSet};
use manifold_lab::engine::math::{cross, Transform};
use manifold_lab::engine::shape::{Polygon, Shape};
use std::f32::consts::{FRAC_PI_4, SQRT_2};
use support::sat::sat_reference;
use support::{close, vclose};

fn bx(hx: f32, hy: f32) -> Shape {
    Shape::make_box(Vec2::new(hx, hy)).unwrap()
}

fn circle(r: f32) -> Shape {
    Shape::circle(r).unwrap()
}

fn xf(x: f32, y: f32, a: f32) -> Transform {
    Transform::new(Vec2::new(x, y), a)
}

#[test]
fn box_box_face_and_corner_distances() {
    let a = bx(1.0, 1.0);
    let b = bx(0.5, 0.5);
    let g = distance(&a, &Transform::IDENTITY, &b, &xf(3.0, 0.2, 0.0), None);
    assert!(!g.overlap);
    assert!(close(g.distance, 1.5, 1e-6));
    assert!(vclose(g.normal, Vec2::X, 1e-6));
    assert!(close(g.point_a.x, 1.0, 1e-6) && close(g.point_b.x, 2.5, 1e-6));
    assert!(vclose(g.point_b - g.point_a, 1.5 * Vec2::X, 1e-6));

    let g = distance(&a, &Transform::IDENTITY, &b, &xf(3.0, 3.0, 0.0), None);
    assert!(close(g.distance, 1.5 * SQRT_2, 1e-5));
    assert!(vclose(g.point_a, Vec2::ONE, 1e-6) && vclose(g.point_b, Vec2::splat(2.5), 1e-6));
    assert!(vclose(g.normal, Vec2::ONE.normalize(), 1e-6));

    // B rotated 45°: its corner points at A's right face.
    let g = distance(&a, &Transform::IDENTITY, &b, &xf(3.0, 0.3, FRAC_PI_4), None);
    assert!(close(g.distance, 2.0 - 0.5 * SQRT_2, 1e-5));
    assert!(vclose(g.point_b, Vec2::new(3.0 - 0.5 * SQRT_2, 0.3), 1e-5));
}

#[test]
fn circle_distances_are_exact() {
    let g = distance(&circle(0.5), &xf(1.0, 2.0, 0.0), &circle(0.25), &xf(4.0, 6.0, 1.0), None);
    assert!(close(g.distance, 5.0 - 0.75, 1e-6));
    assert!(vclose(g.normal, Vec2::new(0.6, 0.8), 1e-6));
    assert!(vclose(g.point_a, Vec2::new(1.3, 2.4), 1e-6));
    assert!(vclose(g.point_b, Vec2::new(4.0 - 0.15, 6.0 - 0.2), 1e-6));
    // Circle against a box face and a box corner.
    let g = distance(&bx(1.0, 1.0), &Transform::IDENTITY, &circle(0.5), &xf(3.0, 0.5, 0.0), None);
    assert!(close(g.distance, 1.5, 1e-6) && vclose(g.point_a, Vec2::new(1.0, 0.5), 1e-6));
    assert!(vclose(g.point_b, Vec2::new(2.5, 0.5), 1e-6));
    let g = distance(&circle(1.0), &xf(3.0, 3.0, 0.0), &bx(1.0, 1.0), &Transform::IDENTITY, None);
    assert!(close(g.distance, 2.0 * SQRT_2 - 1.0, 1e-6));
    assert!(vclose(g.normal, -Vec2::ONE.normalize(), 1e-6));
    assert!(vclose(g.point_b, Vec2::ONE, 1e-6));
}

#[test]
fn capsule_distances_via_proxies() {
    let cap = Proxy::capsule(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0), 0.25);
    let c = Proxy::circle(Vec2::new(0.3, 2.0), 0.5);
    let g = gjk(&cap, &c, None);
    assert!(close(g.distance, 2.0 - 0.75, 1e-6) && vclose(g.normal, Vec2::Y, 1e-6));
    assert!(vclose(g.point_a, Vec2::new(0.3, 0.25), 1e-6));
    // Beyond the end cap: distance from the end point.
    let c = Proxy::circle(Vec2::new(4.0, 4.0), 0.5);
    let g = gjk(&cap, &c, None);
    assert!(close(g.distance, 5.0 - 0.75, 1e-5));
    // Overlapping rounded parts (cores apart): exact depth from the core distance.
    let c = Proxy::circle(Vec2::new(0.0, 0.6), 0.5);
    let s = manifold_lab::engine::collide::distance::signed_distance_proxies(&cap, &c, None, None);
    assert!(close(s.separation, -0.15, 1e-6) && vclose(s.normal, Vec2::Y, 1e-6));
}

#[test]
fn overlapping_boxes_match_analytic_depth_and_sat() {
    let a = bx(1.0, 1.0);
    let b = bx(0.5, 0.5);
    let p = penetration(&a, &Transform::IDENTITY, &b, &xf(1.3, 0.2, 0.0), None).unwrap();
    assert!(close(p.depth, 0.2, 1e-5), "{p:?}");
    assert!(vclose(p.normal, Vec2::X, 1e-6));
    assert!(vclose(p.point_a - p.point_b, p.depth * p.normal, 1e-5));
    assert!(close(p.point_a.x, 1.0, 1e-5) && close(p.point_b.x, 0.8, 1e-5));
    // Rotated: EPA depth is −max(sepA, sepB).
    for (i, x) in [(0, 0.4f32), (1, 0.9), (2, -1.1), (3, 0.05)] {
        let xb = xf(x, 0.7 - 0.3 * i as f32, 0.3 + i as f32);
        let p = penetration(&a, &Transform::IDENTITY, &b, &xb, None).unwrap();
        let (depth, n, gap) = sat_reference(&a, &Transform::IDENTITY, &b, &xb).unwrap();
        assert!(close(p.depth, depth, 1e-5), "case {i}: {} vs {depth}", p.depth);
        if gap > 1e-3 {
            assert!(vclose(p.normal, n, 1e-4));
        }
    }
}

#[test]
fn overlapping_circles_and_circle_inside_box() {
    let p = penetration(&circle(1.0), &Transform::IDENTITY, &circle(0.5), &xf(0.0, 1.2, 0.0), None).unwrap();
    assert!(close(p.depth, 0.3, 1e-6) && vclose(p.normal, Vec2::Y, 1e-6) && p.end == EpaEnd::CoresApart);
    // Centre inside the box: EPA on the cores (box vs point) plus the radius.
    let p = penetration(&bx(1.0, 1.0), &Transform::IDENTITY, &circle(0.25), &xf(0.8, 0.1, 0.0), None).unwrap();
    assert!(close(p.depth, 0.45, 1e-5) && vclose(p.normal, Vec2::X, 1e-5), "{p:?}");
    let m = collide(&bx(1.0, 1.0), &Transform::IDENTITY, &circle(0.25), &xf(0.8, 0.1, 0.0), 0.0);
    assert!(close(m.max_penetration(), p.depth, 1e-5));
}

#[test]
fn touching_shapes() {
    let a = bx(1.0, 1.0);
    for xb in [xf(2.0, 0.0, 0.0), xf(2.0, 2.0, 0.0), xf(2.0, 0.7, 0.0), xf(1.0 + SQRT_2, 0.0, FRAC_PI_4)] {
        let g = distance(&a, &Transform::IDENTITY, &a, &xb, None);
        assert!(g.overlap && g.distance == 0.0, "{xb:?}: {g:?}");
        let p = penetration(&a, &Transform::IDENTITY, &a, &xb, None).unwrap();
        assert!(p.depth.abs() < 1e-5 && p.normal.is_finite() && close(p.normal.length(), 1.0, 1e-5), "{p:?}");
        assert!(p.normal.x > 0.7 || (xb.p.y == 2.0 && p.normal.y > 0.7), "{p:?}");
        let md = MinkowskiDifference::from_shapes(&a, &Transform::IDENTITY, &a, &xb);
        assert!(md.signed_distance().abs() < 1e-5);
    }
    let g = distance(&circle(1.0), &Transform::IDENTITY, &circle(1.0), &xf(0.0, 2.0, 0.0), None);
    assert!(g.overlap);
}

#[test]
fn identical_shapes_at_the_same_pose() {
    let pose = xf(1.0, 2.0, 0.3);
    let hexagon: Vec<Vec2> = (0..6).map(|i| Vec2::from_angle(i as f32 * std::f32::consts::TAU / 6.0)).collect();
    let hexagon = Shape::Polygon(Polygon::new(&hexagon).unwrap());
    for (s, depth) in [(bx(1.0, 0.5), 1.0), (circle(0.75), 1.5), (hexagon, 3.0f32.sqrt())] {
        let g = distance(&s, &pose, &s, &pose, None);
        assert!(g.overlap && g.distance == 0.0 && g.point_a.is_finite());
        let p = penetration(&s, &pose, &s, &pose, None).unwrap();
        assert!(close(p.depth, depth, 1e-5), "{s:?}: {p:?}");
        assert!(close(p.normal.length(), 1.0, 1e-6) && p.point_a.is_finite() && p.point_b.is_finite());
        let md = MinkowskiDifference::from_shapes(&s, &pose, &s, &pose);
        assert!(close(md.signed_distance(), -depth, 1e-5));
    }
}

#[test]
fn tiny_and_huge_shapes() {
    let h = 0.005; // MIN_EXTENT: `make_box` wants more, a polygon takes it.
    let t = Shape::Polygon(
        Polygon::new(&[Vec2::new(-h, -h), Vec2::new(h, -h), Vec2::new(h, h), Vec2::new(-h, h)]).unwrap(),
    );
    let g = distance(&t, &xf(100.0, 50.0, 0.0), &t, &xf(100.02, 50.0, 0.0), None);
    assert!(close(g.distance, 0.01, 1e-5) && vclose(g.normal, Vec2::X, 1e-3), "{g:?}");
    let p = penetration(&t, &xf(3.0, 3.0, 0.0), &t, &xf(3.004, 3.001, 0.2), None).unwrap();
    let (depth, _, _) = sat_reference(&t, &xf(3.0, 3.0, 0.0), &t, &xf(3.004, 3.001, 0.2)).unwrap();
    assert!(close(p.depth, depth, 1e-6), "{} vs {depth}", p.depth);
    let tc = circle(0.005);
    let g = distance(&tc, &Transform::IDENTITY, &tc, &xf(0.0, 0.0125, 0.0), None);
    assert!(close(g.distance, 0.0025, 1e-7));

    let h = bx(1.0e4, 1.0e4);
    let g = distance(&h, &xf(0.0, 0.0, 0.0), &h, &xf(2.0e4 + 10.0, 5000.0, 0.0), None);
    assert!(close(g.distance, 10.0, 1e-2) && vclose(g.normal, Vec2::X, 1e-4), "{g:?}");
    let xb = xf(1.5e4, 3000.0, 0.1);
    let p = penetration(&h, &Transform::IDENTITY, &h, &xb, None).unwrap();
    let (depth, n, _) = sat_reference(&h, &Transform::IDENTITY, &h, &xb).unwrap();
    assert!(close(p.depth, depth, 1e-5 * 1e4) && vclose(p.normal, n, 1e-4), "{p:?} vs {depth}");
    let hc = circle(1.0e4);
    let p = penetration(&hc, &Transform::IDENTITY, &h, &xf(1.0e4, 1.9e4, 0.0), None).unwrap();
    assert!(p.depth.is_finite() && p.normal.is_finite() && p.depth > 500.0, "{p:?}");
}

fn vertex(pa: &Proxy, ia: usize, pb: &Proxy, ib: usize) -> SimplexVertex {
    SimplexVertex { sp: SupportPoint::from_indices(pa, ia, pb, ib), bary: 0.0 }
}

#[test]
fn epa_blows_up_degenerate_simplices() {
    // Two overlapping boxes (depth 0.5 along x); EPA from poor starting simplices.
    let a = bx(1.0, 1.0);
    let pa = Proxy::from_shape(&a, &Transform::IDENTITY, Vec2::ZERO);
    let pb = Proxy::from_shape(&a, &xf(1.5, 0.0, 0.0), Vec2::ZERO);
    let v = |ia, ib| vertex(&pa, ia, &pb, ib);
    let simplices = [
        Simplex { v: [v(0, 0), v(0, 0), v(0, 0)], count: 1 },
        Simplex { v: [v(1, 3), v(2, 0), v(0, 0)], count: 2 },
        // Collinear triangle (w = (0,-2), (2,-2)... all on y = −2 is impossible; use the
        // vertical line x = 0.5 through three support points) and a repeated vertex.
        Simplex { v: [v(1, 0), v(1, 3), v(2, 0)], count: 3 },
        Simplex { v: [v(1, 3), v(1, 3), v(2, 0)], count: 3 },
    ];
    for s in &simplices {
        let mut trace = EpaTrace::new();
        let p = epa(&pa, &pb, s, Some(&mut trace));
        assert!(close(p.depth, 0.5, 1e-5) && vclose(p.normal, Vec2::X, 1e-5), "{s:?}: {p:?}");
        assert_eq!(trace.gjk_simplex_count, s.count);
        assert!(trace.steps.iter().all(|st| st.polytope.len() >= 3));
    }
    // A segment simplex through the origin of a difference with area on one side only.
    let pb = Proxy::from_shape(&a, &xf(2.0, 0.0, 0.0), Vec2::ZERO);
    let s = Simplex { v: [vertex(&pa, 1, &pb, 3), vertex(&pa, 2, &pb, 0), vertex(&pa, 0, &pb, 0)], count: 2 };
    let p = epa(&pa, &pb, &s, None);
    assert!(p.depth.abs() < 1e-6 && vclose(p.normal, Vec2::X, 1e-6), "{p:?}");
}

#[test]
fn duplicate_support_points_and_degenerate_differences() {
    // A proxy with repeated points (built by hand, bypassing `Proxy::new`'s cleanup).
    let mut pa = Proxy::from_shape(&bx(1.0, 1.0), &Transform::IDENTITY, Vec2::ZERO);
    pa.points = [
        pa.points[0],
        pa.points[0],
        pa.points[1],
        pa.points[1],
        pa.points[2],
        pa.points[3],
        pa.points[3],
        pa.points[0],
    ];
    pa.count = 8;
    let pb = Proxy::circle(Vec2::new(0.5, 0.4), 0.2);
    let s = manifold_lab::engine::collide::distance::signed_distance_proxies(&pa, &pb, None, None);
    assert!(close(s.separation, -0.7, 1e-5) && vclose(s.normal, Vec2::X, 1e-5), "{s:?}");
    let pc = Proxy::circle(Vec2::new(3.0, 0.4), 0.2);
    let g = gjk(&pa, &pc, None);
    assert!(close(g.distance, 1.8, 1e-6));
    let cleaned = Proxy::new(&[Vec2::ZERO, Vec2::ZERO, Vec2::X, Vec2::ONE, Vec2::ONE, Vec2::Y, Vec2::ZERO], 0.0);
    assert_eq!(cleaned.count, 4);
    // A circle centred on a capsule's segment: the core difference is a segment through the
    // origin, so the core depth is 0 and the depth is the sum of the radii.
    let cap = Proxy::capsule(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0), 0.25);
    let c = Proxy::circle(Vec2::new(0.2, 0.0), 0.5);
    let s = manifold_lab::engine::collide::distance::signed_distance_proxies(&cap, &c, None, None);
    assert!(close(s.separation, -0.75, 1e-6) && close(s.normal.y.abs(), 1.0, 1e-6), "{s:?}");
    // Concentric circles: the difference is a point; the circles' fallback normal (1, 0).
    let p = penetration(&circle(1.0), &xf(2.0, 2.0, 0.0), &circle(0.5), &xf(2.0, 2.0, 0.0), None).unwrap();
    assert!(close(p.depth, 1.5, 1e-6) && p.normal == Vec2::X && p.end == EpaEnd::Degenerate);
    let md = MinkowskiDifference::new(&cap, &c);
    assert!(close(md.signed_distance(), -0.75, 1e-6));
}

#[test]
fn minkowski_difference_records_feature_pairs() {
    let a = Shape::Polygon(Polygon::new(&[Vec2::new(0.0, 0.0), Vec2::new(2.0, 0.0), Vec2::new(0.0, 1.0)]).unwrap());
    let b = bx(0.5, 0.25);
    let (xa, xb) = (xf(0.3, -0.2, 0.4), xf(3.0, 1.0, 1.1));
    let md = MinkowskiDifference::from_shapes(&a, &xa, &b, &xb);
    assert_eq!(md.edges.len(), 7);
    assert_eq!(md.edges.iter().filter(|e| e.source() == EdgeSource::A).count(), 3);
    let (Shape::Polygon(pa), Shape::Polygon(pb)) = (&a, &b) else { unreachable!() };
    let wa = |i: usize| xa.apply(pa.vertices[i % pa.count]) - xa.p;
    let wb = |i: usize| xb.apply(pb.vertices[i % pb.count]) - xa.p;
    for (i, e) in md.edges.iter().enumerate() {
        // Edges chain CCW into a convex polygon with unit outward normals.
        let next = &md.edges[(i + 1) % md.edges.len()];
        assert!(vclose(e.end, next.start, 1e-5));
        assert!(cross(e.end - e.start, next.end - next.start) >= -1e-5);
        assert!(close(e.normal.length(), 1.0, 1e-5) && e.normal.dot(e.end - e.start).abs() < 1e-4);
        // Each edge is an edge of one shape minus a supporting vertex of the other.
        let (s, t) = match e.feature {
            FeaturePair::EdgeAVertexB { edge_a, vertex_b } => {
                let n = xa.q.apply(pa.normals[edge_a]);
                assert_eq!(pb.support_index(xb.q.apply_inv(-n)), vertex_b);
                (wa(edge_a) - wb(vertex_b), wa(edge_a + 1) - wb(vertex_b))
            }
            FeaturePair::VertexAEdgeB { vertex_a, edge_b } => {
                let n = xb.q.apply(pb.normals[edge_b]);
                assert_eq!(pa.support_index(xa.q.apply_inv(-n)), vertex_a);
                (wa(vertex_a) - wb(edge_b), wa(vertex_a) - wb(edge_b + 1))
            }
        };
        assert!(vclose(e.start, s, 1e-5) && vclose(e.end, t, 1e-5), "{}", e.label());
    }
    let g = distance(&a, &xa, &b, &xb, None);
    assert!(close(md.signed_distance(), g.distance, 1e-5) && vclose(md.normal(), g.normal, 1e-4));
    assert!(vclose(md.minimum_translation(), -g.distance * g.normal, 1e-5));
}

#[test]
fn minkowski_of_exactly_aligned_boxes() {
    // The 004 article's caveat: faces exactly parallel, two supporting vertices per face.
    let a = bx(1.0, 1.0);
    for xb in [xf(1.5, 0.5, 0.0), xf(2.5, 0.0, 0.0), xf(0.0, 0.0, 0.0), xf(-1.0, 1.2, std::f32::consts::PI)] {
        let md = MinkowskiDifference::from_shapes(&a, &Transform::IDENTITY, &a, &xb);
        // The difference of two 2×2 squares is a 4×4 square centred on −pB.
        let mut lo = Vec2::splat(f32::MAX);
        let mut hi = Vec2::splat(-f32::MAX);
        for e in &md.edges {
            lo = lo.min(e.start);
            hi = hi.max(e.start);
        }
        assert!(vclose(lo, -xb.p - Vec2::splat(2.0), 1e-5) && vclose(hi, -xb.p + Vec2::splat(2.0), 1e-5));
        let sd = signed_distance(&a, &Transform::IDENTITY, &a, &xb, None, None);
        assert!(
            close(md.signed_distance(), sd.separation, 1e-5),
            "{xb:?}: {} vs {}",
            md.signed_distance(),
            sd.separation
        );
    }
}

#[test]
fn traces_record_every_step_and_draw_them() {
    let a = Shape::Polygon(Polygon::new(&[Vec2::new(-1.0, -0.5), Vec2::new(1.2, -0.7), Vec2::new(0.4, 1.0)]).unwrap());
    let b = bx(0.6, 0.3);
    let (xa, xb) = (xf(0.0, 0.0, 0.2), xf(0.7, 0.6, -0.5));
    let (mut gt, mut et) = (GjkTrace::new(), EpaTrace::new());
    let sd = signed_distance(&a, &xa, &b, &xb, Some(&mut gt), Some(&mut et));
    let untraced = signed_distance(&a, &xa, &b, &xb, None, None);
    assert_eq!(sd, untraced);
    assert!(sd.separation < 0.0 && !gt.is_empty() && !et.is_empty());
    assert!(gt.steps.last().unwrap().end.is_some() && gt.steps[..gt.len() - 1].iter().all(|s| s.end.is_none()));
    assert!(gt.steps.iter().all(|s| (1..=3).contains(&s.simplex.len())));
    for s in gt.steps.iter().filter_map(|s| s.support) {
        // Shape-space points are in world space, configuration points are their difference.
        assert!(vclose(s.w, s.a - s.b, 1e-5));
        let Shape::Polygon(pb) = &b else { unreachable!() };
        assert!(pb.world_vertices(&xb).any(|v| vclose(v, s.b, 1e-5)));
    }
    let last = et.steps.last().unwrap();
    assert!(last.terminated_by_tolerance || last.end == Some(EpaEnd::DuplicateSupport));
    assert!(close(-sd.separation, last.closest_edge.distance, 1e-5));
    for (i, st) in et.steps.iter().enumerate() {
        assert_eq!(st.polytope.len(), 3 + i);
    }
    let md = MinkowskiDifference::from_shapes(&a, &xa, &b, &xb);
    let mut list = DebugList::new(LayerSet::ALL);
    for k in 0..gt.len() {
        gt.draw(k, &mut list, Vec2::new(10.0, 0.0), 0.5);
    }
    for k in 0..et.len() + 2 {
        et.draw(k, &mut list, Vec2::new(10.0, 0.0), 0.5);
    }
    md.draw(&mut list, Vec2::new(10.0, 0.0), 0.5);
    for layer in [Layer::Simplex, Layer::Polytope, Layer::Minkowski, Layer::Normal, Layer::Contact] {
        assert!(list.count(layer) > 0, "{layer:?} not drawn");
    }
    // Unwanted layers cost nothing and draw nothing.
    let mut none = DebugList::new(LayerSet(0));
    gt.draw(0, &mut none, Vec2::ZERO, 1.0);
    et.draw(0, &mut none, Vec2::ZERO, 1.0);
    md.draw(&mut none, Vec2::ZERO, 1.0);
    assert!(none.cmds.is_empty());
    // Plain data: serialisable.
    assert!(serde_json::to_string(&gt).unwrap().contains("simplex"));
    assert!(serde_json::to_string(&et).unwrap().contains("closest_edge"));
    assert!(serde_json::to_string(&md).unwrap().contains("EdgeAVertexB"));
}
