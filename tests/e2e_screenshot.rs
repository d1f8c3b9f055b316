//! End to end: the real binary opens its window (under Xvfb in CI), plays a script that
//! selects, drags and rotates a body and turns on a layer, and writes a PNG. The test checks
//! the picture: not blank, and the layer colours where the world says they should be.

mod support;

use image::RgbaImage;
use std::path::PathBuf;
use std::process::Command;
use support::x_display;

fn out_path(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    dir.join(name)
}

/// Pixels inside a rectangle whose colour passes `pred` (on `[r, g, b]` as i32). Colours are
/// tested by hue, since anti-aliased thin lines blend with the background.
fn count(img: &RgbaImage, (x0, y0, x1, y1): (u32, u32, u32, u32), pred: impl Fn([i32; 3]) -> bool) -> usize {
    let mut n = 0;
    for y in y0..y1.min(img.height()) {
        for x in x0..x1.min(img.width()) {
            let p = img.get_pixel(x, y);
            if pred([p[0] as i32, p[1] as i32, p[2] as i32]) {
                n += 1;
            }
        }
    }
    n
}

fn selection_yellow([r, g, b]: [i32; 3]) -> bool {
    r > 200 && g > 170 && b < 120
}
fn aabb_magenta([r, g, b]: [i32; 3]) -> bool {
    r > g + 50 && b > g + 50
}
/// A dynamic body's orange: its outline, or its darker translucent fill over the background.
fn dynamic_orange([r, g, b]: [i32; 3]) -> bool {
    r > 80 && r > g + 15 && g > b + 8
}
fn static_green([r, g, b]: [i32; 3]) -> bool {
    g > r + 15 && g > b + 15
}

#[derive(serde::Deserialize)]
struct ShotInfo {
    viewport_min: [f32; 2],
    viewport_size: [f32; 2],
    camera_center: [f32; 2],
    camera_height: f32,
    selected_centers: Vec<[f32; 2]>,
    selected_angles: Vec<f32>,
    inset: Option<[f32; 4]>,
    #[serde(default)]
    bodies: Vec<BodyInfo>,
    #[serde(default)]
    bodies_in_water: Option<usize>,
    frame_ms_median: f32,
    frames_timed: usize,
    frame_parts_ms: std::collections::BTreeMap<String, f32>,
}

#[derive(serde::Deserialize)]
struct BodyInfo {
    name: String,
    center: [f32; 2],
}

impl ShotInfo {
    fn body(&self, name: &str) -> [f32; 2] {
        self.bodies.iter().find(|b| b.name == name).unwrap_or_else(|| panic!("no body {name}")).center
    }
}

impl ShotInfo {
    fn to_pixel(&self, w: [f32; 2]) -> (i64, i64) {
        let s = self.camera_height / self.viewport_size[1];
        let cx = self.viewport_min[0] + 0.5 * self.viewport_size[0];
        let cy = self.viewport_min[1] + 0.5 * self.viewport_size[1];
        ((cx + (w[0] - self.camera_center[0]) / s) as i64, (cy - (w[1] - self.camera_center[1]) / s) as i64)
    }
}

/// Runs `manifold-lab screenshot ARGS --out target/tmp/NAME` and returns the picture and its
/// sidecar (viewport, camera, selection).
fn shoot(name: &str, args: &[&str]) -> (RgbaImage, ShotInfo) {
    let out = out_path(name);
    let _ = std::fs::remove_file(&out);
    let output = x_display::output(|| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_manifold-lab"));
        c.current_dir(env!("CARGO_MANIFEST_DIR")).arg("screenshot").args(args).arg("--out").arg(&out);
        c
    });
    assert!(
        output.status.success(),
        "screenshot command failed: {}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    let img = image::open(&out).expect("a PNG was written").to_rgba8();
    let info = std::fs::read_to_string(out.with_extension("json")).expect("shot info written");
    (img, serde_json::from_str(&info).expect("shot info parses"))
}

