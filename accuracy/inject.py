#!/usr/bin/env python3
"""Drift-injection harness: recall of recount's citation checks on real drift.

What it measures. For a repository at a commit, every citation `recount cites`
lists as `ok` *and* resolving exactly as written (the text names the resolved
target relative to the record's folder or to the root; a built page's route to
its own source, `x.html` or `x` for `x.md`, counts as written; anything found
by a fallback -- "the nearest of N paths ending so", a namesake in another
folder -- is dropped) is a candidate. A seeded random sample of targets per
kind is broken the way real commits break them:

    kind     cited as                                  breaks
    file     a file link or backticked file path       move (one folder down), delete
             with a folder in it (`src/x.rs`)
    name     the same, a bare file name (`Cargo.toml`)  move (one folder down), delete
    folder   a folder link or backticked folder        move-dir (one folder down), delete-dir,
                                                       split-dir (its files halved into `x-a/`, `x-b/`)
    noext    a file cited with a folder, whose name     move, delete
             has no extension (`bin/load-images`)
    sublink  a link from a page in a subfolder, read    move, delete
             from the page's folder (`../x/y.md`)
    rewrite  a file cited from the root with a folder   move-then-sed (`moved/` under its top folder; then a
             (`src/x.py`), from a record outside its    second commit renames its top folder and
             top folder                                 rewrites the record's line to match, as a
                                                        sed over the docs would: the cite's text
                                                        is written anew, naming a path that never was)
    anchor   path#heading or #heading                  reword (the heading's text, so its anchor changes)
    line     path:N, path:N-M, path#LN-LM              shift (7 lines inserted above line N)
    test     file.py::test_name, Rust test ids, ...    rename (the test function)
    item     file.rs::item (a Rust item, not a test)   rename (the item)
    label    :ref:`label` a page defines explicitly    drop (its `.. _label:` target)
    object   :func:`pkg.mod.name` a module defines     rename (the name, in its module)
    changelog  path#heading into release notes          drop-heading (the release's heading line
             (CHANGELOG, CHANGES, HISTORY, NEWS,        deleted, as a changelog split into
             RELEASES) from another record              per-series files leaves it)
    ext      a file cited by path or bare name whose   re-extend (renamed, its extension changed:
             extension has a common successor          `.yml`->`.yaml`, `.js`->`.ts`, `.ts`->`.mts`,
             (a route, `x` or `x.html`, to a page       `.md`->`.mdx`, `.rst`->`.md`, ...)
             that keeps a suffix a site renders
             is not expected to break)
    admonition  a label, object or file with a folder  drop, rename, delete (as its kind breaks)
             cited inside the body of an rst
             admonition (`.. note::`, `.. warning::`)

Each break is committed on top of the audited commit without a checkout and
without touching the mirror: a temporary bare repository borrows the mirror's
objects (`objects/info/alternates`) and refs (a copy of the ref list), and the
new tree is built with plumbing (read-tree into a temporary index, hash-object,
update-index --index-info, write-tree, commit-tree with fixed dates, so commit
ids are stable). Breaks that cannot interfere share a commit (see `batch`);
`--one-per-commit` commits each alone (slower, for checking that batching
changes nothing).

For every break the harness computes which candidates it must make stale --
every candidate of the same target, of any kind, not only the sampled one --
runs `recount check --format json` at the new commit, and matches the
stale-path-cite / stale-line-cite / stale-test-cite findings by record, line,
column and cite text. For each miss it runs `recount cites` at the new commit
and records the citation's status there and recount's reason (`why`, or what
it resolved to).

Usage:

    accuracy/inject.py --recount PATH --repo BAREDIR --rev COMMIT [--name owner/name]
    accuracy/inject.py --recount PATH --corpus accuracy/corpus.tsv --mirrors /work/.mirror \
        [--only owner/name,...] [--skip owner/name,...]
    common: [--sample 20] [--seed 2026] [--out FILE.tsv] [--misses FILE.tsv] [--timeout 600]
            [--kinds line,test,...] [--suffix] [--one-per-commit] [--since]

The mirror of owner/name is MIRRORS/owner+name/repo (a bare git directory).
`--out` gets one row per repository, kind and break (breaks: how many
distinct breaks broke citations of that kind; broken; reported);
`--misses` one row per miss with recount's status and reason. Python 3.11,
standard library only; exit 0 whatever the recall.
"""

import argparse
import collections
import csv
import dataclasses
import json
import os
import posixpath
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unicodedata
import urllib.parse

CITE_CHECKS = {"stale-path-cite", "stale-line-cite", "stale-test-cite"}
BREAKS_BY_KIND = {
    "file": ["move", "delete"],
    "name": ["move", "delete"],
    "folder": ["move-dir", "delete-dir", "split-dir"],
    # shapes: pools of file citations of a particular shape, broken as files
    # are (their rows are the shape's, not `file`'s)
    "noext": ["move", "delete"],
    "sublink": ["move", "delete"],
    "rewrite": ["move-then-sed"],
    "anchor": ["reword"],
    "line": ["shift"],
    "test": ["rename"],
    "item": ["rename"],
    "label": ["drop"],
    "object": ["rename"],
    "changelog": ["drop-heading"],
    "ext": ["re-extend"],
    "admonition": ["drop", "rename", "delete"],
}
KINDS = list(BREAKS_BY_KIND)
SHAPES = {"noext", "sublink", "rewrite", "changelog", "ext", "admonition"}
BREAK_TYPES = ["move", "delete", "move-dir", "delete-dir", "split-dir", "move-then-sed", "reword",
               "drop-heading", "re-extend", "shift", "rename", "drop"]
# a file's extension and the one projects commonly rename it to
NEXT_EXTENSION = {
    ".yml": ".yaml", ".yaml": ".yml", ".js": ".ts", ".ts": ".mts", ".jsx": ".tsx", ".md": ".mdx",
    ".rst": ".md", ".txt": ".md", ".c": ".cc", ".h": ".hpp", ".ipynb": ".md",
}
# the files a build reads its paths from (a rename updates them with the file)
BUILD_FILE = re.compile(
    r"(?:^|/)(?:Makefile|GNUmakefile|[Jj]ustfile|Taskfile\.ya?ml|tox\.ini|noxfile\.py|Rakefile"
    r"|pixi\.toml|\.readthedocs\.ya?ml|[^/]+\.mk|[^/]+\.sh)$|^\.github/workflows/[^/]+\.ya?ml$")
# a link written without its extension is a site's route: its page may be either
ROUTE_SOURCES = {".md", ".mdx", ".rst"}
RELEASE_NOTES = re.compile(r"^(change ?log|changes|history|news|releases?|release[-_ ]?notes)(\.\w+)?$", re.I)
ADMONITION = re.compile(
    r"^(?P<indent>[ \t]*)\.\. +(?:note|warning|tip|hint|important|caution|danger|attention|error|"
    r"admonition|seealso)::(?P<rest>.*)$")
