//! Contact recycling (`engine::solver::recycle`, after Box2D v3's `b2CollideTask`): a recycled
//! manifold's separations against a freshly computed manifold for small motions, within a
//! bound derived below; most contacts of a resting pyramid are recycled; a falling body's
//! contact is computed, not recycled, across its impact; switching recycling off computes
//! every manifold again. (Recycling off reproducing the engine before recycling bit for bit
//! is `tests/golden.rs`; snapshots recycling the same contacts, `tests/narrowphase_reuse.rs`
//! and `tests/timeline.rs`.)

use glam::Vec2;
use manifold_lab::engine::collide::collide;
use manifold_lab::engine::rng::SplitMix64;
use manifold_lab::engine::shape::{Polygon, Shape};
use manifold_lab::engine::solver::recycle::{ManifoldOrigin, RECYCLE_DISTANCE};
use manifold_lab::engine::solver::SolverParams;
use manifold_lab::engine::{Body, BodyDef, BodyKind, World};
use manifold_lab::scene;

/// Random cases of the separation test (`RECYCLE_CASES` raises it).
fn cases() -> usize {
    std::env::var("RECYCLE_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(3_000)
}

fn shapes() -> Vec<(Shape, f32)> {
    // Each shape with its smallest radius of curvature (∞ for flat-sided polygons).
    vec![
        (Shape::make_box(Vec2::new(0.5, 0.3)).unwrap(), f32::INFINITY),
        (Shape::circle(0.4).unwrap(), 0.4),
        (Shape::capsule(Vec2::new(-0.3, 0.0), Vec2::new(0.3, 0.0), 0.2).unwrap(), 0.2),
        (
            Shape::Polygon(Polygon::new(&[Vec2::new(-0.4, -0.3), Vec2::new(0.4, -0.3), Vec2::new(0.0, 0.4)]).unwrap()),
            f32::INFINITY,
        ),
    ]
}

/// Moves `b`'s centre of mass by `dp` and turns it by `da` about it.
fn moved(b: &Body, dp: Vec2, da: f32) -> Body {
    let mut m = b.clone();
    let angle = b.angle + da;
    let center = b.center + dp;
    let q = manifold_lab::engine::math::Rot::from_angle(angle);
    m.set_transform(center - q.apply(b.local_center), angle);
    m
}

/// For a manifold computed at one pose and recycled after a small motion, each point's
/// separation against the separation of the same feature pair computed afresh.
///
/// The bound. Let `d = |Δp| + e·|sin Δθ|` be the recycling metric (below 5 cm), which bounds
/// how far any point of B moved in A's frame. Both anchors sat on the same world point, so the
/// recycled change of separation is `n₀ · w`, where `w` (|w| ≤ d) is how far B's anchor moved
/// from A's. The true change is measured along the new normal `n₁`, turned by the reference
/// body's rotation `α`: the difference is `(n₁ − n₀) · w ≤ |α| d`. A point clipped by a side
/// plane of the reference face is, afresh, a different point of B's incident edge, slid along it
/// by at most `d`, where the separation changes at the rate `tan φ` of the edge's tilt to the
/// face: `≤ d tan φ`. A point on a curved surface (radius `r`) is, afresh, the nearest point,
/// which the kept material point misses by a drop of at most `d² / 2r`. Plus the second-order
/// term of the anchors' offset from the surfaces (`|s₀| (Δθ)² / 4`) and f32 round-off:
/// `tol = d (|α| + tan φ) + d² / 2r + |s₀| Δθ² / 4 + 2e-5`, with `α` and `φ` taken as their
/// largest possible values (either body may hold the reference face).
#[test]
fn recycled_separations_match_fresh_ones_within_the_derived_bound() {
    let shapes = shapes();
    let mut rng = SplitMix64::new(0x5ec7c1e);
    let (mut compared, mut recyclable, mut worst) = (0, 0, 0.0f32);
    for _ in 0..cases() {
        let ground = Shape::make_box(Vec2::new(2.0, 0.5)).unwrap();
        let tilt_a = rng.f32(-0.3, 0.3);
        let mut def_a = BodyDef::new(BodyKind::Dynamic, ground, Vec2::ZERO);
        def_a.angle = tilt_a;
        let a = Body::new(&def_a);
        let (shape_b, radius) = shapes[rng.below(shapes.len())];
        let tilt = rng.f32(-0.1, 0.1);
        let up = Vec2::new(-tilt_a.sin(), tilt_a.cos());
        let along = Vec2::new(tilt_a.cos(), tilt_a.sin());
        let mut def_b = BodyDef::new(BodyKind::Dynamic, shape_b, rng.f32(-1.2, 1.2) * along + 1.5 * up);
        def_b.angle = tilt_a + tilt;
        let b = Body::new(&def_b);
        // Bring B down onto A's top face, to a separation in [-1 cm, 1 cm].
        let far = collide(&a.shape, &a.xf, &b.shape, &b.xf, 2.0);
        if far.count == 0 {
            continue;
        }
        let s_min = far.points().iter().map(|p| -p.penetration).fold(f32::INFINITY, f32::min);
        let target = rng.f32(-0.01, 0.01);
        let b = moved(&b, (target - s_min) * far.normal, 0.0);
        let m0 = collide(&a.shape, &a.xf, &b.shape, &b.xf, 0.02);
        if m0.count == 0 {
            continue;
        }
        let origin = ManifoldOrigin::new(0, &a, &b, m0, 0.02);
        // A small motion of both bodies.
        let (ta, tb) = (rng.f32(-0.012, 0.012), rng.f32(-0.012, 0.012));
        let a1 = moved(&a, rng.vec2(-0.02, 0.02), ta);
        let b1 = moved(&b, rng.vec2(-0.02, 0.02), tb);
        if !origin.allows(&a1, &b1, 0.02) {
            continue;
        }
        recyclable += 1;
        // The metric, recomputed here.
        let (now, then) = (a1.xf.inv_mul(&b1.xf), a.xf.inv_mul(&b.xf));
        let dtheta = now.q.inv_mul(then.q).s.abs();
        let d = now.p.distance(then.p) + a.extent.max(b.extent) * dtheta;
        assert!(d < RECYCLE_DISTANCE);
        let (recycled, _) = origin.moved(&a1, &b1);
        assert_eq!((recycled.count, recycled.normal), (m0.count, m0.normal), "count and normal are kept");
        let fresh = collide(&a1.shape, &a1.xf, &b1.shape, &b1.xf, 0.1);
        let alpha = ta.abs().max(tb.abs());
        let phi = (tilt.abs() + (ta - tb).abs()).tan();
        for (k, p) in recycled.points().iter().enumerate() {
            assert_eq!(p.id, m0.points[k].id, "feature ids are kept");
            let Some(f) = fresh.points().iter().find(|f| f.id == p.id) else { continue };
            let s0 = -m0.points[k].penetration;
            let tol = d * (alpha + phi) + d * d / (2.0 * radius) + s0.abs() * dtheta * dtheta / 4.0 + 2e-5;
            let err = (p.penetration - f.penetration).abs();
            assert!(
                err <= tol,
                "separation {} recycled vs {} fresh: {err} > {tol} (d {d}, shape {shape_b:?})",
                -p.penetration,
                -f.penetration
            );
            worst = worst.max(err / tol);
            compared += 1;
        }
    }
    assert!(recyclable > cases() / 3, "most small motions are recyclable ({recyclable})");
    assert!(compared > cases() / 2, "points compared: {compared}");
    eprintln!("{compared} points, largest error {:.2} of its bound", worst);
}

/// A scene without sleep (sleeping pairs are not collided at all), settled.
fn settled(path: &str, steps: usize, recycle: bool) -> World {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    let mut w = scene::load(&path).unwrap().build_world();
    w.params.sleep = false;
    w.params.recycle_contacts = recycle;
    for _ in 0..steps {
        w.step();
    }
    w
}

#[test]
fn a_resting_pyramid_recycles_most_of_its_contacts() {
    let mut w = settled("scenes/pyramid.ron", 180, true);
    let (mut recycled, mut contacts) = (0, 0);
    for _ in 0..30 {
        w.step();
        recycled += w.profile.manifolds_recycled;
        contacts += w.contacts.len();
    }
    assert!(contacts > 30 * 50, "the pyramid has its contacts ({contacts})");
    assert!(recycled * 100 >= contacts * 95, "{recycled} of {contacts} contacts recycled");
    // The recycled manifolds are the ones the world solved with: no point floats off.
    assert!(w.contacts.iter().all(|c| c.recycled > 0 || c.origin.is_some()));
    assert!(w.max_penetration() < 0.02, "depth {}", w.max_penetration());
    // Switched off, every manifold is computed again at once.
    let mut p = w.params.clone();
    p.recycle_contacts = false;
    w.set_params(p);
    w.step();
    assert_eq!(w.profile.manifolds_recycled, 0);
    assert_eq!(w.profile.manifolds_reused, 0, "no recycled manifold is taken for a fresh one");
    assert!(w.contacts.iter().all(|c| c.recycled == 0 && c.points().iter().all(|p| !p.kept_anchors)));
}

/// A box dropped onto the ground bounces: its contact is computed (never recycled) at every
/// step where the pair closes faster than the recycling distance per step, the impact
/// included, and the bounce is the same as with recycling off.
#[test]
fn a_falling_body_is_not_recycled_across_its_impact() {
    let run = |recycle: bool| {
        let params = SolverParams { recycle_contacts: recycle, sleep: false, ..Default::default() };
        let mut w = World::new(params);
        let ground = Shape::make_box(Vec2::new(5.0, 0.5)).unwrap();
        w.create_body(&BodyDef::new(BodyKind::Static, ground, Vec2::new(0.0, -0.5)));
        let mut def = BodyDef::new(BodyKind::Dynamic, Shape::make_box(Vec2::splat(0.25)).unwrap(), Vec2::new(0.0, 2.0));
        def.material.restitution = 0.5;
        w.create_body(&def);
        let mut peak_after = 0.0f32;
        let mut bounced = false;
        for _ in 0..150 {
            let v_before = w.bodies[1].linear_velocity.y;
            w.step();
            if let Some(c) = w.contacts.first() {
                if v_before.abs() * w.dt() > RECYCLE_DISTANCE {
                    assert_eq!(c.recycled, 0, "a contact closing at {v_before} m/s is computed");
                }
            }
            if v_before < -1.0 && w.bodies[1].linear_velocity.y > 1.0 {
                bounced = true;
            }
            if bounced {
                peak_after = peak_after.max(w.bodies[1].center.y);
            }
        }
        assert!(bounced);
        peak_after
    };
    let (on, off) = (run(true), run(false));
    // Dropped 1.75 m, e = 0.5: back to about 0.25 + 1.75 e² = 0.69 m.
    assert!((on - 0.6875).abs() < 0.03, "bounce peak {on}");
    assert!((on - off).abs() < 1e-3, "recycling on {on}, off {off}");
}
