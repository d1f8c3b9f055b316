//! What the 3D world shows, through the one [`DebugDraw3`] seam: hulls, frames, contacts with
//! normals and impulses, the axis that decided each pair's SAT, water surfaces, the submerged
//! cut with the centre of buoyancy and its force, joint anchors, bases and errors.

use super::height_field::HeightField3;
use super::joint::JointKind3;
use super::joint_orientation::bases;
use super::world::World3;
use crate::engine::debug::{palette, Color};
use crate::engine::debug3::{DebugDraw3, Layer3};
use crate::engine::hull3d::AxisKind;
use crate::engine::number::Num;
use crate::engine::BodyKind;
use glam::{Vec2, Vec3};

/// What [`World3::debug_draw`] should emphasise and how long arrows are.
#[derive(Clone, Debug, PartialEq)]
pub struct DrawOptions3 {
    /// Highlighted bodies.
    pub selected: Vec<usize>,
    /// Length of drawn contact normals and basis vectors, metres.
    pub normal_length: f32,
    /// Metres of arrow per newton-second of contact impulse.
    pub impulse_scale: f32,
    /// Water patches are drawn as a grid of this many cells per side.
    pub water_cells: usize,
}

impl Default for DrawOptions3 {
    fn default() -> Self {
        DrawOptions3 { selected: Vec::new(), normal_length: 0.3, impulse_scale: 0.01, water_cells: 16 }
    }
}

const WATER: Color = Color::rgb(60, 130, 230);
/// The faint lines between a simulated surface's quads.
const WATER_GRID: Color = Color::rgb(150, 200, 255).with_alpha(0.18);
const BUOYANCY: Color = Color::rgb(90, 220, 255);
const DRAG: Color = Color::rgb(255, 150, 60);
const SAT_AXIS: Color = Color::rgb(255, 230, 60);
const AXES: [Color; 3] = [Color::rgb(240, 80, 80), Color::rgb(80, 220, 80), Color::rgb(90, 140, 255)];

impl World3 {
    /// Describes the world to `d`, layer by layer (unwanted layers cost nothing).
    pub fn debug_draw(&self, d: &mut dyn DebugDraw3, opts: &DrawOptions3) {
        self.draw_bodies(d, opts);
        self.draw_contacts(d, opts);
        self.draw_water(d, opts);
        self.draw_joints(d, opts);
        self.draw_mouse(d);
    }

    /// The mouse spring: the grabbed point, the target and the stretch between them.
    fn draw_mouse(&self, d: &mut dyn DebugDraw3) {
        let Some(m) = &self.mouse else { return };
        let Some(b) = self.bodies.get(m.body) else { return };
        if d.wants(Layer3::Joint) {
            let p = m.anchor(b);
            d.segment(Layer3::Joint, p, m.target, palette::SELECTED);
            d.point(Layer3::Joint, p, 6.0, palette::SELECTED);
            d.point(Layer3::Joint, m.target, 4.0, palette::SELECTED);
        }
    }

