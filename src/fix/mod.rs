//! `recount fix`, after the report: the edits the findings carry
//! ([`crate::report::Fix`], computed once in `Report::new` and shared with
//! `check`'s JSON, SARIF, annotations and suggestions), grouped by record, and
//! the findings a fix could mend but whose evidence proves no one replacement,
//! listed for a person. Showing the plan is [`diff`]; writing it is [`apply`].

pub mod apply;
pub mod diff;
pub mod verify;

use std::sync::Arc;

use serde::Serialize;

use crate::checks::CheckId;
use crate::report::{Report, SnapshotRef};

/// The schema of `recount fix --format json` (`recount schema fix`).
pub const FIX_SCHEMA: &str = include_str!("../../schemas/fix.schema.json");

/// The version of that document's shape.
pub const FIX_SCHEMA_VERSION: u32 = 1;

/// One edit of a record: the stated text at `offset..offset + length`
/// replaced by what the evidence proves.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Edit {
    pub check: CheckId,
    /// 1-based line of the edit's first byte.
    pub line: usize,
    pub offset: usize,
    pub length: usize,
    /// The text replaced, as the record has it.
    pub stated: String,
    pub replacement: String,
    /// The finding the edit mends, as its check reported it: what the
    /// record, checked again with the edit made, must no longer report.
    #[serde(skip)]
    pub mends: verify::FindingKey,
}

/// A record's edits, in order and never overlapping, with the text they were
/// computed against (what `--write` requires the file still to hold).
#[derive(Debug, Clone, Serialize)]
pub struct FileEdits {
    pub path: String,
    pub edits: Vec<Edit>,
    #[serde(skip)]
    pub before: Arc<str>,
}

impl FileEdits {
    /// The record's text with every edit made.
    pub fn after(&self) -> String {
        let mut out = String::with_capacity(self.before.len());
        let mut at = 0;
        for edit in &self.edits {
            out.push_str(&self.before[at..edit.offset]);
            out.push_str(&edit.replacement);
            at = edit.offset + edit.length;
        }
        out.push_str(&self.before[at..]);
        out
    }
}

/// Why a finding that a fix could mend is left to a person.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Unproven {
    /// Nothing replaces it: the target was deleted, split, or never existed.
    NoReplacement,
    /// The suggestion is not proven: the nearest name (a did-you-mean), or
    /// one that cannot be written in the form the record wrote the cite in.
    Guessed,
    /// A figure measured at its own frame: whether the record should move
    /// with the tree is for its author to say.
    Framed,
    /// The stated text cannot be edited alone: it is not once on its line,
    /// or it is the first of a list of lines (`a.ts:73,76`).
    NotPlaced,
    /// Two findings would edit the same bytes differently.
    Overlapping,
    /// The replacement holds a line break or a control character (ESC, a
    /// bidi override, …) the stated text does not: a name read from the
    /// history or the cache, which a record never gets raw from a fix.
    ControlCharacter,
    /// The cite's words are history (a sentence narrating the change, release
    /// notes, a decision record, a dated post): true of their time.
    History,
    /// The replacement is not in the form the page's renderer reads the link
    /// in (a page address would become a file path).
    RendererForm,
    /// The link's text names the old target in a form the same edit cannot
    /// mend.
    LinkText,
    /// Made in memory and checked again, the edit did not leave the record
    /// as the evidence said: the cite did not resolve, or a finding appeared.
    Unverified,
    /// The record says a generator writes it.
    Generated,
    /// Another citation on its line is left to a person: mending this one
    /// alone would leave the line half right.
    LineLeft,
    /// Two citations of the record, naming two targets, would both name one
    /// after their edits: targets merged into one, not one renamed.
    Merged,
    /// The record names the old target again where no citation is read and
    /// no edit goes (a command in a code block): mending the citation alone
    /// would leave the record naming both.
    NamedElsewhere,
    /// Another path of the record that the same move renamed (`evm/` and
    /// `cli/` beside `config/`, all moved under `crates/` by one commit) is
    /// left to a person: mending one alone leaves the record half moved.
    SiblingsLeft,
}

