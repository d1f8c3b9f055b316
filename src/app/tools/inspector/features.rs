//! A contact point's feature id in words, decoded by what each byte is for the pair's kinds of
//! shape (`FeatureId`: `flip << 24 | kind << 16 | reference feature << 8 | incident feature`;
//! the flip bit says the shape holding the reference feature is B).
//!
//! - Polygon faces (`collide_polygons`, and `collide_polygon_capsule` with the capsule as a
//!   two-gon: ends 0 and 1, sides 0 and 1): the reference byte is a *vertex* of the reference
//!   face, `i1` or `i2`, and the incident byte a vertex of the incident edge (the clipper's
//!   `keep_points_behind_reference` pairs `i1` with `j2` and `i2` with `j1`). The face itself is
//!   the edge both points share: of the two edges at the reference vertex, the one whose normal
//!   is the manifold's. A single deepest vertex (`Vertex` kind) names the reference edge and
//!   the incident vertex; from `collide_polygon_capsule`'s vertex–vertex case, a polygon vertex
//!   and a capsule end.
//!   Rounded polygons (`collide/rounded.rs`) use the same face ids; their vertex–vertex point
//!   names A's vertex and B's.
//! - Circles: a polygon's face, or its vertex with bit 7 set (`collide_polygon_circle`); a
//!   capsule's end 0, end 1 or side (2) (`collide_capsule_circle`); nothing for two circles.
//! - Capsule pairs (`collide_capsules`, Box2D v3's ids, one byte per capsule): clipped onto
//!   the reference capsule's segment, the other capsule's segment end; for the single closest
//!   point, each capsule's end 0 (0) or a point past it (1).

use manifold_lab::engine::collide::manifold::FeatureKind;
use manifold_lab::engine::collide::Manifold;
use manifold_lab::engine::math::Transform;
use manifold_lab::engine::shape::Shape;
use std::fmt;

/// One feature of one shape, e.g. `vertex A3`, `side B0`, `circle B`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Feature {
    /// `'A'` or `'B'`, as the contact names its bodies.
    pub shape: char,
    /// `vertex`, `edge`, `end`, `side`, `segment` or `circle`.
    pub kind: &'static str,
    pub index: Option<usize>,
}

impl fmt::Display for Feature {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self.index {
            Some(i) => write!(f, "{} {}{i}", self.kind, self.shape),
            None => write!(f, "{} {}", self.kind, self.shape),
        }
    }
}

/// What a point's feature id says: the reference face (shared by the manifold's points, when
/// the contact has one) and the point's own features, each with its role.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Features {
    pub kind: &'static str,
    pub reference: Option<Feature>,
    pub items: Vec<(&'static str, Feature)>,
}

impl Features {
    /// The reference face, e.g. `edge B1`, or `none`.
    pub fn reference_text(&self) -> String {
        self.reference.map_or_else(|| "none".to_string(), |f| f.to_string())
    }

    /// The point's features, e.g. `reference vertex B2, incident vertex A0, incident edge A3`.
    pub fn point_text(&self) -> String {
        let item = |(role, f): &(&str, Feature)| if role.is_empty() { f.to_string() } else { format!("{role} {f}") };
        self.items.iter().map(item).collect::<Vec<_>>().join(", ")
    }
}

/// Shape `s` seen as a polygon for the clipper: its vertex and edge counts and words, and its
/// edges' local normals (a capsule is Box2D's two-gon: ends 0 and 1, sides 0 and 1).
fn polygon_words(s: &Shape) -> (usize, &'static str, &'static str) {
    match s {
        Shape::Capsule(_) => (2, "end", "side"),
        Shape::Polygon(p) => (p.count, "vertex", "edge"),
        Shape::Circle(_) => (1, "circle", "circle"),
    }
}

/// The world normal of edge `e` of `s` (a polygon, or a capsule's side).
fn edge_normal(s: &Shape, xf: &Transform, e: usize) -> glam::Vec2 {
    match s {
        Shape::Polygon(p) => xf.q.apply(p.normals[e]),
        Shape::Capsule(c) => {
            let d = (c.center2 - c.center1).normalize_or_zero();
            let right = glam::Vec2::new(d.y, -d.x);
            xf.q.apply(if e == 0 { right } else { -right })
        }
        Shape::Circle(_) => glam::Vec2::ZERO,
    }
}

