//! `Wide`: `LANES` floats operated on together, as Box2D v3's `b2FloatW` (SSE2/NEON 4 lanes,
//! AVX2 8). Plain arrays with element-wise loops that the compiler turns into SIMD
//! instructions, so the engine needs no intrinsics and no SIMD crate.

use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// Constraints solved together in one row.
pub const LANES: usize = 4;

#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(C, align(16))]
pub struct Wide(pub [f32; LANES]);

macro_rules! lanewise {
    ($a:expr, $b:expr, |$x:ident, $y:ident| $e:expr) => {{
        let (a, b) = ($a.0, $b.0);
        let mut out = [0.0f32; LANES];
        for k in 0..LANES {
            let ($x, $y) = (a[k], b[k]);
            out[k] = $e;
        }
        Wide(out)
    }};
}

impl Wide {
    pub const ZERO: Wide = Wide([0.0; LANES]);

    #[inline(always)]
    pub fn splat(x: f32) -> Wide {
        Wide([x; LANES])
    }

    #[inline(always)]
    pub fn min(self, o: Wide) -> Wide {
        lanewise!(self, o, |x, y| if x < y { x } else { y })
    }

    #[inline(always)]
    pub fn max(self, o: Wide) -> Wide {
        lanewise!(self, o, |x, y| if x > y { x } else { y })
    }

    /// Per lane: `self > o ? yes : no`.
    #[inline(always)]
    pub fn select_gt(self, o: Wide, yes: Wide, no: Wide) -> Wide {
        let mut out = no.0;
        for (k, x) in out.iter_mut().enumerate() {
            if self.0[k] > o.0[k] {
                *x = yes.0[k];
            }
        }
        Wide(out)
    }
}

impl Add for Wide {
    type Output = Wide;
    #[inline(always)]
    fn add(self, o: Wide) -> Wide {
        lanewise!(self, o, |x, y| x + y)
    }
}

impl Sub for Wide {
    type Output = Wide;
    #[inline(always)]
    fn sub(self, o: Wide) -> Wide {
        lanewise!(self, o, |x, y| x - y)
    }
}

impl Mul for Wide {
    type Output = Wide;
    #[inline(always)]
    fn mul(self, o: Wide) -> Wide {
        lanewise!(self, o, |x, y| x * y)
    }
}

impl Neg for Wide {
    type Output = Wide;
    #[inline(always)]
    fn neg(self) -> Wide {
        lanewise!(self, self, |x, _y| -x)
    }
}

impl AddAssign for Wide {
    #[inline(always)]
    fn add_assign(&mut self, o: Wide) {
        *self = *self + o;
    }
}

impl SubAssign for Wide {
    #[inline(always)]
    fn sub_assign(&mut self, o: Wide) {
        *self = *self - o;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lanes_compute_element_wise() {
        let a = Wide([1.0, -2.0, 3.0, 0.5]);
        let b = Wide::splat(1.0);
        assert_eq!((a + b).0, [2.0, -1.0, 4.0, 1.5]);
        assert_eq!((a * a - b).0, [0.0, 3.0, 8.0, -0.75]);
        assert_eq!(a.max(b).0, [1.0, 1.0, 3.0, 1.0]);
        assert_eq!(a.min(b).0, [1.0, -2.0, 1.0, 0.5]);
        assert_eq!(a.select_gt(b, Wide::splat(7.0), -a).0, [-1.0, 2.0, 7.0, -0.5]);
    }
}