impl Unproven {
    pub fn as_str(self) -> &'static str {
        match self {
            Unproven::NoReplacement => "the evidence names nothing to put in its place",
            Unproven::Guessed => "the suggestion is a guess, or not in the record's form",
            Unproven::Framed => "the figure is measured at its own frame, not the audited tree",
            Unproven::NotPlaced => "the stated text cannot be edited alone on its line",
            Unproven::Overlapping => "another finding edits the same text differently",
            Unproven::ControlCharacter => {
                "the replacement holds a line break or control character the record did not, \
                 and fix writes none"
            }
            Unproven::History => "its words are history, true of their time",
            Unproven::RendererForm => {
                "the replacement is not in the link's form as its renderer reads it"
            }
            Unproven::LinkText => {
                "the link's text names the old target, and one edit cannot mend both"
            }
            Unproven::Unverified => "made and checked again, the edit did not hold",
            Unproven::Generated => "the record is generated: its source is what to mend",
            Unproven::LineLeft => "another citation on its line is left to a person",
            Unproven::Merged => "two targets of the record would become one: merged, not renamed",
            Unproven::NamedElsewhere => {
                "the record names the old target elsewhere, where no edit mends it"
            }
            Unproven::SiblingsLeft => {
                "another path the same move renamed is left to a person: the record would be half moved"
            }
        }
    }
}

/// A finding left to a person, with why.
#[derive(Debug, Clone, Serialize)]
pub struct NeedsAPerson {
    pub check: CheckId,
    pub path: String,
    pub line: usize,
    pub message: String,
    pub why: Unproven,
    /// The finding's stated text, for the plan's own weighing.
    #[serde(skip)]
    pub stated: Option<String>,
    /// What the finding suggests in its place, for the same weighing.
    #[serde(skip)]
    pub observed: Option<String>,
}

/// What `fix` would do: the edits by record (sorted by path), and the
/// findings it leaves.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Plan {
    pub files: Vec<FileEdits>,
    pub needs_a_person: Vec<NeedsAPerson>,
}

/// The checks whose findings a fix can mend: a citation's target and a
/// recomputed figure. Every other finding is about something a record's text
/// alone cannot settle (a rule, a schema, a transcript's command).
pub const MENDABLE: [CheckId; 4] = [
    CheckId::StaleTestCite,
    CheckId::StaleLineCite,
    CheckId::StalePathCite,
    CheckId::FactDrift,
];

