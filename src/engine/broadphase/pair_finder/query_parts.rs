//! Step 2 on the workers: the move buffer's tree queries cut into parts, each part's queries
//! run on a thread (Box2D v3's `b2FindPairsTask`), then joined in move-buffer order. The tree,
//! the proxies and the bodies are only read, so the parts are independent.
//!
//! The pairs kept do not depend on how the buffer is cut, so pair finding gives the same
//! pairs on any number of threads: when the pairs of every first `k` queries fit in the room
//! for new pairs (`new_pair_room(k, ..)`) they are all kept, else the pairs already in the
//! pair set are dropped (by binary search) and the new ones are taken in move-buffer order up
//! to the room; the first query whose new pairs do not all fit keeps those that do and, with
//! the queries after it, stays in the move buffer. A part drops the known pairs itself once it
//! has found more than the room of the whole buffer, and stops once its new pairs pass it, so
//! a pile's queries do a bounded amount of work (the tree statistics of a step that reaches
//! the limit depend on the cut; the pairs do not).
//!
//! The tree work is bounded too: the queries are taken in order until their node visits pass
//! [`MAX_QUERY_VISITS`], and the rest wait. In a coincident pile each query visits the whole
//! tree while reporting only the pairs with smaller proxies, so its first step walked 20,000
//! boxes' tree 257 times (10.8 million visits, 96 ms) to fill the new-pair room. A part stops
//! once its own visits pass the bound (the visits before it only add to them), so the queries
//! kept are the same on any cut.

use super::pair_index::PairIndex;
use super::{new_pair_room, should_collide, Broadphase, Proxy};
use crate::engine::body::Body;
use crate::engine::broadphase::tree::DynamicTree;
use crate::engine::broadphase::tree_query::QueryStats;
use crate::engine::parallel::Workers;

/// Queries per part, at least.
const QUERIES_PER_PART: usize = 64;

/// Tree nodes the move-buffer queries of one update visit, at most, before the remaining
/// queries wait for the next update (the query that passes it is kept). A 30,000-body rain's
/// heaviest update visits about 1.4 million; a coincident pile's queries visit the whole tree.
pub const MAX_QUERY_VISITS: u64 = 1 << 21;

/// One part's queries: the pairs each reported, in order (scratch kept by the broadphase).
#[derive(Clone, Debug, Default)]
pub(super) struct QueryPart {
    found: Vec<(u32, u32)>,
    /// Per query of the part, the end of its pairs in `found`.
    ends: Vec<usize>,
    /// Per query of the part, the tree nodes it visited.
    visits: Vec<u32>,
    stats: QueryStats,
    /// `found` holds only pairs not in the pair set.
    exact: bool,
    /// Stopped before its last query: it found more new pairs than fit, or visited more
    /// nodes than [`MAX_QUERY_VISITS`].
    stopped: bool,
}

impl Broadphase {
    /// The move buffer's queries in parts on `workers`, their new pairs kept into `candidates`
    /// within `room` (left in the pair set) and [`new_pair_room`]. Returns how many queries
    /// completed (from the front of the buffer) and whether the candidates hold only new
    /// pairs (the serial loop's `exact`).
    pub(super) fn query_in_parts(&mut self, bodies: &[Body], room: usize, workers: &Workers) -> (usize, bool) {
        let n = self.move_buffer.len();
        let buffer_room = new_pair_room(n, room);
        let parts = (workers.threads() * 4).min(n / QUERIES_PER_PART).max(1);
        self.query_parts.resize_with(parts, QueryPart::default);
        let (tree, proxies, in_buffer, buffer) =
            (&self.tree, &self.proxies[..], &self.in_move_buffer[..], &self.move_buffer);
        let known = (&self.pairs[..], &self.pair_index);
        workers.run(|| {
            workers.for_each_chunk(&mut self.query_parts[..parts], 1, &|k0, chunk| {
                for (k, part) in (k0..).zip(chunk) {
                    let mine = &buffer[n * k / parts..n * (k + 1) / parts];
                    part.run(mine, (tree, proxies, in_buffer, bodies), known, buffer_room);
                }
            });
        });
        let parts = &mut self.query_parts[..parts];
        for part in parts.iter() {
            self.stats.query += part.stats;
        }
        let visits: u64 = parts.iter().map(|p| p.stats.nodes_visited as u64).sum();
        self.candidates.clear();
        if visits <= MAX_QUERY_VISITS && !parts.iter().any(|p| p.stopped) && every_prefix_fits(parts, room) {
            // Every new pair fits (the candidates may hold pairs found again: merged away).
            parts.iter().for_each(|p| self.candidates.extend_from_slice(&p.found));
            return (n, false);
        }
        let known = (&self.pairs[..], &self.pair_index);
        workers.for_each_chunk(parts, 1, &|_, chunk| {
            chunk.iter_mut().filter(|p| !p.exact).for_each(|p| p.keep_new(known))
        });
        (take_in_order(parts, room, &mut self.candidates), true)
    }
}

