//! Headless commands: `run` (play a script, step a scene and report) and `check` (validate
//! every kind of file the app opens, in `check`). Files whose top-level struct is `World3d(...)` are 3D worlds, handled by
//! `world3d`.

mod check;
#[cfg(feature = "peers")]
pub mod compare;
pub mod determinism;
pub mod load;
pub mod progress;
pub mod replay;
mod world3d;

pub use check::check;

use crate::app::script::ScriptPlayer;
use manifold_lab::engine::number::Num;
use manifold_lab::engine::shape::Shape;
use manifold_lab::engine::World;

use serde::Serialize;
use std::path::Path;
use std::time::Instant;

/// Final pose of one body.
#[derive(Serialize)]
pub struct Pose {
    pub name: String,
    pub x: f32,
    pub y: f32,
    pub angle: f32,
}

/// One body at the end of the run.
#[derive(Serialize)]
pub struct BodyReport {
    pub name: String,
    /// `Static`, `Kinematic` or `Dynamic`.
    pub kind: String,
    /// `Circle`, `Polygon` or `Capsule`; `Compound` for a body of several shapes.
    pub shape: String,
    /// The origin of its shape.
    pub x: f32,
    pub y: f32,
    pub angle: f32,
    /// Its shape's area (m²) and its mass (0 for static and kinematic bodies).
    pub area: f32,
    pub mass: f32,
    /// Every shape of the body, one entry per shape (one for a body of one shape).
    pub shapes: Vec<ShapeReport>,
}

/// One shape of a body: its kind, where it sits in the body frame, its area, material and
/// filter.
#[derive(Serialize)]
pub struct ShapeReport {
    /// `Circle`, `Polygon` or `Capsule`.
    pub kind: String,
    /// Its frame in the body frame (0 for a body of one shape).
    pub offset_x: f32,
    pub offset_y: f32,
    pub angle: f32,
    pub area: f32,
    pub density: f32,
    pub friction: f32,
    pub restitution: f32,
    pub category_bits: u32,
    pub mask_bits: u32,
}

fn shape_kind(shape: &Shape) -> &'static str {
    match shape {
        Shape::Circle(_) => "Circle",
        Shape::Polygon(_) => "Polygon",
        Shape::Capsule(_) => "Capsule",
    }
}

impl ShapeReport {
    fn of(b: &manifold_lab::engine::Body, k: usize) -> ShapeReport {
        let (shape, (offset, angle)) = match b.parts.get(k) {
            Some(p) => (&p.shape, (p.offset, p.angle)),
            None => (&b.shape, (glam::Vec2::ZERO, 0.0)),
        };
        let material = b.material_at(k);
        let (category_bits, mask_bits) = b.filter_at(k);
        ShapeReport {
            kind: shape_kind(shape).into(),
            offset_x: offset.x,
            offset_y: offset.y,
            angle,
            area: shape.mass_data(1.0).area,
            density: material.density,
            friction: material.friction,
            restitution: material.restitution,
            category_bits,
            mask_bits,
        }
    }
}

impl BodyReport {
    fn of(b: &manifold_lab::engine::Body) -> BodyReport {
        let shapes: Vec<ShapeReport> = (0..b.shape_count()).map(|k| ShapeReport::of(b, k)).collect();
        BodyReport {
            name: b.name.clone(),
            kind: format!("{:?}", b.kind),
            shape: if b.parts.is_empty() { shape_kind(&b.shape).into() } else { "Compound".into() },
            x: b.xf.p.x,
            y: b.xf.p.y,
            angle: b.angle,
            area: shapes.iter().map(|s| s.area).sum(),
            mass: b.mass,
            shapes,
        }
    }
}

/// What `run` prints.
#[derive(Serialize)]
pub struct Report {
    pub scene: String,
    /// Frames of the script played before the steps (0 without `--script`).
    pub script_frames: u32,
    pub steps: u32,
    pub body_count: usize,
    pub contacts: usize,
    pub contact_points: usize,
    pub joints: usize,
    pub islands: usize,
    pub awake_bodies: usize,
    /// Joints removed during the run because they broke.
    pub broken_joints: usize,
    /// Largest positional error of any joint at the end, metres.
    pub max_joint_error: f32,
    pub ms_per_step_median: f32,
    pub ms_per_step_mean: f32,
    pub broadphase_ms_median: f32,
    pub narrowphase_ms_median: f32,
    pub solve_ms_median: f32,
    /// Continuous collision, ms per step (median).
    pub ccd_ms: f32,
    /// Bodies moved back to a time of impact, over the whole run.
    pub toi_events: usize,
    /// Water (buoyancy, drag, surface), ms per step (median); 0 without water.
    pub water_ms: f32,
    /// Bodies touching the water at the end.
    pub bodies_in_water: usize,
    /// Broadphase time over total step time, percent (medians).
    pub broadphase_share_percent: f32,
    pub tree_height: i32,
    pub tree_area_ratio: f32,
    pub broadphase_pairs: usize,
    pub state_hash: String,
    pub max_penetration: f32,
    pub kinetic_energy: f32,
    pub repaired_bodies: usize,
    /// Steps in which the broadphase reached a pair limit (`MAX_NEW_PAIRS`, `MAX_PAIRS`) and put off finding
    /// pairs: bodies piled on top of each other.
    pub pair_limit_steps: u32,
    /// Steps in which the solver left contacts of a pile unsolved (`SOLVED_PER_BODY`).
    pub capped_steps: u32,
    /// Every body's name and final pose.
    pub poses: Vec<Pose>,
    /// Every body with its kind, shape, pose, area and mass.
    pub bodies: Vec<BodyReport>,
}