impl Plan {
    /// The plan of a report's findings (suppressed ones are not findings).
    pub fn of(report: &Report) -> Plan {
        let mut plan = Plan::default();
        let mut by_path: std::collections::BTreeMap<&str, Vec<Edit>> = Default::default();
        for reported in &report.findings {
            let finding = &reported.finding;
            if !MENDABLE.contains(&finding.check) {
                continue;
            }
            let left = |why| NeedsAPerson {
                check: finding.check,
                path: finding.location.path.clone(),
                line: finding.location.line,
                message: finding.message.clone(),
                why,
                stated: finding.stated.clone(),
                observed: finding.observed.clone(),
            };
            let Some(fix) = &reported.fix else {
                // The report offers no fix that would bring a line break or a
                // control character into the record (`Fix::of`): said why.
                if let (true, Some(stated), Some(observed)) = (
                    finding.fixable.is_proven(),
                    &finding.stated,
                    &finding.observed,
                ) {
                    let smuggled = crate::escape::brought_hazards(stated, observed);
                    if !smuggled.is_empty() {
                        plan.needs_a_person.push(NeedsAPerson {
                            message: smuggled_message(stated, observed, &smuggled),
                            ..left(Unproven::ControlCharacter)
                        });
                        continue;
                    }
                }
                if let crate::checks::Fixable::Held(held, why) = &finding.fixable {
                    plan.needs_a_person.push(NeedsAPerson {
                        message: format!(
                            "{}; {why}",
                            finding.message.lines().next().unwrap_or_default()
                        ),
                        ..left(match held {
                            crate::checks::Held::History => Unproven::History,
                            crate::checks::Held::Form => Unproven::RendererForm,
                            crate::checks::Held::LinkText => Unproven::LinkText,
                            crate::checks::Held::Generated => Unproven::Generated,
                        })
                    });
                    continue;
                }
                let why = if finding.observed.is_none() {
                    Unproven::NoReplacement
                } else if finding.fixable.is_proven() {
                    Unproven::NotPlaced
                } else if finding.check == CheckId::FactDrift {
                    Unproven::Framed
                } else {
                    Unproven::Guessed
                };
                plan.needs_a_person.push(left(why));
                continue;
            };
            let Some(text) = report.sources.get(&finding.location.path) else {
                plan.needs_a_person.push(left(Unproven::NotPlaced));
                continue;
            };
            let Some(stated) = text.get(fix.offset..fix.offset + fix.length) else {
                plan.needs_a_person.push(left(Unproven::NotPlaced));
                continue;
            };
            by_path
                .entry(&finding.location.path)
                .or_default()
                .push(Edit {
                    check: finding.check,
                    line: 0, // set below, with one line index per record
                    offset: fix.offset,
                    length: fix.length,
                    stated: stated.to_owned(),
                    replacement: fix.replacement.clone(),
                    mends: verify::FindingKey::of(finding),
                });
        }
        for (path, mut edits) in by_path {
            let text = &report.sources[path];
            let index = crate::lines::LineIndex::new(text);
            for edit in &mut edits {
                edit.line = index.line_col(text, edit.offset).0;
            }
            edits.sort_by_key(|a| (a.offset, a.length));
            // The same edit found twice (a link's text and its target) is one.
            edits.dedup_by(|b, a| {
                (a.offset, a.length, &a.replacement) == (b.offset, b.length, &b.replacement)
            });
            // Edits whose spans overlap form a cluster; only a cluster of one
            // is an edit the evidence vouches for alone.
            let mut clusters: Vec<Vec<Edit>> = Vec::new();
            for edit in edits {
                match clusters.last_mut() {
                    Some(cluster)
                        if cluster
                            .iter()
                            .any(|c| edit.offset < c.offset + c.length.max(1)) =>
                    {
                        cluster.push(edit);
                    }
                    _ => clusters.push(vec![edit]),
                }
            }
            let mut kept: Vec<Edit> = Vec::new();
            let mut clashing: Vec<Edit> = Vec::new();
            for mut cluster in clusters {
                if cluster.len() == 1 {
                    kept.append(&mut cluster);
                } else {
                    clashing.append(&mut cluster);
                }
            }
            for edit in clashing {
                plan.needs_a_person.push(NeedsAPerson {
                    check: edit.check,
                    path: path.to_owned(),
                    line: edit.line,
                    message: format!(
                        "`{}` would become `{}`",
                        crate::escape::untrusted(&edit.stated, crate::escape::VALUE_CAP),
                        crate::escape::untrusted(&edit.replacement, crate::escape::VALUE_CAP)
                    ),
                    why: Unproven::Overlapping,
                    stated: edit.mends.stated.clone(),
                    observed: None,
                });
            }
            if kept.is_empty() {
                continue;
            }
            plan.files.push(FileEdits {
                path: path.to_owned(),
                edits: kept,
                before: text.clone(),
            });
        }
        plan.hold_half_mended_lines(&report.sources);
        plan.needs_a_person
            .sort_by(|a, b| (&a.path, a.line, a.check).cmp(&(&b.path, b.line, b.check)));
        plan
    }

    /// Takes out the edits of a line or paragraph that another of its
    /// citations leaves to a person, or of a path the record leaves to a
    /// person elsewhere (it would be half mended: `src/ext` beside
    /// `application/src/ext-test`), and those whose replacement the line
    /// names already (`a.ts` and `b.ts` renamed to `b.ts` would read "`b.ts`
    /// and `b.ts`").
    pub(crate) fn hold_half_mended_lines(
        &mut self,
        sources: &std::collections::BTreeMap<String, Arc<str>>,
    ) {
        // Each edit held may leave another half mended: until none is.
        while self.hold_half_mended_once(sources) {}
    }

