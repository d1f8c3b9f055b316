//! The push-out speed shared per body (beyond Box2D v3). Each contact pushes overlapping bodies
//! apart at most `max_push_velocity`, but a body in a pile has many such contacts, and
//! sequential impulses add their pushes up along the pile: 100 unit boxes created at one point
//! threw bodies out at over 30 m/s (Box2D v3 the same). Here a contact whose push is capped
//! (its bias `bias_rate · s` would exceed the cap: overlap deeper than `max_push /
//! bias_rate`, 0.17–0.33 m at the defaults) is *deep*, and each contact's cap is divided by
//! the most deep contacts either of its moving bodies has, so a pile spreads at about the
//! push-out speed (dividing by the square root of the count still threw 100 coincident boxes
//! out at 39 m/s: the pushes also add up over the sub-steps while the overlap lasts). A body with at most one deep contact keeps the whole cap, bit for bit:
//! ordinary scenes, whose overlaps stay millimetres, are unchanged.

use super::{ContactRows, Wide, LANES};
use crate::engine::solver::contact::Contact;

impl ContactRows {
    /// Sets each lane's push-out cap (read by the biased pass) from the rows just prepared.
    pub fn share_push(&mut self, contacts: &[Contact], max_push: f32) {
        let ContactRows { rows, tags, bounces, push_counts, states_len, .. } = self;
        push_counts.clear();
        push_counts.resize(*states_len, 0);
        let mut any = false;
        for (r, t) in rows.iter().zip(tags.iter()) {
            for lane in 0..LANES {
                let Some(c) = contacts.get(t.contact[lane] as usize) else { continue };
                let deepest = c.points[..c.manifold.count].iter().map(|p| p.base_separation).fold(0.0, f32::min);
                if r.bias_rate.0[lane] * deepest < -max_push {
                    any = true;
                    for (body, inv_mass) in [(r.a[lane], r.masses.inv_mass_a), (r.b[lane], r.masses.inv_mass_b)] {
                        if inv_mass.0[lane] > 0.0 {
                            push_counts[body as usize] += 1;
                        }
                    }
                }
            }
        }
        for (r, e) in rows.iter().zip(bounces.iter_mut()) {
            e.push_cap = Wide::splat(max_push);
            if any {
                for lane in 0..LANES {
                    let n = push_counts[r.a[lane] as usize].max(push_counts[r.b[lane] as usize]);
                    if n > 1 {
                        e.push_cap.0[lane] = max_push / n as f32;
                    }
                }
            }
        }
    }
}
