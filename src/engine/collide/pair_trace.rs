//! What the traces of the closest-point pairs share (000 article, "Circle to Circle", "AABB to
//! Circle", "OBBs and Orientation"; Box2D v3's capsule manifolds): a step type names itself and
//! draws itself, earlier steps stay on screen without their labels, and the last step draws
//! the manifold the function returned.

use super::manifold::Manifold;
use crate::engine::debug::{palette, DebugDraw, Layer};
use crate::engine::number::Num;
use crate::engine::trace::{step_caption, Trace};

/// One recorded step of a pair's manifold function.
pub trait PairStep {
    /// What the step does ("face of greatest separation").
    fn title(&self) -> &'static str;
    /// The step's numbers in one line, as the panel lists them.
    fn summary(&self) -> String;
    /// Draws the step in world space; `current` adds its labels (earlier steps are drawn
    /// without). `scale` is the length of drawn normals in metres.
    fn draw(&self, d: &mut dyn DebugDraw, scale: f32, current: bool);
    /// The manifold, when this is the last step ("Manifold").
    fn result(&self) -> Option<&Manifold> {
        None
    }
    fn result_mut(&mut self) -> Option<&mut Manifold> {
        None
    }
}

/// The recorded steps of one pair function, drawn with normals `scale` metres long. Each
/// step type records through `recorded_steps!` on its own `PairTrace<Step>`.
#[derive(Clone, Debug, PartialEq)]
pub struct PairTrace<S> {
    pub steps: Vec<S>,
    pub scale: f32,
}

impl<S> PairTrace<S> {
    pub fn new(scale: f32) -> Self {
        PairTrace { steps: Vec::new(), scale }
    }
}

impl<S: PairStep> PairTrace<S> {
    /// The manifold the function returned (recorded by its last step).
    pub fn result(&self) -> Option<Manifold> {
        self.steps.iter().rev().find_map(|s| s.result().copied())
    }

    /// The same run seen from the other shape: the result's normal flips (the function was
    /// called with the shapes swapped, as the pair dispatch does).
    pub fn flip_result(&mut self) {
        for s in &mut self.steps {
            if let Some(m) = s.result_mut() {
                *m = m.flipped();
            }
        }
    }

    /// Every step's summary, in order.
    pub fn summaries(&self) -> Vec<String> {
        self.steps.iter().map(|s| s.summary()).collect()
    }
}

impl<S: PairStep> Trace for PairTrace<S> {
    fn steps(&self) -> usize {
        self.steps.len()
    }

    fn step_label(&self, k: usize) -> String {
        pair_step_label(&self.steps, k)
    }

    fn draw_step(&self, k: usize, d: &mut dyn DebugDraw) {
        draw_pair_steps(&self.steps, k, d, self.scale);
    }
}

/// "Step 2 of 4 · face of greatest separation".
pub fn pair_step_label<S: PairStep>(steps: &[S], k: usize) -> String {
    let title = steps.get(k.min(steps.len().saturating_sub(1))).map_or("", |s| s.title());
    format!("{} · {title}", step_caption("Step", k, steps.len()))
}

/// Draws steps `0..=k` (clamped to the last), only step `k` with its labels.
pub fn draw_pair_steps<S: PairStep>(steps: &[S], k: usize, d: &mut dyn DebugDraw, scale: f32) {
    let k = k.min(steps.len().saturating_sub(1));
    for (j, s) in steps.iter().enumerate().take(k + 1) {
        s.draw(d, scale, j == k);
    }
}

/// Length of drawn normals for shapes of sizes `ra` and `rb` (a third of the smaller, 5 cm to
/// 5 m, as the clip trace draws them).
pub fn normal_scale(ra: f32, rb: f32) -> f32 {
    (0.35 * ra.min(rb)).clamp(0.05, 5.0)
}

/// The manifold as a result step draws it: each point, its depth and the normal A → B; "no
/// contact" at `at` when it is empty.
pub fn draw_result(m: &Manifold, d: &mut dyn DebugDraw, scale: f32, at: glam::Vec2) {
    if m.count == 0 {
        d.text(Layer::Contact, at, "no contact (count 0)", palette::SEPARATING);
    }
    for p in m.points() {
        d.point(Layer::Contact, p.point, 10.0, palette::KEPT);
        d.arrow(Layer::Normal, p.point, p.point + scale * m.normal, palette::WINNER);
        d.text(
            Layer::Contact,
            p.point - 0.3 * scale * m.normal,
            &format!("depth {:.3}", Num(p.penetration)),
            palette::TEXT,
        );
    }
}

/// One line of a manifold: "normal (0, 1), 2 points, deepest 0.050".
pub fn result_summary(m: &Manifold) -> String {
    if m.count == 0 {
        return "no contact (count 0)".into();
    }
    format!(
        "normal ({:.3}, {:.3}), {} point{}, deepest {:.4}",
        Num(m.normal.x),
        Num(m.normal.y),
        m.count,
        if m.count == 1 { "" } else { "s" },
        Num(m.max_penetration())
    )
}

/// The manifold as bits (normal, then each point's position, depth and id), so tests compare
/// a traced and an untraced run exactly, `-0.0` and `0.0` told apart.
#[cfg(test)]
pub fn manifold_bits(m: &Manifold) -> Vec<u32> {
    let mut bits = vec![m.count as u32, m.normal.x.to_bits(), m.normal.y.to_bits()];
    for p in m.points() {
        bits.extend([p.point.x.to_bits(), p.point.y.to_bits(), p.penetration.to_bits(), p.id.0]);
    }
    bits
}
