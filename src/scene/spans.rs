//! Where things are in RON text, for checks made after parsing (a recording's header, a
//! script's steps): the items of a list, the value of a `key:`, and an offset's line and
//! column. Strings, chars and comments are skipped as RON reads them (nested block comments
//! included), so a bracket or a key inside them is never taken for one.

/// 1-based line and column (in characters) of byte `offset` of `text`.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut end = offset.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let before = &text[..end];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

/// [`line_col`] of each of the ascending `offsets`, in one pass over `text`.
pub fn line_cols(text: &str, offsets: &[usize]) -> Vec<(usize, usize)> {
    let (mut line, mut line_start, mut from) = (1, 0, 0);
    offsets
        .iter()
        .map(|&at| {
            let at = at.clamp(from, text.len());
            let part = &text.as_bytes()[from..at];
            if let Some(k) = part.iter().rposition(|&b| b == b'\n') {
                line_start = from + k + 1;
            }
            line += part.iter().filter(|&&b| b == b'\n').count();
            from = at;
            let column = text.get(line_start..at).map_or(at - line_start, |t| t.chars().count()) + 1;
            (line, column)
        })
        .collect()
}

/// The byte offsets of `text` outside comments, each with its bracket depth; a string or
/// char literal is one entry at its opening quote. An iterator: a recording may be large.
fn tokens(text: &str, from: usize) -> Tokens<'_> {
    Tokens { b: text.as_bytes(), i: from, depth: 0 }
}

struct Tokens<'a> {
    b: &'a [u8],
    i: usize,
    depth: usize,
}

impl Iterator for Tokens<'_> {
    type Item = (usize, u8, usize);

    fn next(&mut self) -> Option<Self::Item> {
        let b = self.b;
        while self.i < b.len() {
            let (i, c) = (self.i, b[self.i]);
            self.i += 1;
            match c {
                b'/' if b.get(i + 1) == Some(&b'/') => {
                    self.i = b[i..].iter().position(|&x| x == b'\n').map_or(b.len(), |k| i + k);
                }
                b'/' if b.get(i + 1) == Some(&b'*') => self.i = block_comment_end(b, i),
                b'"' | b'\'' => {
                    self.i = quoted_end(b, i, c);
                    return Some((i, c, self.depth));
                }
                b'r' if raw_string_start(b, i) => {
                    self.i = raw_string_end(b, i);
                    return Some((i, b'"', self.depth));
                }
                b'(' | b'[' | b'{' => {
                    self.depth += 1;
                    return Some((i, c, self.depth - 1));
                }
                b')' | b']' | b'}' => {
                    self.depth = self.depth.saturating_sub(1);
                    return Some((i, c, self.depth));
                }
                _ => return Some((i, c, self.depth)),
            }
        }
        None
    }
}

fn block_comment_end(b: &[u8], mut i: usize) -> usize {
    let mut nest = 0;
    while i < b.len() {
        if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
            nest += 1;
            i += 2;
        } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
            nest -= 1;
            i += 2;
            if nest == 0 {
                return i;
            }
        } else {
            i += 1;
        }
    }
    b.len()
}

fn quoted_end(b: &[u8], mut i: usize, quote: u8) -> usize {
    i += 1;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            c if c == quote => return i + 1,
            _ => i += 1,
        }
    }
    b.len()
}

/// `r"`, `r#"`, `r##"` ... at `i`, not inside an identifier.
fn raw_string_start(b: &[u8], i: usize) -> bool {
    let ident_before = i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_');
    let hashes = b[i + 1..].iter().take_while(|&&x| x == b'#').count();
    !ident_before && b.get(i + 1 + hashes) == Some(&b'"')
}

fn raw_string_end(b: &[u8], i: usize) -> usize {
    let hashes = b[i + 1..].iter().take_while(|&&x| x == b'#').count();
    let mut k = i + 2 + hashes;
    while k < b.len() {
        if b[k] == b'"' && b[k + 1..].iter().take(hashes).filter(|&&x| x == b'#').count() == hashes {
            return k + 1 + hashes;
        }
        k += 1;
    }
    b.len()
}

