//! Turning a scene into a world.

use super::format::Scene;
use super::generators::MAX_GENERATED_BODIES;
use crate::engine::World;

impl Scene {
    /// A world with the scene's settings: explicit bodies first, then each generator's bodies
    /// in order (at most [`MAX_GENERATED_BODIES`] generated bodies in all).
    pub fn build_world(&self) -> World {
        let mut world = World::new(self.settings.clone());
        for body in &self.bodies {
            body.create_in(&mut world);
        }
        let mut generated = 0u64;
        for generator in &self.generators {
            generated = generated.saturating_add(generator.body_count());
            if generated > MAX_GENERATED_BODIES {
                break;
            }
            for def in generator.bodies() {
                world.create_body(&def);
            }
        }
        if let Some(water) = &self.water {
            world.set_water(Some(water.to_water()));
        }
        world
    }

    /// How many bodies [`Scene::build_world`] creates.
    pub fn body_count(&self) -> usize {
        let mut generated = 0u64;
        for g in &self.generators {
            if generated.saturating_add(g.body_count()) > MAX_GENERATED_BODIES {
                break;
            }
            generated += g.body_count();
        }
        self.bodies.len() + generated as usize
    }
}
