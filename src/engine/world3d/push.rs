//! The push-out cap per body. Box2D v3 caps each contact's push-out bias at
//! `contactPushMaxVelocity`, but a body overlapping many others adds their pushes up: 500 cubes
//! created at one point leave at 146 m/s that way. Here, as in 2D
//! (`solver/contact_wide/push.rs`), a contact whose push reaches the cap (its soft bias
//! `bias_rate · s` would pass `max_push_velocity`) is *deep*, and a contact's cap is
//! `max_push_velocity / n`, `n` the number of deep contacts of the dynamic body (of the two)
//! with the most, so a body is pushed out of a pile at about `max_push_velocity` in all and a
//! pile spreads gently. Shallow overlaps do not count: counting every overlapping contact
//! (before) held a pile pressed by gravity packed, 100 cubes still 0.98 m deep after 10 s
//! (counting contacts past half or a quarter of the cap: 0.92 and 0.96 m), since the last
//! decimetres of each overlap were pushed out at a fraction of the cap; now they spread
//! (0.03 m deep at 10 s), at the price of a faster fastest body (11 m/s against 3–8 m/s,
//! `benches/pile3d.rs`; Box2D's per-contact cap alone: 155 m/s). A body
//! with at most one deep contact keeps the whole cap, so ordinary stacks and landings see
//! Box2D's bias unchanged.

use super::body::Body3;
use super::contact::{Contact3, ContactSoftness3};

/// Sets each contact's `push_limit` from the deep-contact counts of its bodies (module docs).
pub fn set_push_limits(contacts: &mut [Contact3], bodies: &[Body3], max_push_velocity: f32, soft: ContactSoftness3) {
    let mut deep = vec![0u32; bodies.len()];
    let is_deep = |c: &Contact3| {
        let fixed = !bodies[c.a].is_dynamic() || !bodies[c.b].is_dynamic();
        let rate = if fixed { soft.fixed.bias_rate } else { soft.dynamic.bias_rate };
        c.points.iter().any(|p| rate * p.base_separation < -max_push_velocity)
    };
    for c in contacts.iter().filter(|c| is_deep(c)) {
        deep[c.a] += 1;
        deep[c.b] += 1;
    }
    let count = |i: usize| if bodies[i].is_dynamic() { deep[i] } else { 0 };
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
        // Two cubes overlapping each other and the ground by 5 mm: shallow, so not shared.
        for x in [-5.0, -4.01] {
            w.create_body(&BodyDef3::new(BodyKind::Dynamic, shapes::cube(0.5), Vec3::new(x, 0.495, 0.0))).unwrap();
        }
        w.refresh_contacts();
        let soft = ContactSoftness3::new(&w.params, w.params.dt() / w.params.substeps as f32);
        // At the defaults a contact is deep past 0.17 m against the ground, 0.33 m between cubes.
        assert!(3.0 / soft.fixed.bias_rate < 0.2 && 3.0 / soft.dynamic.bias_rate < 1.0);
        set_push_limits(&mut w.contacts, &w.bodies, 3.0, soft);
        for c in &w.contacts {
            // The pile's cubes overlap the ground and three others, 0.2 m and 1 m deep; the
            // lone cube only the ground; the last two only shallowly.
            let want = if (1..=4).contains(&c.b) { 0.75 } else { 3.0 };
            assert_eq!(c.push_limit, want, "{} {}", c.a, c.b);
        }
        assert!(w.contacts.iter().any(|c| (c.a, c.b) == (6, 7)));
    }
}