    fn draw_bodies(&self, d: &mut dyn DebugDraw3, opts: &DrawOptions3) {
        for (i, b) in self.bodies.iter().enumerate() {
            let color = if opts.selected.contains(&i) {
                palette::SELECTED
            } else {
                match b.kind {
                    BodyKind::Static => palette::STATIC,
                    BodyKind::Kinematic => palette::KINEMATIC,
                    BodyKind::Dynamic => palette::DYNAMIC,
                }
            };
            // Static bodies (grounds, tank walls) lighter, so what moves stands out.
            let face_alpha = if b.kind == BodyKind::Static { 0.12 } else { 0.35 };
            for hull in b.hulls() {
                if d.wants(Layer3::Shape) {
                    for f in 0..hull.faces().len() {
                        let pts: Vec<Vec3> =
                            hull.face_polygon(f).into_iter().map(|p| b.pose.transform_point(p)).collect();
                        d.polygon(Layer3::Shape, &pts, color.with_alpha(face_alpha), color);
                    }
                }
                if d.wants(Layer3::Edge) {
                    for e in 0..hull.edges().len() {
                        let [p, q] = hull.edge_segment(e).map(|p| b.pose.transform_point(p));
                        d.segment(Layer3::Edge, p, q, color);
                    }
                }
            }
            let r = if b.parts.is_empty() {
                b.hull.radius()
            } else {
                0.5 * (b.local_bounds[1] - b.local_bounds[0]).length()
            };
            let r = r.max(0.05);
            if d.wants(Layer3::Frame) {
                for (k, axis) in [Vec3::X, Vec3::Y, Vec3::Z].into_iter().enumerate() {
                    d.segment(Layer3::Frame, b.center, b.center + b.pose.q * axis * (0.5 * r), AXES[k]);
                }
            }
            if d.wants(Layer3::CenterOfMass) {
                d.point(Layer3::CenterOfMass, b.center, 5.0, palette::CENTER);
            }
            if d.wants(Layer3::Aabb) {
                let [lo, hi] = b.world_bounds(0.0);
                draw_box(d, lo, hi, palette::AABB);
            }
            if d.wants(Layer3::Velocity) && b.is_dynamic() {
                d.arrow(Layer3::Velocity, b.center, b.center + b.linear_velocity * 0.25, palette::NORMAL);
                d.arrow(Layer3::Velocity, b.center, b.center + b.angular_velocity * 0.1, palette::FRICTION);
            }
            if d.wants(Layer3::Label) && !b.name.is_empty() {
                d.text(Layer3::Label, b.center + Vec3::Y * r, &b.name, palette::TEXT);
            }
        }
    }

    fn draw_contacts(&self, d: &mut dyn DebugDraw3, opts: &DrawOptions3) {
        for c in &self.contacts {
            for cp in &c.points {
                let color = palette::contact(cp.base_separation, cp.persisted);
                if d.wants(Layer3::Contact) {
                    d.point(Layer3::Contact, cp.position, 6.0, color);
                }
                if d.wants(Layer3::Normal) {
                    d.arrow(Layer3::Normal, cp.position, cp.position + c.normal * opts.normal_length, palette::NORMAL);
                }
                if d.wants(Layer3::Impulse) {
                    let to = cp.position + c.normal * (cp.normal_impulse * opts.impulse_scale);
                    d.arrow(Layer3::Impulse, cp.position, to, palette::IMPULSE);
                }
                if d.wants(Layer3::Friction) {
                    let t = c.tangents[0] * cp.tangent_impulse[0] + c.tangents[1] * cp.tangent_impulse[1];
                    d.arrow(Layer3::Friction, cp.position, cp.position + t * opts.impulse_scale, palette::FRICTION);
                }
            }
            if d.wants(Layer3::SatAxis) {
                self.draw_sat_axis(d, c, opts);
            }
        }
    }

    /// The deciding axis: the reference face outlined with its normal, or both edges with the
    /// edge axis through the contact point; labelled with the separation.
    fn draw_sat_axis(&self, d: &mut dyn DebugDraw3, c: &super::contact::Contact3, opts: &DrawOptions3) {
        let (ba, bb) = (&self.bodies[c.a], &self.bodies[c.b]);
        let at = c.points.iter().map(|p| p.position).sum::<Vec3>() / c.points.len().max(1) as f32;
        let (label, segments): (String, Vec<[Vec3; 2]>) = match c.sat.kind {
            AxisKind::FaceA { face } | AxisKind::FaceB { face } => {
                let (body, side, k) =
                    if matches!(c.sat.kind, AxisKind::FaceA { .. }) { (ba, "A", 0) } else { (bb, "B", 1) };
                let hull = body.hull_at(c.parts[k] as usize);
                let poly: Vec<Vec3> =
                    hull.face_polygon(face).into_iter().map(|p| body.pose.transform_point(p)).collect();
                let n = poly.len();
                (format!("face {side}{face}"), (0..n).map(|k| [poly[k], poly[(k + 1) % n]]).collect())
            }
            AxisKind::Edges { edge_a, edge_b } => {
                let (ha, hb) = (ba.hull_at(c.parts[0] as usize), bb.hull_at(c.parts[1] as usize));
                let ea = ha.edge_segment(edge_a).map(|p| ba.pose.transform_point(p));
                let eb = hb.edge_segment(edge_b).map(|p| bb.pose.transform_point(p));
                (format!("edges A{edge_a} × B{edge_b}"), vec![ea, eb])
            }
        };
        for [p, q] in segments {
            d.segment(Layer3::SatAxis, p, q, SAT_AXIS);
        }
        let half = c.normal * (2.0 * opts.normal_length);
        d.segment(Layer3::SatAxis, at - half, at + half, SAT_AXIS);
        d.text(Layer3::SatAxis, at + half, &format!("{label}: {:+.4}", Num(c.sat.separation)), SAT_AXIS);
    }

