//! The Joint panel (right side, when a joint is selected): kind, bodies, every parameter of
//! its kind editable live, its reaction force and torque and its current error. Widgets push
//! `Action::SetJoint` with one `JointParam` per change.

use crate::app::stage::Stage;
use crate::app::state::Action;
use crate::app::tools::joints::JointParam;
use egui_macroquad::egui::{self, RichText};
use manifold_lab::engine::debug::DrawOptions;
use manifold_lab::engine::number::Num;
use manifold_lab::engine::solver::joints::{
    AngleJoint, DistanceJoint, PrismaticJoint, RevoluteJoint, WeldJoint, WheelJoint,
};
use manifold_lab::engine::solver::Joint;
use manifold_lab::engine::World;

/// Length of the longest reaction arrow, pixels.
pub const REACTION_ARROW_PX: f32 = 90.0;

/// The newtons that a reaction arrow of `REACTION_ARROW_PX` stands for: the largest joint
/// reaction force rounded up to 1, 2 or 5 times a power of ten, so the scale stays put while
/// forces vary a little. `None` without joints or forces.
pub fn reaction_unit(w: &World) -> Option<f32> {
    let max = (0..w.joints().len()).filter_map(|k| w.joint_reaction(k)).map(|r| r.force.length()).fold(0.0, f32::max);
    if !(max.is_finite() && max > 1e-6) {
        return None;
    }
    let decade = 10f32.powf(max.log10().floor());
    [1.0, 2.0, 5.0, 10.0].iter().map(|m| m * decade).find(|&n| n >= max)
}

/// Metres of reaction arrow per newton for a view of `px` metres per pixel (the engine's
/// `DrawOptions::force_scale`; its default when no joint pulls).
pub fn reaction_scale(w: &World, px: f32) -> f32 {
    reaction_unit(w).map_or(DrawOptions::default().force_scale, |n| REACTION_ARROW_PX * px / n)
}

/// Collects the edits of one frame as `SetJoint` actions for joint `k`.
struct Edits<'a> {
    k: usize,
    out: &'a mut Vec<Action>,
}

impl Edits<'_> {
    fn push(&mut self, param: JointParam) {
        self.out.push(Action::SetJoint { joint: self.k, param });
    }

    /// A grid row with a labelled switch.
    fn switch(&mut self, ui: &mut egui::Ui, label: &str, on: bool, make: fn(bool) -> JointParam) {
        let mut v = on;
        if ui.checkbox(&mut v, label).changed() {
            self.push(make(v));
        }
        ui.label("");
        ui.end_row();
    }
}

/// A grid row with a number field; returns the new value when it changed.
fn number(ui: &mut egui::Ui, label: &str, v: f32, speed: f64, unit: &str) -> Option<f32> {
    ui.label(label);
    let mut x = v;
    let changed = ui.add(egui::DragValue::new(&mut x).speed(speed).max_decimals(3).suffix(unit)).changed();
    ui.end_row();
    changed.then_some(x)
}

/// A grid row for an angle stored in radians and shown in degrees.
fn degrees(ui: &mut egui::Ui, label: &str, rad: f32) -> Option<f32> {
    number(ui, label, rad.to_degrees(), 0.5, " °").map(f32::to_radians)
}

/// A grid row for an optional positive value (a checkbox turns it on).
fn optional(ui: &mut egui::Ui, label: &str, v: Option<f32>, default: f32, unit: &str) -> Option<Option<f32>> {
    let mut changed = None;
    let mut on = v.is_some();
    if ui.checkbox(&mut on, label).changed() {
        changed = Some(on.then_some(v.unwrap_or(default)));
    }
    if let Some(mut x) = v {
        let drag = egui::DragValue::new(&mut x).speed(0.01 * default.max(1.0)).range(1e-3..=1e6).suffix(unit);
        if ui.add(drag).changed() {
            changed = Some(Some(x));
        }
    } else {
        ui.label(RichText::new("off").weak());
    }
    ui.end_row();
    changed
}

