//! The dynamic AABB tree (003 article, "Dynamic AABB Tree"): a binary bounding-volume
//! hierarchy kept in *one array of nodes addressed by index* ("much more optimal in terms of
//! cache performance than many loose heap-allocated nodes"), with an index-linked free list.
//!
//! Invariants (article: "a short description of invariants"):
//! - every branch has two valid children;
//! - only leaves hold user data; a leaf stores a *fat* AABB that encloses its tight AABB;
//! - a branch's box is the union of its children's, its height is one more than theirs.
//!
//! This file holds the node pool and the proxy operations (create / destroy / move). The
//! tree algorithms live beside it: `tree_insert.rs` (insert, remove, sibling choice),
//! `tree_rotate.rs` (AVL and SAH rotations), `tree_query.rs` (AABB and ray queries),
//! `tree_rebuild.rs` (top-down rebuilds), `tree_validate.rs` (invariants and metrics) and
//! `tree_draw.rs` (debug drawing).

use crate::engine::math::Aabb;
use glam::Vec2;
use serde::{Deserialize, Serialize};

/// The null index: no parent, no child, end of the free list.
pub const NULL_NODE: u32 = u32::MAX;

/// How `insert_leaf` chooses the sibling of a new leaf. Each minimises the *surface area
/// heuristic* (in 2D the perimeter): the cost of a tree is the sum of its internal nodes'
/// perimeters, since a query's chance to enter a node is proportional to it (article,
/// "Insert": "The best seems to be a cost involving the surface area of involved nodes").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum InsertionStrategy {
    /// Box2D v2.4 `InsertLeaf`: descend from the root into the child whose enlargement plus
    /// the inherited enlargement is cheaper, and stop where pairing with the node itself is
    /// cheaper than descending. With SAH rotations, the cheapest good tree measured
    /// (`benches/tree.rs`), hence the default.
    #[default]
    Descent,
    /// Box2D v3 `b2FindBestSibling`: one greedy path, but every node on it (and each leaf
    /// child) is a candidate, and the descent stops when a lower bound shows no descendant
    /// can beat the best candidate.
    BoundedDescent,
    /// Exact branch and bound (Bittner et al. 2012, Catto GDC 2019): explores candidates
    /// best-first from a priority queue, pruning subtrees whose lower bound
    /// `perimeter(leaf) + inherited cost` is not below the best cost found.
    BranchAndBound,
}

impl InsertionStrategy {
    pub const ALL: [InsertionStrategy; 3] =
        [InsertionStrategy::Descent, InsertionStrategy::BoundedDescent, InsertionStrategy::BranchAndBound];

    pub fn label(self) -> &'static str {
        match self {
            InsertionStrategy::Descent => "Descent (Box2D v2)",
            InsertionStrategy::BoundedDescent => "Bounded descent (Box2D v3)",
            InsertionStrategy::BranchAndBound => "Branch and bound",
        }
    }
}

/// How the refit walk after each insertion and removal restructures the tree.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Balancing {
    /// Refit boxes and heights only.
    None,
    /// AVL rotations on height (article, "Balancing the Tree"; Box2D v2 `Balance`): a node
    /// whose children's heights differ by two or more promotes the higher child. Keeps the
    /// height minimal but, measured, lets the area ratio double under motion.
    Avl,
    /// Surface-area rotations (Box2D v3 `b2RotateNodes`): swap a child with a grandchild when
    /// that lowers the sum of the perimeters below the node ("balanced in terms of surface
    /// area and not tree height", as the article's rumour has it). The default: measured, a
    /// third of AVL's area ratio and query cost.
    #[default]
    SahRotation,
}

impl Balancing {
    pub const ALL: [Balancing; 3] = [Balancing::None, Balancing::Avl, Balancing::SahRotation];

    pub fn label(self) -> &'static str {
        match self {
            Balancing::None => "None",
            Balancing::Avl => "AVL on height",
            Balancing::SahRotation => "SAH rotations",
        }
    }
}

/// Tunable parameters of a tree.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct TreeSettings {
    /// How far a fat AABB extends beyond the tight one on every side, metres (Box2D's
    /// `aabbExtension`; the article suggests about 5% of the objects' size).
    pub margin: f32,
    /// The fat AABB is also stretched by this multiple of the proxy's last displacement, in
    /// the direction of motion (Box2D v2's `aabbMultiplier`).
    pub displacement_multiplier: f32,
    pub insertion: InsertionStrategy,
    pub balancing: Balancing,
}

