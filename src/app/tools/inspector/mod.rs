//! The contact inspector: the contact point under the pointer (a pure lookup), what the
//! solver knows of it (pair, feature id, separation, impulses, age in steps), and its pair
//! placed in the Manifold lab in the poses where the world found its manifold, so a
//! surprising contact becomes a pair fixture (`scenes/pairs/`).
//!
//! The world finds its contacts at the start of a step, before the solver moves the bodies
//! (`World::step`), so the poses that made a manifold are the bodies' start-of-step
//! transforms (`Body::start_transform`), or the current ones for contacts found without a
//! step (`World::refresh_contacts`). Both are tried; the pair takes the first whose manifold
//! is the world's.
//!
//! A recycled contact (`engine::solver::recycle`) holds a manifold no manifold function returned
//! for the current poses: its points and normal were computed at an earlier step and only its
//! separations follow the bodies since. The contact records the poses and manifold it was
//! computed from, so the lab opens the pair in those poses, where `collide` gives the recorded
//! manifold exactly, and says so ("recycled from step N poses").

pub mod features;
#[cfg(test)]
mod features_tests;
#[cfg(test)]
mod tests;
pub mod ui;

use super::{Tool, ToolContext, ToolEntry, ToolKind, ToolPointer, ToolType, ToolView};
use crate::app::render::draw::MqDraw;
use crate::app::state::Action;
use crate::app::tools::inspector::features::{decode, Features};
use egui_macroquad::egui;
use glam::Vec2;
use manifold_lab::engine::collide::{collide, Manifold};
use manifold_lab::engine::debug::Layer;
use manifold_lab::engine::math::Transform;
use manifold_lab::engine::solver::Contact;
use manifold_lab::engine::World;
use manifold_lab::scene::{PairShape, PairSpec, ShapeSpec};
use serde::{Deserialize, Serialize};

/// How near the pointer must be to a contact point to pick it, pixels (the dot's radius).
pub const CONTACT_PICK_PX: f32 = 6.0;

/// How far apart two manifolds' points and normals may be and still be the same manifold.
pub const SAME_MANIFOLD_TOL: f32 = 1e-5;

/// One contact point, by its pair (bodies `a < b`, as the world keeps contacts) and its index
/// in the manifold. Kept by pair, not by contact index, so it survives the steps that renumber
/// the contact list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContactRef {
    pub a: usize,
    pub b: usize,
    pub point: usize,
    /// Which shapes of a multi-part body the contact is on (`Contact::shape_pair`; 0 for
    /// bodies of one shape).
    #[serde(default)]
    pub shape_pair: u8,
}

/// The inspector's state: the contact point under the pointer and the one pinned by a click.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ContactInspector {
    pub hover: Option<ContactRef>,
    pub pinned: Option<ContactRef>,
}

/// The contact point nearest `p` among `contacts`, if it is within `radius` (world units).
/// Ties go to the earlier contact and point.
pub fn contact_at(contacts: &[Contact], p: Vec2, radius: f32) -> Option<ContactRef> {
    if !(p.is_finite() && radius.is_finite()) {
        return None;
    }
    let mut best: Option<(f32, ContactRef)> = None;
    for c in contacts {
        for (k, cp) in c.points().iter().enumerate() {
            let d = cp.point.distance(p);
            if d <= radius && best.is_none_or(|(bd, _)| d < bd) {
                best = Some((d, ContactRef { a: c.a, b: c.b, point: k, shape_pair: c.shape_pair }));
            }
        }
    }
    best.map(|(_, r)| r)
}

/// The world's contact between bodies `a` and `b` (the list is sorted by pair): the first,
/// when a body of several shapes touches with more than one.
#[cfg(test)]
pub fn find_contact(world: &World, a: usize, b: usize) -> Option<&Contact> {
    let (a, b) = (a.min(b), a.max(b));
    let k = world.contacts.partition_point(|c| (c.a, c.b) < (a, b));
    world.contacts.get(k).filter(|c| (c.a, c.b) == (a, b))
}

/// The world's contact that `r` names (its bodies and shapes).
pub fn find_contact_of(world: &World, r: ContactRef) -> Option<&Contact> {
    let key = (r.a.min(r.b), r.a.max(r.b), r.shape_pair);
    world.contacts.binary_search_by(|c| c.key().cmp(&key)).ok().map(|k| &world.contacts[k])
}

/// "shape 1 – shape 0" for a contact of a body of several shapes, `None` otherwise.
pub fn shape_pair_label(world: &World, c: &Contact) -> Option<String> {
    let many = |i: usize| world.bodies.get(i).is_some_and(|b| !b.parts.is_empty());
    (many(c.a) || many(c.b)).then(|| format!("shape {} – shape {}", c.sa(), c.sb()))
}

