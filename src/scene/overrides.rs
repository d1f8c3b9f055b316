//! `FIELD=VALUE` assignments to solver settings (the command line's `--set`), generic over
//! every [`SolverParams`] field: the value is read in scene syntax as the field's own type
//! (RON, as in a scene's `settings: (...)`), merged into the current settings through serde's
//! data model, and the result checked with [`SolverParams::validate`] (or, for 3D worlds,
//! [`World3Params::validate`]). No field is named here,
//! so new fields work without touching this file.

use super::save::ron_options;
use crate::engine::solver::SolverParams;
use crate::engine::world3d::World3Params;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

/// Every solver field, alphabetically.
pub fn solver_field_names() -> Vec<String> {
    field_names(&SolverParams::default())
}

/// Every 3D world setting, alphabetically.
pub fn world3_field_names() -> Vec<String> {
    field_names(&World3Params::default())
}

fn field_names<P: Serialize>(params: &P) -> Vec<String> {
    match serde_json::to_value(params) {
        Ok(Value::Object(map)) => map.keys().cloned().collect(),
        _ => Vec::new(),
    }
}

/// Applies `FIELD=VALUE` to `params`, e.g. `continuous=false`, `hz=120`, `gravity=(0, -9.8)`,
/// `position_correction=Projection`, `friction_override=0.2` or `friction_override=None`.
/// On error `params` is unchanged and the message names the field and, for an unknown field,
/// lists the valid ones.
/// Errors about a known field end with its valid values (`override_ranges`).
pub fn set_solver_field(params: &mut SolverParams, assignment: &str) -> Result<(), String> {
    set_field(params, assignment, SolverParams::validate)
        .map_err(|(field, e)| with_valid(e, field, super::override_ranges::solver_valid))
}

/// [`set_solver_field`] for a 3D world's settings ([`World3Params`]), e.g. `gravity=(0, -9.8, 0)`.
pub fn set_world3_field(params: &mut World3Params, assignment: &str) -> Result<(), String> {
    set_field(params, assignment, World3Params::validate)
        .map_err(|(field, e)| with_valid(e, field, super::override_ranges::world3_valid))
}

/// `e`, ending with the valid values of `field` when `table` knows it.
fn with_valid(e: String, field: Option<String>, table: fn(&str) -> Option<super::override_ranges::Valid>) -> String {
    match field.as_deref().and_then(table) {
        Some(valid) => format!("{e}; valid `{}`: {valid}", field.unwrap_or_default()),
        None => e,
    }
}

