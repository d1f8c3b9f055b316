//! Text that fits its room: a string cut to a width with an ellipsis (for text drawn outside
//! egui, such as plot and inset titles), and the check that no egui text runs past the edge of
//! its clip rectangle (what the screenshot report and the panel tests look for).

use egui_macroquad::egui::{self, epaint, Rect};

/// `text` cut (at a character) and ended with "..." so that `measure` of it is at most
/// `max_width`; the whole text where it fits, and "" where not even the ellipsis fits.
pub fn elide_to_width(text: &str, max_width: f32, measure: impl Fn(&str) -> f32) -> String {
    if measure(text) <= max_width {
        return text.to_owned();
    }
    const ELLIPSIS: &str = "...";
    let ends: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
    // The longest prefix that fits with the ellipsis (widths grow with the prefix).
    let (mut lo, mut hi) = (0usize, ends.len());
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if measure(&format!("{}{ELLIPSIS}", &text[..ends[mid - 1]])) <= max_width {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    match lo {
        0 if measure(ELLIPSIS) > max_width => String::new(),
        0 => ELLIPSIS.to_owned(),
        n => format!("{}{ELLIPSIS}", text[..ends[n - 1]].trim_end()),
    }
}

/// A text egui drew past the left or right edge of its clip rectangle.
#[derive(Clone, Debug, PartialEq)]
pub struct TextCut {
    pub text: String,
    pub rect: Rect,
    pub clip: Rect,
}

/// The texts among `shapes` that run past their clip rectangle sideways while showing in it
/// (texts scrolled out of sight vertically are not cut, only hidden). Tolerates a pixel.
pub fn cut_texts<'a>(shapes: impl IntoIterator<Item = &'a epaint::ClippedShape>) -> Vec<TextCut> {
    fn walk(shape: &epaint::Shape, clip: Rect, out: &mut Vec<TextCut>) {
        match shape {
            epaint::Shape::Text(t) => {
                let rect = t.galley.rect.translate(t.pos.to_vec2());
                let shows = rect.max.y > clip.min.y + 1.0 && rect.min.y < clip.max.y - 1.0;
                let blank = t.galley.text().trim().is_empty();
                if shows && !blank && (rect.min.x < clip.min.x - 1.0 || rect.max.x > clip.max.x + 1.0) {
                    out.push(TextCut { text: t.galley.text().to_owned(), rect, clip });
                }
            }
            epaint::Shape::Vec(v) => v.iter().for_each(|s| walk(s, clip, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for c in shapes {
        walk(&c.shape, c.clip_rect, &mut out);
    }
    out
}

/// [`cut_texts`] over what `ctx` has painted so far this frame (every layer, in pixels:
/// points times `pixels_per_point`).
pub fn cut_texts_in(ctx: &egui::Context) -> Vec<TextCut> {
    let mut layers: Vec<egui::LayerId> = ctx.memory(|m| m.layer_ids().collect());
    if !layers.contains(&egui::LayerId::background()) {
        layers.insert(0, egui::LayerId::background());
    }
    let ppp = ctx.pixels_per_point();
    let cuts = ctx.graphics(|g| cut_texts(layers.iter().filter_map(|l| g.get(*l)).flat_map(|l| l.all_entries())));
    cuts.into_iter().map(|c| c.scaled(ppp)).collect()
}

impl TextCut {
    /// The same cut with its rectangles in pixels (`ppp` pixels per point).
    pub fn scaled(&self, ppp: f32) -> TextCut {
        let px = |r: Rect| Rect::from_min_max((r.min.to_vec2() * ppp).to_pos2(), (r.max.to_vec2() * ppp).to_pos2());
        TextCut { text: self.text.clone(), rect: px(self.rect), clip: px(self.clip) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every character 10 wide.
    fn width(t: &str) -> f32 {
        10.0 * t.chars().count() as f32
    }

    #[test]
    fn fitting_text_is_kept_whole() {
        assert_eq!(elide_to_width("depth", 50.0, width), "depth");
    }

    #[test]
    fn long_text_is_cut_with_an_ellipsis_within_the_width() {
        let cut = elide_to_width("contact depth −0.25 m", 100.0, width);
        assert_eq!(cut, "contact...");
        assert!(width(&cut) <= 100.0);
        assert_eq!(elide_to_width("abcdef", 20.0, width), "");
        assert_eq!(elide_to_width("abcdef", 35.0, width), "...");
    }
}
