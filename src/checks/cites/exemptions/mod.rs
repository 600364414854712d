//! Stage 4, the citation family at resolution: the exemptions — why a
//! citation that names nothing here is still no finding, for what the
//! repository's history cannot decide. The ids, in precedence order, are the
//! model's (`model.rs`, `exemption_ids!`); each id has one file here, mapped
//! once below, that decides it: its predicate, its documentation, where it
//! applies, whether the history's evidence overrules it, its word list, and
//! unit tests where it fires and where it stays quiet. A path or link that
//! names nothing here is tried against each exemption of its chain in turn
//! (`ExemptionSettings::first`); every other resolver asks the exemptions of
//! its decision point through `ExemptionSettings::ask`, in the same order.
//! The first that fires names the reason `recount cites` gives.
//!
//! An exemption is a reading of prose or of the tree's shape, so it yields to
//! the evidence: a citation that resolved when the record wrote it and stopped
//! resolving since is stale whatever exemption fires (`evidence/paths.rs`),
//! except for the few whose own fact is history (a release's notes, a
//! `.gitignore`, a path outside any checkout).

use super::context::Context;
pub use super::model::{Exemption, ExemptionSettings};

pub(super) mod ambiguous_name;
pub(super) mod bare_name;
mod built_page;
pub(super) mod changelog_removal;
pub(super) mod code_label;
pub(crate) mod copied_record;
pub(in crate::checks::cites) mod cross_reference;
pub(super) mod decided_change;
mod declared_repository;
pub(super) mod earlier_release;
pub(super) mod example_code;
pub(super) mod foreign_line;
mod foreign_root;
pub(super) mod frozen_docs;
pub(super) mod generated_page;
pub(super) mod generated_template;
pub(super) mod gitignored;
pub(super) mod intersphinx;
mod kept_empty;
pub(super) mod label_elsewhere;
pub(super) mod link_text;
pub(super) mod lint_silenced;
pub(super) mod made_at_run_time;
pub(super) mod module_name;
pub(super) mod never_resolved;
pub(super) mod news_fragment;
pub(super) mod not_a_path;
mod other_repository;
pub(super) mod outside_checkout;
pub(super) mod page_title;
pub(super) mod placeholder;
mod reader_cue;
pub(super) mod recurring_section;
mod site_asset;
mod site_route;
pub(super) mod snapshot_page;
pub(super) mod superseded_record;
pub(super) mod test_material;
pub(super) mod translation_fallback;
pub(super) mod translation_platform;
pub(super) mod tree_diagram;
mod unknown_folder;
pub(super) mod unknown_root;
pub(super) mod unread_include;
pub(super) mod unresolved_object;
pub(super) mod unused_target;
pub(super) mod vendored;

pub(crate) use copied_record::copied_from;
pub(super) use placeholder::placeholder;
pub(crate) use test_material::is_test_material;

/// The first `bytes` of `text` (fewer, to end on a character): where a page
/// or an index declares what it is, near its top.
pub(in crate::checks::cites) fn head_of(text: &str, bytes: usize) -> &str {
    let mut end = text.len().min(bytes);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// Where an exemption is decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Applies {
    /// To a whole record, set aside before its citations are read (one note
    /// counts them).
    Record,
    /// To a backticked path that names nothing here, in the path chain.
    Path,
    /// To a link target that names nothing here, in the link chain.
    Link,
    /// To a path or a link target alike, in both chains.
    PathOrLink,
    /// Where its resolver decides it (a line cite, a test id, an anchor, a
    /// release section, the evidence itself).
    Resolver,
}

impl Applies {
    /// Where it applies, in words: as `explain` and the book list it.
    pub fn as_str(self) -> &'static str {
        match self {
            Applies::Record => "a whole record",
            Applies::Path => "a backticked path",
            Applies::Link => "a link",
            Applies::PathOrLink => "a path or a link",
            Applies::Resolver => "its resolver decides",
        }
    }
}

/// What a path or a link probed against the chain is, and where it is written.
pub(super) struct Probe<'a> {
    pub context: &'a Context<'a>,
    /// As the record writes it: a link's target, a backticked path.
    pub cited: &'a str,
    /// The repository path a reader would find it at.
    pub path: &'a str,
    pub is_dir: bool,
    /// A link (written on purpose), not a backticked path.
    pub link: bool,
    /// A Sphinx document reference (`:doc:`, a `toctree` entry).
    pub document: bool,
}

