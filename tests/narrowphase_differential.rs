//! Differential test of the narrowphase (`collide::collide`, the world's manifolds) against
//! Box2D v3's manifold functions in the same process and against the exact answer in f64 (the
//! brute-force Minkowski difference of the cores, `support::exact_f64`), over random boxes,
//! convex polygons of 3–8 vertices (thin slivers, large size ratios, deep containment),
//! circles and capsules. For every pair:
//!
//! - **no missed contact**: cores overlapping by more than 1 mm give a penetrating point;
//! - **depth**: the deepest point's separation is the overlap of the two shapes along the
//!   manifold's normal (their projections, in f64) within 0.1 mm, so never shallower than
//!   Box2D's by more than that;
//! - **normal**: that overlap exceeds the minimum translation (the exact depth) by at most
//!   1 mm: bodies are pushed apart along (nearly) the shortest way;
//! - **no false contact**: shapes more than 0.1 m apart give no point.
//!
//! 20,000 pairs here; `NARROWPHASE_DIFF_COUNT=1000000 cargo test --release --test
//! narrowphase_differential -- --nocapture` runs more and prints the error maxima. A failing
//! pair prints itself as a pair file (`Pair(...)`) that the Manifold lab opens.
#![cfg(feature = "peers")] // Box2D through `manifold_lab::peers`

mod support;

use glam::{DVec2, Vec2};
use manifold_lab::engine::collide::{collide, Manifold};
use manifold_lab::engine::math::Transform;
use manifold_lab::engine::rng::SplitMix64;
use manifold_lab::engine::shape::{Polygon, Shape};
use manifold_lab::peers::box2d_manifold as box2d;
use manifold_lab::scene::PresetFile;
use manifold_lab::scene::{PairShape, PairSpec, ShapeSpec};
use support::exact_f64::{exact, Core};

/// The world's speculative margin (and Box2D's speculative distance).
const MARGIN: f32 = 0.02;
/// A contact deeper than this must be reported.
const CLEAR_OVERLAP: f64 = 1e-3;
/// The deepest point's separation equals the overlap along the normal within this.
const DEPTH_TOLERANCE: f64 = 1e-4;
/// The normal's overlap may exceed the minimum translation by this much.
const NORMAL_EXCESS: f64 = 1e-3;
/// Shapes further apart than this must have no point.
const FALSE_GAP: f64 = 0.1;

/// One random shape, placed.
struct Placed {
    shape: Shape,
    angle: f32,
    position: Vec2,
}

impl Placed {
    fn xf(&self) -> Transform {
        Transform::new(self.position, self.angle)
    }

    fn pair_shape(&self) -> PairShape {
        PairShape { shape: ShapeSpec::from_shape(&self.shape), position: self.position, angle: self.angle }
    }
}

/// A log-uniform size in `[lo, hi]`.
fn size(rng: &mut SplitMix64, lo: f32, hi: f32) -> f32 {
    (lo.ln() + (hi.ln() - lo.ln()) * rng.f32(0.0, 1.0)).exp()
}

/// A convex polygon of 3–8 vertices around the origin, `r` across, flattened to a sliver by
/// `squash` (1 = round).
fn polygon(rng: &mut SplitMix64, r: f32, squash: f32) -> Option<Shape> {
    let n = 3 + rng.below(6);
    let phase = rng.f32(0.0, std::f32::consts::TAU);
    let pts: Vec<Vec2> = (0..n)
        .map(|i| {
            let v = Vec2::from_angle(phase + (i as f32 + rng.f32(-0.3, 0.3)) * std::f32::consts::TAU / n as f32);
            v * r * rng.f32(0.5, 1.0) * Vec2::new(1.0, squash)
        })
        .collect();
    Polygon::hull(&pts).ok().map(Shape::Polygon)
}

/// A random shape about `scale` across: box, polygon (often), circle or capsule; a fifth of
/// the boxes and polygons are slivers (2–10 % as thick as long, never under 2 cm). With
/// `rounded`, boxes and polygons get a rounding radius of 1–40 % of `scale`.
fn random_shape(rng: &mut SplitMix64, scale: f32, rounded: bool) -> Shape {
    loop {
        let sliver = rng.below(5) == 0;
        let squash = if sliver { rng.f32(0.02, 0.1).max(0.02 / scale) } else { 1.0 };
        let shape = match rng.below(6) {
            0 => Shape::make_box(scale * Vec2::new(rng.f32(0.2, 1.0), rng.f32(0.2, 1.0) * squash)).ok(),
            1..=3 => polygon(rng, scale, squash),
            4 => Shape::circle(scale * rng.f32(0.1, 1.0)).ok(),
            _ => {
                let (h, r) = (scale * rng.f32(0.1, 1.0), scale * rng.f32(0.05, 0.5));
                Shape::capsule(Vec2::new(-h, 0.0), Vec2::new(h, 0.0), r).ok()
            }
        };
        let shape = match shape {
            Some(Shape::Polygon(p)) if rounded => p.rounded(scale * rng.f32(0.01, 0.4)).ok().map(Shape::Polygon),
            s => s,
        };
        if let Some(s) = shape.filter(box2d::accepts) {
            return s;
        }
    }
}

