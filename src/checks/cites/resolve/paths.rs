//! Stage 4, the citation family's backticked-path resolver: a path a
//! record names in backticks, as a reader finds it (beside the record, from
//! the root, under a test root, or as the end of a longer path); one that
//! names nothing here ends in the registry's path chain.

use crate::checks::cites::cfg::CitesPlan;
use crate::checks::cites::context::{Context, PathNames};
use crate::checks::cites::exemptions::test_material::is_test_material;
use crate::checks::cites::exemptions::{
    Exemption, Probe, ambiguous_name, link_text, outside_checkout, placeholder,
};
use crate::checks::cites::locate::{backticked_paths, enclosing_project, nearest_sibling};
use crate::checks::cites::model::CiteStatus;
use crate::checks::cites::reader_copies;
use crate::checks::cites::releases;
use crate::snapshot::{has_file, has_folder};

/// Resolves a path a record names in backticks. One that names no path here is
/// stale only when it is plausibly one of this repository's: its first folder
/// is a folder of the tree and it has a file extension. Anything else — a
/// reader's `main.py`, a build's `target/debug`, `owner/repo`, `read/write` —
/// is skipped, with the reason, rather than reported.
pub(super) fn resolve_path(
    context: &Context<'_>,
    settings: &CitesPlan,
    path: &str,
    is_dir: bool,
    outside_link: Option<&str>,
) -> CiteStatus {
    let (record, frame) = (context.record, context.frame);
    let at = &frame.label;
    let exemptions = context.exemptions;
    // The text of a link to another repository's page names that
    // repository's file; a link into this repository's own tree (its path
    // after `blob/REF/` is one of the tree's) keeps the cite.
    // (Where the text names a file the page's folder has, it holds
    // whatever the link's site: the page and its files moved together.)
    let here = || {
        backticked_paths(record, path).and_then(|tried| {
            tried.into_iter().find(|p| {
                let paths = frame.snapshot.paths();
                if is_dir {
                    has_folder(paths, p)
                } else {
                    has_file(paths, p) || has_folder(paths, p)
                }
            })
        })
    };
    if outside_link.is_some()
        && let Some(resolved) = here()
    {
        return CiteStatus::Ok { resolved };
    }
    if let Some(url) = outside_link
        && let Some(skip) = exemptions.ask(Exemption::LinkText, || {
            link_text::fires(url, frame.snapshot.paths())
        })
    {
        return skip;
    }
    // `../shared` in backticks is a path beside a checkout (a sibling
    // workspace, a reader's folder), not a claim about this tree.
    let Some(tried) = backticked_paths(record, path) else {
        return exemptions
            .ask(Exemption::OutsideCheckout, || {
                outside_checkout::path(record, path)
            })
            .unwrap_or_else(|| {
                CiteStatus::stale(format!(
                    "`{path}` leaves the repository; recount reads nothing outside it"
                ))
            });
    };
    let paths = frame.snapshot.paths();
    let is_file = |p: &str| has_file(paths, p);
    let is_folder = |p: &str| has_folder(paths, p);
    let exists =
        |p: &str| (!is_dir && is_file(p)) || is_folder(p) || frame.snapshot.holds_unread(p);
    let written = tried.last().cloned().unwrap_or_default();
    // As a reader finds it, under a test root, or (like a file cite) anywhere
    // whose path ends with it: `tool-context.schema.json`, `mcp/x.json`.
    let direct = tried
        .iter()
        .cloned()
        .chain(settings.roots.iter().map(|r| format!("{r}/{written}")))
        .find(|p| exists(p));
    if let Some(p) = direct {
        return CiteStatus::Ok { resolved: p };
    }
    // A path that begins with a Python package the tree keeps under `src/`
    // or `lib/` (`twisted/python/failure.py`, the package at
    // `src/twisted/`) names a module where it is imported from: the move
    // to a src layout leaves it true.
    let first = written
        .trim_start_matches("./")
        .split('/')
        .next()
        .unwrap_or("");
    if written.contains('/')
        && let Some(inside) = ["src", "lib"]
            .iter()
            .filter(|base| is_file(&format!("{base}/{first}/__init__.py")))
            .map(|base| format!("{base}/{}", written.trim_start_matches("./")))
            .find(|p| exists(p))
    {
        *context.found.proven.borrow_mut() = true;
        return CiteStatus::Ok {
            resolved: format!("{inside} (the package's path, as it is imported)"),
        };
    }
    // A path the text names after it has the reader `cd` into a folder
    // ("`cd extension` -- most work is done there", then `test/unit`), or
    // after its step names the folder it runs in ("from the
    // `/infrastructure` directory … `../tools/x.sh`"), is read from that
    // folder.
    if let Some(folder) = working_folder(context, paths)
        && let Some(inside) = crate::snapshot::joined(&folder, path)
        && exists(&inside)
    {
        *context.found.proven.borrow_mut() = true;
        return CiteStatus::Ok {
            resolved: format!("{inside} (from `{folder}`, where the text has the reader work)"),
        };
    }
    // A path under a folder the records have their reader copy from the
    // tree (`cp -r inventory/sample inventory/mycluster`) names the file the
    // copy holds: read in the folder it was copied from.
    let under_copy = reader_copies::in_source(&context.reads.reader_copies, &written, is_folder);
    if let Some((copy, inside)) = &under_copy
        && exists(inside)
    {
        *context.found.proven.borrow_mut() = true;
        return CiteStatus::Ok {
            resolved: format!("{inside} (copied to `{}` by {})", copy.copy, copy.said()),
        };
    }
    // A table's column headed by a folder (`Framework (`.ckeletin/`)`) lists
    // paths inside it, as a list introduced by the folder does.
    if let Some(folder) = column_folder(context.text, context.at, context.record, paths) {
        let inside = format!("{folder}/{}", written.trim_start_matches("./"));
        if exists(&inside) {
            *context.found.proven.borrow_mut() = true;
            return CiteStatus::Ok {
                resolved: format!("{inside} (under `{folder}`, its table column's heading)"),
            };
        }
    }
    // A package of a monorepo writes its docs' paths from its own root
    // (`src/model` in `web/docs/x.md` is `web/src/model`, where `web/`'s
    // manifest is), as its readers work there; a move of the package
    // carries its docs and its files together.
    if let Some(project) = enclosing_project(record, paths) {
        let inside = format!("{project}/{}", written.trim_start_matches("./"));
        if exists(&inside) {
            *context.found.proven.borrow_mut() = true;
            return CiteStatus::Ok {
                resolved: format!("{inside} (from `{project}`, the project the record belongs to)"),
            };
        }
    }
    // The page's renderer reads the path its own way: Hugo finds
    // `layouts/docs/list.html` in the site or a theme it mounts. That is
    // the file the page means, whatever stood at the path before (a theme
    // moved into `theme/` keeps its Hugo paths).
    if let Some(mounted) = context.renderers().prose_path(paths, record, &written) {
        *context.found.proven.borrow_mut() = true;
        let site = context
            .renderers()
            .of_page(record)
            .site_name()
            .unwrap_or("its site");
        return CiteStatus::Ok {
            resolved: format!("{mounted} (where {site} mounts it)"),
        };
    }
    // Anywhere whose path ends with it; the match nearest the record (the
    // longest folder prefix shared with it) is the one a reader means, and when
    // there are several, `recount cites` says which was taken.
    let mut matches = ending_with(paths, &context.path_names(), &written, is_dir);
    // A bare name is this project's file: another project's copied in
    // (`vendor/…/mkdocs.yml` for the project's own `mkdocs.yml`) is no
    // namesake it means. (A path with folders may name a vendored file.)
    if !written.trim_start_matches("./").contains('/') {
        matches.retain(|m| !crate::checks::cites::locate::is_vendored(m));
    }
    let shared = |candidate: &str| {
        candidate
            .split('/')
            .zip(record.split('/'))
            .take_while(|(a, b)| a == b)
            .count()
    };
    // `x.go` on a page that writes `pkg/types/x.go` elsewhere: the page's
    // own full spelling says which of its namesakes.
    if !path.trim_start_matches("./").contains('/') && matches.len() > 1 {
        let mut spelled = matches
            .iter()
            .filter(|m| crate::checks::cites::locate::spells_path(context.text, m));
        if let (Some(one), None) = (spelled.next(), spelled.next()) {
            return CiteStatus::Ok {
                resolved: format!("{one} (the page writes it in full)"),
            };
        }
    }
    // A bare name (`main.py`) found only away from the record's own folders,
    // in several places, is a guess: most likely a reader's file that happens
    // to share a name with some of this tree's. Say so rather than pick one.
    if let Some(skip) = exemptions.ask(Exemption::AmbiguousName, || {
        ambiguous_name::among_files(record, path, &matches)
    }) {
        return skip;
    }
    if let Some(nearest) = matches
        .iter()
        .max_by(|a, b| shared(a).cmp(&shared(b)).then_with(|| b.cmp(a)))
    {
        return CiteStatus::Ok {
            resolved: if matches.len() > 1 {
                format!(
                    "{nearest} (the nearest of {} paths ending so)",
                    matches.len()
                )
            } else {
                nearest.clone()
            },
        };
    }
    let missing = format!(
        "no {} `{path}` at {at}",
        if is_dir { "folder" } else { "file" }
    );
    // A path of the reader's copy its source lacks: the copy will not hold
    // it either (the history says whether the source once did).
    if let Some((copy, inside)) = under_copy {
        *context.found.copied_from.borrow_mut() = Some(inside.clone());
        return CiteStatus::Stale {
            why: format!(
                "{missing}: it is in the reader's copy of `{}`, made by {}, and `{inside}` is not in the tree",
                copy.source,
                copy.said()
            ),
            suggestion: (!is_dir).then(|| nearest_sibling(&inside, paths)).flatten(),
            guessed: true,
        };
    }
    // The tree's own proof of what the cite means: the same module in the
    // language's other file layout (`checkers/ast.rs` is `checkers/ast/mod.rs`).
    // Stale whatever the sentence says, with that file as the fix — unless
    // it tells the reader to create it ("Create `api/generated.ts` (or
    // `generated/index.ts`)"): then the page says it is not there, and the
    // twin is what was made. Not for a bare name (`app.py`), which is a name
    // before it is a path: as often the reader's file as this tree's
    // `app/__init__.py`.
    if !is_dir
        && written.contains('/')
        && context.ignored(&written, false).is_none()
        && !releases::told_to_create(context.text, context.at)
        && let Some(twin) = tried.iter().find_map(|p| layout_twin(p, is_file))
    {
        *context.found.proven.borrow_mut() = true;
        return CiteStatus::Stale {
            why: format!(
                "{missing}: the same module is `{twin}`, in the language's other file layout"
            ),
            suggestion: Some(twin),
            guessed: false,
        };
    }
    // The tree's own proof, second form: a path of this tree's (its first
    // folder is one of the tree's) whose last folder and file exactly one
    // file of the tree has (`crates/x/src/plugins/settings.rs` for the only
    // `plugins/settings.rs`, under `src/rules/`): that file, moved.
    // (Not for a path of the reader's own project, `../my_xblock/…/text.po`:
    // a file of the tree with its tail is this project's namesake.)
    // Neither this proof nor the first stands against the tree's own word
    // that no commit holds the path: a `.gitignore` ignores it
    // (`docs/personal/`, which each user writes; a template of its name
    // elsewhere is no move).
    if !is_dir
        && placeholder::placeholder(&written).is_none()
        && context.ignored(&written, false).is_none()
        && let Some(only) = only_file_ending(paths, &context.path_names(), &written)
    {
        *context.found.proven.borrow_mut() = true;
        return CiteStatus::Stale {
            why: format!(
                "{missing}: `{only}` is the one file of the tree whose last folder and name are the cite's"
            ),
            suggestion: Some(only),
            guessed: false,
        };
    }
    let probe = Probe {
        context,
        cited: path,
        path: &written,
        is_dir,
        link: false,
        document: false,
    };
    let Some((exemption, why)) = exemptions.first(&probe, false) else {
        return CiteStatus::Stale {
            why: missing,
            suggestion: (!is_dir)
                .then(|| nearest_sibling(&written, paths))
                .flatten(),
            guessed: true,
        };
    };
    // History settles it for a path with a folder that names a folder
    // (`internal/state/`) or a file (`pkg/grammar/checker.go`); a bare name
    // or an extensionless `x/paramfilter` is as often a module's name as a
    // path, and a namesake deleted years ago is not the file the sentence
    // means.
    let has_extension = written.rsplit('/').next().is_some_and(|n| n.contains('.'));
    if exemption.stale_if_history_knows() && written.contains('/') && (is_dir || has_extension) {
        *context.found.stale_if_history_knows.borrow_mut() = Some(missing);
    }
    CiteStatus::Skipped { exemption, why }
}

