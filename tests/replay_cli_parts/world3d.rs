//! The command line on 3D worlds: `run --record` writes a 3D world's run (with `--set`) as a
//! recording that `replay` reproduces to the state hash `run` reports, `check` reads it, and a
//! damaged one is refused at its place (or, its hash tampered with, reported as differing).

use super::{bin, json};

/// `file:line:column` of the first `needle` in `text`, 1-based.
fn place(text: &str, needle: &str) -> String {
    let at = text.find(needle).unwrap_or_else(|| panic!("`{needle}` not in the recording"));
    let before = &text[..at];
    format!("{}:{}", before.matches('\n').count() + 1, before.rsplit('\n').next().unwrap().len() + 1)
}

#[test]
fn a_3d_recording_replays_to_the_hash_of_the_same_run() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let rec = dir.join("tumble3d.mlrec");
    let r = rec.to_str().unwrap();
    let args = ["scenes/world3d/tumble.ron", "--steps", "90", "--set", "iterations=6"];
    let made = json(&bin(&[&["run"][..], &args, &["--record", r, "--json"]].concat()));
    let plain = json(&bin(&[&["run"][..], &args, &["--json"]].concat()));
    assert_eq!(made["state_hash"], plain["state_hash"], "recording does not change the run");
    assert_eq!((made["steps"].as_u64(), &made["matches"]), (Some(90), &serde_json::json!(true)));
    let replayed = json(&bin(&["replay", r, "--json"]));
    assert_eq!(replayed["state_hash"], plain["state_hash"]);
    assert_eq!((&replayed["matches"], &replayed["finite_state"]), (&serde_json::json!(true), &serde_json::json!(true)));
    let text = std::fs::read_to_string(&rec).unwrap();
    assert!(text.starts_with("MLREC 1\n") && text.contains("kind: World3d") && text.contains("iterations: 6"));
    let o = bin(&["check", r]);
    assert!(o.status.success() && String::from_utf8_lossy(&o.stdout).contains("3D recording: 90 steps"));
    // Stopped early, it reports without claiming a match.
    let early = json(&bin(&["replay", r, "--steps", "30", "--json"]));
    assert_eq!((early["steps"].as_u64(), &early["matches"]), (Some(30), &serde_json::json!(false)));

    // The hash tampered with: replayed, it differs (exit code 4).
    let hash = made["state_hash"].as_str().unwrap();
    let bad = dir.join("tampered3d.mlrec");
    std::fs::write(&bad, text.replace(hash, "0000000000000001")).unwrap();
    let o = bin(&["replay", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(4));
    assert!(String::from_utf8_lossy(&o.stdout).contains("differs"));
}

#[test]
fn a_corrupted_3d_recording_is_refused_at_its_place() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let rec = dir.join("stack3d.mlrec");
    json(&bin(&["run", "scenes/world3d/stack.ron", "--steps", "20", "--record", rec.to_str().unwrap(), "--json"]));
    let text = std::fs::read_to_string(&rec).unwrap();
    let bad = dir.join("corrupt3d.mlrec");
    let b = bad.to_str().unwrap();
    // Each value replaced (the key and what follows it up to `,`), and the rule it breaks.
    for (key, value, says) in [
        ("iterations: ", "0", "params: `iterations` must be between"),
        ("steps: ", "99999999999", "`steps` must be at most 1000000"),
        ("final_hash: ", "\"xyz\"", "`final_hash` must be 1 to 16 hex digits"),
    ] {
        let i = text.find(key).unwrap() + key.len();
        let end = i + text[i..].find(',').unwrap();
        std::fs::write(&bad, format!("{}{value}{}", &text[..i], &text[end..])).unwrap();
        // The value's place: the key's place moved on by the key's length.
        let (line, col) = place(&text, key).split_once(':').map(|(l, c)| (l.to_string(), c.to_string())).unwrap();
        let want = format!("{b}:{line}:{}: {says}", col.parse::<usize>().unwrap() + key.len());
        for cmd in ["replay", "check"] {
            let o = bin(&[cmd, b]);
            let err = String::from_utf8_lossy(&o.stderr).into_owned() + &String::from_utf8_lossy(&o.stdout);
            assert!(!o.status.success(), "{cmd} {key}{value}: accepted");
            assert!(err.contains(&want), "{cmd} {key}{value}: `{err}`, expected `{want}`");
        }
    }
    // An error in the world file is placed at its line in the recording.
    let mark = text.find("--- scene ---").unwrap();
    let scene_line = text[..mark].matches('\n').count() + 2;
    let broken = format!("{}--- scene ---\nWorld3d(version: 1, nonsense: 3)\n", &text[..mark]);
    std::fs::write(&bad, broken).unwrap();
    let o = bin(&["replay", b]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && err.contains(&format!("{b}:{scene_line}:")), "{err}");
}
