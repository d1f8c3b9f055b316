//! World-level tests of the tree broadphase (part of `tests/tree.rs`): pairs against all
//! pairs on random scenes, worlds stepped with the tree against all pairs and sort-and-sweep,
//! determinism, and `World::ray_cast`.

use super::{settings, BALANCINGS, STRATEGIES};
use glam::Vec2;
use manifold_lab::engine::broadphase::{
    find_pairs_brute_force, Balancing, Broadphase, InsertionStrategy, PairFinding, RebuildMethod,
};
use manifold_lab::engine::math::Aabb;
use manifold_lab::engine::shape::Shape;
use manifold_lab::engine::{Body, BodyDef, BodyKind, World};

fn random_bodies(seed: u64, n: usize) -> Vec<Body> {
    let mut rng = seed;
    let mut rnd = move || {
        rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((rng >> 40) as f32) / (1u64 << 24) as f32
    };
    (0..n)
        .map(|i| {
            let kind = [BodyKind::Dynamic, BodyKind::Dynamic, BodyKind::Static, BodyKind::Kinematic][i % 4];
            let shape = if i % 3 == 0 {
                Shape::circle(0.2 + rnd()).unwrap()
            } else {
                Shape::make_box(Vec2::new(0.2 + rnd(), 0.2 + rnd())).unwrap()
            };
            let mut def = BodyDef::new(kind, shape, Vec2::new(rnd() * 30.0, rnd() * 30.0));
            def.angle = rnd() * 6.0;
            Body::new(&def)
        })
        .collect()
}

fn dynamic_pair(bodies: &[Body], i: usize, j: usize) -> bool {
    (bodies[i].kind == BodyKind::Dynamic || bodies[j].kind == BodyKind::Dynamic) && bodies[i].should_collide(&bodies[j])
}

#[test]
fn tree_pairs_equal_all_pairs_on_random_scenes() {
    for seed in 0..6u64 {
        let mut bodies = random_bodies(seed, 300);
        let mut bp = Broadphase::default();
        let spec = 0.02;
        for round in 0..12 {
            bp.update_pairs(&bodies, spec);
            // Every pair whose fat AABBs overlap, exactly.
            let fat: Vec<Aabb> = (0..bodies.len()).map(|i| bp.tree.fat_aabb(bp.proxy_of(i).unwrap())).collect();
            let want = find_pairs_brute_force(&fat, |i, j| dynamic_pair(&bodies, i, j));
            assert_eq!(bp.pairs(), &want[..], "seed {seed} round {round}: fat pairs differ");
            // And the narrowphase candidates are all pairs of overlapping tight boxes.
            let tight: Vec<Aabb> = bodies.iter().map(|b| b.shape.compute_aabb(&b.xf).expanded(spec)).collect();
            let touching: Vec<_> = bp.pairs().iter().copied().filter(|&(i, j)| bp.may_touch(i, j)).collect();
            assert_eq!(touching, find_pairs_brute_force(&tight, |i, j| dynamic_pair(&bodies, i, j)));
            // Move some bodies, retype one, switch one's collisions off or on again, add two,
            // sometimes remove one.
            for (k, b) in bodies.iter_mut().enumerate() {
                if (k + round) % 5 == 0 {
                    let p = b.position() + Vec2::new(((k * 7 + round) % 11) as f32 * 0.3 - 1.5, 0.4);
                    b.set_transform(p, b.angle + 0.1);
                }
            }
            bodies[round * 3].kind =
                if bodies[round * 3].kind == BodyKind::Static { BodyKind::Dynamic } else { BodyKind::Static };
            let filtered = &mut bodies[(round * 5 + 1) % 40];
            filtered.mask_bits = if filtered.mask_bits == 0 { u32::MAX } else { 0 };
            bodies.extend(random_bodies(seed * 100 + round as u64, 2));
            if round % 4 == 3 {
                bodies.remove(17);
            }
        }
    }
}