/// The folder of the tree the record's text last has its reader `cd` into
/// before the cite (`cd extension`, `cd docs/site`), within the few pages of
/// text before it, or that the cite's paragraph says its step runs in
/// ("from the `/infrastructure` directory"): read from the record's
/// folder, then the root.
fn working_folder(context: &Context<'_>, paths: &[String]) -> Option<String> {
    static CD: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let cd = CD.get_or_init(|| {
        regex::Regex::new(r"(?m)(?:^|[`$;&(]\s*|\n\s*)cd\s+([A-Za-z0-9_][A-Za-z0-9_./-]{0,200})")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    const WINDOW: usize = 8 * 1024;
    let at = context.at.min(context.text.len());
    let floor = (at.saturating_sub(WINDOW)..=at)
        .find(|i| context.text.is_char_boundary(*i))
        .unwrap_or(at);
    let before = context.text.get(floor..at)?;
    let by_cd = cd
        .captures_iter(before)
        .last()
        .and_then(|c| c.get(1))
        .map(|m| (m.start(), m.as_str()));
    // A step that names the folder it runs in ("Start `dplsh` from the
    // `/infrastructure` directory … by running `../tools/dplsh/dplsh.sh`"):
    // in the same paragraph or list item only.
    static NAMED: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let named_folder = NAMED.get_or_init(|| {
        regex::Regex::new(r"(?i)\b(?:from|in|inside|within)\s+the\s+`/?([A-Za-z0-9_][A-Za-z0-9_./-]{0,200})`\s+(?:directory|folder)\b")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    let paragraph = before.rfind("\n\n").map_or(0, |i| i + 2);
    let by_step = named_folder
        .captures_iter(&before[paragraph..])
        .last()
        .and_then(|c| c.get(1))
        .map(|m| (paragraph + m.start(), m.as_str()));
    let (_, named) = by_cd.into_iter().chain(by_step).max_by_key(|(at, _)| *at)?;
    let named = named.trim_end_matches(['/', '.']);
    let folder = context.record.rsplit_once('/').map(|(f, _)| f);
    folder
        .map(|f| format!("{f}/{named}"))
        .into_iter()
        .chain(std::iter::once(named.to_owned()))
        .find(|candidate| !candidate.is_empty() && has_folder(paths, candidate))
}

/// The folder a Markdown table's column is headed by, when the byte `at` of
/// `text` sits in a cell of that column and its header cell names one folder
/// of the tree in backticks (from the record's folder or the root).
fn column_folder(text: &str, at: usize, record: &str, paths: &[String]) -> Option<String> {
    /// The most rows a table is searched up for its header.
    const MAX_ROWS: usize = 1000;
    let cells_before = |line: &str| -> usize {
        let bytes = line.as_bytes();
        (0..bytes.len())
            .filter(|&i| bytes[i] == b'|' && (i == 0 || bytes[i - 1] != b'\\'))
            .count()
    };
    let at = (0..=at.min(text.len()))
        .rev()
        .find(|&i| text.is_char_boundary(i))?;
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line = text[start..].lines().next()?;
    if !line.contains('|') {
        return None;
    }
    let leading = usize::from(line.trim_start().starts_with('|'));
    let column = cells_before(&text[start..at]).checked_sub(leading)?;
    let is_delimiter = |row: &str| {
        let row = row.trim().trim_matches('|');
        !row.is_empty()
            && row.split('|').all(|cell| {
                let cell = cell.trim().trim_start_matches(':').trim_end_matches(':');
                !cell.is_empty() && cell.bytes().all(|b| b == b'-')
            })
    };
    let above: Vec<&str> = text[..start].lines().rev().take(MAX_ROWS).collect();
    let delimiter = above
        .iter()
        .position(|row| !row.contains('|') || is_delimiter(row))?;
    if !is_delimiter(above[delimiter]) {
        return None;
    }
    let header = above.get(delimiter + 1)?;
    let header = header.trim();
    let header = header.strip_prefix('|').unwrap_or(header);
    let cell = header.split('|').nth(column)?;
    let mut named = cell.split('`').skip(1).step_by(2);
    let folder = named
        .next()?
        .trim()
        .trim_start_matches("./")
        .trim_end_matches('/');
    if named.next().is_some() || folder.is_empty() {
        return None;
    }
    let own = record
        .rsplit_once('/')
        .map(|(f, _)| format!("{f}/{folder}"));
    own.into_iter()
        .chain(std::iter::once(folder.to_owned()))
        .find(|candidate| has_folder(paths, candidate))
}

/// The file that holds the same module as `path` in the language's other
/// file layout, if the tree (`is_file`) has it: a Rust module `x.rs` and
/// `x/mod.rs`, a Python module `x.py` and package `x/__init__.py`, a
/// JavaScript or TypeScript module `x.ts` and `x/index.ts` (and `.js`,
/// `.tsx`, `.jsx`, `.mjs`), each way round.
fn layout_twin(path: &str, is_file: impl Fn(&str) -> bool) -> Option<String> {
    const SCRIPTS: [&str; 6] = ["ts", "tsx", "js", "jsx", "mjs", "cjs"];
    let (stem, extension) = path.rsplit_once('.')?;
    let (folder, name) = stem.rsplit_once('/').unwrap_or(("", stem));
    let parent = |f: &str| -> Option<String> {
        let (above, module) = f.rsplit_once('/').unwrap_or(("", f));
        (!module.is_empty()).then(|| {
            if above.is_empty() {
                module.to_owned()
            } else {
                format!("{above}/{module}")
            }
        })
    };
    let candidates: Vec<String> = match (name, extension) {
        ("mod", "rs") | ("__init__", "py") => vec![format!("{}.{extension}", parent(folder)?)],
        ("index", e) if SCRIPTS.contains(&e) => {
            let module = parent(folder)?;
            SCRIPTS.iter().map(|e| format!("{module}.{e}")).collect()
        }
        (_, "rs") => vec![format!("{stem}/mod.rs")],
        (_, "py") => vec![format!("{stem}/__init__.py")],
        (_, e) if SCRIPTS.contains(&e) => SCRIPTS
            .iter()
            .map(|e| format!("{stem}/index.{e}"))
            .collect(),
        _ => Vec::new(),
    };
    candidates.into_iter().find(|c| c != path && is_file(c))
}

/// The one file of the tree ending with `written`'s last folder and file
/// name, when `written` has a folder above those that the tree has at its
/// root (so it reads as a path of this tree, not a reader's
/// `myproject/app/models.py`) and exactly one file ends so.
fn only_file_ending(paths: &[String], names: &PathNames, written: &str) -> Option<String> {
    let segments: Vec<&str> = written.split('/').collect();
    if segments.len() < 3
        || segments
            .iter()
            .any(|s| s.is_empty() || *s == "." || *s == "..")
    {
        return None;
    }
    if !has_folder(paths, segments[0]) {
        return None;
    }
    let tail = segments[segments.len() - 2..].join("/");
    // A test's sample project (`rtd_tests/fixtures/sample_repo/source/
    // conf.py`) holds the files of a project of that layout, the reader's
    // among them: its namesake is no proof the file moved there, unless the
    // cite names test material itself.
    match ending_with(paths, names, &tail, false).as_slice() {
        [only] if !is_test_material(only) || is_test_material(written) => Some(only.clone()),
        _ => None,
    }
}

/// The files (or, for a folder, the folders) of the tree whose path ends
/// with `written`, in the tree's order. Only the paths whose file (folder)
/// has the name `written` ends with can, so only those are read.
fn ending_with(paths: &[String], names: &PathNames, written: &str, is_dir: bool) -> Vec<String> {
    let tail = format!("/{written}");
    let dir_tail = format!("/{written}/");
    let name = written.rsplit('/').next().unwrap_or(written);
    let mut matches: Vec<String> = names
        .named(name, is_dir)
        .iter()
        .filter_map(|&i| paths.get(i))
        .filter(|x| {
            if is_dir {
                x.contains(&dir_tail)
            } else {
                x.ends_with(&tail)
            }
        })
        .map(|x| {
            if is_dir {
                let end = x
                    .find(&dir_tail)
                    .map_or(x.len(), |i| i + dir_tail.len() - 1);
                x[..end].to_owned()
            } else {
                x.clone()
            }
        })
        .collect();
    matches.dedup();
    matches
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_table_column_headed_by_a_folder_holds_paths_inside_it() {
        let paths = vec![
            ".kit/scripts/check.sh".to_owned(),
            "scripts/other.sh".to_owned(),
        ];
        let text = "| Framework (`.kit/`) | Yours |\n|---|:---:|\n| `Taskfile.yml` | x |\n| `scripts/` — checks | `pkg/` |\n";
        let at = |needle: &str| text.rfind(needle).expect("in the text");
        assert_eq!(
            super::column_folder(text, at("`scripts/`"), "README.md", &paths).as_deref(),
            Some(".kit")
        );
        // The other column names no folder, and a row outside a table is
        // read as written.
        assert_eq!(
            super::column_folder(text, at("`pkg/`"), "README.md", &paths),
            None
        );
        let prose = "See `scripts/` for checks.\n";
        assert_eq!(super::column_folder(prose, 5, "README.md", &paths), None);
    }

    #[test]
    fn a_module_is_found_in_its_other_file_layout() {
        let tree = [
            "crates/x/src/ast/mod.rs",
            "pkg/util/__init__.py",
            "web/api/index.ts",
            "lib/io.rs",
        ];
        let has = |p: &str| tree.contains(&p);
        assert_eq!(
            layout_twin("crates/x/src/ast.rs", has).as_deref(),
            Some("crates/x/src/ast/mod.rs")
        );
        assert_eq!(
            layout_twin("pkg/util.py", has).as_deref(),
            Some("pkg/util/__init__.py")
        );
        assert_eq!(
            layout_twin("web/api.js", has).as_deref(),
            Some("web/api/index.ts")
        );
        assert_eq!(
            layout_twin("lib/io/mod.rs", has).as_deref(),
            Some("lib/io.rs")
        );
    }

    #[test]
    fn stays_quiet_where_no_layout_of_the_tree_has_the_module() {
        let tree = ["src/main.rs", "docs/guide.md"];
        let has = |p: &str| tree.contains(&p);
        assert_eq!(layout_twin("src/lint.rs", has), None);
        assert_eq!(layout_twin("docs/guide.txt", has), None);
        assert_eq!(layout_twin("mod.rs", has), None);
    }

    use super::*;

    /// What the resolver makes of `path`, cited in `text` of `record` (at
    /// the byte `at`, else at the text's first backtick), in a tree of
    /// `files`, with the default settings.
    fn resolved(
        files: &[(&str, &str)],
        record: &str,
        text: &str,
        at: Option<usize>,
        path: &str,
        outside_link: Option<&str>,
    ) -> CiteStatus {
        use crate::checks::cites::context::Reads;
        use crate::checks::cites::model::ExemptionSettings;
        use crate::checks::cites::testing;
        let frame = testing::frame(files);
        let (reads, on) = (Reads::default(), ExemptionSettings::default());
        let settings = CitesPlan::resolve(None, &[]).expect("defaults");
        let mut context = testing::context(&frame, &reads, &on, record, text);
        if let Some(at) = at {
            context.at = at;
        }
        resolve_path(&context, &settings, path, false, outside_link)
    }

    #[test]
    fn a_bare_name_the_page_writes_in_full_is_that_file() {
        let files = [
            ("pkg/types/x.go", "package types\n"),
            ("pkg/api/x.go", "package api\n"),
            ("docs/notes.md", ""),
        ];
        let spelled = "The types live in `pkg/types/x.go`.\n\nSee `x.go` for the rest.\n";
        let at = spelled.rfind("`x.go`").expect("the cite") + 1;
        assert!(matches!(
            resolved(&files, "docs/notes.md", spelled, Some(at), "x.go", None),
            CiteStatus::Ok { resolved } if resolved.starts_with("pkg/types/x.go (the page writes")
        ));
        // Written in full nowhere: which one is a guess.
        let bare = "See `x.go` for the rest.\n";
        assert!(!matches!(
            resolved(&files, "docs/notes.md", bare, None, "x.go", None),
            CiteStatus::Ok { .. }
        ));
    }

    #[test]
    fn a_bare_name_is_never_a_vendored_namesake() {
        let files = [
            (
                "vendor/github.com/urfave/cli/mkdocs.yml",
                "site_name: cli\n",
            ),
            ("docs/guide.md", ""),
        ];
        let text = "Add the page to `mkdocs.yml`.\n";
        assert!(!matches!(
            resolved(&files, "docs/guide.md", text, None, "mkdocs.yml", None),
            CiteStatus::Ok { .. }
        ));
        // The project's own file of the name is found as ever.
        let files = [
            (
                "vendor/github.com/urfave/cli/mkdocs.yml",
                "site_name: cli\n",
            ),
            ("site/mkdocs.yml", "site_name: ours\n"),
            ("docs/guide.md", ""),
        ];
        assert!(matches!(
            resolved(&files, "docs/guide.md", text, None, "mkdocs.yml", None),
            CiteStatus::Ok { resolved } if resolved == "site/mkdocs.yml"
        ));
    }

    #[test]
    fn a_path_into_a_package_under_src_is_the_packages() {
        let files = [
            ("src/twisted/__init__.py", ""),
            ("src/twisted/python/failure.py", "class Failure: pass\n"),
            ("docs/howto.rst", "See ``twisted/python/failure.py``.\n"),
        ];
        let ask = |path: &str| {
            let text = format!("See `{path}`.");
            resolved(&files, "docs/howto.rst", &text, None, path, None)
        };
        assert!(matches!(
            ask("twisted/python/failure.py"),
            CiteStatus::Ok { resolved } if resolved.starts_with("src/twisted/python/failure.py (the package's")
        ));
        // Not a package's path: the same rule reads nothing into it.
        assert!(!matches!(
            ask("python/failure.py"),
            CiteStatus::Ok { resolved } if resolved.contains("the package's")
        ));
    }

    #[test]
    fn a_path_its_step_runs_from_a_named_folder_is_read_from_there() {
        let files = [
            ("infrastructure/main.tf", ""),
            ("tools/dplsh/dplsh.sh", ""),
            ("docs/runbooks/release.md", ""),
        ];
        let ask = |text: &str| {
            let at = text.find("`../tools").expect("the cite") + 1;
            let path = "../tools/dplsh/dplsh.sh";
            resolved(
                &files,
                "docs/runbooks/release.md",
                text,
                Some(at),
                path,
                None,
            )
        };
        assert!(matches!(
            ask("6. Start `dplsh` from the `/infrastructure` directory of your\n   checkout by running `../tools/dplsh/dplsh.sh`.\n"),
            CiteStatus::Ok { resolved } if resolved.starts_with("tools/dplsh/dplsh.sh (from `infrastructure`")
        ));
        // A folder named in an earlier paragraph sets no step's folder.
        assert!(!matches!(
            ask("Work from the `/infrastructure` directory.\n\nRun `../tools/dplsh/dplsh.sh`.\n"),
            CiteStatus::Ok { .. }
        ));
    }

    #[test]
    fn a_link_texts_path_its_pages_folder_holds_is_found_whatever_the_site() {
        let files = [
            ("site/guides/spark/index.md", ""),
            ("site/guides/spark/notebooks/Spark.ipynb", "{}"),
        ];
        let text =
            "Open [`notebooks/Spark.ipynb`](http://127.0.0.1:8888/lab/tree/notebooks/Spark.ipynb).";
        let url = Some("http://127.0.0.1:8888/lab/tree/notebooks/Spark.ipynb");
        let ask =
            |path: &str| resolved(&files, "site/guides/spark/index.md", text, None, path, url);
        assert!(matches!(
            ask("notebooks/Spark.ipynb"),
            CiteStatus::Ok { resolved } if resolved == "site/guides/spark/notebooks/Spark.ipynb"
        ));
        // A name the folder lacks is the link's site's.
        assert!(!matches!(
            ask("notebooks/Other.ipynb"),
            CiteStatus::Stale { .. }
        ));
    }

    #[test]
    fn a_path_a_gitignore_ignores_is_no_move_to_its_namesake() {
        let files = [
            (".gitignore", "docs/personal/\n"),
            ("docs/index.md", "# Docs\n"),
            ("templates/personal/steering.md", "# Steering\n"),
            ("templates/shared/season.md", "# Season\n"),
        ];
        let ask = |path: &str| {
            let text = format!("See `{path}`.");
            resolved(&files, "README.md", &text, None, path, None)
        };
        // Each user writes the ignored file: a template of its name is no move.
        assert!(!matches!(
            ask("docs/personal/steering.md"),
            CiteStatus::Stale { .. }
        ));
        // Where no `.gitignore` speaks, the one file of that tail is the move.
        assert!(matches!(
            ask("docs/shared/season.md"),
            CiteStatus::Stale { suggestion: Some(s), .. } if s == "templates/shared/season.md"
        ));
    }

    /// Every path of the tree whose path ends with `written`, read one by one.
    fn every_path_read(paths: &[String], written: &str, is_dir: bool) -> Vec<String> {
        let (tail, dir_tail) = (format!("/{written}"), format!("/{written}/"));
        let mut found: Vec<String> = paths
            .iter()
            .filter_map(|x| match is_dir {
                true => x
                    .find(&dir_tail)
                    .map(|i| x[..i + dir_tail.len() - 1].to_owned()),
                false => x.ends_with(&tail).then(|| x.clone()),
            })
            .collect();
        found.dedup();
        found
    }

    #[test]
    fn the_name_index_finds_what_reading_every_path_finds() {
        let paths: Vec<String> = [
            "a/b/a/x.md",
            "a/b/x.md",
            "a/x.md",
            "docs/b/c.md",
            "docs/b/d/c.md",
            "docs/x.md/y.md",
            "src/docs/b/e.rs",
            "x.md",
        ]
        .map(str::to_owned)
        .to_vec();
        let names = PathNames::of(&paths);
        for written in [
            "x.md", "b/x.md", "c.md", "b/c.md", "b", "a", "docs/b", "d", "x.md", "", "b/",
        ] {
            for is_dir in [false, true] {
                assert_eq!(
                    ending_with(&paths, &names, written, is_dir),
                    every_path_read(&paths, written, is_dir),
                    "{written} {is_dir}"
                );
            }
        }
        assert_eq!(
            ending_with(&paths, &names, "b", true),
            ["a/b", "docs/b", "src/docs/b"]
        );
    }
}
