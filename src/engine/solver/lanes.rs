//! `Wide`: `LANES` floats operated on together, as Box2D v3's `b2FloatW` (SSE2/NEON 4 lanes,
//! AVX2 8). Rows are eight lanes wide; how a row's arithmetic runs is chosen at run time:
//! - [`Wide`]: the baseline, two SSE2 vectors on x86_64 (every x86_64 processor has SSE2),
//!   element-wise loops elsewhere;
//! - `Avx` (x86_64): one AVX register, used only by code compiled with AVX2 enabled and
//!   called after the processor was found to have it (`contact_wide::avx`).
//!
//! Both compute exactly what the element-wise definitions compute (the same IEEE operations
//! on each lane, no fused multiply-add; `minps`/`maxps` return the second operand when the
//! comparison fails, as `min`/`max` below), so a row gives the same bits either way. Left to
//! the auto-vectorizer, the array arithmetic of a contact row went through the stack (about
//! half of the solve loop's samples were spills and reloads), hence the intrinsics.

use std::ops::{Add, AddAssign, Div, Mul, Neg, Sub, SubAssign};

/// Constraints solved together in one row.
pub const LANES: usize = 8;

#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(C, align(32))]
pub struct Wide(pub [f32; LANES]);

/// The arithmetic a contact row needs, on `LANES` floats at once: implemented by [`Wide`]
/// (baseline) and `Avx`, so that the row kernels are written once.
pub trait Vector:
    Copy
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
    + AddAssign
    + SubAssign
{
    fn load(w: Wide) -> Self;
    fn store(self) -> Wide;
    fn splat(x: f32) -> Self;
    fn min(self, o: Self) -> Self;
    fn max(self, o: Self) -> Self;
    /// Per lane: `self > o ? yes : no`.
    fn select_gt(self, o: Self, yes: Self, no: Self) -> Self;
}

/// `+=` and `-=` from `+` and `-`.
macro_rules! assign_ops {
    ($t:ident) => {
        impl std::ops::AddAssign for $t {
            #[inline(always)]
            fn add_assign(&mut self, o: $t) {
                *self = *self + o;
            }
        }

        impl std::ops::SubAssign for $t {
            #[inline(always)]
            fn sub_assign(&mut self, o: $t) {
                *self = *self - o;
            }
        }
    };
}

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
    pub fn v(w: Wide) -> [__m128; 2] {
        // SAFETY: `Wide` is 32 bytes, 32-aligned, eight `f32`s: two `__m128`s.
        unsafe { std::mem::transmute::<Wide, [__m128; 2]>(w) }
    }

    #[inline(always)]
    pub fn w(v: [__m128; 2]) -> Wide {
        // SAFETY: as above.
        unsafe { std::mem::transmute::<[__m128; 2], Wide>(v) }
    }
}