SHIFT = 7  # lines inserted above a line cite's target
IDENT = {
    "GIT_AUTHOR_NAME": "drift injector",
    "GIT_AUTHOR_EMAIL": "inject@recount.invalid",
    "GIT_COMMITTER_NAME": "drift injector",
    "GIT_COMMITTER_EMAIL": "inject@recount.invalid",
}


class RunError(Exception):
    """recount or git could not run (or timed out): reported, never fatal."""


# --------------------------------------------------------------------------
# git and recount


def git(gitdir, *args, input=None, env=None, binary=False):
    full_env = dict(os.environ, GIT_DIR=gitdir, **(env or {}))
    full_env.pop("GIT_WORK_TREE", None)
    p = subprocess.run(
        ["git", *args],
        input=input if binary or input is None else input.encode(),
        capture_output=True,
        env=full_env,
    )
    if p.returncode != 0:
        raise RunError(f"git {' '.join(args[:3])}: {p.stderr.decode(errors='replace').strip()}")
    return p.stdout if binary else p.stdout.decode("utf-8", errors="surrogateescape")


def run_recount(recount, sub, repo, rev, timeout, extra=()):
    """`recount SUB --repo REPO --rev REV --format json`, parsed; exit 0 and 1 are answers."""
    try:
        p = subprocess.run(
            [recount, sub, "--repo", repo, "--rev", rev, "--format", "json", *extra],
            capture_output=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        raise RunError(f"recount {sub} timed out after {timeout} s")
    if p.returncode not in (0, 1):
        raise RunError(f"recount {sub} exited {p.returncode}: {p.stderr.decode(errors='replace')[-300:]}")
    return json.loads(p.stdout)


def list_tree(gitdir, rev):
    """path -> (mode, sha) for every blob (and link) of rev's tree, and the set of folders."""
    files = {}
    out = git(gitdir, "ls-tree", "-r", "-z", "--full-tree", rev)
    for entry in out.split("\0"):
        if not entry:
            continue
        meta, path = entry.split("\t", 1)
        mode, typ, sha = meta.split()
        if typ == "blob":
            files[path] = (mode, sha)
    return files, folders_of(files)


def folders_of(paths):
    dirs = set()
    for p in paths:
        d = posixpath.dirname(p)
        while d and d not in dirs:
            dirs.add(d)
            d = posixpath.dirname(d)
    return dirs


class Blobs:
    """Reads blobs of the mirror, cached."""

    def __init__(self, gitdir, files):
        self.gitdir, self.files, self.cache = gitdir, files, {}

    def text(self, path):
        if path not in self.cache:
            raw = git(self.gitdir, "cat-file", "blob", self.files[path][1], binary=True)
            try:
                self.cache[path] = raw.decode("utf-8")
            except UnicodeDecodeError:
                self.cache[path] = None
        return self.cache[path]


# --------------------------------------------------------------------------
# stage 1: citations that resolve exactly as written


@dataclasses.dataclass
class Cite:
    record: str
    line: int
    column: int
    text: str
    kind: str  # file | folder | anchor | line | test | item | label | object
    target: str  # the file or folder it names
    anchor: str = ""  # kind anchor: the fragment, decoded
    start: int = 0  # kind line: the first and last line named
    end: int = 0
    name: str = ""  # kind test/item: the function named; label: the label; object: its last name
    tier: str = ""

    @property
    def key(self):
        return (self.record, self.line, self.column, self.text)

    @property
    def at(self):
        return f"{self.record}:{self.line}"


def parse_at(at):
    record, line, column = at.rsplit(":", 2)
    return record, int(line), int(column)


def written_candidates(record, path):
    """The targets a relative path names as written: beside the record, or from the root."""
    path = urllib.parse.unquote(path.split("?", 1)[0])
    if path.startswith("/"):
        bases = [posixpath.normpath(path.lstrip("/"))]
    else:
        bases = [posixpath.normpath(posixpath.join(posixpath.dirname(record), path)), posixpath.normpath(path)]
    out = []
    for b in bases:
        b = b.rstrip("/")
        if b.startswith("..") or b in ("", "."):
            continue
        out.append(b)
        # a site's route to its own source: x.html or x for x.md, a folder for its index page
        if b.endswith(".html"):
            out.append(b[: -len(".html")] + ".md")
        else:
            out.append(b + ".md")
        out += [f"{b}/{index}" for index in ("README.md", "index.md", "_index.md")]
    return out


LINE_HASH = re.compile(r"^(?P<path>.*)#L(?P<a>\d+)(?:C\d+)?(?:-L(?P<b>\d+)(?:C\d+)?)?$")
LINE_COLON = re.compile(r"^(?P<path>.*?):(?P<a>\d+)(?:[-:](?P<b>\d+))?$")


def as_written(record, path, resolved, suffix):
    """Whether resolved is what path names as written (or, with suffix, ends with it)."""
    if resolved in written_candidates(record, path):
        return True
    tail = posixpath.normpath(urllib.parse.unquote(path)).lstrip("./").rstrip("/")
    return suffix and "/" in tail and resolved.endswith("/" + tail)


def strict_cite(c, files, dirs, suffix=False):
    """A Cite when c is ok and resolves exactly as written, else (None, why dropped).

    With suffix, a line cite or a test id whose path is a unique tail of the
    resolved path (`src/a.rs:3` for `crates/x/src/a.rs`, no "nearest of N"
    note) counts too: not as written, but not a namesake guessed among several.
    """
    st = c["status"]
    if st["status"] != "ok":
        return None, "not ok"
    record, line, column = parse_at(c["at"])
    text, resolved = c["text"], st["resolved"]
    # A Sphinx label a page defines by an explicit target (`.. _intro:`),
    # and a Python role's object a module defines (`src/pkg/app.py: Flask`).
    m = re.match(r"^label `(.+)` \((.+)\)$", resolved)
    if m:
        label, page = m.group(1), m.group(2)
        if page not in files:
            return None, "label of no page"
        return Cite(kind="label", target=page, name=label, record=record, line=line,
                    column=column, text=text, tier=c["tier"]), ""
    m = re.match(r"^(\S+\.py): ([A-Za-z_][\w.]*)$", resolved)
    if m and re.match(r"^[A-Za-z_][\w.]*$", text):
        if m.group(1) not in files:
            return None, "object of no file"
        return Cite(kind="object", target=m.group(1), name=m.group(2).split(".")[-1], record=record,
                    line=line, column=column, text=text, tier=c["tier"]), ""
    note = ""
    m = re.match(r"^(.*?) \((.*)\)$", resolved)
    if m:
        resolved, note = m.group(1), m.group(2)
        if note != "defined, not a test":
            return None, "fallback: " + re.sub(r"\d+", "N", note)
    base = dict(record=record, line=line, column=column, text=text, tier=c["tier"])
    if c["kind"] == "path":
        path, _, anchor = text.partition("#")
        target = record if path == "" else resolved
        if path and resolved not in written_candidates(record, path):
            return None, "not as written"
        if path == "" and resolved != record:
            return None, "not as written"
        if anchor:
            if target not in files:
                return None, "anchor of a folder"
            return Cite(kind="anchor", target=target, anchor=urllib.parse.unquote(anchor), **base), ""
        if target in files:
            # A bare file name (`Cargo.toml`, `./setup.cfg`) is its own kind:
            # recount holds a link of it to its history, not a backticked one.
            bare = "/" not in (path[2:] if path.startswith("./") else path)
            return Cite(kind="name" if bare else "file", target=target, **base), ""
        if target in dirs:
            return Cite(kind="folder", target=target, **base), ""
        return None, "resolved to neither a file nor a folder"
    if c["kind"] == "line":
        m = LINE_HASH.match(text) or LINE_COLON.match(text)
        if not m:
            return None, "line cite of an unknown shape"
        a = int(m.group("a"))
        b = int(m.group("b") or a)
        rpath = re.sub(r":\d+(-\d+)?$", "", resolved)
        if not as_written(record, m.group("path"), rpath, suffix) or rpath not in files:
            return None, "not as written"
        if b < a:  # `path:12:5` is a line and a column
            b = a
        return Cite(kind="line", target=rpath, start=a, end=b, **base), ""
    if c["kind"] == "test":
        if "::" not in text or text.startswith("::"):
            return None, "test shorthand"
        path, _, rest = text.partition("::")
        rpath, _, rrest = resolved.partition("::")
        if not as_written(record, path, rpath, suffix) or rpath not in files or rrest != rest:
            return None, "not as written"
        name = rest.split("::")[-1].split("[", 1)[0]
        kind = "item" if note == "defined, not a test" else "test"
        return Cite(kind=kind, target=rpath, name=name, **base), ""
    return None, "unknown kind"


def list_citations(recount, repo, rev, files, dirs, timeout, suffix=False):
    """Stage 1: every citation, and the candidates among them."""
    doc = run_recount(recount, "cites", repo, rev, timeout)
    cands, dropped, seen = [], collections.Counter(), set()
    audited = doc.get("snapshot", {}).get("label")
    for c in doc["citations"]:
        # A cite read at another tree (a section's frame, a release's tag, a
        # link pinned to a commit) does not break with the audited one.
        if audited and c.get("frame") != audited:
            dropped[(c["kind"], "read at another frame")] += 1
            continue
        cite, why = strict_cite(c, files, dirs, suffix)
        if cite and cite.key not in seen:
            seen.add(cite.key)
            cands.append(cite)
        elif cite:
            dropped[(c["kind"], "listed twice")] += 1
        else:
            dropped[(c["kind"], why)] += 1
    return doc["citations"], cands, dropped


# --------------------------------------------------------------------------
# headings and anchors


FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
ATX = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)[ \t]*$")
SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")