    /// One pass of [`Plan::hold_half_mended_lines`]: whether it held any.
    fn hold_half_mended_once(
        &mut self,
        sources: &std::collections::BTreeMap<String, Arc<str>>,
    ) -> bool {
        let left: std::collections::BTreeSet<(String, usize)> = self
            .needs_a_person
            .iter()
            .map(|l| (l.path.clone(), l.line))
            .collect();
        // The stated texts of the findings left, by record: the same path
        // left elsewhere in the record would leave it half renamed.
        let left_stated: std::collections::BTreeSet<(String, String)> = self
            .needs_a_person
            .iter()
            .filter_map(|l| Some((l.path.clone(), l.stated.clone()?)))
            .collect();
        // The moves the findings left suggest (`evm/` → `crates/evm/` is
        // `""` → `crates`), by record: an edit making the same move beside
        // them would leave the record half moved.
        let left_moves: std::collections::BTreeSet<(String, String, String)> = self
            .needs_a_person
            .iter()
            .filter_map(|l| {
                let (from, to) = moved_heads(l.stated.as_deref()?, l.observed.as_deref()?)?;
                Some((l.path.clone(), from, to))
            })
            .collect();
        let mut held = Vec::new();
        for file in &mut self.files {
            let text = sources.get(&file.path).map_or("", |t| &**t);
            // The paragraph of each line (a blank line ends one): a finding
            // left in an edit's paragraph leaves it half mended.
            let mut paragraph = 0;
            let paragraphs: Vec<usize> = std::iter::once(0)
                .chain(text.lines().map(|line| {
                    if line.trim().is_empty() {
                        paragraph += 1;
                    }
                    paragraph
                }))
                .collect();
            let of = |line: usize| paragraphs.get(line).copied();
            let left_here: std::collections::BTreeSet<usize> = left
                .iter()
                .filter(|(path, _)| *path == file.path)
                .filter_map(|(_, line)| of(*line))
                .collect();
            let spans: Vec<(usize, usize)> = file
                .edits
                .iter()
                .map(|e| (e.offset, e.offset + e.length))
                .collect();
            // Edits that would point two stated targets at one new one.
            let merged = merged_targets(&file.edits);
            file.edits.retain(|edit| {
                let why = if left.contains(&(file.path.clone(), edit.mends.line))
                    || left.contains(&(file.path.clone(), edit.line))
                    || of(edit.mends.line).is_some_and(|p| left_here.contains(&p))
                    || edit.mends.stated.as_ref().is_some_and(|stated| {
                        left_stated.contains(&(file.path.clone(), stated.clone()))
                    }) {
                    Some(Unproven::LineLeft)
                } else if names_already(text, edit) {
                    Some(Unproven::NotPlaced)
                } else if named_elsewhere(text, edit, &spans) {
                    Some(Unproven::NamedElsewhere)
                } else if merged.contains(&edit.offset) {
                    Some(Unproven::Merged)
                } else if moved_heads(&edit.stated, &edit.replacement)
                    .is_some_and(|(from, to)| left_moves.contains(&(file.path.clone(), from, to)))
                {
                    Some(Unproven::SiblingsLeft)
                } else {
                    None
                };
                if let Some(why) = why {
                    held.push(NeedsAPerson {
                        stated: edit.mends.stated.clone(),
                        observed: None,
                        check: edit.check,
                        path: file.path.clone(),
                        line: edit.line,
                        message: format!(
                            "`{}` would become `{}`",
                            crate::escape::untrusted(&edit.stated, crate::escape::VALUE_CAP),
                            crate::escape::untrusted(&edit.replacement, crate::escape::VALUE_CAP)
                        ),
                        why,
                    });
                }
                why.is_none()
            });
        }
        self.files.retain(|file| !file.edits.is_empty());
        let any = !held.is_empty();
        self.needs_a_person.extend(held);
        any
    }

    /// The plan as `--format json` prints it, described by [`FIX_SCHEMA`].
    pub fn render_json(&self, snapshot: &SnapshotRef) -> String {
        #[derive(Serialize)]
        struct Document<'a> {
            schema_version: u32,
            recount_version: &'static str,
            snapshot: &'a SnapshotRef,
            edits: &'a [FileEdits],
            needs_a_person: &'a [NeedsAPerson],
        }
        let document = Document {
            schema_version: FIX_SCHEMA_VERSION,
            recount_version: env!("CARGO_PKG_VERSION"),
            snapshot,
            edits: &self.files,
            needs_a_person: &self.needs_a_person,
        };
        let mut text = crate::report::escape::json_pretty(&document)
            .unwrap_or_else(|e| format!("{{\"error\": \"cannot serialise the plan: {e}\"}}"));
        text.push('\n');
        text
    }

    /// How many edits the plan makes.
    pub fn edits(&self) -> usize {
        self.files.iter().map(|f| f.edits.len()).sum()
    }
}

/// The move a replacement makes of a path: the folders before the part
/// both share at their end (`config/` → `crates/config/`: `""` →
/// `crates`), when they share one and their heads differ.
fn moved_heads(stated: &str, replacement: &str) -> Option<(String, String)> {
    use crate::report::plain_path;
    let (old, new) = (plain_path(stated), plain_path(replacement));
    let (mut old, mut new): (Vec<&str>, Vec<&str>) =
        (old.split('/').collect(), new.split('/').collect());
    let mut shared = 0;
    while let (Some(a), Some(b)) = (old.last(), new.last()) {
        if a != b || a.is_empty() {
            break;
        }
        old.pop();
        new.pop();
        shared += 1;
    }
    (shared > 0 && old != new).then(|| (old.join("/"), new.join("/")))
}