/// The offset of the bracket closing the one at `open`, or the end of the text.
pub fn closing(text: &str, open: usize) -> usize {
    tokens(text, open).skip(1).find(|t| t.2 == 0 && matches!(t.1, b')' | b']' | b'}')).map_or(text.len(), |t| t.0)
}

/// The start offsets of the items of the list (or tuple) whose bracket is at `open`.
pub fn list_items(text: &str, open: usize) -> Vec<usize> {
    let mut items = Vec::new();
    let mut expecting = true;
    for (at, c, depth) in tokens(text, open).skip(1) {
        if depth == 0 && matches!(c, b')' | b']' | b'}') {
            break;
        }
        if depth == 1 && c == b',' {
            expecting = true;
        } else if expecting && !c.is_ascii_whitespace() {
            items.push(at);
            expecting = false;
        }
    }
    items
}

/// The offset of the first `[` outside attributes (`#![enable(...)]`): a script's list.
pub fn top_level_list(text: &str) -> Option<usize> {
    let mut after_bang = false;
    for (at, c, depth) in tokens(text, 0) {
        if depth == 0 && c == b'[' && !after_bang {
            return Some(at);
        }
        if !c.is_ascii_whitespace() {
            after_bang = c == b'!';
        }
    }
    None
}

/// The offset where the value of the first `key:` in `text[from..to]` starts (outside
/// strings and comments, `key` a whole identifier).
pub fn value_of(text: &str, from: usize, to: usize, key: &str) -> Option<usize> {
    let b = text.as_bytes();
    let is_ident = |x: u8| x.is_ascii_alphanumeric() || x == b'_';
    let mut toks = tokens(text, from).take_while(|t| t.0 < to).filter(|t| !t.1.is_ascii_whitespace()).peekable();
    while let Some((at, _, _)) = toks.next() {
        let after = at + key.len();
        if at > 0 && is_ident(b[at - 1])
            || !b[at..].starts_with(key.as_bytes())
            || b.get(after).is_some_and(|&x| is_ident(x))
        {
            continue;
        }
        while toks.peek().is_some_and(|t| t.0 < after) {
            toks.next();
        }
        // The next token after the key must be the colon; the value starts after it.
        if toks.peek().is_some_and(|t| t.1 == b':') {
            toks.next();
            return toks.next().map(|t| t.0);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_items_keys_and_positions_past_strings_and_comments() {
        let text = "#![enable(implicit_some)]\n[\n  Wait(2), // a, b [\n  Do(SelectNamed(\"x, ]\")),\n  \
                    /* ( */ Hover((1, 2)),\n]";
        let open = top_level_list(text).unwrap();
        assert_eq!(line_col(text, open), (2, 1));
        let items: Vec<_> = list_items(text, open).iter().map(|&i| line_col(text, i)).collect();
        assert_eq!(items, vec![(3, 3), (4, 3), (5, 11)]);
        assert_eq!(closing(text, open), text.len() - 1);
        let rec = "(steps: 3, final_hash: \"steps: 9\", actions: [(step: 1, action: Step)])";
        let v = value_of(rec, 0, rec.len(), "final_hash").unwrap();
        assert_eq!(&rec[v..v + 1], "\"");
        assert_eq!(value_of(rec, 0, rec.len(), "steps"), Some(8));
        assert_eq!(value_of(rec, 0, rec.len(), "step").map(|v| &rec[v..v + 1]), Some("1"));
        assert_eq!(value_of(rec, 0, rec.len(), "missing"), None);
        assert_eq!(line_col("ab\ncé", 6), (2, 3));
        let offsets = [0, 3, 4, 6, 6];
        let one: Vec<_> = offsets.iter().map(|&o| line_col("ab\ncé\n", o)).collect();
        assert_eq!(line_cols("ab\ncé\n", &offsets), one);
    }
}
