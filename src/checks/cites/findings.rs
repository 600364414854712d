//! Stage 4, the citation family's findings: the three citation checks
//! (`stale-test-cite`, `stale-line-cite`, `stale-path-cite`) each turn the
//! stale citations of their class into findings here, one way for all three.

use std::sync::OnceLock;

use regex::Regex;

use super::model::{CiteClass, CiteStatus, ResolvedCite, Tier};
use crate::checks::audited::Audit;
use crate::checks::{CheckId, Finding, Fixable, Held, Location, Severity};

/// Findings for the stale citations of one kind (`test`, `line`, `path`).
pub(super) fn cite_findings(audit: &Audit, kind: CiteClass, check: CheckId) -> Vec<Finding> {
    audit
        .families
        .cites
        .iter()
        .filter(|c| c.kind == kind)
        .filter_map(|c| {
            let CiteStatus::Stale {
                why,
                suggestion,
                guessed,
            } = &c.status
            else {
                return None;
            };
            let stated = match c.destination.as_deref() {
                _ if c.document => written_document(c),
                // A Sphinx page's link from the root (`/replay.py`), read
                // from the source folder: named as written.
                Some(written)
                    if written.starts_with('/')
                        && !written.starts_with("//")
                        && !c.text.starts_with('/') =>
                {
                    written.to_owned()
                }
                _ => c.text.clone(),
            };
            let suggestion = &suggestion.as_deref().map(|s| {
                from_the_same_base(c, &stated, s)
                    .or_else(|| from_the_page(&c.record, &stated, s))
                    .unwrap_or_else(|| s.to_owned())
            });
            let mut message = format!("`{stated}`: {why}");
            if let Some(s) = suggestion {
                message.push_str(&format!("; did you mean `{s}`?"));
            }
            // Reading a backticked word as a path is a guess; an explicit
            // citation is not.
            let severity = match c.tier {
                Tier::Explicit => check.severity(),
                Tier::Inferred => Severity::Warning.min(check.severity()),
            };
            let replacement = suggestion
                .as_deref()
                .and_then(|s| in_stated_form(c.destination.as_deref(), &stated, s));
            let fixable = match &replacement {
                Some(replacement) if !guessed && !c.chosen_among => {
                    held(audit, c, &stated, replacement)
                        .map_or(Fixable::Proven, |(held, why)| Fixable::Held(held, why))
                }
                _ => Fixable::No,
            };
            Some(Finding {
                reads: files_read(c),
                fixable,
                check,
                severity,
                location: Location::in_record(
                    audit,
                    &c.record,
                    c.located.clone().unwrap_or_else(|| c.span.clone()),
                ),
                fact: None,
                message,
                stated: Some(stated),
                observed: replacement.or_else(|| suggestion.clone()),
                recipe: None,
                rule: None,
                diff: None,
                tier: Some(c.tier),
                // `a.md#heading` whose page is there but whose heading is not.
                label: if c.anchor.is_some() {
                    Some("no such anchor")
                } else if c.document {
                    Some("no such document")
                } else {
                    None
                },
            })
        })
        .collect()
}

