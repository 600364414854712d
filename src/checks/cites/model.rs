//! Stage 4, the citation family's model: what a resolved citation is, as
//! data for the checks, the evidence and `recount cites`. It imports nothing
//! else of the family, so every resolver, exemption and evidence module can
//! stand on it without an import running back up.

use std::collections::BTreeMap;
use std::ops::Range;

use serde::Serialize;

/// What a citation names, as data for the checks and `recount cites`.
#[derive(Debug, Clone, Serialize)]
pub struct ResolvedCite {
    pub record: String,
    #[serde(skip)]
    pub span: Range<usize>,
    /// `test`, `line` or `path`.
    pub kind: CiteClass,
    /// The citation as recount read it.
    pub text: String,
    /// Where it was resolved: `working tree` or a frame commit.
    pub frame: String,
    /// What set that frame when it is not the audited tree: the record's
    /// declaration ("section marker at line 11"), a release's tag, a link's ref.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub frame_from: Option<String>,
    pub status: CiteStatus,
    /// Cited explicitly, or inferred from a backticked path.
    pub tier: Tier,
    /// For a line cite, the index of the `[[cites.expect]]` entry that applied.
    #[serde(skip)]
    pub expect: Option<usize>,
    /// A skipped cite that is stale after all — with this reason — when the
    /// history behind the snapshot says the path was once one of its own.
    #[serde(skip)]
    pub stale_if_history_knows: Option<String>,
    /// For a line cite that resolved: the file and lines it names, which the
    /// history evidence holds to what they held when the record cited them.
    #[serde(skip)]
    pub lines: Option<LineTarget>,
    /// Whether the history's evidence decided its status (what became of a
    /// path is then said already).
    #[serde(skip)]
    pub evidenced: bool,
    /// The evidence found it held when the record wrote it (the writing
    /// commit, short) and broke since: what a page read as of its writing
    /// (`snapshot-page`, `superseded-record`) is held to.
    #[serde(skip)]
    pub held_when_written: Option<String>,
    /// The page and anchor a link's `#fragment` named, when the page is there
    /// and the anchor is not.
    #[serde(skip)]
    pub anchor: Option<AnchorTarget>,
    /// The file, scope and name of a test cite whose file lacks the test.
    #[serde(skip)]
    pub test: Option<TestTarget>,
    /// A test cite whose file is not in the tree at all (what the evidence
    /// asks the history about), as the resolver found it.
    #[serde(skip)]
    pub test_file_missing: bool,
    /// A link's destination as written (its span is the link's text): what
    /// the commit that wrote the cite wrote.
    #[serde(skip)]
    pub destination: Option<String>,
    /// For a Python role's object not found: what the evidence asks of it.
    #[serde(skip)]
    pub objects: Option<AskedObject>,
    /// For a `:ref:` label no page defines: the label (normalised).
    #[serde(skip)]
    pub label: Option<String>,
    /// A Sphinx document reference (`:doc:`, a toctree entry), which recount
    /// reads as the link to the page Sphinx builds: its finding names the
    /// document as written, and suggests one.
    #[serde(skip)]
    pub document: bool,
    /// The tree proves what the path means, whatever the history had: for
    /// one that names nothing, the same module in the language's other file
    /// layout (stale, never `never-resolved`); for one resolved, the file
    /// the page's renderer reads (Hugo's mounts), not a namesake.
    #[serde(skip)]
    pub proven: bool,
    /// Where else the history looks for the path: the file a path under a
    /// reader's copy names in the copy's source.
    #[serde(skip)]
    pub copied_from: Option<String>,
    /// Where the finding points when not at the cite's start: the part of the
    /// record its suggestion replaces (a literalinclude's `:lines:` option).
    #[serde(skip)]
    pub located: Option<std::ops::Range<usize>>,
    /// The record is release notes (a changelog, one release's page): its
    /// entries say what their release was, never rewritten to today.
    #[serde(skip)]
    pub release_notes: bool,
    /// The automation account (a `[bot]`) whose commit wrote the cite into
    /// its record, and that commit, short: a translation sync or a
    /// generator's output, mended where the account reads it from.
    #[serde(skip)]
    pub written_by_automation: Option<(String, String)>,
    /// The generator a configuration of the tree says writes the record
    /// (OpenAPI Generator's stamp, a `buf.gen.yaml` output): mended in the
    /// generator, never in the page.
    #[serde(skip)]
    pub generated_by: Option<String>,
    /// The path of the tree (from the root) a stale path's rename was
    /// followed from: what the cite named when it was written, which says
    /// from which base the record wrote it.
    #[serde(skip)]
    pub renamed_from: Option<String>,
    /// The cite's path named several files of the tree, and the likeliest
    /// was read: its suggestion is no edit.
    #[serde(skip)]
    pub chosen_among: bool,
    /// The site generator that builds the record's page, when the link as
    /// written lands inside its site and its suggestion would not, or when
    /// it reads links as addresses only (Astro): the edit would make a dead
    /// link on the site.
    #[serde(skip)]
    pub leaves_site: Option<&'static str>,
    /// For a link to the repository's own hosted page: the ref it names
    /// when that is read as the default branch only by its usual name
    /// ([`super::hosted::OwnLinks::read_as_default`]).
    #[serde(skip)]
    pub ref_assumed: Option<String>,
    /// The earlier release whose notes hold a cross-reference read in
    /// today's build: one that never resolved there is history, not drift.
    #[serde(skip)]
    pub earlier_notes: Option<String>,
    /// Written at or before the oldest commit a shallow clone holds: what
    /// it named when written is beyond the history at hand.
    #[serde(skip)]
    pub history_cut_short: bool,
}

