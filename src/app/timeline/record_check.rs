//! A recording's header checked as a scene file is (docs/scene-format.md, "Limits"): its
//! solver parameters by `SolverParams::validate`, its counts by `scene::input_limits`, its
//! actions by `action_check` (the scene ranges), and every refusal at the `file:line:column`
//! of the value to blame.

use super::record::Header;
use crate::app::action::check as action_check;
use manifold_lab::scene::input_limits::{MAX_RECORDED_ACTIONS, MAX_STEPS};
use manifold_lab::scene::spans;

/// Where the header text sits in the file, to turn its offsets into file positions.
pub struct HeaderText<'a> {
    pub text: &'a str,
    pub file: &'a str,
    /// File lines before the header's first line.
    pub lines_before: usize,
}

impl HeaderText<'_> {
    /// `file:line:column` of the value of `key` inside `text[from..to]`, else of `from`.
    pub fn at(&self, from: usize, to: usize, key: &str) -> String {
        self.pos(spans::value_of(self.text, from, to, key).unwrap_or(from))
    }

    /// `file:line:column` of byte `offset` of the header.
    pub fn pos(&self, offset: usize) -> String {
        let (line, column) = spans::line_col(self.text, offset);
        format!("{}:{}:{column}", self.file, line + self.lines_before)
    }

    /// `file:line:column` of the field `msg` names in backquotes inside the value of `key`
    /// (within `text[from..to]`), else of that value.
    pub fn field_at(&self, from: usize, to: usize, key: &str, msg: &str) -> String {
        let value = spans::value_of(self.text, from, to, key).unwrap_or(from);
        let field = msg.split('`').nth(1).unwrap_or("").split('.').next().unwrap_or("");
        self.at(value, spans::closing(self.text, value), field)
    }

    /// The header's outer parentheses.
    pub fn whole(&self) -> (usize, usize) {
        let open = self.text.find('(').unwrap_or(0);
        (open, spans::closing(self.text, open))
    }
}

/// Checks `header`; the error names its place and the rule broken.
pub fn check(header: &Header, h: &HeaderText) -> Result<(), String> {
    check_common(h, header.steps, &header.final_hash, header.params.validate())?;
    let (start, end) = h.whole();
    check_actions(header, h, start, end)
}

/// What every recording's header holds, 2D or 3D: its end step, its final hash and its
/// parameters (`params`: their `validate`'s answer, whose message names the field in
/// backquotes).
pub fn check_common(h: &HeaderText, steps: u64, hash: &str, params: Result<(), String>) -> Result<(), String> {
    let (start, end) = h.whole();
    if steps > MAX_STEPS {
        let at = h.at(start, end, "steps");
        return Err(format!("{at}: `steps` must be at most {MAX_STEPS}, got {steps}"));
    }
    if hash.is_empty() || hash.len() > 16 || !hash.bytes().all(|b| b.is_ascii_hexdigit()) {
        let at = h.at(start, end, "final_hash");
        return Err(format!("{at}: `final_hash` must be 1 to 16 hex digits, got `{hash}`"));
    }
    if let Err(msg) = params {
        let at = h.field_at(start, end, "params", &msg);
        return Err(format!("{at}: params: {msg}"));
    }
    Ok(())
}