/// Why a replacement the evidence proves is still no edit of the record:
/// the cite's words are history ([`super::narration`]), or the replacement
/// changes the form its page's renderer reads the link in ([`renderer_form`]).
fn held(
    audit: &Audit,
    cite: &ResolvedCite,
    stated: &str,
    replacement: &str,
) -> Option<(Held, String)> {
    let text = audit.text(&cite.record).unwrap_or_default();
    if let Some(why) =
        super::narration::narrated(&cite.record, text, cite.span.start, cite.release_notes)
    {
        return Some((Held::History, why));
    }
    // A page a generator writes is mended in its generator: the next build
    // would write the old words back.
    if super::exemptions::generated_page::declares_generated(text) {
        return Some((
            Held::Generated,
            format!(
                "{} says it is generated: its source is where the words come from",
                cite.record
            ),
        ));
    }
    if let Some(generator) = &cite.generated_by {
        return Some((
            Held::Generated,
            format!(
                "{} is written by {generator}: the generator's input is what to mend",
                cite.record
            ),
        ));
    }
    if let Some((account, commit)) = &cite.written_by_automation {
        return Some((
            Held::Generated,
            format!(
                "{} writes the record (in {commit}): it writes it again from its own source, which is what to mend",
                crate::escape::untrusted(account, crate::escape::VALUE_CAP)
            ),
        ));
    }
    if cite.kind == CiteClass::Line && line_part(replacement).is_none() {
        return Some((
            Held::Form,
            format!(
                "`{replacement}` names no lines: where the cited lines went in it is for a person to find"
            ),
        ));
    }
    if cite.kind != CiteClass::Line {
        // What the cite names inside its file (`a.rs::map_sprite`, `a.py:12`)
        // is not carried by a new path alone (a test renamed is a new name
        // inside its file: `::` on both sides).
        let inside = stated
            .find("::")
            .filter(|_| !replacement.contains("::"))
            .map(|at| &stated[at..])
            .or_else(|| {
                line_part(stated)
                    .filter(|part| part.starts_with(':') && cite.kind == CiteClass::Path)
            });
        if let Some(inside) = inside.filter(|inside| !replacement.ends_with(*inside)) {
            return Some((
                Held::Form,
                format!(
                    "`{stated}` names `{inside}` inside its file, and `{replacement}` does not"
                ),
            ));
        }
    }
    if let Some(rev) = &cite.ref_assumed {
        return Some((
            Held::Form,
            format!(
                "the link shows `{}`, a branch this clone does not have, read as the default branch: where the file is on `{0}` is for a person to find",
                crate::escape::untrusted(rev, crate::escape::VALUE_CAP)
            ),
        ));
    }
    if let Some(site) = cite.leaves_site {
        return Some((
            Held::Form,
            format!(
                "`{replacement}` is read in the tree's layout, which the {site} site that builds the page does not keep there: a dead link on the site"
            ),
        ));
    }
    if let Some(why) = other_language(&cite.record, replacement) {
        return Some((Held::Form, why));
    }
    if let Some(why) = other_version(&cite.record, replacement) {
        return Some((Held::Form, why));
    }
    if let Some(why) = renamed_to_another_version(stated, replacement) {
        return Some((Held::Form, why));
    }
    if cite.kind == CiteClass::Path {
        return renderer_form(stated, replacement).map(|why| (Held::Form, why));
    }
    None
}

/// Why a replacement sends a translated page to another language's page:
/// the record is one language's (`release.ja.md`) and the new target is
/// another's (`cdk.en.md`). A site built per language (mkdocs-static-i18n,
/// Docusaurus' and Hugo's translations) reads a link with no language from
/// a `ja` page as the `ja` page of that name, so the old link led to the
/// page in the reader's language.
fn other_language(record: &str, replacement: &str) -> Option<String> {
    let page = replacement.split(['#', '?']).next().unwrap_or_default();
    let (here, there) = (language_of(record)?, language_of(page)?);
    (!here.eq_ignore_ascii_case(there)).then(|| {
        format!(
            "`{record}` is the `{here}` page, and `{page}` is the `{there}` one: a site built per language reads the old link as its own language's page"
        )
    })
}

