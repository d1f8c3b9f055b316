//! The soft step's contact solver in rows of `LANES` contacts (Box2D v3's
//! `b2ContactConstraintSIMD` and `contact_solver.c`): each colour of the constraint graph is
//! cut into rows whose contacts share no moving body, a row's constraint data is stored as
//! structure-of-arrays, prepared once per step, and warm start, solve, relax and restitution
//! each gather the row's bodies into lanes, compute every lane at once and scatter the new
//! velocities back. Overflow contacts get a row each. Warm start, solve and relax run a row's
//! eight lanes in one AVX register where the processor has AVX2 (`avx`), else in two SSE2
//! halves (`lanes`), with the same bits. The arithmetic is that of
//! `contact::solve_contacts` with `PositionCorrection::Soft`, with its two departures from
//! Box2D v3: restitution's approach speed is taken at the sub-step of impact (as gravity made
//! it, `Contact::approach_rate`), and the relax pass leaves speculative points that have not
//! pushed yet to the next sub-step.

use super::body_cell::BodyCell;
use super::contact::Contact;
use super::graph::GraphColor;
use super::lanes::{avx2_detected, Vector, Wide, LANES};
use super::state::SolverBody;
use crate::engine::parallel::Workers;
use crate::engine::prefetch::prefetch_bytes;

#[cfg(target_arch = "x86_64")]
mod avx;
mod bounce;
mod gather;
mod prepare;
mod push;

use bounce::restitution_row;
use gather::{Bodies, Gather};

/// Fewer rows than this in a block are not worth sending to another thread.
pub const MIN_BLOCK_ROWS: usize = 8;

/// One contact point in each lane: what every pass reads.
#[derive(Clone, Copy, Debug, Default)]
struct PointRow {
    ra_x: Wide,
    ra_y: Wide,
    rb_x: Wide,
    rb_y: Wide,
    base_separation: Wide,
    normal_mass: Wide,
    tangent_mass: Wide,
    normal_impulse: Wide,
    tangent_impulse: Wide,
    max_normal_impulse: Wide,
}

/// Up to `LANES` contacts with no moving body in common: what warm start, solve and relax
/// read, sixteen cache lines. Empty lanes point at the dummy body (the last solver state) with
/// zero masses, so they compute zeros.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(64))]
pub struct ContactRow {
    a: [u32; LANES],
    b: [u32; LANES],
    nx: Wide,
    ny: Wide,
    friction: Wide,
    masses: Masses,
    /// Softness per lane: stiffer against bodies that do not move (Box2D's static softness).
    bias_rate: Wide,
    mass_scale: Wide,
    impulse_scale: Wide,
    points: [PointRow; 2],
}

const _: () = assert!(std::mem::size_of::<ContactRow>() == LANES * 2 * 64);

/// What names a row's lanes: their contacts, point counts and colour (storing the impulses
/// and restitution read it). Written for every row.
#[derive(Clone, Copy, Debug, Default)]
pub struct RowTag {
    /// Index of each lane's contact; `u32::MAX` for an empty lane.
    contact: [u32; LANES],
    /// Points of each lane's manifold (0 for an empty lane).
    counts: [u8; LANES],
    /// The colour the row belongs to (for the graph colour layer).
    color: GraphColor,
}

/// A row's restitution data: what only restitution and, in rows that may bounce, the biased
/// pass read. Kept apart so that the passes over every row read a fifth less memory (1,024
/// bytes a row instead of 1,280), and written only for rows that may bounce (a pile with no
/// restitution never writes it).
#[derive(Clone, Copy, Debug, Default)]
pub struct RowBounce {
    /// Each lane's push-out cap, m/s, read by the biased pass of every row (`push`).
    push_cap: Wide,
    restitution: Wide,
    /// `Contact::approach_rate` of each lane.
    approach_rate: Wide,
    points: [PointBounce; 2],
}

/// One contact point in each lane, for restitution: the normal speed at the start of the step
/// and the sub-step and speed of impact (recorded by the biased pass in rows that may bounce).
#[derive(Clone, Copy, Debug, Default)]
struct PointBounce {
    relative_velocity: Wide,
    impact_time: Wide,
    impact_velocity: Wide,
}

/// Inverse masses of each lane's bodies.
#[derive(Clone, Copy, Debug, Default)]
struct Masses {
    inv_mass_a: Wide,
    inv_inertia_a: Wide,
    inv_mass_b: Wide,
    inv_inertia_b: Wide,
}

