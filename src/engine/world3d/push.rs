//! The push-out cap per body. Box2D v3 caps each contact's push-out bias at
//! `contactPushMaxVelocity`, but a body overlapping many others adds their pushes up: 500 cubes
//! created at one point leave at 146 m/s that way. Here a contact's cap is
//! `max_push_velocity / n`, `n` the number of overlapping contacts of the dynamic body (of the
//! two) with the most, so a body is pushed out of a pile at about `max_push_velocity` in all
//! and a pile spreads gently. A body with one overlapping contact keeps the whole cap, so
//! ordinary stacks and landings see Box2D's bias unchanged.

use super::body::Body3;
use super::contact::Contact3;

/// Sets each contact's `push_limit` from the overlapping-contact counts of its bodies.
pub fn set_push_limits(contacts: &mut [Contact3], bodies: &[Body3], max_push_velocity: f32) {
    let mut overlaps = vec![0u32; bodies.len()];
    let overlapping = |c: &Contact3| c.points.iter().any(|p| p.base_separation < 0.0);
    for c in contacts.iter().filter(|c| overlapping(c)) {
        overlaps[c.a] += 1;
        overlaps[c.b] += 1;
    }
    let count = |i: usize| if bodies[i].is_dynamic() { overlaps[i] } else { 0 };
    for c in contacts {
        let n = count(c.a).max(count(c.b)).max(1);
        c.push_limit = max_push_velocity / n as f32;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::hull3d::shapes;
    use crate::engine::world3d::{BodyDef3, World3, World3Params};
    use crate::engine::BodyKind;
    use glam::Vec3;

    #[test]
    fn a_pile_shares_the_cap_and_a_lone_overlap_keeps_it() {
        let mut w = World3::new(World3Params { gravity: Vec3::ZERO, ..World3Params::default() });
        let ground = shapes::cuboid(Vec3::new(10.0, 0.5, 10.0));
        w.create_body(&BodyDef3::new(BodyKind::Static, ground, Vec3::new(0.0, -0.5, 0.0))).unwrap();
        for _ in 0..4 {
            w.create_body(&BodyDef3::new(BodyKind::Dynamic, shapes::cube(0.5), Vec3::new(0.0, 0.3, 0.0))).unwrap();
        }
        w.create_body(&BodyDef3::new(BodyKind::Dynamic, shapes::cube(0.5), Vec3::new(5.0, 0.3, 0.0))).unwrap();
        w.refresh_contacts();
        set_push_limits(&mut w.contacts, &w.bodies, 3.0);
        for c in &w.contacts {
            // The pile's cubes overlap the ground and three others; the lone cube only the ground.
            let want = if c.b == 5 { 3.0 } else { 0.75 };
            assert_eq!(c.push_limit, want, "{} {}", c.a, c.b);
        }
    }
}
