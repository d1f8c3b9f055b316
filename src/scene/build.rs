//! Turning a scene into a world.

use super::format::Scene;
use super::generators::MAX_GENERATED_BODIES;
use super::joint_refs::BodyTable;
use crate::engine::World;

impl Scene {
    /// A world with the scene's settings: explicit bodies first, then each generator's bodies
    /// in order (at most [`MAX_GENERATED_BODIES`] generated bodies in all), then the joints
    /// (explicit ones, then the generators'), placed at the bodies' starting poses.
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
        let has_joints = !self.joints.is_empty() || self.generators.iter().any(|g| !g.joints(0).is_empty());
        if has_joints {
            let table = BodyTable::of(self);
            for (spec, a, b) in self.resolved_joints(&table) {
                if a < world.bodies.len() && b < world.bodies.len() {
                    let joint = spec.to_joint(&world.bodies, a, b);
                    // Parsing rejected joints the world would refuse.
                    let _ = world.add_joint(joint);
                }
            }
        }
        if let Some(water) = &self.water {
            world.set_water(Some(water.to_water()));
        }
        world.spawner = self.spawner.clone();
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
