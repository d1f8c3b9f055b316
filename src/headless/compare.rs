//! `compare`: one scene stepped in lockstep in our engine and in the peer engines (Box2D v3,
//! rapier2d), reporting each engine's time per step (same process, the engines' order
//! rotating every step), how far each peer's bodies end from ours (max and mean over the
//! dynamic bodies, per body on request), the first step where a peer's bodies differ from ours
//! by more than the tolerance, and what each translation skipped (`manifold_lab::peers`).

use super::load;
use manifold_lab::engine::{BodyKind, World};
use manifold_lab::peers::{mirror, Engine, OursWorld, PeerPose, PeerWorld};
use serde::Serialize;
use std::path::Path;
use std::time::Instant;

/// What `compare` was asked for.
pub struct CompareOptions {
    pub steps: u32,
    pub engines: Vec<Engine>,
    /// Position difference (metres) from which a peer counts as diverged.
    pub tolerance: f32,
    pub per_body: bool,
    pub json: bool,
}

/// How far one body of a peer is from ours.
#[derive(Clone, Serialize)]
pub struct BodyDiff {
    pub name: String,
    pub index: usize,
    pub position: f32,
    pub angle: f32,
}

/// Differences over the dynamic bodies at one step.
#[derive(Clone, Copy, Default, Serialize)]
pub struct Divergence {
    pub max_position: f32,
    pub mean_position: f32,
    pub max_angle: f32,
    pub mean_angle: f32,
}

/// One engine's part of the report.
#[derive(Serialize)]
pub struct EngineReport {
    pub engine: String,
    pub ms_per_step_median: f64,
    pub ms_per_step_mean: f64,
    /// Touching contacts after the last step.
    pub contacts: usize,
    /// What the translation skipped or approximated ("2 × angle joints").
    pub skipped: Vec<String>,
    /// Differences from ours after the last step (`None` for ours).
    pub final_divergence: Option<Divergence>,
    /// The first step (1-based) whose largest position difference passed the tolerance.
    pub first_divergence_step: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bodies: Option<Vec<BodyDiff>>,
}

#[derive(Serialize)]
pub struct CompareReport {
    pub scene: String,
    pub steps: u32,
    pub tolerance: f32,
    pub dynamic_bodies: usize,
    pub engines: Vec<EngineReport>,
}

/// The angle from `a` to `b`, wrapped into (−π, π].
fn angle_between(a: f32, b: f32) -> f32 {
    let d = (b - a).rem_euclid(std::f32::consts::TAU);
    if d > std::f32::consts::PI {
        d - std::f32::consts::TAU
    } else {
        d
    }
}

/// Each dynamic body's (position, angle) difference between `ours` and `peer`.
fn body_diffs(dynamic: &[usize], ours: &[PeerPose], peer: &[PeerPose]) -> Vec<(f32, f32)> {
    (dynamic.iter())
        .map(|&i| (ours[i].position.distance(peer[i].position), angle_between(ours[i].angle, peer[i].angle).abs()))
        .collect()
}

fn divergence(diffs: &[(f32, f32)]) -> Divergence {
    let n = diffs.len().max(1) as f32;
    Divergence {
        max_position: diffs.iter().map(|d| d.0).fold(0.0, f32::max),
        mean_position: diffs.iter().map(|d| d.0).sum::<f32>() / n,
        max_angle: diffs.iter().map(|d| d.1).fold(0.0, f32::max),
        mean_angle: diffs.iter().map(|d| d.1).sum::<f32>() / n,
    }
}