#[test]
fn screenshot_shows_selection_aabbs_and_bodies() {
    let (img, info) = shoot(
        "e2e_select_drag.png",
        &["scenes/vertical_stack.ron", "--frames", "3", "--script", "tests/scripts/select_drag.ron"],
    );
    assert_eq!((img.width(), img.height()), (1280, 720));

    // The frames after the script are timed: of the 3 rendered, the last is written before it
    // is presented, so 2 are whole; each part of a frame is a finite time.
    assert_eq!(info.frames_timed, 2);
    let parts: Vec<&str> = info.frame_parts_ms.keys().map(String::as_str).collect();
    assert_eq!(parts, ["panels", "panels_paint", "present", "world"]);
    assert!(info.frame_parts_ms.values().all(|&ms| ms >= 0.0 && ms.is_finite()));
    assert!(info.frame_ms_median > 0.0);

    // Not blank: many distinct colours.
    let mut colours = std::collections::HashSet::new();
    for p in img.pixels().step_by(7) {
        colours.insert([p[0], p[1], p[2]]);
    }
    assert!(colours.len() > 200, "only {} colours: the picture looks blank", colours.len());

    assert_eq!(info.selected_centers.len(), 1, "the script selected one body");
    let c = info.selected_centers[0];
    // The script dragged the top box from (0, 9.5) to (3, 8) and turned it; two steps of
    // gravity move it by millimetres only.
    assert!((c[0] - 3.0).abs() < 0.05 && (c[1] - 8.0).abs() < 0.05, "selected body at {c:?}, expected near (3, 8)");
    assert!(
        info.selected_angles[0] > 0.5 && info.selected_angles[0] < 1.5,
        "rotated by the handle drag: {:?}",
        info.selected_angles
    );

    let (w, h) = (img.width(), img.height());
    let viewport_left = info.viewport_min[0] as u32;
    // Selected body (yellow) around its centre, and nowhere near the stack it came from.
    let (px, py) = info.to_pixel(c);
    let around = |x: i64, y: i64, r: i64| {
        let clamp = |v: i64, max: u32| v.clamp(0, max as i64) as u32;
        (clamp(x - r, w), clamp(y - r, h), clamp(x + r, w), clamp(y + r, h))
    };
    let sel = count(&img, around(px, py, 60), selection_yellow);
    assert!(sel > 100, "selection colour near the dragged body: {sel} pixels");
    let (sx, sy) = info.to_pixel([0.0, 5.0]);
    let sel_at_stack = count(&img, around(sx, sy, 20), selection_yellow);
    assert_eq!(sel_at_stack, 0, "the stack is not selected");
    // AABB layer (magenta) turned on by the script: around the dragged, rotated box.
    let aabb = count(&img, around(px, py, 60), aabb_magenta);
    assert!(aabb > 50, "AABB layer pixels near the rotated box: {aabb}");
    // Dynamic bodies (orange) at the stack, the static ground (green) below y = 0.
    let dynamic = count(&img, around(sx, sy, 40), dynamic_orange);
    assert!(dynamic > 50, "dynamic body pixels at the stack: {dynamic}");
    let (gx, gy) = info.to_pixel([0.0, -1.0]);
    let ground = count(&img, around(gx, gy, 30), static_green);
    assert!(ground > 500, "static ground pixels: {ground}");
    // Panels are drawn outside the viewport (left of it).
    let panel = count(&img, (0, 0, viewport_left.max(1), h), |[r, g, b]| {
        (r - 27).abs() < 6 && (g - 27).abs() < 6 && (b - 27).abs() < 6
    });
    assert!(panel > 1000, "the controls panel should be visible left of the viewport");
}

