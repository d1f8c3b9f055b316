//! The valid values of every solver setting, stated in `--set` errors (`--set hz=0: ...;
//! valid `hz`: 1 to 10000`), for 2D scenes and 3D worlds. The ranges are those of
//! [`crate::engine::solver::SolverParams::validate`] and
//! [`crate::engine::world3d::World3Params::validate`]; a test sets each field to its bounds and
//! past them, so these tables cannot drift from them.

use std::fmt;

/// What a setting accepts.
#[derive(Clone, Copy, Debug)]
pub enum Valid {
    /// A number in `[lo, hi]`.
    Between(f64, f64),
    /// A number above 0 and at most `hi`.
    PositiveUpTo(f64),
    /// Any finite number at least `lo`.
    AtLeast(f64),
    /// `None`, or `Some` number in `[lo, hi]`.
    Optional(f64, f64),
    /// `(x, y)`, each within `±m`.
    Axes(f64),
    /// `(x, y, z)`, each within `±m`.
    Axes3(f64),
    /// `true` or `false`.
    Flag,
    /// One of these names.
    OneOf(&'static [&'static str]),
}

/// The valid values of the solver field `field`, if it is one.
pub fn solver_valid(field: &str) -> Option<Valid> {
    use Valid::*;
    Some(match field {
        "gravity" => Axes(1.0e3),
        "hz" => Between(1.0, 1.0e4),
        "substeps" | "threads" => Between(1.0, 64.0),
        "iterations" => Between(1.0, 200.0),
        "relax_iterations" => Between(0.0, 200.0),
        "toi_event_steps" => Between(0.0, 1.0e4),
        "percent" | "slop" | "baumgarte" | "speculative_margin" => Between(0.0, 1.0),
        "contact_hertz" | "contact_damping_ratio" => Between(0.0, 1.0e4),
        "max_push_velocity" => Between(0.0, 100.0),
        "restitution_threshold" => Between(0.0, 1.0e3),
        "max_linear_speed" => PositiveUpTo(1.0e4),
        "joint_hertz"
        | "joint_damping_ratio"
        | "linear_sleep_tolerance"
        | "angular_sleep_tolerance"
        | "time_to_sleep" => AtLeast(0.0),
        "friction_override" => Optional(0.0, 10.0),
        "restitution_override" => Optional(0.0, 1.0),
        "warm_starting" | "recycle_contacts" | "continuous" | "sleep" | "avx2" => Flag,
        "position_correction" => OneOf(&["Projection", "Baumgarte", "Soft"]),
        "reference_face" => OneOf(&["Absolute", "Relative"]),
        _ => return None,
    })
}

/// The valid values of the 3D world setting `field`, if it is one.
pub fn world3_valid(field: &str) -> Option<Valid> {
    use Valid::*;
    Some(match field {
        "gravity" => Axes3(1.0e3),
        "hz" => Between(1.0, 1.0e4),
        "substeps" => Between(1.0, 64.0),
        "iterations" => Between(1.0, 200.0),
        "relax_iterations" => Between(0.0, 200.0),
        "speculative_margin" => Between(0.0, 1.0),
        "contact_hertz" | "contact_damping_ratio" | "joint_hertz" | "joint_damping_ratio" => Between(0.0, 1.0e4),
        "max_push_velocity" => Between(0.0, 100.0),
        "restitution_threshold" => Between(0.0, 1.0e3),
        "max_linear_speed" | "max_angular_speed" => PositiveUpTo(1.0e4),
        "warm_starting" | "sat_cache" => Flag,
        "gyroscopic" => OneOf(&["Off", "Catto", "Exponential"]),
        "sat" => OneOf(&["Fast", "Robust", "Article"]),
        _ => return None,
    })
}

impl fmt::Display for Valid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Valid::Between(lo, hi) => write!(f, "{lo} to {hi}"),
            Valid::PositiveUpTo(hi) => write!(f, "above 0, up to {hi}"),
            Valid::AtLeast(lo) => write!(f, "a finite number, at least {lo}"),
            Valid::Optional(lo, hi) => write!(f, "None, or {lo} to {hi}"),
            Valid::Axes(m) => write!(f, "(x, y), each within ±{m}"),
            Valid::Axes3(m) => write!(f, "(x, y, z), each within ±{m}"),
            Valid::Flag => f.write_str("true or false"),
            Valid::OneOf(names) => f.write_str(&names.join(", ")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::solver::SolverParams;
    use crate::engine::world3d::World3Params;
    use crate::scene::overrides::{set_world3_field, world3_field_names};
    use crate::scene::{set_solver_field, solver_field_names};

    fn nums(v: &[f64]) -> Vec<String> {
        v.iter().map(|x| format!("{x}")).collect()
    }

    /// Values `valid` accepts, and values just past it.
    fn probes(valid: Valid) -> (Vec<String>, Vec<String>) {
        match valid {
            Valid::Between(lo, hi) => (nums(&[lo, hi]), nums(&[lo - 1.0, hi + 1.0])),
            Valid::PositiveUpTo(hi) => (nums(&[1e-3, hi]), nums(&[0.0, hi + 1.0])),
            Valid::AtLeast(lo) => (nums(&[lo, 1e6]), nums(&[lo - 1.0])),
            Valid::Optional(lo, hi) => {
                let some = |v: &[f64]| v.iter().map(|x| format!("Some({x})")).collect::<Vec<_>>();
                ([some(&[lo, hi]), vec!["None".into()]].concat(), some(&[lo - 1.0, hi + 1.0]))
            }
            Valid::Axes(m) => {
                (vec![format!("({m}, {})", -m)], vec![format!("({}, 0)", m + 1.0), format!("(0, {})", -m - 1.0)])
            }
            Valid::Axes3(m) => (
                vec![format!("({m}, {}, {m})", -m)],
                vec![format!("({}, 0, 0)", m + 1.0), format!("(0, 0, {})", -m - 1.0)],
            ),
            Valid::Flag => (vec!["true".into(), "false".into()], vec!["1".into()]),
            Valid::OneOf(names) => (names.iter().map(|n| n.to_string()).collect(), vec!["Nope".into()]),
        }
    }

    /// Each field of `fields` at its bounds is accepted by `accepts` and just past them
    /// refused.
    fn check_table(fields: Vec<String>, table: fn(&str) -> Option<Valid>, accepts: impl Fn(&str) -> bool) {
        for field in fields {
            let valid = table(&field).unwrap_or_else(|| panic!("`{field}` has no valid range here"));
            let (ok, bad) = probes(valid);
            for v in ok {
                assert!(accepts(&format!("{field}={v}")), "{field}={v} refused, the table says {valid}");
            }
            for v in bad {
                assert!(!accepts(&format!("{field}={v}")), "{field}={v} accepted, the table says {valid}");
            }
        }
    }

    #[test]
    fn every_solver_field_has_its_validate_range() {
        check_table(solver_field_names(), solver_valid, |a| set_solver_field(&mut SolverParams::default(), a).is_ok());
    }

    #[test]
    fn every_3d_world_field_has_its_validate_range() {
        check_table(world3_field_names(), world3_valid, |a| set_world3_field(&mut World3Params::default(), a).is_ok());
        let e = set_world3_field(&mut World3Params::default(), "iterations=0").unwrap_err();
        assert_eq!(e, "`iterations` must be between 1 and 200; valid `iterations`: 1 to 200");
    }
}
