//! Membership in the sorted pair set by each body's run: the pairs `(a, b)`, `a < b`, of one
//! body `a` are contiguous in the set, so an index of where each body's run starts turns "is
//! this pair known?" into a search of one short run (a body's partners) instead of a
//! binary search of the whole set, whose every probe is a cache miss once the set is large
//! (the run is searched by halves too: a body of a pile has hundreds of partners).
//! The move buffer's queries ask it for every pair they find again once their count passes the
//! room for new pairs (`query_parts`): in `smash`, whose debris overlaps about 200,000 pairs,
//! those binary searches were a seventh of the step.

/// Where each body's run of pairs starts in the pair set it was built from.
#[derive(Clone, Debug, Default)]
pub(super) struct PairIndex {
    /// `starts[a]..starts[a + 1]` holds the pairs `(a, _)`.
    starts: Vec<u32>,
}

impl PairIndex {
    /// The index of the sorted, unique `pairs` of bodies below `bodies`.
    pub fn build(&mut self, pairs: &[(u32, u32)], bodies: usize) {
        self.starts.clear();
        self.starts.resize(bodies + 1, 0);
        for &(a, _) in pairs {
            self.starts[a as usize + 1] += 1;
        }
        for i in 0..bodies {
            self.starts[i + 1] += self.starts[i];
        }
    }

    /// Whether `pair` (`a < b`) is in `pairs`, the set this index was built from.
    #[inline]
    pub fn contains(&self, pairs: &[(u32, u32)], (a, b): (u32, u32)) -> bool {
        let run = &pairs[self.starts[a as usize] as usize..self.starts[a as usize + 1] as usize];
        // Sorted by the partner; a pile's body may have hundreds of partners.
        run.binary_search_by_key(&b, |p| p.1).is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::PairIndex;

    #[test]
    fn contains_exactly_the_pairs_it_was_built_from() {
        let mut rng = crate::engine::rng::SplitMix64(7);
        let bodies = 50u32;
        let mut body = || (rng.f32(0.0, 1.0) * bodies as f32) as u32 % bodies;
        let mut pairs: Vec<(u32, u32)> =
            (0..300).map(|_| (body(), body())).filter(|(a, b)| a != b).map(|(a, b)| (a.min(b), a.max(b))).collect();
        pairs.sort_unstable();
        pairs.dedup();
        let mut index = PairIndex::default();
        index.build(&pairs, bodies as usize);
        for a in 0..bodies {
            for b in a + 1..bodies {
                assert_eq!(index.contains(&pairs, (a, b)), pairs.binary_search(&(a, b)).is_ok(), "({a}, {b})");
            }
        }
        index.build(&[], bodies as usize);
        assert!(!index.contains(&[], (0, 1)));
    }
}