fn median(v: &mut [f32]) -> f32 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(f32::total_cmp);
    v[v.len() / 2]
}

/// Steps `world` `steps` times and reports; a long run shows `progress`.
pub fn run_world(mut world: World, scene: &str, steps: u32, progress: &mut progress::Progress) -> Report {
    let mut total = Vec::with_capacity(steps as usize);
    let (mut bp, mut np, mut sv, mut ccd) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut water = Vec::new();
    let (mut repaired, mut toi_events, mut pair_limit_steps, mut capped_steps) = (0, 0, 0, 0);
    for k in 0..steps {
        progress.set(k as u64);
        let t = Instant::now();
        world.step();
        total.push(t.elapsed().as_secs_f32() * 1000.0);
        bp.push(world.profile.broadphase_ms);
        np.push(world.profile.narrowphase_ms);
        sv.push(world.profile.solve_ms);
        ccd.push(world.profile.ccd_ms);
        water.push(world.profile.water_ms);
        repaired += world.profile.repaired;
        toi_events += world.profile.toi_events;
        pair_limit_steps += (world.broadphase.stats.deferred > 0) as u32;
        capped_steps += (world.profile.capped > 0) as u32;
    }
    let mean = if total.is_empty() { 0.0 } else { total.iter().sum::<f32>() / total.len() as f32 };
    let (total_median, bp_median) = (median(&mut total), median(&mut bp));
    let tree = world.broadphase.tree.metrics();
    Report {
        scene: scene.to_string(),
        script_frames: 0,
        steps,
        body_count: world.bodies.len(),
        contacts: world.contacts.len(),
        contact_points: world.contacts.iter().map(|c| c.manifold.count).sum(),
        joints: world.joints().len(),
        islands: world.island_count(),
        awake_bodies: world.awake_body_count(),
        broken_joints: world.broken_joints,
        max_joint_error: world.max_joint_error(),
        ms_per_step_median: total_median,
        ms_per_step_mean: mean,
        broadphase_ms_median: bp_median,
        broadphase_share_percent: if total_median > 0.0 { 100.0 * bp_median / total_median } else { 0.0 },
        tree_height: tree.height,
        tree_area_ratio: tree.area_ratio,
        broadphase_pairs: world.broadphase.pairs().len(),
        narrowphase_ms_median: median(&mut np),
        solve_ms_median: median(&mut sv),
        ccd_ms: median(&mut ccd),
        toi_events,
        water_ms: median(&mut water),
        bodies_in_water: world.water().map_or(0, |w| w.reports.len()),
        state_hash: format!("{:016x}", world.state_hash()),
        max_penetration: world.max_penetration(),
        kinetic_energy: world.kinetic_energy(),
        repaired_bodies: repaired,
        pair_limit_steps,
        capped_steps,
        poses: world
            .bodies
            .iter()
            .map(|b| Pose { name: b.name.clone(), x: b.xf.p.x, y: b.xf.p.y, angle: b.angle })
            .collect(),
        bodies: world.bodies.iter().map(BodyReport::of).collect(),
    }
}

impl Report {
    /// The lines about what went wrong or hit a limit: repaired bodies, the pair limit, the
    /// solver's pile cap.
    fn write_warnings(&self, s: &mut String) {
        use std::fmt::Write;
        if self.repaired_bodies > 0 {
            let _ = writeln!(s, "repaired bodies  {} (non-finite state reset)", self.repaired_bodies);
        }
        if self.pair_limit_steps > 0 {
            let _ = writeln!(
                s,
                "warning          the broadphase reached its pair limit in {} steps (at most {} new pairs a \
                 step, {} in all): bodies overlap in piles, and their contacts are found over several steps",
                self.pair_limit_steps,
                manifold_lab::engine::broadphase::MAX_NEW_PAIRS,
                manifold_lab::engine::broadphase::MAX_PAIRS
            );
        }
        if self.capped_steps > 0 {
            let _ = writeln!(
                s,
                "warning          in {} steps the solver left contacts of piled bodies unsolved: a body \
                 solves at most {} contacts with other moving bodies when a step has over {} contacts",
                self.capped_steps,
                manifold_lab::engine::solver::graph::SOLVED_PER_BODY,
                manifold_lab::engine::solver::graph::CAPPED_ABOVE
            );
        }
    }

