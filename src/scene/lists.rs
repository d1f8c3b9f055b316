//! The `bodies` and `generators` lists: each item is parsed in its own error context and
//! checked as a whole right after its closing parenthesis, so errors point at the item.

use super::context;
use super::format::BodySpec;
use super::generators::{Generator, MAX_GENERATED_BODIES};
use super::joints::JointSpec;
use super::limits;
use serde::de::{DeserializeSeed, Deserializer, Error, SeqAccess, Visitor};
use serde::Deserialize;
use std::fmt;

/// `bodies: [...]`.
pub(crate) fn bodies<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<BodySpec>, D::Error> {
    d.deserialize_seq(ListVisitor::<BodySeed>::default())
}

/// `generators: [...]`; the total generated body count is capped.
pub(crate) fn generators<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Generator>, D::Error> {
    d.deserialize_seq(ListVisitor::<GeneratorSeed>::default())
}

/// `joints: [...]`.
pub(crate) fn joints<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<JointSpec>, D::Error> {
    d.deserialize_seq(ListVisitor::<JointSeed>::default())
}

/// Parses one list item; keeps state across items (such as a running total).
pub(crate) trait ItemSeed: Default {
    type Item;
    const LABEL: &'static str;
    const EXPECTING: &'static str;
    fn check(&mut self, item: &Self::Item) -> Result<(), String>;
}

#[derive(Default)]
struct BodySeed;

/// The error of a scene past [`limits::MAX_BODIES`], `what` saying which item crossed it.
fn too_many_bodies(what: &str) -> String {
    format!(
        "{what} the scene has more than the limit of {} bodies (explicit and generated together): \
         larger worlds step in more than 100 ms here",
        limits::MAX_BODIES
    )
}

impl ItemSeed for BodySeed {
    type Item = BodySpec;
    const LABEL: &'static str = "body";
    const EXPECTING: &'static str = "a list of bodies";

    fn check(&mut self, body: &BodySpec) -> Result<(), String> {
        if context::count_bodies(1) > limits::MAX_BODIES as u64 {
            return Err(too_many_bodies("with this body"));
        }
        body.check_fields().map_err(|(field, msg)| {
            context::blame_field(field);
            msg
        })
    }
}

#[derive(Default)]
struct GeneratorSeed;

impl ItemSeed for GeneratorSeed {
    type Item = Generator;
    const LABEL: &'static str = "generator";
    const EXPECTING: &'static str = "a list of generators";

    fn check(&mut self, generator: &Generator) -> Result<(), String> {
        let total = context::count_bodies(generator.body_count());
        if total > MAX_GENERATED_BODIES {
            return Err(too_many_bodies(&format!("with this generator's {} bodies", generator.body_count())));
        }
        // What it makes must be in range too (a huge spacing puts bodies out of reach).
        for def in generator.bodies() {
            limits::check_point("a generated body's position", def.position)
                .map_err(|e| format!("{e}: the generator places bodies out of range"))?;
        }
        Ok(())
    }
}

#[derive(Default)]
struct JointSeed;

impl ItemSeed for JointSeed {
    type Item = JointSpec;
    const LABEL: &'static str = "joint";
    const EXPECTING: &'static str = "a list of joints";

    fn check(&mut self, joint: &JointSpec) -> Result<(), String> {
        joint.check_fields().map_err(|(field, msg)| {
            if !field.is_empty() {
                context::blame_field(field);
            }
            msg
        })
    }
}

/// Deserializes one item then checks it, before RON moves past the item's end; an error
/// armed for this item by `context::inject` is raised here too.
struct Checked<'a, S>(&'a mut S, usize);

impl<'de, S> DeserializeSeed<'de> for Checked<'_, S>
where
    S: ItemSeed,
    S::Item: Deserialize<'de>,
{
    type Value = S::Item;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<S::Item, D::Error> {
        let item = S::Item::deserialize(d)?;
        self.0.check(&item).map_err(D::Error::custom)?;
        if let Some((field, message)) = context::take_injected(S::LABEL, self.1) {
            context::blame_field(&field);
            return Err(D::Error::custom(message));
        }
        Ok(item)
    }
}

pub(crate) struct ListVisitor<S>(S);

impl<S: Default> Default for ListVisitor<S> {
    fn default() -> Self {
        ListVisitor(S::default())
    }
}

impl<'de, S> Visitor<'de> for ListVisitor<S>
where
    S: ItemSeed,
    S::Item: Deserialize<'de>,
{
    type Value = Vec<S::Item>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(S::EXPECTING)
    }

    fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut items = Vec::new();
        loop {
            let label = format!("{} {}", S::LABEL, items.len());
            let index = items.len();
            let next = context::scoped(label, || seq.next_element_seed(Checked(&mut self.0, index)))?;
            match next {
                Some(item) => items.push(item),
                None => return Ok(items),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::scene::{limits::MAX_BODIES, parse};

    /// A scene of `explicit` bodies before a rain of `rain` (100 rows).
    fn scene(explicit: usize, rain: usize) -> String {
        let body = "(position: (0.0, -5.0), shape: Circle(radius: 0.4))";
        let bodies = vec![body; explicit].join(", ");
        let columns = rain / 100;
        format!(
            "(version: 1, bodies: [{bodies}], generators: [Rain(columns: {columns}, rows: 100, \
             spacing: (1.0, 1.0), shapes: [Circle(radius: 0.4)])])"
        )
    }

    #[test]
    fn explicit_and_generated_bodies_share_one_limit() {
        assert_eq!(parse(&scene(100, MAX_BODIES - 100), "ok.ron").unwrap().body_count(), MAX_BODIES);
        let e = parse(&scene(101, MAX_BODIES - 100), "big.ron").unwrap_err().to_string();
        assert!(e.starts_with("big.ron:1:") && e.contains("generator 0"), "{e}");
        assert!(e.contains(&format!("limit of {MAX_BODIES} bodies (explicit and generated together)")), "{e}");
    }
}
