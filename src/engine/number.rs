//! Numbers as the app, the debug layers and the command line print them: Rust's own
//! formatting (precision, `+`, width, alignment and fill), except that a value that rounds to
//! zero prints without a minus sign. `format!("{:.3}", -0.0001)` gives "-0.000", a sign the
//! printed number does not have (a depth of "−0.000" reads as a negative depth); through
//! [`Num`] it is "0.000", and "+0.000" with `{:+.3}`.
//!
//! Wrap a value where it is formatted: `format!("depth {:.4}", Num(depth))`. Vectors print as
//! glam does, `[x, y]`, each component through `Num`.

use glam::{Vec2, Vec3};
use std::fmt::{self, Alignment, Display, Formatter, LowerExp, Write};

/// A number (or a vector of them) that never prints as a negative zero.
#[derive(Clone, Copy)]
pub struct Num<T>(pub T);

/// Whether `text` is a minus sign and then only zeros (and a decimal point): a value that
/// rounded to zero.
fn is_negative_zero(text: &str) -> bool {
    text.strip_prefix('-').is_some_and(|rest| rest.contains('0') && rest.chars().all(|c| c == '0' || c == '.'))
}

/// `v` formatted with `f`'s precision and sign flag, without a negative zero.
fn number(v: f64, f: &Formatter) -> String {
    let text = match (f.precision(), f.sign_plus()) {
        (Some(p), true) => format!("{v:+.p$}"),
        (Some(p), false) => format!("{v:.p$}"),
        (None, true) => format!("{v:+}"),
        (None, false) => format!("{v}"),
    };
    if !is_negative_zero(&text) {
        return text;
    }
    let unsigned = &text[1..];
    if f.sign_plus() {
        format!("+{unsigned}")
    } else {
        unsigned.to_string()
    }
}

/// Writes `text` padded to `f`'s width with its fill and alignment (right by default, as
/// numbers are).
fn pad(f: &mut Formatter, text: &str) -> fmt::Result {
    let len = text.chars().count();
    let Some(width) = f.width().filter(|&w| w > len) else { return f.write_str(text) };
    let gap = width - len;
    let (before, after) = match f.align() {
        Some(Alignment::Left) => (0, gap),
        Some(Alignment::Center) => (gap / 2, gap - gap / 2),
        Some(Alignment::Right) | None => (gap, 0),
    };
    let fill = f.fill();
    for _ in 0..before {
        f.write_char(fill)?;
    }
    f.write_str(text)?;
    for _ in 0..after {
        f.write_char(fill)?;
    }
    Ok(())
}

impl Display for Num<f64> {
    fn fmt(&self, f: &mut Formatter) -> fmt::Result {
        let text = number(self.0, f);
        pad(f, &text)
    }
}

impl LowerExp for Num<f32> {
    fn fmt(&self, f: &mut Formatter) -> fmt::Result {
        LowerExp::fmt(&Num(f64::from(self.0)), f)
    }
}

impl LowerExp for Num<f64> {
    /// Scientific notation: only an exact zero has an all-zero mantissa.
    fn fmt(&self, f: &mut Formatter) -> fmt::Result {
        let v = if self.0 == 0.0 { 0.0 } else { self.0 };
        let text = match (f.precision(), f.sign_plus()) {
            (Some(p), true) => format!("{v:+.p$e}"),
            (Some(p), false) => format!("{v:.p$e}"),
            (None, true) => format!("{v:+e}"),
            (None, false) => format!("{v:e}"),
        };
        pad(f, &text)
    }
}

impl Display for Num<f32> {
    fn fmt(&self, f: &mut Formatter) -> fmt::Result {
        // Widening is exact, and the decimal rounding of the same binary value is the same.
        let text = number(f64::from(self.0), f);
        pad(f, &text)
    }
}

/// A vector as glam prints one, `[x, y, ...]`, each component through `Num`.
fn vector(components: &[f32], f: &mut Formatter) -> fmt::Result {
    let parts: Vec<String> = components.iter().map(|&c| number(f64::from(c), f)).collect();
    pad(f, &format!("[{}]", parts.join(", ")))
}

impl Display for Num<Vec2> {
    fn fmt(&self, f: &mut Formatter) -> fmt::Result {
        vector(&self.0.to_array(), f)
    }
}

impl Display for Num<Vec3> {
    fn fmt(&self, f: &mut Formatter) -> fmt::Result {
        vector(&self.0.to_array(), f)
    }
}

impl<T: Copy> Display for Num<&T>
where
    Num<T>: Display,
{
    fn fmt(&self, f: &mut Formatter) -> fmt::Result {
        Num(*self.0).fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounded_zeros_lose_their_minus_sign_and_nothing_else_changes() {
        assert_eq!(format!("{:.3}", Num(-0.0001f32)), "0.000");
        assert_eq!(format!("{:.3}", Num(-0.0f64)), "0.000");
        assert_eq!(format!("{:+.3}", Num(-0.0004f32)), "+0.000");
        assert_eq!(format!("{:.0}", Num(-0.4f64)), "0");
        assert_eq!(format!("{}", Num(-0.0f32)), "0");
        assert_eq!(format!("{:.3}", Num(-0.0006f32)), "-0.001");
        assert_eq!(format!("{:+.2}", Num(1.005f64)), format!("{:+.2}", 1.005f64));
        assert_eq!(format!("{:.2}", Num(-12.345f32)), "-12.35");
        assert_eq!(format!("{:.1}", Num(f32::NEG_INFINITY)), "-inf");
        assert_eq!(format!("{:.1}", Num(f64::NAN)), "NaN");
        assert_eq!(
            format!("{:>7.2}|{:<7.2}|{:^7.1}", Num(-0.001f32), Num(1.5f32), Num(2.0f32)),
            "   0.00|1.50   |  2.0  "
        );
        assert_eq!(format!("{:.2}", Num(Vec2::new(-0.001, 3.0))), "[0.00, 3.00]");
        assert_eq!(format!("{:.1}", Num(&Vec3::new(-0.01, -1.0, 0.0))), "[0.0, -1.0, 0.0]");
        assert_eq!(format!("{:.3}", Num(&-0.0f32)), "0.000");
        assert_eq!(format!("{:.2e}|{:.1e}", Num(-0.0f32), Num(-1.5e-7f32)), "0.00e0|-1.5e-7");
    }

    #[test]
    fn every_value_near_zero_prints_its_sign_only_when_nonzero() {
        for k in -2000..=2000 {
            let v = k as f64 * 1e-6;
            for p in 0..6 {
                let text = format!("{:.p$}", Num(v));
                let back: f64 = text.parse().unwrap();
                assert_eq!(text.starts_with('-'), back < 0.0, "{v} at {p} decimals: {text}");
            }
        }
    }
}
