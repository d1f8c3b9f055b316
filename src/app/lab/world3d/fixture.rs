//! A 3D contact's pair as a hull pair file (`scenes/hulls/*.ron`, the 3D hull lab's format) in
//! the exact poses where the world found it: the 3D twin of the 2D inspector's `contact_pair`
//! (`tools::inspector`), which opens a 2D contact in the Manifold lab.
//!
//! The world finds its contacts at the start of a step, before the solver moves the bodies
//! (`World3::step`), so the poses that made a contact are the start-of-step ones: the bodies of
//! the state kept before the step (the lab's step-back history), `Body3::start_pose` (the
//! step's starting centre of mass and rotation), or, for contacts found without a step
//! (`World3::refresh_contacts` after a paused drag), the current poses. Each candidate is
//! collided again by the world's narrowphase (`narrow::collide_hulls`, seed article 001's SAT
//! and clipping with the world's margin and SAT mode), and the pair takes the first that gives
//! the world's contact bit for bit. Shapes are the scene file's own (`Cube(half: 0.5)`), a hull
//! of a body of several with its place in the body (`PartPlace`); the rotation is written as
//! the quaternion itself, so the file reads back to the same bits.

use super::pin::PairRef3;
use super::World3dLab;
use manifold_lab::engine::hull3d::{Pose3, SatScratch};
use manifold_lab::engine::world3d::narrow::{collide_hulls, HullPair, HullPairContext};
use manifold_lab::engine::world3d::{Contact3, World3};
use manifold_lab::scene::{HullPlacement, HullsSpec, PartPlace, WorldNarrowphase};

/// A contact's pair as a hull pair file, and whether it reproduces the world's contact.
#[derive(Clone, Debug, PartialEq)]
pub struct ContactHulls {
    pub spec: HullsSpec,
    /// False when no candidate pose gives the world's contact back (the start-of-step poses
    /// are used).
    pub exact: bool,
}

/// The world's contact of `pair`, if it still has one.
pub fn find_pair(w: &World3, pair: PairRef3) -> Option<&Contact3> {
    w.contacts.iter().find(|c| (c.a, c.b, c.parts) == (pair.a, pair.b, pair.parts))
}

/// Whether the narrowphase's `out` is the contact `c` bit for bit: the SAT's decision, the
/// normal, and each point's feature id, position and separation.
pub fn same_contact(out: &HullPair, c: &Contact3) -> bool {
    let HullPair::Touching(sat, m) = out else { return false };
    *sat == c.sat
        && m.normal == c.normal
        && m.points.len() == c.points.len()
        && m.points.iter().zip(&c.points).all(|(p, q)| {
            p.id == q.id && p.position == q.position && p.separation.to_bits() == q.base_separation.to_bits()
        })
}

/// Body `body`'s hull `k` as the scene file writes it, at `pose`.
fn placement(lab: &World3dLab, body: usize, k: usize, pose: Pose3) -> Result<HullPlacement, String> {
    let spec = lab.spec.bodies.get(body).ok_or_else(|| format!("body {body} is not in the scene file"))?;
    let b = &lab.world.bodies[body];
    let (shape, part) = match (&spec.shape, &spec.shapes, b.parts.get(k)) {
        (Some(s), _, None) => (s.clone(), None),
        (_, Some(parts), Some(p)) => {
            let s = parts.get(k).ok_or_else(|| format!("body {body} has no hull {k} in its file"))?;
            (s.shape.clone(), Some(PartPlace { offset: p.offset, rotation: p.rotation }))
        }
        _ => return Err(format!("body {body}'s hull {k} is not in its file")),
    };
    let placed = HullPlacement::exact(shape, pose, part);
    if placed.local_hull() != *b.hull_at(k) {
        return Err(format!("body {body}'s hull {k} is not the one its file builds"));
    }
    Ok(placed)
}

/// The candidate start-of-step poses of body `i` (module docs), first the likeliest.
fn candidates(lab: &World3dLab, i: usize) -> Vec<Pose3> {
    let b = &lab.world.bodies[i];
    let before = lab.history.last().filter(|w| w.step_count + 1 == lab.world.step_count);
    let mut out: Vec<Pose3> = before.and_then(|w| w.bodies.get(i)).map(|b| b.pose).into_iter().collect();
    for p in [b.start_pose(), b.pose] {
        if !out.contains(&p) {
            out.push(p);
        }
    }
    out
}

/// The pair of contact `pair` in the poses that made it, as a hull pair file with the world's
/// narrowphase settings.
pub fn contact_hulls(lab: &World3dLab, pair: PairRef3) -> Result<ContactHulls, String> {
    let w = &lab.world;
    let c = find_pair(w, pair).ok_or_else(|| format!("bodies {} and {} have no contact now", pair.a, pair.b))?;
    let (ka, kb) = (c.parts[0] as usize, c.parts[1] as usize);
    let config = w.params.sat.config();
    let margin = w.params.speculative_margin;
    let mut scratch = SatScratch::default();
    let (ha, hb) = (w.bodies[c.a].hull_at(ka), w.bodies[c.b].hull_at(kb));
    let (ca, cb) = (candidates(lab, c.a), candidates(lab, c.b));
    let combos = ca.iter().flat_map(|pa| cb.iter().map(move |pb| (*pa, *pb)));
    let found = combos.clone().find(|(pa, pb)| {
        let ctx = HullPairContext { margin, config: &config, scratch: &mut scratch };
        same_contact(&collide_hulls((ha, pa), (hb, pb), ctx), c)
    });
    let (pa, pb) = found.unwrap_or((w.bodies[c.a].start_pose(), w.bodies[c.b].start_pose()));
    let name = |i: usize| {
        let n = &w.bodies[i].name;
        if n.is_empty() {
            format!("#{i}")
        } else {
            format!("{n} (#{i})")
        }
    };
    let mut spec = HullsSpec::new(
        &format!("contact {} - {}", name(c.a), name(c.b)),
        placement(lab, c.a, ka, pa)?,
        placement(lab, c.b, kb, pb)?,
    );
    spec.description = format!("Taken from step {} of {}.", w.step_count, lab.path.display());
    spec.world = Some(WorldNarrowphase { margin, sat: w.params.sat });
    Ok(ContactHulls { spec, exact: found.is_some() })
}