#[test]
fn manifold_lab_screenshot_shows_faces_planes_and_both_shapes() {
    let (img, info) = shoot(
        "e2e_manifold_lab.png",
        &[
            "--lab",
            "manifold",
            "scenes/pairs/box_on_box.ron",
            "--frames",
            "2",
            "--script",
            "tests/scripts/manifold_lab.ron",
        ],
    );
    let (w, h) = (img.width(), img.height());
    let around = |c: [f32; 2], r: i64| {
        let (x, y) = info.to_pixel(c);
        let clamp = |v: i64, max: u32| v.clamp(0, max as i64) as u32;
        (clamp(x - r, w), clamp(y - r, h), clamp(x + r, w), clamp(y + r, h))
    };
    // Shape A (blue) around the origin and B (orange) around (0.75, 0.92).
    let blue = count(&img, around([0.0, 0.0], 40), |[r, g, b]| b > r + 40 && b > g);
    assert!(blue > 300, "shape A pixels: {blue}");
    let orange = count(&img, around([0.75, 1.0], 30), |[r, g, b]| r > g + 25 && g >= b && r > 80);
    assert!(orange > 100, "shape B pixels: {orange}");
    // Stage 3 (side planes): the reference face (green) along A's top, the side planes
    // (violet) crossing it, and the incident face (pink).
    let reference = count(&img, around([0.0, 0.5], 60), |[r, g, b]| g > 200 && r < 140 && b > 100 && b < 200);
    assert!(reference > 40, "reference face pixels: {reference}");
    let planes = count(&img, around([1.0, 1.5], 40), |[r, g, b]| b > 200 && r > 140 && g < 190 && r < 220);
    assert!(planes > 20, "side plane pixels: {planes}");
    let incident = count(&img, around([0.75, 0.45], 40), |[r, g, b]| r > 200 && g < 140 && b > 150);
    assert!(incident > 20, "incident face pixels: {incident}");
}

#[test]
fn minkowski_lab_screenshot_shows_configuration_space() {
    let (img, info) = shoot(
        "e2e_minkowski_lab.png",
        &[
            "--lab",
            "minkowski",
            "scenes/pairs/polygons.ron",
            "--frames",
            "2",
            "--script",
            "tests/scripts/minkowski_lab.ron",
        ],
    );
    let [x, y, w, h] = info.inset.expect("the Minkowski lab has a configuration-space inset");
    let inset = (x as u32, y as u32, (x + w) as u32, (y + h) as u32);
    // The world view (left of the inset) shows both shapes; the inset does not repeat them.
    assert!(info.viewport_min[0] + info.viewport_size[0] <= x + 1.0);
    // Minkowski edges from A (red) and from B (green), and the GJK simplex (orange).
    let red = count(&img, inset, |[r, g, b]| r > 200 && g < 120 && b < 120);
    let green = count(&img, inset, |[r, g, b]| g > 160 && r < 100 && b < 140);
    let orange = count(&img, inset, |[r, g, b]| r > 200 && g > 110 && g < 190 && b < 80);
    assert!(red > 40 && green > 40, "Minkowski edge pixels: red {red}, green {green}");
    assert!(orange > 20, "GJK simplex pixels: {orange}");
    // Shape A (blue) is drawn in the world half, not in configuration space.
    let left = (info.viewport_min[0] as u32, 0, x as u32, img.height());
    assert!(count(&img, left, |[r, g, b]| b > r + 40 && b > g) > 500);
}

#[test]
fn tree_lab_screenshot_shows_the_query_and_its_hits() {
    let (img, info) =
        shoot("e2e_tree_lab.png", &["--lab", "tree", "--frames", "1", "--script", "tests/scripts/tree_lab.ron"]);
    // The query box (green) spans (20, 20)-(35, 32); hit leaves (yellow) lie inside it, and
    // none far away from it.
    let rect = |a: [f32; 2], b: [f32; 2]| {
        let (x0, y0) = info.to_pixel([a[0], b[1]]);
        let (x1, y1) = info.to_pixel([b[0], a[1]]);
        (x0.max(0) as u32, y0.max(0) as u32, x1.max(0) as u32, y1.max(0) as u32)
    };
    let yellow = |[r, g, b]: [i32; 3]| r > 200 && g > 170 && b < 120;
    let inside = count(&img, rect([18.0, 18.0], [37.0, 34.0]), yellow);
    let far = count(&img, rect([45.0, 45.0], [60.0, 60.0]), yellow);
    assert!(inside > 100, "hit leaves inside the query: {inside}");
    assert_eq!(far, 0, "no hits far from the query");
    let green = count(&img, rect([18.0, 18.0], [37.0, 34.0]), |[r, g, b]| g > 200 && r < 160 && b < 160);
    assert!(green > 50, "query box outline: {green}");
}