def headings(text):
    """(line index, heading text, explicit id or '') for every heading outside code fences."""
    out, fence = [], None
    lines = text.split("\n")
    for i, raw in enumerate(lines):
        m = FENCE.match(raw)
        if fence:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                fence = None
            continue
        if m:
            fence = m.group(1)
            continue
        m = ATX.match(raw)
        if m:
            body = re.sub(r"[ \t]+#+$", "", m.group(2))
            ident = re.search(r"\{#([^}\s]+)[^}]*\}\s*$", body)
            out.append((i, body, ident.group(1) if ident else ""))
        elif i > 0 and SETEXT.match(raw) and lines[i - 1].strip() and not lines[i - 1].startswith((" " * 4, "\t")):
            prev = lines[i - 1]
            if not ATX.match(prev) and not re.match(r"^\s*([-*+]|\d+\.)\s", prev) and "|" not in prev:
                out.append((i - 1, prev.strip(), ""))
    return out


def plain(heading):
    s = re.sub(r"!\[[^\]]*\]\([^)]*\)", "", heading)
    s = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", s)
    s = re.sub(r"\[([^\]]*)\]\[[^\]]*\]", r"\1", s)
    s = re.sub(r"<[^>]+>", "", s)
    s = re.sub(r"\{#[^}]*\}\s*$", "", s)
    return s.replace("`", "").replace("*", "")


def slugs(heading):
    """The anchors common renderers give a heading (GitHub; mkdocs/Python-Markdown; mdBook)."""
    s = plain(heading).strip()
    gh = "".join(ch for ch in s.lower() if ch in " -_" or unicodedata.category(ch)[0] in "LNM")
    out = {gh.replace(" ", "-")}
    py = re.sub(r"[^\w\s-]", "", unicodedata.normalize("NFKD", s)).strip().lower()
    out.add(re.sub(r"[-\s]+", "-", py))
    out.add(re.sub(r"-+", "-", gh.replace(" ", "-")).strip("-"))
    return {x for x in out if x}


def anchor_index(text):
    """anchor -> heading line index, for anchors exactly one heading of the file gives."""
    seen = collections.defaultdict(set)
    for i, body, ident in headings(text):
        for s in ([ident] if ident else slugs(body)):
            seen[s].add((i, bool(ident)))
    return {a: next(iter(v)) for a, v in seen.items() if len(v) == 1}


def reword(heading):
    """The heading with a word added after its first one, so every renderer's anchor changes."""
    words = heading.split(" ")
    if len(words) == 1:
        return "About " + heading
    return words[0] + " revised " + " ".join(words[1:])


# --------------------------------------------------------------------------
# stage 2: breaks


@dataclasses.dataclass
class Break:
    kind: str  # the sampled citation's kind
    type: str  # move | delete | move-dir | delete-dir | reword | shift | rename
    target: str  # the file or folder broken
    sample: Cite
    detail: str = ""  # the anchor, the line, the name
    removes: list = dataclasses.field(default_factory=list)  # paths gone at the old place
    adds: dict = dataclasses.field(default_factory=dict)  # path -> (mode, sha or None, new text or None)
    shifts: dict = dataclasses.field(default_factory=dict)  # path -> (insert before line, count)
    expected: list = dataclasses.field(default_factory=list)
    anchors: tuple = ()  # kind anchor: the file's anchor index before and after
    # a second commit on top of the first (move-then-sed: the rewrite)
    then_removes: list = dataclasses.field(default_factory=list)
    then_adds: dict = dataclasses.field(default_factory=dict)

    @property
    def touched(self):
        return set(self.removes) | set(self.adds)

    @property
    def label(self):
        return f"{self.type} {self.target}" + (f" ({self.detail})" if self.detail else "")