/// Whether the paragraph of `edit` (its line, or the table or list it is
/// in) names its replacement already, outside the bytes it replaces (a path
/// renamed onto a name the line lists beside it, a row renamed onto the
/// file another row links).
fn names_already(text: &str, edit: &Edit) -> bool {
    if edit.check != CheckId::StalePathCite {
        return false;
    }
    let Some(end) = edit.offset.checked_add(edit.length) else {
        return false;
    };
    let (Some(before), Some(after)) = (text.get(..edit.offset), text.get(end..)) else {
        return false;
    };
    // Its paragraph (a table or a list is one): another row that links the
    // new target already says where it is, and the stale row may be one
    // to delete, not to point at the same file.
    let paragraph = crate::report::paragraph_within(text, edit.offset, 16 * 1024);
    let line_before = &before[paragraph.start.min(edit.offset)..];
    let line_after = &after[..paragraph.end.saturating_sub(end).min(after.len())];
    let new = edit
        .replacement
        .split(['#', '?'])
        .next()
        .unwrap_or_default();
    let name = new.trim_end_matches('/').rsplit('/').next().unwrap_or(new);
    name.len() > 2
        && [line_before, line_after].iter().any(|side| {
            side.match_indices(name).any(|(at, _)| {
                let after = side[at + name.len()..].chars().next();
                let before = side[..at].chars().next_back();
                !after.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.' || c == '-')
                    && !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '-')
            })
        })
}

/// The offsets of the path edits whose new target another edit of the
/// record gives a different stated target as well (`10-apac.md` and
/// `18-eu.md` both followed to `18-primary.md`): folders or files merged,
/// whatever the history paired, not one renamed.
fn merged_targets(edits: &[Edit]) -> std::collections::BTreeSet<usize> {
    use crate::report::plain_path;
    let path = plain_path;
    let mut by_target: std::collections::BTreeMap<String, Vec<(String, usize)>> =
        Default::default();
    for edit in edits.iter().filter(|e| e.check == CheckId::StalePathCite) {
        let (Some(stated), replacement) = (edit.mends.stated.as_deref(), &edit.replacement) else {
            continue;
        };
        by_target
            .entry(path(replacement))
            .or_default()
            .push((path(stated), edit.offset));
    }
    by_target
        .into_values()
        .filter(|from| from.iter().any(|(stated, _)| *stated != from[0].0))
        .flatten()
        .map(|(_, offset)| offset)
        .collect()
}

/// Whether the record names a renamed path's stated text again, whole (not
/// inside a longer path or word), outside every edit of the plan (`spans`):
/// where nothing reads it as a citation (a command in a code block), the
/// record would name the old path beside the new one.
fn named_elsewhere(text: &str, edit: &Edit, spans: &[(usize, usize)]) -> bool {
    if edit.check != CheckId::StalePathCite {
        return false;
    }
    let Some(stated) = edit.mends.stated.as_deref() else {
        return false;
    };
    // The path as a command or a sentence would write it: from where the
    // link climbs to (`../src/a.conf` is `src/a.conf` in a shell block).
    let mut stated = stated;
    while let Some(rest) = stated
        .strip_prefix("../")
        .or_else(|| stated.strip_prefix("./"))
    {
        stated = rest;
    }
    // A name this short is a word as often as a path.
    if stated.trim_start_matches(['.', '/', '#']).chars().count() < 4 {
        return false;
    }
    crate::report::whole_names(text, stated, true).any(|at| {
        let end = at + stated.len();
        // Written as a link's destination or definition, it is markup: one
        // the renderer reads is a citation of its own, and one it does not
        // (inside a code block) shows how a link is written.
        let line = &text[text[..at].rfind('\n').map_or(0, |i| i + 1)..at];
        let markup = line.ends_with("](") || line.ends_with('<') || line.trim_end().ends_with("]:");
        !markup
            && !spans
                .iter()
                .any(|&(lo, hi)| at < hi.max(lo + 1) && end > lo)
    })
}

