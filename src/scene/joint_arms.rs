//! How far a joint's anchor may lie from a dynamic body it holds ([`MAX_JOINT_ARM`]). A rod
//! or hinge pulling at the end of a lever many times the body's size turns the body so far
//! within a step that its constraint diverges (an anchor 1e5 m away sent bodies to 8e16 m).

use super::joints::JointSpec;
use super::limits::{number, MAX_JOINT_ARM};
use glam::Vec2;

/// The anchor of each end of `j` as the build places it, with the field to blame: the exact
/// frames' points (local already), else the world anchors (body b's origin when absent), as
/// arms from each body's origin `pa`, `pb`.
fn arms(j: &JointSpec, pa: Vec2, pb: Vec2) -> [(&'static str, f32); 2] {
    let c = j.common();
    if let Some((fa, fb)) = c.frame_a.zip(c.frame_b) {
        return [("frame_a", fa.point.length()), ("frame_b", fb.point.length())];
    }
    let anchor = match j {
        JointSpec::Distance { anchor_a: Some(a), anchor_b: Some(b), .. } => {
            return [("anchor_a", a.distance(pa)), ("anchor_b", b.distance(pb))];
        }
        JointSpec::Distance { .. } => None,
        JointSpec::Angle { anchor, .. }
        | JointSpec::Revolute { anchor, .. }
        | JointSpec::Prismatic { anchor, .. }
        | JointSpec::Weld { anchor, .. }
        | JointSpec::Wheel { anchor, .. } => *anchor,
    };
    let field = if anchor.is_some() { "anchor" } else { "a" };
    let at = anchor.unwrap_or(pb);
    [(field, at.distance(pa)), (field, at.distance(pb))]
}

/// `Err((field, message))` when an anchor of `j` lies more than [`MAX_JOINT_ARM`] from a
/// dynamic body it joins (`dynamic_a`, `dynamic_b`; static and kinematic bodies are not moved
/// by it, so their arms may be any length).
pub(crate) fn check_arms(
    j: &JointSpec,
    (pa, dynamic_a): (Vec2, bool),
    (pb, dynamic_b): (Vec2, bool),
) -> Result<(), (&'static str, String)> {
    let c = j.common();
    for ((field, arm), (dynamic, body)) in arms(j, pa, pb).into_iter().zip([(dynamic_a, &c.a), (dynamic_b, &c.b)]) {
        if dynamic && arm > MAX_JOINT_ARM {
            return Err((
                field,
                format!(
                    "the anchor must lie within {MAX_JOINT_ARM} m of dynamic body {body}'s origin, got {} m",
                    number(arm)
                ),
            ));
        }
    }
    Ok(())
}