impl Default for TreeSettings {
    fn default() -> Self {
        TreeSettings {
            margin: 0.1,
            displacement_multiplier: 4.0,
            insertion: InsertionStrategy::default(),
            balancing: Balancing::default(),
        }
    }
}

/// One node: a branch (two children, no user data) or a leaf (a proxy: user data and a fat
/// AABB). A free node has `height == -1` and links the free list through `parent`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TreeNode<T> {
    /// Enclosing box: the fat AABB of a leaf, the union of the children of a branch.
    pub aabb: Aabb,
    /// Parent index (`NULL_NODE` at the root); on a free node, the next free node.
    pub parent: u32,
    pub child1: u32,
    pub child2: u32,
    /// 0 for a leaf, 1 + the higher child's for a branch, −1 when free.
    pub height: i32,
    /// Only leaves hold user data.
    pub user_data: Option<T>,
    /// Set by [`DynamicTree::enlarge_proxy`] on the leaf and its ancestors; the branches
    /// marked so are rebuilt by [`DynamicTree::rebuild_enlarged`] (Box2D v3's
    /// `b2_enlargedNode`). A hint for the rebuild only: queries never read it.
    pub enlarged: bool,
}

impl<T> TreeNode<T> {
    fn free(next: u32) -> TreeNode<T> {
        TreeNode {
            aabb: Aabb::new(Vec2::ZERO, Vec2::ZERO),
            parent: next,
            child1: NULL_NODE,
            child2: NULL_NODE,
            height: -1,
            user_data: None,
            enlarged: false,
        }
    }

    pub fn is_leaf(&self) -> bool {
        self.height == 0
    }

    pub fn is_free(&self) -> bool {
        self.height < 0
    }
}

/// A dynamic AABB tree of proxies carrying user data `T`. Proxy ids are node indices of
/// leaves and stay valid until the proxy is destroyed.
#[derive(Clone, Debug)]
pub struct DynamicTree<T> {
    pub(crate) nodes: Vec<TreeNode<T>>,
    /// Tight AABB of each leaf, beside the nodes so traversals don't load it.
    pub(crate) tight: Vec<Aabb>,
    pub(crate) root: u32,
    pub(crate) free_list: u32,
    pub(crate) node_count: usize,
    pub(crate) proxy_count: usize,
    pub settings: TreeSettings,
    /// Rotations performed since creation (AVL or SAH), for display.
    pub rotations: u64,
    pub(crate) heap: std::collections::BinaryHeap<super::tree_insert::Candidate>,
    /// Scratch of the rebuilds, kept to avoid allocating each step.
    pub(crate) rebuild_items: Vec<super::tree_rebuild::BuildLeaf>,
}

impl<T: Copy> Default for DynamicTree<T> {
    fn default() -> Self {
        DynamicTree::new(TreeSettings::default())
    }
}

impl<T: Copy> DynamicTree<T> {
    pub fn new(settings: TreeSettings) -> DynamicTree<T> {
        DynamicTree::with_capacity(settings, 16)
    }

    pub fn with_capacity(settings: TreeSettings, capacity: usize) -> DynamicTree<T> {
        let mut tree = DynamicTree {
            nodes: Vec::new(),
            tight: Vec::new(),
            root: NULL_NODE,
            free_list: NULL_NODE,
            node_count: 0,
            proxy_count: 0,
            settings,
            rotations: 0,
            heap: Default::default(),
            rebuild_items: Vec::new(),
        };
        tree.grow(capacity.max(1));
        tree
    }

    /// Grows the pool to `capacity` nodes and threads the new ones onto the free list, each
    /// linked to the next by index (article, "Free List": "linking each node to the next with
    /// indices").
    fn grow(&mut self, capacity: usize) {
        let start = self.nodes.len();
        assert!(capacity < NULL_NODE as usize, "dynamic tree capacity overflow");
        for i in start..capacity {
            let next = if i + 1 < capacity { (i + 1) as u32 } else { self.free_list };
            self.nodes.push(TreeNode::free(next));
            self.tight.push(Aabb::new(Vec2::ZERO, Vec2::ZERO));
        }
        if capacity > start {
            self.free_list = start as u32;
        }
    }

    /// Takes a node from the free list, doubling the pool when it is empty.
    pub(crate) fn allocate_node(&mut self) -> u32 {
        if self.free_list == NULL_NODE {
            self.grow(self.nodes.len() * 2);
        }
        let id = self.free_list;
        let node = &mut self.nodes[id as usize];
        self.free_list = node.parent;
        *node = TreeNode { parent: NULL_NODE, height: 0, ..TreeNode::free(NULL_NODE) };
        self.node_count += 1;
        id
    }

