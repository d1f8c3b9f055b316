//! Candidate pairs with bounded work (issue 35). A sort-and-sweep over world bounding boxes
//! finds every overlapping pair, then each body keeps at most [`pairs_per_body`] of its pairs
//! for the narrowphase ([`PAIRS_PER_BODY`], fewer in a world so large that [`MAX_PAIRS_3D`]
//! would be passed, never under [`MIN_PAIRS_PER_BODY`]): a pair is kept if either of its
//! bodies keeps it, so a step runs the hull SAT and the solver on at most
//! `pairs_per_body × bodies` pairs. 1,000 cubes created at one point overlap in 500,500 pairs
//! (7.9 s per step in a release build); kept, about 8,000. A crowded body keeps its pairs with
//! static and kinematic bodies first (what holds it up), then those whose boxes share the
//! largest volume (the deepest overlaps, and the face neighbours of a packed stack before its
//! edge and corner ones), then the lower index. A body with no more candidates than that keeps
//! them all, so ordinary scenes find exactly the pairs they found before; the dropped pairs of
//! a pile come back as it spreads. The same idea as 2D's pair limit (`broadphase::MAX_PAIRS`,
//! deferred queries), bounded per body so that no body loses the contacts that hold it up.
//!
//! **Hull size.** A pair of larger hulls costs more: the SAT's edge pairs grow with the product
//! of the two hulls' edges. A body's [`weight`] counts its largest hull's vertices in units of
//! [`LIGHT_VERTICES`] (a hull of 128 vertices weighs 4, a pair of two such 16 cube pairs), and
//! when the pairs of heavy bodies would cost more than [`MAX_PAIRS_3D`] cube pairs, a heavy
//! body keeps `pairs_per_body / weight²` of them (at least two, its ground first). 300
//! coincident 128-vertex hulls took 440–470 ms a step keeping 27 pairs each, now 20–31 ms, and
//! 1,000 of them at most 117 ms (release build, 2 cores); scenes whose heavy pairs stay under
//! the bound keep every pair as before.

use super::body::Body3;
use super::joint::Joint3;
use crate::engine::BodyKind;
use glam::Vec3;
use serde::{Deserialize, Serialize};

/// Pairs each body keeps per step. A cube packed among others has 26 box neighbours.
pub const PAIRS_PER_BODY: usize = 32;
/// Pairs kept in all, about: the per-body count shrinks when bodies × 32 would pass this
/// (the narrowphase and the solver cost about 3 µs per overlapping cube pair).
pub const MAX_PAIRS_3D: usize = 8_192;
/// The fewest pairs a body keeps: its 6 face neighbours in a packed stack, and 2 more.
pub const MIN_PAIRS_PER_BODY: usize = 8;

/// What pair finding did this step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PairStats {
    /// Overlapping boxes that may collide.
    pub candidates: usize,
    /// Candidates left out this step by [`PAIRS_PER_BODY`].
    pub dropped: usize,
}

/// Candidate pairs `(a, b)`, `a < b`, sorted: bounding boxes (grown by `margin`) overlap, at
/// least one body is dynamic, no joint between them turns collision off, and at least one of
/// the two keeps the pair (module docs).
pub fn find_pairs(bodies: &[Body3], joints: &[Joint3], margin: f32) -> (Vec<(usize, usize)>, PairStats) {
    let per_body = pairs_per_body(bodies.len());
    let (mut pairs, lists) = overlapping(bodies, joints, margin);
    let candidates = pairs.len();
    let weights: Vec<usize> = bodies.iter().map(weight).collect();
    // What the pairs of heavy bodies cost, in cube pairs (light pairs are bounded per body).
    let heavy: usize = pairs.iter().map(|&(i, j)| weights[i] * weights[j]).filter(|&w| w > 1).sum();
    let keeps = |i: usize| match weights[i] {
        w if w > 1 && heavy > MAX_PAIRS_3D => (per_body / (w * w)).max(2),
        _ => per_body,
    };
    if lists.iter().enumerate().all(|(i, l)| l.len() <= keeps(i)) {
        pairs.sort_unstable();
        return (pairs, PairStats { candidates, dropped: 0 });
    }
    pairs.clear();
    for (i, mut list) in lists.into_iter().enumerate() {
        let keep = keeps(i);
        if list.len() > keep {
            list.select_nth_unstable_by(keep - 1, |x, y| y.cmp(x));
        }
        for key in &list[..list.len().min(keep)] {
            let other = (INDEX - (key & INDEX)) as usize;
            pairs.push((i.min(other), i.max(other)));
        }
    }
    pairs.sort_unstable();
    pairs.dedup();
    let dropped = candidates - pairs.len();
    (pairs, PairStats { candidates, dropped })
}

