//! Where in the scene the parser is (`body 3 "ball"`, `generator 1`, `settings`), so errors
//! raised deep inside serde can name the item they belong to. Thread-local, reset per parse.

use std::cell::RefCell;

#[derive(Default)]
struct State {
    /// Innermost last: (label, name).
    scopes: Vec<(String, String)>,
    /// The scope description at the first error seen, if any.
    error: Option<String>,
    /// The field a whole-struct check blamed, so the error can point at it.
    field: Option<String>,
    /// An error found after a first parse, to raise when the parser reaches the item again:
    /// (list label, item index, field, message). See `super::parse`.
    injected: Option<(String, usize, String, String)>,
    /// Bodies the scene makes so far: its explicit bodies and its generators' (`lists`).
    bodies: u64,
}

thread_local! {
    static STATE: RefCell<State> = RefCell::new(State::default());
}

/// Clears all state; called at the start of every parse.
pub(crate) fn reset() {
    STATE.with(|s| *s.borrow_mut() = State::default());
}

/// Arms an error for item `index` of the list labelled `label` (`"joint"`, `"generator"`),
/// blaming `field`; the next parse raises it there, so it gets a line and column.
pub(crate) fn inject(label: &str, index: usize, field: &str, message: String) {
    STATE.with(|s| s.borrow_mut().injected = Some((label.to_string(), index, field.to_string(), message)));
}

/// The armed error for item `index` of list `label`, if any (consumed).
pub(crate) fn take_injected(label: &str, index: usize) -> Option<(String, String)> {
    STATE.with(|s| {
        let mut s = s.borrow_mut();
        match &s.injected {
            Some((l, i, _, _)) if l == label && *i == index => s.injected.take().map(|(_, _, f, m)| (f, m)),
            _ => None,
        }
    })
}

/// Adds `n` bodies to the scene's count and returns the total so far.
pub(crate) fn count_bodies(n: u64) -> u64 {
    STATE.with(|s| {
        let mut s = s.borrow_mut();
        s.bodies = s.bodies.saturating_add(n);
        s.bodies
    })
}

/// The description recorded at the first error, consuming it.
pub(crate) fn take_error() -> Option<String> {
    STATE.with(|s| s.borrow_mut().error.take())
}

/// Notes that the error being raised is about `field` of the struct that just ended.
pub(crate) fn blame_field(field: &str) {
    STATE.with(|s| {
        let mut s = s.borrow_mut();
        if s.error.is_none() && s.field.is_none() {
            s.field = Some(field.to_string());
        }
    });
}

/// The field blamed by [`blame_field`], consuming it.
pub(crate) fn take_field() -> Option<String> {
    STATE.with(|s| s.borrow_mut().field.take())
}

/// Runs `f` inside a scope labelled `label`; on error, records where it happened.
pub(crate) fn scoped<T, E>(label: String, f: impl FnOnce() -> Result<T, E>) -> Result<T, E> {
    STATE.with(|s| s.borrow_mut().scopes.push((label, String::new())));
    let result = f();
    STATE.with(|s| {
        let mut s = s.borrow_mut();
        if result.is_err() && s.error.is_none() {
            s.error = Some(describe(&s.scopes));
        }
        s.scopes.pop();
    });
    result
}

/// Names the innermost scope (a body's `name` field is read before its other fields).
pub(crate) fn set_name(name: &str) {
    STATE.with(|s| {
        if let Some(top) = s.borrow_mut().scopes.last_mut() {
            top.1 = name.to_string();
        }
    });
}

fn describe(scopes: &[(String, String)]) -> String {
    let parts: Vec<String> = scopes
        .iter()
        .map(|(label, name)| if name.is_empty() { label.clone() } else { format!("{label} {name:?}") })
        .collect();
    parts.join(", ")
}