    pub fn to_text(&self) -> String {
        let mut s = String::new();
        use std::fmt::Write;
        let _ = writeln!(s, "scene            {}", self.scene);
        if self.script_frames > 0 {
            let _ = writeln!(s, "script           {} frames", self.script_frames);
        }
        let _ = writeln!(s, "steps            {}", self.steps);
        let _ = writeln!(s, "bodies           {}", self.body_count);
        let _ = writeln!(s, "contacts         {} ({} points)", self.contacts, self.contact_points);
        let _ = writeln!(
            s,
            "joints           {} ({} broken), max joint error {:.5} m",
            self.joints,
            self.broken_joints,
            Num(self.max_joint_error)
        );
        let _ = writeln!(s, "islands          {} ({} awake bodies)", self.islands, self.awake_bodies);
        let _ = writeln!(
            s,
            "ms/step          {:.3} median, {:.3} mean (broadphase {:.3}, narrowphase {:.3}, solve {:.3})",
            Num(self.ms_per_step_median),
            Num(self.ms_per_step_mean),
            Num(self.broadphase_ms_median),
            Num(self.narrowphase_ms_median),
            Num(self.solve_ms_median)
        );
        let _ = writeln!(
            s,
            "continuous       {:.3} ms/step median, {} time-of-impact events",
            Num(self.ccd_ms),
            self.toi_events
        );
        if self.water_ms > 0.0 || self.bodies_in_water > 0 {
            let _ = writeln!(
                s,
                "water            {:.3} ms/step median, {} bodies in the water",
                Num(self.water_ms),
                self.bodies_in_water
            );
        }
        let _ = writeln!(
            s,
            "broadphase       {:.1}% of the step; tree height {}, area ratio {:.2}, {} pairs",
            Num(self.broadphase_share_percent),
            self.tree_height,
            Num(self.tree_area_ratio),
            self.broadphase_pairs
        );
        let _ = writeln!(s, "state hash       {}", self.state_hash);
        let _ = writeln!(s, "max penetration  {:.5} m", Num(self.max_penetration));
        let _ = writeln!(s, "kinetic energy   {:.5} J", Num(self.kinetic_energy));
        self.write_warnings(&mut s);
        let shown = 20.min(self.bodies.len());
        let _ = writeln!(s, "final poses      (first {shown} of {}; --json lists all)", self.bodies.len());
        for p in &self.bodies[..shown] {
            let _ = writeln!(
                s,
                "  {:<16} x {:>10.4}  y {:>10.4}  angle {:>8.4}  area {:>8.4}  mass {:>8.4}",
                p.name,
                Num(p.x),
                Num(p.y),
                Num(p.angle),
                Num(p.area),
                Num(p.mass)
            );
        }
        s
    }
}

/// `manifold-lab run`; `set` holds `FIELD=VALUE` solver overrides, applied in order. With a
/// script, the script is played first as `screenshot` plays it (one step per frame while
/// running), then `steps` more steps are run.
pub fn run(path: &Path, steps: u32, json: bool, set: &[String], script: Option<&Path>) -> i32 {
    if world3d::is_3d(path) {
        return world3d::run(path, steps, json, set);
    }
    let scene = match load::scene(path, set) {
        Ok(s) => s,
        Err(e) => return e.report(),
    };
    let (world, script_frames) = match script {
        None => (scene.build_world(), 0),
        Some(script) => {
            let player = match ScriptPlayer::load(script) {
                Ok(p) => p,
                Err(e) => {
                    eprintln!("{e}");
                    return 2;
                }
            };
            let mut app = crate::app::state::App::new(scene, Some(path.to_path_buf()));
            match crate::app::script::play_headless(&mut app, player) {
                Ok(frames) => (app.stage.world, frames),
                Err(e) => {
                    eprintln!("{e}");
                    return 3;
                }
            }
        }
    };
    let mut progress = progress::Progress::new(steps as u64, "running", json);
    let mut report = run_world(world, &path.display().to_string(), steps, &mut progress);
    progress.finish();
    report.script_frames = script_frames;
    if json {
        if load::print_json(&report) != 0 {
            return 1;
        }
    } else {
        print!("{}", report.to_text());
    }
    0
}
