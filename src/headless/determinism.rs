//! `run SCENE --check-determinism`: the engine's determinism check on a scene file or a 3D
//! world (the same check through `determinism::Stepped`).

use super::load;
use manifold_lab::engine::determinism::{check_determinism, DeterminismReport};
use std::path::Path;

/// Exit code when the scene is not deterministic.
pub const NOT_DETERMINISTIC: i32 = 4;

/// Runs the check for `steps` steps and prints the report; 0 when deterministic.
pub fn check(path: &Path, steps: u32, json: bool, set: &[String]) -> i32 {
    let report = if super::world3d::is_3d(path) {
        match super::world3d::load(path, set) {
            Ok((_, world)) => check_determinism(&world, steps as u64),
            Err(e) => return e.report(),
        }
    } else {
        match load::scene(path, set) {
            Ok(scene) => {
                let mut world = scene.build_world();
                world.refresh_contacts();
                check_determinism(&world, steps as u64)
            }
            Err(e) => return e.report(),
        }
    };
    print_report(path, &report, json)
}

/// Prints the report as text or JSON; the exit code.
fn print_report(path: &Path, report: &DeterminismReport, json: bool) -> i32 {
    if json {
        if load::print_json(report) != 0 {
            return 1;
        }
    } else {
        println!("scene            {}", path.display());
        print!("{}", report.to_text());
    }
    if report.is_deterministic() {
        0
    } else {
        NOT_DETERMINISTIC
    }
}
