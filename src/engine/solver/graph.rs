//! Constraint graph colouring (Box2D v3's `b2ConstraintGraph`): each awake joint, then each
//! awake contact, gets the first colour that neither of its moving bodies already has, so no
//! two constraints of one colour touch the same moving body and a colour's constraints can be
//! solved side by side in SIMD lanes (contacts) or on several threads (contacts and joints)
//! with no conflicts. Constraints that find no free colour go to the overflow sets, solved one
//! at a time on the calling thread: overflow joints before the colours, overflow contacts after.
//!
//! Box2D keeps colours persistent as constraints begin and end; here they are assigned afresh
//! each step in joint order, then contact order (pairs sorted by body index), which makes the
//! colouring, and so the result, depend on nothing but the world's state. The colouring is a
//! pure function of each constraint's bodies, whether it is awake and whether each body moves
//! (its [`ContactKey`]s, in order): when the keys are those of the last colouring, as in a pile
//! whose contacts neither begin nor end, the colours are kept instead of walking every contact
//! again. The keys are compared while the contacts are marked awake
//! ([`ConstraintGraph::mark_awake_contacts`]), a pass that reads each contact's bodies anyway;
//! and when no contact began or ended and no body's awake or moving bit changed since the last
//! marking and colouring, that pass itself is skipped (its marks and keys would be the same).

use super::contact::Contact;
use super::state::{body_moves, SolverBody};
use crate::engine::body::{Body, BodyKind};
use crate::engine::parallel::{Workers, BODY_BLOCK, CONTACT_BLOCK};
use crate::engine::prefetch::{prefetch_head, CONTACTS_AHEAD};
use std::sync::atomic::{AtomicBool, Ordering};

/// Colours before the overflow set (Box2D v3's `B2_GRAPH_COLOR_COUNT`).
pub const COLORS: usize = 24;

/// Contacts a moving body keeps for the solver among those with other moving bodies, in
/// contact order, in a step with more than [`CAPPED_ABOVE`] contacts: a contact of two moving
/// bodies is solved if either of them has kept fewer, and counts for both (contacts with
/// static, kinematic or sleeping bodies are always solved and never count). So such a step
/// solves at most `SOLVED_PER_BODY × bodies` contacts between moving bodies: 2,000 boxes
/// created at one point touch in 2 million pairs, the broadphase keeps 250,000, and their
/// steps solved them all (about 150 ms each in a release build); kept, at most 64,000. A box
/// in a packed pile touches 8 others and a circle 6, so no ordinary scene reaches it. Beyond
/// Box2D v3, which solves every contact. The soft step only: the article's scalar modes
/// solve every awake contact.
pub const SOLVED_PER_BODY: u32 = 32;

/// Contacts in a step from which [`SOLVED_PER_BODY`] applies: smaller piles are solved
/// whole (100 boxes created at one point touch in 4,950 pairs, solved in about 10 ms), so
/// they spread as before.
pub const CAPPED_ABOVE: usize = 65_536;

/// Where a contact was solved in the last step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GraphColor {
    /// Not solved in coloured rows: asleep, new since the step, or a scalar solver mode.
    #[default]
    None,
    /// Colour `k`, below [`COLORS`].
    Color(u8),
    /// The overflow set, solved one contact at a time.
    Overflow,
}

/// The contacts of each colour and of the overflow set, as indices into the world's contacts,
/// and the joints likewise, as indices into the world's joints.
#[derive(Clone, Debug, Default)]
pub struct ConstraintGraph {
    pub colors: Vec<Vec<u32>>,
    pub overflow: Vec<u32>,
    pub joint_colors: Vec<Vec<u32>>,
    pub joint_overflow: Vec<u32>,
    /// Awake contacts left unsolved this step by [`SOLVED_PER_BODY`] (a pile).
    pub capped: Vec<u32>,
    /// Per body, a bit per colour it already has (scratch, kept to avoid allocating).
    body_colors: Vec<u32>,
    /// Per body, its contacts with another moving body kept so far (scratch).
    body_solved: Vec<u32>,
    /// Per contact, its key at the last colouring.
    keys: Vec<ContactKey>,
    /// The awake joints as the last colouring read them, and this step's (scratch).
    joints: Vec<JointEntry>,
    new_joints: Vec<JointEntry>,
    /// Set by `mark_awake_contacts` when every contact's key is the last colouring's; taken
    /// by the next colouring.
    contacts_unchanged: bool,
    /// Per body: [`AWAKE_DYNAMIC`] and [`MOVES_BIT`], as the last marking found them.
    body_bits: Vec<u8>,
    /// Set by a colouring: `keys` are those of the last marking's contacts (taken by the next
    /// marking, so a step without a colouring, in a scalar mode, leaves it unset).
    colored_marks: bool,
}

