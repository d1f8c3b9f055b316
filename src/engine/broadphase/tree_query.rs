//! Tree queries (003 article, "Dynamic AABB Tree" → "Queries"): "detecting collisions with
//! each node in the tree, starting with the root, traversing to all children until the tree
//! is exhausted. Traversal to a child should be performed if there is a collision with the
//! parent." The box, circle (the article's sphere query, in 2D) and ray queries are the
//! article's iterative form (an explicit stack, no recursion), and the callback may stop them
//! early.

use super::tree::{DynamicTree, NULL_NODE};
use crate::engine::math::Aabb;
use crate::engine::shape::ray::RayCastInput;
use glam::Vec2;
use serde::{Deserialize, Serialize};

/// What one query cost: nodes whose box was tested, and leaves whose box passed (the
/// callback calls). Box2D v3 returns the same pair as `b2TreeStats`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct QueryStats {
    pub nodes_visited: u32,
    pub leaves_hit: u32,
}

impl std::ops::AddAssign for QueryStats {
    fn add_assign(&mut self, o: QueryStats) {
        self.nodes_visited += o.nodes_visited;
        self.leaves_hit += o.leaves_hit;
    }
}

/// A traversal stack that lives on the call stack for trees of ordinary height and spills to
/// the heap for degenerate ones (an unbalanced tree can be as deep as it has leaves).
pub(crate) struct NodeStack {
    inline: [u32; 64],
    len: usize,
    spill: Vec<u32>,
}

impl NodeStack {
    pub(crate) fn new(first: u32) -> NodeStack {
        let mut s = NodeStack { inline: [0; 64], len: 0, spill: Vec::new() };
        if first != NULL_NODE {
            s.push(first);
        }
        s
    }

    #[inline]
    pub(crate) fn push(&mut self, id: u32) {
        if self.len < self.inline.len() {
            self.inline[self.len] = id;
            self.len += 1;
        } else {
            self.spill.push(id);
        }
    }

    #[inline]
    pub(crate) fn pop(&mut self) -> Option<u32> {
        if let Some(id) = self.spill.pop() {
            return Some(id);
        }
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        Some(self.inline[self.len])
    }
}

impl<T: Copy> DynamicTree<T> {
    /// Calls `callback(proxy, user_data)` for every proxy whose fat AABB overlaps `aabb`;
    /// the callback returns `false` to stop ("the callback returns bool, signifying continue
    /// or termination of the query").
    #[inline]
    pub fn query(&self, aabb: &Aabb, callback: impl FnMut(u32, T) -> bool) -> QueryStats {
        self.query_visiting(aabb, |_, _| {}, callback)
    }

    /// `query`, also reporting every node it tests to `visit(node, overlaps)` (for drawing
    /// which nodes a query touched; `query` passes a no-op that compiles away).
    #[inline]
    pub fn query_visiting(
        &self,
        aabb: &Aabb,
        visit: impl FnMut(u32, bool),
        callback: impl FnMut(u32, T) -> bool,
    ) -> QueryStats {
        self.query_where(|b| b.overlaps(aabb), visit, callback)
    }

    /// The article's sphere query in 2D: every proxy whose fat AABB comes within `radius` of
    /// `center` (a node is entered when its box's closest point to the centre is inside the
    /// circle, which culls the corners of the circle's own bounding box), reporting each
    /// tested node to `visit(node, entered)`.
    #[inline]
    pub fn query_circle_visiting(
        &self,
        center: Vec2,
        radius: f32,
        visit: impl FnMut(u32, bool),
        callback: impl FnMut(u32, T) -> bool,
    ) -> QueryStats {
        let r2 = radius * radius;
        self.query_where(|b| (center.clamp(b.min, b.max) - center).length_squared() <= r2, visit, callback)
    }

    /// The traversal the queries share: a node is entered when `enters(its box)`.
    #[inline]
    fn query_where(
        &self,
        enters: impl Fn(&Aabb) -> bool,
        mut visit: impl FnMut(u32, bool),
        mut callback: impl FnMut(u32, T) -> bool,
    ) -> QueryStats {
        let mut stats = QueryStats::default();
        let mut stack = NodeStack::new(self.root);
        while let Some(id) = stack.pop() {
            let node = &self.nodes[id as usize];
            stats.nodes_visited += 1;
            let hit = enters(&node.aabb);
            visit(id, hit);
            if !hit {
                continue;
            }
            if let Some(user) = node.user_data {
                stats.leaves_hit += 1;
                if !callback(id, user) {
                    break;
                }
            } else {
                stack.push(node.child1);
                stack.push(node.child2);
            }
        }
        stats
    }

