//! The dynamic AABB tree (003 article, "Dynamic AABB Tree") against parry2d's BVH and Box2D
//! v3's `b2DynamicTree`, on Box2D's "Dynamic Tree" benchmark workload, plus the world's pair
//! finding with the tree against sort-and-sweep and all pairs.
//!
//! Workload (after Box2D v3's `DynamicTree` sample): `PROXIES` = 10,000 boxes on a 100 × 100
//! grid of 2 m cells, sizes 0.5–2 m, so neighbours often overlap; each step every proxy moves
//! with probability 5% by up to `MOVE_DELTA` per axis. A step = update the moved proxies
//! (reinsert those that left their fat AABB, margin 0.1) + find their pairs by querying the
//! tree with each reinserted fat AABB. A query = a 4 m × 4 m box at a random place.
//!
//! Printed before criterion runs: tree quality (height, area ratio, nodes visited per query,
//! update cost) for every insertion strategy × balancing of ours, for full rebuilds, and for
//! the peers. After it: a summary of criterion's timings with the ratios.
//!
//! Run with `cargo bench --bench tree` (about 1–2 minutes after compiling).

#[path = "tree_parts/peers.rs"]
mod peers;

use criterion::Criterion;
use glam::Vec2;
use manifold_lab::engine::broadphase::{Balancing, InsertionStrategy, PairFinding, RebuildMethod, TreeSettings};
use manifold_lab::engine::math::Aabb;
use manifold_lab::engine::shape::Shape;
use manifold_lab::engine::{BodyDef, BodyKind, World};
use peers::{Box2d, Ours, Parry, TreeUnderTest};
use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

const PROXIES: usize = 10_000;
const MOVE_FRACTION: f32 = 0.05;
const MOVE_DELTA: f32 = 0.1;
const QUALITY_STEPS: usize = 200;

/// A small deterministic generator (xorshift64*).
struct Rng(u64);
impl Rng {
    fn f32(&mut self) -> f32 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        ((self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 40) as f32) / (1u64 << 24) as f32
    }
    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.f32()
    }
}

/// The proxies' tight boxes and the moves of each step.
struct Workload {
    boxes: Vec<Aabb>,
    rng: Rng,
    moved: Vec<u32>,
    reinserted: Vec<u32>,
    in_buffer: Vec<bool>,
}

impl Workload {
    fn new(seed: u64) -> Workload {
        let mut rng = Rng(seed.max(1));
        let side = (PROXIES as f32).sqrt() as usize;
        let boxes = (0..PROXIES)
            .map(|i| {
                let corner = Vec2::new((i % side) as f32, (i / side) as f32) * 2.0;
                let size = Vec2::new(rng.range(0.5, 2.0), rng.range(0.5, 2.0));
                Aabb::new(corner, corner + size)
            })
            .collect();
        Workload { boxes, rng, moved: Vec::new(), reinserted: Vec::new(), in_buffer: vec![false; PROXIES] }
    }

    /// Moves about 5% of the proxies (untimed).
    fn next_moves(&mut self) {
        self.moved.clear();
        for i in 0..self.boxes.len() {
            if self.rng.f32() < MOVE_FRACTION {
                let d = Vec2::new(self.rng.range(-MOVE_DELTA, MOVE_DELTA), self.rng.range(-MOVE_DELTA, MOVE_DELTA));
                self.boxes[i] = Aabb::new(self.boxes[i].min + d, self.boxes[i].max + d);
                self.moved.push(i as u32);
            }
        }
    }

    /// One timed broadphase step on `tree`; returns (time, pairs found).
    fn step<T: TreeUnderTest>(&mut self, tree: &mut T) -> (Duration, usize) {
        self.next_moves();
        self.reinserted.clear();
        let t = Instant::now();
        tree.update(&self.moved, &self.boxes, &mut self.reinserted);
        for &i in &self.reinserted {
            self.in_buffer[i as usize] = true;
        }
        let pairs = tree.pairs(&self.reinserted, &self.in_buffer);
        let dt = t.elapsed();
        for &i in &self.reinserted {
            self.in_buffer[i as usize] = false;
        }
        (dt, pairs)
    }
}

