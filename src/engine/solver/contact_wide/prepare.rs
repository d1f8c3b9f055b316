//! Filling the contact rows at the start of a step (Box2D v3's `b2PrepareContactsTask`): each
//! lane prepared straight from its contact and the two bodies' solver state, in place.

use super::MIN_BLOCK_ROWS;
use super::{ContactRow, ContactRows, PointBounce, PointRow, RowBounce, RowTag, Wide, LANES};
use crate::engine::parallel::Workers;
use crate::engine::prefetch::prefetch_bytes;
use crate::engine::solver::contact::{Contact, ContactSoftness};
use crate::engine::solver::graph::{ConstraintGraph, GraphColor};
use crate::engine::solver::state::{SolverBody, SolverCold};
use glam::Vec2;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

impl ContactRows {
    /// Fills the rows from the coloured contacts, preparing each contact as
    /// `contact::prepare_contacts` does (Box2D v3 prepares straight into its SIMD constraints
    /// too) without writing the contacts, from the bodies' solver state at the start of the
    /// step (`states` and `cold` end with the dummy body of empty lanes). Rows are independent,
    /// so all of them are prepared in one pass of blocks on the workers, each row recording its
    /// contacts' slots as it goes.
    #[allow(clippy::too_many_arguments)]
    pub fn prepare(
        &mut self,
        graph: &ConstraintGraph,
        contacts: &[Contact],
        states: &[SolverBody],
        cold: &[SolverCold],
        soft: ContactSoftness,
        gravity: Vec2,
        warm_starting: bool,
        workers: &Workers,
    ) {
        let ContactRows {
            rows,
            tags,
            bounces,
            bouncy,
            ranges,
            slots,
            states_len,
            overflow_lanes,
            overflow_starts,
            overflow_last,
            ..
        } = self;
        // Every lane's bodies index `states` (checked there), the dummy body its last one.
        assert_eq!(states.len(), cold.len(), "hot and cold solver states of the same bodies");
        *states_len = states.len();
        ranges.clear();
        let mut end = 0;
        for color in &graph.colors {
            ranges.push(end..end + color.len().div_ceil(LANES));
            end = ranges.last().map_or(0, |r| r.end);
        }
        pack_overflow(&graph.overflow, contacts, states, (overflow_lanes, overflow_starts, overflow_last));
        let overflow_rows = overflow_starts.len() - 1;
        ranges.push(end..end + overflow_rows);
        let count = end + overflow_rows;
        rows.resize(count, ContactRow::default());
        tags.resize(count, RowTag::default());
        bounces.resize(count, RowBounce::default());
        bouncy.resize(count, false);
        let dummy = (cold.len() - 1) as u32;
        let setup = RowSetup { contacts, states, cold, soft, gravity, warm_starting, dummy };
        // Row `j` of list `l` of the graph: a colour's contacts, `LANES` to a row, or the
        // overflow's as packed.
        let (overflow_lanes, overflow_starts) = (&*overflow_lanes, &*overflow_starts);
        let row_of = |l: usize, j: usize| match graph.colors.get(l) {
            Some(c) => (&c[(j * LANES).min(c.len())..((j + 1) * LANES).min(c.len())], GraphColor::Color(l as u8)),
            None => {
                let at = |j: usize| overflow_starts.get(j).map_or(overflow_lanes.len(), |&s| s as usize);
                (&overflow_lanes[at(j)..at(j + 1).max(at(j))], GraphColor::Overflow)
            }
        };
        slots.clear();
        slots.resize(contacts.len(), u32::MAX);
        const _: () = assert!(std::mem::align_of::<AtomicU32>() == std::mem::align_of::<u32>());
        // SAFETY: `AtomicU32` has the size, bit validity and (checked above) alignment of
        // `u32`, and the exclusive borrow of `slots` rules out any other access meanwhile.
        let slot_of = unsafe { &*(slots.as_mut_slice() as *mut [u32] as *const [AtomicU32]) };
        // Preparing a row reads and writes nothing another row does, so every colour's rows
        // go to the workers in one pass (the solve needs colours in turn, preparing does not).
        let ranges = &*ranges;
        // SAFETY: `AtomicBool` has the size, alignment and bit validity of `bool`; `bouncy` is
        // exclusively borrowed meanwhile.
        let bouncy = unsafe { &*(bouncy.as_mut_slice() as *mut [bool] as *const [AtomicBool]) };
        workers.for_each_chunk3((rows, bounces, tags), MIN_BLOCK_ROWS, &|start, chunk, extra, tags| {
            let mut l = ranges.partition_point(|r| r.end <= start);
            for (((i, r), e), t) in (start..).zip(chunk).zip(extra).zip(tags) {
                while ranges[l].end <= i {
                    l += 1;
                }
                let lanes = |j: usize| row_of(l, j).0;
                let (j, color) = (i - ranges[l].start, row_of(l, i - ranges[l].start).1);
                // A colour's contacts are scattered over the contact list: ask for the ones a
                // few rows ahead while this row is filled.
                for &k in lanes(j + PREFETCH_ROWS) {
                    // All but the recycling record, which preparing does not read.
                    prefetch_bytes(&contacts[k as usize], std::mem::offset_of!(Contact, origin));
                }
                bouncy[i].store(setup.fill(r, e, t, lanes(j), color), Ordering::Relaxed);
                // Each contact is in one row: these stores never meet.
                for (lane, &k) in lanes(j).iter().enumerate() {
                    slot_of[k as usize].store((i * LANES + lane) as u32, Ordering::Relaxed);
                }
            }
        });
    }
}