COMMENT = {
    ".py": "#", ".sh": "#", ".toml": "#", ".yml": "#", ".yaml": "#", ".rb": "#", ".pl": "#",
    ".r": "#", ".nu": "#", ".ps1": "#", ".mk": "#", ".cfg": "#", ".ini": ";", ".sql": "--",
    ".lua": "--", ".hs": "--", ".md": "<!-- -->", ".html": "<!-- -->", ".xml": "<!-- -->",
    ".css": "/* */", ".json": "", ".txt": "",
}


def inserted_lines(path, n):
    ext = posixpath.splitext(path)[1].lower()
    mark = COMMENT.get(ext, "//")
    if posixpath.basename(path) in ("Makefile", "Dockerfile", "Justfile", "justfile"):
        mark = "#"
    if mark == "<!-- -->":
        return [f"<!-- injected line {k} -->" for k in range(1, n + 1)]
    if mark == "/* */":
        return [f"/* injected line {k} */" for k in range(1, n + 1)]
    return [f"{mark} injected line {k}".strip() for k in range(1, n + 1)]


def renamed(name):
    return "test_renamed_" + name[5:] if name.startswith("test_") else "renamed_" + name


def one_down(path):
    d, b = posixpath.split(path)
    return posixpath.join(d, "moved", b)


def shapes_of(c):
    """The shape pools a candidate also belongs to.

    noext    a file cited with a folder whose name has no extension (`bin/load`)
    sublink  a link from a page in a subfolder, read from that page's folder
    rewrite  a file cited from the root with a folder (`src/x.py`), from a
             record outside that top folder: broken by moving the file under
             a folder inserted below the top one, then renaming the top folder and rewriting the
             record's line as a sed over the docs would (`src/` -> `src-renamed/`),
             so the cite's text is written anew naming a path that never was
    changelog  an anchor into release notes, cited from another record
    ext        a file (by path or bare name) whose extension has a common successor

    (admonition needs the record's text: see `admonition_lines`)
    """
    if c.kind == "anchor":
        note = posixpath.basename(c.target)
        return ["changelog"] if RELEASE_NOTES.match(note) and c.target != c.record else []
    if c.kind == "name":
        return ["ext"] if posixpath.splitext(c.target)[1].lower() in NEXT_EXTENSION else []
    if c.kind != "file":
        return []
    out = []
    if posixpath.splitext(c.target)[1].lower() in NEXT_EXTENSION:
        out.append("ext")
    path = c.text.split("#", 1)[0]
    plain = path[2:] if path.startswith("./") else path
    if "." not in posixpath.basename(c.target):
        out.append("noext")
    folder = posixpath.dirname(c.record)
    if (c.tier == "explicit" and folder and not path.startswith("/")
            and c.target == posixpath.normpath(posixpath.join(folder, urllib.parse.unquote(path)))):
        out.append("sublink")
    top = c.target.split("/", 1)[0]
    if plain == c.target and "/" in c.target and not c.record.startswith(top + "/"):
        out.append("rewrite")
    return out


def admonition_lines(text):
    """The 1-based lines of an rst page inside an admonition: the directive's
    own line and its body (blank lines, and lines indented deeper than it)."""
    out, lines = set(), text.split("\n")
    i = 0
    while i < len(lines):
        m = ADMONITION.match(lines[i])
        if not m:
            i += 1
            continue
        depth = len(m.group("indent").expandtabs())
        out.add(i + 1)
        i += 1
        while i < len(lines):
            line = lines[i]
            if line.strip() and len(line.expandtabs()) - len(line.expandtabs().lstrip()) <= depth:
                break
            out.add(i + 1)
            i += 1
    return out


def make_break(kind, btype, cite, files, blobs):
    """The edits of one break of cite's target, or None when it cannot be broken that way."""
    b = Break(kind=kind, type=btype, target=cite.target, sample=cite)
    if btype == "move-then-sed":
        return rewrite_break(b, cite, files, blobs)
    if btype == "split-dir":
        under = sorted(p for p in files if p.startswith(cite.target + "/"))
        if len(under) < 2:
            return None
        half = len(under) // 2
        b.removes = under
        for i, p in enumerate(under):
            new = cite.target + ("-a" if i < half else "-b") + p[len(cite.target):]
            if new in files:
                return None
            b.adds[new] = (files[p][0], files[p][1], None)
        b.detail = f"into {cite.target}-a and {cite.target}-b"
        return b
    if btype == "re-extend":
        root, ext = posixpath.splitext(cite.target)
        new = root + NEXT_EXTENSION.get(ext.lower(), "")
        if new == cite.target or new in files:
            return None
        b.removes = [cite.target]
        b.adds[new] = (files[cite.target][0], files[cite.target][1], None)
        # A rename updates the build files that name the file (a Makefile's
        # target, a workflow's path), or the build breaks: as a real commit would.
        for path in files:
            if path != cite.target and BUILD_FILE.search(path):
                text = blobs.text(path)
                if text and cite.target in text:
                    b.adds[path] = (files[path][0], None, text.replace(cite.target, new))
        b.detail = f"to {posixpath.basename(new)}"
        return b
    if kind == "changelog":
        kind = "anchor"
    elif kind == "admonition":
        # broken the way its own kind is
        if {"label": "drop", "object": "rename", "file": "delete"}.get(cite.kind) != btype:
            return None
        kind = cite.kind
    elif kind in SHAPES:
        kind = "file"
    if kind in ("file", "name", "folder"):
        under = [cite.target] if kind in ("file", "name") else [p for p in files if p.startswith(cite.target + "/")]
        b.removes = sorted(under)
        if btype.startswith("move"):
            dest = one_down(cite.target)
            for p in under:
                new = dest + p[len(cite.target):]
                if new in files:
                    return None
                b.adds[new] = (files[p][0], files[p][1], None)
        return b
    text = blobs.text(cite.target)
    if text is None:
        return None
    mode = files[cite.target][0]
    if kind == "anchor":
        idx = anchor_index(text)
        hit = idx.get(cite.anchor) or idx.get(cite.anchor.lower())
        if not hit or hit[1]:  # no heading of that anchor, or one with an explicit id
            return None
        i = hit[0]
        lines = text.split("\n")
        old = lines[i]
        m = ATX.match(old)
        if btype == "drop-heading":
            # the heading line goes (a setext heading's underline with it); its text stays a paragraph's
            del lines[i: i + (1 if m else 2)]
        elif m:
            lines[i] = old[: m.start(2)] + reword(m.group(2)) + old[m.end(2):]
        else:
            lines[i] = reword(old.strip())
        b.detail = f"#{cite.anchor}: line {i + 1}"
        b.anchors = (idx, anchor_index("\n".join(lines)))
        b.adds[cite.target] = (mode, None, "\n".join(lines))
        return b
    if kind == "line":
        lines = text.split("\n")
        if cite.start < 1 or cite.start > len(lines):
            return None
        at = cite.start - 1
        lines[at:at] = inserted_lines(cite.target, SHIFT)
        b.detail = f"{SHIFT} lines above line {cite.start}"
        b.shifts[cite.target] = (cite.start, SHIFT)
        b.adds[cite.target] = (mode, None, "\n".join(lines))
        return b
    if kind == "label":
        # The page's explicit target of the label, dropped (a label Sphinx
        # makes of a title, or one the page repeats, is left alone).
        target = re.compile(r"^[ \t]*\.\. _" + re.escape(cite.name) + r":[ \t]*$", re.I | re.M)
        if len(target.findall(text)) != 1:
            return None
        b.detail = f"drop the target `{cite.name}`"
        b.adds[cite.target] = (mode, None, target.sub("", text))
        return b
    if kind in ("test", "item", "object"):
        pat = re.compile(r"(?<![\w$])" + re.escape(cite.name) + r"(?![\w$])")
        new, n = pat.subn(renamed(cite.name), text)
        if n == 0:
            return None
        b.detail = f"{cite.name} -> {renamed(cite.name)}"
        b.adds[cite.target] = (mode, None, new)
        return b
    return None