/// What a person reads of an edit left for the characters it would bring:
/// both texts and each character escaped, never raw.
fn smuggled_message(stated: &str, replacement: &str, smuggled: &[char]) -> String {
    use crate::escape::{VALUE_CAP, untrusted};
    let named: Vec<String> = smuggled
        .iter()
        .map(|c| format!("`{}`", untrusted(c.encode_utf8(&mut [0; 4]), VALUE_CAP)))
        .collect();
    format!(
        "`{}` would become `{}`, which holds {} (not in the record's text)",
        untrusted(stated, VALUE_CAP),
        untrusted(replacement, VALUE_CAP),
        named.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(before: &str, edits: &[(usize, usize, &str)]) -> FileEdits {
        FileEdits {
            path: "a.md".to_owned(),
            before: Arc::from(before),
            edits: edits
                .iter()
                .map(|(offset, length, replacement)| Edit {
                    check: CheckId::StalePathCite,
                    line: 1,
                    offset: *offset,
                    length: *length,
                    stated: before[*offset..offset + length].to_owned(),
                    replacement: (*replacement).to_owned(),
                    mends: Default::default(),
                })
                .collect(),
        }
    }

    #[test]
    fn a_move_is_the_heads_before_the_part_both_paths_share() {
        use super::moved_heads;
        assert_eq!(
            moved_heads("config/", "crates/config/"),
            Some((String::new(), "crates".to_owned()))
        );
        assert_eq!(
            moved_heads("./a/x.md#top", "b/c/x.md"),
            Some(("a".to_owned(), "b/c".to_owned()))
        );
        // A rename of the name itself is no move of a folder.
        assert_eq!(moved_heads("a/x.md", "a/y.md"), None);
    }

    #[test]
    fn a_row_renamed_onto_the_file_another_row_links_is_left() {
        let text = "| api | fuzzer |\n| --- | --- |\n| setToPolygon | [a](./fuzzSet.c) |\n| other | [b](./fuzzOther.c) |\n| old | [c](./fuzzOld.c) |\n\nSee [d](./fuzzLone.c).\n";
        let at = |needle: &str| text.find(needle).expect("in the text");
        let plan = file(
            text,
            &[
                (at("fuzzOld.c"), "fuzzOld.c".len(), "fuzzSet.c"),
                (at("fuzzLone.c"), "fuzzLone.c".len(), "fuzzSet.c"),
            ],
        );
        // Another row of the table links the new target already.
        assert!(names_already(text, &plan.edits[0]));
        // A paragraph of its own names it nowhere else.
        assert!(!names_already(text, &plan.edits[1]));
    }

    #[test]
    fn two_targets_followed_to_one_are_merged_not_renamed() {
        let text = "[apac](10-apac.md) [eu](./18-eu.md) [eu again](18-eu.md) [x](x.md)";
        let mut plan = file(
            text,
            &[
                (7, 10, "18-primary.md"),
                (24, 10, "18-primary.md"),
                (47, 8, "18-primary.md"),
                (61, 4, "y.md"),
            ],
        );
        for edit in &mut plan.edits {
            edit.mends.stated = Some(edit.stated.clone());
        }
        // Two files into one: every edit into it is held; the same file
        // written two ways (`./18-eu.md`, `18-eu.md`) is one; `x.md` alone.
        assert_eq!(
            merged_targets(&plan.edits).into_iter().collect::<Vec<_>>(),
            vec![7, 24, 47]
        );
        plan.edits.remove(0);
        assert!(merged_targets(&plan.edits).is_empty());
    }

    #[test]
    fn a_replacement_bringing_a_line_break_or_escape_is_named_escaped() {
        let bad = "docs/new\n::add-mask::\u{1b}[2J.md";
        assert_eq!(
            crate::escape::brought_hazards("docs/old.md", bad),
            vec!['\n', '\u{1b}']
        );
        assert_eq!(
            crate::escape::brought_hazards("docs/old.md", "docs/\u{202e}dm.md"),
            vec!['\u{202e}']
        );
        assert!(crate::escape::brought_hazards("docs/old.md", "docs/nouveau-é.md").is_empty());
        // A character the stated text held already is the record's own.
        assert!(crate::escape::brought_hazards("a\tb.md", "a\tc.md").is_empty());
        let said = smuggled_message(
            "docs/old.md",
            bad,
            &crate::escape::brought_hazards("docs/old.md", bad),
        );
        assert!(!said.chars().any(crate::escape::is_hazard), "{said:?}");
        assert!(said.contains("`\\u{a}`, `\\u{1b}`"), "{said}");
        assert!(
            said.contains("docs/new\\u{a}::add-mask::\\u{1b}[2J.md"),
            "{said}"
        );
    }

    #[test]
    fn edits_are_made_in_order_and_the_rest_is_kept_byte_for_byte() {
        let text = "see `src/a.py`\r\nand `src/b.py:3`\r\n";
        let edits = file(text, &[(5, 8, "src/c.py"), (21, 10, "src/b.py:4")]);
        assert_eq!(edits.after(), "see `src/c.py`\r\nand `src/b.py:4`\r\n");
    }
}
