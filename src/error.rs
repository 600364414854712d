//! "Could not run" errors, shared by every stage. Findings are data and never
//! travel through here; an [`Error`] means recount could not produce a report
//! (bad rule file, unknown revision, unreadable repository) and maps to exit 2.

use std::ops::Range;

use miette::{Diagnostic, SourceSpan};

use crate::lines::IndexedSource;

/// Why recount could not run. Every variant that concerns a file carries the
/// file and the bytes at fault, so the CLI prints `file:line:column`.
#[derive(Debug, thiserror::Error, Diagnostic)]
pub enum Error {
    /// A problem at a place in a file the user wrote (rule file, record).
    #[error("{message}")]
    #[diagnostic(code(recount::input))]
    Located {
        message: String,
        #[source_code]
        source_code: IndexedSource,
        #[label("{label}")]
        span: SourceSpan,
        label: String,
        #[help]
        help: Option<String>,
    },
    /// A problem with no single place in a file (a repository, a revision).
    #[error("{message}")]
    #[diagnostic(code(recount::run))]
    Plain {
        message: String,
        #[help]
        help: Option<String>,
    },
    /// A file a citation or fact names is over the cap it is read under:
    /// what it decides is left unverified where a caller can say so.
    #[error("{0}")]
    #[diagnostic(code(recount::too_large))]
    TooLarge(crate::snapshot::TooLarge),
}

impl Error {
    /// A failed read of `path`: a file over its cap as [`Error::TooLarge`],
    /// anything else plain.
    pub fn reading(path: &str, error: std::io::Error) -> Self {
        if crate::snapshot::too_large(&error).is_none() {
            return Error::plain(format!("cannot read {path}: {error}"));
        }
        match error
            .into_inner()
            .map(|inner| inner.downcast::<crate::snapshot::TooLarge>())
        {
            Some(Ok(too_large)) => Error::TooLarge(*too_large),
            _ => Error::plain(format!("cannot read {path}: too large")),
        }
    }

    /// An error at `span` (byte range) of the rule file `name` whose text is `text`.
    pub fn located(
        name: &str,
        text: &str,
        span: Range<usize>,
        message: impl Into<String>,
        label: impl Into<String>,
    ) -> Self {
        Error::located_in("toml", name, text, span, message, label)
    }

    /// An error at `span` of a record (Markdown) named `name`.
    pub fn in_record(
        name: &str,
        text: &str,
        span: Range<usize>,
        message: impl Into<String>,
        label: impl Into<String>,
    ) -> Self {
        Error::located_in("markdown", name, text, span, message, label)
    }

    /// An error at `span` of a file written in `language`. It keeps only the
    /// lines around the span, each cut to a window around it, so a diagnostic
    /// beside a 20 MB line shows a few hundred bytes of it.
    pub fn located_in(
        language: &str,
        name: &str,
        text: &str,
        span: Range<usize>,
        message: impl Into<String>,
        label: impl Into<String>,
    ) -> Self {
        let start = span.start.min(text.len());
        let end = span.end.clamp(start, text.len());
        let whole = IndexedSource::new(name, text).with_language(language);
        let (source_code, span) = whole.around(start..end);
        Error::Located {
            message: message.into(),
            source_code,
            span: (span.start, span.len()).into(),
            label: label.into(),
            help: None,
        }
    }

    pub fn plain(message: impl Into<String>) -> Self {
        Error::Plain {
            message: message.into(),
            help: None,
        }
    }

    /// Adds (or replaces) the help line.
    pub fn with_help(mut self, text: impl Into<String>) -> Self {
        match &mut self {
            Error::Located { help, .. } | Error::Plain { help, .. } => *help = Some(text.into()),
            Error::TooLarge(too_large) => {
                return Error::plain(too_large.to_string()).with_help(text);
            }
        }
        self
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

/// An error's message and help on one line (for a report that records the
/// error rather than stopping on it).
pub fn one_line(error: &Error) -> String {
    match error {
        Error::Located { message, help, .. } | Error::Plain { message, help } => match help {
            Some(help) => format!("{message} ({help})"),
            None => message.clone(),
        },
        Error::TooLarge(too_large) => too_large.to_string(),
    }
}