    /// Returns a node to the head of the free list.
    pub(crate) fn free_node(&mut self, id: u32) {
        debug_assert!(!self.nodes[id as usize].is_free(), "double free of node {id}");
        self.nodes[id as usize] = TreeNode::free(self.free_list);
        self.free_list = id;
        self.node_count -= 1;
    }

    /// The fat AABB of a tight one with no motion prediction.
    pub fn fatten(&self, tight: Aabb) -> Aabb {
        tight.expanded(self.settings.margin)
    }

    /// The fat AABB of `tight` for a proxy that moved by `displacement` last step: the
    /// margin on every side, then stretched along the motion (Box2D v2 `MoveProxy`).
    pub fn predicted_fat_aabb(&self, tight: Aabb, displacement: Vec2) -> Aabb {
        let mut fat = self.fatten(tight);
        let d = self.settings.displacement_multiplier * displacement;
        if d.is_finite() {
            fat.min += d.min(Vec2::ZERO);
            fat.max += d.max(Vec2::ZERO);
        }
        fat
    }

    /// Creates a proxy for `tight` holding `user_data`: a leaf with a fat AABB, inserted by
    /// the chosen strategy (article, "Insert"). Returns the proxy id.
    pub fn create_proxy(&mut self, tight: Aabb, user_data: T) -> u32 {
        let id = self.allocate_node();
        let fat = self.fatten(tight);
        let node = &mut self.nodes[id as usize];
        node.aabb = fat;
        node.height = 0;
        node.user_data = Some(user_data);
        self.tight[id as usize] = tight;
        self.insert_leaf(id);
        self.proxy_count += 1;
        debug_assert!(self.validate_path(id), "tree invariant broken after create_proxy");
        id
    }

    /// Removes a proxy (article, "Remove": only leaves are ever deleted).
    pub fn destroy_proxy(&mut self, proxy: u32) {
        assert!(self.is_proxy(proxy), "destroy_proxy: {proxy} is not a proxy");
        let parent = self.nodes[proxy as usize].parent;
        let sibling = match self.nodes.get(parent as usize) {
            Some(p) if p.child1 == proxy => p.child2,
            Some(p) => p.child1,
            None => NULL_NODE,
        };
        self.remove_leaf(proxy);
        self.free_node(proxy);
        self.proxy_count -= 1;
        debug_assert!(self.validate_path(sibling), "tree invariant broken after destroy_proxy");
    }

    /// Updates a proxy whose tight AABB is now `tight` after moving by `displacement`
    /// (article, "Update"): while the fat AABB still contains the tight one nothing happens;
    /// otherwise the leaf is removed and reinserted with a new fat AABB. A fat AABB that has
    /// grown far larger than needed (a fast body that stopped) is also shrunk by a
    /// reinsertion. Returns whether the proxy was reinserted.
    pub fn move_proxy(&mut self, proxy: u32, tight: Aabb, displacement: Vec2) -> bool {
        let Some(fat) = self.new_fat_aabb(proxy, tight, displacement) else { return false };
        self.remove_leaf(proxy);
        self.nodes[proxy as usize].aabb = fat;
        self.insert_leaf(proxy);
        debug_assert!(self.validate_path(proxy), "tree invariant broken after move_proxy");
        true
    }

    /// [`DynamicTree::move_proxy`] without the reinsertion (Box2D v3's
    /// `b2DynamicTree_EnlargeProxy`): the leaf takes its new fat AABB in place, and each
    /// ancestor grows to enclose it and is marked for [`DynamicTree::rebuild_enlarged`], which
    /// restores the tree's quality in one pass however many proxies moved. Queries stay exact
    /// meanwhile (every branch still encloses its children). Returns whether the fat AABB
    /// changed.
    pub fn enlarge_proxy(&mut self, proxy: u32, tight: Aabb, displacement: Vec2) -> bool {
        let Some(fat) = self.new_fat_aabb(proxy, tight, displacement) else { return false };
        let leaf = &mut self.nodes[proxy as usize];
        leaf.aabb = fat;
        leaf.enlarged = true;
        let mut index = leaf.parent;
        while index != NULL_NODE {
            let node = &mut self.nodes[index as usize];
            let grows = !contains(&node.aabb, &fat);
            if !grows && node.enlarged {
                // Marked before, so are its ancestors, and they enclose it.
                break;
            }
            if grows {
                node.aabb = node.aabb.union(&fat);
            }
            node.enlarged = true;
            index = node.parent;
        }
        debug_assert!(self.validate_path(proxy), "tree invariant broken after enlarge_proxy");
        true
    }

