//! Step 3 of the narrowphase (`contacts.rs`): the step's new contacts merged into the sorted
//! contact list in place, from the back, so the list stays sorted by body pair and its memory
//! is reused.

use crate::engine::broadphase::pair_finder::MAX_PAIRS;
use crate::engine::solver::Contact;

/// Contacts past which the list, when it must grow, takes room for the broadphase's whole
/// pair bound at once (with the quarter more it allows for pairs with static bodies). Growing copies the list into fresh memory, whose pages the system
/// then maps one by one: a pile filling its 250,000 contacts by doubling copied 180,000 of
/// them (58 MB) in one step, 50 ms on a 2-core machine. Reserved, untouched memory costs
/// nothing, so the list is copied once, small, and then only grows into its room.
const RESERVE_ALL_FROM: usize = 16_384;

/// Room for `more` contacts after those of `contacts` (see [`RESERVE_ALL_FROM`]).
fn grow(contacts: &mut Vec<Contact>, more: usize) {
    let need = contacts.len() + more;
    if need > contacts.capacity() && need > RESERVE_ALL_FROM {
        contacts.reserve(need.max(MAX_PAIRS + MAX_PAIRS / 4) - contacts.len());
    }
}

/// Merges `added` (sorted by pair, no pair in common with `contacts`) into the sorted
/// `contacts`, in place from the back, emptying `added`. The old contacts between two new
/// ones move up as one block (a memory move), so each is read and written once however many
/// new contacts land before it.
pub(super) fn merge_from_back(contacts: &mut Vec<Contact>, added: &mut Vec<Contact>) {
    if added.is_empty() {
        return;
    }
    let key = Contact::key;
    // No old ones (a first step): the new list is the list, not copied.
    if contacts.is_empty() && added.len() <= RESERVE_ALL_FROM {
        std::mem::swap(contacts, added);
        return;
    }
    grow(contacts, added.len());
    // All new ones after the old (a world filling up in order): one append.
    if contacts.last().is_some_and(|last| key(last) < key(&added[0])) {
        contacts.append(added);
        return;
    }
    // Old contacts not yet moved: `contacts[..end]`; the merged tail starts at `w`.
    let mut end = contacts.len();
    contacts.extend_from_slice(added);
    let mut w = contacts.len();
    while let Some(c) = added.pop() {
        let start = contacts[..end].partition_point(|o| key(o) < key(&c));
        contacts.copy_within(start..end, w - (end - start));
        w -= end - start + 1;
        end = start;
        contacts[w] = c;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::collide::Manifold;

    fn contact(a: usize, b: usize) -> Contact {
        let mut m = Manifold::EMPTY;
        m.count = 1;
        Contact::new(a, b, m, 0.5, 0.0, None)
    }

    #[test]
    fn merging_from_the_back_keeps_the_pairs_sorted() {
        let keys = |v: &[Contact]| v.iter().map(|c| (c.a, c.b)).collect::<Vec<_>>();
        for (old, new) in [
            (vec![(0, 1), (0, 3), (2, 5)], vec![(0, 2), (3, 4)]),
            (vec![], vec![(1, 2)]),
            (vec![(1, 2)], vec![]),
            (vec![(5, 6), (7, 8)], vec![(0, 1), (1, 2)]),
            (vec![(0, 1), (1, 2)], vec![(5, 6), (7, 8)]),
        ] {
            let mut contacts: Vec<Contact> = old.iter().map(|&(a, b)| contact(a, b)).collect();
            let mut added: Vec<Contact> = new.iter().map(|&(a, b)| contact(a, b)).collect();
            merge_from_back(&mut contacts, &mut added);
            let mut want = [old, new].concat();
            want.sort();
            assert_eq!(keys(&contacts), want);
            assert!(added.is_empty());
        }
    }

    #[test]
    fn a_list_past_the_reserve_point_grows_once_to_the_pair_bound() {
        let mut contacts: Vec<Contact> = (0..RESERVE_ALL_FROM).map(|k| contact(0, 2 * k + 1)).collect();
        let mut added: Vec<Contact> = (0..100).map(|k| contact(1, 2 * k + 2)).collect();
        merge_from_back(&mut contacts, &mut added);
        assert!(contacts.capacity() >= MAX_PAIRS + MAX_PAIRS / 4, "{}", contacts.capacity());
        // Later merges within the bound move the contacts in place: the memory stays.
        let at = contacts.as_ptr();
        for step in 2..20 {
            let mut more: Vec<Contact> = (0..5000).map(|k| contact(step, 2 * k + 2)).collect();
            merge_from_back(&mut contacts, &mut more);
        }
        assert_eq!(contacts.as_ptr(), at);
        assert!(contacts.windows(2).all(|w| w[0].key() < w[1].key()));
    }

    #[test]
    fn merging_from_the_back_moves_each_contact_whole() {
        // Random disjoint sets of pairs, each contact tagged (friction) with its own pair.
        let mut seed = 0x2545_f491_u64;
        let mut next = |n: u64| {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            (seed >> 33) % n
        };
        let tagged = |a: usize, b: usize| {
            let mut c = contact(a, b);
            c.friction = (a * 1000 + b) as f32;
            c
        };
        for _ in 0..200 {
            let mut pairs: Vec<(usize, usize)> =
                (0..next(40)).map(|_| (next(30) as usize, 30 + next(30) as usize)).collect();
            pairs.sort();
            pairs.dedup();
            let (mut old, mut new) = (Vec::new(), Vec::new());
            for &(a, b) in &pairs {
                if next(3) == 0 {
                    new.push(tagged(a, b))
                } else {
                    old.push(tagged(a, b))
                }
            }
            merge_from_back(&mut old, &mut new);
            assert!(new.is_empty());
            assert_eq!(old.iter().map(|c| (c.a, c.b)).collect::<Vec<_>>(), pairs);
            assert!(old.iter().all(|c| c.friction == (c.a * 1000 + c.b) as f32));
        }
    }
}