def rewrite_break(b, cite, files, blobs):
    """move-then-sed: the file one folder down, then its top folder renamed
    and the record's line rewritten to the new top folder (see shapes_of)."""
    # a folder inserted under the top one (ruff's `src/x/settings.rs` became
    # `src/rules/x/settings.rs`): the file leaves its own folder's subtree
    top, rest = cite.target.split("/", 1)
    dest = f"{top}/moved/{rest}"
    renamed_top = top + "-renamed"
    if dest in files or any(p.startswith(renamed_top + "/") for p in files):
        return None
    text = blobs.text(cite.record)
    if text is None:
        return None
    lines = text.split("\n")
    if not 1 <= cite.line <= len(lines) or cite.text not in lines[cite.line - 1]:
        return None
    at = cite.text.find(top + "/")
    if at < 0:
        return None
    new_text = cite.text[:at] + renamed_top + cite.text[at + len(top):]
    lines[cite.line - 1] = lines[cite.line - 1].replace(cite.text, new_text, 1)
    b.removes = [cite.target]
    b.adds[dest] = files[cite.target][0], files[cite.target][1], None
    # the second commit: the top folder renamed (the moved file with it), the line rewritten
    after = {p: v for p, v in files.items() if p != cite.target}
    after[dest] = files[cite.target]
    under = sorted(p for p in after if p.startswith(top + "/"))
    b.then_removes = under
    for p in under:
        b.then_adds[renamed_top + p[len(top):]] = (after[p][0], after[p][1], None)
    b.then_adds[cite.record] = (files[cite.record][0], None, "\n".join(lines))
    b.detail = f"then {top}/ -> {renamed_top}/ and the line rewritten"
    return b


LANGUAGE = re.compile(r"^[a-z]{2}(?:[-_][A-Za-z]{2,4})?$")


def source_language_page(target, files):
    """The English page that stands for a translated one (`docs/de/x.md` ->
    `docs/en/x.md`; Docusaurus' `i18n/de/docusaurus-plugin-content-docs/current/x.md`
    -> `docs/x.md`), when the tree has it: a site with a translation's
    fallback serves it for a page the translation lacks (fastapi deleted its
    untranslated pages on purpose), so deleting the translated page breaks
    nothing."""
    m = re.match(r"^(?P<site>(?:.*/)?)i18n/[^/]+/docusaurus-plugin-content-docs/current/(?P<rest>.+)$", target)
    if m:
        default = f"{m.group('site')}docs/{m.group('rest')}"
        return default if default in files else None
    parts = target.split("/")
    for i, segment in enumerate(parts[:-1]):
        if segment != "en" and LANGUAGE.match(segment):
            english = "/".join(parts[:i] + ["en"] + parts[i + 1:])
            if english in files:
                return english
    return None


def route_served(c, b):
    """Whether c names its page as a site's route (no extension written) and
    the page kept a suffix a site renders it from."""
    written = posixpath.basename(c.text.split("#", 1)[0].rstrip("/"))
    new = next(iter(b.adds), "")
    route = "." not in written or written.endswith(".html")
    return (route and posixpath.splitext(c.target)[1] in ROUTE_SOURCES
            and posixpath.splitext(new)[1] in ROUTE_SOURCES)


def expected_for(b, cands, files, dirs):
    """Every candidate the break must make stale (not only the sampled one)."""
    if b.type == "move-then-sed":
        # the sampled cite, rewritten; every other of the target broke as a move
        top = b.target.split("/", 1)[0]
        return [c for c in cands if c.target == b.target and not c.record.startswith(top + "/")
                and (c.kind != "file" or c is b.sample or c.record != b.sample.record
                     or c.line != b.sample.line)]
    gone = set(b.removes) - set(b.adds)
    new_files = (set(files) - gone) | set(b.adds)
    new_dirs = folders_of(new_files)
    out = []
    for c in cands:
        if c.record in gone:
            continue  # its record moved or went: the citation is no longer there
        if b.type in ("delete", "delete-dir", "re-extend") and source_language_page(c.target, new_files):
            continue  # a translated page deleted is served by its source language's page
        if c.kind == "folder":
            hit = c.target not in new_dirs
        elif c.kind == "label" and c.target in gone:
            # A label is the project's wherever its page is: only a page
            # that went takes it (a move keeps it, one folder down).
            hit = not any(posixpath.basename(p) == posixpath.basename(c.target) for p in b.adds)
        elif c.target in gone and b.type == "re-extend" and route_served(c, b):
            hit = False  # a route (`api/view`) is served from the page whatever its extension
        elif c.target in gone:
            hit = True
        elif c.kind == "anchor" and b.type in ("reword", "drop-heading") and c.target == b.target:
            before, after = b.anchors
            hit = any(a in before and a not in after for a in (c.anchor, c.anchor.lower()))
        elif c.kind == "line" and c.target in b.shifts:
            hit = c.end >= b.shifts[c.target][0]
        elif c.kind in ("test", "item", "object") and b.type == "rename" and c.target == b.target:
            hit = c.name == b.sample.name
        elif c.kind == "label" and b.type == "drop" and c.target == b.target:
            hit = c.name.lower() == b.sample.name.lower()
        else:
            hit = False
        if hit:
            out.append(c)
    return out


