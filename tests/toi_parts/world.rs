//! Continuous collision in the world: `scenes/bullets.ron` with it on and off, and the
//! `bullet` flag against a dynamic body.

use glam::Vec2;
use manifold_lab::engine::shape::Shape;
use manifold_lab::engine::solver::SolverParams;
use manifold_lab::engine::{BodyDef, BodyKind, World};
use manifold_lab::scene;

/// What happened over a run of the bullets scene.
struct Run {
    /// Steps at which a bullet's centre went from left of a wall to right of it.
    crossings: Vec<String>,
    /// Bullets whose final centre is right of the first wall.
    right_of_wall: Vec<String>,
    /// Steps between which the post passed through the plank: in the plank's frame the post's
    /// centre changed sides of the plank's long axis while within its length.
    plank_crossings: usize,
    toi_events: usize,
}

fn run_bullets(continuous: bool, steps: usize) -> Run {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/scenes/bullets.ron");
    let mut s = scene::load(std::path::Path::new(path)).unwrap();
    s.settings.continuous = continuous;
    let mut w = s.build_world();
    let index = |name: &str| w.bodies.iter().position(|b| b.name == name).unwrap();
    let walls: Vec<f32> = w.bodies.iter().filter(|b| b.name.starts_with("wall")).map(|b| b.xf.p.x).collect();
    let bullets: Vec<usize> = (0..w.bodies.len()).filter(|&i| w.bodies[i].name.starts_with("bullet")).collect();
    let (plank, post) = (index("plank"), index("post"));
    assert!(walls.len() >= 2 && bullets.len() >= 6, "the scene has walls and bullets");
    let Shape::Polygon(p) = w.bodies[plank].shape else { panic!("the plank is a box") };
    let half_length = p.box_half_extents.unwrap().x;
    let post_local = |w: &World| w.bodies[plank].xf.apply_inv(w.bodies[post].xf.p);
    let mut run = Run { crossings: Vec::new(), right_of_wall: Vec::new(), plank_crossings: 0, toi_events: 0 };
    for step in 0..steps {
        let before: Vec<f32> = bullets.iter().map(|&i| w.bodies[i].center.x).collect();
        let local_before = post_local(&w);
        w.step();
        run.toi_events += w.profile.toi_events;
        assert!(w.profile.ccd_ms >= 0.0 && w.profile.ccd_ms.is_finite());
        for (&i, &x0) in bullets.iter().zip(&before) {
            let x1 = w.bodies[i].center.x;
            if walls.iter().any(|&wx| x0 < wx && x1 > wx) {
                run.crossings.push(format!("{} at step {step}: {x0} → {x1}", w.bodies[i].name));
            }
        }
        let local = post_local(&w);
        let within = |l: Vec2| l.x.abs() < half_length;
        if local.y * local_before.y < 0.0 && within(local) && within(local_before) {
            run.plank_crossings += 1;
        }
    }
    let first_wall = walls.iter().copied().fold(f32::MAX, f32::min);
    run.right_of_wall =
        bullets.iter().filter(|&&i| w.bodies[i].center.x > first_wall).map(|&i| w.bodies[i].name.clone()).collect();
    run
}

#[test]
fn bullets_never_tunnel_with_continuous_collision() {
    let on = run_bullets(true, 180);
    assert!(on.crossings.is_empty(), "{:?}", on.crossings);
    assert!(on.right_of_wall.is_empty(), "{:?}", on.right_of_wall);
    assert_eq!(on.plank_crossings, 0, "the post passed through the plank");
    assert!(on.toi_events >= 8, "every bullet and the plank had a time of impact: {}", on.toi_events);
}

#[test]
fn bullets_tunnel_without_it() {
    let off = run_bullets(false, 180);
    assert!(off.right_of_wall.len() >= 6, "{:?}", off.right_of_wall);
    assert!(off.crossings.len() >= 6, "{:?}", off.crossings);
    assert!(off.plank_crossings >= 1, "the plank should pass through the post");
    assert_eq!(off.toi_events, 0);
}

/// A bullet fired at a thin dynamic plate floating in front of a static wall.
fn plate_and_bullet(bullet: bool) -> (f32, f32, f32) {
    let mut w = World::new(SolverParams { gravity: Vec2::ZERO, ..Default::default() });
    let wall = w.create_body(&BodyDef::new(
        BodyKind::Static,
        Shape::make_box(Vec2::new(0.05, 3.0)).unwrap(),
        Vec2::new(12.0, 0.0),
    ));
    let plate = w.create_body(&BodyDef::new(
        BodyKind::Dynamic,
        Shape::make_box(Vec2::new(0.05, 1.0)).unwrap(),
        Vec2::new(4.0, 0.0),
    ));
    let mut def = BodyDef::new(BodyKind::Dynamic, Shape::circle(0.05).unwrap(), Vec2::new(-3.0, 0.1));
    def.linear_velocity = Vec2::new(300.0, 0.0);
    def.bullet = bullet;
    let shot = w.create_body(&def);
    for _ in 0..20 {
        w.step();
    }
    (w.bodies[shot].center.x, w.bodies[plate].center.x, w.bodies[wall].center.x)
}

#[test]
fn the_bullet_flag_also_stops_at_dynamic_bodies() {
    let (shot, plate, wall) = plate_and_bullet(true);
    assert!(shot < plate, "a bullet stays behind the plate it hit: {shot} vs {plate}");
    // Without the flag only static bodies are swept: it passes the plate, not the wall.
    let (shot, plate, wall_again) = plate_and_bullet(false);
    assert!(shot > plate && shot < wall && wall_again == wall, "{shot}, plate {plate}, wall {wall}");
}

#[test]
fn run_reports_continuous_collision_and_takes_set() {
    let scene = concat!(env!("CARGO_MANIFEST_DIR"), "/scenes/bullets.ron");
    let run = |extra: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_manifold-lab"))
            .args(["run", scene, "--steps", "30", "--json"])
            .args(extra)
            .output()
            .unwrap()
    };
    let report = |out: std::process::Output| -> serde_json::Value {
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let ball_x = |r: &serde_json::Value| {
        r["poses"].as_array().unwrap().iter().find(|p| p["name"] == "bullet_ball").unwrap()["x"].as_f64().unwrap()
    };
    let on = report(run(&[]));
    assert!(on["toi_events"].as_u64().unwrap() >= 8, "{}", on["toi_events"]);
    assert!(on["ccd_ms"].as_f64().unwrap() >= 0.0);
    assert!(ball_x(&on) < 10.0);
    let off = report(run(&["--set", "continuous=false", "--set", "hz=60"]));
    assert_eq!(off["toi_events"].as_u64(), Some(0));
    assert!(ball_x(&off) > 13.0, "the ball passes both walls: {}", ball_x(&off));
    let bad = run(&["--set", "hetz=30"]);
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(
        !bad.status.success() && err.contains("unknown solver field `hetz`") && err.contains("continuous"),
        "{err}"
    );
    let bad = run(&["--set", "continuous=maybe"]);
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(!bad.status.success() && err.contains("bad value `maybe` for `continuous`"), "{err}");
}