/// What the colouring reads of one contact: its bodies, and whether each moves, packed;
/// [`ContactKey::ASLEEP`] for a contact the solver skips.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ContactKey(u64);

impl ContactKey {
    pub const ASLEEP: ContactKey = ContactKey(u64::MAX);

    /// `None` for a body index of 2³¹ or more (no key: such a contact is always recoloured).
    fn new(a: usize, b: usize, moves_a: bool, moves_b: bool) -> Option<ContactKey> {
        let fits = |i: usize| i < 1 << 31;
        (fits(a) && fits(b))
            .then(|| ContactKey(a as u64 | (b as u64) << 31 | u64::from(moves_a) << 62 | u64::from(moves_b) << 63))
    }
}

/// What the colouring reads of an awake joint: its index, bodies, and whether each moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct JointEntry {
    k: usize,
    a: usize,
    b: usize,
    moves: (bool, bool),
}

/// `ConstraintGraph::body_bits`: an awake dynamic body (its contacts are solved).
const AWAKE_DYNAMIC: u8 = 1;
/// `ConstraintGraph::body_bits`: a body the solver moves (`state::body_moves`).
const MOVES_BIT: u8 = 2;

// Only bodies a constraint can move are coloured (as in Box2D): static and kinematic bodies may
// appear in any number of contacts of one colour, since no solve changes them. The solver's
// threads rely on this very predicate (`body_cell::moves`) to write back only coloured bodies.
use super::body_cell::moves;

impl ConstraintGraph {
    /// Colours the awake contacts, with no joints.
    pub fn color_contacts(&mut self, contacts: &[Contact], states: &[SolverBody]) {
        self.color(std::iter::empty(), contacts, states);
    }

    /// Marks each contact awake when one of its bodies is an awake dynamic body (reading each
    /// body once, not twice per contact), in blocks of contacts on `workers`, and records
    /// whether every contact's key is still the last colouring's. `list_same` is the caller's
    /// word that no contact was added or removed since the last call: then, if no body's bits
    /// changed either and the last colouring saw that call's keys, every mark and key is what
    /// the pass would find again, and the contacts are not walked (a settled pile's step).
    /// With `wake_dynamic` (sleep off), every dynamic body is set awake first, in the same
    /// pass over the bodies.
    pub fn mark_awake_contacts(
        &mut self,
        bodies: &mut [Body],
        contacts: &mut [Contact],
        workers: &Workers,
        list_same: bool,
        wake_dynamic: bool,
    ) {
        let resized = self.body_bits.len() != bodies.len();
        self.body_bits.resize(bodies.len(), 0);
        let bits_changed = AtomicBool::new(resized);
        workers.for_each_chunk2(&mut self.body_bits, bodies, BODY_BLOCK, &|_, bits, bodies| {
            let mut changed = false;
            for (bit, b) in bits.iter_mut().zip(bodies) {
                if wake_dynamic && b.kind == BodyKind::Dynamic {
                    b.awake = true;
                }
                let awake = b.kind == BodyKind::Dynamic && b.awake;
                let new = (u8::from(awake) * AWAKE_DYNAMIC) | (u8::from(body_moves(b)) * MOVES_BIT);
                changed |= *bit != new;
                *bit = new;
            }
            if changed {
                bits_changed.store(true, Ordering::Relaxed);
            }
        });
        let colored = std::mem::take(&mut self.colored_marks);
        if list_same && colored && !bits_changed.into_inner() && self.keys.len() == contacts.len() {
            #[cfg(debug_assertions)]
            {
                let awake: Vec<bool> = contacts.iter().map(|c| c.awake).collect();
                self.mark_each(contacts, workers);
                assert!(self.contacts_unchanged, "a skipped marking would have found other keys");
                assert!(contacts.iter().map(|c| c.awake).eq(awake), "a skipped marking would have marked otherwise");
            }
            self.contacts_unchanged = true;
            return;
        }
        self.mark_each(contacts, workers);
    }