#[test]
fn hull3d_lab_screenshot_shows_both_hulls_the_winner_and_the_gauss_maps() {
    let (img, info) = shoot(
        "e2e_hull3d_lab.png",
        &[
            "--lab",
            "hull3d",
            "scenes/hulls/article_tetrahedron_cube.ron",
            "--frames",
            "2",
            "--script",
            "tests/scripts/hull3d_lab.ron",
        ],
    );
    let [ix, iy, iw, ih] = info.inset.expect("the 3D lab has a Gauss-map inset");
    let inset = (ix as u32, iy as u32, (ix + iw) as u32, (iy + ih) as u32);
    let vx = info.viewport_min[0] as u32;
    let (vw, vh) = (info.viewport_size[0] as u32, info.viewport_size[1] as u32);
    assert!(ix >= vx as f32 && ix + iw <= (vx + vw) as f32, "the inset is inside the viewport");
    // The main view, left of the inset: A's blue and B's orange faces and edges, the winning
    // edge pair in the winner colour.
    let main = (vx, 0, ix as u32, vh);
    let blue = |[r, g, b]: [i32; 3]| b > r + 40 && b > g;
    let orange = |[r, g, b]: [i32; 3]| r > g + 25 && g > b + 10 && r > 120;
    let yellow = |[r, g, b]: [i32; 3]| r > 200 && g > 200 && b < 120;
    let (a, b, w) = (count(&img, main, blue), count(&img, main, orange), count(&img, main, yellow));
    assert!(a > 3000, "hull A (blue) pixels: {a}");
    assert!(b > 3000, "hull B (orange) pixels: {b}");
    assert!(w > 150, "winner highlight (yellow) pixels: {w}");
    // The inset: both Gauss maps, and the winning pair's crossing in the winner colour.
    let (ga, gb, gw) = (count(&img, inset, blue), count(&img, inset, orange), count(&img, inset, yellow));
    assert!(ga > 150 && gb > 150, "Gauss-map arcs: A {ga}, -B {gb}");
    assert!(gw > 30, "winning crossing in the inset: {gw}");
    // The inset hides the 3D view behind it: its plate is dark and opaque.
    let plate = count(&img, inset, |[r, g, b]| r < 20 && g < 20 && b < 25);
    assert!(plate > (iw * ih * 0.15) as usize, "inset plate pixels: {plate}");
}

#[test]
fn hull3d_clip_stage_shows_the_reference_face_a_side_plane_and_the_clipped_polygon() {
    let (img, info) = shoot(
        "e2e_hull3d_clip.png",
        &[
            "--lab",
            "hull3d",
            "scenes/hulls/cube_on_cube.ron",
            "--frames",
            "2",
            "--script",
            "tests/scripts/hull3d_clip.ron",
        ],
    );
    let vx = info.viewport_min[0] as u32;
    let main = (vx, 0, vx + info.viewport_size[0] as u32, info.viewport_size[1] as u32);
    // Side plane 2 of 4: the reference face (green), the plane's wall and the vertices it made
    // (violet), the polygon after it (yellow) and the vertex it cut off (red).
    let green = |[r, g, b]: [i32; 3]| g > 200 && r < 150 && b > 110 && b < 210;
    let violet = |[r, g, b]: [i32; 3]| b > 200 && r > 140 && r < 225 && g < 190 && b > g + 40;
    let yellow = |[r, g, b]: [i32; 3]| r > 200 && g > 190 && b < 130;
    let red = |[r, g, b]: [i32; 3]| r > 200 && g < 110 && b < 110;
    let [g, v, y, r] = [green, violet, yellow, red].map(|f| count(&img, main, f));
    assert!(g > 300, "reference face (green) pixels: {g}");
    assert!(v > 300, "side plane (violet) pixels: {v}");
    assert!(y > 300, "clipped polygon (yellow) pixels: {y}");
    assert!(r > 30, "the cut-off vertex (red) pixels: {r}");
    // The SAT picture of the same pair, seen the same way, has none of the clipping's faces
    // and planes: the colours above are the stage's.
    let script = std::env::temp_dir().join(format!("e2e_hull3d_no_clip_{}.ron", std::process::id()));
    std::fs::write(&script, "[Do(Lab(Hull3d(Orbit(yaw: 0.5, pitch: 0.25)))), Wait(2)]").unwrap();
    let args = ["--lab", "hull3d", "scenes/hulls/cube_on_cube.ron", "--frames", "2", "--script"];
    let (sat, _) = shoot("e2e_hull3d_no_clip.png", &[&args[..], &[script.to_str().unwrap()]].concat());
    let [g0, v0] = [green, violet].map(|f| count(&sat, main, f));
    assert!(g0 < g / 10 && v0 < v / 10, "the SAT picture: green {g0}, violet {v0}");
}

