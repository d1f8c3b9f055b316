//! The trees under test behind one interface: ours, parry2d's `Bvh` (rapier's broadphase)
//! and Box2D v3's C `b2DynamicTree` (through `boxdd-sys`, the FFI crate of `boxdd` 0.6; the
//! raw calls measure Box2D's tree itself, not the safe wrapper's id bookkeeping).
//!
//! All use the same fat-AABB rule (tight AABB + `MARGIN`, refreshed when the tight box
//! leaves it), so they see the same fat boxes and must report the same pairs.

use glam::Vec2;
use manifold_lab::engine::broadphase::{DynamicTree, TreeSettings};
use manifold_lab::engine::math::Aabb;

pub const MARGIN: f32 = 0.1;

pub fn contains(outer: &Aabb, inner: &Aabb) -> bool {
    outer.min.cmple(inner.min).all() && inner.max.cmple(outer.max).all()
}

fn perimeter(min: Vec2, max: Vec2) -> f32 {
    2.0 * ((max.x - min.x) + (max.y - min.y))
}

/// A broadphase tree as the benchmark drives it.
pub trait TreeUnderTest {
    fn build(boxes: &[Aabb]) -> Self;
    /// Takes the new tight boxes of `moved` proxies; pushes the ones whose fat AABB changed.
    fn update(&mut self, moved: &[u32], boxes: &[Aabb], reinserted: &mut Vec<u32>);
    /// Pairs found by querying with the fat AABB of each proxy in `buffer`; a pair of two
    /// buffered proxies is counted once (by the larger index).
    fn pairs(&self, buffer: &[u32], in_buffer: &[bool]) -> usize;
    /// Proxies whose fat AABB overlaps `aabb`.
    fn query(&self, aabb: &Aabb) -> usize;
    /// Root height, leaves at 0.
    fn height(&self) -> i32;
    /// Sum of the internal nodes' perimeters (root included) over the root's.
    fn area_ratio(&self) -> f32;
}

/// Our tree with the given settings (no displacement prediction, to share the fat rule).
pub struct Ours {
    pub tree: DynamicTree<u32>,
    ids: Vec<u32>,
}

impl Ours {
    pub fn with(settings: TreeSettings, boxes: &[Aabb]) -> Ours {
        let mut tree = DynamicTree::new(TreeSettings { margin: MARGIN, displacement_multiplier: 0.0, ..settings });
        let ids = boxes.iter().enumerate().map(|(i, b)| tree.create_proxy(*b, i as u32)).collect();
        Ours { tree, ids }
    }
}

impl TreeUnderTest for Ours {
    fn build(boxes: &[Aabb]) -> Self {
        Ours::with(TreeSettings::default(), boxes)
    }
    fn update(&mut self, moved: &[u32], boxes: &[Aabb], reinserted: &mut Vec<u32>) {
        for &i in moved {
            if self.tree.move_proxy(self.ids[i as usize], boxes[i as usize], Vec2::ZERO) {
                reinserted.push(i);
            }
        }
    }
    fn pairs(&self, buffer: &[u32], in_buffer: &[bool]) -> usize {
        let mut count = 0;
        for &q in buffer {
            self.tree.query(&self.tree.fat_aabb(self.ids[q as usize]), |_, p| {
                count += (p != q && !(in_buffer[p as usize] && p > q)) as usize;
                true
            });
        }
        count
    }
    fn query(&self, aabb: &Aabb) -> usize {
        let mut count = 0;
        self.tree.query(aabb, |_, _| {
            count += 1;
            true
        });
        count
    }
    fn height(&self) -> i32 {
        self.tree.height()
    }
    fn area_ratio(&self) -> f32 {
        self.tree.area_ratio()
    }
}

// ---- parry2d ----

use parry2d::bounding_volume::Aabb as PAabb;
use parry2d::math::Vector as PVec;
use parry2d::partitioning::{Bvh, TraversalAction};

fn to_parry(a: &Aabb) -> PAabb {
    PAabb::new(PVec::new(a.min.x, a.min.y), PVec::new(a.max.x, a.max.y))
}

/// parry2d 0.31's BVH, updated as rapier 0.36 does with few movers: SAH re-insertion of the
/// leaves that left their fat box (`reinsert_or_update_with_change_detection`).
pub struct Parry {
    pub bvh: Bvh,
}

