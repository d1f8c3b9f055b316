//! Constraint graph colouring (Box2D v3's `b2ConstraintGraph`): each awake joint, then each
//! awake contact, gets the first colour that neither of its moving bodies already has, so no
//! two constraints of one colour touch the same moving body and a colour's constraints can be
//! solved side by side in SIMD lanes (contacts) or on several threads (contacts and joints)
//! with no conflicts. Constraints that find no free colour go to the overflow sets, solved one
//! at a time on the calling thread: overflow joints before the colours, overflow contacts after.
//!
//! Box2D keeps colours persistent as constraints begin and end; here they are assigned afresh
//! each step in joint order, then contact order (pairs sorted by body index), which is cheap and
//! makes the colouring, and so the result, depend on nothing but the world's state.

use super::contact::Contact;
use super::state::SolverBody;
use crate::engine::prefetch::{prefetch_head, CONTACTS_AHEAD};

/// Colours before the overflow set (Box2D v3's `B2_GRAPH_COLOR_COUNT`).
pub const COLORS: usize = 24;

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
    /// Per body, a bit per colour it already has (scratch, kept to avoid allocating).
    body_colors: Vec<u32>,
}

// Only bodies a constraint can move are coloured (as in Box2D): static and kinematic bodies may
// appear in any number of contacts of one colour, since no solve changes them. The solver's
// threads rely on this very predicate (`workers::moves`) to write back only coloured bodies.
use super::workers::moves;

impl ConstraintGraph {
    /// Colours the awake contacts, with no joints.
    pub fn color_contacts(&mut self, contacts: &[Contact], states: &[SolverBody]) {
        self.color(std::iter::empty(), contacts, states);
    }

    /// Colours the awake joints (`joints`: index and bodies A, B of each), then the awake
    /// contacts. Joints take the first free colour, as in Box2D. Contacts against a body that
    /// does not move skip colour 0, as Box2D's do, which leaves the first colour to the denser
    /// dynamic pairs.
    pub fn color(
        &mut self,
        joints: impl Iterator<Item = (usize, usize, usize)>,
        contacts: &[Contact],
        states: &[SolverBody],
    ) {
        for list in [&mut self.colors, &mut self.joint_colors] {
            list.resize_with(COLORS, Vec::new);
            list.iter_mut().for_each(Vec::clear);
        }
        self.overflow.clear();
        self.joint_overflow.clear();
        self.body_colors.clear();
        self.body_colors.resize(states.len(), 0);
        for (k, a, b) in joints {
            match self.assign(states, a, b, 0) {
                Some(color) => self.joint_colors[color].push(k as u32),
                None => self.joint_overflow.push(k as u32),
            }
        }
        for (k, c) in contacts.iter().enumerate() {
            prefetch_head(contacts, k + CONTACTS_AHEAD);
            if !c.awake {
                continue;
            }
            let first_if_static = u32::from(!(moves(&states[c.a]) && moves(&states[c.b])));
            match self.assign(states, c.a, c.b, first_if_static) {
                Some(color) => self.colors[color].push(k as u32),
                None => self.overflow.push(k as u32),
            }
        }
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
