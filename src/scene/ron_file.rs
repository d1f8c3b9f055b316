//! Reading and writing the project's RON files (scenes, pairs, hull pairs) the same way:
//! errors name the file (and line and column when parsing), a byte-order mark is tolerated,
//! and files are written as pretty RON under their top-level name.

use super::context;
use super::error::SceneError;
use super::save::ron_options;
use ron::ser::PrettyConfig;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::path::Path;

/// Parses `text` as a `T`; `file_name` only labels errors.
pub(crate) fn parse_ron<T: DeserializeOwned>(text: &str, file_name: &str) -> Result<T, SceneError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    context::reset();
    let result = ron_options().from_str::<T>(text);
    let ctx = context::take_error();
    result.map_err(|e| SceneError::from_ron(file_name, e, ctx))
}

/// Reads the file at `path` as text; bytes that are not UTF-8 are a parse error at their
/// line and column (the column counts characters, the bad byte's own included).
pub fn read_text(path: &Path) -> Result<String, SceneError> {
    let file = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|source| SceneError::Io { file: file.clone(), source })?;
    String::from_utf8(bytes).map_err(|e| {
        let bytes = e.as_bytes();
        let good = e.utf8_error().valid_up_to();
        // The prefix before the bad byte is valid UTF-8 by definition.
        let before = std::str::from_utf8(&bytes[..good]).unwrap_or_default();
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        SceneError::Parse {
            file,
            line,
            column,
            message: format!("byte 0x{:02x} is not UTF-8 text (the app reads UTF-8 files)", bytes[good]),
        }
    })
}

/// `value` as pretty RON, one item per line, prefixed with its top-level `name`.
pub(crate) fn to_ron_string<T: Serialize>(value: &T, name: &str) -> Result<String, SceneError> {
    let config = PrettyConfig::new().depth_limit(2).indentor("    ".to_string());
    let body = ron_options()
        .to_string_pretty(value, config)
        .map_err(|e| SceneError::Serialize { file: format!("<{name}>"), message: e.to_string() })?;
    Ok(format!("{name}{body}\n"))
}

/// Writes already serialized `text` to `path`, naming the file in a serialization error.
pub(crate) fn write_text(text: Result<String, SceneError>, path: &Path) -> Result<(), SceneError> {
    let file = path.display().to_string();
    let text = text.map_err(|e| match e {
        SceneError::Serialize { message, .. } => SceneError::Serialize { file: file.clone(), message },
        other => other,
    })?;
    std::fs::write(path, text).map_err(|source| SceneError::Io { file, source })
}