    fn draw_water(&self, d: &mut dyn DebugDraw3, opts: &DrawOptions3) {
        if d.wants(Layer3::Water) {
            let g = self.params.gravity.length();
            for (k, w) in self.water.iter().enumerate() {
                if let Some(Some(field)) = self.surfaces.get(k) {
                    draw_height_field(d, field);
                    continue;
                }
                let (lo, hi) = match w.region {
                    Some(r) => (r.min, r.max),
                    None => self.footprint(),
                };
                let n = opts.water_cells.max(1);
                let at = |i: usize, j: usize| {
                    let xz = lo + (hi - lo) * Vec2::new(i as f32, j as f32) / n as f32;
                    Vec3::new(xz.x, w.surface(xz.x, xz.y, self.time, g).0, xz.y)
                };
                for i in 0..n {
                    for j in 0..n {
                        let quad = [at(i, j), at(i, j + 1), at(i + 1, j + 1), at(i + 1, j)];
                        d.polygon(Layer3::Water, &quad, WATER.with_alpha(0.4), WATER.with_alpha(0.5));
                    }
                }
            }
        }
        for rec in &self.buoyancy {
            let b = &self.bodies[rec.body];
            if d.wants(Layer3::Submerged) && rec.submerged.waterline.len() >= 3 {
                d.polygon(Layer3::Submerged, &rec.submerged.waterline, WATER.with_alpha(0.5), BUOYANCY);
            }
            if d.wants(Layer3::Buoyancy) {
                // Forces in units of the body's weight: an arrow of 1 m is its weight.
                let weight = (b.mass * self.params.gravity.length()).max(1e-6);
                let c = rec.submerged.centroid;
                d.point(Layer3::Buoyancy, c, 6.0, BUOYANCY);
                d.arrow(Layer3::Buoyancy, c, c + rec.buoyant_force / weight, BUOYANCY);
                d.arrow(Layer3::Buoyancy, b.center, b.center + rec.drag_force / weight, DRAG);
                let v = rec.submerged.volume;
                d.text(
                    Layer3::Buoyancy,
                    c,
                    &format!("V {v:.4} m³ ({:.0} %)", Num(100.0 * v / b.volume), v = Num(v)),
                    BUOYANCY,
                );
            }
        }
    }

    /// The xz extent of all bodies, grown by 2 m (for water without a region).
    fn footprint(&self) -> (Vec2, Vec2) {
        let mut lo = Vec2::splat(f32::INFINITY);
        let mut hi = Vec2::splat(f32::NEG_INFINITY);
        for b in &self.bodies {
            let [l, h] = b.world_bounds(0.0);
            lo = lo.min(Vec2::new(l.x, l.z));
            hi = hi.max(Vec2::new(h.x, h.z));
        }
        if !lo.is_finite() {
            return (Vec2::splat(-5.0), Vec2::splat(5.0));
        }
        (lo - Vec2::splat(2.0), hi + Vec2::splat(2.0))
    }