def plan_breaks(cands, files, dirs, blobs, sample, rng, kinds=None):
    """Stage 2: a seeded sample of distinct targets per kind and break type."""
    by_kind = collections.defaultdict(list)
    inside = {}  # record -> its lines inside admonition bodies
    for c in cands:
        by_kind[c.kind].append(c)
        for shape in shapes_of(c):
            by_kind[shape].append(c)
        # (a bare name's deletion is the `name` kind's question, not the body's)
        if c.kind in ("label", "object", "file") and c.record.endswith(".rst"):
            if c.record not in inside:
                inside[c.record] = admonition_lines(blobs.text(c.record) or "")
            if c.line in inside[c.record]:
                by_kind["admonition"].append(c)
    breaks, pool_sizes = [], {}
    for kind in KINDS:
        if kinds and kind not in kinds:
            continue
        for btype in BREAKS_BY_KIND[kind]:
            # one break per distinct target: the citations of a target are broken together
            targets = collections.OrderedDict()
            for c in sorted(by_kind[kind], key=lambda c: c.key):
                tkey = (c.target, c.anchor, c.start, c.name)
                targets.setdefault(tkey, c)
            order = list(targets.values())
            rng.shuffle(order)
            made = 0
            for c in order:
                if made >= sample:
                    break
                b = make_break(kind, btype, c, files, blobs)
                if b is None:
                    continue
                b.expected = expected_for(b, cands, files, dirs)
                if not b.expected:
                    continue
                breaks.append(b)
                made += 1
            pool_sizes[(kind, btype)] = len(order)
    return breaks, pool_sizes


# --------------------------------------------------------------------------
# stage 3: commits without a checkout


def batch(breaks, one_per_commit):
    """Groups breaks that cannot interfere into one commit each.

    A folder's move or deletion is committed alone. Two other breaks share a
    commit only when they touch no common file, neither
    removes (moves or deletes) a record holding a citation the other expects
    to go stale, neither removes a record holding the other's sampled
    citation, two removals share no folder (so no folder empties only because
    both happened). A
    line shift inside a record moves the lines of the citations below it: the
    expected lines are mapped through every shift of the commit (`line_map`).
    """
    if one_per_commit:
        return [[b] for b in breaks]
    groups = []

    def clash(a, b):
        if a.kind == "folder" or b.kind == "folder":
            return True  # a folder's files are many: its move or deletion is committed alone
        if a.then_adds or b.then_adds:
            return True  # a break of two commits is committed alone
        if a.touched & b.touched:
            return True
        a_gone, b_gone = set(a.removes), set(b.removes)
        if any(c.record in a_gone for c in b.expected) or any(c.record in b_gone for c in a.expected):
            return True
        a_dirs = {posixpath.dirname(p) for p in a_gone} | ({a.target} if a.kind == "folder" else set())
        b_dirs = {posixpath.dirname(p) for p in b_gone} | ({b.target} if b.kind == "folder" else set())
        if a_gone and b_gone and (folders_of(a_gone) | a_dirs) & (folders_of(b_gone) | b_dirs):
            return True
        return False

    for b in breaks:
        for g in groups:
            if not any(clash(b, o) for o in g):
                g.append(b)
                break
        else:
            groups.append([b])
    return groups


def line_map(group):
    """record -> [(insert before line, count)] for the shifts of a commit."""
    m = collections.defaultdict(list)
    for b in group:
        for path, shift in b.shifts.items():
            m[path].append(shift)
    return m


def mapped_line(c, shifts):
    return c.line + sum(n for at, n in shifts.get(c.record, []) if c.line >= at)


class Scratch:
    """A temporary bare repository borrowing the mirror's objects and refs."""

    def __init__(self, mirror, rev):
        self.dir = tempfile.mkdtemp(prefix="recount-inject-")
        self.git = os.path.join(self.dir, "repo.git")
        subprocess.run(["git", "init", "-q", "--bare", self.git], check=True)
        objects = os.path.abspath(os.path.join(mirror, "objects"))
        with open(os.path.join(self.git, "objects", "info", "alternates"), "w") as f:
            f.write(objects + "\n")
        # the mirror's refs (tags name changelog releases), read only
        refs = git(mirror, "for-each-ref", "--format=%(objectname) %(refname)")
        with open(os.path.join(self.git, "packed-refs"), "w") as f:
            f.write("# pack-refs with: sorted\n")
            f.write("".join(sorted(l + "\n" for l in refs.splitlines() if l.strip())))
        head = git(mirror, "symbolic-ref", "-q", "HEAD").strip() if self._has_symref(mirror) else ""
        if head:
            git(self.git, "symbolic-ref", "HEAD", head)
        self.rev = git(self.git, "rev-parse", rev + "^{commit}").strip()
        # fixed dates, an hour after the audited commit: stable ids, and history stays in order
        when = int(git(self.git, "show", "-s", "--format=%ct", self.rev).strip()) + 3600
        self.ident = dict(IDENT, GIT_AUTHOR_DATE=f"{when} +0000", GIT_COMMITTER_DATE=f"{when} +0000")
        self.base_index = os.path.join(self.dir, "base.index")
        git(self.git, "read-tree", self.rev, env={"GIT_INDEX_FILE": self.base_index})
        self.serial = 0

    @staticmethod
    def _has_symref(mirror):
        try:
            git(mirror, "symbolic-ref", "-q", "HEAD")
            return True
        except RunError:
            return False

    def commit(self, group):
        """The commit of the group's breaks on top of rev, built in a temporary index."""
        self.serial += 1
        index = os.path.join(self.dir, f"break-{self.serial}.index")
        shutil.copyfile(self.base_index, index)
        env = {"GIT_INDEX_FILE": index}
        info = []
        for b in group:
            for p in b.removes:
                info.append(f"0 {'0' * 40}\t{p}")
            for p, (mode, sha, text) in b.adds.items():
                if sha is None:
                    sha = git(self.git, "hash-object", "-w", "--stdin", input=text).strip()
                info.append(f"{mode} {sha}\t{p}")
        # removals first: a path both removed and added (an edit) ends up added
        git(self.git, "update-index", "--index-info", input="\n".join(info) + "\n", env=env)
        tree = git(self.git, "write-tree", "--missing-ok", env=env).strip()  # a mirror lacks its largest blobs
        msg = "drift injection\n\n" + "".join(f"- {b.label}\n" for b in group)
        commit = git(self.git, "commit-tree", tree, "-p", self.rev, input=msg, env=self.ident).strip()
        then = [b for b in group if b.then_adds or b.then_removes]
        if then:
            # the second commit, on the first: a rewrite after the move
            git(self.git, "read-tree", commit, env=env)
            info = [f"0 {'0' * 40}\t{p}" for b in then for p in b.then_removes]
            for b in then:
                for p, (mode, sha, text) in b.then_adds.items():
                    if sha is None:
                        sha = git(self.git, "hash-object", "-w", "--stdin", input=text).strip()
                    info.append(f"{mode} {sha}\t{p}")
            git(self.git, "update-index", "--index-info", input="\n".join(info) + "\n", env=env)
            tree = git(self.git, "write-tree", "--missing-ok", env=env).strip()
            later = dict(self.ident)
            for k in ("GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE"):
                when, zone = later[k].split()
                later[k] = f"{int(when) + 60} {zone}"
            commit = git(self.git, "commit-tree", tree, "-p", commit,
                         input="drift injection: a rewrite of the paths\n", env=later).strip()
        git(self.git, "update-ref", f"refs/heads/inject-{self.serial}", commit)
        os.remove(index)
        return commit

    def close(self):
        shutil.rmtree(self.dir, ignore_errors=True)


