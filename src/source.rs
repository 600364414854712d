//! Ground floor: one loaded rule file — its name, its text and its line
//! index — for locating an error in it. Shared by every stage that reads a
//! rule file's entries (rules, facts, snapshot path specs, the families'
//! tables), with the value shapes those tables share; imports nothing of the
//! pipeline.

use std::ops::Range;

use serde::Deserialize;

use crate::error::Error;
use crate::lines::LineIndex;

/// One loaded rule file: where it came from and its text, for diagnostics.
#[derive(Debug, Clone)]
pub struct RuleSource {
    /// How the file is named in messages (a path, or `pack:ID`).
    pub name: String,
    pub text: String,
    lines: LineIndex,
}

impl RuleSource {
    pub fn new(name: String, text: String) -> Self {
        RuleSource {
            lines: LineIndex::new(&text),
            name,
            text,
        }
    }

    /// An error located at `span` of this file.
    pub fn error(
        &self,
        span: Range<usize>,
        message: impl Into<String>,
        label: impl Into<String>,
    ) -> Error {
        Error::located(&self.name, &self.text, span, message, label)
    }

    /// 1-based line and character column of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        self.lines.line_col(&self.text, offset)
    }
}

/// A string or a list of strings.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

impl OneOrMany {
    pub fn to_vec(&self) -> Vec<String> {
        match self {
            OneOrMany::One(s) => vec![s.clone()],
            OneOrMany::Many(v) => v.clone(),
        }
    }
}