/// What the tooltip shows of one contact point.
#[derive(Clone, Debug, PartialEq)]
pub struct ContactInfo {
    pub names: (String, String),
    /// Which shapes touch, for a body of several shapes ("shape 1 – shape 0").
    pub shapes: Option<String>,
    pub point: Vec2,
    pub feature_id: u32,
    /// The feature id decoded for the pair's shapes: the reference face and the point's features.
    pub features: Features,
    /// Separation at the start of the step (negative: penetration).
    pub separation: f32,
    /// From A to B.
    pub normal: Vec2,
    pub normal_impulse: f32,
    pub tangent_impulse: f32,
    /// Consecutive steps the point has been matched and warm started.
    pub age: u32,
    pub awake: bool,
    /// When the manifold is recycled: the step whose poses it was computed at.
    pub recycled_from: Option<u64>,
}

/// A body's name, or `#index` when it has none.
pub fn body_label(world: &World, i: usize) -> String {
    match world.bodies.get(i) {
        Some(b) if !b.name.is_empty() => format!("{} (#{i})", b.name),
        _ => format!("#{i}"),
    }
}

/// The numbers of contact point `r`, if the world still has it.
pub fn contact_info(world: &World, r: ContactRef) -> Option<ContactInfo> {
    let c = find_contact_of(world, r)?;
    let cp = c.points().get(r.point)?;
    let (ba, bb) = (world.bodies.get(c.a)?, world.bodies.get(c.b)?);
    // The poses the manifold was computed at (their rotations tell the reference edge).
    let (xa, xb) = c.origin.map_or((ba.start_transform(), bb.start_transform()), |o| (o.xf_a, o.xf_b));
    let ((sa, xa), (sb, xb)) = (ba.shape_at_pose(c.sa(), &xa), bb.shape_at_pose(c.sb(), &xb));
    Some(ContactInfo {
        names: (body_label(world, c.a), body_label(world, c.b)),
        shapes: shape_pair_label(world, c),
        point: cp.point,
        feature_id: cp.id.0,
        features: decode(sa, &xa, sb, &xb, &c.manifold, r.point),
        separation: cp.base_separation,
        normal: c.normal(),
        normal_impulse: cp.normal_impulse,
        tangent_impulse: cp.tangent_impulse,
        age: cp.persisted,
        awake: c.awake,
        recycled_from: recycled_from(c),
    })
}

/// The step whose poses a recycled contact's manifold was computed at (`None` when the
/// manifold was computed at the last narrowphase).
pub fn recycled_from(c: &Contact) -> Option<u64> {
    c.origin.filter(|_| c.recycled > 0).map(|o| o.step)
}

/// Whether two manifolds have the same count, normal and points (in order) within `tol`.
pub fn same_manifold(x: &Manifold, y: &Manifold, tol: f32) -> bool {
    x.count == y.count
        && x.normal.distance(y.normal) <= tol
        && x.points().iter().zip(y.points()).all(|(p, q)| p.point.distance(q.point) <= tol)
}

/// A contact's pair as a pair file, and whether its manifold is exactly the world's.
#[derive(Clone, Debug, PartialEq)]
pub struct ContactPair {
    pub spec: PairSpec,
    /// False when neither candidate pose reproduces the stored manifold (a contact kept
    /// between sleeping bodies since an earlier step): the start-of-step poses are used.
    pub exact: bool,
    /// For a recycled contact, the step whose poses the pair is placed in: the lab's manifold
    /// is the one computed then (`ManifoldOrigin::manifold`), not the world's current one,
    /// whose separations have followed the bodies since.
    pub recycled_from: Option<u64>,
}

