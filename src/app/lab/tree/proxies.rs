//! The tree lab's proxies: N boxes in a square, a fraction of them moving each step, kept in
//! a dynamic tree, and the current query with the nodes it visited and the leaves it hit.

use glam::Vec2;
use manifold_lab::engine::broadphase::{DynamicTree, QueryStats, RayCastInput, TreeDrawOptions, TreeSettings};
use manifold_lab::engine::debug::{palette, Color, DebugDraw, Layer};
use manifold_lab::engine::math::Aabb;
use std::time::Instant;

/// The most proxies the lab spawns.
pub const MAX_PROXIES: usize = 100_000;

/// What the user is querying with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TreeQuery {
    Box(Aabb),
    Ray {
        from: Vec2,
        to: Vec2,
    },
    /// The article's sphere query, in 2D.
    Circle {
        center: Vec2,
        radius: f32,
    },
}

/// One proxy: its tree id, tight box and velocity.
#[derive(Clone, Copy, Debug)]
pub(super) struct Mover {
    pub(super) proxy: u32,
    pub(super) tight: Aabb,
    pub(super) velocity: Vec2,
}

pub struct Proxies {
    pub tree: DynamicTree<u32>,
    pub(super) movers: Vec<Mover>,
    /// Side of the square the proxies live in, metres.
    pub region: f32,
    /// Fraction of proxies that move each step.
    pub moving_fraction: f32,
    pub query: Option<TreeQuery>,
    /// Nodes the last query tested (id, passed the test) and the leaves it hit.
    pub visited: Vec<(u32, bool)>,
    pub hits: Vec<u32>,
    pub query_stats: QueryStats,
    /// Proxies reinserted by the last step, and its time.
    pub reinserted: usize,
    pub step_ms: f32,
    rng: u64,
}

impl Proxies {
    pub fn new(count: usize, settings: TreeSettings) -> Proxies {
        let mut lab = Proxies {
            tree: DynamicTree::new(settings),
            movers: Vec::new(),
            region: 100.0,
            moving_fraction: 0.05,
            query: None,
            visited: Vec::new(),
            hits: Vec::new(),
            query_stats: QueryStats::default(),
            reinserted: 0,
            step_ms: 0.0,
            rng: 0x2545_F491_4F6C_DD1D,
        };
        lab.respawn(count, settings);
        lab
    }

    pub(super) fn random(&mut self) -> f32 {
        // xorshift64*: deterministic, enough for placing boxes.
        self.rng ^= self.rng >> 12;
        self.rng ^= self.rng << 25;
        self.rng ^= self.rng >> 27;
        (self.rng.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 40) as f32 / (1u64 << 24) as f32
    }

    /// Rebuilds the tree with `count` proxies (capped at [`MAX_PROXIES`]) and `settings`.
    pub fn respawn(&mut self, count: usize, settings: TreeSettings) {
        let count = count.min(MAX_PROXIES);
        // Keep the density of Box2D's sample: the square grows with the count.
        self.region = (count as f32).sqrt() * 1.5;
        self.tree = DynamicTree::new(settings);
        self.movers.clear();
        for i in 0..count {
            let c = Vec2::new(self.random(), self.random()) * self.region;
            let h = Vec2::new(0.1 + 0.4 * self.random(), 0.1 + 0.4 * self.random());
            let tight = Aabb::new(c - h, c + h);
            let velocity = Vec2::new(self.random() - 0.5, self.random() - 0.5) * 0.5;
            let proxy = self.tree.create_proxy(tight, i as u32);
            self.movers.push(Mover { proxy, tight, velocity });
        }
        self.run_query();
    }

    pub fn count(&self) -> usize {
        self.movers.len()
    }

    /// Moves `moving_fraction` of the proxies a little (bouncing off the square's walls).
    pub fn step(&mut self) {
        let t = Instant::now();
        let n = self.movers.len();
        let moving = ((n as f32) * self.moving_fraction.clamp(0.0, 1.0)).round() as usize;
        let mut reinserted = 0;
        for _ in 0..moving {
            let i = ((self.random() * n as f32) as usize).min(n.saturating_sub(1));
            let m = &mut self.movers[i];
            let mut c = m.tight.center() + m.velocity;
            for k in 0..2 {
                if c[k] < 0.0 || c[k] > self.region {
                    m.velocity[k] = -m.velocity[k];
                    c[k] = c[k].clamp(0.0, self.region);
                }
            }
            let h = m.tight.extents();
            let d = c - m.tight.center();
            m.tight = Aabb::new(c - h, c + h);
            let (proxy, tight) = (m.proxy, m.tight);
            if self.tree.move_proxy(proxy, tight, d) {
                reinserted += 1;
            }
        }
        self.reinserted = reinserted;
        self.step_ms = t.elapsed().as_secs_f32() * 1000.0;
        self.run_query();
    }

    pub fn set_query(&mut self, q: Option<TreeQuery>) {
        self.query = q;
        self.run_query();
    }

