//! A script's text read and checked as scene files are: not UTF-8, bad RON, a count over its
//! maximum (`scene::input_limits`) or a number out of the scene ranges (`action_check`) is an
//! error at `file:line:column`, pointing at the step (or its field) to blame.

use super::ScriptStep;
use crate::app::action::check::{self as action_check, Refusal};
use manifold_lab::scene::input_limits::{MAX_DRAG_FRAMES, MAX_SCRIPT_FRAMES, MAX_SCRIPT_STEPS, MAX_WAIT_FRAMES};
use manifold_lab::scene::{limits, spans};

/// The steps of a script and where each one starts (`file:line:column`).
pub struct Parsed {
    pub steps: Vec<ScriptStep>,
    pub places: Vec<String>,
}

/// Parses and checks script `text`; `file` labels errors.
pub fn parse(text: &str, file: &str) -> Result<Parsed, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let steps: Vec<ScriptStep> = ron::from_str(text)
        .map_err(|e| format!("{file}:{}:{}: {}", e.position.line.max(1), e.position.col.max(1), e.code))?;
    let open = spans::top_level_list(text).unwrap_or(0);
    let starts = spans::list_items(text, open);
    let place = |k: usize, field: Option<&str>| {
        let start = starts.get(k).copied().unwrap_or(open);
        let end = starts.get(k + 1).copied().unwrap_or_else(|| spans::closing(text, open));
        let at = field.and_then(|f| spans::value_of(text, start, end, f)).unwrap_or(start);
        let (line, column) = spans::line_col(text, at);
        format!("{file}:{line}:{column}")
    };
    if steps.len() > MAX_SCRIPT_STEPS {
        let k = MAX_SCRIPT_STEPS;
        return Err(format!("{}: a script holds at most {k} steps, this one {}", place(k, None), steps.len()));
    }
    let mut frames = 0u64;
    for (k, step) in steps.iter().enumerate() {
        check_step(step).map_err(|r| format!("{}: step {k}: {}", place(k, Some(&r.field)), r.message))?;
        frames += frames_of(step);
        if frames > MAX_SCRIPT_FRAMES {
            let msg = format!("the script runs past {MAX_SCRIPT_FRAMES} frames in all");
            return Err(format!("{}: step {k}: {msg}", place(k, None)));
        }
    }
    // One pass for every step's place: a script may hold 100,000 of them.
    let mut starts: Vec<usize> = (0..steps.len()).map(|k| starts.get(k).copied().unwrap_or(open)).collect();
    starts.sort_unstable();
    let places = spans::line_cols(text, &starts).into_iter().map(|(l, c)| format!("{file}:{l}:{c}")).collect();
    Ok(Parsed { steps, places })
}

/// The frames `step` plays (as `ScriptPlayer::expand` expands it).
pub fn frames_of(step: &ScriptStep) -> u64 {
    match step {
        ScriptStep::Wait(n) => *n as u64,
        ScriptStep::Do(_) | ScriptStep::Hover(_) => 1,
        ScriptStep::Click(_) | ScriptStep::ShiftClick(_) => 2,
        ScriptStep::Drag { frames, .. } => *frames.max(&1) as u64 + 2,
    }
}

fn refuse(field: &str, message: String) -> Result<(), Refusal> {
    Err(Refusal { field: field.to_string(), message })
}

/// One step's counts and numbers.
pub fn check_step(step: &ScriptStep) -> Result<(), Refusal> {
    let point = |field: &str, p| limits::check_point(field, p).or_else(|m| refuse(field, m));
    match step {
        ScriptStep::Wait(n) if *n > MAX_WAIT_FRAMES => {
            refuse("Wait", format!("`Wait` must be at most {MAX_WAIT_FRAMES} frames, got {n}"))
        }
        ScriptStep::Wait(_) => Ok(()),
        ScriptStep::Do(a) => action_check::check(a),
        ScriptStep::Click(p) | ScriptStep::ShiftClick(p) | ScriptStep::Hover(p) => point("point", *p),
        ScriptStep::Drag { frames, .. } if *frames > MAX_DRAG_FRAMES => {
            refuse("frames", format!("`frames` must be at most {MAX_DRAG_FRAMES}, got {frames}"))
        }
        ScriptStep::Drag { from, to, .. } => point("from", *from).and_then(|()| point("to", *to)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::script::{play_headless, ScriptPlayer};
    use crate::app::state::App;
    use manifold_lab::scene;

    fn error(text: &str) -> String {
        parse(text, "s.ron").err().unwrap_or_else(|| panic!("accepted: {text}"))
    }

    #[test]
    fn counts_and_numbers_are_located_with_their_range() {
        assert!(parse("[Wait(2), Do(Pause)]", "s.ron").is_ok());
        let e = error("[\n  Wait(2),\n  Wait(4000000000),\n]");
        assert_eq!(e, "s.ron:3:3: step 1: `Wait` must be at most 100000 frames, got 4000000000");
        assert!(error("[Wait(1e9)]").starts_with("s.ron:1:"));
        let e = error("[\n  Do(SetPose(body: 0, position: (1e30, 0), angle: 0)),\n]");
        assert_eq!(e, "s.ron:2:33: step 0: `position` must be in [-100000, 100000], got 1e30");
        let e = error("[Drag(from: (0, 0), to: (1, 1), frames: 20000)]");
        assert!(e.starts_with("s.ron:1:41: step 0: `frames` must be at most 10000"), "{e}");
        let e = error("[Hover((0, NaN))]");
        assert!(e.starts_with("s.ron:1:2: step 0:") && e.contains("±100000"), "{e}");
        let e = error(&format!("[{}]", ["Wait(100000)"; 11].join(", ")));
        assert!(e.contains("step 10: the script runs past 1000000 frames"), "{e}");
    }

    #[test]
    fn every_shipped_script_passes_the_checks() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scripts");
        let mut n = 0;
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            ScriptPlayer::load(&path).unwrap_or_else(|e| panic!("{e}"));
            n += 1;
        }
        assert!(n > 20, "{n} scripts");
    }

    #[test]
    fn a_failing_step_names_its_place_and_bad_bytes_theirs() {
        let text = "[\n  Do(Pause),\n  // a comment, [\n  Do(SelectNamed(\"nobody\")),\n  Wait(3),\n]";
        let player = ScriptPlayer::parse(text, "s.ron").unwrap();
        let mut app = App::new(scene::parse("(version: 1)", "e.ron").unwrap(), None);
        let e = play_headless(&mut app, player).unwrap_err();
        assert_eq!(e, "s.ron:4:3: the step failed: no body named `nobody`");
        let path = std::env::temp_dir().join(format!("script_utf8_{}.ron", std::process::id()));
        std::fs::write(&path, b"[\n  Wait(1),\n  Do(SelectNamed(\"\xff\")),\n]").unwrap();
        let e = ScriptPlayer::load(&path).err().unwrap();
        std::fs::remove_file(&path).ok();
        assert!(e.ends_with(":3:19: byte 0xff is not UTF-8 text (the app reads UTF-8 files)"), "{e}");
    }
}