/// Why a replacement leads into a version's folder of docs kept per
/// version (`4.x/`, `3.10/`, `@v1/`, `version-2.0/`) that the record is not
/// in: a 4.x page sent to the 3.10 copy of a page 4.x dropped, or a README
/// sent to the `@v1` copy of a page split into `@v1` and `@v2`. Which
/// version the record means is for a person.
fn other_version(record: &str, replacement: &str) -> Option<String> {
    static VERSION: OnceLock<Regex> = OnceLock::new();
    let version = VERSION.get_or_init(|| {
        Regex::new(r"^(?:@?v[0-9]+(?:\.[0-9]+)*(?:\.x)?|[0-9]+\.[0-9]+(?:\.[0-9]+)*|[0-9]+\.x|version-[0-9]+(?:\.[0-9]+)*(?:\.x)?)$")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    let page = replacement.split(['#', '?']).next().unwrap_or_default();
    // A forge address: its path after the ref.
    let page = ["/blob/", "/tree/"]
        .iter()
        .find_map(|marker| {
            let (_, rest) = page.split_once(marker)?;
            Some(rest.split_once('/').map_or("", |(_, path)| path))
        })
        .unwrap_or(page);
    let folders: Vec<&str> = page.split('/').collect();
    let folders = &folders[..folders.len().saturating_sub(1)];
    let there = folders.iter().find(|f| version.is_match(f))?;
    let here: Vec<&str> = record.split('/').filter(|f| version.is_match(f)).collect();
    (!here.contains(there)).then(|| {
        format!(
            "`{page}` is in the `{there}` version's folder, and `{record}` is not: which version the record means is for a person"
        )
    })
}

/// Why a replacement is the page of another version: the file's name
/// carried a version and was renamed to another's, the rest of the name
/// kept (`Build_Instructions_V16.md` to `Build_Instructions_V17.md`,
/// `migrate-2.0.md` to `migrate-3.0.md`). Such a page is rewritten for the
/// version it now names, and the record's words still name the old one.
fn renamed_to_another_version(stated: &str, replacement: &str) -> Option<String> {
    static VERSION: OnceLock<Regex> = OnceLock::new();
    let version = VERSION.get_or_init(|| {
        Regex::new(r"(?i)\bv?[0-9]+(?:\.[0-9]+)+\b|(?i:v)[0-9]+")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    let name = |p: &str| {
        let p = p.split(['#', '?']).next().unwrap_or_default();
        p.trim_end_matches('/')
            .rsplit('/')
            .next()
            .unwrap_or_default()
            .to_owned()
    };
    let (was, now) = (name(stated), name(replacement));
    let versions = |n: &str| -> Vec<String> {
        version
            .find_iter(n)
            .map(|m| m.as_str().to_ascii_lowercase())
            .collect()
    };
    let skeleton = |n: &str| version.replace_all(n, "\u{0}").to_ascii_lowercase();
    let (old, new) = (versions(&was), versions(&now));
    (!old.is_empty() && old != new && skeleton(&was) == skeleton(&now)).then(|| {
        format!(
            "`{now}` names another version than `{was}` did: a page renamed to a new version is rewritten for it, and which version the record means is for a person"
        )
    })
}

/// The language a file's name carries before its extension (`cdk.en.md`:
/// `en`; `index.zh-CN.md`: `zh-CN`), when it names one.
fn language_of(path: &str) -> Option<&str> {
    const LANGUAGES: &[&str] = &[
        "ar", "bg", "bn", "ca", "cs", "da", "de", "el", "en", "es", "et", "fa", "fi", "fr", "he",
        "hi", "hr", "hu", "id", "it", "ja", "ko", "lt", "lv", "ms", "nb", "nl", "no", "pl", "pt",
        "ro", "ru", "sk", "sl", "sr", "sv", "th", "tr", "uk", "vi", "zh",
    ];
    let name = path.rsplit('/').next().unwrap_or(path);
    let mut parts = name.rsplit('.');
    parts.next()?;
    let code = parts.next()?;
    parts.next()?;
    let base = code.split(['-', '_']).next().unwrap_or(code);
    (LANGUAGES.contains(&base) && code.len() <= 7).then_some(code)
}

/// The lines a line cite's text names after its path (`:12`, `:12-20`,
/// `#L12`, `#L12-L20`), when it names any.
fn line_part(cite: &str) -> Option<&str> {
    let at = cite.rfind([':', '#'])?;
    let rest = &cite[at + 1..];
    let rest = rest.strip_prefix('L').unwrap_or(rest);
    rest.starts_with(|c: char| c.is_ascii_digit())
        .then_some(&cite[at..])
}

/// Why `replacement` is not in the form `stated` is written in, as a page's
/// renderer reads a link: a page address (`../getting-started/docker/`, a
/// route with no extension) made a source file's path (`../docker.md`), or
/// a built page (`intro.html`) made its source's name. A rename may change a
/// source file's extension (`build.ts` became `build.mts`); it never makes an
/// address a file.
fn renderer_form(stated: &str, replacement: &str) -> Option<String> {
    let path = |p: &str| p.split(['#', '?']).next().unwrap_or_default().to_owned();
    let (stated, replacement) = (path(stated), path(replacement));
    let ending = |p: &str| -> String {
        if p.ends_with('/') {
            return "/".to_owned();
        }
        let name = p.rsplit('/').next().unwrap_or(p);
        match name.rsplit_once('.') {
            Some((stem, ext)) if !stem.is_empty() => ext.to_ascii_lowercase(),
            _ => String::new(),
        }
    };
    let (was, would) = (ending(&stated), ending(&replacement));
    let addressed = matches!(was.as_str(), "/" | "" | "html" | "htm");
    (addressed && was != would).then(|| {
        format!(
            "`{stated}` is written as its renderer addresses the page, and `{replacement}` is not"
        )
    })
}

/// The suggestion written the way the stated text is, so that one can
/// replace the other: a link to the forge (`https://host/o/r/blob/main/src/a.py`)
/// states its path (`/src/a.py`), and its suggestion, a whole address or a
/// path of the tree, becomes that path's new form (`/src/b.py`). None when the
/// two cannot be put in one form: the suggestion stays a did-you-mean.
fn in_stated_form(destination: Option<&str>, stated: &str, suggestion: &str) -> Option<String> {
    let hosted = destination.filter(|d| d.contains("://"));
    let Some(address) = hosted.filter(|_| !stated.contains("://")) else {
        // A path from a root (`/src/a.py`: a forge link whose address is not
        // at hand, a Sphinx source path) and one from the tree are two forms.
        // So are a path written from the page's folder (`../x`) and one
        // from the root (`x`): the same bytes would name another file.
        let same_form = stated.contains("://") == suggestion.contains("://")
            && stated.starts_with('/') == suggestion.starts_with('/')
            && (!stated.starts_with("../") || suggestion.starts_with("../"));
        return same_form.then(|| kept_marks(stated, suggestion));
    };
    let prefix = address.strip_suffix(stated)?;
    if let Some(path) = suggestion.strip_prefix(prefix) {
        return path.starts_with('/').then(|| path.to_owned());
    }
    if suggestion.contains("://") {
        return None;
    }
    Some(format!("/{}", suggestion.trim_start_matches('/')))
}

/// The suggestion with the marks the stated path was written with: a
/// leading `./` stays, and a folder written with its closing `/` keeps it.
fn kept_marks(stated: &str, suggestion: &str) -> String {
    let mut kept = suggestion.to_owned();
    if stated.starts_with("./") && !kept.starts_with("./") && !kept.starts_with("../") {
        kept.insert_str(0, "./");
    }
    let named = kept.rsplit('/').next().unwrap_or_default();
    if stated.ends_with('/') && !kept.ends_with('/') && !named.contains('.') {
        kept.push('/');
    }
    kept
}

/// A renamed path's new name written from the base the stated path was
/// written from: the path it was followed from (`renamed_from`, from the
/// root) ends with the stated path, and what comes before is that base
/// (`packages/` for `lib-viewers/src/a.js` in a page that names paths from
/// its package folder). None when the new path is not under that base, or
/// the cite is a link (its destination is rewritten as a link).
fn from_the_same_base(cite: &ResolvedCite, stated: &str, suggestion: &str) -> Option<String> {
    if cite.destination.is_some() || stated.contains("://") {
        return None;
    }
    let from = cite.renamed_from.as_deref()?.trim_end_matches('/');
    let written = stated.trim_start_matches("./").trim_end_matches('/');
    let base = from.strip_suffix(written)?;
    if !(base.is_empty() || base.ends_with('/')) {
        return None;
    }
    let rest = suggestion.strip_prefix(base)?;
    Some(if stated.ends_with('/') && !rest.ends_with('/') {
        format!("{rest}/")
    } else {
        rest.to_owned()
    })
}

/// A suggestion of the tree (`examples/wsgi/django_socketio/views.py`) for a
/// path the record states from its own folder (`django_example/views.py` in
/// `examples/wsgi/README.rst`), written from that folder as well
/// (`django_socketio/views.py`), so that it can stand where the stated path
/// does. None when the stated path is written from the root (its first
/// folder is the suggestion's), from above (`../`), or is an address.
fn from_the_page(record: &str, stated: &str, suggestion: &str) -> Option<String> {
    let (folder, _) = record.rsplit_once('/')?;
    let is_plain = |p: &str| !p.contains("://") && !p.starts_with(['/', '.', '#']);
    let written = stated.strip_prefix("./").unwrap_or(stated);
    if !is_plain(written) || !is_plain(suggestion) {
        return None;
    }
    let first = |p: &str| p.split('/').next().unwrap_or(p).to_owned();
    if first(written) == first(suggestion) {
        return None;
    }
    let rest = suggestion.strip_prefix(folder)?.strip_prefix('/')?;
    Some(if stated.starts_with("./") {
        format!("./{rest}")
    } else {
        rest.to_owned()
    })
}

/// The files a stale citation was looked for in: its line cite's, its
/// test's or its anchor's page, else each path a reader would try for it.
fn files_read(cite: &super::model::ResolvedCite) -> Vec<String> {
    let named = cite
        .lines
        .as_ref()
        .map(|l| &l.file)
        .or(cite.test.as_ref().map(|t| &t.file))
        .or(cite.anchor.as_ref().map(|a| &a.file));
    if let Some(file) = named {
        return vec![file.clone()];
    }
    // A Python object names no path: it reads the files its module may be
    // defined in, so that `check --since` finds the commit that changed them.
    if let Some(asked) = &cite.objects {
        let mut files: Vec<String> = asked.names.iter().flat_map(|n| module_files(n)).collect();
        files.sort();
        files.dedup();
        return files;
    }
    let text = cite.text.trim_end_matches('/');
    let tried = match cite.tier {
        Tier::Explicit => super::locate::reader_paths(&cite.record, text),
        Tier::Inferred => super::locate::backticked_paths(&cite.record, text),
    };
    tried.unwrap_or_default()
}

/// The files a dotted name of Python code may be defined in: `pkg.mod.fn`
/// in `pkg/mod.py` or `pkg/mod/__init__.py` (or a `src/` layout's), a
/// method one name further up, a package's own names in its `__init__.py`
/// only when the name is the package's (`pkg.fn`): a commit that touched
/// another module of the package did not move it.
fn module_files(name: &str) -> Vec<String> {
    let parts: Vec<&str> = name.split('.').collect();
    let identifier = |part: &&str| {
        part.starts_with(|c: char| c.is_alphabetic() || c == '_')
            && part.chars().all(|c| c.is_alphanumeric() || c == '_')
    };
    if parts.len() < 2 || !parts.iter().all(identifier) {
        return Vec::new();
    }
    let lowest = if parts.len() == 2 { 1 } else { 2 };
    let mut files = Vec::new();
    for end in (lowest..=parts.len()).rev() {
        let module = parts[..end].join("/");
        for root in ["", "src/"] {
            files.push(format!("{root}{module}.py"));
            files.push(format!("{root}{module}/__init__.py"));
        }
    }
    files
}

/// A document reference as the record writes it: recount reads `:doc:`usage``
/// as the link `./usage.html` to the page Sphinx builds, and gives the name
/// back.
fn written_document(cite: &super::model::ResolvedCite) -> String {
    let page = cite.destination.as_deref().unwrap_or(&cite.text);
    let name = page.strip_suffix(".html").unwrap_or(page);
    name.strip_prefix("./")
        .filter(|rest| !rest.starts_with(['.', '/']))
        .unwrap_or(name)
        .to_owned()
}

#[cfg(test)]
mod tests {
    use super::{from_the_page, in_stated_form, module_files};

    #[test]
    fn a_python_object_reads_the_files_its_module_may_be() {
        let files = module_files("pkg.mod.Widget.render");
        assert!(files.contains(&"pkg/mod.py".to_owned()));
        assert!(files.contains(&"src/pkg/mod/Widget/__init__.py".to_owned()));
        // Another module of the package did not move a name of this one.
        assert!(!files.contains(&"pkg/__init__.py".to_owned()));
        assert!(module_files("pkg.run").contains(&"pkg/__init__.py".to_owned()));
        // A name with a part no identifier is, is no object.
        assert!(module_files("v1.2").is_empty());
        assert!(module_files("render").is_empty());
    }

    #[test]
    fn a_translated_page_keeps_its_links_in_its_own_language() {
        use super::other_language;
        assert!(other_language("site/blogs/release.ja.md", "../docs/cdk.en.md").is_some());
        assert!(other_language("site/blogs/release.ja.md", "../docs/cdk.ja.md#x").is_none());
        // An untranslated page's link to a language's page, and a dotted
        // name that is no language, are nothing of the kind.
        assert!(other_language("site/blogs/release.md", "../docs/cdk.en.md").is_none());
        assert!(other_language("docs/setup.py.md", "docs/cdk.en.md").is_none());
    }

    #[test]
    fn a_page_renamed_to_another_version_is_left_to_a_person() {
        use super::renamed_to_another_version as renamed;
        let old = "../../build-instructions/Build_Instructions_V16.md";
        assert!(renamed(old, "../../build-instructions/Build_Instructions_V17.md").is_some());
        assert!(renamed("docs/migrate-2.0.md", "docs/migrate-3.0.md#steps").is_some());
        // Moved, its version kept; or a name with no version.
        assert!(renamed(old, "../build/Build_Instructions_V16.md").is_none());
        assert!(renamed("test/readme.ts", "test/readme.mts").is_none());
        // A chapter's number is an order, not a version.
        assert!(renamed("ref/06-statements.md", "ref/07-statements.md").is_none());
    }

    #[test]
    fn a_page_of_one_version_keeps_its_links_in_its_own_version() {
        use super::other_version;
        let page = "site/content/db/4.x/aql/web.md";
        assert!(other_version(page, "../../../3.10/components/web.md").is_some());
        assert!(other_version(page, "../../4.x/components/web.md").is_none());
        assert!(other_version(page, "../components/web.md").is_none());
        // A page split per version: which one a README means is a choice.
        assert!(other_version("README.md", "./docs/@v1/usage-data.md").is_some());
        assert!(
            other_version(
                "README.md",
                "https://github.com/o/r/blob/main/docs/v2/usage.md#top"
            )
            .is_some()
        );
        // A number that is no version's folder, and a file's own name.
        assert!(other_version("README.md", "docs/2024/notes.md").is_none());
        assert!(other_version("README.md", "docs/v2.md").is_none());
    }

    #[test]
    fn a_suggestion_for_a_path_stated_from_the_page_is_written_from_the_page() {
        let readme = "examples/server/wsgi/README.rst";
        assert_eq!(
            from_the_page(
                readme,
                "django_example/app/views.py",
                "examples/server/wsgi/django_socketio/app/views.py"
            )
            .as_deref(),
            Some("django_socketio/app/views.py")
        );
        assert_eq!(
            from_the_page(readme, "./old.py", "examples/server/wsgi/new.py").as_deref(),
            Some("./new.py")
        );
        // Written from the root, from above, elsewhere, or at the root.
        for (stated, suggestion) in [
            ("examples/server/old.py", "examples/server/wsgi/new.py"),
            ("../old.py", "examples/server/new.py"),
            ("old.py", "src/new.py"),
            (
                "old.py",
                "https://github.com/o/r/blob/main/examples/server/wsgi/new.py",
            ),
        ] {
            assert_eq!(from_the_page(readme, stated, suggestion), None, "{stated}");
        }
        assert_eq!(from_the_page("README.md", "old.py", "src/new.py"), None);
    }

    #[test]
    fn a_forge_links_suggestion_is_put_in_the_form_of_its_stated_path() {
        let address = "https://github.com/o/r/blob/main/src/theme/a.js";
        assert_eq!(
            in_stated_form(
                Some(address),
                "/src/theme/a.js",
                "https://github.com/o/r/blob/main/front/a.js"
            ),
            Some("/front/a.js".to_owned())
        );
        assert_eq!(
            in_stated_form(Some(address), "/src/theme/a.js", "front/a.js"),
            Some("/front/a.js".to_owned())
        );
        // Another repository's address is no form of this path.
        assert_eq!(
            in_stated_form(
                Some(address),
                "/src/theme/a.js",
                "https://gitlab.com/x/y/-/blob/main/a.js"
            ),
            None
        );
        // A relative link keeps its own suggestion.
        assert_eq!(
            in_stated_form(Some("../src/a.py"), "../src/a.py", "../src/b.py"),
            Some("../src/b.py".to_owned())
        );
        assert_eq!(in_stated_form(None, "a.md", "https://x/a.md"), None);
        assert_eq!(in_stated_form(None, "/src/a.py", "src/b.py"), None);
    }
}