/// One exemption: everything the registry knows of it.
pub(super) struct Definition {
    /// What it skips and why, for `recount explain` and the book.
    pub doc: &'static str,
    pub applies: Applies,
    /// Whether "resolved when written, gone since" makes the citation stale
    /// anyway: true for every reading of prose or of the tree's shape.
    pub history_overrules: bool,
    /// For the path and link chains: why it fires for this probe, if it does.
    pub fires: Option<fn(&Probe<'_>) -> Option<String>>,
    /// Whether the history behind the snapshot, knowing the path was once
    /// there, makes a citation it fired for stale (an extensionless link, a
    /// path with a folder and an extension).
    pub stale_if_history_knows: bool,
}

macro_rules! exemptions {
    ($($variant:ident => $module:ident),* $(,)?) => {
        impl Exemption {
            /// Its definition: the file that decides it.
            fn definition(self) -> &'static Definition {
                match self {
                    $(Exemption::$variant => &$module::DEFINITION),*
                }
            }
        }
    };
}

exemptions! {
    TestMaterial => test_material,
    Vendored => vendored,
    TranslationPlatform => translation_platform,
    FrozenDocs => frozen_docs,
    CopiedRecord => copied_record,
    EarlierRelease => earlier_release,
    OutsideCheckout => outside_checkout,
    LinkText => link_text,
    Gitignored => gitignored,
    ChangelogRemoval => changelog_removal,
    NewsFragment => news_fragment,
    OtherRepository => other_repository,
    DeclaredRepository => declared_repository,
    MadeAtRunTime => made_at_run_time,
    ReaderCue => reader_cue,
    Placeholder => placeholder,
    CodeLabel => code_label,
    TreeDiagram => tree_diagram,
    KeptEmpty => kept_empty,
    AmbiguousName => ambiguous_name,
    BareName => bare_name,
    UnknownFolder => unknown_folder,
    UnknownRoot => unknown_root,
    NotAPath => not_a_path,
    BuiltPage => built_page,
    TranslationFallback => translation_fallback,
    ForeignRoot => foreign_root,
    SiteRoute => site_route,
    SiteAsset => site_asset,
    CrossReference => cross_reference,
    ForeignLine => foreign_line,
    ModuleName => module_name,
    Intersphinx => intersphinx,
    LabelElsewhere => label_elsewhere,
    ExampleCode => example_code,
    UnresolvedObject => unresolved_object,
    UnreadInclude => unread_include,
    PageTitle => page_title,
    RecurringSection => recurring_section,
    SnapshotPage => snapshot_page,
    SupersededRecord => superseded_record,
    GeneratedTemplate => generated_template,
    DecidedChange => decided_change,
    LintSilenced => lint_silenced,
    GeneratedPage => generated_page,
    UnusedTarget => unused_target,
    NeverResolved => never_resolved,
}

impl Exemption {
    pub fn doc(self) -> &'static str {
        self.definition().doc
    }

    pub fn applies(self) -> Applies {
        self.definition().applies
    }

    pub fn history_overrules(self) -> bool {
        self.definition().history_overrules
    }

    pub fn stale_if_history_knows(self) -> bool {
        self.definition().stale_if_history_knows
    }

    /// The registry as `recount explain stale-path-cite` lists it: each
    /// exemption's id, where it applies and whether the history overrules it,
    /// then its documentation, wrapped.
    pub fn explain_list() -> String {
        let mut text = String::new();
        for e in Exemption::ALL {
            let applies = e.applies().as_str();
            let history = if e.history_overrules() {
                "the history overrules it"
            } else {
                "the history does not overrule it"
            };
            let off = if e.on_by_default() {
                ""
            } else {
                "; off unless a rule file turns it on"
            };
            text.push_str(&format!("    {} ({applies}; {history}{off})\n", e.id()));
            let mut line = String::new();
            for word in e.doc().split(' ') {
                if !line.is_empty() && line.len() + word.len() > 72 {
                    text.push_str(&format!("      {line}\n"));
                    line.clear();
                }
                if !line.is_empty() {
                    line.push(' ');
                }
                line.push_str(word);
            }
            if !line.is_empty() {
                text.push_str(&format!("      {line}\n"));
            }
        }
        text
    }

    /// The exemptions a backticked path (`link` false) or a link target is
    /// tried against, in precedence order.
    fn chain(link: bool) -> impl Iterator<Item = Exemption> {
        Exemption::ALL.iter().copied().filter(move |e| {
            matches!(
                (e.applies(), link),
                (Applies::PathOrLink, _) | (Applies::Path, false) | (Applies::Link, true)
            )
        })
    }
}