/// A pair near contact: B's centre at a random direction from A's, at a distance drawn around
/// the touching distance of their bounding circles, or (one in eight) deep inside A.
fn random_pair(rng: &mut SplitMix64, rounded: bool) -> (Placed, Placed) {
    let scale_a = size(rng, 0.05, 2.0);
    let ratio = if rng.below(5) == 0 { size(rng, 0.02, 50.0) } else { size(rng, 0.3, 3.0) };
    let scale_b = (scale_a * ratio).clamp(0.02, 60.0);
    let (sa, sb) = (random_shape(rng, scale_a, rounded), random_shape(rng, scale_b, rounded));
    let reach = |s: &Shape| {
        let bb = s.compute_aabb(&Transform::IDENTITY);
        bb.min.length().max(bb.max.length())
    };
    let (ra, rb) = (reach(&sa), reach(&sb));
    let distance = if rng.below(8) == 0 { rng.f32(0.0, 0.5) * ra } else { rng.f32(0.3, 1.05) * (ra + rb) };
    let angle = |rng: &mut SplitMix64| rng.f32(-std::f32::consts::PI, std::f32::consts::PI);
    let pa = Vec2::new(rng.f32(-3.0, 3.0), rng.f32(-3.0, 3.0));
    let a = Placed { shape: sa, angle: angle(rng), position: pa };
    let dir = Vec2::from_angle(angle(rng));
    let b = Placed { shape: sb, angle: angle(rng), position: pa + distance * dir };
    (a, b)
}

/// How far the cores' projections on `n` (A to B) are apart, less the radii, in f64: the
/// separation along `n` (negative: the overlap).
fn separation_along(a: &Core, b: &Core, n: DVec2) -> f64 {
    let max_a = a.points.iter().map(|p| p.dot(n)).fold(f64::MIN, f64::max);
    let min_b = b.points.iter().map(|p| p.dot(n)).fold(f64::MAX, f64::min);
    min_b - max_a - a.radius - b.radius
}

/// The deepest separation among the manifold's points, `None` without points.
fn deepest(m: &Manifold) -> Option<f64> {
    m.points().iter().map(|p| -p.penetration as f64).reduce(f64::min)
}

/// Largest errors seen, for the printout.
#[derive(Default, Debug)]
struct Stats {
    pairs: usize,
    overlapping: usize,
    depth_error: f64,
    normal_excess: f64,
    shallower_than_box2d: f64,
    box2d_missed: usize,
    box2d_normal_excess: f64,
    box2d_depth_error: f64,
    /// Failures by pair kind and reason.
    failures: std::collections::BTreeMap<String, usize>,
}

fn kind(s: &Shape) -> &'static str {
    match s {
        Shape::Circle(_) => "circle",
        Shape::Capsule(_) => "capsule",
        Shape::Polygon(p) if p.radius > 0.0 && p.box_half_extents.is_some() => "rounded box",
        Shape::Polygon(p) if p.radius > 0.0 => "rounded polygon",
        Shape::Polygon(p) if p.box_half_extents.is_some() => "box",
        Shape::Polygon(_) => "polygon",
    }
}

