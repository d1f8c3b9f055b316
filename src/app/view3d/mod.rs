//! What the 3D labs share: the orbit camera (projection, rays, picking), labels and the axes
//! gizmo (`pen`), and the one renderer of the engine's 3D debug drawing ([`MqDraw3`]).

pub mod camera;
pub mod mq_draw3;
pub mod pen;

pub use camera::OrbitCamera;
pub use mq_draw3::MqDraw3;