impl ExemptionSettings {
    /// The first exemption of the chain that is on and fires for `probe`.
    pub(super) fn first(&self, probe: &Probe<'_>, link: bool) -> Option<(Exemption, String)> {
        Exemption::chain(link)
            .filter(|e| self.is_on(*e))
            .find_map(|e| Some((e, (e.definition().fires?)(probe)?)))
    }
}

/// The sentence around `at` that a cue is looked for in, lowercased: from the
/// sentence's start (an "e.g." before it counted in) to its end, at most a few
/// hundred characters on.
pub(super) fn sentence_around(text: &str, at: usize) -> Option<String> {
    let mut start = super::find::sentence_start(text, at);
    // "(e.g. `x.rs`)": the abbreviation's full stop is not a sentence's end.
    let before = text.get(..start).unwrap_or_default();
    if let Some(abbreviation) = ["e.g.", "i.e.", "etc."].iter().find(|a| {
        before
            .get(before.len().saturating_sub(a.len())..)
            .is_some_and(|tail| tail.eq_ignore_ascii_case(a))
    }) {
        start -= abbreviation.len();
    }
    // A sentence ends within a few hundred characters; looking further would
    // make every cite of a long record read the rest of it.
    let mut limit = (at + 600).min(text.len());
    while !text.is_char_boundary(limit) {
        limit -= 1;
    }
    let rest = text.get(at..limit)?;
    let end = rest
        .find(". ")
        .into_iter()
        .chain(rest.find(".\n"))
        .chain(rest.find("\n\n"))
        .min()
        .map_or(limit, |i| at + i);
    Some(text.get(start..end)?.to_ascii_lowercase())
}

/// A word list kept as data: one phrase a line, `#` comments and blank
/// lines ignored, a trailing `␠` kept (`your ` is a word's start).
pub(super) fn word_list(data: &'static str) -> impl Iterator<Item = String> {
    data.lines()
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|l| l.replace('␠', " "))
}

/// The first phrase of a word list (and the rule file's additions) the
/// sentence around `at` holds.
pub(super) fn cue_in(
    probe: &Probe<'_>,
    exemption: Exemption,
    data: &'static str,
) -> Option<String> {
    let sentence = sentence_around(probe.context.text, probe.context.at)?;
    word_list(data)
        .chain(probe.context.exemptions.words(exemption).iter().cloned())
        .find(|cue| sentence.contains(cue.as_str()))
}

/// The first phrase of a word list that the sentence around a text's first
/// backtick holds: the word-list exemptions' cases, without a frame.
#[cfg(test)]
pub(super) fn first_cue(text: &str, data: &'static str) -> Option<String> {
    let sentence = sentence_around(text, text.find('`')?)?;
    word_list(data).find(|w| sentence.contains(w.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_exemption_has_a_unique_kebab_case_id_and_a_doc() {
        let mut seen = std::collections::BTreeSet::new();
        for e in Exemption::ALL {
            let id = e.id();
            assert!(seen.insert(id), "{id} twice");
            assert!(
                id.bytes().all(|b| b.is_ascii_lowercase() || b == b'-'),
                "{id}"
            );
            assert!(e.doc().len() > 40, "{id} needs its doc");
            assert_eq!(Exemption::from_id(id), Some(*e));
            // A chain member has a test that fires it; nothing else has one.
            let chained = matches!(
                e.applies(),
                Applies::Path | Applies::Link | Applies::PathOrLink
            );
            assert_eq!(chained, e.definition().fires.is_some(), "{id}");
        }
    }

    #[test]
    fn word_lists_keep_a_marked_trailing_space() {
        let words: Vec<String> = word_list("# a comment\nyour␠\n\nsuch as\n").collect();
        assert_eq!(words, ["your ", "such as"]);
    }
}