    fn draw_joints(&self, d: &mut dyn DebugDraw3, opts: &DrawOptions3) {
        for j in &self.joints {
            let (ba, bb) = (&self.bodies[j.a], &self.bodies[j.b]);
            let [pa, pb] = j.anchors(&self.bodies);
            if d.wants(Layer3::Joint) {
                d.segment(Layer3::Joint, ba.center, pa, palette::JOINT);
                d.segment(Layer3::Joint, bb.center, pb, palette::JOINT);
                d.point(Layer3::Joint, pa, 6.0, palette::JOINT);
                d.point(Layer3::Joint, pb, 6.0, palette::JOINT);
            }
            if let JointKind3::Orientation(o) = &j.kind {
                if d.wants(Layer3::JointBasis) {
                    // A's basis solid, B's lighter: the article's xa, ya, yb, zb (and za, xb).
                    let v = bases(o, ba.rotation(), bb.rotation());
                    let len = 2.0 * opts.normal_length;
                    for k in 0..3 {
                        d.arrow(Layer3::JointBasis, pa, pa + v[k] * len, AXES[k]);
                        d.arrow(Layer3::JointBasis, pa, pa + v[k + 3] * (0.8 * len), AXES[k].with_alpha(0.55));
                    }
                }
            }
            if d.wants(Layer3::JointError) {
                let e = j.error(&self.bodies);
                let unit = if matches!(j.kind, JointKind3::Ball(_)) { "m" } else { "rad" };
                let p = e.per_axis;
                let text = format!("{} err ({:.1e}, {:.1e}, {:.1e}) {unit}", j.name, Num(p.x), Num(p.y), Num(p.z));
                d.text(Layer3::JointError, 0.5 * (pa + pb), &text, palette::TEXT);
            }
        }
    }
}

/// The 12 edges of an axis-aligned box.
fn draw_box(d: &mut dyn DebugDraw3, lo: Vec3, hi: Vec3, color: Color) {
    let corner = |i: usize| {
        Vec3::new(
            if i & 1 == 0 { lo.x } else { hi.x },
            if i & 2 == 0 { lo.y } else { hi.y },
            if i & 4 == 0 { lo.z } else { hi.z },
        )
    };
    for i in 0..8 {
        for bit in [1, 2, 4] {
            if i & bit == 0 {
                d.segment(Layer3::Aabb, corner(i), corner(i | bit), color);
            }
        }
    }
}

/// Most quads a simulated surface is drawn with along one side (finer grids are sampled).
const MAX_SURFACE_QUADS: usize = 64;

/// A simulated surface as a translucent mesh over its cells, each quad shaded by its slope
/// towards a light from above (crests and troughs read as lit and shadowed faces) and
/// outlined faintly, so the grid's motion shows and the bodies under it stay visible.
fn draw_height_field(d: &mut dyn DebugDraw3, f: &HeightField3) {
    let (nx, nz) = (f.nx(), f.nz());
    let (sx, sz) = (nx.div_ceil(MAX_SURFACE_QUADS), nz.div_ceil(MAX_SURFACE_QUADS));
    let (cx, cz) = (nx.div_ceil(sx), nz.div_ceil(sz));
    let size = f.cell * Vec2::new(nx as f32, nz as f32);
    let at = |i: usize, j: usize| {
        let xz = f.min + size * Vec2::new(i as f32 / cx as f32, j as f32 / cz as f32);
        Vec3::new(xz.x, f.height_at(xz.x, xz.y), xz.y)
    };
    let light = Vec3::new(0.4, 1.0, 0.3).normalize();
    for j in 0..cz {
        for i in 0..cx {
            let quad = [at(i, j), at(i, j + 1), at(i + 1, j + 1), at(i + 1, j)];
            // The diagonals' cross product: the quad's upward normal.
            let n = (quad[1] - quad[3]).cross(quad[2] - quad[0]).normalize_or_zero();
            let shade = (0.6 + 4.0 * (n.dot(light) - light.y)).clamp(0.35, 1.0);
            let fill = Color { r: WATER.r * shade, g: WATER.g * shade, b: WATER.b * shade, a: 0.45 };
            d.polygon(Layer3::Water, &quad, fill, WATER_GRID);
        }
    }
}
