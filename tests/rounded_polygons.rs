//! Rounded polygons (Box2D's `b2Polygon.radius`, `b2MakeRoundedBox`) against Box2D v3 in the
//! same process: mass, centre and inertia against `b2ComputePolygonMass`, bounding boxes
//! against `b2ComputePolygonAABB`, ray casts against `b2RayCastPolygon`, the time of impact of a
//! rounded box against the closed form and `b2TimeOfImpact`, and a rounded box resting on the
//! ground at its rounded height. (The manifolds against `b2CollidePolygons` on random poses are
//! in `narrowphase_differential`, with the exact f64 depth.)
#![cfg(feature = "peers")]

use boxdd_sys::ffi as b2;
use glam::Vec2;
use manifold_lab::engine::collide::toi::{time_of_impact, Sweep, ToiInput, ToiMethod, ToiState};
use manifold_lab::engine::math::Transform;
use manifold_lab::engine::rng::SplitMix64;
use manifold_lab::engine::shape::ray::RayCastInput;
use manifold_lab::engine::shape::{Polygon, Shape};
use manifold_lab::peers::box2d_manifold::rounded_polygon;
use manifold_lab::peers::box2d_toi;
use manifold_lab::scene;

fn v(p: Vec2) -> b2::b2Vec2 {
    b2::b2Vec2 { x: p.x, y: p.y }
}

fn b2_polygon(p: &Polygon) -> b2::b2Polygon {
    rounded_polygon(p.vertices(), p.radius).expect("Box2D takes the polygon")
}

/// Rounded boxes of many proportions and a rounded hexagon.
fn shapes() -> Vec<Polygon> {
    let mut out = Vec::new();
    for (hx, hy, r) in [(0.4, 20.0, 0.2), (0.5, 0.5, 0.1), (1.0, 0.25, 0.5), (0.05, 0.05, 0.3), (3.0, 0.1, 0.01)] {
        out.push(Polygon::make_rounded_box(Vec2::new(hx, hy), r).unwrap());
    }
    let hexagon: Vec<Vec2> =
        (0..6).map(|i| Vec2::from_angle(i as f32 * std::f32::consts::FRAC_PI_3 + 0.3) * 0.8).collect();
    out.push(Polygon::new(&hexagon).unwrap().rounded(0.15).unwrap());
    out
}

#[test]
fn mass_centre_and_inertia_are_box2ds_rounded_polygon_mass() {
    for p in shapes() {
        let ours = p.mass_data(2.5);
        // SAFETY: a plain C function on a polygon built by b2MakePolygon.
        let theirs = unsafe { b2::b2ComputePolygonMass(&b2_polygon(&p), 2.5) };
        let close = |a: f32, b: f32| (a - b).abs() <= 2e-5 * b.abs().max(1e-3);
        assert!(close(ours.mass, theirs.mass), "{p:?}: mass {} vs Box2D {}", ours.mass, theirs.mass);
        assert!(
            close(ours.inertia, theirs.rotationalInertia),
            "inertia {} vs {}",
            ours.inertia,
            theirs.rotationalInertia
        );
        assert!((ours.center - Vec2::new(theirs.center.x, theirs.center.y)).length() < 1e-5);
    }
    // The closed form for a box: its corners pushed out by 1.412 r along the diagonal, i.e.
    // a box grown by 1.412 r / √2 on each side.
    let (hx, hy, r, density) = (0.4f32, 20.0f32, 0.2f32, 1.0f32);
    let grow = 1.412 * r / std::f32::consts::SQRT_2;
    let (w, h) = (2.0 * (hx + grow), 2.0 * (hy + grow));
    let m = Polygon::make_rounded_box(Vec2::new(hx, hy), r).unwrap().mass_data(density);
    assert!((m.mass - density * w * h).abs() < 1e-4 * m.mass);
    assert!((m.inertia - m.mass * (w * w + h * h) / 12.0).abs() < 1e-4 * m.inertia);
}

