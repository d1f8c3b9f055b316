//! The determinism check: run a world twice from the same start, and once more from a
//! snapshot taken mid-run (serialized and read back), comparing state hashes after every
//! step. The first divergence is reported with the body that differs most. The check runs on
//! any world that can be stepped, hashed, serialized and compared body by body ([`Stepped`]):
//! the 2D `World` and the 3D `World3`.

use super::timeline::diff::{diff_worlds, BodyDiff};
use super::world3d::World3;
use super::World;
use crate::engine::number::Num;
use serde::de::DeserializeOwned;
use serde::Serialize;

/// What the check needs of a world: a step, a state hash, a snapshot (serde) and the bodies
/// that differ from a reference state, most different first.
pub trait Stepped: Clone + Serialize + DeserializeOwned {
    fn advance(&mut self);
    fn hash(&self) -> u64;
    fn differing_bodies(&self, reference: &Self) -> Vec<BodyDiff>;
}

impl Stepped for World {
    fn advance(&mut self) {
        self.step();
    }
    fn hash(&self) -> u64 {
        self.state_hash()
    }
    fn differing_bodies(&self, reference: &World) -> Vec<BodyDiff> {
        diff_worlds(self, reference)
    }
}

impl Stepped for World3 {
    fn advance(&mut self) {
        self.step();
    }
    fn hash(&self) -> u64 {
        self.state_hash()
    }
    /// Bodies by index (a 3D world's bodies are never removed); the angle is the rotation
    /// between the two orientations.
    fn differing_bodies(&self, reference: &World3) -> Vec<BodyDiff> {
        let mut out: Vec<BodyDiff> = self
            .bodies
            .iter()
            .zip(&reference.bodies)
            .enumerate()
            .map(|(i, (a, b))| BodyDiff {
                body: i,
                name: a.name.clone(),
                position: a.center.distance(b.center),
                angle: rotation_between(a.pose.q, b.pose.q),
                velocity: (a.linear_velocity - b.linear_velocity).length(),
                angular_velocity: (a.angular_velocity - b.angular_velocity).length(),
            })
            .filter(|d| d.score() > 0.0 || d.score().is_nan())
            .collect();
        out.sort_by(|x, y| y.score().total_cmp(&x.score()));
        out
    }
}

/// Which run of the check a step belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Run {
    /// The reference run.
    First,
    /// The same start stepped again.
    Second,
    /// The reference run's mid-run state, serialized, read back and stepped on.
    Restored,
}

/// Where a run first left the reference run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Divergence {
    pub run: Run,
    /// The step after which the hashes differ (0: the restored snapshot itself differs).
    pub step: u64,
    /// The bodies that differ at that step, most different first (at most 5).
    pub bodies: Vec<BodyDiff>,
    /// How many bodies differ there.
    pub differing_bodies: usize,
}

/// What the check found.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DeterminismReport {
    pub steps: u64,
    /// The step the restored run started from.
    pub snapshot_step: u64,
    /// The reference run's final state hash.
    pub final_hash: String,
    /// One entry per run that diverged; empty when deterministic.
    pub divergences: Vec<Divergence>,
    /// Why the snapshot could not be taken or read back, if it could not.
    pub snapshot_error: Option<String>,
}

impl DeterminismReport {
    pub fn is_deterministic(&self) -> bool {
        self.divergences.is_empty() && self.snapshot_error.is_none()
    }

    /// A few lines for a terminal or the status bar.
    pub fn to_text(&self) -> String {
        let mut s =
            format!("{} steps, snapshot at step {}, final hash {}\n", self.steps, self.snapshot_step, self.final_hash);
        if let Some(e) = &self.snapshot_error {
            s += &format!("snapshot failed: {e}\n");
        }
        for d in &self.divergences {
            let run = match d.run {
                Run::First => "the reference run",
                Run::Second => "the second run",
                Run::Restored => "the run restored from the snapshot",
            };
            s += &format!("{run} diverges after step {} ({} bodies differ)\n", d.step, d.differing_bodies);
            for b in &d.bodies {
                s += &format!(
                    "  body {} `{}`: position {:.3e} m, angle {:.3e} rad, velocity {:.3e} m/s, angular velocity {:.3e} rad/s\n",
                    b.body, b.name, Num(b.position), Num(b.angle), Num(b.velocity), Num(b.angular_velocity)
                );
            }
        }
        if self.is_deterministic() {
            s += "deterministic\n";
        }
        s
    }
}