/// Point `k` of manifold `m` between `a` (at `xa`) and `b` (at `xb`), the poses it was
/// computed at (only their rotations matter: they tell the reference edge from its neighbour).
pub fn decode(a: &Shape, xa: &Transform, b: &Shape, xb: &Transform, m: &Manifold, k: usize) -> Features {
    let id = m.points.get(k).map_or(0, |p| p.id.0);
    let (flip, kind, hi, lo) = (id >> 24 & 1 == 1, id >> 16 & 0xff, (id >> 8 & 0xff) as usize, (id & 0xff) as usize);
    // The shape holding the reference (first) byte, and the other.
    let (r, i) = if flip { ('B', 'A') } else { ('A', 'B') };
    let (rs, rx, is_) = if flip { (b, xb, a) } else { (a, xa, b) };
    let feature = |shape, kind, index| Feature { shape, kind, index };
    match (a, b) {
        (Shape::Circle(_), Shape::Circle(_)) => Features {
            kind: "circle",
            reference: None,
            items: vec![("", feature('A', "circle", None)), ("", feature('B', "circle", None))],
        },
        (Shape::Polygon(_), Shape::Circle(_)) | (Shape::Circle(_), Shape::Polygon(_)) => {
            let (poly, round) = if flip { ('B', 'A') } else { ('A', 'B') };
            let (region, index) = if hi & 0x80 != 0 { ("vertex", hi & 0x7f) } else { ("edge", hi) };
            let on_poly = feature(poly, region, Some(index));
            Features {
                kind: "circle",
                reference: (region == "edge").then_some(on_poly),
                items: vec![("closest", on_poly), ("", feature(round, "circle", None))],
            }
        }
        (Shape::Capsule(_), Shape::Circle(_)) | (Shape::Circle(_), Shape::Capsule(_)) => {
            let (cap, round) = if flip { ('B', 'A') } else { ('A', 'B') };
            let part = if hi == 2 { feature(cap, "side", None) } else { feature(cap, "end", Some(hi)) };
            Features {
                kind: "capsule",
                reference: None,
                items: vec![("closest", part), ("", feature(round, "circle", None))],
            }
        }
        (Shape::Capsule(ca), Shape::Capsule(_)) => capsules(ca, xa, m, flip, hi, lo),
        _ if kind == FeatureKind::Face as u32 => face(rs, rx, is_, (r, i), m, flip, (hi, lo)),
        (Shape::Polygon(pa), Shape::Polygon(pb)) if pa.radius > 0.0 || pb.radius > 0.0 => Features {
            // Rounded polygons' vertex–vertex point (cores apart, `collide/rounded.rs`): A's
            // vertex, then B's. (Its rarer deepest-vertex fallback, when the cores overlap and
            // clipping keeps nothing, shares the id layout and reads the same way here.)
            kind: "vertex",
            reference: None,
            items: vec![("closest", feature('A', "vertex", Some(hi))), ("closest", feature('B', "vertex", Some(lo)))],
        },
        (Shape::Polygon(_), Shape::Polygon(_)) => Features {
            kind: "vertex",
            reference: Some(feature(r, "edge", Some(hi))),
            items: vec![("deepest", feature(i, "vertex", Some(lo)))],
        },
        _ => {
            // Polygon–capsule vertex–vertex: the polygon's vertex first (the flip bit says it
            // is B), then the capsule's end.
            let (poly, cap) = if flip { ('B', 'A') } else { ('A', 'B') };
            Features {
                kind: "vertex",
                reference: None,
                items: vec![("closest", feature(poly, "vertex", Some(hi))), ("closest", feature(cap, "end", Some(lo)))],
            }
        }
    }
}

/// A face contact between polygons (clipping's ids): the reference face (the edge at vertex
/// `hi` whose normal is the manifold's, or the one before it), its vertex, and the incident
/// vertex `lo` and edge on the other shape (`rs`, `is_`: the reference and incident shapes).
#[allow(clippy::too_many_arguments)]
fn face(
    rs: &Shape,
    rx: &Transform,
    is_: &Shape,
    (r, i): (char, char),
    m: &Manifold,
    flip: bool,
    (hi, lo): (usize, usize),
) -> Features {
    let feature = |shape, kind, index| Feature { shape, kind, index };
    let (n_ref, vertex_word, edge_word) = polygon_words(rs);
    let (n_inc, inc_vertex_word, inc_edge_word) = polygon_words(is_);
    // The reference face is the edge at vertex `hi` whose normal is the manifold's
    // (its normal points from the reference shape to the other).
    let toward = if flip { -m.normal } else { m.normal };
    let before = (hi + n_ref - 1) % n_ref;
    let e = if edge_normal(rs, rx, hi).dot(toward) >= edge_normal(rs, rx, before).dot(toward) { hi } else { before };
    // i1 (the face's first vertex) pairs with j2, i2 with j1; the incident edge runs j1 → j2.
    let incident_edge = if hi == e { (lo + n_inc - 1) % n_inc } else { lo };
    Features {
        kind: "face",
        reference: Some(feature(r, edge_word, Some(e))),
        items: vec![
            ("reference", feature(r, vertex_word, Some(hi))),
            ("incident", feature(i, inc_vertex_word, Some(lo))),
            ("incident", feature(i, inc_edge_word, Some(incident_edge))),
        ],
    }
}

/// Capsule–capsule ids (`collide_capsules`): a point clipped onto the reference segment (A's,
/// or B's when flipped) names the other capsule's segment end; the single closest point names,
/// per capsule, end 0 (byte 0) or a point past it (byte 1). With one point and A's byte 0 the
/// two readings share an id; the clipped one has a normal square to A's segment.
fn capsules(
    ca: &manifold_lab::engine::shape::Capsule,
    xa: &Transform,
    m: &Manifold,
    flip: bool,
    hi: usize,
    lo: usize,
) -> Features {
    let feature = |shape, kind, index| Feature { shape, kind, index };
    let axis = xa.q.apply(ca.center2 - ca.center1).normalize_or_zero();
    let clipped = flip || m.count == 2 || (hi == 0 && m.normal.dot(axis).abs() < 1e-3);
    if clipped {
        let (reference, end) =
            if flip { ('B', feature('A', "end", Some(hi))) } else { ('A', feature('B', "end", Some(lo))) };
        return Features {
            kind: "capsule",
            reference: Some(feature(reference, "segment", None)),
            items: vec![("clipped", end)],
        };
    }
    let part = |shape, byte| if byte == 0 { feature(shape, "end", Some(0)) } else { feature(shape, "segment", None) };
    Features { kind: "capsule", reference: None, items: vec![("closest", part('A', hi)), ("closest", part('B', lo))] }
}
