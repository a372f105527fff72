//! Errors. Every variant names the file, key or table it is about, and the
//! scenario errors say how to fix the input.

use std::path::PathBuf;

/// A keyheat error: boxed so `Result<T, Error>` stays one word wide.
#[derive(Debug)]
pub struct Error(Box<ErrorKind>);

/// What went wrong.
#[derive(Debug)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The scenario file is invalid. Exit code 2.
    Scenario {
        /// The file (`<string>` when parsed from text).
        path: String,
        /// 1-based line of the offending key or value (0 when unknown).
        line: usize,
        /// 1-based column.
        column: usize,
        /// Dotted key path, e.g. `access_pattern[2].rate`.
        key: String,
        /// What is wrong.
        message: String,
        /// How to fix it.
        fix: String,
    },
    /// A file could not be read.
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// An output could not be written.
    Write {
        /// The file or folder.
        path: PathBuf,
        /// What failed.
        message: String,
    },
    /// A chart could not be drawn.
    Chart {
        /// The chart file.
        path: PathBuf,
        /// What the plotting backend said.
        message: String,
    },
    /// A command-line argument is invalid. Exit code 2.
    Usage {
        /// What is wrong and how to fix it.
        message: String,
    },
}

impl Error {
    /// Wraps a kind.
    pub fn new(kind: ErrorKind) -> Error {
        Error(Box::new(kind))
    }

    /// The kind of error.
    pub fn kind(&self) -> &ErrorKind {
        &self.0
    }

    /// A scenario error at a position.
    pub fn scenario(
        path: &str,
        (line, column): (usize, usize),
        key: impl Into<String>,
        message: impl Into<String>,
        fix: impl Into<String>,
    ) -> Error {
        Error::new(ErrorKind::Scenario {
            path: path.to_string(),
            line,
            column,
            key: key.into(),
            message: message.into(),
            fix: fix.into(),
        })
    }

    /// A write error with context.
    pub fn write(path: impl Into<PathBuf>, message: impl std::fmt::Display) -> Error {
        Error::new(ErrorKind::Write {
            path: path.into(),
            message: message.to_string(),
        })
    }

    /// A usage error.
    pub fn usage(message: impl Into<String>) -> Error {
        Error::new(ErrorKind::Usage {
            message: message.into(),
        })
    }

    /// A scenario error with its message and fix rewritten (`message`,
    /// `fix` given the old ones), at the same position; any other error as
    /// it is.
    ///
    /// ```
    /// let e = keyheat::Error::scenario("s.toml", (3, 1), "store.x", "bad", "fix it");
    /// let e = e.rewritten(|m| format!("variant `a`: {m}"), |f| format!("{f} now"));
    /// assert_eq!(e.to_string(), "s.toml:3:1: store.x: variant `a`: bad\n  fix: fix it now");
    /// ```
    pub fn rewritten(
        self,
        message: impl FnOnce(&str) -> String,
        fix: impl FnOnce(&str) -> String,
    ) -> Error {
        match *self.0 {
            ErrorKind::Scenario {
                path,
                line,
                column,
                key,
                message: m,
                fix: f,
            } => Error::scenario(&path, (line, column), key, message(&m), fix(&f)),
            kind => Error::new(kind),
        }
    }

    /// Whether the error is the user's input (exit code 2) rather than the environment (1).
    pub fn is_bad_input(&self) -> bool {
        matches!(
            *self.0,
            ErrorKind::Scenario { .. } | ErrorKind::Usage { .. } | ErrorKind::Read { .. }
        )
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &*self.0 {
            ErrorKind::Scenario {
                path,
                line,
                column,
                key,
                message,
                fix,
            } => {
                write!(f, "{path}:{line}:{column}: {key}: {message}")?;
                if !fix.is_empty() {
                    write!(f, "\n  fix: {fix}")?;
                }
                Ok(())
            }
            ErrorKind::Read { path, source } => {
                write!(f, "could not read '{}': {source}", path.display())?;
                let fix = if path.is_dir() {
                    "give a file inside that folder, not the folder (a scenario: e.g. scenarios/orders-by-date.toml)"
                } else if !path.exists() {
                    "check the path (a relative path starts from the current folder; the shipped scenarios are in scenarios/)"
                } else if source.kind() == std::io::ErrorKind::InvalidData {
                    "save the file as UTF-8 text (a TOML file is UTF-8; an editor's \"save with encoding\" converts it)"
                } else {
                    "check the file's permissions"
                };
                write!(f, "\n  fix: {fix}")
            }
            ErrorKind::Write { path, message } => {
                write!(f, "could not write '{}': {message}", path.display())?;
                write!(
                    f,
                    "\n  fix: write to a folder you may create files in and whose disk has space, e.g. --out output/my-run"
                )
            }
            ErrorKind::Chart { path, message } => {
                write!(f, "could not draw chart '{}': {message}", path.display())
            }
            ErrorKind::Usage { message } => write!(f, "{message}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &*self.0 {
            ErrorKind::Read { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// `Result` with keyheat's [`Error`].
pub type Result<T> = std::result::Result<T, Error>;