/// The rows of one step: every colour's, then the overflow's.
#[derive(Clone, Debug, Default)]
pub struct ContactRows {
    pub rows: Vec<ContactRow>,
    /// Each row's lanes' contacts, counts and colour.
    tags: Vec<RowTag>,
    /// Each row's restitution data, by row (written for rows that may bounce only).
    bounces: Vec<RowBounce>,
    /// Each row: whether any lane has restitution (only those rows record impacts).
    bouncy: Vec<bool>,
    /// Rows of each colour, then one range for the overflow.
    pub ranges: Vec<std::ops::Range<usize>>,
    /// Each contact's row and lane, `row * LANES + lane` (`u32::MAX`: not solved in a row).
    slots: Vec<u32>,
    /// How many solver states the rows were prepared with: every body index of a row is below
    /// it, and the passes check that they are given that many (`gather::body` relies on it).
    states_len: usize,
    /// Whether the passes run their lanes in one AVX register rather than two SSE2 halves
    /// (`use_avx2`); the same bits either way.
    avx2: bool,
    /// The overflow contacts packed into rows (`prepare::pack_overflow`): the contacts, and
    /// each row's first lane then the end.
    overflow_lanes: Vec<u32>,
    overflow_starts: Vec<u32>,
    /// Scratch of the packing: each body's last row.
    overflow_last: Vec<u32>,
    /// Deep contacts of each body (`push`), reused between steps.
    push_counts: Vec<u32>,
}

impl ContactRows {
    /// Calls `f` on every row: each colour's rows on the workers (in blocks, in any order,
    /// which cannot change a bit since a colour's rows share no moving body), one colour after
    /// another, then the overflow's rows in order on this thread. `joints(k)` runs before
    /// colour `k`'s rows (its joints, which share no moving body with them either).
    fn for_each_row(
        &mut self,
        workers: &Workers,
        mut joints: impl FnMut(usize),
        f: impl Fn(&mut ContactRow, &mut RowBounce, &RowTag, bool) + Sync,
    ) {
        let ContactRows { rows, tags, bounces, bouncy, ranges, .. } = self;
        let Some((overflow, colors)) = ranges.split_last() else { return };
        let (bouncy, tags) = (&*bouncy, &*tags);
        let each = |start: usize, rows: &mut [ContactRow], bounces: &mut [RowBounce]| {
            for (((r, e), t), &b) in rows.iter_mut().zip(bounces).zip(&tags[start..]).zip(&bouncy[start..]) {
                f(r, e, t, b);
            }
        };
        for (k, range) in colors.iter().enumerate() {
            joints(k);
            let r = range.clone();
            workers.for_each_chunk2(&mut rows[r.clone()], &mut bounces[r], MIN_BLOCK_ROWS, &|start, rs, es| {
                each(range.start + start, rs, es)
            });
        }
        each(overflow.start, &mut rows[overflow.clone()], &mut bounces[overflow.clone()]);
    }

    /// The states must be the ones the rows were prepared for (their body indices are used
    /// unchecked).
    fn check(&self, states: &[SolverBody]) {
        assert!(self.rows.is_empty() || states.len() == self.states_len, "contact rows prepared for other states");
    }

    /// Asks for the AVX2 kernels (`SolverParams::avx2`): granted where the processor has AVX2.
    pub fn use_avx2(&mut self, wanted: bool) {
        self.avx2 = wanted && avx2_detected();
    }

    /// Whether the passes run on AVX2 (see `use_avx2`).
    pub fn uses_avx2(&self) -> bool {
        self.avx2
    }

    /// Warm starts every row; `joints(k, states)` warm starts colour `k`'s joints first.
    pub fn warm_start(&mut self, states: &mut [SolverBody], workers: &Workers, joints: ColorJoints) {
        self.check(states);
        let cells = BodyCell::from_mut(states);
        let avx2 = self.avx2;
        self.for_each_row(
            workers,
            |k| joints(k, cells),
            |r, _, _, _| {
                #[cfg(target_arch = "x86_64")]
                if avx2 {
                    // SAFETY: the processor has AVX2 (`use_avx2`).
                    return unsafe { avx::warm_start_row(r, cells) };
                }
                let _ = avx2;
                warm_start_row::<Wide>(r, cells)
            },
        );
    }