fn test_world(mode: PairFinding) -> World {
    let mut w = World::new(Default::default());
    w.broadphase.mode = mode;
    let ground = Shape::make_box(Vec2::new(30.0, 0.5)).unwrap();
    w.create_body(&BodyDef::new(BodyKind::Static, ground, Vec2::new(0.0, -0.5)));
    let b = Shape::make_box(Vec2::splat(0.5)).unwrap();
    for row in 0..8 {
        for col in 0..(8 - row) {
            let x = -4.0 + col as f32 * 1.05 + row as f32 * 0.525;
            w.create_body(&BodyDef::new(BodyKind::Dynamic, b, Vec2::new(x, 0.5 + row as f32)));
        }
    }
    for i in 0..40 {
        let s = Shape::circle(0.25 + 0.05 * (i % 4) as f32).unwrap();
        w.create_body(&BodyDef::new(
            BodyKind::Dynamic,
            s,
            Vec2::new(-10.0 + (i % 10) as f32 * 2.1, 10.0 + (i / 10) as f32),
        ));
    }
    let mut k = BodyDef::new(BodyKind::Kinematic, Shape::make_box(Vec2::new(2.0, 0.2)).unwrap(), Vec2::new(8.0, 3.0));
    k.linear_velocity = Vec2::new(-2.0, 0.0);
    k.angular_velocity = 0.5;
    w.create_body(&k);
    w
}

#[test]
fn world_with_tree_gives_the_contacts_of_all_pairs() {
    let mut a = test_world(PairFinding::Tree);
    let mut b = test_world(PairFinding::BruteForce);
    let mut c = test_world(PairFinding::SortAndSweep);
    for step in 0..240 {
        if step == 60 {
            // The user drags a body and drops a new one; later removes one.
            for w in [&mut a, &mut b, &mut c] {
                w.bodies[5].set_transform(Vec2::new(3.0, 6.0), 0.3);
                w.create_body(&BodyDef::new(BodyKind::Dynamic, Shape::circle(0.6).unwrap(), Vec2::new(0.0, 9.0)));
            }
        }
        if step == 120 {
            for w in [&mut a, &mut b, &mut c] {
                w.bodies.remove(10);
                w.contacts.clear();
                w.mouse_joint = None;
            }
        }
        a.step();
        b.step();
        c.step();
        assert_eq!(a.contacts, b.contacts, "step {step}: tree and all-pairs contacts differ");
        assert_eq!(a.contacts, c.contacts, "step {step}: tree and sort-and-sweep contacts differ");
        assert_eq!(a.state_hash(), b.state_hash(), "step {step}");
        a.broadphase.tree.validate().unwrap();
    }
    assert!(a.profile.proxies_moved > 0 && a.profile.pairs >= a.contacts.len());
    assert!(!a.contacts.is_empty());
}

#[test]
fn every_tree_configuration_gives_the_same_world() {
    let mut reference = test_world(PairFinding::BruteForce);
    let mut worlds: Vec<World> = Vec::new();
    for insertion in STRATEGIES {
        for balancing in BALANCINGS {
            let mut w = test_world(PairFinding::Tree);
            w.broadphase.set_tree_settings(settings(insertion, balancing));
            worlds.push(w);
        }
    }
    let mut rebuilt = test_world(PairFinding::Tree);
    rebuilt.broadphase.rebuild = Some(RebuildMethod::BinnedSah);
    worlds.push(rebuilt);
    for step in 0..90 {
        reference.step();
        for (k, w) in worlds.iter_mut().enumerate() {
            w.step();
            assert_eq!(w.state_hash(), reference.state_hash(), "configuration {k}, step {step}");
        }
        if step == 45 {
            // Switching the settings mid-run changes nothing either.
            worlds[0].broadphase.set_tree_settings(settings(InsertionStrategy::BranchAndBound, Balancing::Avl));
        }
    }
}

#[test]
fn same_scene_same_steps_same_hash_with_the_tree() {
    let run = || {
        let mut w = test_world(PairFinding::Tree);
        for _ in 0..200 {
            w.step();
        }
        w.state_hash()
    };
    assert_eq!(run(), run());
    // A clone (as the app's history stores) resumes identically, and so does a world whose
    // broadphase was dropped (as after deserialization).
    let mut w = test_world(PairFinding::Tree);
    for _ in 0..50 {
        w.step();
    }
    let mut clone = w.clone();
    let mut fresh = w.clone();
    fresh.broadphase = Broadphase::default();
    for _ in 0..100 {
        w.step();
        clone.step();
        fresh.step();
    }
    assert_eq!(w.state_hash(), clone.state_hash());
    assert_eq!(w.state_hash(), fresh.state_hash());
}

