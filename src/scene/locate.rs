//! Moves an error reported at the end of a struct to the field it blames, by finding the
//! last `field:` before that end in the source text.

/// Byte offset of a 1-based RON position (RON counts columns in bytes).
fn offset_of(text: &str, line: usize, col: usize) -> usize {
    let line_start: usize = text.split_inclusive('\n').take(line.saturating_sub(1)).map(str::len).sum();
    (line_start + col.saturating_sub(1)).min(text.len())
}

/// 1-based (line, column) of a byte offset.
fn position_of(text: &str, offset: usize) -> (usize, usize) {
    let before = &text.as_bytes()[..offset];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let line_start = before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    (line, offset - line_start + 1)
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// The position of the value of the last `field:` before (`line`, `col`), if any.
pub(crate) fn field_before(text: &str, line: usize, col: usize, field: &str) -> Option<(usize, usize)> {
    let end = offset_of(text, line, col);
    if !text.is_char_boundary(end) {
        return None;
    }
    let bytes = text.as_bytes();
    let mut search_end = end;
    while let Some(start) = text[..search_end].rfind(field) {
        search_end = start;
        let after = start + field.len();
        if start > 0 && is_ident(bytes[start - 1]) || after < bytes.len() && is_ident(bytes[after]) {
            continue;
        }
        let rest = &text[after..end];
        let trimmed = rest.trim_start();
        if let Some(value) = trimmed.strip_prefix(':') {
            let value_start = end - value.trim_start().len();
            return Some(position_of(text, value_start));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_last_key_before_the_end() {
        let text = "(\n  hz: 1.0,\n  substeps : 0,\n  my_substeps: 3,\n)";
        assert_eq!(field_before(text, 5, 2, "substeps"), Some((3, 14)));
        assert_eq!(field_before(text, 5, 2, "hz"), Some((2, 7)));
        assert_eq!(field_before(text, 2, 1, "hz"), None);
        assert_eq!(field_before(text, 99, 99, "gravity"), None);
    }
}