# --------------------------------------------------------------------------
# stages 4 and 5: run, match, explain


@dataclasses.dataclass
class Outcome:
    brk: Break
    cite: Cite
    reported: bool
    status: str = ""  # the citation's status at the broken commit, for a miss
    why: str = ""


def findings_keys(report):
    keys = set()
    loose = collections.Counter()
    for f in report["findings"]:
        if f["check"] not in CITE_CHECKS:
            continue
        loc = f["location"]
        keys.add((loc["path"], loc["line"], loc.get("column"), f.get("stated")))
        # A finding names a cite as the record writes it (`:doc:`usage``
        # as `usage`, `recount cites` lists `./usage.html`): its place is
        # the cite's too.
        keys.add((loc["path"], loc["line"], loc.get("column"), None))
        loose[(loc["path"], f.get("stated"))] += 1
    suppressed = set()
    for s in report.get("suppressed", []):
        f = s["finding"]
        if f["check"] in CITE_CHECKS:
            suppressed.add((f["location"]["path"], f["location"]["line"], f.get("stated")))
    return keys, loose, suppressed


def explain(citations, c, line):
    """The status and reason `recount cites` gives the citation at the broken commit."""
    for x in citations:
        record, l, col = parse_at(x["at"])
        if record == c.record and l == line and col == c.column and x["text"] == c.text:
            st = x["status"]
            return st["status"], st.get("why") or ("resolved to " + st["resolved"] if "resolved" in st else "")
    for x in citations:
        record, l, col = parse_at(x["at"])
        if record == c.record and x["text"] == c.text:
            st = x["status"]
            return st["status"], st.get("why") or ("resolved to " + st["resolved"] if "resolved" in st else "")
    return "absent", "recount no longer lists the citation"


def run_group(recount, scratch, group, timeout, since=False):
    commit = scratch.commit(group)
    # With --since, only what the breaking commits did may be reported: every
    # break must still be, as a finding the range caused.
    extra = ("--since", scratch.rev) if since else ()
    report = run_recount(recount, "check", scratch.git, commit, timeout, extra)
    keys, loose, suppressed = findings_keys(report)
    shifts = line_map(group)
    outcomes = []
    for b in group:
        for c in b.expected:
            line = mapped_line(c, shifts)
            hit = (c.record, line, c.column, c.text) in keys or (c.record, line, c.column, None) in keys
            if not hit and loose[(c.record, c.text)]:
                hit = True  # same record and cite, at a line the mapping missed
            outcomes.append(Outcome(b, c, hit))
    misses = [o for o in outcomes if not o.reported]
    if misses:
        citations = run_recount(recount, "cites", scratch.git, commit, timeout)["citations"]
        for o in misses:
            line = mapped_line(o.cite, shifts)
            if (o.cite.record, line, o.cite.text) in suppressed:
                o.status, o.why = "suppressed", "a recount: ignore directive silences it"
            else:
                o.status, o.why = explain(citations, o.cite, line)
                if o.status == "absent":
                    notes = [n for n in report.get("notes", []) if o.cite.record in n]
                    o.why = "recount no longer reads the record" + (f": {notes[0]}" if notes else "")
    return commit, outcomes


def reason_class(o):
    """A miss reason with the particulars taken out, for grouping."""
    if o.status == "ok":
        resolved = o.why[len("resolved to "):] if o.why.startswith("resolved to ") else o.why
        if o.brk.type == "shift":
            return "ok: line cites not content-checked"
        if o.brk.type == "rename":
            return "ok: still resolves after the rename"
        if o.brk.type in ("reword", "drop-heading"):
            return "ok: anchor still resolves after the " + o.brk.type
        path = re.sub(r"(:\d+(-\d+)?|::.*)$", "", resolved.split(" (")[0])
        if o.brk.type.startswith("move") and path == one_down(o.brk.target) + o.cite.target[len(o.brk.target):]:
            return "ok: resolved to the moved file by its name (no finding)"
        if "nearest" in resolved:
            return "ok: resolved to the nearest of several namesakes elsewhere"
        return "ok: resolved to a namesake elsewhere"
    why = re.sub(r"`[^`]*`", "`…`", o.why)
    why = re.sub(r"(?<![`\w])(?:[\w.@+-]*/[\w./@+-]+|[\w@+-]{2,}(?:\.[\w@+-]+)*\.[A-Za-z]{2,5})(?![\w/])", "PATH", why)
    why = re.sub(r"\b[0-9a-f]{7,40}\b", "COMMIT", why)
    why = re.sub(r"\d+", "N", why)
    return f"{o.status}: {why}"


def audit_repo(args, name, mirror, rev):
    """Every stage for one repository: rows for the TSV, misses, and a summary."""
    t0 = time.monotonic()
    files, dirs = list_tree(mirror, rev)
    blobs = Blobs(mirror, files)
    scratch = Scratch(mirror, rev)
    try:
        # the control: at the unbroken commit the scratch repository must read as the mirror does
        citations, cands, dropped = list_citations(
            args.recount, scratch.git, scratch.rev, files, dirs, args.timeout, args.suffix)
        if args.kinds:
            cands = [c for c in cands
                     if c.kind in args.kinds or args.kinds & set(shapes_of(c))
                     or ("admonition" in args.kinds and c.record.endswith(".rst")
                         and c.kind in ("label", "object", "file"))]
        control = run_recount(args.recount, "cites", mirror, rev, args.timeout)["citations"]
        if control != citations:
            differ = sum(a != b for a, b in zip(control, citations)) + abs(len(control) - len(citations))
            print(f"  warning: {name}: {differ} citations read differently in the scratch repository", flush=True)
        rng = random.Random(f"{args.seed}:{name}")
        breaks, pools = plan_breaks(cands, files, dirs, blobs, args.sample, rng, args.kinds)
        groups = batch(breaks, args.one_per_commit)
        outcomes, commits = [], []
        for g in groups:
            commit, outs = run_group(args.recount, scratch, g, args.timeout, args.since)
            commits.append(commit)
            outcomes += outs
    finally:
        scratch.close()
    return dict(
        name=name, rev=rev, citations=len(citations), candidates=len(cands), dropped=dropped,
        pools=pools, breaks=breaks, groups=len(groups), commits=commits, outcomes=outcomes,
        seconds=time.monotonic() - t0,
    )


# --------------------------------------------------------------------------
# output


def tally(outcomes):
    """(kind, break type) -> [broken, reported, breaks that broke them]."""
    t = collections.defaultdict(lambda: [0, 0, set()])
    for o in outcomes:
        kind = o.brk.kind if o.brk.kind in SHAPES else o.cite.kind
        cell = t[(kind, o.brk.type)]
        cell[0] += 1
        cell[1] += o.reported
        cell[2].add(id(o.brk))
    return t