/// What a part's queries read: the tree, the proxies, which bodies are in the move buffer, the bodies.
type QueryInput<'a> = (&'a DynamicTree<u32>, &'a [Proxy], &'a [bool], &'a [Body]);

/// The sorted pair set and its index.
type Known<'a> = (&'a [(u32, u32)], &'a PairIndex);

impl QueryPart {
    /// Runs the queries of the bodies `mine`. Once its pairs pass `room` the part drops
    /// those already in the pair set and skips them from then on (`exact`); once its new pairs
    /// pass `room`, or its visits [`MAX_QUERY_VISITS`], it stops, after the query that passed it.
    fn run(&mut self, mine: &[u32], (tree, proxies, in_buffer, bodies): QueryInput, known: Known, room: usize) {
        (self.stopped, self.exact, self.stats) = (false, false, QueryStats::default());
        self.found.clear();
        self.ends.clear();
        self.visits.clear();
        let mut visits = 0;
        for &q in mine {
            let fat = tree.fat_aabb(proxies[q as usize].id);
            let q_body = &bodies[q as usize];
            let (found, exact) = (&mut self.found, self.exact);
            let stats = tree.query(&fat, |_, p| {
                // As in Box2D v3, a pair of two moved proxies is reported by the larger's query.
                if p == q || (in_buffer[p as usize] && p > q) || !should_collide(q_body, &bodies[p as usize]) {
                    return true;
                }
                let pair = if p < q { (p, q) } else { (q, p) };
                if !(exact && known.1.contains(known.0, pair)) {
                    found.push(pair);
                }
                true
            });
            self.stats += stats;
            self.ends.push(self.found.len());
            self.visits.push(stats.nodes_visited);
            visits += stats.nodes_visited as u64;
            if !self.exact && self.found.len() > room {
                self.keep_new(known);
            }
            if (self.exact && self.found.len() > room) || visits > MAX_QUERY_VISITS {
                self.stopped = true;
                return;
            }
        }
    }

    /// Drops the pairs already in the pair set, keeping each query's end.
    fn keep_new(&mut self, (pairs, index): Known) {
        self.exact = true;
        let (mut kept, mut start) = (0, 0);
        for end in &mut self.ends {
            for i in start..*end {
                if !index.contains(pairs, self.found[i]) {
                    self.found[kept] = self.found[i];
                    kept += 1;
                }
            }
            start = *end;
            *end = kept;
        }
        self.found.truncate(kept);
    }
}

/// Whether the pairs found by every first `k` queries (new or already known: at least their
/// new pairs) fit in `new_pair_room(k, room)`.
fn every_prefix_fits(parts: &[QueryPart], room: usize) -> bool {
    let (mut before, mut queries) = (0, 0);
    for part in parts {
        for &end in &part.ends {
            queries += 1;
            if before + end > new_pair_room(queries, room) {
                return false;
            }
        }
        before += part.found.len();
    }
    true
}

/// The new pairs of the parts' queries, in order, into `out`, the first `k` queries' within
/// `new_pair_room(k, room)`; the number of queries kept whole (the serial loop stops before a
/// query once the room is full, and keeps what fits of the query that fills it; and after the
/// query whose visits pass [`MAX_QUERY_VISITS`]).
fn take_in_order(parts: &[QueryPart], room: usize, out: &mut Vec<(u32, u32)>) -> usize {
    let (mut done, mut visits) = (0, 0);
    for part in parts {
        let mut start = 0;
        for (&end, &cost) in part.ends.iter().zip(&part.visits) {
            let left = new_pair_room(done + 1, room).saturating_sub(out.len());
            if left == 0 {
                return done;
            }
            if end - start > left {
                out.extend_from_slice(&part.found[start..start + left]);
                return done;
            }
            out.extend_from_slice(&part.found[start..end]);
            (start, done) = (end, done + 1);
            visits += cost as u64;
            if visits > MAX_QUERY_VISITS {
                return done;
            }
        }
    }
    done
}

#[cfg(test)]
mod tests {
    use super::{every_prefix_fits, take_in_order, QueryPart, MAX_QUERY_VISITS};

    fn part(found: &[(u32, u32)], ends: &[usize]) -> QueryPart {
        QueryPart { found: found.to_vec(), ends: ends.to_vec(), visits: vec![1; ends.len()], ..QueryPart::default() }
    }