/// Any settings struct whose fields all have defaults (`#[serde(default)]`). An error comes
/// with the field it is about, when the assignment named a known one.
fn set_field<P>(
    params: &mut P,
    assignment: &str,
    validate: fn(&P) -> Result<(), String>,
) -> Result<(), (Option<String>, String)>
where
    P: Serialize + DeserializeOwned + Default,
{
    let known = |field: &str| Some(field.to_string());
    let unknown = |e: String| (None, e);
    let valid_fields = || field_names(&P::default()).join(", ");
    let Some((field, value)) = assignment.split_once('=') else {
        return Err(unknown(format!("`{assignment}` is not FIELD=VALUE; solver fields: {}", valid_fields())));
    };
    let (field, value) = (field.trim(), value.trim());
    let Ok(Value::Object(mut current)) = serde_json::to_value(&*params) else {
        return Err(unknown("the solver settings cannot be represented".to_string()));
    };
    if !current.contains_key(field) {
        return Err(unknown(format!("unknown solver field `{field}`; valid fields: {}", valid_fields())));
    }
    let bad = |e: String| (known(field), e);
    // The value as that field's type: a settings struct with only this field written (the
    // others take their defaults and are not used).
    let parsed: P = ron_options()
        .from_str(&format!("({field}: {value})"))
        .map_err(|e| bad(format!("bad value `{value}` for `{field}`: {}", e.code)))?;
    let Ok(Value::Object(mut one)) = serde_json::to_value(&parsed) else {
        return Err(bad(format!("bad value `{value}` for `{field}`: not representable")));
    };
    let Some(new_value) = one.remove(field) else {
        return Err(bad(format!("bad value `{value}` for `{field}`")));
    };
    current.insert(field.to_string(), new_value);
    let updated: P = serde_json::from_value(Value::Object(current))
        .map_err(|e| bad(format!("bad value `{value}` for `{field}`: {e}")))?;
    validate(&updated).map_err(bad)?;
    *params = updated;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::solver::PositionCorrection;
    use glam::Vec2;

    #[test]
    fn sets_any_field_in_scene_syntax() {
        let mut p = SolverParams::default();
        for a in [
            "continuous=false",
            "hz = 120",
            "gravity=(0, -9.8)",
            "position_correction=Projection",
            "friction_override=0.25",
            "substeps=8",
        ] {
            set_solver_field(&mut p, a).unwrap_or_else(|e| panic!("{a}: {e}"));
        }
        assert!(!p.continuous);
        assert_eq!((p.hz, p.substeps, p.gravity), (120.0, 8, Vec2::new(0.0, -9.8)));
        assert_eq!(p.position_correction, PositionCorrection::Projection);
        assert_eq!(p.friction_override, Some(0.25));
        set_solver_field(&mut p, "friction_override=None").unwrap();
        assert_eq!(p.friction_override, None);
        // Everything else kept its value.
        assert_eq!(p.iterations, SolverParams::default().iterations);
    }

    #[test]
    fn errors_name_the_field_and_list_the_valid_ones() {
        let mut p = SolverParams::default();
        let e = set_solver_field(&mut p, "hetz=30").unwrap_err();
        assert!(e.starts_with("unknown solver field `hetz`; valid fields: "), "{e}");
        assert!(e.contains("contact_hertz") && e.contains("continuous") && e.contains("max_linear_speed"), "{e}");
        let e = set_solver_field(&mut p, "hz=fast").unwrap_err();
        assert!(e.starts_with("bad value `fast` for `hz`"), "{e}");
        let e = set_solver_field(&mut p, "continuous=3").unwrap_err();
        assert!(e.starts_with("bad value `3` for `continuous`"), "{e}");
        let e = set_solver_field(&mut p, "hz=0").unwrap_err();
        assert_eq!(e, "`hz` must be between 1 and 10000; valid `hz`: 1 to 10000");
        let e = set_solver_field(&mut p, "gravity=(0, NaN)").unwrap_err();
        assert!(e.ends_with("; valid `gravity`: (x, y), each within ±1000"), "{e}");
        let e = set_solver_field(&mut p, "threads=1000000").unwrap_err();
        assert!(e.ends_with("valid `threads`: 1 to 64"), "{e}");
        let e = set_solver_field(&mut p, "substeps=99999999999").unwrap_err();
        assert!(e.starts_with("bad value `99999999999` for `substeps`") && e.ends_with("1 to 64"), "{e}");
        let e = set_solver_field(&mut p, "position_correction=Sideways").unwrap_err();
        assert!(e.contains("Sideways") && e.contains("position_correction"), "{e}");
        assert!(set_solver_field(&mut p, "hz").unwrap_err().contains("FIELD=VALUE"));
        assert_eq!(p, SolverParams::default());
    }

    #[test]
    fn sets_3d_world_fields_too() {
        let mut p = World3Params::default();
        set_world3_field(&mut p, "gravity=(0, -9.8, 1)").unwrap();
        set_world3_field(&mut p, "sat_cache=false").unwrap();
        assert_eq!(p.gravity, glam::Vec3::new(0.0, -9.8, 1.0));
        assert!(!p.sat_cache);
        assert_eq!(p.hz, World3Params::default().hz);
        let e = set_world3_field(&mut p, "substeps=0").unwrap_err();
        assert_eq!(e, "`substeps` must be between 1 and 64; valid `substeps`: 1 to 64");
        assert!(set_world3_field(&mut p, "continuous=true").unwrap_err().contains("joint_hertz"));
    }
}
