//! The anchors a cited page offers: the resolve stage reads them to check a
//! link's `#fragment` — a heading of a Markdown page (`a.md#some-heading`,
//! GitHub's slugs), an explicit `{#id}` or HTML `id`/`name`, or a line range
//! of any other file (`a.rs#L10-L20`).

use std::collections::BTreeSet;
use std::sync::OnceLock;

use pulldown_cmark::{CodeBlockKind, Event, Options, Parser, Tag, TagEnd};
use regex::Regex;

/// What a link's fragment names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fragment {
    /// `#L10`, `#L10-L20` (GitHub's line anchors; `C` columns ignored).
    Lines { start: usize, end: usize },
    /// A literalinclude's `:pyobject:` (`#pyobject=Cls.meth`): a definition
    /// the file must hold.
    PyObject(String),
    /// A literalinclude's `:start-after:`/`:end-before:` markers
    /// (`#start-after=…&end-before=…`, each value escaped): text the file must
    /// hold, the end after the start.
    Markers {
        start_after: Option<String>,
        end_before: Option<String>,
    },
    /// Any other fragment: a heading's slug or an element's id.
    Anchor(String),
}

impl Fragment {
    pub fn parse(fragment: &str) -> Fragment {
        static LINES: OnceLock<Regex> = OnceLock::new();
        let lines = LINES.get_or_init(|| {
            Regex::new(r"^L([0-9]{1,19})(?:C[0-9]+)?(?:-L([0-9]{1,19})(?:C[0-9]+)?)?$")
                .unwrap_or_else(|_| unreachable!("a fixed pattern"))
        });
        if let Some(caps) = lines.captures(fragment) {
            let number = |i: usize| caps.get(i).and_then(|m| m.as_str().parse::<usize>().ok());
            if let Some(start) = number(1) {
                return Fragment::Lines {
                    start,
                    end: number(2).unwrap_or(start).max(start),
                };
            }
        }
        if let Some(object) = fragment.strip_prefix("pyobject=") {
            if let Some(object) = crate::checks::cites::locate::percent_decoded(object) {
                return Fragment::PyObject(object);
            }
        }
        if fragment.starts_with("start-after=") || fragment.starts_with("end-before=") {
            let mut start_after = None;
            let mut end_before = None;
            for part in fragment.split('&') {
                let value = |v: &str| crate::checks::cites::locate::percent_decoded(v);
                if let Some(v) = part.strip_prefix("start-after=") {
                    start_after = value(v);
                } else if let Some(v) = part.strip_prefix("end-before=") {
                    end_before = value(v);
                }
            }
            return Fragment::Markers {
                start_after,
                end_before,
            };
        }
        Fragment::Anchor(fragment.to_owned())
    }
}

/// The anchors of one Markdown page.
#[derive(Debug, Default)]
pub struct PageAnchors {
    /// Slugs and ids exactly as a renderer makes them.
    exact: BTreeSet<String>,
    /// The same with everything but letters and digits dropped: site
    /// generators differ from GitHub in how they treat `_`, `.` and repeated
    /// hyphens, and a link written for either must not be reported.
    loose: BTreeSet<String>,
    /// Its ids are docutils' (a reStructuredText page, whichever of Sphinx
    /// or the forge renders it): made one way only, so a fragment names one
    /// exactly or not at all (`#project_code` misses `project-code`).
    docutils_ids: bool,
    /// The loose forms of its ids made from names with letters beyond
    /// ASCII, which docutils folds to ASCII (`VM’s` is `vms`, `é` is `e`)
    /// in ways not repeated here: matched loosely still.
    docutils_unsure: BTreeSet<String>,
    /// The page pulls text in from elsewhere (an include, a template): a
    /// heading not seen here may still be on the rendered page.
    pub includes_text: bool,
    /// The files its includes name, as written (`--8<-- "x.md"`, mdBook's
    /// `{{#include x.md}}`, VitePress' `<!--@include: x.md-->`,
    /// markdown-include's `{!x.md!}`): text that can
    /// be read and searched for the heading.
    pub included: Vec<String>,
    /// Text pulled in some other way (a template's `{{ … }}`, `{% … %}`, a
    /// component's `:::`): what it renders cannot be read here.
    pub opaque: bool,
    /// Each heading's words and anchor, in page order: what the history
    /// compares to say what a heading became.
    pub headings: Vec<(String, String)>,
    /// The anchor of the title the page opens with (a first-level heading
    /// with nothing but front matter, comments or a logo above it; an rst
    /// page's first section title): a link to it opens the page at its top.
    pub top: Option<String>,
    /// The modules its `.. automodule::` directives document, whose
    /// docstrings' sections autodoc renders into the page.
    pub automodules: Vec<String>,
    /// The title its front matter gives (`title: …`), which site generators
    /// show at the top of the page, slugged.
    pub matter_title: Option<String>,
    /// The ids the page sets itself (`{#x}`, `id="x"`, a heading's
    /// `{#custom}`) and those its syntax makes (footnotes, tabs): every
    /// renderer that reads that syntax gives them as written.
    explicit: BTreeSet<String>,
    /// Its headings' anchors as VitePress slugs them, repeats numbered.
    vitepress: BTreeSet<String>,
    /// The starts of ids a component renders for the members it lists
    /// (`mutationresult-interface` for `mutationresult-interface-reset`):
    /// any id of the start, a `-`, and more is the component's.
    component_prefixes: BTreeSet<String>,
    /// Names an autodoc directive documents as written on the page
    /// (`logging.get_verbosity`): an id that is one, qualified by its
    /// package, is the directive's.
    object_ends: BTreeSet<String>,
    /// The objects mkdocstrings' `::: pkg.mod.Class` documents, lowercased:
    /// it renders each member under the id of its full name
    /// (`pkg.mod.class.get_fields`), so an id that continues one by a `.`
    /// and a name is the directive's.
    documented_objects: BTreeSet<String>,
    /// The loose forms of the headings with letters beyond ASCII, whose
    /// accents VitePress strips after a Unicode decomposition not done here.
    vitepress_unsure: BTreeSet<String>,
}

use super::model::Slugger;

/// Whether a fenced block's info string asks the site to run it as it
/// builds and render its output (markdown-exec's `exec="on"`, `exec="true"`,
/// `exec="1"`).
fn runs_at_build(info: &str) -> bool {
    info.split_whitespace().any(|attribute| {
        let Some(value) = attribute.strip_prefix("exec=") else {
            return false;
        };
        let value = value.trim_matches(['"', '\'']).to_ascii_lowercase();
        matches!(value.as_str(), "on" | "true" | "1" | "yes")
    })
}

impl PageAnchors {
    /// The anchors of the page at `path`: a reStructuredText page's as Sphinx
    /// makes them, any other's as a Markdown renderer does.
    pub fn of_page(path: &str, text: &str) -> PageAnchors {
        // A page rendered from a template (`envvars.rst.jinja2`): what it
        // renders, and the ids it gets, cannot be read here.
        if [".jinja2", ".jinja", ".j2"]
            .iter()
            .any(|t| path.ends_with(t))
        {
            let mut anchors = PageAnchors::of_rst(text);
            anchors.includes_text = true;
            anchors.opaque = true;
            return anchors;
        }
        if crate::records::rst::is_rst(path) {
            PageAnchors::of_rst(text)
        } else {
            PageAnchors::of_markdown(text)
        }
    }

