//! Box2D's `rain` benchmark's step rule (its `shared/benchmarks.c`: `CreateGroup`,
//! `DestroyGroup`, `StepRain`): every `every` steps a column of groups appears, one group of
//! `group_size` humans ([`super::human`]) in each of `rows` rows; once all `columns` columns
//! are in, each such step destroys the oldest column's groups and creates them again at the
//! top, so the world cycles between falling and piled ragdolls.
//!
//! Group (row `r`, column `c`) starts at `x = origin.x − span/2 + (c + ½)·span/columns`,
//! `y = origin.y + row_pitch · r`, its humans `spacing` apart along x (benchmarks.c: span
//! 250 m, 40 columns, rows 45 m apart from 40 m, humans 0.5 m apart, joint friction 0.05,
//! 5 Hz springs at damping 0.5). Box2D gives human `i` of every group the group index −(i+1)
//! (same index: never collide); here human `i` has the category bit `2 << i` and a mask of
//! bit 1 (the ground) and every other human's bit, and its feet a mask of bit 1: the same
//! table of which shapes touch.

use super::human::{HumanDef, HumanFilter, HUMAN_BONES};
use super::SpawnHost;
use glam::Vec2;
use serde::{Deserialize, Serialize};

/// Most humans per group: one category bit each, above the ground's bit 1.
pub const MAX_GROUP_SIZE: u32 = 30;

/// Box2D's rain: its parameters (defaults: benchmarks.c's release build) and the rule's state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RagdollRain {
    pub rows: u32,
    pub columns: u32,
    /// Humans per group.
    pub group_size: u32,
    /// Steps between two waves (benchmarks.c: 8, its `stepCount & 7`).
    pub every: u32,
    /// Centre of the columns' span (x) and the lowest row's feet (y).
    pub origin: Vec2,
    /// Width the columns share, metres.
    pub span: f32,
    pub row_pitch: f32,
    /// Distance between the humans of a group, metres.
    pub spacing: f32,
    pub scale: f32,
    pub friction_torque: f32,
    pub hertz: f32,
    pub damping_ratio: f32,
    /// What the rule has done so far (saved with a world so a save resumes the rain).
    #[serde(skip_serializing_if = "RainState::is_fresh")]
    pub state: RainState,
}

/// The rule's state: columns created so far, the next column to recreate, and each group's
/// bodies (first index, count) in the world, row-major; count 0 when the group is absent.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RainState {
    pub column_count: u32,
    pub column_index: u32,
    pub groups: Vec<(u32, u32)>,
}

impl RainState {
    pub fn is_fresh(&self) -> bool {
        *self == RainState::default()
    }
}

impl Default for RagdollRain {
    fn default() -> Self {
        RagdollRain {
            rows: 5,
            columns: 40,
            group_size: 5,
            every: 8,
            origin: Vec2::new(0.0, 40.0),
            span: 250.0,
            row_pitch: 45.0,
            spacing: 0.5,
            scale: 1.0,
            friction_torque: 0.05,
            hertz: 5.0,
            damping_ratio: 0.5,
            state: RainState::default(),
        }
    }
}

impl RagdollRain {
    /// Most bodies the rain holds at once (every group present).
    pub fn max_bodies(&self) -> u64 {
        u64::from(self.rows) * u64::from(self.columns) * u64::from(self.group_size) * HUMAN_BONES as u64
    }

    /// What is wrong with the parameters, the field named in backticks.
    pub fn check(&self) -> Result<(), String> {
        for (name, v, lo, hi) in [
            ("rows", self.rows, 1, 1000),
            ("columns", self.columns, 1, 1000),
            ("group_size", self.group_size, 1, MAX_GROUP_SIZE),
            ("every", self.every, 1, 1_000_000),
        ] {
            if !(lo..=hi).contains(&v) {
                return Err(format!("`{name}` must be between {lo} and {hi}, got {v}"));
            }
        }
        let reals = [
            ("span", self.span, 0.0, 1e5),
            ("row_pitch", self.row_pitch, -1e5, 1e5),
            ("spacing", self.spacing, -1e3, 1e3),
            ("scale", self.scale, 0.1, 100.0),
            ("friction_torque", self.friction_torque, 0.0, 1e6),
            ("hertz", self.hertz, 0.0, 1e3),
            ("damping_ratio", self.damping_ratio, 0.0, 1e3),
        ];
        for (name, v, lo, hi) in reals {
            if !(v.is_finite() && (lo..=hi).contains(&v)) {
                return Err(format!("`{name}` must be a number between {lo} and {hi}, got {v}"));
            }
        }
        if !(self.origin.is_finite() && self.origin.abs().max_element() <= 1e5) {
            return Err(format!("`origin` must be finite and within 1e5 m, got {}", self.origin));
        }
        Ok(())
    }

