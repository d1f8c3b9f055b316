//! Constraint graph colouring (Box2D v3's `b2ConstraintGraph`): each awake contact gets the
//! first colour that neither of its moving bodies already has, so no two contacts of one colour
//! touch the same moving body and a colour's contacts can be solved side by side in SIMD lanes
//! (or on several threads) with no conflicts. Contacts that find no free colour go to the
//! overflow set, solved one at a time after the colours.
//!
//! Box2D keeps colours persistent as contacts begin and end; here they are assigned afresh each
//! step in contact order (pairs sorted by body index), which is cheap and makes the colouring,
//! and so the result, depend on nothing but the world's state.

use super::contact::Contact;
use super::state::SolverBody;

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

/// The contacts of each colour and of the overflow set, as indices into the world's contacts.
#[derive(Clone, Debug, Default)]
pub struct ConstraintGraph {
    pub colors: Vec<Vec<u32>>,
    pub overflow: Vec<u32>,
    /// Per body, a bit per colour it already has (scratch, kept to avoid allocating).
    body_colors: Vec<u32>,
}

// Only bodies a constraint can move are coloured (as in Box2D): static and kinematic bodies may
// appear in any number of contacts of one colour, since no solve changes them. The solver's
// threads rely on this very predicate (`workers::moves`) to write back only coloured bodies.
use super::workers::moves;

impl ConstraintGraph {
    /// Colours the awake contacts. Contacts against a body that does not move skip colour 0,
    /// as Box2D does, which leaves the first colour to the denser dynamic pairs.
    pub fn color_contacts(&mut self, contacts: &[Contact], states: &[SolverBody]) {
        self.colors.resize_with(COLORS, Vec::new);
        for c in &mut self.colors {
            c.clear();
        }
        self.overflow.clear();
        self.body_colors.clear();
        self.body_colors.resize(states.len(), 0);
        for (k, c) in contacts.iter().enumerate() {
            if !c.awake {
                continue;
            }
            let (ma, mb) = (moves(&states[c.a]), moves(&states[c.b]));
            let mut used = 0u32;
            if ma {
                used |= self.body_colors[c.a];
            }
            if mb {
                used |= self.body_colors[c.b];
            }
            if !(ma && mb) {
                used |= 1;
            }
            let color = (!used).trailing_zeros() as usize;
            if color >= COLORS {
                self.overflow.push(k as u32);
                continue;
            }
            self.colors[color].push(k as u32);
            if ma {
                self.body_colors[c.a] |= 1 << color;
            }
            if mb {
                self.body_colors[c.b] |= 1 << color;
            }
        }
    }

    /// Marks every contact as not coloured.
    pub fn unlabel_contacts(contacts: &mut [Contact]) {
        for c in contacts {
            c.graph_color = GraphColor::None;
        }
    }

    /// Colours that hold at least one contact.
    pub fn used_colors(&self) -> usize {
        self.colors.iter().filter(|c| !c.is_empty()).count()
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
}