    /// A reStructuredText page's anchors, as docutils makes ids: each section
    /// title's, and each explicit target's (`.. _label:`), lower-cased with
    /// every run of other characters one `-`.
    pub fn of_rst(text: &str) -> PageAnchors {
        let mut anchors = PageAnchors {
            docutils_ids: true,
            ..PageAnchors::default()
        };
        let structure = crate::records::rst::parse(text);
        for heading in &structure.headings {
            let Some(raw) = text.get(heading.range.clone()) else {
                continue;
            };
            let adornment = |line: &str| {
                let line = line.trim();
                line.len() >= 2
                    && line.chars().all(|c| c.is_ascii_punctuation())
                    && line.chars().all(|c| line.starts_with(c))
            };
            let Some(title) = raw.lines().find(|l| !adornment(l) && !l.trim().is_empty()) else {
                continue;
            };
            let words = title.trim().replace("``", "");
            let id = docutils_make_id(&words);
            if !words.is_ascii() {
                anchors.docutils_unsure.insert(loose(&words));
                anchors.add(docutils_make_id(
                    &words.replace(|c: char| !c.is_ascii(), ""),
                ));
            }
            if anchors.headings.is_empty() && opens_rst_page(text, heading.range.start) {
                anchors.top = Some(id.clone());
            }
            anchors.headings.push((words, id.clone()));
            anchors.add(id);
        }
        // Explicit targets (`.. _label:`), and any directive's `:name:`
        // option, which names its element with that id whichever extension
        // defines the directive (`.. dropdown:: Julian Hall` /
        // `:name: speaker-julian-hall`).
        static TARGETS: OnceLock<Regex> = OnceLock::new();
        let targets = TARGETS.get_or_init(|| {
            Regex::new(r"(?m)^[ \t]*\.\. _`?([^`:\n][^`:\n]*)`?:[ \t]*$|^[ \t]+:name:[ \t]*(\S[^\n]*?)[ \t]*$")
                .unwrap_or_else(|_| unreachable!("a fixed pattern"))
        });
        for caps in targets.captures_iter(text) {
            if let Some(name) = caps.get(1).or_else(|| caps.get(2)) {
                let name = name.as_str();
                if !name.is_ascii() {
                    anchors.docutils_unsure.insert(loose(name));
                }
                anchors.add(docutils_make_id(name));
            }
        }
        // An included file's text is the page's too; its name is read as
        // written, relative to the page.
        static INCLUDES: OnceLock<Regex> = OnceLock::new();
        let includes = INCLUDES.get_or_init(|| {
            Regex::new(r"(?m)^[ \t]*\.\. include::[ \t]*(\S+)")
                .unwrap_or_else(|_| unreachable!("a fixed pattern"))
        });
        anchors.set_included(
            includes
                .captures_iter(text)
                .filter_map(|caps| caps.get(1))
                .map(|path| path.as_str()),
        );
        anchors.includes_text = !anchors.included.is_empty();
        // A module's directive gives the page the module's id as Sphinx
        // writes it (`module-pkg.sub`, dots and all); autodoc's also renders
        // the module's docstring, whose sections are read where the module
        // is (`resolve/fragments.rs`).
        static MODULES: OnceLock<Regex> = OnceLock::new();
        let modules = MODULES.get_or_init(|| {
            Regex::new(r"(?m)^[ \t]*\.\. (auto)?(?:py:)?module::[ \t]*([A-Za-z_][\w.]*)[ \t]*$")
                .unwrap_or_else(|_| unreachable!("a fixed pattern"))
        });
        for caps in modules.captures_iter(text) {
            let name = caps[2].to_owned();
            anchors.exact.insert(format!("module-{name}"));
            anchors.explicit.insert(format!("module-{name}"));
            if caps.get(1).is_some() {
                anchors.automodules.push(name);
            }
        }
        // A directive no docutils or Sphinx builder defines is an
        // extension's (`.. argparse::`, `.. click::`, `.. openapi::`): the
        // sections and ids it writes into the page cannot be read here.
        static DIRECTIVES: OnceLock<Regex> = OnceLock::new();
        let directives = DIRECTIVES.get_or_init(|| {
            Regex::new(r"(?m)^[ \t]*\.\. ([A-Za-z][A-Za-z0-9_:-]*)::")
                .unwrap_or_else(|_| unreachable!("a fixed pattern"))
        });
        if directives
            .captures_iter(text)
            .filter_map(|caps| caps.get(1))
            .any(|name| !is_core_directive(name.as_str()))
        {
            anchors.includes_text = true;
            anchors.opaque = true;
        }
        anchors
    }

    /// Whether a link to `fragment` opens this page at its top: the anchor
    /// of the title it opens with.
    /// Whether `fragment` is the anchor of the title the page opens with.
    pub fn is_top(&self, fragment: &str) -> bool {
        self.top
            .as_deref()
            .is_some_and(|top| top.eq_ignore_ascii_case(fragment))
    }

    /// Whether a link to `fragment` names the page's title: its anchor, or
    /// a fragment whose words open or close the title's ("#table-of-contents"
    /// for "Cozy-Stack documentation - Table of contents") names it too.
    pub fn names_top(&self, fragment: &str) -> bool {
        let words = |slug: &str| -> Vec<String> {
            slug.split(|c: char| !c.is_alphanumeric())
                .filter(|w| !w.is_empty())
                .map(str::to_lowercase)
                .collect()
        };
        let cited = words(fragment);
        !cited.is_empty()
            && [&self.top, &self.matter_title]
                .into_iter()
                .flatten()
                .any(|title| {
                    let title = words(title);
                    title.starts_with(&cited) || title.ends_with(&cited)
                })
    }

    pub fn of_markdown(text: &str) -> PageAnchors {
        let mut anchors = PageAnchors::default();
        let mut seen: std::collections::BTreeMap<String, usize> = Default::default();
        let mut seen_vitepress: std::collections::BTreeMap<String, usize> = Default::default();
        let mut heading: Option<(String, Option<String>)> = None;
        let mut level = 0usize;
        let mut in_image = 0usize;
        // The headings above the current one: (level, words).
        let mut outline: Vec<(usize, String)> = Vec::new();
        // A definition list's term: mdBook (0.5 on) gives each an id, as it
        // slugs a heading (a glossary's `#attached`); GitHub renders no such
        // list, so the term is an anchor only as the site generators read one.
        let mut term: Option<String> = None;
        // A list item that opens with inline code (`- `-out=FILENAME` - …`):
        // HashiCorp's documentation sites give it an anchor of its own
        // (`#out-filename`), which the docs their projects forked keep linking.
        let mut item_opens = false;
        // Whether anything a reader sees as text came before the current
        // heading (a logo or a comment does not; a paragraph does).
        let mut text_above = false;
        let mut opens_page = false;
        // The brace block glued to the current heading's last word, read
        // as its text.
        let mut glued: Option<&str> = None;
        let options = Options::ENABLE_TABLES
            | Options::ENABLE_HEADING_ATTRIBUTES
            | Options::ENABLE_DEFINITION_LIST;
        let (parsed, matter) = crate::records::markdown::parse_text(text);
        anchors.matter_title = matter
            .and_then(|range| text.get(range))
            .and_then(front_matter_title)
            .map(|title| github_slug(&title));
        let text: &str = &parsed;
        // What the page says outside code: a template's `{{ name }}` shown in a
        // code block or inline code is an example, not something rendered.
        let mut outside_code = String::new();
        let mut in_code = 0usize;
        // A block the site runs as it builds and whose output it renders
        // (markdown-exec's ```` ```python exec="on" ````): text, headings
        // included, that no source holds.
        let mut executed = false;
        for (event, place) in Parser::new_ext(text, options).into_offset_iter() {
            match &event {
                Event::Start(Tag::CodeBlock(kind)) => {
                    in_code += 1;
                    if let CodeBlockKind::Fenced(info) = kind {
                        executed |= runs_at_build(info);
                    }
                }
                Event::End(TagEnd::CodeBlock) => in_code = in_code.saturating_sub(1),
                // One paragraph comes in several text events (the parser splits
                // at `<`, `[`, …): its lines end only at breaks and block ends.
                Event::Text(t) | Event::Html(t) | Event::InlineHtml(t) if in_code == 0 => {
                    outside_code.push_str(t);
                }
                Event::SoftBreak | Event::HardBreak | Event::End(_) => outside_code.push('\n'),
                _ => {}
            }
            match &event {
                Event::Start(Tag::Item) => item_opens = true,
                Event::Start(Tag::Paragraph) => {}
                Event::Code(code) if item_opens => {
                    item_opens = false;
                    let id = docutils_id(code);
                    if !id.is_empty() {
                        anchors.loose.insert(loose(&id));
                    }
                }
                _ => item_opens = false,
            }
            match event {
                Event::Start(Tag::Heading {
                    id, level: depth, ..
                }) => {
                    // A brace block glued to the heading's last word
                    // (`##### \${IS_COLOR}`) is text to GitHub, which has no
                    // attribute lists, and to Python-Markdown, whose
                    // attr_list wants a space before it: its words are the
                    // heading's, and it sets no id.
                    glued = glued_braces(text.get(place.clone()).unwrap_or(""));
                    let id = id.as_ref().filter(|_| glued.is_none());
                    heading = Some((String::new(), id.map(|id| id.to_string())));
                    level = depth as usize;
                    opens_page = !text_above && anchors.headings.is_empty() && level == 1;
                    text_above = true;
                }
                // An image's alt text is no part of the heading's anchor: GitHub
                // slugs the rendered text, where a badge is an <img>.
                Event::Start(Tag::Image { .. }) => in_image += 1,
                Event::End(TagEnd::Image) => in_image = in_image.saturating_sub(1),
                Event::Start(Tag::DefinitionListTitle) => term = Some(String::new()),
                Event::End(TagEnd::DefinitionListTitle) => {
                    if let Some(words) = term.take() {
                        anchors.loose.insert(loose(&github_slug(&words)));
                    }
                }
                Event::Text(t) | Event::Code(t) if in_image == 0 => {
                    if let Some((words, _)) = heading.as_mut() {
                        words.push_str(&t);
                    }
                    if let Some(words) = term.as_mut() {
                        words.push_str(&t);
                    }
                }
                Event::End(TagEnd::Heading(_)) => {
                    if let Some((mut words, id)) = heading.take() {
                        words.push_str(glued.take().unwrap_or_default());
                        // Hugging Face's doc-builder gives a heading the id
                        // written after it (`## 설치 확인 [[check-installation]]`),
                        // as `{#id}` does elsewhere.
                        let (words, id) = match id {
                            Some(id) => (words, Some(id)),
                            None => match bracketed_id(&words) {
                                Some((before, id)) => (before.to_owned(), Some(id.to_owned())),
                                None => (words, None),
                            },
                        };
                        if let Some(id) = &id {
                            anchors.add(id.clone());
                        }
                        let slug = github_slug(&words);
                        let count = seen.entry(slug.clone()).or_insert(0);
                        let unique = if *count == 0 {
                            slug
                        } else {
                            format!("{slug}-{count}")
                        };
                        *count += 1;
                        // VitePress numbers its own slugs' repeats; a heading
                        // with its own id takes no slug there.
                        if id.is_none() {
                            if !words.is_ascii() {
                                anchors.vitepress_unsure.insert(loose(&words));
                            }
                            let slug = vitepress_slug(&words);
                            let count = seen_vitepress.entry(slug.clone()).or_insert(0);
                            anchors.vitepress.insert(if *count == 0 {
                                slug
                            } else {
                                format!("{slug}-{count}")
                            });
                            *count += 1;
                        }
                        let anchor = id.unwrap_or_else(|| unique.clone());
                        if opens_page {
                            anchors.top = Some(anchor.clone());
                        }
                        anchors.headings.push((words.trim().to_owned(), anchor));
                        anchors.add_slug(unique);
                        // Sites that scope a heading's anchor by the one it sits
                        // under (`#options-envPrefix`, `#query-Query-arguments`).
                        outline.retain(|(l, _)| *l < level);
                        if let Some((_, parent)) = outline.last() {
                            anchors.loose.insert(loose(&format!("{parent} {words}")));
                        }
                        outline.push((level, words));
                    }
                }
                Event::Start(Tag::HtmlBlock | Tag::MetadataBlock(_)) => {}
                Event::Start(_) => text_above = true,
                _ => {}
            }
        }
        anchors.add_ids_and_includes(text, &outside_code);
        // MyST writes its include as a directive fenced like code
        // (```` ```{include} ../CONTRIBUTING.md ````): the page's text, which
        // a one-line page that only wraps a file outside the docs is.
        let directed = directive_include_targets(text);
        if !directed.is_empty() {
            let named: Vec<String> = anchors.included.iter().cloned().chain(directed).collect();
            anchors.set_included(named.iter().map(String::as_str));
            anchors.includes_text = true;
        }
        if executed {
            anchors.includes_text = true;
            anchors.opaque = true;
        }
        anchors
    }