/// How many pairs each body keeps in a world of `bodies`: [`PAIRS_PER_BODY`], fewer when the
/// bodies are so many that [`MAX_PAIRS_3D`] would be passed, never under [`MIN_PAIRS_PER_BODY`].
pub fn pairs_per_body(bodies: usize) -> usize {
    (MAX_PAIRS_3D / bodies.max(1)).clamp(MIN_PAIRS_PER_BODY, PAIRS_PER_BODY)
}

/// Hull vertices a pair's cost is counted in: a body's hulls of up to this many weigh 1 each.
pub const LIGHT_VERTICES: usize = 32;

/// A body's weight: its largest hull's vertices in units of [`LIGHT_VERTICES`] (at least 1). A
/// pair of single-hull bodies costs about the product of their weights in cube pairs (measured
/// with coincident hulls of 8 to 128 vertices: 3, 3–5, 20 and 60 µs a pair). A body of several
/// hulls weighs as its largest: its hull pairs are first sorted out by their boxes, and its
/// pairs were bounded per body before weights.
pub fn weight(body: &Body3) -> usize {
    let hulls = (0..body.hull_count()).map(|k| body.hull_at(k).positions().len());
    hulls.map(|v| v.div_ceil(LIGHT_VERTICES)).max().unwrap_or(1)
}

/// The low bits of a ranking key: `INDEX − partner`, so the lower index ranks higher.
const INDEX: u64 = (1 << 31) - 1;

/// A partner's rank in a body's list, larger first: static or kinematic, then the shared box
/// volume (a non-negative f32's bits order as the number), then the lower index.
fn rank(fixed: bool, volume: f32, other: usize) -> u64 {
    ((fixed as u64) << 63) | ((volume.max(0.0).to_bits() as u64) << 31) | (INDEX - other as u64)
}

