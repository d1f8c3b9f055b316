//! `SceneError`: every failure names the file, and parse errors give `file:line:column`.

use ron::error::{Error as RonError, SpannedError};

/// Why a scene could not be read, parsed or written.
#[derive(Debug, thiserror::Error)]
pub enum SceneError {
    /// Reading or writing the file failed.
    #[error("{file}: {source}")]
    Io {
        file: String,
        #[source]
        source: std::io::Error,
    },
    /// The text is not a valid scene; `line` and `column` are 1-based.
    #[error("{file}:{line}:{column}: {message}")]
    Parse { file: String, line: usize, column: usize, message: String },
    /// The scene could not be turned into text.
    #[error("{file}: cannot write the scene: {message}")]
    Serialize { file: String, message: String },
}

impl SceneError {
    /// Converts a RON error, prefixing the body or generator it happened in when known.
    pub(crate) fn from_ron(file: &str, err: SpannedError, context: Option<String>) -> SceneError {
        let message = describe(&err.code);
        let message = match context {
            Some(ctx) if !is_between_items(&err.code) => format!("{ctx}: {message}"),
            _ => message,
        };
        SceneError::Parse {
            file: file.to_string(),
            line: err.position.line.max(1),
            column: err.position.col.max(1),
            message,
        }
    }

    /// The 1-based line of a parse error.
    pub fn line(&self) -> Option<usize> {
        match self {
            SceneError::Parse { line, .. } => Some(*line),
            _ => None,
        }
    }
}

/// Errors raised between list items, where the item being parsed is not the culprit.
fn is_between_items(code: &RonError) -> bool {
    matches!(code, RonError::ExpectedComma | RonError::ExpectedArrayEnd | RonError::Eof)
}

fn one_of(names: &[&str]) -> String {
    names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
}

/// A readable message for a RON error code (RON's own wording for plain syntax errors).
fn describe(code: &RonError) -> String {
    match code {
        RonError::Message(msg) => msg.clone(),
        RonError::NoSuchEnumVariant { expected, found, outer } => format!(
            "unknown {} `{found}`, expected one of {}",
            outer.as_deref().map_or("variant".to_string(), |o| format!("{o} variant")),
            one_of(expected)
        ),
        RonError::NoSuchStructField { expected, found, outer } => format!(
            "unknown field `{found}`{}, expected one of {}",
            outer.as_deref().map_or(String::new(), |o| format!(" in {o}")),
            one_of(expected)
        ),
        RonError::MissingStructField { field, outer } => {
            format!("missing field `{field}`{}", outer.as_deref().map_or(String::new(), |o| format!(" in {o}")))
        }
        RonError::DuplicateStructField { field, outer } => {
            format!("duplicate field `{field}`{}", outer.as_deref().map_or(String::new(), |o| format!(" in {o}")))
        }
        RonError::ExpectedDifferentStructName { expected, found } => {
            format!("expected `{expected}(...)`, found `{found}`")
        }
        other => {
            let text = other.to_string();
            let mut chars = text.chars();
            match chars.next() {
                Some(first) => first.to_lowercase().chain(chars).collect(),
                None => text,
            }
        }
    }
}