/// Checks one pair; `Err` says what is wrong.
fn check(a: &Placed, b: &Placed, stats: &mut Stats) -> Result<(), String> {
    let (xa, xb) = (a.xf(), b.xf());
    let m = collide(&a.shape, &xa, &b.shape, &xb, MARGIN);
    let (ca, cb) = (Core::of(&a.shape, &xa), Core::of(&b.shape, &xb));
    let truth = exact(&ca, &cb);
    let b2 = box2d::collide(&a.shape, &xa, &b.shape, &xb);
    stats.pairs += 1;
    if truth.sd > FALSE_GAP && m.count > 0 {
        return Err(format!("false contact: {:.4} m apart, {} points", truth.sd, m.count));
    }
    if truth.sd >= -CLEAR_OVERLAP {
        return Ok(());
    }
    stats.overlapping += 1;
    let ours = deepest(&m).filter(|&s| s < 0.0).ok_or_else(|| {
        format!(
            "missed contact: overlap {:.4} m, manifold {:?}",
            -truth.sd,
            m.points().iter().map(|p| -p.penetration).collect::<Vec<_>>()
        )
    })?;
    let along = separation_along(&ca, &cb, m.normal.as_dvec2());
    let (depth_error, excess) = ((ours - along).abs(), truth.sd - along);
    stats.depth_error = stats.depth_error.max(depth_error);
    stats.normal_excess = stats.normal_excess.max(excess);
    match b2.deepest() {
        Some(s) if (s as f64) < 0.0 => {
            stats.shallower_than_box2d = stats.shallower_than_box2d.max(ours - s as f64);
            let b2_along = separation_along(&ca, &cb, b2.normal.as_dvec2());
            stats.box2d_normal_excess = stats.box2d_normal_excess.max(truth.sd - b2_along);
            stats.box2d_depth_error = stats.box2d_depth_error.max((s as f64 - b2_along).abs());
        }
        _ => stats.box2d_missed += 1,
    }
    if depth_error > DEPTH_TOLERANCE {
        return Err(format!(
            "deepest point {ours:.5} but the overlap along the normal is {along:.5} (exact depth {:.5}; Box2D {:?} along {:.5})",
            -truth.sd,
            b2.deepest(),
            separation_along(&ca, &cb, b2.normal.as_dvec2())
        ));
    }
    if let Some(s) = b2.deepest().filter(|&s| ours > s as f64 + DEPTH_TOLERANCE) {
        return Err(format!("deepest point {ours:.5}, shallower than Box2D's {s:.5}"));
    }
    if excess > NORMAL_EXCESS {
        return Err(format!("the normal's overlap {:.5} exceeds the minimum translation {:.5}", -along, -truth.sd));
    }
    Ok(())
}

/// The pair as a file the Manifold lab opens (with the world's margin).
fn pair_file(a: &Placed, b: &Placed, why: &str) -> String {
    let mut spec = PairSpec::new("narrowphase differential failure", a.pair_shape(), b.pair_shape());
    spec.description = why.to_string();
    spec.margin = MARGIN;
    spec.to_ron_string().unwrap_or_else(|e| format!("(could not write the pair: {e})"))
}

/// How many failing pairs are printed (`NARROWPHASE_DIFF_PRINT`, 3 unless set).
fn printed() -> usize {
    std::env::var("NARROWPHASE_DIFF_PRINT").ok().and_then(|s| s.parse().ok()).unwrap_or(3)
}

fn count() -> usize {
    std::env::var("NARROWPHASE_DIFF_COUNT").ok().and_then(|s| s.parse().ok()).unwrap_or(20_000)
}

#[test]
fn manifolds_agree_with_the_exact_depth_and_box2d() {
    run(SplitMix64(0x0D1F_F3E7), false, count());
}

/// Rounded boxes and polygons (Box2D's `b2Polygon.radius`) against each other, circles and
/// capsules: the same checks, Box2D's `b2CollidePolygons` with radii beside.
#[test]
fn rounded_polygon_manifolds_agree_with_the_exact_depth_and_box2d() {
    run(SplitMix64(0x0520_0D1F), true, count() / 2);
}

fn run(mut rng: SplitMix64, rounded: bool, count: usize) {
    let mut stats = Stats::default();
    let mut failures = Vec::new();
    for case in 0..count {
        let (a, b) = random_pair(&mut rng, rounded);
        if let Err(why) = check(&a, &b, &mut stats) {
            let reason = why.split([':', ' ']).next().unwrap_or("").to_string();
            *stats.failures.entry(format!("{}-{} {reason}", kind(&a.shape), kind(&b.shape))).or_default() += 1;
            if failures.len() < printed() {
                eprintln!("case {case} ({}-{}): {why}\n{}", kind(&a.shape), kind(&b.shape), pair_file(&a, &b, &why));
            }
            failures.push(case);
        }
    }
    eprintln!("{stats:#?}");
    assert!(stats.overlapping > stats.pairs / 5, "too few overlapping pairs to say much: {stats:?}");
    assert!(
        failures.is_empty(),
        "{} of {} pairs failed (first cases {:?})",
        failures.len(),
        stats.pairs,
        &failures[..failures.len().min(10)]
    );
}