#[test]
fn toi_lab_screenshot_shows_the_sweep_the_impact_and_configuration_space() {
    let (img, info) = shoot(
        "e2e_toi_lab.png",
        &["--lab", "toi", "scenes/toi/box_onto_box.ron", "--frames", "2", "--script", "tests/scripts/toi_lab.ron"],
    );
    let [x, y, w, h] = info.inset.expect("the linear cast has a configuration-space view");
    let inset = (x as u32, y as u32, (x + w) as u32, (y + h) as u32);
    let main = (info.viewport_min[0] as u32, 0, x as u32, img.height());
    // A (red) and B (green) along their sweeps, the impact pose in the winner colour (yellow).
    let red = |[r, g, b]: [i32; 3]| r > g + 40 && r > b + 40;
    let green = |[r, g, b]: [i32; 3]| g > r + 35 && g > b + 20;
    let yellow = |[r, g, b]: [i32; 3]| r > 200 && g > 200 && b < 120;
    assert!(count(&img, main, red) > 300, "shape A pixels: {}", count(&img, main, red));
    assert!(count(&img, main, green) > 300, "shape B pixels: {}", count(&img, main, green));
    assert!(count(&img, main, yellow) > 100, "impact pose pixels: {}", count(&img, main, yellow));
    // Configuration space: the Minkowski difference's edges (red from A, green from B) and the
    // ray (yellow-green) with the hit in the winner colour.
    assert!(count(&img, inset, red) > 30 && count(&img, inset, green) > 30, "Minkowski edges in the inset");
    assert!(count(&img, inset, yellow) > 20, "the hit in configuration space");
}

#[test]
fn world3d_lab_screenshot_shows_hulls_water_buoyancy_and_the_selection() {
    let (img, info) = shoot(
        "e2e_world3d_lab.png",
        &["--lab", "world3d", "scenes/world3d/float.ron", "--frames", "2", "--script", "tests/scripts/world3d_lab.ron"],
    );
    let [vx, vy] = info.viewport_min.map(|v| v as u32);
    let [vw, vh] = info.viewport_size.map(|v| v as u32);
    let main = (vx, vy, vx + vw, vy + vh);
    // Each layer in its own colour: the water (blue), the centres of buoyancy with their force
    // arrows and labels (cyan), the dynamic hulls (orange), the selected cube (yellow), the
    // static tanks (green).
    let water = |[r, g, b]: [i32; 3]| b > r + 50 && b > g + 15 && g < 180;
    let cyan = |[r, g, b]: [i32; 3]| g > 180 && b > 220 && r < 150;
    let orange = |[r, g, b]: [i32; 3]| r > g + 25 && g > b + 10 && r > 120;
    let yellow = |[r, g, b]: [i32; 3]| r > 200 && g > 200 && b < 120;
    let green = |[r, g, b]: [i32; 3]| g > r + 30 && g > b + 30;
    let counts = [water, cyan, orange, yellow, green].map(|p| count(&img, main, p));
    let [w, c, o, y, g] = counts;
    assert!(w > 5000, "water pixels: {counts:?}");
    assert!(c > 300, "buoyancy pixels: {counts:?}");
    assert!(o > 1000, "dynamic hull pixels: {counts:?}");
    assert!(y > 150, "selected hull pixels: {counts:?}");
    assert!(g > 3000, "static tank pixels: {counts:?}");
}