/// Query boxes shared by every tree.
fn query_boxes() -> Vec<Aabb> {
    let mut rng = Rng(99);
    (0..1024)
        .map(|_| {
            let c = Vec2::new(rng.range(0.0, 200.0), rng.range(0.0, 200.0));
            Aabb::new(c - Vec2::splat(2.0), c + Vec2::splat(2.0))
        })
        .collect()
}

/// Mean time per iteration of every timed routine, gathered for the summary.
static RESULTS: Mutex<BTreeMap<String, (Duration, u64, f64)>> = Mutex::new(BTreeMap::new());

fn record(name: &str, d: Duration, iters: u64, extra: f64) {
    let mut r = RESULTS.lock().unwrap();
    let e = r.entry(name.to_string()).or_insert((Duration::ZERO, 0, 0.0));
    e.0 += d;
    e.1 += iters;
    e.2 += extra;
}

fn mean_ns(name: &str) -> Option<(f64, f64)> {
    let r = RESULTS.lock().unwrap();
    r.get(name).filter(|e| e.1 > 0).map(|e| (e.0.as_nanos() as f64 / e.1 as f64, e.2 / e.1 as f64))
}

/// Quality of one tree after the build and after `QUALITY_STEPS` steps of the workload.
fn quality_row<T: TreeUnderTest>(name: &str, make: impl Fn(&[Aabb]) -> T, finish: impl Fn(&mut T)) {
    let mut w = Workload::new(7);
    let queries = query_boxes();
    let t = Instant::now();
    let mut tree = make(&w.boxes);
    let build_ms = t.elapsed().as_secs_f64() * 1e3;
    let (h0, a0) = (tree.height(), tree.area_ratio());
    let (mut total, mut moved, mut pairs) = (Duration::ZERO, 0, 0);
    for _ in 0..QUALITY_STEPS {
        let (dt, p) = w.step(&mut tree);
        let t = Instant::now();
        finish(&mut tree);
        total += dt + t.elapsed();
        moved += w.moved.len();
        pairs += p;
    }
    let t = Instant::now();
    let hits: usize = queries.iter().map(|q| tree.query(q)).sum();
    let query_ns = t.elapsed().as_nanos() as f64 / queries.len() as f64;
    println!(
        "{name:<34} {build_ms:>7.2} {h0:>4} {a0:>7.1} | {:>4} {:>7.1} {:>9.1} {:>8.0} {:>8.0} {:>7.1}",
        tree.height(),
        tree.area_ratio(),
        total.as_nanos() as f64 / moved as f64,
        query_ns,
        pairs as f64 / QUALITY_STEPS as f64,
        hits as f64 / queries.len() as f64,
    );
}

/// Nodes visited per query by our tree (the query cost the area ratio predicts).
fn visits(tree: &Ours) -> f64 {
    let q = query_boxes();
    q.iter().map(|b| tree.tree.query(b, |_, _| true).nodes_visited as f64).sum::<f64>() / q.len() as f64
}