#[test]
fn bounding_boxes_are_box2ds() {
    for (k, p) in shapes().into_iter().enumerate() {
        let xf = Transform::new(Vec2::new(1.5 - k as f32, 0.3 * k as f32), 0.4 + 0.7 * k as f32);
        let ours = Shape::Polygon(p).compute_aabb(&xf);
        let t = b2::b2Transform { p: v(xf.p), q: b2::b2Rot { c: xf.q.c, s: xf.q.s } };
        // SAFETY: as above.
        let theirs = unsafe { b2::b2ComputePolygonAABB(&b2_polygon(&p), t) };
        let (lo, hi) =
            (Vec2::new(theirs.lowerBound.x, theirs.lowerBound.y), Vec2::new(theirs.upperBound.x, theirs.upperBound.y));
        assert!((ours.min - lo).length() < 1e-4 && (ours.max - hi).length() < 1e-4, "{ours:?} vs {lo} {hi}");
    }
}

/// Box2D casts a ray at a rounded polygon by conservative advancement (`b2ShapeCast`), which
/// stops within its target, `radius − linear slop` from the core (± a quarter slop): up to
/// 6.25 mm inside the surface along the normal, and it misses rays that only graze the surface
/// by that much. Ours is the exact entry, so: where Box2D hits, ours hits; where ours hits at
/// more than 17° from grazing, Box2D hits too (unless at the ray's end) and the two entries
/// are the same within those 6.25 mm along the normal.
#[test]
fn ray_casts_hit_where_box2ds_do() {
    const SLACK: f32 = 1.25 * 0.005 + 5e-4;
    let mut rng = SplitMix64(0x0520_5D00);
    let (mut compared, mut checked) = (0, 0);
    for p in shapes() {
        for _ in 0..400 {
            let origin = Vec2::new(rng.f32(-4.0, 4.0), rng.f32(-4.0, 4.0));
            let target = Vec2::new(rng.f32(-1.0, 1.0), rng.f32(-1.0, 1.0));
            let input = RayCastInput::new(origin, 2.0 * (target - origin));
            if p.test_point(origin) {
                continue; // from inside: an initial overlap in both
            }
            checked += 1;
            let ours = Shape::Polygon(p).ray_cast(&Transform::IDENTITY, &input);
            let b2_input =
                b2::b2RayCastInput { origin: v(origin), translation: v(input.translation), maxFraction: 1.0 };
            // SAFETY: as above.
            let theirs = unsafe { b2::b2RayCastPolygon(&b2_polygon(&p), &b2_input) };
            let Some(hit) = ours else {
                assert!(!theirs.hit, "{p:?}: Box2D hits the ray from {origin} to {target}, ours misses");
                continue;
            };
            let length = input.translation.length();
            let cos = -hit.normal.dot(input.translation / length);
            assert!(cos >= -1e-4 && (hit.normal.length() - 1.0).abs() < 1e-4, "{hit:?}");
            if cos < 0.3 || hit.fraction > 0.99 {
                continue; // grazing, or at the ray's end: Box2D may stop short of the surface
            }
            assert!(theirs.hit, "{p:?}: ours hits the ray from {origin} at {hit:?}, Box2D misses");
            compared += 1;
            let along = (theirs.fraction - hit.fraction) * length * cos;
            assert!((-1e-4..=SLACK).contains(&along), "Box2D's entry {along} m beyond ours along the normal");
        }
    }
    assert!(compared > checked / 5, "too few hits to say much: {compared} of {checked}");
}

