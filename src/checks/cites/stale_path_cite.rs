//! Check `stale-path-cite`: a record names a repository path in backticks that
//! does not exist.

use super::findings::cite_findings;
use super::model::CiteClass;
use crate::checks::audited::Audit;
use crate::checks::{CheckId, Finding, Severity};

const EXPLAIN: &str = "\
stale-path-cite: a record names a path that does not exist

What it checks
  Relative Markdown link targets (`[guide](../docs/guide.md#setup)`) and backticked
  repository paths (`docs/roadmap.md`, `schemas/mcp/`). A path is read as a reader
  would: from the record's own folder, then the repository root, then a configured
  test root, or — for a bare file name — anywhere; `./` and `../` are normalised,
  a symlink or submodule is a path that exists (and what a submodule holds,
  its own repository's, may be), and a link to `x`, `x/` or `x.html` finds
  the page a documentation site renders from `x.md`. A link's
  `#heading` must be a heading (GitHub's slug, or any site's spelling of it) or
  an `id` of the page it names, in-page `#anchors` included; between two pages
  of a VitePress site, the heading as VitePress slugs it (`#listen-port` for
  `.listen(port)`), since the link is followed there; `#L10-L20` on a
  source file is a line cite (stale-line-cite); on a page the forge renders
  (`blob/…/x.md#L3` with no `?plain=1`) it marks no line, and the link is the
  page's. A path the text names after it has its reader `cd` into a folder of
  the tree is read from that folder, and one under a folder the records have
  the reader copy from the tree (`cp -r inventory/sample inventory/mine`) is
  read in the folder copied; on a Hugo site's page, a path under one of
  Hugo's folders (`layouts/`, `assets/`, `static/`, …) is read where Hugo
  mounts it: the site's own folder, then each theme or module of the tree;
  its pages are its `content/` folder, or the folder its configuration's
  module mounts there (`source: ../../docs`, `target: content`), and where a
  link render hook reads links as pages, a link of neither `./` nor `../`
  is read from the page, then from that content folder. On a docsify
  site's page (under the folder of an `index.html` that sets
  `window.$docsify`), a relative link is also read from the site's root (or
  its `basePath`), as docsify routes it, unless `relativePath: true`.
  On a MkDocs site's page (`mkdocs.yml`'s `docs_dir`, or the folder of the
  tree a build file copies into a `docs_dir` the tree lacks: `cp -a docs/*
  $DOCS_ROOT`), a relative link MkDocs cannot rewrite is left to the
  browser, which reads it from the page's own address under directory URLs
  (`studio.png` on `docs/migration.md` is `docs/migration/studio.png`; not in
  a `strict` build, nor from an index page), and a link to a page its
  nav lists that a plugin or hook writes as the site builds (`gen-files`,
  `coverage`) or that a build file of the repository names (a script run
  before the build, `protoc … _api.proto.md`), to a page under a folder its
  `gen-files` script names (`Path(\"reference\", …)`), or to an old page its
  `redirects` plugin keeps, is served; with its `autolinks` plugin a link
  written as a bare file name lands on the one file of that name under the
  `docs_dir`; its configuration's Python tags (`!!python/name:…`) are read
  as text. A package's `README.md` the npm registry shows (beside a
  `package.json`, not private, whose `repository` names no `directory`) has
  its relative links read from the repository's root as well, as npm
  rewrites them (`./LICENSE` in `packages/kit/README.md`). A VitePress
  include's `@shared/x.md` is read from the site's source root. A link to an old address a page lists in its front matter
  (`aliases:`, `redirect_from:`, `redirectFrom:`) lands on that page (the
  site writes a redirect there); one from the site's root is read under each
  folder above the page, its base path's segments dropped. An MDX page's
  component offers the ids it renders for what it documents: its
  `displayName`'s slug (else its reference's last name), the rows under an
  `idPrefix`, and, when it takes a heading level, rows under its name's
  last part (`#options-fetch`). A Docusaurus
  site (version 1's `siteConfig.js` too) reads a link that starts with
  neither `./` nor `../` from its docs folder as well as from the page; a
  MyST page's `#name` with no target of that name is the document `name`
  beside it.
  A link to the repository's own hosted page (`https://github.com/o/r/blob/main/x`,
  `tree/`, `raw.githubusercontent.com`, GitLab's `/-/blob/`) names that path
  exactly, read at the tree its ref shows (the default branch: the audited one).
  A backticked path that names nothing is reported when it is plausibly this
  repository's — its folder is one of the tree's and a file has an extension —
  or when the history behind the snapshot had it. In a changelog the newest
  release is read at its tag.
  Evidence first: a path or link that does not resolve (or a backticked path
  that now resolves only to a namesake elsewhere) is read at the commit that
  wrote it into the record. Resolved as written then and not now: stale,
  whatever the prose around it says, with the commit that broke it and what
  became of the target (\"renamed to `tools/schemas.sh` in 1a2b3c4d\",
  \"deleted in 1a2b3c4d\"; a folder \"split into `a` and `b`\" when its files
  went to several); a link's `#heading` the same way (\"the heading
  became ...\"). A cite whose text a rewrite of the record's paths wrote (a sed
  after a folder was renamed: the line changed in place, one path with the same
  file name swapped for another) is judged as the line first cited it. A path
  whose module the tree holds in the language's other file layout (`ast.rs`,
  `ast/mod.rs`) or whose last folder and file one file of the tree alone has
  (under a first folder the tree has), and a link whose file is there from a
  folder above its page, are stale with that file. A backticked path that did not resolve when written either is
  no drift (never-resolved), unless a file one or two edits from its name stood
  beside it then, or one of its name deeper in its folder (a typo, reported with
  that file); a link that never resolved is still stale. A backticked bare file
  name (`requirements.txt`) is a name before it is a path: not held to its
  history.
  What the history cannot decide goes to the exemptions below, tried in this
  order; the first that fires is the reason `recount cites` lists, and
  `[cites.exemptions] <id> = false` in a rule file turns one off:
{exemptions}

Why
  A record that points readers at a moved or deleted file sends them nowhere, and
  usually means the prose around it is out of date too.

Example
  The record says the schemas are checked by `tools/check_schemas.sh`; the script
  was renamed to `tools/schemas.sh`: stale-path-cite at the backticked path.

How to fix
  Name the path as it is now, or remove the sentence if the thing is gone.
";

/// The documentation, the exemptions' list (generated from their registry)
/// appended where the text leaves a place for it.
pub fn explain() -> &'static str {
    static TEXT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    TEXT.get_or_init(|| {
        EXPLAIN.replace(
            "{exemptions}\n",
            &super::exemptions::Exemption::explain_list(),
        )
    })
}

/// Default severity: an error for a link target that names nothing (an
/// explicit citation); a backticked path is read as a path heuristically, so
/// its findings, the inferred tier, are warnings.
pub const SEVERITY: Severity = Severity::Error;

/// The words under the finding's span in a human diagnostic: the finding
/// says "no such anchor" itself when its page is there and its anchor is not.
pub fn label(finding: &Finding) -> String {
    finding.label.unwrap_or("no such path").to_owned()
}

pub fn run(audit: &Audit) -> Vec<Finding> {
    cite_findings(audit, CiteClass::Path, CheckId::StalePathCite)
}
