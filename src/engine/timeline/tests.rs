use super::*;
use crate::engine::body::BodyDef;
use crate::engine::shape::Shape;
use crate::engine::solver::SolverParams;
use crate::engine::BodyKind;
use glam::Vec2;

/// A floor and a few boxes falling onto it.
fn boxes() -> World {
    let mut w = World::new(SolverParams::default());
    let floor = Shape::make_box(Vec2::new(10.0, 0.5)).unwrap();
    w.create_body(&BodyDef { name: "floor".into(), ..BodyDef::new(BodyKind::Static, floor, Vec2::new(0.0, -0.5)) });
    for i in 0..4 {
        let shape = Shape::make_box(Vec2::splat(0.5)).unwrap();
        let at = Vec2::new(i as f32 * 0.3, 1.0 + i as f32 * 1.2);
        w.create_body(&BodyDef {
            angle: 0.1 * i as f32,
            name: format!("box{i}"),
            ..BodyDef::new(BodyKind::Dynamic, shape, at)
        });
    }
    w
}

fn run(t: &mut Timeline, w: &mut World, n: u64) {
    for _ in 0..n {
        w.step();
        assert_eq!(t.observe(w, Cause::Stepped), Observed::Followed);
    }
}

#[test]
fn every_step_is_reached_with_the_hash_of_a_fresh_run() {
    let start = boxes();
    let mut w = start.clone();
    let mut t = Timeline::with_budget(&w, 4 * world_bytes(&w));
    run(&mut t, &mut w, 200);
    assert!(t.keyframe_bytes() <= t.budget());
    let mut fresh = start.clone();
    for k in 0..=200 {
        let got = t.world_at(0, k, None).expect("reachable");
        assert_eq!(got.step_count, k);
        assert_eq!(got.state_hash(), fresh.state_hash(), "step {k}");
        assert_eq!(t.current_branch().stats_at(k).unwrap().hash, fresh.state_hash());
        fresh.step();
    }
    assert!(t.world_at(0, 201, None).is_none());
}

#[test]
fn stepping_through_a_known_future_follows_it() {
    let mut w = boxes();
    let mut t = Timeline::new(&w);
    run(&mut t, &mut w, 50);
    let mut back = t.seek(0, 10, &w).unwrap();
    assert_eq!(t.cursor(), 10);
    run(&mut t, &mut back, 5);
    assert_eq!(t.cursor(), 15);
    assert_eq!(t.branches().len(), 1);
    assert_eq!(t.current_branch().newest(), 50);
}

#[test]
fn an_edit_in_the_past_branches_and_keeps_the_old_future() {
    let mut w = boxes();
    let mut t = Timeline::new(&w);
    run(&mut t, &mut w, 60);
    let old_end = w.state_hash();
    let mut past = t.seek(0, 20, &w).unwrap();
    past.bodies[2].linear_velocity.x += 3.0;
    assert_eq!(t.observe(&past, Cause::Edited), Observed::Branched(1));
    assert_eq!(t.current(), 1);
    assert_eq!(t.branch(1).unwrap().parent, Some((0, 20)));
    run(&mut t, &mut past, 10);
    assert_eq!(t.branch(1).unwrap().newest(), 30);
    // The old future is intact and the branches part at the edit.
    assert_eq!(t.world_at(0, 60, None).unwrap().state_hash(), old_end);
    assert_eq!(t.first_divergence(0, 1), Some(20));
    let other = t.world_at(0, 30, None).unwrap();
    let d = diff::diff_worlds(&past, &other);
    assert!(!d.is_empty());
    // Re-simulating the branch from its keyframes gives the state it stepped to.
    assert_eq!(t.world_at(1, 30, None).unwrap().state_hash(), past.state_hash());
}

#[test]
fn an_edit_at_the_head_pins_a_keyframe_that_seeks_reproduce() {
    let mut w = boxes();
    let mut t = Timeline::with_budget(&w, 1 << 30);
    run(&mut t, &mut w, 7);
    w.bodies[1].set_transform(Vec2::new(3.0, 4.0), 0.5);
    assert_eq!(t.observe(&w, Cause::Edited), Observed::EditedHead);
    run(&mut t, &mut w, 9);
    let seen = t.world_at(0, 16, None).unwrap();
    assert_eq!(seen.state_hash(), w.state_hash());
    assert_eq!(t.branches().len(), 1);
}

