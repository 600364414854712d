//! Test support for the citation family: a frame over an in-memory tree and
//! a context of one cite in it, for the resolvers' and exemptions' unit tests.

use std::sync::Arc;

use super::context::{Context, Found, Reads};
use super::exemptions::Probe;
use super::model::ExemptionSettings;
use crate::frames::Frame;
use crate::snapshot::memory::MemorySnapshot;

/// A frame whose tree holds these files.
pub(super) fn frame(files: &[(&str, &str)]) -> Frame {
    Frame::new(Arc::new(MemorySnapshot::new(files)))
}

/// The context of a cite of `record` (whose text is `text`), read at `frame`,
/// sitting at the text's first backtick (or its start).
pub(super) fn context<'a>(
    frame: &'a Frame,
    reads: &'a Reads,
    exemptions: &'a ExemptionSettings,
    record: &'a str,
    text: &'a str,
) -> Context<'a> {
    Context {
        record,
        frame,
        reads,
        text,
        at: text.find('`').unwrap_or(0),
        exemptions,
        hosted: false,
        includers: &[],
        release_notes: crate::checks::cites::releases::is_changelog(record),
        found: Found::default(),
    }
}

/// What an exemption's chain test says of one cite (`cited`, read as the
/// repository path `path`) of a record in a tree of these files.
#[allow(clippy::too_many_arguments)]
pub(super) fn fires_for(
    fires: fn(&Probe<'_>) -> Option<String>,
    files: &[(&str, &str)],
    record: &str,
    text: &str,
    cited: &str,
    path: &str,
    is_dir: bool,
    link: bool,
) -> Option<String> {
    let frame = frame(files);
    let (reads, exemptions) = (Reads::default(), ExemptionSettings::default());
    let mut context = context(&frame, &reads, &exemptions, record, text);
    context.at = text.find(cited).unwrap_or(context.at);
    fires(&Probe {
        context: &context,
        cited,
        path,
        is_dir,
        link,
        document: false,
    })
}
