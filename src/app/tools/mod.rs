//! The app's tools, one folder (or file) each: what they hold, draw, take from the pointer and
//! show in the panels. The ray tool casts rays through the world; the slice tool cuts bodies
//! with a knife line; the contact inspector decodes and pins contact points; the sweep view
//! walks the broadphase's sweep and prune; the joint editor selects and edits joints live;
//! water edits the water region; sleep and the solver graph are the Solver panel's sections;
//! `panel` is the Tools and Water sections.

pub mod inspector;
pub mod joints;
pub mod panel;
pub mod ray;
pub mod sleep;
pub mod slice;
pub mod solver_graph;
pub mod sweep;
pub mod water;