    /// The walk of [`ConstraintGraph::mark_awake_contacts`] over the contacts, from `body_bits`.
    fn mark_each(&mut self, contacts: &mut [Contact], workers: &Workers) {
        let (bits, keys) = (&self.body_bits, &self.keys);
        let changed = AtomicBool::new(keys.len() != contacts.len());
        workers.for_each_chunk(contacts, CONTACT_BLOCK, &|start, contacts| {
            let mut same = true;
            for i in 0..contacts.len() {
                prefetch_head(contacts, i + CONTACTS_AHEAD);
                let c = &mut contacts[i];
                let (ba, bb) = (bits[c.a], bits[c.b]);
                c.awake = (ba | bb) & AWAKE_DYNAMIC != 0;
                let key = if c.awake {
                    ContactKey::new(c.a, c.b, ba & MOVES_BIT != 0, bb & MOVES_BIT != 0)
                } else {
                    Some(ContactKey::ASLEEP)
                };
                same &= key.is_some() && keys.get(start + i) == key.as_ref();
            }
            if !same {
                changed.store(true, Ordering::Relaxed);
            }
        });
        self.contacts_unchanged = !changed.into_inner();
    }

    /// Colours the awake joints (`joints`: index and bodies A, B of each), then the awake
    /// contacts. Joints take the first free colour, as in Box2D. Contacts against a body that
    /// does not move skip colour 0, as Box2D's do, which leaves the first colour to the denser
    /// dynamic pairs. Keeps the last colouring when nothing it reads has changed: the contacts'
    /// keys (as `mark_awake_contacts` found them just before, with no edit since) and the
    /// joints'.
    pub fn color(
        &mut self,
        joints: impl Iterator<Item = (usize, usize, usize)>,
        contacts: &[Contact],
        states: &[SolverBody],
    ) {
        let mut now = std::mem::take(&mut self.new_joints);
        now.clear();
        now.extend(joints.map(|(k, a, b)| JointEntry { k, a, b, moves: (moves(&states[a]), moves(&states[b])) }));
        let unchanged = std::mem::take(&mut self.contacts_unchanged)
            && now == self.joints
            && self.colors.len() == COLORS
            && self.joint_colors.len() == COLORS;
        if unchanged {
            #[cfg(debug_assertions)]
            {
                let mut fresh = ConstraintGraph::default();
                fresh.color_afresh(&now, contacts, states);
                assert!(
                    (&fresh.colors, &fresh.overflow, &fresh.capped, &fresh.joint_colors, &fresh.joint_overflow)
                        == (&self.colors, &self.overflow, &self.capped, &self.joint_colors, &self.joint_overflow),
                    "a kept colouring differs from a fresh one"
                );
            }
        } else {
            self.color_afresh(&now, contacts, states);
        }
        self.new_joints = std::mem::replace(&mut self.joints, now);
        self.colored_marks = true;
    }