/// A Python role's object the resolver did not find, as the evidence asks
/// the history about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AskedObject {
    /// The dotted names it may mean, the written one last.
    pub names: Vec<String>,
    /// What the role says the object is: a module (`:mod:`), a name a module
    /// defines (`:func:`, `:class:`, `:attr:`, …), or either (`:obj:`).
    pub role: ObjectRole,
    /// Under none of today's packages (set aside as another project's): the
    /// history must show the package was this project's and went whole.
    pub package_gone: bool,
    /// Where the tree imports it from another project, when it does
    /// (`src/quart/json/provider.py: JSONProvider, imported from
    /// `flask.json.provider.JSONProvider``).
    pub imported_from: Option<String>,
    /// A base of its class that another project defines, when the class has
    /// one (the member may be that base's now).
    pub inherits: Option<String>,
}

/// What a Python role names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ObjectRole {
    Module,
    Name,
    Either,
}

impl ObjectRole {
    /// The kind of object a Sphinx role (`mod`, `func`, `obj`, …) names.
    pub fn of(role: &str) -> ObjectRole {
        match role {
            "mod" => ObjectRole::Module,
            "obj" => ObjectRole::Either,
            _ => ObjectRole::Name,
        }
    }
}

/// A test file a cite names and the test it asks of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TestTarget {
    pub file: String,
    /// The class (Python) or module path (Rust) the cite names.
    pub scope: Option<String>,
    pub name: String,
    pub language: TestLanguage,
}

/// The language a test file is read as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TestLanguage {
    Python,
    Rust,
}

impl TestLanguage {
    /// The language a test file is written in, by its extension.
    pub fn of_path(path: &str) -> Option<TestLanguage> {
        if path.ends_with(".py") {
            Some(TestLanguage::Python)
        } else if path.ends_with(".rs") {
            Some(TestLanguage::Rust)
        } else {
            None
        }
    }
}

/// A page a link names and the anchor it asks of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnchorTarget {
    pub file: String,
    pub fragment: String,
    /// The site the link is followed on, when its anchors are held to that
    /// site's own slugs.
    pub slugger: Option<Slugger>,
}

/// The renderer a link is followed on, when it is one whose anchors recount
/// holds links to exactly (its slugs, not any site's spelling).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slugger {
    /// VitePress (markdown-it-anchor with its own `slugify`).
    VitePress,
}

/// The lines a line cite resolved to in the audited tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineTarget {
    pub file: String,
    pub start: usize,
    pub end: usize,
}

/// How surely a record means a citation: explicitly (a link target, a test
/// node id, a line cite), or as recount reads a backticked path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Tier {
    Explicit,
    Inferred,
}