    /// Records `tight` as the tight AABB of `proxy` and returns the fat AABB it needs now, or
    /// `None` when its fat AABB [stays](DynamicTree::stays).
    fn new_fat_aabb(&mut self, proxy: u32, tight: Aabb, displacement: Vec2) -> Option<Aabb> {
        assert!(self.is_proxy(proxy), "{proxy} is not a proxy");
        self.tight[proxy as usize] = tight;
        (!self.stays(proxy, tight, displacement)).then(|| self.predicted_fat_aabb(tight, displacement))
    }

    /// Whether `move_proxy(proxy, tight, displacement)` would leave the proxy where it is: its
    /// fat AABB still encloses `tight` and is not far larger than the predicted one (Box2D v2's
    /// "huge AABB" test). Reads only, so the proxies of many bodies can be tested side by side.
    pub fn stays(&self, proxy: u32, tight: Aabb, displacement: Vec2) -> bool {
        let tree_aabb = self.nodes[proxy as usize].aabb;
        contains(&tree_aabb, &tight) && {
            let huge = self.predicted_fat_aabb(tight, displacement).expanded(4.0 * self.settings.margin);
            contains(&huge, &tree_aabb)
        }
    }

    /// Records `tight` as the tight AABB of `proxy`, which [`DynamicTree::stays`] found still
    /// enclosed: `move_proxy` without the test.
    pub(crate) fn set_tight(&mut self, proxy: u32, tight: Aabb) {
        debug_assert!(contains(&self.nodes[proxy as usize].aabb, &tight), "set_tight: {proxy} escaped its fat AABB");
        self.tight[proxy as usize] = tight;
    }

    /// Whether the tight AABB of `proxy` has left its fat AABB (a reinsertion is due).
    pub fn needs_update(&self, proxy: u32, tight: &Aabb) -> bool {
        !contains(&self.nodes[proxy as usize].aabb, tight)
    }

    pub fn is_proxy(&self, id: u32) -> bool {
        self.nodes.get(id as usize).is_some_and(|n| n.is_leaf())
    }

    /// The fat AABB stored in the tree for `proxy`.
    pub fn fat_aabb(&self, proxy: u32) -> Aabb {
        self.nodes[proxy as usize].aabb
    }

    /// The tight AABB last given for `proxy`.
    pub fn tight_aabb(&self, proxy: u32) -> Aabb {
        self.tight[proxy as usize]
    }

    pub fn user_data(&self, proxy: u32) -> T {
        self.nodes[proxy as usize].user_data.expect("proxy holds user data")
    }

    /// Replaces the user data of `proxy` (the world renumbers bodies when one is removed).
    pub fn set_user_data(&mut self, proxy: u32, user_data: T) {
        assert!(self.is_proxy(proxy), "set_user_data: {proxy} is not a proxy");
        self.nodes[proxy as usize].user_data = Some(user_data);
    }

    pub fn root(&self) -> Option<u32> {
        (self.root != NULL_NODE).then_some(self.root)
    }

    /// The node pool (free nodes included), for drawing and inspection.
    pub fn nodes(&self) -> &[TreeNode<T>] {
        &self.nodes
    }

    /// Live nodes (branches and leaves).
    pub fn node_count(&self) -> usize {
        self.node_count
    }

    pub fn proxy_count(&self) -> usize {
        self.proxy_count
    }

    /// Nodes allocated in the pool, free or not.
    pub fn capacity(&self) -> usize {
        self.nodes.len()
    }

    /// Removes every proxy, keeping the pool.
    pub fn clear(&mut self) {
        let capacity = self.nodes.len();
        self.nodes.clear();
        self.tight.clear();
        self.root = NULL_NODE;
        self.free_list = NULL_NODE;
        self.node_count = 0;
        self.proxy_count = 0;
        self.grow(capacity);
    }
}

/// Whether `outer` encloses `inner` (boundaries included).
#[inline]
pub fn contains(outer: &Aabb, inner: &Aabb) -> bool {
    outer.min.x <= inner.min.x && outer.min.y <= inner.min.y && inner.max.x <= outer.max.x && inner.max.y <= outer.max.y
}

/// The 2D "surface area" of a box: its perimeter.
#[inline]
pub fn perimeter(a: &Aabb) -> f32 {
    2.0 * ((a.max.x - a.min.x) + (a.max.y - a.min.y))
}
