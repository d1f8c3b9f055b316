//! A time-of-impact event of the world (`engine::world::toi_events`) as a preset of the
//! time-of-impact lab: A is what the body hit, at rest where it stood during the sweep; B is
//! the body, from its pose at the start of the step to where the sub-steps took it, the sweep
//! the continuous pass examined (004 article, "Continuous": the same two shapes and motions,
//! so the lab's certified method finds the event's fraction again): with the target distance,
//! the tolerance and the interval the world searched when they were not the default ones.

use manifold_lab::engine::collide::support::Proxy;
use manifold_lab::engine::collide::toi::ToiMethod;
use manifold_lab::engine::number::Num;
use manifold_lab::engine::world::toi_events::ToiEvent;
use manifold_lab::scene::{ShapeDesc, ShapeSpec, ToiBody, ToiPose, ToiSpec};

/// The preset of event `e`, named after the bodies (`names`: the body's and the other's).
pub fn event_spec(e: &ToiEvent, names: (&str, &str)) -> ToiSpec {
    let other = ToiBody::at_rest(ShapeSpec::from_shape(&e.other_shape), e.other_xf.p, e.other_xf.q.angle());
    let core = e.core.and_then(|c| core_shape(&c));
    let shape = core.clone().unwrap_or_else(|| ShapeSpec::from_shape(&e.shape));
    // The end angle is the start angle plus the sweep's turn, so a turn across ±π stays small.
    let start_angle = e.start.q.angle();
    let body = ToiBody {
        shape,
        start: ToiPose { position: e.start.p, angle: start_angle },
        end: Some(ToiPose { position: e.end.p, angle: start_angle + e.sweep().rotation() }),
    };
    let name = format!("TOI event: {} hits {}", names.0, names.1);
    let mut spec = ToiSpec::new(&name, ToiMethod::Certified, other, body);
    // A held core was swept to a target and tolerance of its own (from its starting distance).
    let input = spec.input();
    if input.target != e.target {
        spec.target = Some(e.target);
    }
    if input.tolerance != e.tolerance {
        spec.tolerance = Some(e.tolerance);
    }
    // The world searched only up to the earliest impact on another body found before.
    if e.t_max < 1.0 {
        spec.t_max = Some(e.t_max);
    }
    let swept = match (e.core, &core) {
        (None, _) => "its shape".to_string(),
        (Some(_), Some(_)) => "its core (the shape touched at the start of the step, so the core was swept)".into(),
        (Some(_), None) => "its core, a circle shown here as the whole shape".into(),
    };
    spec.description = format!(
        "Taken from step {} of the world: B swept with {swept} and moved back at t = {:.5}.",
        e.step,
        Num(e.fraction)
    );
    spec
}

/// The core proxy as a shape of the lab, when a shape can say it: a polygon, a capsule, or
/// a circle about the body origin.
fn core_shape(p: &Proxy) -> Option<ShapeSpec> {
    let pts = p.points();
    let desc = match (pts.len(), p.radius > 0.0) {
        (1, true) if pts[0] == glam::Vec2::ZERO => ShapeDesc::Circle { radius: p.radius },
        (2, true) => {
            ShapeDesc::Capsule { center1: Some(pts[0]), center2: Some(pts[1]), half_length: None, radius: p.radius }
        }
        (n, false) if n >= 3 => ShapeDesc::Polygon { points: pts.to_vec(), radius: 0.0 },
        _ => return None,
    };
    ShapeSpec::new(desc).ok()
}
