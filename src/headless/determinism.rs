//! `run SCENE --check-determinism`: the engine's determinism check on a scene file.

use super::load;
use manifold_lab::engine::determinism::check_determinism;
use std::path::Path;

/// Exit code when the scene is not deterministic.
pub const NOT_DETERMINISTIC: i32 = 4;

/// Runs the check for `steps` steps and prints the report; 0 when deterministic.
pub fn check(path: &Path, steps: u32, json: bool, set: &[String]) -> i32 {
    if super::world3d::is_3d(path) {
        eprintln!("{}: --check-determinism works on 2D scenes", path.display());
        return 2;
    }
    let scene = match load::scene(path, set) {
        Ok(s) => s,
        Err(e) => return e.report(),
    };
    let mut world = scene.build_world();
    world.refresh_contacts();
    let report = check_determinism(&world, steps as u64);
    if json {
        if load::print_json(&report) != 0 {
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
