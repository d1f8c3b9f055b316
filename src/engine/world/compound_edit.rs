//! Editing one shape of a multi-part body (`engine::compound`): its offset, angle, material
//! or filter. As Box2D v3 destroys the contacts of a shape whose definition changes, the
//! body's contacts go and are found afresh at the next step.

use super::World;
use crate::engine::compound::Part;

impl World {
    /// Replaces shape `k` of body `body` (a body of several shapes) with `part`, recomputing the
    /// body's mass, centre of mass and inertia, and dropping its contacts. The error says what
    /// is wrong (no such shape, values not finite, a bad material).
    pub fn set_part(&mut self, body: usize, k: usize, part: Part) -> Result<(), String> {
        let b = self.bodies.get_mut(body).ok_or_else(|| format!("no body #{body}"))?;
        if k >= b.parts.len() {
            return Err(format!("body #{body} has no shape {k}"));
        }
        if !(part.offset.is_finite() && part.angle.is_finite()) {
            return Err("a shape's offset and angle must be finite".into());
        }
        part.material.check()?;
        b.parts[k] = part;
        b.sync_parts();
        b.update_mass();
        self.contacts.retain(|c| c.a != body && c.b != body);
        self.narrowphase.invalidate();
        self.narrowphase.contacts_same = false;
        self.forget_manifold_origins(body);
        self.refresh_water();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::compound::Part;
    use crate::engine::shape::Shape;
    use crate::engine::{BodyDef, BodyKind, World};
    use glam::Vec2;

    /// Moving one part of a dumbbell moves its centre of mass by the part's share.
    #[test]
    fn editing_a_part_moves_the_centre_of_mass() {
        let mut w = World::new(Default::default());
        let ball = Shape::circle(0.5).unwrap();
        let mut def = BodyDef::new(BodyKind::Dynamic, ball, Vec2::ZERO);
        def.parts = vec![Part::new(ball, Vec2::new(-1.0, 0.0), 0.0), Part::new(ball, Vec2::new(1.0, 0.0), 0.0)];
        let i = w.create_body(&def);
        assert!(w.bodies[i].local_center.length() < 1e-6);
        let mut moved = w.bodies[i].parts[1];
        moved.offset = Vec2::new(3.0, 0.0);
        w.set_part(i, 1, moved).unwrap();
        assert!((w.bodies[i].local_center - Vec2::new(1.0, 0.0)).length() < 1e-5);
        assert!(w.set_part(i, 2, moved).is_err());
        moved.angle = f32::NAN;
        assert!(w.set_part(i, 1, moved).is_err());
    }
}