/// A square of `r` pixels around the world point `w`, clipped to the picture.
fn around(img: &RgbaImage, info: &ShotInfo, w: [f32; 2], r: i64) -> (u32, u32, u32, u32) {
    let (x, y) = info.to_pixel(w);
    let clamp = |v: i64, max: u32| v.clamp(0, max as i64) as u32;
    (clamp(x - r, img.width()), clamp(y - r, img.height()), clamp(x + r, img.width()), clamp(y + r, img.height()))
}

/// The water below the surface: the background tinted blue (translucent).
fn water_blue([r, g, b]: [i32; 3]) -> bool {
    b > r + 30 && b > g + 15 && b < 140
}

#[test]
fn slice_lab_screenshot_shows_the_cases_the_intersection_and_both_pieces() {
    let (img, info) = shoot(
        "e2e_slice_lab.png",
        &["--lab", "slice", "scenes/slice/octagon.ron", "--frames", "1", "--script", "tests/scripts/slice_lab.ron"],
    );
    let view = (info.viewport_min[0] as u32, 0, (info.viewport_min[0] + info.viewport_size[0]) as u32, img.height());
    // The part behind (blue), the part in front (orange), the intersection (pink), the
    // out–in / in–out edges (green / violet), the knife (white).
    let blue = |[r, g, b]: [i32; 3]| b > 200 && g > 140 && r < 130;
    let orange = |[r, g, b]: [i32; 3]| r > 200 && g > 110 && g < 190 && b < 100;
    let pink = |[r, g, b]: [i32; 3]| r > 200 && g < 100 && b > 120;
    let white = |[r, g, b]: [i32; 3]| r > 225 && g > 225 && b > 225;
    for (name, pred, min) in [("behind", &blue as &dyn Fn([i32; 3]) -> bool, 150), ("front", &orange, 150)] {
        let n = count(&img, view, pred);
        assert!(n > min, "{name} part: {n} pixels");
    }
    assert!(count(&img, view, pink) > 30, "intersection: {} pixels", count(&img, view, pink));
    assert!(count(&img, view, white) > 200, "knife: {} pixels", count(&img, view, white));
}

#[test]
fn hull_lab_screenshot_shows_the_hull_so_far_the_edge_its_outside_set_and_the_cone() {
    let (img, info) = shoot(
        "e2e_hull_lab.png",
        &["--lab", "hull", "scenes/hull/scatter.ron", "--frames", "1", "--script", "tests/scripts/hull_lab.ron"],
    );
    let view = (info.viewport_min[0] as u32, 0, (info.viewport_min[0] + info.viewport_size[0]) as u32, img.height());
    // The hull so far (violet), the chosen edge (gold), the new cone (green), the farthest point
    // (pink), crosses on the dropped points (red).
    let violet = |[r, g, b]: [i32; 3]| b > 200 && r > 110 && r < 190 && g < 140;
    let gold = |[r, g, b]: [i32; 3]| r > 220 && g > 190 && b < 80;
    let green = |[r, g, b]: [i32; 3]| g > 200 && r < 160 && b < 160;
    let pink = |[r, g, b]: [i32; 3]| r > 220 && g < 110 && b > 120 && b < 200;
    let red = |[r, g, b]: [i32; 3]| r > 220 && g < 110 && b < 110;
    for (name, pred, min) in [
        ("hull so far", &violet as &dyn Fn([i32; 3]) -> bool, 200),
        ("chosen edge", &gold, 100),
        ("new cone", &green, 100),
        ("farthest point", &pink, 20),
        ("dropped", &red, 20),
    ] {
        let n = count(&img, view, pred);
        assert!(n > min, "{name}: {n} pixels");
    }
}