    /// `StepRain` at step `step` (before the world steps, as Box2D's benchmark app calls it).
    pub fn apply(&mut self, step: u64, host: &mut dyn SpawnHost) {
        if !step.is_multiple_of(u64::from(self.every.max(1))) {
            return;
        }
        let groups = (self.rows * self.columns) as usize;
        self.state.groups.resize(groups, (0, 0));
        let column = if self.state.column_count < self.columns {
            self.state.column_count += 1;
            self.state.column_count - 1
        } else {
            let c = self.state.column_index;
            self.state.column_index = (c + 1) % self.columns;
            let mut doomed: Vec<usize> = Vec::new();
            for row in 0..self.rows {
                let (first, count) = self.state.groups[self.group(row, c)];
                doomed.extend(first as usize..(first + count) as usize);
            }
            doomed.sort_unstable();
            host.remove_bodies(&doomed);
            self.forget(&doomed);
            c
        };
        // benchmarks.c destroys and recreates row by row; the surviving bodies keep their order
        // and the new ones are appended row by row either way.
        for row in 0..self.rows {
            let first = host.body_count();
            for def in self.humans(row, column) {
                host.add_human(&def);
            }
            let g = self.group(row, column);
            self.state.groups[g] = (first as u32, (host.body_count() - first) as u32);
        }
    }

    fn group(&self, row: u32, column: u32) -> usize {
        (row * self.columns + column) as usize
    }

    /// `CreateGroup(row, column)`'s humans, in its order.
    pub fn humans(&self, row: u32, column: u32) -> Vec<HumanDef> {
        let group_distance = self.span / self.columns as f32;
        let mut position = Vec2::new(
            self.origin.x + (-0.5 * self.span + group_distance * (column as f32 + 0.5)),
            self.origin.y + self.row_pitch * row as f32,
        );
        let every_human = ((1u64 << (self.group_size + 1)) - 2) as u32;
        (0..self.group_size)
            .map(|i| {
                let category = 2u32 << i;
                let filter = HumanFilter { category, mask: 1 | (every_human & !category), foot_mask: 1 };
                let def = HumanDef {
                    position,
                    scale: self.scale,
                    friction_torque: self.friction_torque,
                    hertz: self.hertz,
                    damping_ratio: self.damping_ratio,
                    filter,
                };
                position.x += self.spacing;
                def
            })
            .collect()
    }

    /// Renumbers the groups after the world removed `removed` (ascending indices): a group
    /// loses its removed bodies, and moves down by those removed before it.
    pub fn forget(&mut self, removed: &[usize]) {
        let before = |i: u32| removed.partition_point(|&r| r < i as usize) as u32;
        for g in &mut self.state.groups {
            if g.1 == 0 {
                continue;
            }
            let (lo, hi) = (before(g.0), before(g.0 + g.1));
            *g = if hi - lo == g.1 { (0, 0) } else { (g.0 - lo, g.1 - (hi - lo)) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A host that only counts bodies, removing ranges.
    struct Count(usize);

    impl SpawnHost for Count {
        fn body_count(&self) -> usize {
            self.0
        }
        fn remove_bodies(&mut self, sorted: &[usize]) {
            self.0 -= sorted.len();
        }
        fn add_human(&mut self, _: &HumanDef) {
            self.0 += HUMAN_BONES;
        }
    }

    #[test]
    fn columns_fill_every_eighth_step_then_the_oldest_is_recreated() {
        let mut rain = RagdollRain::default();
        let mut host = Count(160);
        let per_column = 5 * 5 * HUMAN_BONES;
        for step in 0..2000u64 {
            rain.apply(step, &mut host);
            let waves = step / 8 + 1;
            assert_eq!(host.0, 160 + per_column * waves.min(40) as usize, "step {step}");
        }
        // 250 waves: 40 to fill, then 210 recreations, the next column to go is 210 % 40.
        assert_eq!((rain.state.column_count, rain.state.column_index), (40, 210 % 40));
        // Every group is contiguous and they tile the bodies after the ground.
        let mut spans = rain.state.groups.clone();
        spans.sort_unstable();
        assert_eq!(spans[0].0, 160);
        assert!(spans.windows(2).all(|w| w[0].0 + w[0].1 == w[1].0));
    }

    #[test]
    fn benchmarks_c_places_the_groups() {
        let rain = RagdollRain::default();
        let humans = rain.humans(2, 39);
        // x = −125 + 6.25 · 39.5, then 0.5 m per human; y = 40 + 45 · 2.
        assert_eq!(humans[0].position, Vec2::new(-0.5 * 250.0 + 6.25 * 39.5, 130.0));
        assert_eq!(humans[4].position.x, humans[0].position.x + 0.5 + 0.5 + 0.5 + 0.5);
        // Humans 1 and 3 touch each other and the ground; each not its own kind.
        let (a, b) = (humans[1].filter, humans[3].filter);
        assert!(a.category & b.mask != 0 && b.category & a.mask != 0);
        assert_eq!(a.category & a.mask, 0);
        assert_eq!((a.mask & 1, a.foot_mask), (1, 1));
    }

    #[test]
    fn check_names_the_field() {
        let rain = RagdollRain { group_size: 31, ..RagdollRain::default() };
        assert!(rain.check().unwrap_err().contains("`group_size`"));
        let rain = RagdollRain { span: f32::NAN, ..RagdollRain::default() };
        assert!(rain.check().unwrap_err().contains("`span`"));
    }
}