fn print_quality() {
    println!("\n== Tree quality: {PROXIES} proxies, {QUALITY_STEPS} steps of the 5%-moving workload ==");
    println!(
        "{:<34} {:>7} {:>4} {:>7} | {:>4} {:>7} {:>9} {:>8} {:>8} {:>7}",
        "tree", "build", "h", "area", "h", "area", "ns/moved", "query", "pairs", "hits"
    );
    println!("{:<34} {:>7} {:>4} {:>7} | after the steps", "", "ms", "", "ratio");
    let mut visit_rows = Vec::new();
    for insertion in [InsertionStrategy::Descent, InsertionStrategy::BoundedDescent, InsertionStrategy::BranchAndBound]
    {
        for balancing in [Balancing::None, Balancing::Avl, Balancing::SahRotation] {
            let s = TreeSettings { insertion, balancing, ..TreeSettings::default() };
            let name = format!("ours {insertion:?} + {balancing:?}");
            quality_row(&name, |b| Ours::with(s, b), |_| {});
            let mut w = Workload::new(7);
            let mut t = Ours::with(s, &w.boxes);
            for _ in 0..QUALITY_STEPS {
                w.step(&mut t);
            }
            visit_rows.push((name, visits(&t)));
        }
    }
    for method in [RebuildMethod::BinnedSah, RebuildMethod::MedianSplit] {
        let name = format!("ours default + rebuild {method:?}");
        quality_row(
            &name,
            |b| {
                let mut t = Ours::build(b);
                t.tree.rebuild(method);
                t
            },
            |t| t.tree.rebuild(method),
        );
        let mut t = Ours::build(&Workload::new(7).boxes);
        t.tree.rebuild(method);
        visit_rows.push((name, visits(&t)));
    }
    quality_row("parry2d 0.31 Bvh (reinsert)", Parry::build, |_| {});
    quality_row("Box2D v3 (MoveProxy)", Box2d::<false>::build, |_| {});
    quality_row("Box2D v3 (Enlarge + Rebuild)", Box2d::<true>::build, |_| {});
    println!("(h/area before `|`: after incremental insertion (rebuild rows: then rebuilt); rebuild rows rebuild");
    println!(" after every step, timed in ns/moved; pairs and hits must agree across rows)");
    println!("\nNodes visited per 4 m query, ours:");
    for (name, v) in visit_rows {
        println!("  {name:<40} {v:>6.1}");
    }
}

fn bench_step<T: TreeUnderTest>(c: &mut Criterion, name: &str) {
    let mut w = Workload::new(11);
    let mut tree = T::build(&w.boxes);
    let id = format!("dynamic_tree/step/{name}");
    c.bench_function(&id, |b| {
        b.iter_custom(|iters| {
            let (mut total, mut pairs) = (Duration::ZERO, 0);
            for _ in 0..iters {
                let (dt, p) = w.step(&mut tree);
                total += dt;
                pairs += p;
            }
            record(&id, total, iters, pairs as f64);
            total
        })
    });
    let q = query_boxes();
    let id = format!("dynamic_tree/query/{name}");
    let mut k = 0;
    c.bench_function(&id, |b| {
        b.iter_custom(|iters| {
            let t = Instant::now();
            let mut hits = 0;
            for _ in 0..iters {
                hits += tree.query(&q[k & 1023]);
                k += 1;
            }
            let total = t.elapsed();
            record(&id, total, iters, hits as f64);
            total
        })
    });
}

/// A pile of `n` falling boxes and circles over a static ground, after 60 steps.
fn falling_world(n: usize) -> World {
    let mut w = World::new(Default::default());
    let cols = ((n as f32).sqrt() * 2.0) as usize;
    let ground = Shape::make_box(Vec2::new(cols as f32 * 0.7, 0.5)).unwrap();
    w.create_body(&BodyDef::new(BodyKind::Static, ground, Vec2::new(0.0, -0.5)));
    let (boxy, round) = (Shape::make_box(Vec2::splat(0.4)).unwrap(), Shape::circle(0.4).unwrap());
    for i in 0..n {
        let p = Vec2::new((i % cols) as f32 * 1.2 - cols as f32 * 0.6, 1.0 + (i / cols) as f32 * 1.2);
        w.create_body(&BodyDef::new(BodyKind::Dynamic, if i % 2 == 0 { boxy } else { round }, p));
    }
    for _ in 0..60 {
        w.step();
    }
    w
}