    /// Casts a ray through the tree (Box2D `RayCast`). Nodes are culled by the ray's bounding
    /// box and by the separating axis perpendicular to the ray (van den Bergen, p. 80:
    /// `|v·(p1 − c)| > |v|·h`); nearer children are visited first.
    ///
    /// For each proxy whose fat AABB the ray may cross, `callback(input, proxy, user_data)`
    /// receives the ray clipped so far and returns:
    /// - `0` to stop the cast;
    /// - a fraction in `(0, input.max_fraction]` to clip the ray there (closest-hit search);
    /// - anything else (e.g. `-1`, or `input.max_fraction` unchanged) to continue as is.
    #[inline]
    pub fn ray_cast(&self, input: &RayCastInput, callback: impl FnMut(&RayCastInput, u32, T) -> f32) -> QueryStats {
        self.ray_cast_visiting(input, |_, _| {}, callback)
    }

    /// `ray_cast`, also reporting every node it tests to `visit(node, may_cross)`.
    #[inline]
    pub fn ray_cast_visiting(
        &self,
        input: &RayCastInput,
        mut visit: impl FnMut(u32, bool),
        mut callback: impl FnMut(&RayCastInput, u32, T) -> f32,
    ) -> QueryStats {
        let mut stats = QueryStats::default();
        let p1 = input.origin;
        let d = input.translation;
        // v is perpendicular to the segment.
        let r = d.normalize_or_zero();
        let v = Vec2::new(-r.y, r.x);
        let abs_v = v.abs();
        let mut sub = *input;
        let mut max_fraction = input.max_fraction;
        let segment_box = |f: f32| {
            let p2 = p1 + f * d;
            Aabb::new(p1.min(p2), p1.max(p2))
        };
        let mut segment = segment_box(max_fraction);
        let mut stack = NodeStack::new(self.root);
        while let Some(id) = stack.pop() {
            let node = &self.nodes[id as usize];
            stats.nodes_visited += 1;
            let hit = node.aabb.overlaps(&segment) && segment_may_cross(&node.aabb, p1, v, abs_v);
            visit(id, hit);
            if !hit {
                continue;
            }
            if let Some(user) = node.user_data {
                stats.leaves_hit += 1;
                sub.max_fraction = max_fraction;
                let value = callback(&sub, id, user);
                if value == 0.0 {
                    break;
                }
                if 0.0 < value && value <= max_fraction {
                    max_fraction = value;
                    segment = segment_box(max_fraction);
                }
            } else {
                let (c1, c2) = (node.child1, node.child2);
                let d1 = self.nodes[c1 as usize].aabb.center().distance_squared(p1);
                let d2 = self.nodes[c2 as usize].aabb.center().distance_squared(p1);
                // Pushed last is popped first.
                if d1 < d2 {
                    stack.push(c2);
                    stack.push(c1);
                } else {
                    stack.push(c1);
                    stack.push(c2);
                }
            }
        }
        stats
    }
}

/// The separating-axis test of a box against the ray's line: false when the box lies wholly
/// on one side of the line through `p1` with unit normal `v`.
#[inline]
pub fn segment_may_cross(aabb: &Aabb, p1: Vec2, v: Vec2, abs_v: Vec2) -> bool {
    let c = aabb.center();
    let h = aabb.extents();
    v.dot(p1 - c).abs() <= abs_v.dot(h)
}

/// Whether the segment `input` (up to its `max_fraction`) may cross `aabb`, by the same two
/// tests the tree uses (box overlap, then the separating axis). Brute-force reference for
/// tests and for worlds that keep no tree.
pub fn ray_may_cross(aabb: &Aabb, input: &RayCastInput) -> bool {
    let p1 = input.origin;
    let p2 = input.point_at(input.max_fraction);
    let r = input.translation.normalize_or_zero();
    let v = Vec2::new(-r.y, r.x);
    aabb.overlaps(&Aabb::new(p1.min(p2), p1.max(p2))) && segment_may_cross(aabb, p1, v, v.abs())
}
