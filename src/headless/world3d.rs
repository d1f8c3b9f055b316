//! `run` and `check` for 3D world files (`World3d(...)`, see `scene::world3d`): step the world
//! and report poses as position + quaternion, the state hash and the largest joint error.

use super::load::LoadError;
use manifold_lab::engine::number::Num;
use manifold_lab::engine::world3d::{Body3, JointKind3, Part3, World3};
use manifold_lab::scene::{self, World3dScene};
use serde::Serialize;
use std::path::Path;
use std::time::Instant;

/// Final pose of one body: the hull origin and the rotation as a quaternion `[x, y, z, w]`,
/// and its hulls.
#[derive(Serialize)]
pub struct Pose3Report {
    pub name: String,
    pub position: [f32; 3],
    pub rotation: [f32; 4],
    /// One entry per hull (one for a body of one hull).
    pub shapes: Vec<HullReport>,
}

/// One hull of a body: where it sits in the body frame, its size and material.
#[derive(Serialize)]
pub struct HullReport {
    pub offset: [f32; 3],
    pub rotation: [f32; 4],
    pub vertices: usize,
    pub faces: usize,
    pub density: f32,
    pub friction: f32,
    pub restitution: f32,
}

/// The hulls of `b` for the report.
fn hull_reports(b: &Body3) -> Vec<HullReport> {
    if b.parts.is_empty() {
        let h = &b.hull;
        return vec![HullReport {
            offset: [0.0; 3],
            rotation: glam::Quat::IDENTITY.to_array(),
            vertices: h.positions().len(),
            faces: h.faces().len(),
            density: b.density,
            friction: b.friction,
            restitution: b.restitution,
        }];
    }
    let each = |p: &Part3| HullReport {
        offset: p.offset.to_array(),
        rotation: p.rotation.to_array(),
        vertices: p.hull.positions().len(),
        faces: p.hull.faces().len(),
        density: p.density,
        friction: p.friction,
        restitution: p.restitution,
    };
    b.parts.iter().map(each).collect()
}

/// One joint's final error.
#[derive(Serialize)]
pub struct JointReport {
    pub name: String,
    pub kind: &'static str,
    /// Metres (ball) or radians (orientation) about the joint basis.
    pub per_axis: [f32; 3],
    pub magnitude: f32,
}

/// One floating body's submerged fraction at the end.
#[derive(Serialize)]
pub struct FloatReport {
    pub body: String,
    pub water: String,
    pub submerged_fraction: f32,
}

/// What `run` prints for a 3D world.
#[derive(Serialize)]
pub struct Report3 {
    pub scene: String,
    pub world: &'static str,
    pub steps: u32,
    pub bodies: usize,
    pub joints: usize,
    pub contacts: usize,
    pub contact_points: usize,
    pub ms_per_step_median: f32,
    pub ms_per_step_mean: f32,
    pub collide_ms_median: f32,
    pub solve_ms_median: f32,
    pub sat_calls: usize,
    pub sat_cache_hits: usize,
    pub state_hash: String,
    /// The largest joint error at the end (radians for orientation joints, metres for ball).
    pub max_joint_error: f32,
    pub max_penetration: f32,
    pub kinetic_energy: f32,
    pub repaired_bodies: usize,
    pub joint_errors: Vec<JointReport>,
    pub floating: Vec<FloatReport>,
    pub poses: Vec<Pose3Report>,
}