/// Real `World::step` calls per pair-finding mode: criterion times the whole step; the
/// broadphase share (`StepProfile::broadphase_ms`: update_pairs + end-of-step synchronize)
/// is gathered for the summary.
fn bench_world_pairs(c: &mut Criterion, n: usize) {
    for mode in PairFinding::ALL {
        let id = format!("world_step/{n}/{mode:?}");
        let mut w = falling_world(n);
        w.broadphase.mode = mode;
        w.step();
        c.bench_function(&id, |b| {
            b.iter_custom(|iters| {
                let (mut total, mut bp_ms, mut contacts) = (Duration::ZERO, 0.0, 0);
                for _ in 0..iters {
                    let t = Instant::now();
                    w.step();
                    total += t.elapsed();
                    bp_ms += w.profile.broadphase_ms as f64;
                    contacts += w.contacts.len();
                }
                record(&id, total, iters, contacts as f64);
                record(&format!("{id}/broadphase"), Duration::from_secs_f64(bp_ms / 1e3), iters, 0.0);
                total
            })
        });
    }
}

fn print_summary() {
    println!("\n== Summary (means over every timed iteration) ==");
    println!("Dynamic tree, {PROXIES} proxies, 5% moving per step:");
    println!(
        "{:<26} {:>11} {:>13} {:>11} {:>10} {:>12}",
        "", "step µs", "ns/moved", "pairs/step", "query ns", "ours/peer"
    );
    let moved = PROXIES as f64 * MOVE_FRACTION as f64;
    let ours = mean_ns("dynamic_tree/step/ours");
    let ours_q = mean_ns("dynamic_tree/query/ours");
    for name in ["ours", "parry2d", "box2d_v3_move", "box2d_v3_rebuild"] {
        let (Some(s), Some(q)) =
            (mean_ns(&format!("dynamic_tree/step/{name}")), mean_ns(&format!("dynamic_tree/query/{name}")))
        else {
            continue;
        };
        let ratio = match (ours, ours_q) {
            (Some(o), Some(oq)) if name != "ours" => format!("{:.2} / {:.2}", o.0 / s.0, oq.0 / q.0),
            _ => String::new(),
        };
        println!("{name:<26} {:>11.1} {:>13.0} {:>11.1} {:>10.0} {:>12}", s.0 / 1e3, s.0 / moved, s.1, q.0, ratio);
    }
    println!("(ours/peer: step time ratio / query time ratio; below 1 = ours faster. pairs/step differ a");
    println!(" little because each run takes a different number of steps of the drifting workload)");
    println!("\nWorld with N falling bodies (a pile forming): broadphase ms per World::step, by mode:");
    println!(
        "{:>7} {:>9} {:>9} {:>10} {:>9} {:>9} | {:>10} {:>10}",
        "bodies", "tree", "sweep", "all pairs", "all/tree", "sweep/tr", "step tree", "step all"
    );
    for n in [100, 1000, 5000] {
        let get = |m: &str| mean_ns(&format!("world_step/{n}/{m}/broadphase"));
        let step = |m: &str| mean_ns(&format!("world_step/{n}/{m}")).map_or(0.0, |x| x.0 / 1e6);
        let (Some(t), Some(s), Some(b)) = (get("Tree"), get("SortAndSweep"), get("BruteForce")) else { continue };
        println!(
            "{n:>7} {:>9.4} {:>9.4} {:>10.4} {:>8.1}x {:>8.1}x | {:>10.3} {:>10.3}",
            t.0 / 1e6,
            s.0 / 1e6,
            b.0 / 1e6,
            b.0 / t.0,
            s.0 / t.0,
            step("Tree"),
            step("BruteForce")
        );
    }
    println!("(step = whole World::step ms; the contacts are identical in every mode)");
}

fn main() {
    print_quality();
    let mut c = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1))
        .configure_from_args();
    bench_step::<Ours>(&mut c, "ours");
    bench_step::<Parry>(&mut c, "parry2d");
    bench_step::<Box2d<false>>(&mut c, "box2d_v3_move");
    bench_step::<Box2d<true>>(&mut c, "box2d_v3_rebuild");
    for n in [100, 1000, 5000] {
        bench_world_pairs(&mut c, n);
    }
    c.final_summary();
    print_summary();
}