def pct(r, n):
    return f"{100 * r / n:.0f}%" if n else "-"


def print_table(t, out=sys.stdout):
    print(f"{'kind':<8} {'break':<13} {'breaks':>7} {'broken':>7} {'reported':>9} {'recall':>7}", file=out)
    for kind in KINDS:
        for btype in BREAK_TYPES:
            if (kind, btype) in t:
                n, r, bs = t[(kind, btype)]
                print(f"{kind:<8} {btype:<13} {len(bs):>7} {n:>7} {r:>9} {pct(r, n):>7}", file=out)
    n = sum(v[0] for v in t.values())
    r = sum(v[1] for v in t.values())
    print(f"{'all':<8} {'':<10} {'':>7} {n:>7} {r:>9} {pct(r, n):>7}", file=out)


def print_repo(res):
    print(f"\n== {res['name']} at {res['rev'][:8]}: {res['citations']} citations, "
          f"{res['candidates']} resolve as written; {len(res['breaks'])} breaks in "
          f"{res['groups']} commits, {res['seconds']:.0f} s")
    print_table(tally(res["outcomes"]))
    for o in res["outcomes"]:
        if not o.reported:
            print(f"  MISS {o.cite.at} `{o.cite.text}` [{o.cite.kind}] by {o.brk.label}: {o.status}: {o.why}")


def write_rows(path, results):
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, delimiter="\t", lineterminator="\n")
        w.writerow(["repo", "commit", "kind", "break", "breaks", "broken", "reported"])
        for res in results:
            if res.get("error") == "no mirror":
                continue
            if "error" in res:
                w.writerow([res["name"], res["rev"], "error", res["error"], 0, 0, 0])
                continue
            t = tally(res["outcomes"])
            for kind in KINDS:
                for btype in BREAK_TYPES:
                    if (kind, btype) in t:
                        n, r, bs = t[(kind, btype)]
                        w.writerow([res["name"], res["rev"], kind, btype, len(bs), n, r])


def write_misses(path, results):
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, delimiter="\t", lineterminator="\n")
        w.writerow(["repo", "record_at", "cite", "kind", "break", "status", "reason", "reason_class"])
        for res in results:
            for o in sorted(res.get("outcomes", []), key=lambda o: (o.cite.key, o.brk.label)):
                if not o.reported:
                    why = o.why.replace("\t", " ").replace("\n", " ")
                    w.writerow([res["name"], o.cite.at, o.cite.text, o.cite.kind, o.brk.label, o.status, why,
                                reason_class(o)])


def summary(results):
    outcomes = [o for r in results for o in r.get("outcomes", [])]
    results = [r for r in results if r.get("error") != "no mirror"]
    print(f"\n== all: {len([r for r in results if 'error' not in r])} repositories")
    print_table(tally(outcomes))
    # A shape's rows split by how the broken cite names its target: a bare
    # name's rules (the `name` kind's) are not a path's.
    split = collections.defaultdict(lambda: [0, 0])
    for o in outcomes:
        if o.brk.kind in SHAPES:
            cell = split[(o.brk.kind, "bare name" if o.cite.kind == "name" else "with a folder")]
            cell[0] += 1
            cell[1] += o.reported
    for (shape, form), (n, r) in sorted(split.items()):
        print(f"  {shape} cited {form}: {r}/{n} reported ({pct(r, n)})")
    reasons = collections.Counter(reason_class(o) for o in outcomes if not o.reported)
    if reasons:
        print("\nmisses by reason:")
        for why, n in reasons.most_common():
            print(f"  {n:>4}  {why}")
    for r in results:
        if "error" in r:
            print(f"  not measured: {r['name']}: {r['error']}")


# --------------------------------------------------------------------------


def corpus_repos(path, mirrors, only, skip):
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    for row in rows:
        name = row["repo"]
        if (only and name not in only) or name in skip:
            continue
        mirror = os.path.join(mirrors, name.replace("/", "+"), "repo")
        yield name, mirror, row["commit"]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--recount", default="recount", help="the recount binary under test")
    ap.add_argument("--repo", help="a bare git directory")
    ap.add_argument("--rev", help="the commit to break")
    ap.add_argument("--name", help="what to call --repo in the output (owner/name)")
    ap.add_argument("--corpus", help="a corpus TSV (repo, commit): run every repository of it")
    ap.add_argument("--mirrors", default="/work/.mirror", help="where owner+name/repo mirrors are")
    ap.add_argument("--only", default="", help="comma-separated owner/name to run of the corpus")
    ap.add_argument("--skip", default="", help="comma-separated owner/name to leave out")
    ap.add_argument("--sample", type=int, default=20, help="targets broken per kind and break type")
    ap.add_argument("--seed", default="2026")
    ap.add_argument("--timeout", type=int, default=600, help="seconds per recount run")
    ap.add_argument("--suffix", action="store_true",
                    help="also line cites and test ids whose path is a unique tail of the resolved path")
    ap.add_argument("--kinds", default="", help="comma-separated kinds to break (default all)")
    ap.add_argument("--one-per-commit", action="store_true", help="commit every break alone")
    ap.add_argument("--since", action="store_true",
                    help="check each broken commit with `--since` the audited one (recall of the range report)")
    ap.add_argument("--out", help="TSV: repo, commit, kind, break, breaks, broken, reported")
    ap.add_argument("--misses", help="TSV: every miss with recount's status and reason")
    args = ap.parse_args(argv)
    args.kinds = set(filter(None, args.kinds.split(",")))
    if shutil.which(args.recount) is None and not os.path.exists(args.recount):
        ap.error(f"no recount binary at {args.recount}")
    if args.corpus:
        only = set(filter(None, args.only.split(",")))
        skip = set(filter(None, args.skip.split(",")))
        repos = list(corpus_repos(args.corpus, args.mirrors, only, skip))
    elif args.repo and args.rev:
        repos = [(args.name or os.path.basename(os.path.normpath(args.repo)), args.repo, args.rev)]
    else:
        ap.error("give --repo and --rev, or --corpus")
    results = []
    for name, mirror, rev in repos:
        if not os.path.isdir(mirror):
            results.append(dict(name=name, rev=rev, error="no mirror"))
            print(f"\n== {name}: no mirror at {mirror}", flush=True)
            continue
        try:
            res = audit_repo(args, name, mirror, rev)
        except (RunError, json.JSONDecodeError) as e:
            res = dict(name=name, rev=rev, error=str(e)[:300])
            print(f"\n== {name}: not measured: {res['error']}", flush=True)
        else:
            print_repo(res)
        results.append(res)
        sys.stdout.flush()
        if args.out:
            write_rows(args.out, results)
        if args.misses:
            write_misses(args.misses, results)
    summary(results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