fn median(v: &mut [f64]) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Steps every engine `opts.steps` times in lockstep and reports.
pub fn compare_world(world: World, name: &str, opts: &CompareOptions) -> CompareReport {
    let dynamic: Vec<usize> =
        (world.bodies.iter().enumerate()).filter(|(_, b)| b.kind == BodyKind::Dynamic).map(|(i, _)| i).collect();
    let mut engines: Vec<Box<dyn PeerWorld>> = (opts.engines.iter()).filter_map(|&e| mirror(e, &world)).collect();
    engines.insert(0, Box::new(OursWorld::new(world)));
    let n = engines.len();
    let mut times = vec![Vec::with_capacity(opts.steps as usize); n];
    let mut first = vec![None; n];
    for step in 0..opts.steps {
        for k in 0..n {
            let e = (k + step as usize) % n;
            let t = Instant::now();
            engines[e].step();
            times[e].push(t.elapsed().as_secs_f64() * 1e3);
        }
        let ours = engines[0].poses();
        for e in 1..n {
            if first[e].is_none() {
                let d = divergence(&body_diffs(&dynamic, &ours, &engines[e].poses()));
                first[e] = (d.max_position > opts.tolerance).then_some(step + 1);
            }
        }
    }
    let ours = engines[0].poses();
    let reports = (engines.iter().enumerate())
        .map(|(e, w)| {
            let diffs = body_diffs(&dynamic, &ours, &w.poses());
            let mean = times[e].iter().sum::<f64>() / times[e].len().max(1) as f64;
            EngineReport {
                engine: w.engine().label().to_string(),
                ms_per_step_median: median(&mut times[e].clone()),
                ms_per_step_mean: mean,
                contacts: w.contact_count(),
                skipped: w.skipped().lines(),
                final_divergence: (e > 0).then(|| divergence(&diffs)),
                first_divergence_step: first[e],
                bodies: (opts.per_body && e > 0).then(|| {
                    (dynamic.iter().zip(&diffs))
                        .map(|(&i, &(position, angle))| BodyDiff { name: String::new(), index: i, position, angle })
                        .collect()
                }),
            }
        })
        .collect();
    CompareReport {
        scene: name.to_string(),
        steps: opts.steps,
        tolerance: opts.tolerance,
        dynamic_bodies: dynamic.len(),
        engines: reports,
    }
}

/// `manifold-lab compare SCENE`: the exit code (0, 1 for a bad file, 2 for a bad argument).
pub fn compare(path: &Path, set: &[String], opts: &CompareOptions) -> i32 {
    let scene = match load::scene(path, set) {
        Ok(s) => s,
        Err(e) => return e.report(),
    };
    let world = scene.build_world();
    let names: Vec<String> = world.bodies.iter().map(|b| b.name.clone()).collect();
    let mut report = compare_world(world, &path.display().to_string(), opts);
    for e in &mut report.engines {
        for b in e.bodies.iter_mut().flatten() {
            b.name = names[b.index].clone();
        }
    }
    if opts.json {
        return load::print_json(&report);
    }
    print_text(&report);
    0
}

fn print_text(r: &CompareReport) {
    println!("{}: {} steps, {} dynamic bodies, tolerance {} m", r.scene, r.steps, r.dynamic_bodies, r.tolerance);
    println!(
        "{:<14} {:>10} {:>10} {:>9} {:>12} {:>12} {:>10}",
        "engine", "ms/step", "mean", "contacts", "max Δpos m", "mean Δpos m", "diverged"
    );
    for e in &r.engines {
        let (max, mean) = e.final_divergence.map_or(("-".into(), "-".into()), |d| {
            (format!("{:.5}", d.max_position), format!("{:.5}", d.mean_position))
        });
        let first = match (&e.final_divergence, e.first_divergence_step) {
            (None, _) => "-".to_string(),
            (Some(_), None) => "never".to_string(),
            (Some(_), Some(s)) => format!("step {s}"),
        };
        println!(
            "{:<14} {:>10.3} {:>10.3} {:>9} {:>12} {:>12} {:>10}",
            e.engine, e.ms_per_step_median, e.ms_per_step_mean, e.contacts, max, mean, first
        );
    }
    for e in &r.engines {
        for line in &e.skipped {
            println!("not in {}: {line}", e.engine);
        }
        for b in e.bodies.iter().flatten() {
            println!(
                "  {} body {} '{}': Δpos {:.5} m, Δangle {:.5} rad",
                e.engine, b.index, b.name, b.position, b.angle
            );
        }
    }
}