/// The panel for joint `k` of the app's world.
pub fn joint_details(ui: &mut egui::Ui, app: &Stage, k: usize, out: &mut Vec<Action>) {
    let w = &app.world;
    let Some(joint) = w.joints().get(k) else { return };
    ui.heading(format!("Joint #{k} · {}", joint.kind().label()));
    let (a, b) = joint.bodies();
    let name = |i: usize| match w.bodies.get(i) {
        Some(body) if !body.name.is_empty() => format!("{} (#{i})", body.name),
        _ => format!("body #{i}"),
    };
    egui::Grid::new("joint_bodies").num_columns(2).show(ui, |ui| {
        for (label, i) in [("body A", a), ("body B", b)] {
            ui.label(label);
            if ui.link(name(i)).on_hover_text("Select this body").clicked() {
                out.push(Action::Select(Some(i)));
            }
            ui.end_row();
        }
    });
    let mut e = Edits { k, out };
    ui.separator();
    egui::Grid::new("joint_params").num_columns(2).show(ui, |ui| {
        let base = joint.base();
        e.switch(ui, "collide connected", base.collide_connected, JointParam::CollideConnected);
        if let Some(v) = optional(ui, "break force", base.break_force, 1000.0, " N") {
            e.push(JointParam::BreakForce(v));
        }
        if let Some(v) = optional(ui, "break torque", base.break_torque, 1000.0, " N·m") {
            e.push(JointParam::BreakTorque(v));
        }
        match joint {
            Joint::Angle(j) => angle(ui, j, &mut e),
            Joint::Revolute(j) => revolute(ui, j, &mut e),
            Joint::Prismatic(j) => prismatic(ui, j, &mut e),
            Joint::Distance(j) => distance(ui, j, &mut e),
            Joint::Weld(j) => weld(ui, j, &mut e),
            Joint::Wheel(j) => wheel(ui, j, &mut e),
        }
    });
    ui.separator();
    state(ui, app, k, joint);
    if ui.button("Clear selection").clicked() {
        out.push(Action::SelectJoint(None));
    }
}

/// Reaction, error and the joint's current angle.
fn state(ui: &mut egui::Ui, app: &Stage, k: usize, joint: &Joint) {
    let w = &app.world;
    egui::Grid::new("joint_state").num_columns(2).show(ui, |ui| {
        // Values wrapped at the panel's edge: a large reaction's components go on to a second
        // line rather than run out of the panel.
        let mut row = |label: &str, text: String| {
            ui.label(label);
            ui.add(egui::Label::new(RichText::new(text).monospace()).wrap());
            ui.end_row();
        };
        if let Some(r) = w.joint_reaction(k) {
            row("reaction force", format!("{:.2} N", Num(r.force.length())));
            row("  (x, y)", format!("({:.1}, {:.1})", Num(r.force.x), Num(r.force.y)));
            row("reaction torque", format!("{:.3} N·m", Num(r.torque)));
        }
        if let Some((lin, ang)) = w.joint_error(k) {
            row("error", format!("{:.2} mm", Num(1000.0 * lin)));
            row("angular error", format!("{:.3}°", Num(ang.to_degrees())));
        }
        row("relative angle", format!("{:.2}°", Num(joint.joint_angle(&w.bodies).to_degrees())));
        if let Some(n) = reaction_unit(w) {
            row(
                "arrow scale",
                format!("{REACTION_ARROW_PX:.0} px = {n} N", REACTION_ARROW_PX = Num(REACTION_ARROW_PX)),
            );
        }
        let (a, b) = joint.bodies();
        let awake = |i: usize| w.bodies.get(i).is_some_and(|b| b.awake);
        row("bodies", format!("{}, {}", sleep_word(awake(a)), sleep_word(awake(b))));
    });
}

fn sleep_word(awake: bool) -> &'static str {
    if awake {
        "awake"
    } else {
        "asleep"
    }
}

fn angle(ui: &mut egui::Ui, j: &AngleJoint, e: &mut Edits) {
    if let Some(t) = degrees(ui, "target angle", j.target_angle) {
        e.push(JointParam::Target(t));
    }
    if let Some(v) = optional(ui, "max torque", j.max_torque, 10.0, " N·m") {
        e.push(JointParam::MaxTorque(v));
    }
}

/// The limit switch and its two ends (in degrees when `angular`).
fn limits(ui: &mut egui::Ui, e: &mut Edits, on: bool, lower: f32, upper: f32, angular: bool) {
    e.switch(ui, "limit", on, JointParam::EnableLimit);
    let (lo, hi) = if angular {
        (degrees(ui, "  lower", lower), degrees(ui, "  upper", upper))
    } else {
        (number(ui, "  lower", lower, 0.01, " m"), number(ui, "  upper", upper, 0.01, " m"))
    };
    if lo.is_some() || hi.is_some() {
        let (lower, upper) = (lo.unwrap_or(lower), hi.unwrap_or(upper));
        // Dragging one end past the other drags both.
        let (lower, upper) = if lo.is_some() { (lower, upper.max(lower)) } else { (lower.min(upper), upper) };
        e.push(JointParam::Limits { lower, upper });
    }
}