/// Every candidate pair, and each body's partners ranked ([`rank`]).
fn overlapping(bodies: &[Body3], joints: &[Joint3], margin: f32) -> (Vec<(usize, usize)>, Vec<Vec<u64>>) {
    let boxes: Vec<_> = bodies.iter().map(|b| b.world_bounds(0.5 * margin)).collect();
    let mut order: Vec<usize> = (0..bodies.len()).collect();
    order.sort_by(|&i, &j| boxes[i][0].x.total_cmp(&boxes[j][0].x).then(i.cmp(&j)));
    let mut unjointed: Vec<(usize, usize)> =
        joints.iter().filter(|j| !j.collide_connected).map(|j| (j.a.min(j.b), j.a.max(j.b))).collect();
    unjointed.sort_unstable();
    let (mut pairs, mut lists) = (Vec::new(), vec![Vec::new(); bodies.len()]);
    let fixed = |i: usize| bodies[i].kind != BodyKind::Dynamic;
    for (k, &i) in order.iter().enumerate() {
        for &j in &order[k + 1..] {
            if boxes[j][0].x > boxes[i][1].x {
                break;
            }
            let ([lo_i, hi_i], [lo_j, hi_j]) = (boxes[i], boxes[j]);
            if !(lo_i.cmple(hi_j).all() && lo_j.cmple(hi_i).all()) || (fixed(i) && fixed(j)) {
                continue;
            }
            let pair = (i.min(j), i.max(j));
            if unjointed.is_empty() || unjointed.binary_search(&pair).is_err() {
                let shared: Vec3 = hi_i.min(hi_j) - lo_i.max(lo_j);
                let volume = shared.x * shared.y * shared.z;
                pairs.push(pair);
                lists[i].push(rank(fixed(j), volume, j));
                lists[j].push(rank(fixed(i), volume, i));
            }
        }
    }
    (pairs, lists)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::hull3d::shapes;
    use crate::engine::world3d::{BodyDef3, World3, World3Params};

    fn world(n: usize) -> World3 {
        let mut w = World3::new(World3Params::default());
        let ground = shapes::cuboid(Vec3::new(50.0, 0.5, 50.0));
        w.create_body(&BodyDef3::new(BodyKind::Static, ground, Vec3::new(0.0, -0.5, 0.0))).unwrap();
        for _ in 0..n {
            w.create_body(&BodyDef3::new(BodyKind::Dynamic, shapes::cube(0.5), Vec3::new(0.0, 0.5, 0.0))).unwrap();
        }
        w
    }

    #[test]
    fn a_coincident_pile_keeps_its_ground_and_a_bounded_number_of_pairs() {
        let w = world(200);
        let (pairs, stats) = find_pairs(&w.bodies, &w.joints, 0.02);
        assert_eq!(stats.candidates, 200 + 200 * 199 / 2);
        let k = pairs_per_body(201);
        assert!(pairs.len() <= k * 201, "{}", pairs.len());
        assert_eq!(stats.dropped, stats.candidates - pairs.len());
        // Every cube keeps its pair with the ground and at least PAIRS_PER_BODY pairs.
        for i in 1..=200 {
            assert!(pairs.contains(&(0, i)), "cube {i} lost the ground");
            assert!(pairs.iter().filter(|p| p.0 == i || p.1 == i).count() >= k);
        }
        assert!(pairs.windows(2).all(|p| p[0] < p[1]));
    }

    fn sphere_hull(points: usize) -> crate::engine::hull3d::Hull {
        crate::engine::hull3d::Hull::from_points(&shapes::random_sphere_points(7, points, 0.5)).unwrap()
    }

    #[test]
    fn heavy_hulls_weigh_by_their_vertices() {
        let body = |points| {
            let def = BodyDef3::new(BodyKind::Dynamic, sphere_hull(points), Vec3::ZERO);
            crate::engine::world3d::Body3::new(&def).unwrap()
        };
        assert_eq!(weight(&body(8)), 1);
        assert_eq!(weight(&body(32)), 1);
        assert_eq!(weight(&body(64)), 2);
        assert_eq!(weight(&body(128)), 4);
        // A body of several hulls weighs as its largest.
        let compound = |big: bool| {
            let part = |k: usize| {
                let hull = if big && k == 3 { sphere_hull(128) } else { shapes::cube(0.5) };
                crate::engine::world3d::Part3::new(hull, Vec3::X * k as f32, glam::Quat::IDENTITY)
            };
            let mut def = BodyDef3::new(BodyKind::Dynamic, shapes::cube(0.5), Vec3::ZERO);
            def.parts = (0..4).map(part).collect();
            crate::engine::world3d::Body3::new(&def).unwrap()
        };
        assert_eq!((weight(&compound(false)), weight(&compound(true))), (1, 4));
    }

    #[test]
    fn a_pile_of_heavy_hulls_keeps_few_pairs_and_a_few_keep_all() {
        let heavy = std::sync::Arc::new(sphere_hull(128));
        let pile = |n: usize| {
            let mut w = world(0);
            for _ in 0..n {
                w.create_body(&BodyDef3::new(BodyKind::Dynamic, heavy.clone(), Vec3::new(0.0, 0.5, 0.0))).unwrap();
            }
            w
        };
        // 300 coincident: their pairs would cost 44,850 × 16 cube pairs; each keeps two (the
        // ground and one other), so at most 600 pairs in all.
        let w = pile(300);
        let (pairs, stats) = find_pairs(&w.bodies, &w.joints, 0.02);
        assert_eq!(stats.candidates, 300 + 300 * 299 / 2);
        assert!(pairs.len() <= 600, "{}", pairs.len());
        assert!((1..=300).all(|i| pairs.contains(&(0, i))), "a hull lost the ground");
        // Six heavy hulls cost 15 × 16 + 6 × 4 cube pairs, under the bound: every pair kept.
        let w = pile(6);
        let (pairs, stats) = find_pairs(&w.bodies, &w.joints, 0.02);
        assert_eq!((pairs.len(), stats.dropped), (stats.candidates, 0));
    }

    #[test]
    fn a_few_bodies_keep_every_pair() {
        let w = world(PAIRS_PER_BODY - 1);
        let (pairs, stats) = find_pairs(&w.bodies, &w.joints, 0.02);
        assert_eq!((pairs.len(), stats.dropped), (stats.candidates, 0));
    }
}