impl TreeUnderTest for Parry {
    fn build(boxes: &[Aabb]) -> Self {
        let mut bvh = Bvh::new();
        for (i, b) in boxes.iter().enumerate() {
            bvh.insert(to_parry(&b.expanded(MARGIN)), i as u32);
        }
        Parry { bvh }
    }
    fn update(&mut self, moved: &[u32], boxes: &[Aabb], reinserted: &mut Vec<u32>) {
        use parry2d::partitioning::BvhLeafUpdateStatus as S;
        for &i in moved {
            let status = self.bvh.reinsert_or_update_with_change_detection(to_parry(&boxes[i as usize]), i, MARGIN);
            if status != S::Unchanged {
                reinserted.push(i);
            }
        }
    }
    fn pairs(&self, buffer: &[u32], in_buffer: &[bool]) -> usize {
        let mut count = 0;
        for &q in buffer {
            let fat = self.bvh.leaf_node(q).expect("leaf").aabb();
            for p in self.bvh.intersect_aabb(&fat) {
                count += (p != q && !(in_buffer[p as usize] && p > q)) as usize;
            }
        }
        count
    }
    fn query(&self, aabb: &Aabb) -> usize {
        self.bvh.intersect_aabb(&to_parry(aabb)).count()
    }
    fn height(&self) -> i32 {
        // parry counts levels (a lone leaf is 1); ours counts edges.
        self.bvh.subtree_depth(0) as i32 - 1
    }
    fn area_ratio(&self) -> f32 {
        let root = self.bvh.root_aabb();
        let root_area = perimeter(Vec2::new(root.mins.x, root.mins.y), Vec2::new(root.maxs.x, root.maxs.y));
        let mut total = root_area;
        self.bvh.traverse(|n| {
            if !n.is_leaf() {
                let a = n.aabb();
                total += perimeter(Vec2::new(a.mins.x, a.mins.y), Vec2::new(a.maxs.x, a.maxs.y));
            }
            TraversalAction::Continue
        });
        total / root_area
    }
}

// ---- Box2D v3 ----

use boxdd_sys::ffi;

fn to_b2(a: &Aabb) -> ffi::b2AABB {
    ffi::b2AABB {
        lowerBound: ffi::b2Vec2 { x: a.min.x, y: a.min.y },
        upperBound: ffi::b2Vec2 { x: a.max.x, y: a.max.y },
    }
}

/// Box2D v3's tree. `REBUILD = false`: `b2DynamicTree_MoveProxy` (remove + insert) per
/// escaped proxy. `REBUILD = true`: what Box2D v3's world does for moving bodies,
/// `b2DynamicTree_EnlargeProxy` per escaped proxy, then one partial `b2DynamicTree_Rebuild`.
pub struct Box2d<const REBUILD: bool> {
    tree: ffi::b2DynamicTree,
    ids: Vec<i32>,
    fat: Vec<Aabb>,
}

unsafe extern "C" fn count_hit(proxy: i32, user: u64, ctx: *mut std::ffi::c_void) -> bool {
    let (count, q, in_buffer) = &mut *(ctx as *mut (usize, u64, *const bool));
    let p = user;
    let buffered = !in_buffer.is_null() && *in_buffer.add(p as usize);
    *count += (proxy >= 0 && p != *q && !(buffered && p > *q)) as usize;
    true
}

impl<const REBUILD: bool> TreeUnderTest for Box2d<REBUILD> {
    fn build(boxes: &[Aabb]) -> Self {
        let mut tree = unsafe { ffi::b2DynamicTree_Create(16) };
        let fat: Vec<Aabb> = boxes.iter().map(|b| b.expanded(MARGIN)).collect();
        let ids = fat
            .iter()
            .enumerate()
            .map(|(i, f)| unsafe { ffi::b2DynamicTree_CreateProxy(&mut tree, to_b2(f), u64::MAX, i as u64) })
            .collect();
        Box2d { tree, ids, fat }
    }
    fn update(&mut self, moved: &[u32], boxes: &[Aabb], reinserted: &mut Vec<u32>) {
        for &i in moved {
            let (i, tight) = (i as usize, boxes[i as usize]);
            if contains(&self.fat[i], &tight) {
                continue;
            }
            self.fat[i] = tight.expanded(MARGIN);
            let b = to_b2(&self.fat[i]);
            unsafe {
                if REBUILD {
                    ffi::b2DynamicTree_EnlargeProxy(&mut self.tree, self.ids[i], b);
                } else {
                    ffi::b2DynamicTree_MoveProxy(&mut self.tree, self.ids[i], b);
                }
            }
            reinserted.push(i as u32);
        }
        if REBUILD {
            unsafe { ffi::b2DynamicTree_Rebuild(&mut self.tree, false) };
        }
    }
    fn pairs(&self, buffer: &[u32], in_buffer: &[bool]) -> usize {
        let mut total = 0;
        for &q in buffer {
            let mut ctx = (0usize, q as u64, in_buffer.as_ptr());
            let fat = to_b2(&self.fat[q as usize]);
            unsafe {
                ffi::b2DynamicTree_Query(&self.tree, fat, u64::MAX, Some(count_hit), &mut ctx as *mut _ as *mut _)
            };
            total += ctx.0;
        }
        total
    }
    fn query(&self, aabb: &Aabb) -> usize {
        let mut ctx = (0usize, u64::MAX, std::ptr::null::<bool>());
        unsafe {
            ffi::b2DynamicTree_Query(&self.tree, to_b2(aabb), u64::MAX, Some(count_hit), &mut ctx as *mut _ as *mut _)
        };
        ctx.0
    }
    fn height(&self) -> i32 {
        unsafe { ffi::b2DynamicTree_GetHeight(&self.tree) }
    }
    fn area_ratio(&self) -> f32 {
        // Box2D's ratio leaves the root out of the sum.
        1.0 + unsafe { ffi::b2DynamicTree_GetAreaRatio(&self.tree) }
    }
}

impl<const REBUILD: bool> Drop for Box2d<REBUILD> {
    fn drop(&mut self) {
        unsafe { ffi::b2DynamicTree_Destroy(&mut self.tree) };
    }
}