    /// Colours from scratch (see `color`), recording each contact's key.
    fn color_afresh(&mut self, joints: &[JointEntry], contacts: &[Contact], states: &[SolverBody]) {
        for list in [&mut self.colors, &mut self.joint_colors] {
            list.resize_with(COLORS, Vec::new);
            list.iter_mut().for_each(Vec::clear);
        }
        self.overflow.clear();
        self.joint_overflow.clear();
        self.capped.clear();
        self.body_colors.clear();
        self.body_colors.resize(states.len(), 0);
        self.body_solved.clear();
        self.body_solved.resize(states.len(), 0);
        for &JointEntry { k, a, b, .. } in joints {
            match self.assign(states, a, b, 0) {
                Some(color) => self.joint_colors[color].push(k as u32),
                None => self.joint_overflow.push(k as u32),
            }
        }
        self.keys.clear();
        self.keys.reserve(contacts.len());
        let capping = contacts.len() > CAPPED_ABOVE;
        for (k, c) in contacts.iter().enumerate() {
            prefetch_head(contacts, k + CONTACTS_AHEAD);
            if !c.awake {
                self.keys.push(ContactKey::ASLEEP);
                continue;
            }
            let (ma, mb) = (moves(&states[c.a]), moves(&states[c.b]));
            self.keys.push(ContactKey::new(c.a, c.b, ma, mb).unwrap_or(ContactKey::ASLEEP));
            if capping && ma && mb && !self.keeps(c.a, c.b) {
                self.capped.push(k as u32);
                continue;
            }
            let first_if_static = u32::from(!(ma && mb));
            match self.assign(states, c.a, c.b, first_if_static) {
                Some(color) => self.colors[color].push(k as u32),
                None => self.overflow.push(k as u32),
            }
        }
    }

    /// Whether the contact of moving bodies `a` and `b` is solved ([`SOLVED_PER_BODY`]);
    /// counts it for both when it is.
    fn keeps(&mut self, a: usize, b: usize) -> bool {
        let solved = &mut self.body_solved;
        if solved[a] >= SOLVED_PER_BODY && solved[b] >= SOLVED_PER_BODY {
            return false;
        }
        solved[a] += 1;
        solved[b] += 1;
        true
    }

    /// The first colour (not in `taken`) that neither moving body of `a`, `b` has yet, now
    /// theirs; `None` when all are taken.
    fn assign(&mut self, states: &[SolverBody], a: usize, b: usize, taken: u32) -> Option<usize> {
        let (ma, mb) = (moves(&states[a]), moves(&states[b]));
        let mut used = taken;
        if ma {
            used |= self.body_colors[a];
        }
        if mb {
            used |= self.body_colors[b];
        }
        let color = (!used).trailing_zeros() as usize;
        if color >= COLORS {
            return None;
        }
        if ma {
            self.body_colors[a] |= 1 << color;
        }
        if mb {
            self.body_colors[b] |= 1 << color;
        }
        Some(color)
    }

    /// Marks every contact as not coloured.
    pub fn unlabel_contacts(contacts: &mut [Contact]) {
        for c in contacts {
            c.graph_color = GraphColor::None;
        }
    }

    /// Colours that hold at least one contact or joint.
    pub fn used_colors(&self) -> usize {
        (0..self.colors.len().min(self.joint_colors.len()))
            .filter(|&k| !self.colors[k].is_empty() || !self.joint_colors[k].is_empty())
            .count()
    }

