//! The range of every number a scene may hold, in one place (the limits table in
//! docs/scene-format.md is this file). Values outside are located errors that state the
//! range: a number that passes here cannot overflow the engine (positions, speeds and masses
//! stay far inside f32) nor feed energy into it (restitution at most 1).

/// Positions, origins, points and generator spacings: |x|, |y| ≤ 100 km (Box2D's `B2_HUGE`).
pub const MAX_COORDINATE: f32 = 1.0e5;
/// Initial linear speed, m/s: the engine's default speed clamp.
pub const MAX_SPEED: f32 = 400.0;
/// Initial angular speed, rad/s.
pub const MAX_ANGULAR_SPEED: f32 = 1.0e3;
/// Angles, radians.
pub const MAX_ANGLE: f32 = 1.0e4;
/// Density, kg/m² (steel is about 8,000 kg/m³).
pub const MAX_DENSITY: f32 = 1.0e5;
/// Friction coefficient (10 already never slips).
pub const MAX_FRICTION: f32 = 10.0;
/// Restitution: above 1 a bounce adds energy, without bound.
pub const MAX_RESTITUTION: f32 = 1.0;
/// Linear and angular damping, 1/s.
pub const MAX_DAMPING: f32 = 1.0e3;
/// Gravity scale, either sign.
pub const MAX_GRAVITY_SCALE: f32 = 100.0;
/// Joint motor torques and forces, spring stiffness, break thresholds.
pub const MAX_FORCE: f32 = 1.0e9;
/// Joint motor speeds (rad/s or m/s).
pub const MAX_MOTOR_SPEED: f32 = 1.0e4;
/// Spring and constraint frequencies, Hz, and damping ratios.
pub const MAX_HERTZ: f32 = 1.0e4;
/// How far a joint's anchor may lie from a dynamic body's origin, metres (`joint_arms`).
pub const MAX_JOINT_ARM: f32 = 100.0;
/// Points of one `Hull(points)` shape: its hull keeps at most 8 vertices, and welding the
/// points is quadratic in their count.
pub const MAX_HULL_POINTS: usize = 256;
/// Bodies in one scene, explicit and generated together: a 30,000-body rain steps in under
/// 100 ms here (docs/scene-format.md, Limits); 100,000 took 180 ms a step and more pairs than
/// the broadphase keeps (`broadphase::MAX_PAIRS`).
pub const MAX_BODIES: usize = 30_000;

/// `Ok` when every coordinate of `p` is within ±[`MAX_COORDINATE`], else the message.
pub fn check_point(field: &str, p: glam::Vec2) -> Result<(), String> {
    if p.x.abs() <= MAX_COORDINATE && p.y.abs() <= MAX_COORDINATE {
        Ok(())
    } else {
        Err(format!(
            "`{field}` must lie within ±{MAX_COORDINATE} m on each axis, got ({}, {})",
            number(p.x),
            number(p.y)
        ))
    }
}

/// `v` as a file would write it: plain, or in exponent form when very large or very small.
pub fn number(v: f32) -> String {
    if v != 0.0 && v.is_finite() && !(1e-4..1e6).contains(&v.abs()) {
        format!("{v:e}")
    } else {
        // `+ 0.0` turns a negative zero into zero: "-0" is not a number anyone wrote.
        (v + 0.0).to_string()
    }
}

/// 3D worlds (`World3d` files) share the ranges above (positions, speeds, density, friction,
/// restitution, damping, forces, hertz) and add these.
///
/// Smallest density of a 3D body, kg/m³ (a hundredth of air's).
pub const MIN_DENSITY_3D: f32 = 0.01;
/// Smallest half extent, radius, height and hull thickness of a 3D shape, m: 2D's smallest
/// size (`engine::shape::MIN_EXTENT`).
pub const MIN_SIZE_3D: f32 = crate::engine::shape::MIN_EXTENT;
/// Largest half extent, radius or height of a 3D shape, and largest coordinate of a hull
/// point in its own frame, m: a cube this size at the largest density weighs 8e17 kg, its
/// inertia stays far inside f32.
pub const MAX_SIZE_3D: f32 = 1.0e4;
/// Bodies in one 3D world. A step's pairs are bounded per body
/// (`engine::world3d::pairs::MAX_PAIRS_3D`): 1,000 cubes created at one point take at most
/// about 0.1 s per step in a release build (7.9 s without the bound).
pub const MAX_BODIES_3D: usize = 1_000;
/// Water basins in one 3D world, and waves on one basin (each buoyancy sample sums them).
pub const MAX_WATER_3D: usize = 64;
pub const MAX_WAVES_3D: usize = 64;
/// Joints in one 3D world.
pub const MAX_JOINTS_3D: usize = 10_000;

/// `Ok` when `lo ≤ v ≤ hi`, else the message stating the range (as the scene fields word it).
pub(crate) fn check_range(field: &str, v: f32, lo: f32, hi: f32) -> Result<(), String> {
    if (lo..=hi).contains(&v) {
        Ok(())
    } else {
        let what = if v.is_finite() { "" } else { "a finite number " };
        Err(format!("`{field}` must be {what}in [{lo}, {hi}], got {}", number(v)))
    }
}
