//! `Wide`: `LANES` floats operated on together, as Box2D v3's `b2FloatW` (SSE2/NEON 4 lanes,
//! AVX2 8). Stored as a plain array (rows index their lanes); the arithmetic is SSE2 on
//! x86_64 (every x86_64 processor has it), element-wise loops elsewhere. Left to the
//! compiler's auto-vectorizer, the array arithmetic of a contact row was vectorized but kept
//! going through the stack: about half of the solve loop's samples were spills and reloads.
//! Each intrinsic computes exactly what the loop computes (`minps`/`maxps` return the second
//! operand when the comparison fails, as `min`/`max` below), so the results are the same
//! bits either way.

use std::ops::{Add, AddAssign, Div, Mul, Neg, Sub, SubAssign};

/// Constraints solved together in one row.
pub const LANES: usize = 4;

#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(C, align(16))]
pub struct Wide(pub [f32; LANES]);

#[cfg_attr(target_arch = "x86_64", allow(unused_macros))]
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

#[cfg(target_arch = "x86_64")]
mod sse {
    use super::Wide;
    use std::arch::x86_64::*;

    #[inline(always)]
    pub fn v(w: Wide) -> __m128 {
        // SAFETY: `Wide` is 16 bytes, 16-aligned, four `f32`s, as `__m128`.
        unsafe { std::mem::transmute::<Wide, __m128>(w) }
    }

    #[inline(always)]
    pub fn w(v: __m128) -> Wide {
        // SAFETY: as above.
        unsafe { std::mem::transmute::<__m128, Wide>(v) }
    }
}

/// `op` on SSE2 registers on x86_64; `fallback` (the element-wise loop) elsewhere.
macro_rules! sse_or {
    (|$($x:ident),*| $sse:expr, $fallback:expr) => {{
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::*;
            $(let $x = sse::v($x);)*
            // SAFETY: SSE2 is part of the x86_64 baseline.
            #[allow(unused_unsafe)]
            sse::w(unsafe { $sse })
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            $fallback
        }
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
        let a = self;
        sse_or!(|a, o| _mm_min_ps(a, o), lanewise!(a, o, |x, y| if x < y { x } else { y }))
    }

    #[inline(always)]
    pub fn max(self, o: Wide) -> Wide {
        let a = self;
        sse_or!(|a, o| _mm_max_ps(a, o), lanewise!(a, o, |x, y| if x > y { x } else { y }))
    }

    /// Per lane: `self > o ? yes : no`.
    #[inline(always)]
    pub fn select_gt(self, o: Wide, yes: Wide, no: Wide) -> Wide {
        let a = self;
        sse_or!(
            |a, o, yes, no| {
                let m = _mm_cmpgt_ps(a, o);
                _mm_or_ps(_mm_and_ps(m, yes), _mm_andnot_ps(m, no))
            },
            {
                let mut out = no.0;
                for (k, x) in out.iter_mut().enumerate() {
                    if a.0[k] > o.0[k] {
                        *x = yes.0[k];
                    }
                }
                Wide(out)
            }
        )
    }
}

impl Add for Wide {
    type Output = Wide;
    #[inline(always)]
    fn add(self, o: Wide) -> Wide {
        let a = self;
        sse_or!(|a, o| _mm_add_ps(a, o), lanewise!(a, o, |x, y| x + y))
    }
}

impl Sub for Wide {
    type Output = Wide;
    #[inline(always)]
    fn sub(self, o: Wide) -> Wide {
        let a = self;
        sse_or!(|a, o| _mm_sub_ps(a, o), lanewise!(a, o, |x, y| x - y))
    }
}

impl Mul for Wide {
    type Output = Wide;
    #[inline(always)]
    fn mul(self, o: Wide) -> Wide {
        let a = self;
        sse_or!(|a, o| _mm_mul_ps(a, o), lanewise!(a, o, |x, y| x * y))
    }
}

impl Div for Wide {
    type Output = Wide;
    #[inline(always)]
    fn div(self, o: Wide) -> Wide {
        let a = self;
        sse_or!(|a, o| _mm_div_ps(a, o), lanewise!(a, o, |x, y| x / y))
    }
}

impl Neg for Wide {
    type Output = Wide;
    #[inline(always)]
    fn neg(self) -> Wide {
        let a = self;
        sse_or!(|a| _mm_xor_ps(a, _mm_set1_ps(-0.0)), lanewise!(a, a, |x, _y| -x))
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

    /// The SSE2 operations give the scalar definitions' bits, NaN and signed zeros included.
    #[test]
    fn lanes_match_the_scalar_definitions_bit_for_bit() {
        let odd = [0.0, -0.0, 1.5, -2.25, f32::NAN, f32::INFINITY, f32::NEG_INFINITY, 1e-40];
        let bits = |w: Wide| w.0.map(f32::to_bits);
        for &x in &odd {
            for &y in &odd {
                let (a, b) = (Wide([x, y, x, y]), Wide([y, x, x, y]));
                let scalar = |f: fn(f32, f32) -> f32| Wide([f(x, y), f(y, x), f(x, x), f(y, y)]);
                assert_eq!(bits(a + b), bits(scalar(|p, q| p + q)));
                assert_eq!(bits(a - b), bits(scalar(|p, q| p - q)));
                assert_eq!(bits(a * b), bits(scalar(|p, q| p * q)));
                assert_eq!(bits(a / b), bits(scalar(|p, q| p / q)));
                assert_eq!(bits(a.min(b)), bits(scalar(|p, q| if p < q { p } else { q })));
                assert_eq!(bits(a.max(b)), bits(scalar(|p, q| if p > q { p } else { q })));
                assert_eq!(bits(-a), bits(Wide([-x, -y, -x, -y])));
                let (yes, no) = (Wide::splat(7.0), Wide::splat(-3.0));
                let pick = |p: f32, q: f32| if p > q { 7.0 } else { -3.0 };
                assert_eq!(bits(a.select_gt(b, yes, no)), bits(scalar(pick)));
            }
        }
    }
}