    /// Runs the current query, recording visited nodes and hit leaves.
    pub(super) fn run_query(&mut self) {
        self.visited.clear();
        self.hits.clear();
        let (visited, hits) = (&mut self.visited, &mut self.hits);
        self.query_stats = match self.query {
            None => QueryStats::default(),
            Some(TreeQuery::Box(b)) => self.tree.query_visiting(
                &b,
                |id, hit| visited.push((id, hit)),
                |id, _| {
                    hits.push(id);
                    true
                },
            ),
            Some(TreeQuery::Circle { center, radius }) => self.tree.query_circle_visiting(
                center,
                radius,
                |id, hit| visited.push((id, hit)),
                |id, _| {
                    hits.push(id);
                    true
                },
            ),
            Some(TreeQuery::Ray { from, to }) => {
                let input = RayCastInput { origin: from, translation: to - from, max_fraction: 1.0 };
                // Every proxy whose box the ray crosses (no clipping: all hits are shown).
                self.tree.ray_cast_visiting(
                    &input,
                    |id, hit| visited.push((id, hit)),
                    |_, id, _| {
                        hits.push(id);
                        -1.0
                    },
                )
            }
        };
    }

    /// The proxies, the tree by depth (levels `depth.0..=depth.1`), the query, the visited
    /// nodes (culled: grey, entered: white) and the hit leaves (yellow).
    pub fn draw(&self, d: &mut dyn DebugDraw, view: Aabb, depth: (u32, u32)) {
        let opts = TreeDrawOptions {
            min_depth: depth.0,
            max_depth: (depth.1 != u32::MAX).then_some(depth.1),
            view: Some(view),
            leaves: true,
            tight: false,
        };
        if d.wants(Layer::Shape) {
            for m in &self.movers {
                if m.tight.overlaps(&view) {
                    let c = palette::DYNAMIC;
                    let (lo, hi) = (m.tight.min, m.tight.max);
                    let pts = [lo, Vec2::new(hi.x, lo.y), hi, Vec2::new(lo.x, hi.y)];
                    d.polygon(Layer::Shape, &pts, c.with_alpha(0.25), c);
                }
            }
        }
        self.tree.debug_draw(d, &opts);
        let nodes = self.tree.nodes();
        for &(id, entered) in &self.visited {
            let c = if entered { Color::rgb(255, 255, 255) } else { Color::rgb(130, 130, 130) };
            d.aabb(Layer::TreeNode, nodes[id as usize].aabb, c.with_alpha(if entered { 0.6 } else { 0.3 }));
        }
        for &id in &self.hits {
            d.aabb(Layer::Contact, nodes[id as usize].aabb, palette::SELECTED);
        }
        match self.query {
            Some(TreeQuery::Box(b)) => d.aabb(Layer::Joint, b, palette::JOINT),
            Some(TreeQuery::Ray { from, to }) => d.arrow(Layer::Joint, from, to, palette::JOINT),
            Some(TreeQuery::Circle { center, radius }) => {
                d.circle(Layer::Joint, center, radius, palette::JOINT.with_alpha(0.1), palette::JOINT)
            }
            None => {}
        }
    }

    pub fn bounds(&self) -> Aabb {
        Aabb::new(Vec2::ZERO, Vec2::splat(self.region))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries_hit_exactly_the_overlapping_proxies() {
        let mut lab = Proxies::new(2000, TreeSettings::default());
        for _ in 0..20 {
            lab.step();
        }
        lab.tree.validate().unwrap();
        let q = Aabb::new(Vec2::splat(10.0), Vec2::splat(25.0));
        lab.set_query(Some(TreeQuery::Box(q)));
        let mut expected: Vec<u32> = lab.tree.leaves().filter(|l| l.fat.overlaps(&q)).map(|l| l.id).collect();
        let mut hits = lab.hits.clone();
        expected.sort_unstable();
        hits.sort_unstable();
        assert!(!hits.is_empty());
        assert_eq!(hits, expected);
        assert_eq!(lab.visited.len() as u32, lab.query_stats.nodes_visited);
        // A ray across the square hits the proxies whose fat boxes it crosses.
        lab.set_query(Some(TreeQuery::Ray { from: Vec2::ZERO, to: Vec2::splat(lab.region) }));
        assert!(!lab.hits.is_empty());
        assert!(lab.visited.len() < lab.tree.node_count(), "the ray culls most of the tree");
    }

    /// The circle query hits exactly the proxies whose fat box comes within the radius of
    /// the centre (brute force), and tests fewer nodes than the query by the circle's own box.
    #[test]
    fn the_circle_query_hits_the_boxes_within_its_radius() {
        let mut lab = Proxies::new(2000, TreeSettings::default());
        lab.step();
        let (center, radius) = (Vec2::splat(0.5 * lab.region), 0.2 * lab.region);
        let near = |b: &Aabb| center.distance(center.clamp(b.min, b.max)) <= radius;
        let mut expected: Vec<u32> = lab.tree.leaves().filter(|l| near(&l.fat)).map(|l| l.id).collect();
        lab.set_query(Some(TreeQuery::Circle { center, radius }));
        let mut hits = lab.hits.clone();
        expected.sort_unstable();
        hits.sort_unstable();
        assert!(!hits.is_empty());
        assert_eq!(hits, expected);
        let circle_visits = lab.query_stats.nodes_visited;
        lab.set_query(Some(TreeQuery::Box(Aabb::new(center - radius, center + radius))));
        assert!(lab.hits.len() > hits.len(), "the box's corners hold proxies the circle leaves out");
        assert!(circle_visits < lab.query_stats.nodes_visited);
    }
}