#[test]
fn a_falling_rounded_box_hits_on_its_corner_arc() {
    // A square of half size 0.5 and radius 0.2 turned 45° falls 3 m onto a ground box whose top
    // is y = 0. The time of impact leaves the cores Box2D's target apart, `radius − linear slop`
    // (the rounded surface a linear slop into the ground): the square's lowest core point is its
    // corner, 0.5 √2 below the centre. (Without the radius the target would be the linear slop,
    // and the hit 0.19 m later.)
    let rounded = Shape::Polygon(Polygon::make_rounded_box(Vec2::splat(0.5), 0.2).unwrap());
    let ground = Shape::make_box(Vec2::new(5.0, 0.5)).unwrap();
    let quarter = std::f32::consts::FRAC_PI_4;
    let start = 2.0;
    let sweep_a = Sweep::between(
        Vec2::ZERO,
        &Transform::new(Vec2::new(0.0, -0.5), 0.0),
        &Transform::new(Vec2::new(0.0, -0.5), 0.0),
    );
    let sweep_b = Sweep::between(
        Vec2::ZERO,
        &Transform::new(Vec2::new(0.1, start), quarter),
        &Transform::new(Vec2::new(0.1, start - 3.0), quarter),
    );
    let input = ToiInput::from_shapes(&ground, sweep_a, &rounded, sweep_b);
    assert!((input.target - (0.2 - 0.005)).abs() < 1e-6, "Box2D's target for the radius: {}", input.target);
    let want = (start - 0.5 * std::f32::consts::SQRT_2 - input.target) / 3.0;
    for method in ToiMethod::ALL {
        let out = time_of_impact(method, &input, None);
        assert_eq!(out.state, ToiState::Hit, "{method:?}");
        assert!((out.t - want).abs() < 1e-3, "{method:?}: t {} but the closed form gives {want}", out.t);
    }
    let b2 = box2d_toi::time_of_impact(&input);
    assert_eq!(b2.state, ToiState::Hit);
    assert!((b2.t - want).abs() < 1e-3, "Box2D: t {} but the closed form gives {want}", b2.t);
}

#[test]
fn a_rounded_box_rests_at_its_rounded_height() {
    let text = r#"Scene(version: 1, name: "rest", bodies: [
        (kind: Static, position: (0.0, -1.0), shape: Box(half_extents: (10.0, 1.0))),
        (name: "r", position: (0.0, 1.0), shape: Box(half_extents: (0.5, 0.25), radius: 0.2)),
    ])"#;
    let mut world = scene::parse(text, "rest.ron").expect("the scene loads").build_world();
    for _ in 0..180 {
        world.step();
    }
    let body = world.bodies.iter().find(|b| b.name == "r").unwrap();
    // Resting on the ground's top at 0: the centre at half height + radius, less the slop.
    let height = 0.25 + 0.2;
    assert!((body.xf.p.y - height).abs() < 0.01, "at {} instead of about {height}", body.xf.p.y);
    assert!(body.angle.abs() < 1e-3);
}

#[test]
fn the_humans_foot_is_human_cs_rounded_polygon() {
    use manifold_lab::engine::spawn::human::foot_polygon;
    // The rain's scale (1) and a larger one. (At half size Box2D's hull drops the corner at
    // (0.11, -0.16) s as collinear within its absolute tolerance; ours keeps it.)
    for scale in [1.0f32, 2.0] {
        // human.c: b2ComputeHull of four points, then b2MakePolygon with a 0.015 m radius.
        let points = [(-0.03, -0.185), (0.11, -0.185), (0.11, -0.16), (-0.03, -0.14)]
            .map(|(x, y)| b2::b2Vec2 { x: x * scale, y: y * scale });
        // SAFETY: plain C functions on a local array of four points.
        let theirs = unsafe {
            let hull = b2::b2ComputeHull(points.as_ptr(), 4);
            b2::b2MakePolygon(&hull, 0.015 * scale)
        };
        let ours = foot_polygon(scale);
        assert_eq!(ours.radius, theirs.radius);
        assert_eq!(ours.vertices().len(), theirs.count as usize);
        for p in ours.vertices() {
            let same =
                theirs.vertices[..theirs.count as usize].iter().any(|t| (Vec2::new(t.x, t.y) - *p).length() < 1e-6);
            assert!(same, "scale {scale}: vertex {p} not in Box2D's foot");
        }
        let mass = Shape::Polygon(ours).mass_data(1.0);
        // SAFETY: as above, on the polygon Box2D made.
        let theirs = unsafe { b2::b2ComputePolygonMass(&theirs, 1.0) };
        assert!((mass.mass - theirs.mass).abs() <= 1e-5 * theirs.mass, "{} vs {}", mass.mass, theirs.mass);
    }
}