#[test]
fn buoyancy_screenshot_shows_translucent_water_submerged_parts_and_forces() {
    let (img, info) =
        shoot("e2e_buoyancy.png", &["scenes/buoyancy.ron", "--frames", "1", "--script", "tests/scripts/buoyancy.ron"]);
    assert!(info.bodies_in_water.unwrap_or(0) >= 6, "bodies in the water: {:?}", info.bodies_in_water);
    // Open water below the surface is tinted blue; the air above it is not.
    let below = count(&img, around(&img, &info, [-6.0, -2.5], 20), water_blue);
    let above = count(&img, around(&img, &info, [-6.0, 1.8], 20), water_blue);
    assert!(below > 1200 && above == 0, "water pixels below {below}, above {above}");
    // The half-density box floats half under: its lower half is tinted by its submerged part,
    // its upper half keeps the body colour (sampled beside the arrow up its middle).
    let c = info.body("half_density_box");
    let submerged = |[r, _, b]: [i32; 3]| b > r + 20;
    let lower = count(&img, around(&img, &info, [c[0] + 0.25, c[1] - 0.25], 8), submerged);
    let upper = count(&img, around(&img, &info, [c[0] + 0.25, c[1] + 0.25], 8), submerged);
    assert!(lower > 150 && upper < 30, "submerged tint below the waterline {lower}, above {upper}");
    // The buoyancy arrows (cyan) rise from the centres of buoyancy.
    let cyan = |[r, g, b]: [i32; 3]| g > 200 && b > 200 && r < 170;
    let arrows = count(&img, around(&img, &info, [c[0], c[1]], 40), cyan);
    assert!(arrows > 20, "buoyancy arrow pixels: {arrows}");
}

#[test]
fn waves_screenshot_shows_the_simulated_surface_and_the_splash() {
    let (img, info) =
        shoot("e2e_waves.png", &["scenes/waves.ron", "--frames", "1", "--script", "tests/scripts/waves.ron"]);
    assert!(info.bodies_in_water.unwrap_or(0) >= 4, "the boats, the raft and the ball: {:?}", info.bodies_in_water);
    let below = count(&img, around(&img, &info, [-10.5, -3.0], 20), water_blue);
    assert!(below > 1200, "water pixels {below}");
    // The surface line (light blue) is not flat after the splash: it crosses rows above and
    // below the level somewhere in the open water.
    let surface = |[r, g, b]: [i32; 3]| b > 200 && g > 150 && r > 80 && r < 160;
    let (_, level_y) = info.to_pixel([0.0, 0.0]);
    let (x0, _) = info.to_pixel([-11.5, 0.0]);
    let (x1, _) = info.to_pixel([11.5, 0.0]);
    let off_level =
        |dy: i64| count(&img, (x0 as u32, (level_y + dy) as u32, x1 as u32, (level_y + dy + 1) as u32), surface);
    let rows = (-40..40).filter(|&dy| !(-2..=2).contains(&dy) && off_level(dy) > 0).count();
    assert!(rows > 3, "the surface stays on the level: {rows} rows off it");
}