/// Packs the overflow contacts into rows of up to `LANES` that share no moving body, keeping
/// each body's contacts in their order: a contact goes to the first row with room after every
/// row holding one of its bodies (looking a few rows on, else a new row). Contacts of disjoint
/// bodies commute, so the rows give the bits of solving the contacts one after another, and a
/// pile of 2,000 boxes (200,000 overflow contacts) no longer spends a 1 KiB row on each.
/// `lanes` gets the contacts row by row, `starts` each row's first lane and then the end;
/// `last` is scratch (each body's last row).
fn pack_overflow(
    overflow: &[u32],
    contacts: &[Contact],
    states: &[SolverBody],
    (lanes, starts, last): (&mut Vec<u32>, &mut Vec<u32>, &mut Vec<u32>),
) {
    const LOOK_AHEAD: usize = 4;
    let mut rows: Vec<([u32; LANES], usize)> = Vec::new();
    last.clear();
    last.resize(states.len(), 0);
    for &k in overflow {
        let c = &contacts[k as usize];
        let moving = [c.a, c.b].map(|i| states[i].moves().then_some(i));
        // Rows are numbered from 1 in `last`; 0: the body is in none yet.
        let after = moving.iter().flatten().map(|&i| last[i] as usize).max().unwrap_or(0);
        let row = (after..rows.len().min(after + LOOK_AHEAD)).find(|&r| rows[r].1 < LANES).unwrap_or_else(|| {
            rows.push(([0; LANES], 0));
            rows.len() - 1
        });
        let (lane, used) = &mut rows[row];
        lane[*used] = k;
        *used += 1;
        for i in moving.into_iter().flatten() {
            last[i] = row as u32 + 1;
        }
    }
    lanes.clear();
    starts.clear();
    for (row, used) in &rows {
        starts.push(lanes.len() as u32);
        lanes.extend_from_slice(&row[..*used]);
    }
    starts.push(lanes.len() as u32);
}

/// What is copied into one lane of a [`PointRow`] (the rest is computed for all lanes at once).
#[derive(Clone, Copy, Debug, Default)]
struct PointLane {
    ra: Vec2,
    rb: Vec2,
    base_separation: f32,
    normal_impulse: f32,
    tangent_impulse: f32,
}

