//! Step 2 of the pair finder: the move buffer's tree queries (`query_parts`, on the
//! workers), bounded by [`MAX_PAIRS`] and [`new_pair_room`]
//! ([`MAX_NEW_PAIRS`](super::MAX_NEW_PAIRS), more for a packed scene's many queries of few
//! pairs).
//!
//! A moved proxy's query reports every proxy its fat box overlaps, so it reports again the
//! pairs it already has; those are merged away at the end. Only new pairs count against the
//! limit: when the candidates pass the room left, the ones already in the pair set are
//! dropped and from then on skipped as they come (a binary search, only past that point), so
//! a large world whose moved proxies re-report many pairs is not mistaken for a pile (a
//! 25,000-body rain put queries off at 140,000 pairs before). Proxies whose queries do not
//! fit stay in the move buffer and still meet the static and kinematic bodies they overlap,
//! through a tree of those bodies alone, so a pile that fills the set neither falls through
//! its ground nor walks the whole pile once per put-off proxy (20,000 boxes at one point
//! spent 8.6 s a step there).

use super::{new_pair_room, should_collide, Broadphase, MAX_PAIRS};
use crate::engine::body::Body;
use crate::engine::parallel::Workers;

impl Broadphase {
    /// Queries the tree for every proxy in the move buffer (in parts on `workers`:
    /// `query_parts`) and merges the new pairs. Once the new pairs of the first queries would
    /// pass [`MAX_PAIRS`] or their [`new_pair_room`], the remaining proxies stay in the move
    /// buffer for the next update (the one whose pairs do not all fit too: those that fit are
    /// kept, and the repeat is deduplicated).
    pub(super) fn query_move_buffer(&mut self, bodies: &[Body], workers: &Workers) {
        let room = MAX_PAIRS.saturating_sub(self.pairs.len());
        if self.move_buffer.is_empty() {
            (self.stats.queries, self.stats.deferred) = (0, 0);
            return;
        }
        // The queries look known pairs up once their count passes the room (`pair_index`).
        self.pair_index.build(&self.pairs, bodies.len());
        let (done, exact) = match room {
            0 => {
                self.candidates.clear();
                (0, true)
            }
            _ => self.query_in_parts(bodies, room, workers),
        };
        self.stats.queries = done;
        self.stats.deferred = self.move_buffer.len() - done;
        for &q in &self.move_buffer[..done] {
            self.in_move_buffer[q as usize] = false;
        }
        self.move_buffer.drain(..done);
        let limit = new_pair_room(done, room) + MAX_PAIRS / 4;
        self.query_fixed_pairs(bodies, limit, exact);
        if self.candidates.is_empty() {
            return;
        }
        self.candidates.sort_unstable();
        self.candidates.dedup();
        merge_union(&self.pairs, &self.candidates, &mut self.merged);
        std::mem::swap(&mut self.pairs, &mut self.merged);
    }

    /// The proxies left in the move buffer (their queries put off) still meet the static and kinematic bodies they overlap, while the candidates stay below
    /// `limit`: a pile that fills the pair set must not fall through the ground it has not
    /// been paired with yet (2,000 boxes created at one point did). They stay in the buffer
    /// for their full query. `exact`: the candidates hold no pair of the pair set (skip
    /// those found again).
    fn query_fixed_pairs(&mut self, bodies: &[Body], limit: usize, exact: bool) {
        if self.move_buffer.is_empty() {
            return;
        }
        self.build_fixed_tree(bodies);
        let (tree, proxies, pairs, index) = (&self.tree, &self.proxies, &self.pairs, &self.pair_index);
        let candidates = &mut self.candidates;
        for &q in &self.move_buffer {
            if candidates.len() >= limit {
                return;
            }
            let fat = tree.fat_aabb(proxies[q as usize].id);
            let q_body = &bodies[q as usize];
            self.stats.query += self.fixed_tree.query(&fat, |_, p| {
                let overlaps = tree.fat_aabb(proxies[p as usize].id).overlaps(&fat);
                if !overlaps || !should_collide(q_body, &bodies[p as usize]) {
                    return true;
                }
                let pair = if p < q { (p, q) } else { (q, p) };
                if exact && index.contains(pairs, pair) {
                    return true;
                }
                if candidates.len() >= limit {
                    return false;
                }
                candidates.push(pair);
                true
            });
        }
    }

    /// A tree of the static and kinematic bodies alone (their tight boxes, fattened by the
    /// tree's margin; the query above checks the main tree's fat boxes), built only in a step
    /// whose queries were put off.
    fn build_fixed_tree(&mut self, bodies: &[Body]) {
        self.fixed_tree.settings = self.tree.settings;
        self.fixed_tree.clear();
        for (i, b) in bodies.iter().enumerate() {
            if !b.is_dynamic() {
                let fat = self.tree.fat_aabb(self.proxies[i].id);
                self.fixed_tree.create_proxy(fat, i as u32);
            }
        }
    }
}

/// The sorted union of two sorted, duplicate-free lists.
fn merge_union(a: &[(u32, u32)], b: &[(u32, u32)], out: &mut Vec<(u32, u32)>) {
    out.clear();
    out.reserve(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => {
                out.push(a[i]);
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                out.push(b[j]);
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                out.push(a[i]);
                i += 1;
                j += 1;
            }
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
}