#[test]
fn world_ray_cast_finds_the_closest_body_through_the_tree() {
    let mut w = test_world(PairFinding::Tree);
    for _ in 0..30 {
        w.step();
    }
    let mut brute = w.clone();
    brute.broadphase.mode = PairFinding::BruteForce;
    brute.broadphase.reset();
    let mut hits = 0;
    for i in 0..200 {
        let a = i as f32 * 0.1;
        let origin = Vec2::new(-12.0 + (i % 13) as f32 * 2.0, 14.0 - (i % 7) as f32 * 2.0);
        let translation = Vec2::new(a.cos(), a.sin()) * 25.0;
        let t = w.ray_cast(origin, translation);
        assert_eq!(t, brute.ray_cast(origin, translation), "ray {i}");
        if let Some(h) = t {
            hits += 1;
            let b = &w.bodies[h.body];
            assert!(h.fraction == 0.0 || b.shape.test_point(&b.xf, h.point - 1e-3 * h.normal));
        }
    }
    assert!(hits > 50, "only {hits} hits");
    // Straight down onto the ground from above the pyramid's left: first hit is the ground.
    let hit = w.ray_cast(Vec2::new(-20.0, 5.0), Vec2::new(0.0, -10.0)).unwrap();
    assert_eq!(hit.body, 0);
    assert!((hit.point.y - 0.0).abs() < 1e-4 && (hit.normal - Vec2::Y).length() < 1e-5);
    assert!(w.ray_cast(Vec2::new(-20.0, 5.0), Vec2::new(0.0, 3.0)).is_none());
}

/// The start-of-step refresh recomputes a box only when what it is computed from changed
/// (`Broadphase` keeps each body's sources): a shape edited in place, with the pose unchanged,
/// is announced with `World::forget_manifold_origins`, and the next step collides the grown
/// shape. Without the announcement the box lags one step; a pose edit needs none.
#[test]
fn a_shape_grown_in_place_is_collided_at_the_next_step() {
    let grown = |announce: bool| {
        let mut w = World::new(Default::default());
        w.params.gravity = Vec2::ZERO;
        let a = w.create_body(&BodyDef::new(BodyKind::Dynamic, Shape::make_box(Vec2::splat(0.5)).unwrap(), Vec2::ZERO));
        let b = w.create_body(&BodyDef::new(
            BodyKind::Dynamic,
            Shape::make_box(Vec2::splat(0.5)).unwrap(),
            Vec2::new(2.0, 0.0),
        ));
        for _ in 0..3 {
            w.step();
        }
        assert!(w.contacts.is_empty(), "1 m apart: no contact");
        let before = w.broadphase.tight_aabb(b).unwrap();
        // Only the shape changes (mass and centre are left as they were: every other input of
        // the box is the same bits).
        w.bodies[b].shape = Shape::make_box(Vec2::splat(1.7)).unwrap();
        if announce {
            w.forget_manifold_origins(b);
        }
        w.step();
        let touching = w.contacts.iter().any(|c| (c.a, c.b) == (a, b));
        (touching, before, w)
    };
    let (touching, _, mut late) = grown(false);
    assert!(!touching, "unannounced, the box is the one from the end of the last step");
    late.step();
    assert!(late.contacts.iter().any(|c| (c.a, c.b) == (0, 1)), "one step later the end-of-step refresh caught it");
    let (touching, before, w) = grown(true);
    assert!(touching, "the grown box overlaps A by 0.2 m: a contact at the next step");
    let after = w.broadphase.tight_aabb(1).unwrap();
    assert!(after.max.y - after.min.y > before.max.y - before.min.y + 1.0, "the box grew with the shape");
    // A pose edit is seen without an announcement (the box's sources are compared).
    let mut w = w;
    w.bodies[1].set_transform(Vec2::new(20.0, 0.0), 0.0);
    w.step();
    assert!(w.contacts.is_empty(), "moved away: the contact is gone");
    assert!(w.broadphase.tight_aabb(1).unwrap().min.x > 15.0);
}