impl PointRow {
    /// Writes lane `lane` of the point; the impulse bound of the step starts at zero.
    #[inline(always)]
    fn set_lane(&mut self, lane: usize, p: PointLane) {
        self.ra_x.0[lane] = p.ra.x;
        self.ra_y.0[lane] = p.ra.y;
        self.rb_x.0[lane] = p.rb.x;
        self.rb_y.0[lane] = p.rb.y;
        self.base_separation.0[lane] = p.base_separation;
        self.normal_impulse.0[lane] = p.normal_impulse;
        self.tangent_impulse.0[lane] = p.tangent_impulse;
        self.max_normal_impulse.0[lane] = 0.0;
    }
}

/// How many rows ahead `prepare` asks for the contacts it will read.
pub(super) const PREFETCH_ROWS: usize = 2;

/// What filling a row reads.
pub(super) struct RowSetup<'a> {
    pub(super) contacts: &'a [Contact],
    pub(super) states: &'a [SolverBody],
    pub(super) cold: &'a [SolverCold],
    pub(super) soft: ContactSoftness,
    pub(super) gravity: Vec2,
    pub(super) warm_starting: bool,
    /// Index of the dummy body of empty lanes.
    pub(super) dummy: u32,
}

/// A row's restitution inputs, lane by lane, kept aside until the row is known to bounce:
/// the lanes' restitution and approach rates, and their bodies' velocities at the start of the
/// step (the normal speed restitution starts from reads them).
#[derive(Default)]
struct LaneBounce {
    restitution: Wide,
    approach_rate: Wide,
    vax: Wide,
    vay: Wide,
    wa: Wide,
    vbx: Wide,
    vby: Wide,
    wb: Wide,
}