    /// Contacts and joints in the overflow sets.
    pub fn overflow_count(&self) -> usize {
        self.overflow.len() + self.joint_overflow.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::collide::Manifold;
    use crate::engine::solver::state::MOVES;

    fn contact(a: usize, b: usize) -> Contact {
        Contact::new(a, b, Manifold::EMPTY, 0.5, 0.0, None)
    }

    #[test]
    fn no_colour_shares_a_moving_body() {
        let mut states = vec![SolverBody::at_rest(); 6];
        for s in &mut states[1..] {
            s.flags = MOVES;
        }
        // Body 0 is static: it may appear many times in one colour.
        let contacts: Vec<Contact> = vec![
            contact(0, 1),
            contact(0, 2),
            contact(1, 2),
            contact(2, 3),
            contact(3, 4),
            contact(1, 4),
            contact(0, 5),
        ];
        let mut g = ConstraintGraph::default();
        g.color_contacts(&contacts, &states);
        assert!(g.overflow.is_empty());
        for color in &g.colors {
            let mut seen = [false; 6];
            for &k in color {
                let c = &contacts[k as usize];
                for body in [c.a, c.b] {
                    if body != 0 {
                        assert!(!seen[body], "body {body} twice in one colour");
                        seen[body] = true;
                    }
                }
            }
        }
        assert_eq!(g.colors.iter().map(Vec::len).sum::<usize>(), contacts.len());
        // Static contacts leave colour 0 to dynamic pairs.
        assert!(g.colors[0].iter().all(|&k| contacts[k as usize].a != 0));
    }

    #[test]
    fn joints_and_contacts_of_one_colour_share_no_moving_body() {
        let mut states = vec![SolverBody::at_rest(); 7];
        for s in &mut states[1..] {
            s.flags = MOVES;
        }
        // A chain 1-2-3-4 of joints, one to the static body 0, and contacts over the same bodies.
        let joints = [(0usize, 1usize, 2usize), (1, 2, 3), (2, 3, 4), (3, 0, 4), (4, 5, 6)];
        let contacts: Vec<Contact> = vec![contact(0, 1), contact(1, 2), contact(2, 3), contact(1, 3), contact(5, 6)];
        let mut g = ConstraintGraph::default();
        g.color(joints.iter().copied(), &contacts, &states);
        assert!(g.overflow.is_empty() && g.joint_overflow.is_empty());
        for (cs, js) in g.colors.iter().zip(&g.joint_colors) {
            let mut seen = [false; 7];
            let pairs = cs.iter().map(|&k| (contacts[k as usize].a, contacts[k as usize].b));
            let pairs = pairs.chain(js.iter().map(|&k| (joints[k as usize].1, joints[k as usize].2)));
            for (a, b) in pairs {
                for body in [a, b].into_iter().filter(|&i| i != 0) {
                    assert!(!seen[body], "body {body} twice in one colour");
                    seen[body] = true;
                }
            }
        }
        assert_eq!(g.joint_colors.iter().map(Vec::len).sum::<usize>(), joints.len());
        // Joints are coloured first, from colour 0 (their own index order).
        assert_eq!(g.joint_colors[0], [0, 2, 4]);
        assert_eq!(
            g.used_colors(),
            g.colors.iter().zip(&g.joint_colors).filter(|(c, j)| !c.is_empty() || !j.is_empty()).count()
        );
    }

    #[test]
    fn a_pile_solves_at_most_its_share_per_body_and_a_scene_all() {
        // 400 moving bodies, each touching every other and the static body 0: 80,200
        // contacts, past `CAPPED_ABOVE`.
        let n = 401;
        let mut states = vec![SolverBody::at_rest(); n];
        for s in &mut states[1..] {
            s.flags = MOVES;
        }
        let contacts: Vec<Contact> = (0..n).flat_map(|a| (a + 1..n).map(move |b| contact(a, b))).collect();
        let mut g = ConstraintGraph::default();
        g.color_contacts(&contacts, &states);
        let solved: Vec<u32> = g.colors.iter().flatten().chain(&g.overflow).copied().collect();
        assert_eq!(solved.len() + g.capped.len(), contacts.len());
        // Every contact with the static body is solved; the rest within the bound.
        assert!(g.capped.iter().all(|&k| contacts[k as usize].a != 0));
        let moving = solved.iter().filter(|&&k| contacts[k as usize].a != 0).count();
        assert!(moving <= SOLVED_PER_BODY as usize * (n - 1), "{moving}");
        assert!(!g.capped.is_empty());
        // A capped contact joins two bodies that each have their share of solved ones.
        let mut per_body = vec![0u32; n];
        for &k in &solved {
            let c = &contacts[k as usize];
            if c.a != 0 {
                per_body[c.a] += 1;
                per_body[c.b] += 1;
            }
        }
        for &k in &g.capped {
            let c = &contacts[k as usize];
            assert!(per_body[c.a] >= SOLVED_PER_BODY && per_body[c.b] >= SOLVED_PER_BODY);
        }
        assert!(valid(&g, &contacts, &states));

        // A smaller pile is solved whole; so is a packed scene past the count (each body
        // touching its neighbours).
        let small: Vec<Contact> = contacts.iter().filter(|c| c.b < 101).cloned().collect();
        g.color_contacts(&small, &states);
        assert!(g.capped.is_empty());
        let mut states = vec![SolverBody::at_rest(); CAPPED_ABOVE + 2];
        states.iter_mut().for_each(|s| s.flags = MOVES);
        let chain: Vec<Contact> = (0..CAPPED_ABOVE + 1).map(|a| contact(a, a + 1)).collect();
        g.color_contacts(&chain, &states);
        assert!(g.capped.is_empty());
    }

    /// Whether no colour holds two contacts sharing a moving body.
    fn valid(g: &ConstraintGraph, contacts: &[Contact], states: &[SolverBody]) -> bool {
        g.colors.iter().all(|color| {
            let mut seen = vec![false; states.len()];
            color.iter().all(|&k| {
                let c = &contacts[k as usize];
                [c.a, c.b].into_iter().filter(|&i| moves(&states[i])).all(|i| !std::mem::replace(&mut seen[i], true))
            })
        })
    }

    #[test]
    fn the_colouring_is_kept_only_while_what_it_reads_is_unchanged() {
        use crate::engine::body::{Body, BodyDef};
        use crate::engine::parallel::Workers;
        use crate::engine::shape::Shape;
        let circle = Shape::circle(0.5).unwrap();
        let mut bodies: Vec<Body> = (0..5)
            .map(|i| Body::new(&BodyDef::new(BodyKind::Dynamic, circle, glam::Vec2::new(i as f32, 0.0))))
            .collect();
        let states_of = |bodies: &[Body]| bodies.iter().map(SolverBody::new).collect::<Vec<_>>();
        let workers = Workers::default();
        let mut g = ConstraintGraph::default();
        let step = |g: &mut ConstraintGraph, bodies: &mut [Body], contacts: &mut Vec<Contact>, list_same: bool| {
            g.mark_awake_contacts(bodies, contacts, &workers, list_same, false);
            let kept = g.contacts_unchanged;
            let states = states_of(bodies);
            g.color_contacts(contacts, &states);
            assert!(valid(g, contacts, &states));
            let awake = contacts.iter().filter(|c| c.awake).count();
            assert_eq!(g.colors.iter().map(Vec::len).sum::<usize>() + g.overflow.len(), awake);
            kept
        };
        // A chain: coloured afresh, then kept.
        let mut contacts: Vec<Contact> = (0..4).map(|i| contact(i, i + 1)).collect();
        assert!(!step(&mut g, &mut bodies, &mut contacts, false));
        assert!(step(&mut g, &mut bodies, &mut contacts, false));
        // The same list again, vouched for: the walk is skipped (debug builds walk anyway and
        // check that it finds the same), the colouring kept.
        assert!(step(&mut g, &mut bodies, &mut contacts, true));
        // As many contacts, other bodies (a star around body 0): recoloured.
        let mut star: Vec<Contact> = (1..5).map(|i| contact(0, i)).collect();
        assert!(!step(&mut g, &mut bodies, &mut star, false));
        assert!(step(&mut g, &mut bodies, &mut star, true));
        // Body 0 made static: it no longer moves, so the star fits in one colour; the body's
        // bits changed, so the contacts are walked although the list is the same.
        bodies[0] = Body::new(&BodyDef::new(BodyKind::Static, circle, glam::Vec2::ZERO));
        assert!(!step(&mut g, &mut bodies, &mut star, true));
        assert_eq!(g.used_colors(), 1);
        // One leaf asleep: its contact leaves the colouring.
        bodies[4].awake = false;
        assert!(!step(&mut g, &mut bodies, &mut star, true));
        assert!(!star[3].awake);
        assert_eq!(g.colors.iter().map(Vec::len).sum::<usize>(), 3);
    }

    #[test]
    fn a_body_in_more_constraints_than_colours_sends_the_rest_to_overflow() {
        let mut states = vec![SolverBody::at_rest(); COLORS + 3];
        for s in &mut states {
            s.flags = MOVES;
        }
        // Body 0 is hinged to every other body: only COLORS of those joints find a colour.
        let joints: Vec<(usize, usize, usize)> = (1..COLORS + 3).map(|i| (i - 1, 0, i)).collect();
        let mut g = ConstraintGraph::default();
        g.color(joints.iter().copied(), &[contact(1, 2)], &states);
        assert_eq!(g.joint_colors.iter().map(Vec::len).sum::<usize>(), COLORS);
        assert_eq!(g.joint_overflow, [COLORS as u32, COLORS as u32 + 1]);
        assert_eq!(g.overflow_count(), 2);
    }
}
