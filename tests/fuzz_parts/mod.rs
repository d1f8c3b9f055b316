//! The input fuzzer's parts: mutations of a file's bytes, and the judgement of one run of the
//! command line on a mutant (refused at `file:line:column`, or ran with finite state).

use manifold_lab::engine::rng::SplitMix64;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Longest any one input may run (a debug build, two cores shared): beyond it is a hang.
pub const HANG_BOUND: Duration = Duration::from_secs(120);

/// What replaces a number: out of range, not finite, negative, zero, past every integer type.
const NUMBERS: [&str; 10] =
    ["1e30", "NaN", "-1", "0", "4294967296", "18446744073709551616", "1e9", "inf", "-1e30", "99999999999"];

/// One mutation of `seed`, and its description.
pub fn mutate(seed: &[u8], rng: &mut SplitMix64) -> (Vec<u8>, String) {
    let mut b = seed.to_vec();
    let at = rng.below(b.len().max(1));
    match rng.below(7) {
        0 => {
            let x = 1 + rng.below(255) as u8;
            b[at] ^= x;
            (b, format!("byte {at} xor {x:#04x}"))
        }
        1 | 2 => replace_number(b, rng),
        3 => {
            b.truncate(at);
            (b, format!("truncated at {at}"))
        }
        4 => lines(b, rng, true),
        5 => lines(b, rng, false),
        _ => {
            let bad: &[u8] = if rng.below(2) == 0 { &[0xff] } else { &[0xc3, b'('] };
            b.splice(at..at, bad.iter().copied());
            (b, format!("not UTF-8 at {at}"))
        }
    }
}

/// A number (a run of digits, with its sign, point and exponent) replaced by one of `NUMBERS`.
fn replace_number(mut b: Vec<u8>, rng: &mut SplitMix64) -> (Vec<u8>, String) {
    let is_num = |c: u8| c.is_ascii_digit() || c == b'.' || c == b'-' || c == b'e';
    let starts: Vec<usize> = (0..b.len())
        .filter(|&i| b[i].is_ascii_digit() && (i == 0 || !is_num(b[i - 1]) && !b[i - 1].is_ascii_alphabetic()))
        .collect();
    if starts.is_empty() {
        return (b, "no number".into());
    }
    let start = starts[rng.below(starts.len())];
    let end = (start..b.len()).find(|&i| !is_num(b[i])).unwrap_or(b.len());
    let new = NUMBERS[rng.below(NUMBERS.len())];
    let old = String::from_utf8_lossy(&b[start..end]).into_owned();
    b.splice(start..end, new.bytes());
    (b, format!("number {old} at {start} -> {new}"))
}

/// A line duplicated (`dup`) or dropped.
fn lines(b: Vec<u8>, rng: &mut SplitMix64, dup: bool) -> (Vec<u8>, String) {
    let mut ls: Vec<Vec<u8>> = b.split(|&c| c == b'\n').map(<[u8]>::to_vec).collect();
    let k = rng.below(ls.len());
    if dup {
        ls.insert(k, ls[k].clone());
    } else {
        ls.remove(k);
    }
    (ls.join(&b'\n'), format!("line {} {}", k + 1, if dup { "duplicated" } else { "dropped" }))
}

/// How one run ended.
#[derive(Debug)]
pub enum Outcome {
    Accepted,
    Refused,
    /// Refused without `file:line:column`.
    Unlocated(String),
    /// Panicked, hung, or accepted with state that is not finite.
    Broken(String),
}

/// Runs `cmd` (on the mutant at `path`) within [`HANG_BOUND`] and judges it.
pub fn outcome(mut cmd: Command, path: &Path) -> Outcome {
    let out_file = path.with_extension("out");
    let err_file = path.with_extension("err");
    let mut child = cmd
        .stdout(std::fs::File::create(&out_file).unwrap())
        .stderr(std::fs::File::create(&err_file).unwrap())
        .stdin(Stdio::null())
        .spawn()
        .expect("the binary runs");
    let t0 = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if t0.elapsed() > HANG_BOUND {
            child.kill().ok();
            child.wait().ok();
            return Outcome::Broken(format!("still running after {HANG_BOUND:?}"));
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let stdout = std::fs::read_to_string(&out_file).unwrap_or_default();
    let stderr = String::from_utf8_lossy(&std::fs::read(&err_file).unwrap_or_default()).into_owned();
    std::fs::remove_file(&out_file).ok();
    std::fs::remove_file(&err_file).ok();
    if stderr.contains("panicked") || status.code().is_none_or(|c| c == 101) {
        return Outcome::Broken(format!("panic or signal ({status}): {stderr}"));
    }
    // 4: `replay` ran and reached another hash than the recorded one (a mutant may).
    if status.success() || status.code() == Some(4) {
        return finite(&stdout);
    }
    if located(&stderr, &path.display().to_string()) {
        Outcome::Refused
    } else {
        Outcome::Unlocated(stderr)
    }
}

/// `text` starts `FILE:LINE:COLUMN: ` with `FILE` the mutant.
fn located(text: &str, file: &str) -> bool {
    let Some(rest) = text.strip_prefix(file).and_then(|r| r.strip_prefix(':')) else { return false };
    let mut parts = rest.splitn(3, ':');
    let number = |p: Option<&str>| p.is_some_and(|s| !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit()));
    number(parts.next()) && number(parts.next()) && parts.next().is_some_and(|m| m.starts_with(' '))
}

/// An accepted run's JSON report: `finite_state` (replay) or every pose number finite (run;
/// JSON writes a NaN as null).
fn finite(stdout: &str) -> Outcome {
    let Ok(v) = serde_json::from_str::<serde_json::Value>(stdout) else {
        return Outcome::Broken(format!("accepted without a JSON report: {stdout}"));
    };
    if let Some(f) = v.get("finite_state") {
        return if f == true { Outcome::Accepted } else { Outcome::Broken(format!("not finite: {v}")) };
    }
    let poses = v["poses"].as_array().cloned().unwrap_or_default();
    let finite_pose = |p: &serde_json::Value| ["x", "y", "angle"].iter().all(|k| p[k].is_number());
    if poses.iter().all(finite_pose) && v["kinetic_energy"].is_number() {
        Outcome::Accepted
    } else {
        Outcome::Broken(format!("not finite: {v}"))
    }
}

/// The counts of a fuzz run and the failures.
#[derive(Default)]
pub struct Tally {
    pub inputs: usize,
    pub accepted: usize,
    pub refused: usize,
    pub unlocated: Vec<String>,
    pub broken: Vec<String>,
}

impl Tally {
    pub fn add(&mut self, o: &Outcome, what: &str) {
        self.inputs += 1;
        match o {
            Outcome::Accepted => self.accepted += 1,
            Outcome::Refused => self.refused += 1,
            Outcome::Unlocated(e) => self.unlocated.push(format!("{what}: {e}")),
            Outcome::Broken(e) => self.broken.push(format!("{what}: {e}")),
        }
    }

    /// Prints the counts and fails on any unlocated refusal or broken run.
    pub fn report(&self, kind: &str) {
        println!(
            "{kind}: {} inputs, {} accepted, {} refused, {} unlocated, {} broken",
            self.inputs,
            self.accepted,
            self.refused,
            self.unlocated.len(),
            self.broken.len()
        );
        assert!(self.unlocated.is_empty(), "unlocated refusals:\n{}", self.unlocated.join("\n"));
        assert!(self.broken.is_empty(), "broken runs:\n{}", self.broken.join("\n"));
        assert!(self.accepted > 0 && self.refused > 0, "the fuzzer saw both outcomes");
    }
}