    /// The ids a page's HTML and attribute lists give (`id="x"`, `{#x}`), and
    /// the text its includes and templates pull in (`outside_code`: what the
    /// page says outside code).
    fn add_ids_and_includes(&mut self, text: &str, outside_code: &str) {
        static IDS: OnceLock<Regex> = OnceLock::new();
        let ids = IDS.get_or_init(|| {
            // An ASCII word edge: a Unicode `\b` sends the regex engine off its
            // DFA on any non-ASCII text (a translated page), many times slower.
            // `{#x}`, and Python-Markdown's attribute list on any element
            // (`__text__{: #text }`, `{: .note #x }`), as MkDocs renders it;
            // a Markdown escape in its id (`{#\_fn_1}`) is the character.
            Regex::new(r#"(?:(?-u:\b)id|(?-u:\b)name)\s*=\s*(?:["']([^"'<>\n]+)["']|([\w.:-]+))|\{:?\s*(?:[.\w-]+(?:=(?:"[^"\n]*"|'[^'\n]*'|[^\s}]*))?\s+)*#((?:[\w-]|\\[\w-])+)[^}\n]*\}"#)
                .unwrap_or_else(|_| unreachable!("a fixed pattern"))
        });
        for caps in ids.captures_iter(text) {
            if let Some(id) = caps.get(1).or_else(|| caps.get(2)) {
                self.add(id.as_str().to_owned());
            } else if let Some(id) = caps.get(3) {
                self.add(id.as_str().replace('\\', ""));
            }
        }
        self.add_generated(text);
        self.add_component_ids(text);
        let text = outside_code;
        self.includes_text = [
            "{{",
            "{%",
            "--8<--",
            "<!--@include",
            "<!-- include",
            ":::",
            "{!",
            "<embed",
            "${",
        ]
        .iter()
        .any(|marker| text.contains(marker));
        if self.includes_text {
            let includes = include_pattern();
            // The text with every include cut out, built in one pass.
            let (mut rest, mut from) = (String::with_capacity(text.len()), 0);
            let mut named = Vec::new();
            for caps in includes.captures_iter(text) {
                if let Some(path) = (1..=INCLUDE_GROUPS).find_map(|group| caps.get(group)) {
                    named.push(path.as_str());
                }
                if let Some(whole) = caps.get(0) {
                    rest.push_str(&text[from..whole.start()]);
                    from = whole.end();
                }
            }
            rest.push_str(&text[from..]);
            self.set_included(named.into_iter());
            self.opaque = ["{{", "{%", "<!-- include", ":::"]
                .iter()
                .any(|marker| rest.contains(marker))
                || rest.contains("--8<--");
        }
    }

    /// The ids a renderer writes into the page beyond its headings, each from
    /// the markup that makes it: a footnote's `fn:x`/`fnref:x` (MkDocs) and
    /// `fn-x`/`fnref-x` (the forge) for each `[^x]:`; pymdownx's tab ids
    /// (`__tabbed_2_1`: set 2, tab 1) for each `=== "Tab"`, counted per set.
    fn add_generated(&mut self, text: &str) {
        static FOOTNOTE: OnceLock<Regex> = OnceLock::new();
        let footnote = FOOTNOTE.get_or_init(|| {
            Regex::new(r"(?m)^[ \t]{0,3}\[\^([^\]\s]+)\]:")
                .unwrap_or_else(|_| unreachable!("a fixed pattern"))
        });
        for caps in footnote.captures_iter(text) {
            let name = &caps[1];
            for form in ["fn:", "fnref:", "fn-", "fnref-"] {
                self.add(format!("{form}{name}"));
            }
        }
        // Tabs next to each other (blank lines between them allowed) are one
        // set; any other line at the tab's indent closes it. pymdownx.tabbed
        // numbers them (`__tabbed_1_2`), or, with its `slugify` option, names
        // each by its title's slug, after the heading above it when
        // `combine_header_slug` is on (`logo-image`): the page is read
        // without its site's configuration, so every form is offered.
        let (mut sets, mut tab, mut open) = (0usize, 0usize, None::<usize>);
        let mut heading = String::new();
        for line in text.lines() {
            let indent = line.len() - line.trim_start().len();
            let trimmed = line.trim_start();
            if indent < 4 && trimmed.starts_with('#') {
                let title = trimmed.trim_start_matches('#');
                if title.starts_with([' ', '\t']) {
                    heading = github_slug(title.split(" {").next().unwrap_or(title));
                }
            }
            let title = ["=== \"", "===! \"", "===+ \""]
                .iter()
                .find_map(|opening| trimmed.strip_prefix(opening));
            if let Some(title) = title {
                if open != Some(indent) {
                    sets += 1;
                    tab = 0;
                    open = Some(indent);
                }
                tab += 1;
                self.add(format!("__tabbed_{sets}_{tab}"));
                let slug = github_slug(title.rsplit_once('"').map_or(title, |(t, _)| t));
                if !slug.is_empty() {
                    if !heading.is_empty() {
                        self.add(format!("{heading}-{slug}"));
                    }
                    self.add(slug);
                }
            } else if open.is_some_and(|at| !trimmed.is_empty() && indent <= at) {
                open = None;
            }
        }
        // mkdocstrings renders each `::: identifier` as the object's
        // documentation under an id of its name: the full one
        // (`pkg.mod.run`), and for a handler that names objects by their last
        // part (C++'s `print(format_string<T...>, T&&...)`, id `print`) that part.
        static OBJECT: OnceLock<Regex> = OnceLock::new();
        let object = OBJECT.get_or_init(|| {
            Regex::new(r"(?m)^:::[ \t]+([A-Za-z_][A-Za-z0-9_.:]*)")
                .unwrap_or_else(|_| unreachable!("a fixed pattern"))
        });
        // doc-builder's `[[autodoc]] pkg.mod.run` renders the object's
        // documentation under an id of its full name, as mkdocstrings does.
        static AUTODOC: OnceLock<Regex> = OnceLock::new();
        let autodoc = AUTODOC.get_or_init(|| {
            Regex::new(r"(?m)^[ \t]*\[\[autodoc\]\][ \t]+([A-Za-z_][A-Za-z0-9_.]*)")
                .unwrap_or_else(|_| unreachable!("a fixed pattern"))
        });
        // Its id is the object's full name as the package exports it
        // (`huggingface_hub.utils.logging.get_verbosity` for `[[autodoc]]
        // logging.get_verbosity`): any id that ends so is it.
        for caps in autodoc.captures_iter(text) {
            self.object_ends
                .insert(caps[1].trim_end_matches('.').to_lowercase());
        }
        for caps in object.captures_iter(text) {
            let name = caps[1].trim_end_matches([':', '.']);
            if name.contains('.') {
                self.documented_objects.insert(name.to_lowercase());
            }
        }
        for caps in object
            .captures_iter(text)
            .chain(autodoc.captures_iter(text))
        {
            let name = caps[1].trim_end_matches([':', '.']);
            self.add(name.to_owned());
            if let Some(last) = name.rsplit(['.', ':']).next().filter(|l| !l.is_empty()) {
                self.add(last.to_owned());
            }
        }
    }

    /// The ids an MDX page's components render from what their props name.
    /// A component (`<InterfaceDetails displayName="HttpLink.Options" />`,
    /// `<FunctionDetails canonicalReference="pkg!ApolloClient#query:member" />`)
    /// renders an API object's documentation under an id of its name, as
    /// mkdocstrings' `::: name` does: the slug of the name it is shown by
    /// (`httplinkoptions`), else of the reference's last part (`query`).
    /// A prop named
    /// for a prefix (`idPrefix="mutationresult-interface"`) starts the ids of
    /// the rows it renders, and a component that takes a heading level
    /// renders its members' ids under its name's last part
    /// (`options-fetch`). Only a prop that names what the component shows
    /// (`…Name`, `…Reference`, `…Id`), whose value is written as a name
    /// (letters, digits, `_`, `.`, `#`, `-`, after a package's `!` and
    /// before a kind's `:`), counts: a title in words, a tab's value, make
    /// no id.
    fn add_component_ids(&mut self, text: &str) {
        static ELEMENT: OnceLock<Regex> = OnceLock::new();
        let element = ELEMENT.get_or_init(|| {
            Regex::new(r#"<[A-Z][A-Za-z0-9_.]*((?:[ \t\r\n]+[A-Za-z_][A-Za-z0-9_-]*(?:[ \t]*=[ \t]*(?:\{[^{}<>]*\}|'[^'<>]*'|"[^"<>]*"))?)+)[ \t\r\n]*/?>"#)
                .unwrap_or_else(|_| unreachable!("a fixed pattern"))
        });
        static PROP: OnceLock<Regex> = OnceLock::new();
        let prop = PROP.get_or_init(|| {
            Regex::new(r#"([A-Za-z_][A-Za-z0-9_-]*)[ \t]*=[ \t]*(?:\{[ \t]*["'`]([^"'`{}]*)["'`][ \t]*\}|"([^"]*)"|'([^']*)'|\{([^{}]*)\})"#)
                .unwrap_or_else(|_| unreachable!("a fixed pattern"))
        });
        /// The most components read on a page.
        const MAX_COMPONENTS: usize = 4096;
        for attributes in element
            .captures_iter(text)
            .take(MAX_COMPONENTS)
            .filter_map(|caps| caps.get(1))
        {
            let props: Vec<(&str, &str)> = prop
                .captures_iter(attributes.as_str())
                .filter_map(|caps| {
                    let value = caps
                        .get(2)
                        .or(caps.get(3))
                        .or(caps.get(4))
                        .or(caps.get(5))?;
                    Some((caps.get(1)?.as_str(), value.as_str().trim()))
                })
                .collect();
            let heading = props
                .iter()
                .any(|(name, _)| name.to_ascii_lowercase().contains("heading"));
            // The name it is shown by (`displayName`) gives its id whole;
            // without one, the reference's last part does (`query` of
            // `ApolloClient.DocumentationTypes.query`).
            let mut shown = None;
            let mut referenced = None;
            for (name, value) in &props {
                let prop_name = name.to_ascii_lowercase();
                if prop_name.ends_with("prefix") {
                    let slug = github_slug(value);
                    if !slug.is_empty() {
                        self.component_prefixes.insert(slug);
                    }
                } else if prop_name.ends_with("name") {
                    shown = shown.or(object_name(value));
                } else if prop_name.contains("reference")
                    || prop_name.ends_with("id")
                    || prop_name == "symbol"
                {
                    referenced = referenced.or(object_name(value));
                }
            }
            let id = match (&shown, &referenced) {
                (Some(parts), _) => Some(parts.join(".")),
                (None, Some(parts)) => parts.last().map(|last| (*last).to_owned()),
                (None, None) => None,
            };
            // As the component slugs it, exactly: the loose forms that
            // stand for other renderers' slugs of a heading are no id of it
            // (`#client.refetchqueries` misses `clientrefetchqueries`).
            if let Some(id) = id.map(|id| github_slug(&id)).filter(|id| !id.is_empty()) {
                self.explicit.insert(id.clone());
                self.exact.insert(id);
            }
            if heading
                && let Some(last) = shown
                    .as_ref()
                    .or(referenced.as_ref())
                    .and_then(|p| p.last())
            {
                self.component_prefixes.insert(github_slug(last));
            }
        }
    }

    /// The files the includes name, each once however often the page
    /// includes it, in the order first named.
    fn set_included<'t>(&mut self, paths: impl Iterator<Item = &'t str>) {
        let mut seen = BTreeSet::new();
        self.included = paths
            .filter(|p| seen.insert(*p))
            .map(str::to_owned)
            .collect();
    }

    /// Takes in the anchors of a file the page includes.
    pub fn absorb(&mut self, included: &PageAnchors) {
        self.exact.extend(included.exact.iter().cloned());
        self.loose.extend(included.loose.iter().cloned());
    }

    /// An id the page gives (or its syntax makes) as written.
    fn add(&mut self, anchor: String) {
        self.explicit.insert(anchor.clone());
        self.add_slug(anchor);
    }

    /// A heading's anchor as one renderer slugs it.
    fn add_slug(&mut self, anchor: String) {
        self.loose.insert(loose(&anchor));
        self.exact.insert(anchor);
    }

    /// Whether the page offers `anchor` on the site `slugger` names: an id
    /// it gives, or a heading as that site slugs it, exactly.
    pub fn offers_on(&self, anchor: &str, slugger: Option<Slugger>) -> bool {
        match slugger {
            None => self.offers(anchor),
            Some(Slugger::VitePress) => {
                anchor.eq_ignore_ascii_case("top")
                    || self.component_made(anchor)
                    || self.explicit.contains(anchor)
                    || self.vitepress.contains(anchor)
                    || self.vitepress_unsure.iter().any(|heading| {
                        // An accented Latin letter stands for its plain
                        // letter. A letter of another script (`名`, `я`) is
                        // kept in the slug as it is, so it stands only for
                        // itself: a translated heading is no wildcard for
                        // the source page's anchor of the same length.
                        let anchor = loose(anchor);
                        heading.chars().count() == anchor.chars().count()
                            && heading.chars().zip(anchor.chars()).all(|(h, a)| {
                                h == a || (is_accented_latin(h) && a.is_ascii_alphabetic())
                            })
                    })
            }
        }
    }

    /// The anchor of this page nearest to `anchor` on the site `slugger`
    /// names, for a did-you-mean.
    pub fn nearest_on(&self, anchor: &str, slugger: Option<Slugger>) -> Option<&str> {
        let Some(Slugger::VitePress) = slugger else {
            return self.nearest(anchor);
        };
        let wanted = anchor.to_lowercase();
        self.explicit
            .iter()
            .chain(&self.vitepress)
            .filter_map(|a| Some((crate::spelling::edit_distance(&wanted, a)?, a)))
            .filter(|(d, _)| *d <= (wanted.chars().count() / 3).max(2))
            .min()
            .map(|(_, a)| a.as_str())
    }

    /// Whether the page offers `anchor`, as written or as any renderer
    /// would have slugged the same heading.
    pub fn offers(&self, anchor: &str) -> bool {
        // GitHub prefixes the ids it renders and accepts `#top` on any page.
        let anchor = anchor.strip_prefix("user-content-").unwrap_or(anchor);
        // A `.` no slugger of a site keeps (GitHub, MkDocs, Docusaurus,
        // Hugo, mdBook drop it; docutils and VitePress make it `-`): an
        // anchor with one is an id as written, never a heading's loose form
        // (`#dht.provide` for `## dht.provide`, whose id is `dhtprovide`).
        let sluggable = !anchor.contains('.') && !self.docutils_ids;
        if self.docutils_ids && self.docutils_unsure.contains(&loose(anchor)) {
            return true;
        }
        anchor.eq_ignore_ascii_case("top")
            || self.component_made(anchor)
            || self.exact.contains(anchor)
            || self.exact.contains(&anchor.to_lowercase())
            || (sluggable && self.loose.contains(&loose(anchor)))
            // `#heading-2` for the third `Heading` of a site that numbers
            // repeats differently.
            || (sluggable
                && anchor
                    .rsplit_once('-')
                    .filter(|(_, n)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
                    .is_some_and(|(base, _)| self.loose.contains(&loose(base))))
    }

    /// Whether a component of the page renders `anchor` as one of the rows
    /// it lists: a prefix it was given, a `-`, and more.
    fn component_made(&self, anchor: &str) -> bool {
        let anchor = anchor.to_lowercase();
        let member_of = |object: &String| {
            anchor
                .strip_prefix(object.as_str())
                .and_then(|rest| rest.strip_prefix('.'))
                .is_some_and(|member| {
                    !member.is_empty()
                        && member
                            .chars()
                            .all(|c| c.is_alphanumeric() || c == '_' || c == '.')
                })
        };
        if self.documented_objects.iter().any(member_of) {
            return true;
        }
        if self.object_ends.iter().any(|name| {
            anchor
                .strip_suffix(name.as_str())
                .is_some_and(|package| package.ends_with('.'))
        }) {
            return true;
        }
        anchor.split_once('-').is_some()
            && self.component_prefixes.iter().any(|prefix| {
                anchor
                    .strip_prefix(prefix.as_str())
                    .and_then(|rest| rest.strip_prefix('-'))
                    .is_some_and(|rest| !rest.is_empty())
            })
    }

    /// The anchor of this page nearest to `anchor`, for a did-you-mean.
    pub fn nearest(&self, anchor: &str) -> Option<&str> {
        let wanted = anchor.to_lowercase();
        self.exact
            .iter()
            .filter_map(|a| Some((crate::spelling::edit_distance(&wanted, a)?, a)))
            .filter(|(d, _)| *d <= (wanted.chars().count() / 3).max(2))
            .min()
            .map(|(_, a)| a.as_str())
    }
}

/// A heading's words and the id doc-builder takes from its end
/// (`Check installation [[check-installation]]`), if it ends so.
fn bracketed_id(words: &str) -> Option<(&str, &str)> {
    let trimmed = words.trim_end().strip_suffix("]]")?;
    let (before, id) = trimmed.rsplit_once("[[")?;
    let named = !id.is_empty()
        && id
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.'));
    named.then_some((before.trim_end(), id))
}

/// The parts of an API object's name a component's prop gives
/// (`HttpLink.Options`; `@apollo/client!ApolloClient#query:member(1)`, whose
/// package before `!` and kind after `:` are no part of it), if the value is
/// written as a name: at least one letter, no spaces.
fn object_name(value: &str) -> Option<Vec<&str>> {
    let name = value.rsplit_once('!').map_or(value, |(_, name)| name);
    let name = name.split(':').next().unwrap_or(name);
    let parts: Vec<&str> = name.split(['.', '#']).collect();
    let named = !name.is_empty()
        && name.len() <= 200
        && parts.iter().all(|part| {
            part.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
                && part
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        });
    named.then_some(parts)
}

/// Whether `c` is a Latin letter with a diacritic (`é`, `ł`, `ṃ`), which a
/// Unicode decomposition and the stripping of marks turn into a plain one.
fn is_accented_latin(c: char) -> bool {
    c.is_alphabetic() && matches!(c as u32, 0x00C0..=0x024F | 0x1E00..=0x1EFF)
}

/// How many groups of [`include_pattern`] name a file, one per form.
const INCLUDE_GROUPS: usize = 7;

/// An include directive and the file it names, one group a form: mkdocs'
/// snippets (`--8<-- "x.md"`, any run of dashes either side, as pymdownx
/// reads it: `---8<-- 'x.md'`), mdBook's `{{#include x.md}}`, VitePress'
/// `<!--@include: x.md-->`, markdown-include's `{!x.md!}`, dumi's
/// `<embed src="x.md"></embed>` (the forge drops the element; dumi renders
/// the file there), Liquid's (Jekyll's) `{% include x.md %}` and
/// `{% include_relative x.md %}`, and a template expression that reads a
/// Markdown file of the tree by its path (`${new
/// File("docs/include/how-to.md").text}` in a page a build fills).
fn include_pattern() -> &'static Regex {
    static INCLUDES: OnceLock<Regex> = OnceLock::new();
    INCLUDES.get_or_init(|| {
        Regex::new(
            r#"(?m)^[ \t]*-+8<-+[ \t]+["']([^"'\n]+)["']|\{\{#(?:include|rustdoc_include)[ \t]+([^\s}:]+)[^}\n]*\}\}|<!--[ \t]*@?include:[ \t]*([^\s>]+?)[ \t]*-->|\{![ \t]*([^\s!}]+)[ \t]*!\}|<embed[ \t]+src=["']([^"'#\n]+\.md)[^"'\n]*["']|\{%-?[ \t]*include(?:_relative)?[ \t]+["']?([^\s"'%}]+\.(?:md|markdown|html))["']?[^%\n]*-?%\}|\$\{[^}\n]*?["']([^"'\s}]+\.(?:md|markdown))["'][^}\n]*\}"#,
        )
        .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    })
}

/// The files a Sphinx page pulls in with an include directive, as written:
/// reStructuredText's `.. include:: path` and MyST's ```` ```{include} path ````
/// (or `:::{include} path`).
pub fn directive_include_targets(text: &str) -> Vec<String> {
    // The text each form must hold ("include" alone is a common word).
    if !text.contains("include::") && !text.contains("{include}") {
        return Vec::new();
    }
    static DIRECTIVES: OnceLock<Regex> = OnceLock::new();
    let directives = DIRECTIVES.get_or_init(|| {
        Regex::new(r"(?m)^[ \t]*(?:\.\.[ \t]+include::|(?:`{3,}|:{3,})\{include\})[ \t]*(\S+)")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    directives
        .captures_iter(text)
        .filter_map(|caps| caps.get(1))
        .map(|m| m.as_str().to_owned())
        .collect()
}

/// The files a page's include directives name, as written (code blocks and
/// all: a cheap first reading, for finding which pages include a record).
pub fn include_targets(text: &str) -> Vec<String> {
    if ![
        "--8<--",
        "{{#include",
        "{{#rustdoc_include",
        "include:",
        "{!",
        "<embed",
        "{%",
        "${",
    ]
    .iter()
    .any(|marker| text.contains(marker))
    {
        return Vec::new();
    }
    include_pattern()
        .captures_iter(text)
        .filter_map(|caps| (1..=INCLUDE_GROUPS).find_map(|group| caps.get(group)))
        .map(|m| m.as_str().to_owned())
        .collect()
}

/// The Markdown pages an MDX page imports as components (`import Partial
/// from './includes/_partial.md'`), which it renders where it uses them:
/// what Docusaurus calls partials. An import is a statement of the page's
/// own module: one shown in a fenced code block is an example, never run.
pub fn mdx_imported_pages(text: &str) -> Vec<String> {
    static IMPORT: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    if !text.contains("import ") {
        return Vec::new();
    }
    let import = IMPORT.get_or_init(|| {
        regex::Regex::new(r#"^import\s+[A-Za-z_$][\w$]*\s+from\s+["']([^"'\n]+\.mdx?)["']"#)
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    // The fence that opened the block a line is in (its character and
    // length, as CommonMark closes it: the same character, at least as many).
    let mut fence: Option<(char, usize)> = None;
    let mut pages = Vec::new();
    for line in text.lines() {
        let trimmed = line.trim_start();
        let run = |c: char| trimmed.chars().take_while(|&x| x == c).count();
        let opened = ['`', '~']
            .into_iter()
            .map(|c| (c, run(c)))
            .find(|&(_, n)| n >= 3);
        match (fence, opened) {
            (Some((c, n)), Some((d, m))) if c == d && m >= n => fence = None,
            (Some(_), _) => {}
            (None, Some(opened)) => fence = Some(opened),
            (None, None) => {
                if let Some(path) = import.captures(line).and_then(|caps| caps.get(1)) {
                    pages.push(path.as_str().to_owned());
                }
            }
        }
    }
    pages
}

/// Whether a directive is one docutils or Sphinx (with its bundled
/// extensions) defines: what it renders is known (an admonition, a code
/// block, an autodoc entry), and writes no section of its own.
/// The `title` a page's front matter gives (YAML `title: …` or TOML
/// `title = "…"`), unquoted.
fn front_matter_title(matter: &str) -> Option<String> {
    matter.lines().find_map(|line| {
        let rest = line
            .strip_prefix("title")?
            .trim_start()
            .strip_prefix([':', '='])?
            .trim();
        let title = rest.trim_matches(|c| c == '"' || c == '\'');
        (!title.is_empty()).then(|| title.to_owned())
    })
}

/// Whether the rst text before `start` holds nothing a reader sees: blank
/// lines, comments, targets and substitution definitions (`..` and what is
/// indented under it).
fn opens_rst_page(text: &str, start: usize) -> bool {
    text.get(..start).is_some_and(|above| {
        above
            .lines()
            .all(|l| l.trim().is_empty() || l.starts_with("..") || l.starts_with([' ', '\t']))
    })
}

fn is_core_directive(name: &str) -> bool {
    const CORE: &[&str] = &[
        "image",
        "figure",
        "topic",
        "sidebar",
        "line-block",
        "parsed-literal",
        "code",
        "code-block",
        "sourcecode",
        "math",
        "rubric",
        "epigraph",
        "highlights",
        "pull-quote",
        "compound",
        "container",
        "table",
        "csv-table",
        "list-table",
        "contents",
        "sectnum",
        "section-numbering",
        "header",
        "footer",
        "target-notes",
        "meta",
        "replace",
        "unicode",
        "date",
        "include",
        "literalinclude",
        "raw",
        "class",
        "role",
        "default-role",
        "title",
        "toctree",
        "index",
        "glossary",
        "productionlist",
        "only",
        "centered",
        "hlist",
        "highlight",
        "tabularcolumns",
        "module",
        "currentmodule",
        "function",
        "method",
        "attribute",
        "data",
        "exception",
        "decorator",
        "decoratormethod",
        "classmethod",
        "staticmethod",
        "property",
        "type",
        "automodule",
        "autoclass",
        "autofunction",
        "automethod",
        "autoattribute",
        "autodata",
        "autoexception",
        "autodecorator",
        "autoproperty",
        "autosummary",
        "doctest",
        "testcode",
        "testoutput",
        "testsetup",
        "testcleanup",
        "graphviz",
        "digraph",
        "graph",
        "inheritance-diagram",
        "todo",
        "todolist",
        "envvar",
        "option",
        "program",
        "describe",
        "object",
        "cmdoption",
        "default-domain",
        "tab",
        "tabs",
        "group-tab",
        "code-tab",
        "plot",
        "ipython",
        "jupyter-execute",
        "mermaid",
        "card",
        "grid",
        "grid-item",
        "grid-item-card",
        "dropdown",
        "tab-set",
        "tab-item",
        "button-link",
        "button-ref",
    ];
    // docutils matches a directive's name whatever its case (`.. Warning::`).
    let name = name.rsplit(':').next().unwrap_or(name).to_ascii_lowercase();
    crate::records::rst::ADMONITIONS.contains(&name.as_str()) || CORE.contains(&name.as_str())
}

/// The brace block that ends an ATX heading's line glued to its last word
/// (`##### \\${IS_COLOR}`, not `## Title {#id}`), which the parser took
/// for attributes: its text, braces and all.
fn glued_braces(source: &str) -> Option<&str> {
    let line = source.lines().next()?.trim_end();
    let line = line.trim_end_matches('#').trim_end();
    if !line.ends_with('}') {
        return None;
    }
    let open = line.rfind('{')?;
    let before = line[..open].chars().next_back()?;
    (!before.is_whitespace() && !line.trim_start().starts_with(|c| c != '#')).then(|| &line[open..])
}

/// GitHub's anchor for a heading: lower case, letters, digits, `-` and `_`
/// kept, spaces turned into `-`, everything else dropped.
pub fn github_slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// VitePress's anchor for a heading (its `slugify`): accents dropped, each
/// run of spaces and ASCII punctuation one `-`, none at either end, a leading
/// digit behind `_`, lower case.
pub fn vitepress_slug(heading: &str) -> String {
    const SPECIAL: &str = "~`!@#$%^&*()-_+=[]{}|\\;:\"'“”‘’<>,.?/";
    let mut slug = String::new();
    for c in heading.chars() {
        if c.is_control() || ('\u{300}'..='\u{36f}').contains(&c) {
            continue;
        }
        if c.is_whitespace() || SPECIAL.contains(c) {
            if !slug.is_empty() && !slug.ends_with('-') {
                slug.push('-');
            }
        } else {
            slug.push(c);
        }
    }
    let slug = slug.trim_end_matches('-');
    let slug = if slug.starts_with(|c: char| c.is_ascii_digit()) {
        format!("_{slug}")
    } else {
        slug.to_owned()
    };
    slug.to_lowercase()
}

fn loose(anchor: &str) -> String {
    anchor
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric())
        .collect()
}

/// docutils' id for a name: lower case, each run of characters other than
/// letters and digits one `-`, none at either end.
fn docutils_id(name: &str) -> String {
    let mut id = String::new();
    for c in name.to_lowercase().chars() {
        if c.is_alphanumeric() {
            id.push(c);
        } else if !id.is_empty() && !id.ends_with('-') {
            id.push('-');
        }
    }
    id.trim_end_matches('-').to_owned()
}

/// The id docutils gives a section title or a target: as [`docutils_id`],
/// less the digits and hyphens it starts with (`4 Enforcement Manual` is
/// `enforcement-manual`: an id begins with a letter). A name of digits
/// alone keeps them.
fn docutils_make_id(name: &str) -> String {
    let id = docutils_id(name);
    let trimmed = id.trim_start_matches(|c: char| c.is_ascii_digit() || c == '-');
    if trimmed.is_empty() {
        id
    } else {
        trimmed.to_owned()
    }
}

/// Whether a file is a page whose fragments are its headings and targets.
pub fn is_page(path: &str) -> bool {
    is_markdown(path) || crate::records::rst::is_rst(path)
}

/// Whether a file is a Markdown page.
pub fn is_markdown(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    [".md", ".markdown", ".mdx"]
        .iter()
        .any(|ext| lower.ends_with(ext))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_mdx_page_imports_its_partials() {
        let page = "---\ntitle: Soft off\n---\n\nimport Sideband from './includes/_sideband-direct.md';\nimport Tabs from '@theme/Tabs';\n\n<Sideband />\n";
        assert_eq!(mdx_imported_pages(page), ["./includes/_sideband-direct.md"]);
        assert!(mdx_imported_pages("No imports: import x from y.\n").is_empty());
        // An import shown in a code block is an example of one.
        let shown = "# Use\n\n```jsx\nimport Tip from './_tip.md';\n```\n\n~~~~\n```\nimport X from './x.md';\n~~~~\nimport Real from './_real.mdx';\n";
        assert_eq!(mdx_imported_pages(shown), ["./_real.mdx"]);
    }

    #[test]
    fn a_directive_is_core_whatever_its_case() {
        let page = PageAnchors::of_rst("Title\n=====\n\n.. Warning::\n\n   Careful.\n");
        assert!(!page.opaque && !page.includes_text, "{page:?}");
        let page = PageAnchors::of_rst("Title\n=====\n\n.. Argparse::\n   :module: x\n");
        assert!(page.opaque, "{page:?}");
    }

    #[test]
    fn dumis_embed_element_includes_its_file() {
        assert_eq!(
            include_targets("# Config\n\n<embed src=\"../.upstream/config.md#RE-/ab/\"></embed>\n"),
            ["../.upstream/config.md"]
        );
    }

    #[test]
    fn a_snippet_marker_takes_any_run_of_dashes() {
        assert_eq!(
            include_targets("# Backends\n\n---8<-- 'includes/generated_docs/backends.md'\n"),
            ["includes/generated_docs/backends.md"]
        );
    }

    #[test]
    fn every_include_form_names_its_file() {
        // A build hook's `<!-- include: x -->` (nextest's MkDocs hook) as
        // VitePress's `<!--@include: x-->`.
        let page = "--8<-- \"a.md\"\n{{#include b.md}}\n<!--@include: c.md-->\n{!./docs_src/d.md!}\n<!-- include: runner/e.md -->\n";
        assert_eq!(
            include_targets(page),
            ["a.md", "b.md", "c.md", "./docs_src/d.md", "runner/e.md"]
        );
        let anchors = PageAnchors::of_markdown("# T\n\n{!./docs_src/d.md!}\n");
        assert!(anchors.includes_text && !anchors.opaque, "{anchors:?}");
        assert_eq!(anchors.included, ["./docs_src/d.md"]);
        // A `{!` in prose with no closing `!}` includes nothing.
        assert!(include_targets("Say {!not an include").is_empty());
    }

    #[test]
    fn a_restructuredtext_page_offers_its_ids_only_as_docutils_makes_them() {
        let page =
            "Keys\n====\n\nproject_code\n~~~~~~~~~~~~\n\nThe code.\n\n.. _Other Key:\n\nText.\n";
        let anchors = PageAnchors::of_rst(page);
        assert!(anchors.offers("project-code") && anchors.offers("other-key"));
        assert!(!anchors.offers("project_code") && !anchors.offers("projectcode"));
        // A title beyond ASCII, which docutils folds: `VM’s` drops its mark.
        let folded =
            PageAnchors::of_rst("Naming\n======\n\nThe Guest VM’s Name\n-------------------\n");
        assert!(folded.offers("the-guest-vms-name"), "{folded:?}");
        // A Markdown page is read by many slugifiers: the loose form stands.
        let markdown = PageAnchors::of_markdown("## project_code\n");
        assert!(markdown.offers("project_code") && markdown.offers("project-code"));
    }

    #[test]
    fn a_module_directive_gives_the_module_id_and_autodoc_its_docstring() {
        let page = "API\n===\n\n.. automodule:: pkg.explicit_profiler\n   :members:\n\n.. py:module:: pkg.other\n";
        let anchors = PageAnchors::of_rst(page);
        assert!(
            anchors.offers("module-pkg.explicit_profiler") && anchors.offers("module-pkg.other")
        );
        assert!(!anchors.offers("module-pkg.gone"));
        assert_eq!(anchors.automodules, ["pkg.explicit_profiler"]);
    }

    #[test]
    fn a_myst_page_that_wraps_a_file_includes_its_text() {
        let page = "```{include} ../CONTRIBUTING_DOCS.md\n:relative-docs: docs/\n```\n";
        let anchors = PageAnchors::of_markdown(page);
        assert!(anchors.includes_text, "{anchors:?}");
        assert_eq!(anchors.included, ["../CONTRIBUTING_DOCS.md"]);
        // A fence of another language shows code, includes nothing.
        let shown = PageAnchors::of_markdown("```python\ninclude('x.md')\n```\n");
        assert!(!shown.includes_text && shown.included.is_empty());
    }

    #[test]
    fn rst_and_myst_include_directives_name_their_file() {
        let page = ".. include:: ../CHANGES.rst\n..  include:: two.rst\n```{include} ../../CHANGELOG.md\n```\n````{include} four.md\n````\n:::{include} part.md\n:::\n``{include}`` is a directive\nSee the include directive.\n";
        assert_eq!(
            directive_include_targets(page),
            [
                "../CHANGES.rst",
                "two.rst",
                "../../CHANGELOG.md",
                "four.md",
                "part.md"
            ]
        );
    }

    #[test]
    fn a_dot_no_slugger_keeps_makes_an_anchor_an_id_as_written() {
        let page = PageAnchors::of_markdown(
            "# API\n\n## dht.provide\n\n## v1.2.0\n\n<a id=\"peer.id\"></a>\n\n## Peers\n",
        );
        assert!(page.offers("dhtprovide"));
        assert!(!page.offers("dht.provide"));
        assert!(!page.offers("v1.2.0"));
        assert!(page.offers("v120"));
        // An id the page gives as written keeps its dot.
        assert!(page.offers("peer.id"));
    }

    #[test]
    fn a_heading_is_offered_by_its_github_slug_and_repeats_are_numbered() {
        let page = PageAnchors::of_markdown(
            "# Getting started\n\n## Install `recount` (v2)\n\n## Usage\n\n## Usage\n",
        );
        assert!(page.offers("getting-started"));
        assert!(page.offers("install-recount-v2"));
        assert!(page.offers("usage"));
        assert!(page.offers("usage-1"));
        assert!(!page.offers("uninstall"));
        assert!(page.offers("user-content-usage"));
        assert!(page.offers("top"));
        // A brace block glued to the last word is the heading's text, not
        // its attributes; one after a space still sets the id.
        let page = PageAnchors::of_markdown("##### \\${IS_COLOR}\n\n## Limits {#limits}\n");
        assert!(page.offers("is_color"));
        assert!(page.offers("limits"));
        assert!(!page.offers("limits-limits"));
    }

    #[test]
    fn explicit_ids_and_html_anchors_are_offered() {
        let page = PageAnchors::of_markdown(
            "## Limits {#limits-of-a-run}\n\n<a name=\"old-name\"></a>\n\nText <span id='x-y'>.\n\n- <a id=note1></a>**Note 1**\n",
        );
        assert!(page.offers("limits-of-a-run"));
        assert!(page.offers("old-name"));
        assert!(page.offers("x-y"));
        assert!(page.offers("note1"), "an unquoted id");
    }

    #[test]
    fn a_heading_between_two_rules_is_a_heading_and_front_matter_is_none() {
        let page =
            PageAnchors::of_markdown("# Top\n\n---\n## Middle heading\n\nText.\n\n---\n\nEnd.\n");
        assert!(page.offers("middle-heading"));
        let page = PageAnchors::of_markdown("---\ntitle: Guide\n---\n\n# Guide\n");
        assert!(page.offers("guide"));
        assert!(!page.offers("title-guide"));
    }

    #[test]
    fn an_attribute_lists_id_on_any_element_is_offered() {
        let page = PageAnchors::of_markdown(
            "# Options\n\n__text__{: #text }\n: The source.\n\nA note.\n{: .note #tip-one data-x=\"1\" }\n\n`{: #in-code }`\n\nSee^†^{#\\_fn_1}.\n",
        );
        assert!(page.offers("text"));
        assert!(page.offers("_fn_1"));
        assert!(page.offers("tip-one"));
        assert!(!page.offers("extensions"));
    }

    #[test]
    fn the_ids_a_renderer_generates_are_offered_where_their_markup_is() {
        let page = PageAnchors::of_markdown(
            "# Install\n\n=== \"pip\"\n\n    pip install x\n\n=== \"uv\"\n\n    uv add x\n\nText.\n\n=== \"Linux\"\n    a\n\nA claim.[^src]\n\n[^src]: The source.\n",
        );
        assert!(page.offers("__tabbed_1_2"));
        assert!(page.offers("__tabbed_2_1"));
        assert!(!page.offers("__tabbed_2_2"));
        // With pymdownx.tabbed's `slugify`, by title, after the heading.
        assert!(page.offers("install-uv") && page.offers("pip"));
        assert!(!page.offers("install-windows"));
        assert!(!page.offers("__tabbed_3_1"));
        assert!(page.offers("fn:src"));
        assert!(page.offers("fnref-src"));
        let plain = PageAnchors::of_markdown("# Install\n\nNo tabs, no notes.\n");
        assert!(!plain.offers("__tabbed_1_1"));
        assert!(!plain.offers("fn:src"));
        assert!(!plain.offers("print"));
        let api = PageAnchors::of_markdown(
            "# API\n\n::: print(format_string<T...>, T&&...)\n\n::: kit.io.load\n",
        );
        assert!(api.offers("print"));
        assert!(api.offers("kit.io.load"));
        assert!(api.offers("load"));
        // Its members, each under the id of its full name.
        assert!(api.offers("kit.io.load.retries"));
        assert!(!api.offers("kit.io.save"));
        assert!(!api.offers("kit.io.loader.retries"));
        let builder = PageAnchors::of_markdown(
            "# 설치 [[installation]]\n\n## 설치 확인 [[check-installation]]\n\n[[autodoc]] huggingface_hub.utils.logging.get_verbosity\n\n[[autodoc]] logging.set_verbosity\n",
        );
        for made in [
            "installation",
            "check-installation",
            "huggingface_hub.utils.logging.get_verbosity",
            "huggingface_hub.utils.logging.set_verbosity",
        ] {
            assert!(builder.offers(made), "{made}");
        }
        assert!(!builder.offers("설치-확인-check-installation"));
        assert!(!builder.offers("huggingface_hub.utils.logging.get_level"));
        let components = PageAnchors::of_markdown(
            "# Link\n\n<InterfaceDetails\n  canonicalReference=\"@apollo/client/link/http!HttpLink.Options:interface\"\n  headingLevel={3}\n  displayName=\"HttpLink.Options\"\n/>\n\n<FunctionDetails canonicalReference={\"pkg!ApolloClient.DocumentationTypes.query:function(1)\"} />\n\n<PropertySignatureTable idPrefix=\"mutationresult-interface\" />\n\n<FunctionDetails\n  headingLevel={2}\n  displayName=\"client.refetchQueries\"\n>\n\nText.\n\n</FunctionDetails>\n\n<Tabs><TabItem value=\"npm\" label=\"npm install\">x</TabItem></Tabs>\n",
        );
        for made in [
            "httplinkoptions",
            "options-fetch",
            "query",
            "clientrefetchqueries",
            "mutationresult-interface-reset",
        ] {
            assert!(components.offers(made), "{made}");
        }
        for not_made in [
            "npm",
            "mutationresult-interface",
            "fetch",
            "options",
            "link-setup",
            "httplink-fetch",
            "apolloclientdocumentationtypesquery",
            "client.refetchqueries",
        ] {
            assert!(!components.offers(not_made), "{not_made}");
        }
    }

    #[test]
    fn a_page_with_a_block_the_site_runs_as_it_builds_pulls_in_unread_text() {
        let page = PageAnchors::of_markdown(
            "# Specs\n\n```python exec=\"true\" idprefix=\"\"\nprint(render())\n```\n",
        );
        assert!(page.includes_text && page.opaque, "{page:?}");
        // A block that only shows code, or says not to run it.
        for text in [
            "# Specs\n\n```python\nprint(render())\n```\n",
            "# Specs\n\n```python exec=\"off\"\nprint(render())\n```\n",
        ] {
            let page = PageAnchors::of_markdown(text);
            assert!(!page.includes_text && !page.opaque, "{page:?}");
        }
    }

    #[test]
    fn another_renderers_slug_of_the_same_heading_is_offered() {
        let page = PageAnchors::of_markdown("## The `check_x` step: v1.2\n");
        assert!(page.offers("the-check_x-step-v12"));
        assert!(page.offers("the-check-x-step-v1-2"));
        assert!(page.offers("The-check_x-step-v12"));
    }

    #[test]
    fn an_rst_section_numbered_in_its_title_gets_an_id_that_starts_with_a_letter() {
        let page = PageAnchors::of_rst("4 Enforcement Manual\n====================\n\nText.\n");
        assert!(page.offers("enforcement-manual"));
        assert_eq!(docutils_make_id("2024"), "2024");
    }

    #[test]
    fn an_rst_pages_sections_and_targets_are_offered_as_docutils_makes_ids() {
        let page = PageAnchors::of_rst(
            "Getting Started\n===============\n\n.. _install-notes:\n\nThe ``pkg`` CLI: v2\n-------------------\n\nText.\n",
        );
        assert!(page.offers("getting-started"));
        assert!(page.offers("install-notes"));
        assert!(page.offers("the-pkg-cli-v2"));
        assert!(!page.offers("usage"));
        // A directive's `:name:` is its element's id, whoever defines it.
        let named = PageAnchors::of_rst(
            ".. dropdown:: Julian Hall
   :name: Speaker Julian

   Bio.
",
        );
        assert!(named.offers("speaker-julian"));
        assert_eq!(
            page.headings[0],
            ("Getting Started".to_owned(), "getting-started".to_owned())
        );
    }

    #[test]
    fn an_extensions_directive_writes_what_cannot_be_read_here() {
        let cli = PageAnchors::of_rst(".. argparse::\n   :module: tool.cli\n   :func: parser\n");
        assert!(cli.includes_text && cli.opaque, "{cli:?}");
        let plain = PageAnchors::of_rst(
            "Usage\n=====\n\n.. note::\n\n   Read it.\n\n.. py:function:: run()\n\n.. group-tab:: Auto\n",
        );
        assert!(!plain.includes_text && !plain.opaque, "{plain:?}");
    }

    #[test]
    fn a_definition_lists_terms_are_offered_as_a_site_generator_slugs_them() {
        let page = PageAnchors::of_markdown(
            "# Glossary\n\nsmart pointer\n  : A type that owns a reference.\n\nPlain words: not a term.\n",
        );
        assert!(page.offers("smart-pointer"));
        assert!(!page.offers("plain-words-not-a-term"));
        assert!(!page.offers("a-type-that-owns-a-reference"));
    }

    #[test]
    fn a_list_item_opening_with_inline_code_is_offered_as_hashicorp_sites_slug_it() {
        let page = PageAnchors::of_markdown(
            "# Plan\n\n- `-out=FILENAME` - Writes the plan.\n- Use `-json` for output.\n\n* `-compact-warnings`\n",
        );
        assert!(page.offers("out-filename"));
        assert!(page.offers("compact-warnings"));
        assert!(!page.offers("json"));
    }

    #[test]
    fn a_fence_closed_with_a_trailing_tab_is_closed() {
        let page = PageAnchors::of_markdown("# T\n\n```\ncode\n```\t\n\n## Later\n");
        assert!(page.offers("later"));
    }

    #[test]
    fn a_badge_in_a_heading_is_no_part_of_its_anchor() {
        let page = PageAnchors::of_markdown(
            "## Contributors [![Issues](https://x/b.svg)](https://x) [![Count](https://x/c.svg)](https://x)\n",
        );
        assert!(page.offers("contributors---"));
    }

    #[test]
    fn a_heading_scoped_by_its_parent_is_offered() {
        let page = PageAnchors::of_markdown(
            "# Adapter\n\n## Options\n\n### envPrefix\n\n## Environment variables\n\n### IDLE_TIMEOUT\n",
        );
        assert!(page.offers("Options-envPrefix"));
        assert!(page.offers("Environment-variables-IDLE_TIMEOUT"));
        assert!(!page.offers("Options-IDLE_TIMEOUT"));
        assert_eq!(
            page.nearest("options-envprefi"),
            None,
            "a scoped spelling is no did-you-mean"
        );
    }

    #[test]
    fn a_line_fragment_is_read_as_lines() {
        assert_eq!(
            Fragment::parse("L10"),
            Fragment::Lines { start: 10, end: 10 }
        );
        assert_eq!(
            Fragment::parse("L10-L20"),
            Fragment::Lines { start: 10, end: 20 }
        );
        assert_eq!(
            Fragment::parse("L3C2-L4C9"),
            Fragment::Lines { start: 3, end: 4 }
        );
        assert_eq!(Fragment::parse("Limits"), Fragment::Anchor("Limits".into()));
    }

    #[test]
    fn a_did_you_mean_is_a_near_anchor_only() {
        let page = PageAnchors::of_markdown("## Configuration\n\n## Usage\n");
        assert_eq!(page.nearest("configuraton"), Some("configuration"));
        assert_eq!(page.nearest("security"), None);
    }
}

#[cfg(test)]
mod vitepress_tests {
    use super::*;

    #[test]
    fn vitepress_slugs_runs_of_punctuation_into_one_hyphen() {
        assert_eq!(vitepress_slug("app.listen(port)"), "app-listen-port");
        assert_eq!(vitepress_slug("  Options & Settings "), "options-settings");
        assert_eq!(vitepress_slug("2.0 release"), "_2-0-release");
        assert_eq!(vitepress_slug("use_case"), "use-case");
        assert_eq!(vitepress_slug("Über uns"), "über-uns");
    }

    #[test]
    fn on_a_vitepress_site_only_its_own_slugs_and_the_pages_ids_are_offered() {
        let page = PageAnchors::of_markdown(
            "# API\n\n## .listen(port)\n\n## Setup\n\n## Setup\n\n## Custom {#my-id}\n\n<a id=\"raw\"></a>\n\n## Über\n",
        );
        let vp = Some(Slugger::VitePress);
        for offered in [
            "listen-port",
            "setup",
            "setup-1",
            "my-id",
            "raw",
            "top",
            "uber",
        ] {
            assert!(page.offers_on(offered, vp), "{offered}");
        }
        // GitHub's spelling of the same heading is no anchor on the site.
        assert!(page.offers_on("listenport", None));
        assert!(!page.offers_on("listenport", vp));
        assert!(!page.offers_on("custom", vp));
        assert_eq!(page.nearest_on("listen-prt", vp), Some("listen-port"));
        // A translated heading offers its own slug, not the source page's
        // anchor that has as many letters.
        let translated =
            PageAnchors::of_markdown("# モジュール\n\n## 名前空間付きモジュールでのアクション\n");
        assert!(translated.offers_on("名前空間付きモジュールでのアクション", vp));
        assert!(!translated.offers_on("namespaced-module-actio", vp));
        assert!(!translated.offers_on("abcdefghijklmnopqr", vp));
    }
}