/// The motor switch, speed and strength.
fn motor(ui: &mut egui::Ui, e: &mut Edits, on: bool, speed: f32, max: f32, angular: bool) {
    e.switch(ui, "motor", on, JointParam::EnableMotor);
    let (speed_unit, max_label, max_unit) =
        if angular { (" rad/s", "  max torque", " N·m") } else { (" m/s", "  max force", " N") };
    if let Some(s) = number(ui, "  speed", speed, 0.05, speed_unit) {
        e.push(JointParam::MotorSpeed(s));
    }
    if let Some(m) = number(ui, max_label, max, 0.5, max_unit) {
        e.push(JointParam::MaxMotor(m.max(0.0)));
    }
}

/// The spring switch (if the kind has one), stiffness and damping ratio.
fn spring(ui: &mut egui::Ui, e: &mut Edits, on: Option<bool>, hertz: f32, damping_ratio: f32) {
    if let Some(on) = on {
        e.switch(ui, "spring", on, JointParam::EnableSpring);
    }
    let h = number(ui, "  hertz", hertz, 0.05, " Hz");
    let z = number(ui, "  damping ratio", damping_ratio, 0.01, "");
    if h.is_some() || z.is_some() {
        let (hertz, damping_ratio) = (h.unwrap_or(hertz).max(0.0), z.unwrap_or(damping_ratio).max(0.0));
        e.push(JointParam::Spring { hertz, damping_ratio });
    }
}

fn revolute(ui: &mut egui::Ui, j: &RevoluteJoint, e: &mut Edits) {
    limits(ui, e, j.enable_limit, j.lower_angle, j.upper_angle, true);
    motor(ui, e, j.enable_motor, j.motor_speed, j.max_motor_torque, true);
    spring(ui, e, Some(j.enable_spring), j.hertz, j.damping_ratio);
    if let Some(t) = degrees(ui, "  target angle", j.target_angle) {
        e.push(JointParam::Target(t));
    }
}

fn prismatic(ui: &mut egui::Ui, j: &PrismaticJoint, e: &mut Edits) {
    limits(ui, e, j.enable_limit, j.lower_translation, j.upper_translation, false);
    motor(ui, e, j.enable_motor, j.motor_speed, j.max_motor_force, false);
    spring(ui, e, Some(j.enable_spring), j.hertz, j.damping_ratio);
    if let Some(t) = number(ui, "  rest translation", j.target_translation, 0.01, " m") {
        e.push(JointParam::Target(t));
    }
}

fn distance(ui: &mut egui::Ui, j: &DistanceJoint, e: &mut Edits) {
    if let Some(l) = number(ui, "length", j.length, 0.01, " m") {
        e.push(JointParam::Length(l.max(1e-3)));
    }
    e.switch(ui, "length range", j.enable_limit, JointParam::EnableLimit);
    // An unbounded maximum (f32::MAX) is shown as a large number rather than overflowing.
    let max_shown = j.max_length.min(1.0e6);
    let lo = number(ui, "  min", j.min_length, 0.01, " m");
    let hi = number(ui, "  max", max_shown, 0.01, " m");
    if lo.is_some() || hi.is_some() {
        let min = lo.unwrap_or(j.min_length).max(0.0);
        let max = hi.unwrap_or(max_shown).max(min).max(1e-3);
        e.push(JointParam::LengthRange { min, max });
    }
    spring(ui, e, Some(j.enable_spring), j.hertz, j.damping_ratio);
    motor(ui, e, j.enable_motor, j.motor_speed, j.max_motor_force, false);
}

fn weld(ui: &mut egui::Ui, j: &WeldJoint, e: &mut Edits) {
    ui.label(RichText::new("linear (0 Hz = rigid)").small());
    ui.end_row();
    spring(ui, e, None, j.linear_hertz, j.linear_damping_ratio);
    ui.label(RichText::new("angular (0 Hz = rigid)").small());
    ui.end_row();
    let h = number(ui, "  hertz", j.angular_hertz, 0.05, " Hz");
    let z = number(ui, "  damping ratio", j.angular_damping_ratio, 0.01, "");
    if h.is_some() || z.is_some() {
        let hertz = h.unwrap_or(j.angular_hertz).max(0.0);
        let damping_ratio = z.unwrap_or(j.angular_damping_ratio).max(0.0);
        e.push(JointParam::AngularSpring { hertz, damping_ratio });
    }
}

fn wheel(ui: &mut egui::Ui, j: &WheelJoint, e: &mut Edits) {
    spring(ui, e, Some(j.enable_spring), j.hertz, j.damping_ratio);
    limits(ui, e, j.enable_limit, j.lower_translation, j.upper_translation, false);
    motor(ui, e, j.enable_motor, j.motor_speed, j.max_motor_torque, true);
}
