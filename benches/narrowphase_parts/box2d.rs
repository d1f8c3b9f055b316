//! Box2D v3 (its C library through `boxdd-sys`, the raw FFI under the `boxdd` crate) on the
//! same pairs: `b2CollidePolygons` for the box and polygon manifolds and `b2ShapeDistance` for
//! GJK distance. Box2D has no EPA (it resolves overlap with SAT and clipping), so that row has
//! no Box2D figure. Each call takes the relative transform `inv(xfA)·xfB`, computed inside the
//! timed code as for parry.

use super::Pair;
use boxdd_sys::ffi::{
    b2CollidePolygons, b2ComputeHull, b2DistanceInput, b2MakePolygon, b2MakeProxy, b2Polygon, b2Rot, b2ShapeDistance,
    b2ShapeProxy, b2SimplexCache, b2Transform, b2Vec2,
};
use manifold_lab::engine::math::Transform;
use manifold_lab::engine::shape::Shape;
use std::hint::black_box;

/// A pair in Box2D's terms: both polygons and proxies in their own frames.
pub struct B2Pair {
    pa: b2Polygon,
    pb: b2Polygon,
    xa: Transform,
    xb: Transform,
    proxy_a: b2ShapeProxy,
    proxy_b: b2ShapeProxy,
}

fn v(p: glam::Vec2) -> b2Vec2 {
    b2Vec2 { x: p.x, y: p.y }
}

fn polygon(shape: &Shape) -> (b2Polygon, b2ShapeProxy) {
    let Shape::Polygon(p) = shape else { panic!("polygon pairs only") };
    let pts: Vec<b2Vec2> = p.vertices().iter().map(|&q| v(q)).collect();
    // SAFETY: plain C functions on stack data; `pts` holds `count` valid points.
    unsafe {
        let hull = b2ComputeHull(pts.as_ptr(), pts.len() as i32);
        assert!(hull.count as usize == pts.len(), "Box2D accepted the hull");
        (b2MakePolygon(&hull, 0.0), b2MakeProxy(pts.as_ptr(), pts.len() as i32, 0.0))
    }
}

pub fn pairs<P>(pairs: &[Pair<P>]) -> Vec<B2Pair> {
    pairs
        .iter()
        .map(|p| {
            let (pa, proxy_a) = polygon(&p.a);
            let (pb, proxy_b) = polygon(&p.b);
            B2Pair { pa, pb, xa: p.xa, xb: p.xb, proxy_a, proxy_b }
        })
        .collect()
}

/// `inv(xa) · xb` as a Box2D transform.
fn relative(xa: &Transform, xb: &Transform) -> b2Transform {
    let r = xa.inv_mul(xb);
    b2Transform { p: v(r.p), q: b2Rot { c: r.q.c, s: r.q.s } }
}

/// Sum of the deepest penetrations (as the other engines' checksums).
pub fn manifolds(pairs: &[B2Pair]) -> f32 {
    pairs
        .iter()
        .map(|p| {
            // SAFETY: both polygons come from b2MakePolygon.
            let m = unsafe { b2CollidePolygons(black_box(&p.pa), &p.pb, relative(&p.xa, &p.xb)) };
            (0..m.pointCount as usize).map(|i| -m.points[i].separation).fold(0.0, f32::max)
        })
        .sum()
}

/// Sum of the GJK distances.
pub fn distances(pairs: &[B2Pair]) -> f32 {
    pairs
        .iter()
        .map(|p| {
            let input = b2DistanceInput {
                proxyA: p.proxy_a,
                proxyB: p.proxy_b,
                transform: relative(&p.xa, &p.xb),
                useRadii: true,
            };
            let mut cache = b2SimplexCache { count: 0, indexA: [0; 3], indexB: [0; 3] };
            // SAFETY: no simplex buffer is requested (null, capacity 0).
            unsafe { b2ShapeDistance(black_box(&input), &mut cache, std::ptr::null_mut(), 0).distance }
        })
        .sum()
}
