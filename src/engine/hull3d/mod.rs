//! 3D convex hulls and hull–hull SAT (seed article 001, "3D convex hull vs hull SAT"), with what
//! a physics engine and a debugger need beyond it.
//!
//! * [`Hull`]: the article's hull data (positions, unique edges, polygon faces with outward
//!   normals) plus each edge's two faces and each face's plane; built by QuickHull from a point
//!   cloud ([`Hull::from_points`], robust to coplanar and nearly coplanar points), from polygons
//!   ([`Hull::from_polygons`]), or from the article's own arrays ([`Hull::from_raw`]).
//! * [`shapes`]: boxes, tetrahedron, octahedron, icosahedron, n-sided prisms, seeded random clouds.
//! * [`sat`]: the article's SAT, `get_supports`, `query_face_directions` (A→B and B→A),
//!   `query_edge_directions`, `closest_points_between_lines` and `collide` (contact point and
//!   minimum translation vector), with the article's quirks available as [`SatConfig::ARTICLE`];
//!   [`lines`] holds `closest_points_between_lines`.
//! * [`clip`]: a full contact manifold for face contacts (Sutherland–Hodgman clipping of the
//!   incident face against the reference face's side planes, reduced to at most 4 points);
//!   [`clip_trace`]: [`ClipTrace3`], its steps recorded when asked for and drawn one by one.
//! * [`gauss`]: Gauss maps (face normals as points on the unit sphere, edges as great arcs) and
//!   the Minkowski-face test on them.
//! * [`trace`]: [`SatTrace3`], every axis tested, recorded only when asked for.
//! * [`sat_view`]: [`SatView3`], one traced SAT with its manifold, the best axis of each family
//!   and the Gauss maps, as a view needs it; [`sat_draw`] and [`gauss_draw`] describe it
//!   through `DebugDraw3`, layer by layer, and step it axis by axis (`Trace3`).
//! * [`sat_local`]: the same SAT on hulls in their own frames with poses, fast enough to step a
//!   world (A's frame, packed lanes ([`accel`], [`lanes`]), Gauss-map pruning, a support bound
//!   on the edge pairs, hill-climbing supports, a remembered axis first), and [`clip_local`]:
//!   its manifold with feature ids for warm starting.
//!
//! Everything here is plain data in `glam::Vec3`; the SAT view, the QuickHull trace and the 3D
//! world ([`crate::engine::world3d`]) describe their pictures through
//! [`crate::engine::debug3::DebugDraw3`].

pub mod accel;
pub mod clip;
pub mod clip_local;
pub mod clip_trace;
pub mod gauss;
pub mod gauss_draw;
pub mod hull;
pub mod lanes;
pub mod lines;
mod merge;
pub mod pose;
pub mod quickhull;
pub mod quickhull_trace;
pub mod sat;
pub mod sat_draw;
mod sat_edges;
pub mod sat_local;
pub mod sat_view;
pub mod shapes;
pub mod trace;

pub use clip::{contact_manifold, ContactManifold3, HullSide, ManifoldPoint3};
pub use clip_local::{contact_manifold_posed, FeatureManifold, FeaturePoint, MAX_MANIFOLD_POINTS};
pub use clip_trace::{ClipStep3, ClipTrace3, ReduceStep, CLIP_LAYERS};
pub use gauss::GaussMap;
pub use hull::{Hull, HullError, Plane};
pub use pose::Pose3;
pub use quickhull::{quickhull, quickhull_traced, HullOptions};
pub use quickhull_trace::{QuickHullStep3, QuickHullTrace3};
pub use sat::{collide, collide_with, ContactKind, EdgeOrientation, HullContact, SatConfig, SeparatingAxis};
pub use sat_draw::{SatDrawOptions3, SAT_LAYERS};
pub use sat_local::{collide_posed, collide_posed_with, separation_along, SatScratch};
pub use sat_view::SatView3;
pub use trace::{AxisKind, AxisRecord, SatTrace3};