/// How a citation fared.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "status", rename_all = "kebab-case")]
pub enum CiteStatus {
    /// It names something that exists: `resolved` says what.
    Ok { resolved: String },
    /// The record marks it as history ("renamed from"): not checked.
    Historical,
    /// It sits under a frame that does not resolve: not checked.
    Unverified { why: String },
    /// recount read it as a path but it is not one of this repository's (a
    /// reader's file, a build output, a name that only looks like a path): not
    /// a finding; `recount cites` lists it with the reason.
    Skipped { exemption: Exemption, why: String },
    /// It names something that does not exist (any more).
    Stale {
        why: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        suggestion: Option<String>,
        /// The suggestion is a guess (the nearest name), not what the tree
        /// or the history proves: a did-you-mean, never offered as a fix.
        #[serde(skip)]
        guessed: bool,
    },
}

/// How an [`CiteStatus::Unverified`] reason starts when a file the citation
/// needed was over its read cap.
pub const NOT_READ: &str = "not read: ";

impl CiteStatus {
    /// The path an `Ok` status resolved to, without the note that may
    /// follow it (`site/x.md (from site/y.md, which includes this page)`).
    pub fn resolved_path(resolved: &str) -> &str {
        resolved.split(" (").next().unwrap_or(resolved)
    }
    /// Set aside by an exemption, with its reason.
    pub fn skipped(exemption: Exemption, why: impl Into<String>) -> CiteStatus {
        CiteStatus::Skipped {
            exemption,
            why: why.into(),
        }
    }

    /// Stale, with no suggestion.
    pub fn stale(why: impl Into<String>) -> CiteStatus {
        CiteStatus::Stale {
            why: why.into(),
            suggestion: None,
            guessed: false,
        }
    }

    /// A stale status's reason, suggestion and whether that is a guess, to
    /// be added to by the evidence; `None` for any other status.
    pub fn stale_mut(&mut self) -> Option<(&mut String, &mut Option<String>, &mut bool)> {
        match self {
            CiteStatus::Stale {
                why,
                suggestion,
                guessed,
            } => Some((why, suggestion, guessed)),
            _ => None,
        }
    }

    /// Whether an exemption set it aside.
    pub fn skipped_by(&self, exemption: Exemption) -> bool {
        matches!(self, CiteStatus::Skipped { exemption: e, .. } if *e == exemption)
    }
}

/// What a citation names, as the checks and `recount cites` sort them: one
/// check per class.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum CiteClass {
    /// A test (or an item of a test file): `stale-test-cite`.
    Test,
    /// Lines of a file: `stale-line-cite`.
    Line,
    /// A path or a link, with its anchor: `stale-path-cite`.
    Path,
}

impl CiteClass {
    pub fn as_str(self) -> &'static str {
        match self {
            CiteClass::Test => "test",
            CiteClass::Line => "line",
            CiteClass::Path => "path",
        }
    }
}

macro_rules! exemption_ids {
    ($($variant:ident = $id:literal),* $(,)?) => {
        /// Every exemption, by its stable id, in precedence order: a path or
        /// link that names nothing here is tried against each of its kind in
        /// this order. What each one decides, and how, is its own file under
        /// `exemptions/`; the registry there maps each variant to it.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Exemption {
            $($variant),*
        }

        impl Exemption {
            /// Every exemption, in precedence order.
            pub const ALL: &'static [Exemption] = &[$(Exemption::$variant),*];

            /// The stable kebab-case id (`reader-cue`) the JSON, the rule
            /// file and the documentation use.
            pub fn id(self) -> &'static str {
                match self {
                    $(Exemption::$variant => $id),*
                }
            }
        }
    };
}

