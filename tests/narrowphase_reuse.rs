//! The narrowphase's persistent contacts and reused manifolds (`engine::world::contacts`):
//! manifold functions allocate nothing; a contact whose bodies did not move or change shape
//! keeps its manifold without `collide`, and gives exactly the contacts and states that
//! computing it again gives; a shape edit in place is noticed. With contact recycling on (the
//! default), the same still contacts are recycled instead, with the same states after a
//! snapshot; recycling is tested in `tests/recycling.rs`.

use glam::Vec2;
use manifold_lab::engine::collide::collide;
use manifold_lab::engine::math::Transform;
use manifold_lab::engine::rng::SplitMix64;
use manifold_lab::engine::shape::{Polygon, Shape};
use manifold_lab::engine::solver::SolverParams;
use manifold_lab::engine::{BodyDef, BodyKind, World};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Counts allocations made on the thread that armed it (the test harness runs tests on
/// several threads; only the measured one counts).
struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    static ARMED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if ARMED.try_with(|a| a.get()).unwrap_or(false) {
            ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        }
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Allocations made by `f` on this thread.
fn allocations_in(f: impl FnOnce()) -> usize {
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    ARMED.with(|a| a.set(true));
    f();
    ARMED.with(|a| a.set(false));
    ALLOCATIONS.load(Ordering::Relaxed) - before
}

fn shapes() -> Vec<Shape> {
    vec![
        Shape::circle(0.4).unwrap(),
        Shape::make_box(Vec2::new(0.5, 0.3)).unwrap(),
        Shape::Polygon(Polygon::new(&[Vec2::new(-0.4, -0.3), Vec2::new(0.4, -0.3), Vec2::new(0.0, 0.4)]).unwrap()),
        Shape::capsule(Vec2::new(-0.3, 0.0), Vec2::new(0.3, 0.0), 0.2).unwrap(),
    ]
}

#[test]
fn manifold_functions_allocate_nothing() {
    let shapes = shapes();
    let mut rng = SplitMix64::new(7);
    let mut touching = 0;
    let count = allocations_in(|| {
        for _ in 0..2_000 {
            let (a, b) = (&shapes[rng.below(shapes.len())], &shapes[rng.below(shapes.len())]);
            let xa = Transform::new(rng.vec2(-0.5, 0.5), rng.f32(-3.0, 3.0));
            let xb = Transform::new(rng.vec2(-0.5, 0.5), rng.f32(-3.0, 3.0));
            let m = collide(a, &xa, b, &xb, 0.02);
            touching += (m.count > 0) as usize;
        }
    });
    assert_eq!(count, 0, "collide allocated {count} times");
    assert!(touching > 1_000, "most random pairs this close touch ({touching})");
}

/// Boxes side by side on the ground with zero gravity, touching within the speculative
/// margin but not overlapping: nothing pushes, so nothing moves, and every contact can keep
/// its manifold.
fn still_row_with(recycle_contacts: bool) -> World {
    let params = SolverParams { gravity: Vec2::ZERO, sleep: false, recycle_contacts, ..Default::default() };
    let mut w = World::new(params);
    let ground = Shape::make_box(Vec2::new(20.0, 1.0)).unwrap();
    w.create_body(&BodyDef::new(BodyKind::Static, ground, Vec2::new(0.0, -1.0)));
    for k in 0..8 {
        let shape = if k % 3 == 2 { Shape::circle(0.5).unwrap() } else { Shape::make_box(Vec2::splat(0.5)).unwrap() };
        // A 1 mm gap to the ground and to the neighbour.
        w.create_body(&BodyDef::new(BodyKind::Dynamic, shape, Vec2::new(k as f32 * 1.001, 0.501)));
    }
    w
}

/// The still row with recycling off: the bit-exact reuse path alone.
fn still_row() -> World {
    still_row_with(false)
}

#[test]
fn unmoved_pairs_reuse_their_manifolds_and_change_nothing() {
    let mut reused = still_row();
    let mut fresh = still_row();
    for step in 0..20 {
        reused.step();
        // A snapshot starts with no record of poses, so every manifold is computed again.
        fresh = fresh.snapshot();
        fresh.step();
        assert_eq!(reused.state_hash(), fresh.state_hash(), "step {step}");
        assert_eq!(reused.contacts, fresh.contacts, "step {step}");
        assert_eq!(fresh.profile.manifolds_reused, 0);
    }
    let n = reused.contacts.len();
    assert!(n >= 8 + 7 - 2, "the ground and neighbour contacts exist ({n})");
    assert_eq!(reused.profile.manifolds_reused, n, "every contact kept its manifold");
    assert_eq!(reused.profile.manifolds, reused.profile.pairs - n, "only the pairs without a contact are collided");
    // Nothing moved at all.
    for (b, f) in reused.bodies.iter().zip(&still_row().bodies) {
        assert_eq!(b.xf, f.xf);
    }
}

#[test]
fn unmoved_pairs_are_recycled_by_default_and_a_snapshot_recycles_them_too() {
    let mut kept = still_row_with(true);
    let mut restored = still_row_with(true);
    for step in 0..20 {
        kept.step();
        restored = restored.snapshot();
        restored.step();
        assert_eq!(kept.state_hash(), restored.state_hash(), "step {step}");
        assert_eq!(kept.contacts, restored.contacts, "step {step}");
        assert_eq!(kept.profile.manifolds_recycled, restored.profile.manifolds_recycled, "step {step}");
    }
    let n = kept.contacts.len();
    assert_eq!(kept.profile.manifolds_recycled, n, "every contact was recycled");
    assert_eq!(kept.profile.manifolds_reused, 0, "recycling comes first");
    assert_eq!(kept.profile.manifolds, kept.profile.pairs - n);
}

#[test]
fn a_shape_changed_in_place_is_collided_again() {
    shape_changed_in_place(false);
    shape_changed_in_place(true);
}

fn shape_changed_in_place(recycle: bool) {
    let mut w = still_row_with(recycle);
    for _ in 0..3 {
        w.step();
    }
    let before = w.contacts.iter().find(|c| c.a == 0 && c.b == 1).expect("box 1 on the ground").manifold;
    assert_eq!(before.count, 2, "a box on the ground has two points");
    // The pair lab's kind of edit: a new shape at the same pose (with recycling on, the new
    // extent refuses the recorded manifold; the lab also forgets the records).
    let b = &mut w.bodies[1];
    let (p, a) = (b.xf.p, b.angle);
    b.shape = Shape::circle(0.5).unwrap();
    b.update_mass();
    b.set_transform(p, a);
    w.step();
    let after = w.contacts.iter().find(|c| c.a == 0 && c.b == 1).expect("still on the ground").manifold;
    assert_eq!(after.count, 1, "a circle on the ground has one point");
    // And with no call in between, directly on the field: the copy of the shape catches it.
    for _ in 0..3 {
        w.step();
    }
    let ground_points =
        |w: &World, i: usize| w.contacts.iter().find(|c| c.a == 0 && c.b == i).map(|c| c.manifold.count);
    assert_eq!(ground_points(&w, 4), Some(2), "body 4 is a box");
    assert!(if recycle { w.profile.manifolds_recycled > 0 } else { w.profile.manifolds_reused > 0 });
    let pose = w.bodies[4].xf;
    // Same bounding box, same pose: only the shape tells the pair changed. Without recycling
    // the narrowphase's copy of the shape catches it; a recycled manifold needs the edit
    // reported (the records are saved state, the copy is not).
    w.bodies[4].shape = Shape::circle(0.5).unwrap();
    if recycle {
        w.forget_manifold_origins(4);
    }
    w.step();
    assert_eq!(w.bodies[4].xf, pose, "nothing pushed it");
    assert_eq!(ground_points(&w, 4), Some(1), "the circle's manifold, not the box's");
}