fn check_actions(header: &Header, h: &HeaderText, start: usize, end: usize) -> Result<(), String> {
    let list = spans::value_of(h.text, start, end, "actions").unwrap_or(start);
    if header.actions.len() > MAX_RECORDED_ACTIONS {
        let at = h.pos(list);
        let n = header.actions.len();
        return Err(format!("{at}: a recording holds at most {MAX_RECORDED_ACTIONS} actions, this one {n}"));
    }
    let items = spans::list_items(h.text, list);
    let list_end = spans::closing(h.text, list);
    for (k, a) in header.actions.iter().enumerate() {
        let from = items.get(k).copied().unwrap_or(list);
        let to = items.get(k + 1).copied().unwrap_or(list_end);
        if a.step > header.steps {
            let at = h.at(from, to, "step");
            return Err(format!("{at}: action {k}: step {} is past the end ({})", a.step, header.steps));
        }
        if !super::edits_world(&a.action) {
            let at = h.at(from, to, "action");
            let name = format!("{:?}", a.action);
            let name = name.split(['(', ' ', '{']).next().unwrap_or("");
            return Err(format!("{at}: action {k}: `{name}` is not an edit a recording holds"));
        }
        if let Err(r) = action_check::check(&a.action) {
            let action = spans::value_of(h.text, from, to, "action").unwrap_or(from);
            let at = h.at(action, to, &r.field);
            return Err(format!("{at}: action {k}: {}", r.message));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::app::state::{Action, App};
    use crate::app::timeline::record::{Recording, Stamped};
    use glam::Vec2;
    use manifold_lab::scene;

    /// A recording of a one-body scene with a `SetPose` at step 2 of 5.
    fn recording() -> Recording {
        let s = "(version: 1, bodies: [(name: \"b\", position: (0, 1), shape: Circle(radius: 0.5))])";
        let mut app = App::new(scene::parse(s, "r.ron").unwrap(), None);
        for k in 0..5 {
            if k == 2 {
                app.apply(Action::SetPose { body: 0, position: Vec2::new(1.0, 2.0), angle: 0.0 });
            }
            app.step_once();
        }
        app.recording().unwrap()
    }

    /// `text` with `old` replaced once, the error, and where the replaced value starts.
    fn broken(text: &str, old: &str, new: &str) -> (String, String) {
        let at = text.find(old).unwrap_or_else(|| panic!("`{old}` not in {text}"));
        let key = new.find(": ").map_or(0, |k| k + 2);
        let before = &text[..at + key];
        let place =
            format!("r.mlrec:{}:{}", before.matches('\n').count() + 1, before.rsplit('\n').next().unwrap().len() + 1);
        let e = Recording::parse(&text.replacen(old, new, 1), "r.mlrec").expect_err(new);
        (e, place)
    }

    #[test]
    fn every_refusal_in_a_header_names_its_place() {
        let text = recording().to_text().unwrap();
        assert!(Recording::parse(&text, "r.mlrec").is_ok());
        for (old, new, says) in [
            ("threads: 1,", "threads: 1000000,", "params: `threads` must be between 1 and 64"),
            ("hz: 60.0,", "hz: 0,", "params: `hz` must be between 1 and 10000"),
            ("gravity: (0.0, -10.0)", "gravity: (NaN, -10.0)", "params: `gravity.x` must be a finite number"),
            ("substeps: 4,", "substeps: 100000,", "params: `substeps` must be between 1 and 64"),
            ("steps: 5,", "steps: 99999999999,", "`steps` must be at most 1000000"),
            ("final_hash: \"", "final_hash: \"xyz", "`final_hash` must be 1 to 16 hex digits"),
            ("step: 2,", "step: 9,", "action 0: step 9 is past the end (5)"),
            ("position: (1.0, 2.0)", "position: (1e30, 2.0)", "action 0: `position` must be in [-100000, 100000]"),
        ] {
            let (e, place) = broken(&text, old, new);
            assert!(e.starts_with(&format!("{place}: {says}")), "{new}: `{e}`, expected at {place}");
        }
    }

    #[test]
    fn a_recording_holds_only_edits() {
        let mut r = recording();
        r.header.actions.push(Stamped { step: 3, action: Action::SaveScene("x.ron".into()) });
        let e = Recording::parse(&r.to_text().unwrap(), "r.mlrec").unwrap_err();
        assert!(e.contains(": action 1: `SaveScene` is not an edit a recording holds"), "{e}");
        assert!(e.starts_with("r.mlrec:") && e.split(':').nth(1).unwrap().parse::<usize>().unwrap() > 2, "{e}");
    }
}