    /// One pass: biased (`use_bias`) or relax. `elapsed`: time from the step's start to the end
    /// of this sub-step (as in `contact::solve_contacts`). `joints(k, states)` solves colour
    /// `k`'s joints before its rows.
    #[allow(clippy::too_many_arguments)]
    pub fn solve(
        &mut self,
        states: &mut [SolverBody],
        workers: &Workers,
        inv_h: f32,
        max_push: f32,
        use_bias: bool,
        elapsed: f32,
        joints: ColorJoints,
    ) {
        self.check(states);
        let cells = BodyCell::from_mut(states);
        let avx2 = self.avx2;
        // The pass's kernel for one row, on AVX2 or SSE2 lanes.
        macro_rules! row {
            ($r:expr, $e:expr, $bias:literal, $impacts:literal) => {{
                #[cfg(target_arch = "x86_64")]
                if avx2 {
                    // SAFETY: the processor has AVX2 (`use_avx2`).
                    return unsafe { avx::solve_row::<$bias, $impacts>($r, $e, cells, inv_h, max_push, elapsed) };
                }
                let _ = avx2;
                solve_row::<Wide, $bias, $impacts>($r, $e, cells, inv_h, max_push, elapsed)
            }};
        }
        if use_bias {
            self.for_each_row(
                workers,
                |k| joints(k, cells),
                |r, e, _, bouncy| match bouncy {
                    true => row!(r, e, true, true),
                    false => row!(r, e, true, false),
                },
            );
        } else {
            self.for_each_row(workers, |k| joints(k, cells), |r, e, _, _| row!(r, e, false, false));
        }
    }

    pub fn apply_restitution(&mut self, states: &mut [SolverBody], workers: &Workers, threshold: f32) {
        self.check(states);
        let cells = BodyCell::from_mut(states);
        self.for_each_row(
            workers,
            |_| {},
            |r, e, t, bouncy| {
                if bouncy {
                    restitution_row(r, e, t, cells, threshold)
                }
            },
        );
    }

    /// Copies the accumulated impulses and the largest one of the step back to the contacts
    /// (warm starting, drawing, reports) and records the colour each was solved in, row by
    /// row in blocks on the workers (as Box2D v3's `b2StoreImpulses`): the rows are read once,
    /// in order, and each colour's contacts are written in the order of the contact list.
    /// Contacts in no row (asleep) are then marked as not coloured. The impact times and
    /// speeds live only in the rows: nothing reads them after the step.
    pub fn store_impulses(&self, contacts: &mut [Contact], workers: &Workers) {
        // Slots are those of this step's contacts (`prepare`); none: nothing was coloured.
        let slots = self.slots.get(..contacts.len()).unwrap_or(&[]);
        let out = ContactsOut(contacts.as_mut_ptr(), contacts.len());
        let out = &out;
        workers.for_each_range(self.rows.len(), MIN_BLOCK_ROWS, &|range| {
            for i in range {
                if let Some(t) = self.tags.get(i + STORE_AHEAD) {
                    for &k in &t.contact {
                        out.prefetch(k);
                    }
                }
                let (r, t) = (&self.rows[i], &self.tags[i]);
                for (lane, &k) in t.contact.iter().enumerate() {
                    // A contact's slot names the one lane that holds it, so no two lanes
                    // anywhere write the same contact.
                    if slots.get(k as usize) != Some(&((i * LANES + lane) as u32)) {
                        continue;
                    }
                    // SAFETY: `k` is in bounds (it has a slot) and only this lane writes it.
                    let c = unsafe { &mut *out.0.add(k as usize) };
                    c.graph_color = t.color;
                    let count = c.manifold.count;
                    for (cp, p) in c.points[..count].iter_mut().zip(&r.points) {
                        cp.normal_impulse = p.normal_impulse.0[lane];
                        cp.tangent_impulse = p.tangent_impulse.0[lane];
                        cp.max_normal_impulse = p.max_normal_impulse.0[lane];
                    }
                }
            }
        });
        for (k, c) in contacts.iter_mut().enumerate() {
            if slots.get(k).is_none_or(|&slot| slot == u32::MAX) {
                c.graph_color = GraphColor::None;
            }
        }
    }
}

/// How many rows ahead `store_impulses` asks for the contacts it will write.
const STORE_AHEAD: usize = 2;

/// The contacts `store_impulses` writes from the workers, each from the one lane that holds it.
struct ContactsOut(*mut Contact, usize);

