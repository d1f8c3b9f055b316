//! Time of impact: the four methods against each other on translations, a property test
//! against a densely sampled distance, a differential test against Box2D v3's
//! `b2TimeOfImpact`, the shipped presets, and continuous collision in the world
//! (`toi_parts/world.rs`).
//!
//! `TOI_DIFF_COUNT=1000000 cargo test --test toi differential -- --nocapture` runs a larger
//! differential test.

#[path = "../benches/support/box2d_world.rs"]
#[allow(dead_code)] // the test uses part of the bench support
mod box2d_world;
#[path = "toi_parts/rotating.rs"]
mod rotating;
#[path = "toi_parts/spinning_rods.rs"]
mod spinning_rods;
mod support;
#[path = "toi_parts/world.rs"]
mod world;

use manifold_lab::engine::collide::toi::{time_of_impact, ToiInput, ToiMethod, ToiOutput, ToiState};
use manifold_lab::engine::rng::SplitMix64;
use manifold_lab::peers::box2d_toi as box2d;
use proptest::prelude::*;
use support::toi::{core_distance_at, first_sample_below, random_input, relative_speed};

/// Slack for f32 round-off in distances measured independently of the methods, metres.
const ROUND_OFF: f32 = 2e-5;

#[test]
fn translation_only_sweeps_agree() {
    // The casts are exact; conservative advancement and the root finder stop within
    // `tolerance` of the target, so it is tightened to 10 µm for the comparison.
    let mut rng = SplitMix64(0x7A_3E);
    let (mut hits, mut grazing) = (0, 0);
    for case in 0..3000 {
        let mut input = random_input(&mut rng, 0.0);
        input.tolerance = 1e-5;
        let d = (input.sweep_b.translation() - input.sweep_a.translation()).length();
        let exact = time_of_impact(ToiMethod::LinearCast, &input, None);
        for m in [ToiMethod::GjkRayCast, ToiMethod::ConservativeAdvancement, ToiMethod::RootFinder] {
            let out = time_of_impact(m, &input, None);
            if out.state != exact.state {
                // Only a sweep that grazes the target distance may be called either way.
                let closest = (0..=2000).map(|k| core_distance_at(&input, k as f32 / 2000.0)).fold(f32::MAX, f32::min);
                assert!(
                    (closest - input.target).abs() < 1e-3,
                    "case {case} {m:?}: {:?} vs linear cast {:?}, closest {closest}, target {}",
                    out.state,
                    exact.state,
                    input.target
                );
                grazing += 1;
                continue;
            }
            if exact.state == ToiState::Hit {
                hits += 1;
                let err = (out.t - exact.t).abs() * d;
                assert!(err < 1e-4, "case {case} {m:?}: t {} vs {} ({err} m)", out.t, exact.t);
                if exact.t > 0.0 {
                    assert!(
                        out.normal.dot(exact.normal) > 0.99,
                        "case {case} {m:?}: {} vs {}",
                        out.normal,
                        exact.normal
                    );
                }
            }
        }
    }
    assert!(hits > 3000, "the random sweeps should hit often, {hits}");
    assert!(grazing < 30, "{grazing} grazing disagreements");
}