exemption_ids! {
    TestMaterial = "test-material",
    Vendored = "vendored",
    TranslationPlatform = "translation-platform",
    FrozenDocs = "frozen-docs",
    CopiedRecord = "copied-record",
    EarlierRelease = "earlier-release",
    OutsideCheckout = "outside-checkout",
    LinkText = "link-text",
    Gitignored = "gitignored",
    ChangelogRemoval = "changelog-removal",
    NewsFragment = "news-fragment",
    OtherRepository = "other-repository",
    DeclaredRepository = "declared-repository",
    MadeAtRunTime = "made-at-run-time",
    ReaderCue = "reader-cue",
    Placeholder = "placeholder",
    CodeLabel = "code-label",
    TreeDiagram = "tree-diagram",
    KeptEmpty = "kept-empty",
    AmbiguousName = "ambiguous-name",
    BareName = "bare-name",
    UnknownFolder = "unknown-folder",
    UnknownRoot = "unknown-root",
    NotAPath = "not-a-path",
    BuiltPage = "built-page",
    TranslationFallback = "translation-fallback",
    ForeignRoot = "foreign-root",
    SiteRoute = "site-route",
    SiteAsset = "site-asset",
    CrossReference = "cross-reference",
    ForeignLine = "foreign-line",
    ModuleName = "module-name",
    Intersphinx = "intersphinx",
    LabelElsewhere = "label-elsewhere",
    ExampleCode = "example-code",
    UnresolvedObject = "unresolved-object",
    UnreadInclude = "unread-include",
    PageTitle = "page-title",
    RecurringSection = "recurring-section",
    SnapshotPage = "snapshot-page",
    SupersededRecord = "superseded-record",
    GeneratedTemplate = "generated-template",
    DecidedChange = "decided-change",
    LintSilenced = "lint-silenced",
    GeneratedPage = "generated-page",
    UnusedTarget = "unused-target",
    NeverResolved = "never-resolved",
}

/// The exemptions that apply only where a rule file turns them on (none yet:
/// every exemption is on unless a rule file turns it off).
const OFF_BY_DEFAULT: &[Exemption] = &[];

impl Exemption {
    pub fn from_id(id: &str) -> Option<Exemption> {
        Exemption::ALL.iter().copied().find(|e| e.id() == id)
    }

    /// Whether a rule file may add phrases to its word list.
    pub fn takes_words(self) -> bool {
        matches!(self, Exemption::ReaderCue | Exemption::MadeAtRunTime)
    }

    /// Whether it applies unless a rule file turns it off (`false`: only
    /// when a rule file turns it on).
    pub fn on_by_default(self) -> bool {
        !OFF_BY_DEFAULT.contains(&self)
    }
}

impl Serialize for Exemption {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.id())
    }
}

impl std::fmt::Display for Exemption {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}

/// Which exemptions a rule file turned off, and the words it added to the
/// word lists (`[cites.exemptions]`, `[cites.exemption-words]`).
#[derive(Debug, Default, Clone)]
pub struct ExemptionSettings {
    /// What the rule file said, by exemption: on or off.
    set: BTreeMap<Exemption, bool>,
    words: BTreeMap<Exemption, Vec<String>>,
}

impl ExemptionSettings {
    pub fn new(set: BTreeMap<Exemption, bool>, words: BTreeMap<Exemption, Vec<String>>) -> Self {
        ExemptionSettings { set, words }
    }

    /// Every exemption off: for a cite that names one path exactly (a link to
    /// the repository's own hosted page), where nothing read from prose or the
    /// tree's shape decides whether it is a path of this tree.
    pub fn none() -> Self {
        ExemptionSettings {
            set: Exemption::ALL.iter().map(|&e| (e, false)).collect(),
            words: BTreeMap::new(),
        }
    }

    pub fn is_on(&self, exemption: Exemption) -> bool {
        self.set
            .get(&exemption)
            .copied()
            .unwrap_or_else(|| exemption.on_by_default())
    }

    /// Asks one exemption at the point its resolver decides it: when the rule
    /// file left it on and its own predicate (`fires`, in its file) fires,
    /// the cite is set aside with that reason. The registry's one call for
    /// the exemptions that apply where their resolver decides.
    pub fn ask(
        &self,
        exemption: Exemption,
        fires: impl FnOnce() -> Option<String>,
    ) -> Option<CiteStatus> {
        if !self.is_on(exemption) {
            return None;
        }
        fires().map(|why| CiteStatus::skipped(exemption, why))
    }

    /// The words the rule file added to an exemption's list, lowercased.
    pub fn words(&self, exemption: Exemption) -> &[String] {
        self.words.get(&exemption).map_or(&[], Vec::as_slice)
    }
}