// SAFETY: the workers write disjoint contacts through it (see `store_impulses`), while the
// exclusive borrow it was made from is held.
unsafe impl Sync for ContactsOut {}

impl ContactsOut {
    /// Asks for the lines of contact `k` that storing writes, if there is one.
    #[inline(always)]
    fn prefetch(&self, k: u32) {
        if (k as usize) < self.1 {
            // SAFETY: in bounds; the reference only names the address for the prefetch.
            let c = unsafe { &*self.0.add(k as usize) };
            prefetch_bytes(c, std::mem::offset_of!(Contact, origin));
        }
    }
}

/// What a pass does to colour `k`'s joints before its contact rows, given the states as cells
/// (`joint_colors::for_each_joint`); `&mut |_, _| {}` for none.
pub type ColorJoints<'a> = &'a mut dyn FnMut(usize, &[BodyCell]);

/// A point's anchors, loaded into lanes.
#[derive(Clone, Copy)]
struct Anchors<V> {
    ra_x: V,
    ra_y: V,
    rb_x: V,
    rb_y: V,
}

impl PointRow {
    #[inline(always)]
    fn anchors<V: Vector>(&self) -> Anchors<V> {
        Anchors {
            ra_x: V::load(self.ra_x),
            ra_y: V::load(self.ra_y),
            rb_x: V::load(self.rb_x),
            rb_y: V::load(self.rb_y),
        }
    }
}

/// Applies impulse `(px, py)` at the anchors: negative to A, positive to B.
#[inline(always)]
fn apply<V: Vector>(m: &Masses, p: &Anchors<V>, a: &mut Bodies<V>, b: &mut Bodies<V>, px: V, py: V) {
    let l = V::load;
    a.vx -= l(m.inv_mass_a) * px;
    a.vy -= l(m.inv_mass_a) * py;
    a.w -= l(m.inv_inertia_a) * (p.ra_x * py - p.ra_y * px);
    b.vx += l(m.inv_mass_b) * px;
    b.vy += l(m.inv_mass_b) * py;
    b.w += l(m.inv_inertia_b) * (p.rb_x * py - p.rb_y * px);
}

/// Relative velocity of B with respect to A at the anchors (summed in the scalar solver's
/// order, so one contact alone gives the same bits).
#[inline(always)]
fn relative_velocity<V: Vector>(p: &Anchors<V>, a: &Bodies<V>, b: &Bodies<V>) -> (V, V) {
    let dvx = b.vx - b.w * p.rb_y - a.vx + a.w * p.ra_y;
    let dvy = b.vy + b.w * p.rb_x - a.vy - a.w * p.ra_x;
    (dvx, dvy)
}

#[inline(always)]
fn warm_start_row<V: Gather>(r: &ContactRow, states: &[BodyCell]) {
    let mut a = V::gather(states, &r.a);
    let mut b = V::gather(states, &r.b);
    let (nx, ny) = (V::load(r.nx), V::load(r.ny));
    // Tangent = right perpendicular of the normal: (ny, -nx).
    let (tx, ty) = (ny, -nx);
    for p in &r.points {
        let (normal, tangent) = (V::load(p.normal_impulse), V::load(p.tangent_impulse));
        let px = normal * nx + tangent * tx;
        let py = normal * ny + tangent * ty;
        apply(&r.masses, &p.anchors(), &mut a, &mut b, px, py);
    }
    V::scatter(states, &r.a, &a);
    V::scatter(states, &r.b, &b);
}

/// A point's separation now, tracked through the bodies' displacement since the step began.
#[inline(always)]
fn separation<V: Vector>(p: &PointRow, a: &Bodies<V>, b: &Bodies<V>, nx: V, ny: V) -> V {
    let q = p.anchors::<V>();
    let dax = a.dpx + (a.qc * q.ra_x - a.qs * q.ra_y) - q.ra_x;
    let day = a.dpy + (a.qs * q.ra_x + a.qc * q.ra_y) - q.ra_y;
    let dbx = b.dpx + (b.qc * q.rb_x - b.qs * q.rb_y) - q.rb_x;
    let dby = b.dpy + (b.qs * q.rb_x + b.qc * q.rb_y) - q.rb_y;
    V::load(p.base_separation) + (nx * (dbx - dax) + ny * (dby - day))
}