/// The angle of the rotation from `a` to `b`, `2 atan2(|v|, |w|)` of `a⁻¹ b`: exactly 0 for
/// equal orientations (glam's `angle_between` takes `acos` of a dot product, which rounds to
/// about 7e-4 rad there).
fn rotation_between(a: glam::Quat, b: glam::Quat) -> f32 {
    let d = a.conjugate() * b;
    2.0 * glam::Vec3::new(d.x, d.y, d.z).length().atan2(d.w.abs())
}

/// Checks that `start` steps the same way each time for `steps` steps.
pub fn check_determinism<W: Stepped>(start: &W, steps: u64) -> DeterminismReport {
    check_determinism_with(start, steps, |w, _| w.advance())
}

/// The check with a stepping function of its own (tests plant a nondeterminism this way):
/// `step(world, run)` must advance `world` by one step.
pub fn check_determinism_with<W: Stepped>(
    start: &W,
    steps: u64,
    mut step: impl FnMut(&mut W, Run),
) -> DeterminismReport {
    let snapshot_step = steps / 2;
    let mut w = start.clone();
    let mut hashes = Vec::with_capacity(steps as usize + 1);
    hashes.push(w.hash());
    let mut snapshot = None;
    for k in 1..=steps {
        if k - 1 == snapshot_step {
            snapshot = Some(serde_json::to_string(&w));
        }
        step(&mut w, Run::First);
        hashes.push(w.hash());
    }
    let snapshot = snapshot.unwrap_or_else(|| serde_json::to_string(&w));
    let mut report = DeterminismReport {
        steps,
        snapshot_step,
        final_hash: format!("{:016x}", hashes[steps as usize]),
        divergences: Vec::new(),
        snapshot_error: None,
    };
    // The reference state at a step, stepped again from the start (only when a run diverged).
    let reference_at = |k: u64, step: &mut dyn FnMut(&mut W, Run)| {
        let mut r = start.clone();
        for _ in 0..k {
            step(&mut r, Run::First);
        }
        r
    };

    let mut second = start.clone();
    if let Some(k) = follow(&mut second, 0, &hashes, &mut |w| step(w, Run::Second)) {
        let r = reference_at(k, &mut step);
        report.divergences.push(divergence(Run::Second, k, &second, &r));
    }

    let restored = snapshot
        .map_err(|e| e.to_string())
        .and_then(|json| serde_json::from_str::<W>(&json).map_err(|e| e.to_string()));
    match restored {
        Err(e) => report.snapshot_error = Some(e),
        Ok(mut w) => {
            if let Some(k) = follow(&mut w, snapshot_step, &hashes, &mut |w| step(w, Run::Restored)) {
                let r = reference_at(k, &mut step);
                report.divergences.push(divergence(Run::Restored, k, &w, &r));
            }
        }
    }
    report
}

/// Steps `w` (at step `from`) to the end of `hashes`, stopping at the first step whose hash
/// differs; returns that step.
fn follow<W: Stepped>(w: &mut W, from: u64, hashes: &[u64], step: &mut dyn FnMut(&mut W)) -> Option<u64> {
    if w.hash() != hashes[from as usize] {
        return Some(from);
    }
    for k in from + 1..hashes.len() as u64 {
        step(w);
        if w.hash() != hashes[k as usize] {
            return Some(k);
        }
    }
    None
}

fn divergence<W: Stepped>(run: Run, step: u64, w: &W, reference: &W) -> Divergence {
    let mut bodies = w.differing_bodies(reference);
    let differing_bodies = bodies.len();
    bodies.truncate(5);
    Divergence { run, step, bodies, differing_bodies }
}