#[test]
fn a_parameter_edit_counts_even_when_poses_do_not_change() {
    let mut w = boxes();
    let mut t = Timeline::new(&w);
    run(&mut t, &mut w, 30);
    let mut past = t.seek(0, 10, &w).unwrap();
    past.params.gravity = Vec2::new(0.0, 5.0);
    assert_eq!(t.observe(&past, Cause::Edited), Observed::Branched(1));
    run(&mut t, &mut past, 5);
    // Poses agree at the edit and part after it.
    assert_eq!(t.first_divergence(0, 1), Some(11));
}

#[test]
fn a_step_that_misses_its_stored_hash_is_reported() {
    let mut w = boxes();
    let mut t = Timeline::new(&w);
    run(&mut t, &mut w, 20);
    let mut back = t.seek(0, 5, &w).unwrap();
    back.step();
    back.bodies[3].angular_velocity += 1e-3;
    assert_eq!(t.observe(&back, Cause::Stepped), Observed::Diverged { step: 6, branch: 1 });
}

#[test]
fn pinned_keyframes_past_the_budget_drop_the_oldest_steps() {
    let mut w = boxes();
    let mut t = Timeline::with_budget(&w, 10 * world_bytes(&w));
    for _ in 0..40 {
        w.step();
        w.bodies[1].angular_velocity += 0.01;
        t.observe(&w, Cause::Edited);
    }
    assert!(t.keyframe_bytes() <= t.budget());
    let b = t.current_branch();
    assert!(b.first_reachable() > 0);
    assert!(t.world_at(0, 0, None).is_none());
    assert_eq!(t.world_at(0, 40, None).unwrap().state_hash(), w.state_hash());
}

/// Steps with a recorded time: keyframes follow the cost of re-simulation.
fn run_costing(t: &mut Timeline, w: &mut World, n: u64, ms: f32) {
    for _ in 0..n {
        w.step();
        w.profile.total_ms = ms;
        assert_eq!(t.observe(w, Cause::Stepped), Observed::Followed);
    }
}

#[test]
fn keyframes_are_dense_where_steps_are_costly_and_sparse_where_they_are_cheap() {
    let mut w = boxes();
    let mut t = Timeline::with_budget(&w, 1 << 30);
    run_costing(&mut t, &mut w, 100, 2.0);
    run_costing(&mut t, &mut w, 2000, 0.0);
    let steps: Vec<u64> = t.current_branch().keyframes().map(|(&s, _)| s).collect();
    // 16 ms of 2 ms steps: every 8 steps; then the 0.02 ms floor: every 800 steps.
    let busy: Vec<u64> = steps.iter().copied().filter(|&s| s <= 100).collect();
    assert_eq!(busy, (0..=96).step_by(8).collect::<Vec<_>>());
    let quiet: Vec<u64> = steps.iter().copied().filter(|&s| s > 100).collect();
    assert_eq!(quiet.len(), 3, "{quiet:?}");
    assert!(t.current_branch().worst_seek_cost() <= FIRST_SEGMENT_MS + 2.0);
    assert_eq!(t.world_at(0, 1500, None).unwrap().step_count, 1500);
}

#[test]
fn a_small_budget_widens_the_stretch_and_keeps_seeks_within_it() {
    let start = boxes();
    let mut w = start.clone();
    let mut t = Timeline::with_budget(&w, 5 * world_bytes(&w));
    run_costing(&mut t, &mut w, 300, 1.0);
    assert!(t.keyframe_bytes() <= t.budget());
    assert!(t.segment_ms() > FIRST_SEGMENT_MS, "a small budget widens the stretch");
    let b = t.current_branch();
    assert!(b.keyframe_count() >= 3);
    assert!(b.worst_seek_cost() <= t.segment_ms() + 1.0, "{} > {}", b.worst_seek_cost(), t.segment_ms());
    let mut fresh = start.clone();
    for k in 0..=300 {
        assert_eq!(t.world_at(0, k, None).unwrap().state_hash(), fresh.state_hash(), "step {k}");
        fresh.step();
    }
}

#[test]
fn a_keyframe_is_a_snapshot_that_restores_the_view_data() {
    let mut w = boxes();
    let mut t = Timeline::with_budget(&w, 1 << 30);
    run_costing(&mut t, &mut w, 40, 2.0);
    let (&s, kf) = t.current_branch().keyframes().nth(2).unwrap();
    assert!(!kf.world.broadphase.has_proxies_for(kf.world.bodies.len()), "the tree is left out");
    let got = t.world_at(0, s, None).unwrap();
    assert!(got.broadphase.has_proxies_for(got.bodies.len()), "the shown world has its tree");
    assert_eq!(got.islands().of_body.len(), got.bodies.len());
}