/// One pass over a row: biased (`USE_BIAS`) or relax. `IMPACTS`: record each point's sub-step
/// and speed of impact for restitution (biased pass, rows that may bounce).
#[inline(always)]
fn solve_row<V: Gather, const USE_BIAS: bool, const IMPACTS: bool>(
    r: &mut ContactRow,
    e: &mut RowBounce,
    states: &[BodyCell],
    inv_h: f32,
    max_push: f32,
    elapsed: f32,
) {
    let l = V::load;
    let mut a = V::gather(states, &r.a);
    let mut b = V::gather(states, &r.b);
    let (zero, one) = (V::splat(0.0), V::splat(1.0));
    let inv_h = V::splat(inv_h);
    // The biased pass caps each lane's push at its own share (`push`).
    let max_push = if USE_BIAS { -l(e.push_cap) } else { V::splat(-max_push) };
    // Biased pass: soft coefficients; relax pass: rigid with no bias.
    let (soft_bias_rate, soft_mass, soft_impulse) =
        if USE_BIAS { (l(r.bias_rate), l(r.mass_scale), l(r.impulse_scale)) } else { (zero, one, zero) };
    let ContactRow { nx, ny, friction, masses, points, .. } = r;
    let (nx, ny, friction) = (l(*nx), l(*ny), l(*friction));
    // The displacements do not change within a pass, so both points' separations are taken
    // first: the displacement and rotation lanes are then dead for the rest of the row.
    let separations = [separation(&points[0], &a, &b, nx, ny), separation(&points[1], &a, &b, nx, ny)];
    for ((p, pb), s) in points.iter_mut().zip(&mut e.points).zip(separations) {
        let q = p.anchors::<V>();
        let (normal_impulse, max_normal_impulse) = (l(p.normal_impulse), l(p.max_normal_impulse));
        // Speculative points (s > 0) may close exactly the gap this sub-step.
        let bias = s.select_gt(zero, s * inv_h, (soft_bias_rate * s).max(max_push));
        let mass_scale = s.select_gt(zero, one, soft_mass);
        let impulse_scale = s.select_gt(zero, zero, soft_impulse);
        let (dvx, dvy) = relative_velocity(&q, &a, &b);
        let vn = dvx * nx + dvy * ny;
        let impulse = -(l(p.normal_mass) * mass_scale * (vn + bias)) - impulse_scale * normal_impulse;
        let mut new_impulse = (normal_impulse + impulse).max(zero);
        if IMPACTS {
            // Not pushed yet this step: if it pushes now, this is its sub-step of impact.
            pb.impact_time = max_normal_impulse.select_gt(zero, l(pb.impact_time), V::splat(elapsed)).store();
            pb.impact_velocity = max_normal_impulse.select_gt(zero, l(pb.impact_velocity), vn).store();
        }
        if !USE_BIAS {
            // The relax pass leaves speculative points that have not pushed to the next
            // sub-step: `pushes` is 1 where the point is touching, else its impulse so far.
            let pushes = s.select_gt(zero, normal_impulse, one);
            new_impulse = pushes.select_gt(zero, new_impulse, normal_impulse);
        }
        let applied = new_impulse - normal_impulse;
        p.normal_impulse = new_impulse.store();
        p.max_normal_impulse = max_normal_impulse.max(applied).store();
        apply(masses, &q, &mut a, &mut b, applied * nx, applied * ny);
    }
    // Coulomb friction, capped by μ times each point's normal impulse.
    let (tx, ty) = (ny, -nx);
    for p in points.iter_mut() {
        let q = p.anchors::<V>();
        let tangent_impulse = l(p.tangent_impulse);
        let (dvx, dvy) = relative_velocity(&q, &a, &b);
        let vt = dvx * tx + dvy * ty;
        let impulse = -(l(p.tangent_mass) * vt);
        let max_friction = friction * l(p.normal_impulse);
        let new_impulse = (tangent_impulse + impulse).min(max_friction).max(-max_friction);
        let applied = new_impulse - tangent_impulse;
        p.tangent_impulse = new_impulse.store();
        apply(masses, &q, &mut a, &mut b, applied * tx, applied * ty);
    }
    V::scatter(states, &r.a, &a);
    V::scatter(states, &r.b, &b);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::solver::contact::{
        apply_restitution, prepare_contacts, solve_contacts, warm_start, ContactSoftness,
    };
    use crate::engine::solver::graph::ConstraintGraph;
    use crate::engine::solver::state::fill_solver_bodies;
    use crate::engine::solver::SolverParams;
    use crate::engine::{shape::Shape, BodyDef, BodyKind, World};
    use glam::Vec2;

    /// Boxes resting apart on the ground, a little sunk and moving, with warm impulses.
    fn resting_boxes() -> World {
        let mut w = World::new(SolverParams::default());
        let ground = Shape::make_box(Vec2::new(20.0, 1.0)).unwrap();
        w.create_body(&BodyDef::new(BodyKind::Static, ground, Vec2::new(0.0, -1.0)));
        for k in 0..6 {
            let mut d = BodyDef::new(BodyKind::Dynamic, Shape::make_box(Vec2::splat(0.5)).unwrap(), Vec2::ZERO);
            d.position = Vec2::new(3.0 * k as f32 - 8.0, 0.48 + 0.01 * k as f32);
            d.angle = 0.02 * k as f32;
            d.material.restitution = 0.5 * (k % 2) as f32;
            let i = w.create_body(&d);
            w.bodies[i].linear_velocity = Vec2::new(0.3, -2.0 + 0.2 * k as f32);
        }
        for _ in 0..3 {
            w.step();
        }
        w
    }

    #[test]
    fn rows_compute_the_scalar_solvers_bits_when_the_order_is_the_same() {
        let w = resting_boxes();
        let p = w.params.clone();
        let h = p.dt() / p.substeps as f32;
        let soft = ContactSoftness::new(&p, h);
        let (mut scalar, mut work) = (w.contacts.clone(), Vec::new());
        prepare_contacts(&mut scalar, &mut work, &w.bodies, p.gravity, true);
        let mut wide = scalar.clone();
        let (mut s0, mut cold) = (Vec::new(), Vec::new());
        fill_solver_bodies(&mut s0, &mut cold, &w.bodies);
        let (mut s1, mut s2) = (s0.clone(), s0.clone());
        for s in s1.iter_mut().chain(s2.iter_mut()).filter(|s| s.moves()) {
            s.v.y -= 1.0;
            s.dp = Vec2::new(0.001, -0.004);
        }

        warm_start(&scalar, &mut s1, &cold);
        solve_contacts(&mut scalar, &mut work, &mut s1, &cold, &p, soft, 1.0 / h, true, h);
        solve_contacts(&mut scalar, &mut work, &mut s1, &cold, &p, soft, 1.0 / h, false, h);
        apply_restitution(&mut scalar, &work, &mut s1, &cold, 0.1);

        let mut graph = ConstraintGraph::default();
        graph.color_contacts(&wide, &s2);
        // Every contact touches the ground and a different box: one colour, in contact order.
        assert_eq!(graph.used_colors(), 1);
        let one = Workers::default();
        // The baseline lanes, then AVX2 where the processor has it: the same bits.
        let (start, start_contacts) = (s2.clone(), wide.clone());
        for avx2 in [false, true] {
            let mut rows = ContactRows::default();
            rows.use_avx2(avx2);
            assert_eq!(rows.uses_avx2(), avx2 && avx2_detected());
            (s2, wide) = (start.clone(), start_contacts.clone());
            // Rows prepare from the start-of-step state, as `prepare_contacts` did from the bodies.
            rows.prepare(&graph, &wide, &s0, &cold, soft, p.gravity, true, &one);
            rows.share_push(&wide, p.max_push_velocity);
            rows.warm_start(&mut s2, &one, &mut |_, _| {});
            rows.solve(&mut s2, &one, 1.0 / h, p.max_push_velocity, true, h, &mut |_, _| {});
            rows.solve(&mut s2, &one, 1.0 / h, p.max_push_velocity, false, h, &mut |_, _| {});
            rows.apply_restitution(&mut s2, &one, 0.1);
            rows.store_impulses(&mut wide, &one);
            assert_eq!(s1, s2, "avx2: {avx2}");
        }
        // Storing also records the colour each contact was solved in (against the ground, not 0).
        let used = graph.colors.iter().position(|c| !c.is_empty()).unwrap();
        assert_eq!(used, 1);
        assert!(wide.iter().all(|c| c.graph_color == GraphColor::Color(used as u8)));
        for c in &mut scalar {
            c.graph_color = GraphColor::Color(used as u8);
        }
        assert_eq!(scalar, wide);
        assert!(scalar.iter().all(|c| c.points().iter().any(|p| p.normal_impulse > 0.0)));
    }
}