/// What every method's answer must satisfy against the sampled distance: no overlap beyond the
/// tolerance at the reported time, and none earlier (when `complete`); a hit is at the target.
fn check(input: &ToiInput, out: &ToiOutput, complete: bool) -> Result<(), TestCaseError> {
    let (target, tol) = (input.target, input.tolerance);
    prop_assert!(out.t.is_finite() && (0.0..=input.t_max).contains(&out.t), "{out:?}");
    let d0 = core_distance_at(input, 0.0);
    if out.state == ToiState::Overlapped {
        prop_assert!(d0 < 1e-4, "overlapped but the cores are {d0} apart");
        return Ok(());
    }
    let at = core_distance_at(input, out.t);
    prop_assert!(at >= target - tol - ROUND_OFF || d0 < target, "at t {} the cores are {at} apart: {out:?}", out.t);
    if out.state == ToiState::Hit {
        prop_assert!(at <= target + tol + ROUND_OFF, "hit at {} but the cores are {at} apart", out.t);
    }
    if complete && d0 >= target {
        let end = if out.state == ToiState::Separated { input.t_max } else { out.t };
        let skipped = first_sample_below(input, end, 400, target - tol - ROUND_OFF);
        prop_assert!(skipped.is_none(), "{:?} skipped a hit at {skipped:?} before {end}", out.state);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    /// Translations: every method is complete (none skips an earlier hit).
    #[test]
    fn translations_never_overlap_nor_skip(seed in any::<u64>()) {
        let input = random_input(&mut SplitMix64(seed), 0.0);
        for m in ToiMethod::ALL {
            check(&input, &time_of_impact(m, &input, None), true)?;
        }
    }

    /// Rotations: conservative advancement is complete; the root finder never reports a time
    /// at which the shapes overlap (Box2D: it "may miss some intermediate, non-tunneling
    /// collisions", so earlier samples are not checked for it).
    #[test]
    fn rotations_never_overlap_and_advancement_skips_nothing(seed in any::<u64>()) {
        let input = random_input(&mut SplitMix64(seed), 1.2);
        check(&input, &time_of_impact(ToiMethod::ConservativeAdvancement, &input, None), true)?;
        check(&input, &time_of_impact(ToiMethod::RootFinder, &input, None), false)?;
    }
}

#[test]
fn differential_against_box2d() {
    let count: usize = std::env::var("TOI_DIFF_COUNT").ok().and_then(|s| s.parse().ok()).unwrap_or(10_000);
    let mut rng = SplitMix64(0x70_1D1F);
    let (mut state_mismatch, mut far, mut hits) = (0, 0, 0);
    let mut seen = std::collections::BTreeSet::new();
    for case in 0..count {
        let input = random_input(&mut rng, if case % 4 == 0 { 0.0 } else { 1.2 });
        let ours = time_of_impact(ToiMethod::RootFinder, &input, None);
        let theirs = box2d::time_of_impact(&input);
        seen.insert(format!("{:?}", theirs.state));
        if ours.state != theirs.state {
            state_mismatch += 1;
            continue;
        }
        if ours.state == ToiState::Hit {
            hits += 1;
            // Both stop within the tolerance of the target distance; where their times differ
            // more than 0.1 mm of motion, ours must still be at the target (independently
            // measured).
            if (ours.t - theirs.t).abs() * relative_speed(&input) > 1e-4 {
                far += 1;
                let d = core_distance_at(&input, ours.t);
                assert!(
                    (d - input.target).abs() <= input.tolerance + ROUND_OFF,
                    "case {case}: ours t {} (cores {d} apart), Box2D t {}, target {}",
                    ours.t,
                    theirs.t,
                    input.target
                );
            }
            assert!(ours.normal.dot(theirs.normal) > 0.999 || ours.t != theirs.t, "case {case}: normals");
        } else if ours.state != ToiState::Overlapped {
            assert!((ours.t - theirs.t).abs() < 1e-6, "case {case}: {:?} at {} vs {}", ours.state, ours.t, theirs.t);
        }
    }
    println!("{count} sweeps: {hits} hits, {state_mismatch} states differ, {far} times differ by more than 0.1 mm");
    assert!(["Hit", "Overlapped", "Separated"].iter().all(|s| seen.contains(*s)), "{seen:?}");
    assert!(state_mismatch <= count / 10_000, "{state_mismatch} of {count} states differ");
    assert!(far <= count / 10_000 + 1, "{far} of {hits} hit times differ");
}

#[test]
fn shipped_presets_load_and_give_their_documented_answers() {
    use manifold_lab::scene::{PresetFile, ToiSpec};
    use ToiState::*;
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/toi");
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    // The state each method gives: linear cast, GJK ray cast, advancement, root finder,
    // certified.
    let expected = [
        ("box_onto_box.ron", [Hit, Hit, Hit, Hit, Hit]),
        ("grazing_miss.ron", [Separated, Separated, Separated, Separated, Separated]),
        ("overlapping_start.ron", [Overlapped, Overlapped, Overlapped, Overlapped, Overlapped]),
        ("root_finder_steps_over.ron", [Separated, Separated, Hit, Separated, Hit]),
        ("rotation_causes_hit.ron", [Separated, Separated, Hit, Hit, Hit]),
        ("spinning_plank.ron", [Separated, Separated, Hit, Hit, Hit]),
        ("thin_wall.ron", [Hit, Hit, Hit, Hit, Hit]),
    ];
    let names: Vec<String> = files.iter().map(|p| p.file_name().unwrap().to_string_lossy().into_owned()).collect();
    assert_eq!(names, expected.iter().map(|e| e.0).collect::<Vec<_>>(), "every preset needs an expectation");
    for (path, (name, states)) in files.iter().zip(expected) {
        let spec = ToiSpec::load(path).unwrap_or_else(|e| panic!("{e}"));
        assert!(!spec.name.is_empty() && !spec.description.is_empty(), "{name}");
        let input = spec.input();
        for (m, want) in ToiMethod::ALL.into_iter().zip(states) {
            let mut trace = manifold_lab::engine::collide::toi::ToiTrace::new();
            let out = spec.run(m, Some(&mut trace));
            assert_eq!(out.state, want, "{name} {m:?}: {out:?}");
            assert!(!trace.is_empty());
            if out.state == Hit {
                let d = core_distance_at(&input, out.t);
                assert!((d - input.target).abs() <= input.tolerance + ROUND_OFF, "{name} {m:?}: {d}");
            }
        }
    }
}
