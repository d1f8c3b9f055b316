//! The water's bottom when the scene gives none: the floor of the basin the static bodies make
//! under the water. At every x of the water's region, the floor there is the top of the
//! highest static body whose box covers that x and lies wholly below the still surface (a wall
//! rising out of the water is a side of the basin, not its floor); the basin's bottom is the
//! lowest of these floors, so nothing above it is inside the floor everywhere, and a body
//! entirely below it is under the basin, not in the water. Where some x of the region has no
//! static body below the surface, the basin is open there and the water has no bottom.
//!
//! Bodies count by their bounding boxes: a tilted floor counts as high as its highest point
//! (give `bottom` in the scene's water to say otherwise).

use crate::engine::math::Aabb;

/// The basin's bottom under water of still level `level` over `region`, given the static
/// bodies' boxes; `None` when the basin is open somewhere under the region.
pub fn basin_floor(region: (f32, f32), level: f32, statics: impl Iterator<Item = Aabb>) -> Option<f32> {
    let (x0, x1) = region;
    let floors: Vec<Aabb> = statics.filter(|b| b.max.y <= level && b.max.x > x0 && b.min.x < x1).collect();
    // Between consecutive box ends the set of boxes covering x is constant: look at each piece.
    let mut xs: Vec<f32> = vec![x0, x1];
    xs.extend(floors.iter().flat_map(|b| [b.min.x, b.max.x]).filter(|&x| x > x0 && x < x1));
    xs.sort_by(f32::total_cmp);
    xs.dedup();
    let mut bottom = f32::INFINITY;
    for w in xs.windows(2) {
        let mid = 0.5 * (w[0] + w[1]);
        let floor = floors
            .iter()
            .filter(|b| b.min.x <= mid && mid <= b.max.x)
            .map(|b| b.max.y)
            .fold(f32::NEG_INFINITY, f32::max);
        if floor == f32::NEG_INFINITY {
            return None;
        }
        bottom = bottom.min(floor);
    }
    bottom.is_finite().then_some(bottom)
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec2;

    fn b(x0: f32, y0: f32, x1: f32, y1: f32) -> Aabb {
        Aabb::new(Vec2::new(x0, y0), Vec2::new(x1, y1))
    }

    #[test]
    fn a_tank_floor_is_the_bottom_and_walls_are_not() {
        // buoyancy.ron: a floor under the whole region, walls rising out of the water.
        let tank = [b(-11.0, -7.0, 11.0, -6.0), b(-11.0, -6.5, -10.0, 2.5), b(10.0, -6.5, 11.0, 2.5)];
        assert_eq!(basin_floor((-10.0, 10.0), 0.0, tank.into_iter()), Some(-6.0));
    }

    #[test]
    fn a_stepped_floor_gives_its_lowest_step_and_a_gap_opens_the_basin() {
        let steps = [b(-5.0, -4.0, 0.0, -3.0), b(0.0, -6.0, 5.0, -5.0), b(-1.0, -2.0, 1.0, -1.0)];
        assert_eq!(basin_floor((-4.0, 4.0), 0.0, steps.into_iter()), Some(-5.0));
        // A box above the surface or beside the region changes nothing.
        let more = steps.into_iter().chain([b(-2.0, -8.0, 2.0, 0.5), b(6.0, -9.0, 8.0, -8.5)]);
        assert_eq!(basin_floor((-4.0, 4.0), 0.0, more), Some(-5.0));
        // A gap under part of the region: no bottom.
        let gap = [b(-5.0, -4.0, -0.5, -3.0), b(0.5, -6.0, 5.0, -5.0)];
        assert_eq!(basin_floor((-4.0, 4.0), 0.0, gap.into_iter()), None);
        assert_eq!(basin_floor((-4.0, 4.0), 0.0, std::iter::empty()), None);
    }
}