#[test]
fn joint_scene_screenshot_shows_joints_the_selected_one_and_reactions() {
    let (img, info) = shoot(
        "e2e_chain_joint.png",
        &["scenes/chain.ron", "--frames", "2", "--script", "tests/scripts/chain_joint.ron"],
    );
    let json = std::fs::read_to_string(out_path("e2e_chain_joint.json")).expect("shot info written");
    let state: serde_json::Value = serde_json::from_str(&json).unwrap();
    // The script's click on the anchor at (2.5, 30) selected joint 5, between link_4 and link_5.
    let joint = &state["selected_joint"];
    assert_eq!(joint["index"], 5, "{joint}");
    assert_eq!((joint["body_a"].as_str(), joint["body_b"].as_str()), (Some("link_4"), Some("link_5")));
    assert!(state["selected"].as_array().unwrap().is_empty(), "no body selected");
    assert_eq!(state["joints"], 31);
    let (w, h) = (img.width(), img.height());
    let around = |c: [f32; 2], r: i64| {
        let (x, y) = info.to_pixel(c);
        let clamp = |v: i64, max: u32| v.clamp(0, max as i64) as u32;
        (clamp(x - r, w), clamp(y - r, h), clamp(x + r, w), clamp(y + r, h))
    };
    let anchor = [joint["anchor_b"][0].as_f64().unwrap() as f32, joint["anchor_b"][1].as_f64().unwrap() as f32];
    // The joint layer (bright green) at unselected joints along the chain, away from the
    // selected one.
    let joint_green = |[r, g, b]: [i32; 3]| g > 200 && g > r + 60 && g > b + 60;
    let far = [anchor[0] + 5.0, anchor[1]];
    let green = count(&img, around(far, 30), joint_green);
    assert!(green > 20, "joint layer pixels along the chain: {green}");
    // The selected joint in the selection colour, a ring around its anchor.
    let ring = count(&img, around(anchor, 12), selection_yellow);
    assert!(ring > 15, "selected joint ring pixels: {ring}");
    // Reaction arrows (pink) hang below the chain: the links' weight pulls them down.
    let pink = count(&img, around([anchor[0] + 5.0, anchor[1] - 1.5], 60), |[r, g, b]| r > 200 && g < 140 && b > 100);
    assert!(pink > 20, "reaction arrow pixels: {pink}");
}

#[test]
fn timeline_screenshot_shows_plots_and_the_old_branch_as_a_ghost() {
    let (img, info) = shoot(
        "e2e_timeline.png",
        &["scenes/vertical_stack.ron", "--frames", "1", "--script", "tests/scripts/timeline_branch.ron"],
    );
    let (w, h) = (img.width(), img.height());
    // The thrown box is far from the stack; the old branch's box_9 is still on top of it,
    // drawn as a violet outline.
    let c = info.body("box_9");
    assert!(c[0] > 2.0, "box_9 was thrown sideways: {c:?}");
    let (gx, gy) = info.to_pixel([0.0, 9.5]);
    let clamp = |v: i64, max: u32| v.clamp(0, max as i64) as u32;
    let ghost =
        count(&img, (clamp(gx - 40, w), clamp(gy - 40, h), clamp(gx + 40, w), clamp(gy + 40, h)), |[r, g, b]| {
            (r - 190).abs() < 30 && (g - 150).abs() < 30 && (b - 255).abs() < 30
        });
    assert!(ghost > 40, "ghost outline pixels where the old branch's box is: {ghost}");
    // Under the view: the timeline's plots (light blue lines) and its cursor (yellow).
    let below = (info.viewport_min[1] + info.viewport_size[1]) as u32;
    let plot = count(&img, (0, below, w, h), |[r, g, b]| (r - 110).abs() < 25 && (g - 190).abs() < 25 && b > 220);
    assert!(plot > 300, "counter plot pixels under the view: {plot}");
    let cursor = count(&img, (0, below, w, h), |[r, g, b]| r > 190 && g > 170 && b < 110);
    assert!(cursor > 60, "the plots' cursor lines: {cursor}");
}

#[test]
fn a_failing_script_step_stops_the_screenshot_at_its_place() {
    let dir = out_path("failing_step");
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("s.ron");
    std::fs::write(&script, "[\n  Wait(2),\n  Do(SelectNamed(\"nobody\")),\n  Wait(2),\n]\n").unwrap();
    let out = dir.join("never.png");
    let _ = std::fs::remove_file(&out);
    let output = x_display::output(|| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_manifold-lab"));
        c.current_dir(env!("CARGO_MANIFEST_DIR")).arg("screenshot").arg("scenes/pyramid.ron");
        c.arg("--script").arg(&script).arg("--out").arg(&out);
        c
    });
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(3), "{stderr}");
    let place = format!("{}:3:3: the step failed:", script.display());
    assert!(stderr.contains(&place) && stderr.contains("nobody"), "{stderr}");
    assert!(!out.exists(), "no screenshot of a script that did not finish");
}
