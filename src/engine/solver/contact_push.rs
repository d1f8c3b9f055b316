//! The push-out speed shared per body in the article's Baumgarte mode, as the soft rows share
//! it (`contact_wide/push.rs`, where the rule and its reasons are): a contact whose Baumgarte
//! push `β/h · (s + slop)` would pass `max_push_velocity` is *deep*, and each contact's cap is
//! `max_push_velocity` divided by the most deep contacts either of its moving bodies has. 100
//! boxes created at one point threw boxes out at 204 m/s in this mode; shared, 14 m/s (what
//! is left: Baumgarte has no relax pass to take back the velocity its correction adds, so the
//! links of a column of boxes add their pushes). A body with at most one deep contact keeps
//! the whole cap, bit for bit. The projection mode pushes no velocity: nothing to share.

use super::contact::{Contact, ContactWork};
use crate::engine::body::Body;

/// Sets each awake contact's `push_cap` in `work` (prepared by `prepare_contacts`): the
/// whole `max_push` unless one of its moving bodies has several deep contacts.
pub fn share_push_baumgarte(
    contacts: &[Contact],
    work: &mut [ContactWork],
    bodies: &[Body],
    max_push: f32,
    (baumgarte, inv_h, slop): (f32, f32, f32),
) {
    let deep = |c: &Contact| {
        let deepest = c.points().iter().map(|p| p.base_separation).fold(0.0, f32::min);
        baumgarte * inv_h * (deepest + slop).min(0.0) < -max_push
    };
    let moving = |i: usize| bodies[i].inv_mass > 0.0;
    let mut counts = vec![0u32; bodies.len()];
    for c in contacts.iter().filter(|c| c.awake && deep(c)) {
        for body in [c.a, c.b].into_iter().filter(|&i| moving(i)) {
            counts[body] += 1;
        }
    }
    for (c, w) in contacts.iter().zip(work.iter_mut()) {
        let n = counts[c.a].max(counts[c.b]).max(1);
        for p in w.iter_mut() {
            p.push_cap = max_push / n as f32;
        }
    }
}