fn median(v: &mut [f32]) -> f32 {
    v.sort_by(f32::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(0.0)
}

/// Steps `world` `steps` times and reports.
pub fn run_world3(mut world: World3, scene: &str, steps: u32) -> Report3 {
    let (mut total, mut collide, mut solve) = (Vec::new(), Vec::new(), Vec::new());
    let (mut sat_calls, mut hits, mut repaired) = (0, 0, 0);
    for _ in 0..steps {
        let t = Instant::now();
        world.step();
        total.push(t.elapsed().as_secs_f32() * 1000.0);
        collide.push(world.profile.collide_ms);
        solve.push(world.profile.solve_ms);
        sat_calls += world.profile.narrow.sat_calls;
        hits += world.profile.narrow.cache_hits;
        repaired += world.profile.repaired;
    }
    let mean = total.iter().sum::<f32>() / total.len().max(1) as f32;
    let joint_errors = world
        .joints
        .iter()
        .zip(world.joint_errors())
        .map(|(j, e)| JointReport {
            name: j.name.clone(),
            kind: if matches!(j.kind, JointKind3::Ball(_)) { "ball" } else { "orientation" },
            per_axis: e.per_axis.to_array(),
            magnitude: e.magnitude,
        })
        .collect();
    let floating = world
        .buoyancy
        .iter()
        .map(|r| FloatReport {
            body: world.bodies[r.body].name.clone(),
            water: world.water[r.water].name.clone(),
            submerged_fraction: r.submerged.volume / world.bodies[r.body].volume,
        })
        .collect();
    Report3 {
        scene: scene.to_string(),
        world: "3d",
        steps,
        bodies: world.bodies.len(),
        joints: world.joints.len(),
        contacts: world.contacts.len(),
        contact_points: world.contacts.iter().map(|c| c.points.len()).sum(),
        ms_per_step_median: median(&mut total),
        ms_per_step_mean: mean,
        collide_ms_median: median(&mut collide),
        solve_ms_median: median(&mut solve),
        sat_calls,
        sat_cache_hits: hits,
        state_hash: format!("{:016x}", world.state_hash()),
        max_joint_error: world.max_joint_error(),
        max_penetration: world.max_penetration(),
        kinetic_energy: world.kinetic_energy(),
        repaired_bodies: repaired,
        joint_errors,
        floating,
        poses: world
            .bodies
            .iter()
            .map(|b| Pose3Report {
                name: b.name.clone(),
                position: b.pose.p.to_array(),
                rotation: b.pose.q.to_array(),
                shapes: hull_reports(b),
            })
            .collect(),
    }
}

impl Report3 {
    pub fn to_text(&self) -> String {
        use std::fmt::Write;
        let mut s = String::new();
        let _ = writeln!(s, "scene            {} (3D world)", self.scene);
        let _ = writeln!(s, "steps            {}", self.steps);
        let _ = writeln!(s, "bodies           {} ({} joints)", self.bodies, self.joints);
        let _ = writeln!(s, "contacts         {} ({} points)", self.contacts, self.contact_points);
        let _ = writeln!(
            s,
            "ms/step          {:.3} median, {:.3} mean (collide {:.3}, solve {:.3})",
            Num(self.ms_per_step_median),
            Num(self.ms_per_step_mean),
            Num(self.collide_ms_median),
            Num(self.solve_ms_median)
        );
        let _ = writeln!(
            s,
            "SAT              {} calls, {} pairs rejected by their last axis",
            self.sat_calls, self.sat_cache_hits
        );
        let _ = writeln!(s, "state hash       {}", self.state_hash);
        let _ = writeln!(s, "max_joint_error  {:.3e}", Num(self.max_joint_error));
        for j in &self.joint_errors {
            let unit = if j.kind == "ball" { "m" } else { "rad" };
            let _ = writeln!(s, "  {:<24} {:<11} {:.3e} {unit}", j.name, j.kind, Num(j.magnitude));
        }
        let _ = writeln!(s, "max penetration  {:.5} m", Num(self.max_penetration));
        let _ = writeln!(s, "kinetic energy   {:.5} J", Num(self.kinetic_energy));
        if self.repaired_bodies > 0 {
            let _ = writeln!(s, "repaired bodies  {} (non-finite state reset)", self.repaired_bodies);
        }
        for f in &self.floating {
            let _ = writeln!(
                s,
                "floating         {:<20} in {:<12} {:.1} % submerged",
                f.body,
                f.water,
                Num(100.0 * f.submerged_fraction)
            );
        }
        let shown = 20.min(self.poses.len());
        let _ = writeln!(
            s,
            "final poses      (first {shown} of {}; --json lists all) position, quaternion (x, y, z, w)",
            self.poses.len()
        );
        for p in &self.poses[..shown] {
            let [x, y, z] = p.position;
            let [qx, qy, qz, qw] = p.rotation;
            let _ = writeln!(
                s,
                "  {:<20} ({x:>9.4}, {y:>9.4}, {z:>9.4})  ({qx:>7.4}, {qy:>7.4}, {qz:>7.4}, {qw:>7.4})",
                p.name,
                x = Num(x),
                y = Num(y),
                z = Num(z),
                qx = Num(qx),
                qy = Num(qy),
                qz = Num(qz),
                qw = Num(qw)
            );
        }
        s
    }
}

/// Loads a 3D world file with its `FIELD=VALUE` settings overrides and builds its world.
pub(super) fn load(path: &Path, set: &[String]) -> Result<(World3dScene, World3), LoadError> {
    let spec = super::load::world3d(path, set)?;
    let world = spec.build_world().map_err(|e| LoadError::File(format!("{}: {e}", path.display())))?;
    Ok((spec, world))
}

/// Whether the file at `path` is a 3D world (`None` if it cannot be read: the 2D path reports).
pub fn is_3d(path: &Path) -> bool {
    std::fs::read_to_string(path).is_ok_and(|t| scene::is_world3d_text(&t))
}

/// `manifold-lab run` on a 3D world; `set` overrides settings fields, in order.
pub fn run(path: &Path, steps: u32, json: bool, set: &[String]) -> i32 {
    let world = match load(path, set) {
        Ok((_, w)) => w,
        Err(e) => return e.report(),
    };
    let report = run_world3(world, &path.display().to_string(), steps);
    if json {
        if super::load::print_json(&report) != 0 {
            return 1;
        }
    } else {
        print!("{}", report.to_text());
    }
    0
}

/// `manifold-lab check` on a 3D world: what it holds, or the located error.
pub fn check(path: &Path) -> Result<String, String> {
    let (spec, w) = load(path, &[]).map_err(|(LoadError::File(e) | LoadError::Set(e))| e)?;
    Ok(format!("3D world: {} bodies, {} joints, {} water", w.bodies.len(), w.joints.len(), spec.water.len()))
}