impl RowSetup<'_> {
    /// Fills row `r` and its tag `t` with the contacts `chunk` (at most `LANES`), in place:
    /// every field of every lane is written, empty lanes with zeros and the dummy body; its
    /// restitution data `e` only when some lane has restitution (the return value: whether the
    /// row may bounce). Each lane's inputs are copied in lane by lane; the effective masses and
    /// normal speeds are then computed for all lanes at once, with `PreparedPoint::new`'s
    /// operations in its order (so with its bits).
    pub(super) fn fill(
        &self,
        r: &mut ContactRow,
        e: &mut RowBounce,
        t: &mut RowTag,
        chunk: &[u32],
        color: GraphColor,
    ) -> bool {
        t.color = color;
        let mut v = LaneBounce::default();
        // Per point: 1 in the lanes whose manifold has it.
        let mut present = [Wide::ZERO; 2];
        for lane in 0..LANES {
            match chunk.get(lane) {
                Some(&k) => self.set_lane(r, t, &mut v, &mut present, lane, k),
                None => self.clear_lane(r, t, lane),
            }
        }
        let (nx, ny, m) = (r.nx, r.ny, r.masses);
        // Tangent = right perpendicular of the normal.
        let (tx, ty) = (ny, -nx);
        let (zero, one) = (Wide::ZERO, Wide::splat(1.0));
        for (p, present) in r.points.iter_mut().zip(present) {
            let rna = p.ra_x * ny - p.ra_y * nx;
            let rnb = p.rb_x * ny - p.rb_y * nx;
            let kn = m.inv_mass_a + m.inv_mass_b + m.inv_inertia_a * rna * rna + m.inv_inertia_b * rnb * rnb;
            let rta = p.ra_x * ty - p.ra_y * tx;
            let rtb = p.rb_x * ty - p.rb_y * tx;
            let kt = m.inv_mass_a + m.inv_mass_b + m.inv_inertia_a * rta * rta + m.inv_inertia_b * rtb * rtb;
            p.normal_mass = present.select_gt(zero, kn.select_gt(zero, one / kn, zero), zero);
            p.tangent_mass = present.select_gt(zero, kt.select_gt(zero, one / kt, zero), zero);
        }
        let bouncy = v.restitution.0.iter().any(|&x| x != 0.0);
        if bouncy {
            (e.restitution, e.approach_rate) = (v.restitution, v.approach_rate);
            for ((p, pb), present) in r.points.iter().zip(&mut e.points).zip(present) {
                // Each body's velocity at the anchor, B's minus A's.
                let dvx = (v.vbx + (-v.wb) * p.rb_y) - (v.vax + (-v.wa) * p.ra_y);
                let dvy = (v.vby + v.wb * p.rb_x) - (v.vay + v.wa * p.ra_x);
                *pb = PointBounce {
                    relative_velocity: present.select_gt(zero, nx * dvx + ny * dvy, zero),
                    impact_time: zero,
                    impact_velocity: zero,
                };
            }
        }
        bouncy
    }

    /// Copies lane `lane`'s inputs from contact `k` and its bodies.
    #[inline(always)]
    fn set_lane(
        &self,
        r: &mut ContactRow,
        t: &mut RowTag,
        v: &mut LaneBounce,
        present: &mut [Wide; 2],
        lane: usize,
        k: u32,
    ) {
        let c = &self.contacts[k as usize];
        let (sa, sb) = (&self.states[c.a], &self.states[c.b]);
        let (ca, cb) = (&self.cold[c.a], &self.cold[c.b]);
        let n = c.manifold.normal;
        t.contact[lane] = k;
        r.a[lane] = c.a as u32;
        r.b[lane] = c.b as u32;
        r.nx.0[lane] = n.x;
        r.ny.0[lane] = n.y;
        r.friction.0[lane] = c.friction;
        v.restitution.0[lane] = c.restitution;
        v.approach_rate.0[lane] = n.dot(cb.gravity_pull(self.gravity) - ca.gravity_pull(self.gravity));
        t.counts[lane] = c.manifold.count as u8;
        r.masses.inv_mass_a.0[lane] = ca.inv_mass;
        r.masses.inv_inertia_a.0[lane] = ca.inv_inertia;
        r.masses.inv_mass_b.0[lane] = cb.inv_mass;
        r.masses.inv_inertia_b.0[lane] = cb.inv_inertia;
        let fixed = ca.inv_mass == 0.0 || cb.inv_mass == 0.0;
        let s = if fixed { self.soft.fixed } else { self.soft.dynamic };
        r.bias_rate.0[lane] = s.bias_rate;
        r.mass_scale.0[lane] = s.mass_scale;
        r.impulse_scale.0[lane] = s.impulse_scale;
        (v.vax.0[lane], v.vay.0[lane], v.wa.0[lane]) = (sa.v.x, sa.v.y, sa.w);
        (v.vbx.0[lane], v.vby.0[lane], v.wb.0[lane]) = (sb.v.x, sb.v.y, sb.w);
        let count = c.manifold.count;
        let warm = self.warm_starting;
        for (j, ((p, cp), present)) in r.points.iter_mut().zip(&c.points).zip(present).enumerate() {
            if j >= count {
                p.set_lane(lane, PointLane::default());
                continue;
            }
            // A recycled point keeps the anchors its manifold was computed with (Box2D v3).
            let (ra, rb) =
                if cp.kept_anchors { (cp.anchor_a, cp.anchor_b) } else { (cp.point - ca.center, cp.point - cb.center) };
            p.set_lane(
                lane,
                PointLane {
                    ra,
                    rb,
                    base_separation: cp.base_separation,
                    normal_impulse: if warm { cp.normal_impulse } else { 0.0 },
                    tangent_impulse: if warm { cp.tangent_impulse } else { 0.0 },
                },
            );
            present.0[lane] = 1.0;
        }
    }

    /// An empty lane: no contact, the dummy body on both sides, zeros everywhere.
    #[inline(always)]
    fn clear_lane(&self, r: &mut ContactRow, t: &mut RowTag, lane: usize) {
        t.contact[lane] = u32::MAX;
        r.a[lane] = self.dummy;
        r.b[lane] = self.dummy;
        t.counts[lane] = 0;
        let m = &mut r.masses;
        for w in [
            &mut r.nx,
            &mut r.ny,
            &mut r.friction,
            &mut m.inv_mass_a,
            &mut m.inv_inertia_a,
            &mut m.inv_mass_b,
            &mut m.inv_inertia_b,
            &mut r.bias_rate,
            &mut r.mass_scale,
            &mut r.impulse_scale,
        ] {
            w.0[lane] = 0.0;
        }
        for p in &mut r.points {
            p.set_lane(lane, PointLane::default());
        }
    }
}