/// The pair of the contact between `a` and `b` in the poses that made its manifold, with the
/// speculative distance it was found with (the world's margin, plus the pair's reach when the
/// bodies were moving fast): A is body `a`, B is body `b`, so the normal points the same way.
pub fn contact_pair(world: &World, a: usize, b: usize, shape_pair: u8) -> Result<ContactPair, String> {
    let r = ContactRef { a, b, point: 0, shape_pair };
    let c = find_contact_of(world, r).ok_or_else(|| format!("bodies {a} and {b} have no contact now"))?;
    let (ba, bb) = (&world.bodies[c.a], &world.bodies[c.b]);
    // A pose as the pair file stores it (origin and angle) and as the lab will rebuild it.
    let pose = |xf: Transform| (xf.p, xf.q.angle());
    let recycled = recycled_from(c);
    // What the pair must reproduce, with the distance it was found with: a recycled contact's
    // recorded manifold at its recorded poses; otherwise the world's manifold.
    let (target, margin, candidates) = match (recycled, c.origin) {
        (Some(_), Some(o)) => (o.manifold, o.distance, vec![(o.xf_a, o.xf_b)]),
        _ => {
            let mut poses = vec![(ba.start_transform(), bb.start_transform()), (ba.xf, bb.xf)];
            if let Some(o) = c.origin {
                poses.insert(0, (o.xf_a, o.xf_b));
            }
            let margin = if c.margin > 0.0 { c.margin } else { world.params.speculative_margin };
            (c.manifold, margin, poses)
        }
    };
    // A body of several shapes: the contact's two shapes, placed where the bodies put them.
    let (sa, sb) = (c.sa(), c.sb());
    let (shape_a, shape_b) = (ba.shape_at(sa).0, bb.shape_at(sb).0);
    let placed = |(x, y): (Transform, Transform)| (ba.shape_at_pose(sa, &x).1, bb.shape_at_pose(sb, &y).1);
    let candidates: Vec<_> = candidates.into_iter().map(placed).map(|(x, y)| (pose(x), pose(y))).collect();
    let reproduces = |((pa, aa), (pb, ab)): ((Vec2, f32), (Vec2, f32))| {
        let m = collide(shape_a, &Transform::new(pa, aa), shape_b, &Transform::new(pb, ab), margin);
        same_manifold(&m, &target, SAME_MANIFOLD_TOL)
    };
    let found = candidates.iter().copied().find(|&p| reproduces(p));
    let fallback = if recycled.is_some() {
        candidates[0]
    } else {
        {
            let (x, y) = placed((ba.start_transform(), bb.start_transform()));
            pose_pair(x, y)
        }
    };
    let ((pa, aa), (pb, ab)) = found.unwrap_or(fallback);
    let name = format!("contact {} - {}", body_label(world, c.a), body_label(world, c.b));
    let mut spec = PairSpec::new(
        &name,
        PairShape { shape: ShapeSpec::from_shape(shape_a), position: pa, angle: aa },
        PairShape { shape: ShapeSpec::from_shape(shape_b), position: pb, angle: ab },
    );
    spec.margin = margin;
    spec.description = match recycled {
        Some(n) => format!(
            "Taken from step {} of the world, where the contact's manifold was recycled from the poses of step {n} \
             (these poses).",
            world.step_count
        ),
        None => format!("Taken from step {} of the world.", world.step_count),
    };
    Ok(ContactPair { spec, exact: found.is_some(), recycled_from: recycled })
}

/// Two transforms as the pair file stores poses (origin and angle).
fn pose_pair(x: Transform, y: Transform) -> ((Vec2, f32), (Vec2, f32)) {
    ((x.p, x.q.angle()), (y.p, y.q.angle()))
}

/// What the inspector can be asked to do.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum InspectorAction {
    /// Pin the inspector on a contact point; `None` unpins it. Clicking a contact point while
    /// the Contacts layer is on does this.
    Pin(Option<ContactRef>),
}

impl ToolType for ContactInspector {
    type Action = InspectorAction;
    const ENTRY: ToolEntry = ToolEntry {
        name: "inspector",
        description: "a contact point's pair, features, separation, impulses and age; opens it in the Manifold lab",
    };

    fn apply(&mut self, cx: &mut ToolContext, action: InspectorAction) {
        let InspectorAction::Pin(r) = action;
        match r {
            Some(r) if contact_info(cx.world, r).is_none() => {
                *cx.error = Some(format!("no contact point {} between bodies {} and {}", r.point, r.a, r.b));
            }
            _ => self.pinned = r,
        }
    }
}

impl Tool for ContactInspector {
    fn kind(&self) -> ToolKind {
        ToolKind::Inspector
    }

    /// Follows the pointer with the hover ring; never takes the pointer.
    fn pointer(&mut self, v: &ToolView, p: &ToolPointer) -> Option<Vec<Action>> {
        self.hover = p.free.then(|| contact_under(v, p.world)).flatten();
        None
    }

    fn click(&self, v: &ToolView, p: &ToolPointer) -> Option<Vec<Action>> {
        let r = contact_under(v, p.world).filter(|_| !p.frame.shift)?;
        Some(vec![InspectorAction::Pin(Some(r)).into()])
    }

    fn draw(&self, v: &ToolView, d: &mut MqDraw) {
        ui::draw_marker(self, v, d.batch());
    }

    fn window(&self, ctx: &egui::Context, v: &ToolView, out: &mut Vec<Action>) {
        ui::show(ctx, self, v, out);
    }
}

/// The contact point under the pointer at `world`, when the Contacts layer shows them.
pub fn contact_under(v: &ToolView, world: Vec2) -> Option<ContactRef> {
    if v.in_lab || !v.layers.contains(Layer::Contact) {
        return None;
    }
    contact_at(&v.world.contacts, world, CONTACT_PICK_PX * v.px())
}
