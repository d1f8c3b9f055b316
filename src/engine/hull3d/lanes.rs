//! Four `f32` lanes, written so the compiler turns each operation into one SSE/NEON instruction.
//! (glam's `Vec4` cannot be used for this here: the window crate builds glam with `scalar-math`,
//! which the whole build shares.) No `unsafe`: plain arrays that LLVM's vectorizer recognises;
//! results are stored back as lanes (reading single lanes inside a loop makes the vectorizer
//! give up).

use serde::{Deserialize, Serialize};

/// Four lanes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[repr(C, align(16))]
pub struct F4(pub [f32; 4]);

impl F4 {
    pub const INFINITY: F4 = F4([f32::INFINITY; 4]);
    pub const NEG_INFINITY: F4 = F4([f32::NEG_INFINITY; 4]);

    #[inline(always)]
    pub fn splat(v: f32) -> F4 {
        F4([v; 4])
    }

    #[inline(always)]
    fn map2(self, o: F4, f: impl Fn(f32, f32) -> f32) -> F4 {
        let (a, b) = (self.0, o.0);
        F4([f(a[0], b[0]), f(a[1], b[1]), f(a[2], b[2]), f(a[3], b[3])])
    }

    #[allow(clippy::should_implement_trait)]
    #[inline(always)]
    pub fn add(self, o: F4) -> F4 {
        self.map2(o, |x, y| x + y)
    }

    #[allow(clippy::should_implement_trait)]
    #[inline(always)]
    pub fn sub(self, o: F4) -> F4 {
        self.map2(o, |x, y| x - y)
    }

    #[allow(clippy::should_implement_trait)]
    #[inline(always)]
    pub fn mul(self, o: F4) -> F4 {
        self.map2(o, |x, y| x * y)
    }

    /// Lane-wise minimum (`minps` semantics: the second operand when either is NaN).
    #[inline(always)]
    pub fn min(self, o: F4) -> F4 {
        self.map2(o, |x, y| if x < y { x } else { y })
    }

    /// Lane-wise maximum (`maxps` semantics).
    #[inline(always)]
    pub fn max(self, o: F4) -> F4 {
        self.map2(o, |x, y| if x > y { x } else { y })
    }

    /// `self · (x, y, z)` for lanes of `x`, `y`, `z` coordinates.
    #[inline(always)]
    pub fn dot3(x: F4, y: F4, z: F4, n: [F4; 3]) -> F4 {
        x.mul(n[0]).add(y.mul(n[1])).add(z.mul(n[2]))
    }

    #[inline(always)]
    pub fn min_element(self) -> f32 {
        let a = self.0;
        let (x, y) = (if a[0] < a[1] { a[0] } else { a[1] }, if a[2] < a[3] { a[2] } else { a[3] });
        if x < y {
            x
        } else {
            y
        }
    }

    #[inline(always)]
    pub fn max_element(self) -> f32 {
        let a = self.0;
        let (x, y) = (if a[0] > a[1] { a[0] } else { a[1] }, if a[2] > a[3] { a[2] } else { a[3] });
        if x > y {
            x
        } else {
            y
        }
    }
}

/// `n` broadcast to lanes.
#[inline(always)]
pub fn splat3(n: glam::Vec3) -> [F4; 3] {
    [F4::splat(n.x), F4::splat(n.y), F4::splat(n.z)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lanes_compute_lane_by_lane() {
        let (a, b) = (F4([1.0, -2.0, 3.0, 4.0]), F4([0.5, 5.0, -1.0, 4.0]));
        assert_eq!(a.add(b).0, [1.5, 3.0, 2.0, 8.0]);
        assert_eq!(a.sub(b).0, [0.5, -7.0, 4.0, 0.0]);
        assert_eq!(a.mul(b).0, [0.5, -10.0, -3.0, 16.0]);
        assert_eq!(a.min(b).0, [0.5, -2.0, -1.0, 4.0]);
        assert_eq!(a.max(b).0, [1.0, 5.0, 3.0, 4.0]);
        assert_eq!((a.min_element(), a.max_element()), (-2.0, 4.0));
        let d = F4::dot3(a, b, F4::splat(1.0), splat3(glam::Vec3::new(1.0, 2.0, 3.0)));
        assert_eq!(d.0, [5.0, 11.0, 4.0, 15.0]);
    }
}
