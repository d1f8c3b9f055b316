//! The 3D world's simulated water surfaces ([`super::height_field`]): one height field per
//! basin whose `surface` is `Simulated`, kept beside the basins' settings (so a panel's edit
//! of the settings and the timeline's restore of the state stay apart), pushed by the bodies
//! and advanced once per step after the solve ([`super::displace`]: the buoyancy of the
//! step's sub-steps rides the surface as it stood at the step's start).

use super::displace::{displace, occupancy};
use super::height_field::HeightField3;
use super::water::Water3;
use super::world::World3;

impl World3 {
    /// Replaces the water basins and brings the simulated surfaces in line with them.
    pub fn set_water(&mut self, water: Vec<Water3>) {
        self.water = water;
        self.sync_surfaces();
    }

    /// One entry of `surfaces` per basin: a simulated basin keeps its columns when its grid
    /// (columns and region) is unchanged and takes its new stiffness, spread and damping;
    /// otherwise its columns start at rest on the level, filled by the bodies where they are
    /// (the level is the water's with the bodies in it: nothing is displaced at the start).
    pub fn sync_surfaces(&mut self) {
        self.surfaces.resize(self.water.len(), None);
        for (w, slot) in self.water.iter().zip(&mut self.surfaces) {
            let (Some(settings), Some(region)) = (w.surface.simulated(), w.region) else {
                *slot = None;
                continue;
            };
            let fresh = HeightField3::at_rest(settings, region.min, region.max, w.level);
            match slot {
                Some(f) if f.settings.columns == settings.columns && (f.min, f.cell) == (fresh.min, fresh.cell) => {
                    f.settings = settings;
                }
                _ => {
                    let mut field = fresh;
                    field.occupied = occupancy(&field, &self.bodies);
                    *slot = Some(field);
                }
            }
        }
    }

    /// After the solve: each simulated surface takes the volume the bodies displaced this step,
    /// then moves by one step.
    pub(crate) fn advance_surfaces(&mut self) {
        if self.surfaces.len() != self.water.len() {
            self.sync_surfaces();
        }
        let dt = self.params.dt();
        for field in self.surfaces.iter_mut().flatten() {
            displace(field, &self.bodies);
            field.advance(dt);
        }
    }

    /// The height of basin `k`'s surface at `(x, z)`: its columns when simulated, else the
    /// level and waves at the world's time.
    pub fn surface_height(&self, k: usize, x: f32, z: f32) -> f32 {
        match self.surfaces.get(k) {
            Some(Some(f)) => f.height_at(x, z),
            _ => self.water[k].surface(x, z, self.time, self.params.gravity.length()).0,
        }
    }
}