    #[test]
    fn only_new_pairs_are_kept_and_each_query_keeps_its_end() {
        let pairs = [(0, 1), (1, 2), (2, 3)];
        // Two queries: the first finds (1, 2) again and (0, 2); the second (2, 3) again and (0, 3).
        let mut p = part(&[(1, 2), (0, 2), (2, 3), (0, 3)], &[2, 4]);
        let mut index = super::PairIndex::default();
        index.build(&pairs, 4);
        p.keep_new((&pairs, &index));
        assert!(p.exact);
        assert_eq!((p.found.as_slice(), p.ends.as_slice()), (&[(0, 2), (0, 3)][..], &[1, 2][..]));
    }

    #[test]
    fn new_pairs_are_taken_in_order_up_to_the_room() {
        // Queries of 2, 0, 3 and 1 new pairs over two parts.
        let parts = [part(&[(0, 1), (0, 2)], &[2, 2]), part(&[(1, 3), (2, 3), (3, 4), (4, 5)], &[3, 4])];
        let mut out = Vec::new();
        // Room for all six: every query done.
        assert_eq!(take_in_order(&parts, 6, &mut out), 4);
        assert_eq!(out.len(), 6);
        // Room for four: the third query keeps two of its three and, with the fourth, waits.
        out.clear();
        assert_eq!(take_in_order(&parts, 4, &mut out), 2);
        assert_eq!(out, [(0, 1), (0, 2), (1, 3), (2, 3)]);
        // Room for two: the first query fills it; the queries after it wait, even the one
        // with no new pair.
        out.clear();
        assert_eq!(take_in_order(&parts, 2, &mut out), 1);
        assert_eq!(out, [(0, 1), (0, 2)]);
    }

    #[test]
    fn many_queries_of_few_pairs_pass_max_new_pairs() {
        use super::super::{MAX_NEW_PAIRS, NEW_PAIRS_PER_QUERY};
        // Queries of `per` new pairs each, one part; room enough in the pair set.
        let queries = |per: usize, count: usize| {
            let found = (0..(per * count) as u32).map(|k| (k, k + 1)).collect::<Vec<_>>();
            let ends = (1..=count).map(|q| q * per).collect::<Vec<_>>();
            part(&found, &ends)
        };
        let count = MAX_NEW_PAIRS / NEW_PAIRS_PER_QUERY + 1000;
        let mut out = Vec::new();
        // A packed scene: four pairs a query, more than MAX_NEW_PAIRS in all, every query kept.
        let packed = [queries(NEW_PAIRS_PER_QUERY, count)];
        assert!(count * NEW_PAIRS_PER_QUERY > MAX_NEW_PAIRS && every_prefix_fits(&packed, 250_000));
        assert_eq!(take_in_order(&packed, 250_000, &mut out), count);
        assert_eq!(out.len(), count * NEW_PAIRS_PER_QUERY);
        // Five a query: the first queries fill MAX_NEW_PAIRS before four a query reaches it;
        // the query that passes it keeps what fits and waits with those after it.
        let denser = [queries(5, count)];
        assert!(!every_prefix_fits(&denser, 250_000));
        out.clear();
        let done = take_in_order(&denser, 250_000, &mut out);
        assert_eq!((done, out.len()), (MAX_NEW_PAIRS / 5, MAX_NEW_PAIRS));
        // The pair set's room still bounds them all.
        out.clear();
        assert_eq!(take_in_order(&packed, 1000, &mut out), 250);
        assert_eq!(out.len(), 1000);
    }

    #[test]
    fn queries_are_taken_until_their_visits_pass_the_bound() {
        // Four queries of one new pair each, each visiting half the bound, cut in two parts:
        // the third passes the bound and is the last kept, whatever the cut.
        let half = (MAX_QUERY_VISITS / 2) as u32;
        let mut a = part(&[(0, 1), (0, 2)], &[1, 2]);
        let mut b = part(&[(0, 3), (0, 4)], &[1, 2]);
        (a.visits, b.visits) = (vec![half; 2], vec![half; 2]);
        let mut out = Vec::new();
        assert_eq!(take_in_order(&[a.clone(), b.clone()], 10, &mut out), 3);
        assert_eq!(out, [(0, 1), (0, 2), (0, 3)]);
        let mut one = part(&[(0, 1), (0, 2), (0, 3), (0, 4)], &[1, 2, 3, 4]);
        one.visits = vec![half; 4];
        out.clear();
        assert_eq!(take_in_order(&[one], 10, &mut out), 3);
        assert_eq!(out.len(), 3);
    }
}
