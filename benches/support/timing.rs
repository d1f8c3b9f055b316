//! Timing whole-world steps of several engines in alternation: each round times a few steps of
//! every engine in turn, and each engine's best round is kept, so load from other processes
//! hits all alike and the worlds advance together.

use std::time::Instant;

/// One engine's world as the benches see it.
pub trait Stepper {
    fn name(&self) -> String;
    fn step(&mut self);
}

/// ms per step of each engine: `rounds` rounds of `steps` steps each, best round kept.
pub fn alternate(engines: &mut [&mut dyn Stepper], rounds: usize, steps: usize) -> Vec<f64> {
    let mut best = vec![f64::MAX; engines.len()];
    for _ in 0..rounds {
        for (e, b) in engines.iter_mut().zip(&mut best) {
            let t = Instant::now();
            for _ in 0..steps {
                e.step();
            }
            *b = b.min(t.elapsed().as_secs_f64() * 1000.0 / steps as f64);
        }
    }
    best
}

/// Prints each engine's ms/step and steps/s, and the ratio of the first (ours) to the others.
pub fn print_ratios(names: &[String], ms: &[f64]) {
    for (n, m) in names.iter().zip(ms) {
        println!("  {n}: {m:.3} ms/step, {:.1} steps/s", 1000.0 / m);
    }
    for (n, m) in names.iter().zip(ms).skip(1) {
        println!("  ratio {} / {n} = {:.2}", names[0], ms[0] / m);
    }
}
