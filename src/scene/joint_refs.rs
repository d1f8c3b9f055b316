//! Resolving the bodies joints refer to. Names are only all known once the whole scene is
//! parsed (bodies, generators and joints may come in any order), so references are checked
//! after parsing; a bad one is reported by parsing again with the error armed for that item
//! (`context::inject`), which gives it the same `file:line:column` as every other error.

use super::format::Scene;
use super::generators::MAX_GENERATED_BODIES;
use super::joints::{BodyRef, JointSpec};
use crate::engine::BodyKind;
use std::collections::HashMap;

/// A bad reference: which list item, which field, and what is wrong.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct RefIssue {
    /// `"joint"` or `"generator"` (the list labels of `super::lists`).
    pub list: &'static str,
    pub index: usize,
    pub field: &'static str,
    pub message: String,
}

/// Every body the scene builds, in world order: names and kinds.
pub(crate) struct BodyTable {
    names: Vec<String>,
    kinds: Vec<BodyKind>,
    /// Each body's origin, for the joints' arms (`super::joint_arms`).
    positions: Vec<glam::Vec2>,
    by_name: HashMap<String, Vec<usize>>,
    /// World index of each generator's first body.
    pub first_of_generator: Vec<usize>,
}

impl BodyTable {
    pub fn of(scene: &Scene) -> BodyTable {
        let mut t = BodyTable {
            names: Vec::new(),
            kinds: Vec::new(),
            positions: Vec::new(),
            by_name: HashMap::new(),
            first_of_generator: Vec::new(),
        };
        for b in &scene.bodies {
            t.push(&b.name, b.kind, b.position);
        }
        let mut generated = 0u64;
        for g in &scene.generators {
            t.first_of_generator.push(t.names.len());
            generated = generated.saturating_add(g.body_count());
            if generated > MAX_GENERATED_BODIES {
                continue;
            }
            for def in g.bodies() {
                t.push(&def.name, def.kind, def.position);
            }
        }
        t
    }

    fn push(&mut self, name: &str, kind: BodyKind, position: glam::Vec2) {
        self.positions.push(position);
        if !name.is_empty() {
            self.by_name.entry(name.to_string()).or_default().push(self.names.len());
        }
        self.names.push(name.to_string());
        self.kinds.push(kind);
    }

    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// The world index of a reference, or why there is none.
    pub fn resolve(&self, r: &BodyRef) -> Result<usize, String> {
        match r {
            BodyRef::Index(i) if *i < self.names.len() => Ok(*i),
            BodyRef::Index(i) => Err(format!("body index {i} is out of range: the scene has {} bodies", self.len())),
            BodyRef::Name(n) => match self.by_name.get(n).map(Vec::as_slice) {
                Some([i]) => Ok(*i),
                Some(many) => Err(format!(
                    "body name {n:?} is shared by {} bodies (indices {}); rename them or refer to one by index",
                    many.len(),
                    many.iter().map(|i| i.to_string()).collect::<Vec<_>>().join(", ")
                )),
                None => Err(format!("no body named {n:?}{}", self.suggest(n))),
            },
        }
    }

    /// ", did you mean ...?" with up to three close names (edit distance), or a hint.
    fn suggest(&self, name: &str) -> String {
        let limit = (name.chars().count() / 3).max(2);
        let mut close: Vec<(usize, &str)> =
            self.by_name.keys().map(|k| (edit_distance(name, k), k.as_str())).filter(|&(d, _)| d <= limit).collect();
        close.sort();
        close.truncate(3);
        if close.is_empty() {
            let mut some: Vec<&str> = self.by_name.keys().map(String::as_str).collect();
            some.sort();
            some.truncate(5);
            if some.is_empty() {
                " (no body has a name)".to_string()
            } else {
                format!(
                    " (named bodies include {})",
                    some.iter().map(|s| format!("{s:?}")).collect::<Vec<_>>().join(", ")
                )
            }
        } else {
            format!(", did you mean {}?", close.iter().map(|(_, s)| format!("{s:?}")).collect::<Vec<_>>().join(" or "))
        }
    }

    /// Resolves both bodies of a joint and checks that they can form one, with anchors in reach
    /// ([`super::joint_arms`]).
    pub fn joint_bodies(&self, j: &JointSpec) -> Result<(usize, usize), (&'static str, String)> {
        let c = j.common();
        let a = self.resolve(&c.a).map_err(|m| ("a", m))?;
        let b = self.resolve(&c.b).map_err(|m| ("b", m))?;
        if a == b {
            return Err(("b", format!("a joint needs two different bodies, got {} twice", c.a)));
        }
        if self.kinds[a] != BodyKind::Dynamic && self.kinds[b] != BodyKind::Dynamic {
            return Err((
                "b",
                format!(
                    "a joint needs at least one dynamic body, but {} is {:?} and {} is {:?}",
                    c.a, self.kinds[a], c.b, self.kinds[b]
                ),
            ));
        }
        let end = |i: usize| (self.positions[i], self.kinds[i] == BodyKind::Dynamic);
        super::joint_arms::check_arms(j, end(a), end(b))?;
        Ok((a, b))
    }
}

/// Levenshtein distance (characters).
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

impl Scene {
    /// Every joint with its two body indices, explicit joints first, then each generator's.
    /// Joints whose references are bad are left out (parsing rejects them).
    pub(crate) fn resolved_joints(&self, table: &BodyTable) -> Vec<(JointSpec, usize, usize)> {
        let explicit = self.joints.iter().cloned();
        let generated = self.generators.iter().zip(&table.first_of_generator).flat_map(|(g, &first)| g.joints(first));
        explicit.chain(generated).filter_map(|j| table.joint_bodies(&j).ok().map(|(a, b)| (j, a, b))).collect()
    }

    /// The first bad body reference of a joint or of a generator's joints.
    pub(crate) fn check_references(&self) -> Result<(), RefIssue> {
        if self.joints.is_empty() && self.generators.iter().all(|g| g.joints(0).is_empty()) {
            return Ok(());
        }
        let table = BodyTable::of(self);
        for (index, j) in self.joints.iter().enumerate() {
            table.joint_bodies(j).map_err(|(field, message)| RefIssue { list: "joint", index, field, message })?;
        }
        for (index, (g, &first)) in self.generators.iter().zip(&table.first_of_generator).enumerate() {
            for j in g.joints(first) {
                table.joint_bodies(&j).map_err(|(field, message)| {
                    // Generators name the bodies at their ends `start` and `end`.
                    let field = if field == "a" { "start" } else { "end" };
                    RefIssue { list: "generator", index, field, message }
                })?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::edit_distance;

    #[test]
    fn edit_distances() {
        assert_eq!(edit_distance("link1", "link1"), 0);
        assert_eq!(edit_distance("lnk1", "link1"), 1);
        assert_eq!(edit_distance("ground", "grund"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
    }
}