/// `op` on each SSE2 half on x86_64; `fallback` (the element-wise loop) elsewhere.
macro_rules! sse_or {
    (|$($x:ident),*| $sse:expr, $fallback:expr) => {{
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::*;
            $(let $x = sse::v($x);)*
            // SAFETY: SSE2 is part of the x86_64 baseline.
            #[allow(unused_unsafe)]
            let lo = { $(let $x = $x[0];)* unsafe { $sse } };
            #[allow(unused_unsafe)]
            let hi = { $(let $x = $x[1];)* unsafe { $sse } };
            sse::w([lo, hi])
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

assign_ops!(Wide);

impl Vector for Wide {
    #[inline(always)]
    fn load(w: Wide) -> Wide {
        w
    }
    #[inline(always)]
    fn store(self) -> Wide {
        self
    }
    #[inline(always)]
    fn splat(x: f32) -> Wide {
        Wide::splat(x)
    }
    #[inline(always)]
    fn min(self, o: Wide) -> Wide {
        Wide::min(self, o)
    }
    #[inline(always)]
    fn max(self, o: Wide) -> Wide {
        Wide::max(self, o)
    }
    #[inline(always)]
    fn select_gt(self, o: Wide, yes: Wide, no: Wide) -> Wide {
        Wide::select_gt(self, o, yes, no)
    }
}

/// Whether this processor can run the `Avx` rows.
pub fn avx2_detected() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

#[cfg(target_arch = "x86_64")]
pub(crate) use avx::Avx;

#[cfg(target_arch = "x86_64")]
mod avx {
    use super::{Vector, Wide};
    use std::arch::x86_64::*;
    use std::ops::{Add, Div, Mul, Neg, Sub};

    /// Eight lanes in one AVX register. Its operations are AVX instructions: only code that
    /// runs after [`super::avx2_detected`] returned true may use it (inlined into functions
    /// compiled with AVX2 enabled, they are single instructions). Hence crate-private: its safe
    /// operations would not be safe for any caller.
    #[derive(Clone, Copy, Debug)]
    pub(crate) struct Avx(pub(crate) __m256);

    macro_rules! avx_op {
        ($tr:ident, $f:ident, $op:ident) => {
            impl $tr for Avx {
                type Output = Avx;
                #[inline(always)]
                fn $f(self, o: Avx) -> Avx {
                    // SAFETY: `Avx` values exist only where AVX2 was detected (see above).
                    Avx(unsafe { $op(self.0, o.0) })
                }
            }
        };
    }

    avx_op!(Add, add, _mm256_add_ps);
    avx_op!(Sub, sub, _mm256_sub_ps);
    avx_op!(Mul, mul, _mm256_mul_ps);
    avx_op!(Div, div, _mm256_div_ps);

    impl Neg for Avx {
        type Output = Avx;
        #[inline(always)]
        fn neg(self) -> Avx {
            // SAFETY: as above.
            Avx(unsafe { _mm256_xor_ps(self.0, _mm256_set1_ps(-0.0)) })
        }
    }

    assign_ops!(Avx);

    impl Vector for Avx {
        #[inline(always)]
        fn load(w: Wide) -> Avx {
            // SAFETY: `Wide` is eight `f32`s, 32-byte aligned: the layout of `__m256`.
            Avx(unsafe { std::mem::transmute::<Wide, __m256>(w) })
        }
        #[inline(always)]
        fn store(self) -> Wide {
            // SAFETY: as above.
            unsafe { std::mem::transmute::<__m256, Wide>(self.0) }
        }
        #[inline(always)]
        fn splat(x: f32) -> Avx {
            // SAFETY: as above (`Avx` values exist only where AVX2 was detected).
            Avx(unsafe { _mm256_set1_ps(x) })
        }
        #[inline(always)]
        fn min(self, o: Avx) -> Avx {
            // SAFETY: as above.
            Avx(unsafe { _mm256_min_ps(self.0, o.0) })
        }
        #[inline(always)]
        fn max(self, o: Avx) -> Avx {
            // SAFETY: as above.
            Avx(unsafe { _mm256_max_ps(self.0, o.0) })
        }
        #[inline(always)]
        fn select_gt(self, o: Avx, yes: Avx, no: Avx) -> Avx {
            // SAFETY: as above.
            Avx(unsafe { _mm256_blendv_ps(no.0, yes.0, _mm256_cmp_ps::<_CMP_GT_OQ>(self.0, o.0)) })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lanes_compute_element_wise() {
        let a = Wide([1.0, -2.0, 3.0, 0.5, -1.0, 2.0, -3.0, 4.0]);
        let b = Wide::splat(1.0);
        assert_eq!((a + b).0, [2.0, -1.0, 4.0, 1.5, 0.0, 3.0, -2.0, 5.0]);
        assert_eq!((a * a - b).0, [0.0, 3.0, 8.0, -0.75, 0.0, 3.0, 8.0, 15.0]);
        assert_eq!(a.max(b).0, [1.0, 1.0, 3.0, 1.0, 1.0, 2.0, 1.0, 4.0]);
        assert_eq!(a.min(b).0, [1.0, -2.0, 1.0, 0.5, -1.0, 1.0, -3.0, 1.0]);
        assert_eq!(a.select_gt(b, Wide::splat(7.0), -a).0, [-1.0, 2.0, 7.0, -0.5, 1.0, 7.0, 3.0, 7.0]);
    }

    /// Every operation of `V` against the element-wise definitions, to the bit, on every pair
    /// of awkward values (NaN and signed zeros included) in every lane.
    fn match_the_scalar_definitions<V: Vector>() {
        let odd = [0.0, -0.0, 1.5, -2.25, f32::NAN, f32::INFINITY, f32::NEG_INFINITY, 1e-40];
        let bits = |w: V| w.store().0.map(f32::to_bits);
        for &x in &odd {
            for &y in &odd {
                let (xs, ys) = ([x, y, x, y, y, x, y, x], [y, x, x, y, x, y, y, x]);
                let (a, b) = (V::load(Wide(xs)), V::load(Wide(ys)));
                let scalar = |f: fn(f32, f32) -> f32| std::array::from_fn::<f32, LANES, _>(|k| f(xs[k], ys[k]));
                let want = |f: fn(f32, f32) -> f32| scalar(f).map(f32::to_bits);
                assert_eq!(bits(a + b), want(|p, q| p + q));
                assert_eq!(bits(a - b), want(|p, q| p - q));
                assert_eq!(bits(a * b), want(|p, q| p * q));
                assert_eq!(bits(a / b), want(|p, q| p / q));
                assert_eq!(bits(a.min(b)), want(|p, q| if p < q { p } else { q }));
                assert_eq!(bits(a.max(b)), want(|p, q| if p > q { p } else { q }));
                assert_eq!(bits(-a), xs.map(|p| (-p).to_bits()));
                let (yes, no) = (V::splat(7.0), V::splat(-3.0));
                assert_eq!(bits(a.select_gt(b, yes, no)), want(|p, q| if p > q { 7.0 } else { -3.0 }));
                let (mut c, mut d) = (a, a);
                c += b;
                d -= b;
                assert_eq!((bits(c), bits(d)), (bits(a + b), bits(a - b)));
            }
        }
    }

    /// The SSE2 halves give the scalar definitions' bits.
    #[test]
    fn baseline_lanes_match_the_scalar_definitions_bit_for_bit() {
        match_the_scalar_definitions::<Wide>();
    }

    /// So does AVX, where the processor has it (the rows use it only there); elsewhere the
    /// test is reported ignored (the build script saw no AVX2).
    #[cfg(target_arch = "x86_64")]
    #[test]
    #[cfg_attr(no_avx2_on_build_host, ignore = "this processor has no AVX2: the Avx lanes are neither used nor tested")]
    fn avx_lanes_match_the_scalar_definitions_bit_for_bit() {
        assert!(avx2_detected(), "the build found AVX2 but the processor running the test has none");
        match_the_scalar_definitions::<Avx>();
    }
}
