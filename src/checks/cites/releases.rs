//! A changelog's release sections, for the resolve stage: each release heading
//! (`## 1.4.0`, `## [v2.0.0] - 2025-01-02`) frames the entries under it at the
//! tag of that release, as "measured at <sha>" frames a record's section; an
//! `Unreleased` section speaks of the tree as it is.

use std::ops::Range;
use std::sync::OnceLock;

use regex::Regex;

use crate::records::markdown::Markdown;

/// One release section of a changelog.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Release {
    /// From the heading to the next heading of the same or a higher level.
    pub span: Range<usize>,
    /// As the heading writes it, without a leading `v`: `1.4.0`.
    pub version: String,
}

/// The release sections of a changelog, in record order.
pub fn releases(raw: &str, markdown: &Markdown) -> Vec<Release> {
    static VERSION: OnceLock<Regex> = OnceLock::new();
    let version = VERSION.get_or_init(|| {
        // SemVer's `-rc.1` and PEP 440's `rc1`, `b2`, `.post1`, `.dev0`.
        // (A version in code markup, "Buildbot ``2.10.5`` (…)", is one too,
        // and one in brackets Markdown escapes, `\[0.8.0\]`, shown `[0.8.0]`,
        // or in a release script's angle brackets, `v<1.13.0>`.)
        Regex::new(r"(?:^|[\s\[(/@`\\<-])[vV]?([0-9]+\.[0-9]+(?:\.[0-9]+)?(?:-[0-9A-Za-z.]+|(?:a|b|c|rc)[0-9]+|\.post[0-9]+|\.dev[0-9]+)*)(?:$|[\s\])(:,`\\>])")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    // A project that numbers its releases whole (WeasyPrint's "Version 45",
    // tagged `v45`): only a title that says so.
    static WHOLE: OnceLock<Regex> = OnceLock::new();
    let whole = WHOLE.get_or_init(|| {
        Regex::new(r"(?i)^\s*(?:version\s+|release\s+|v)([0-9]+)(?:$|[\s\])(:,])")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    let headings = &markdown.headings;
    let mut found = Vec::new();
    for (i, heading) in headings.iter().enumerate() {
        let Some(title) = heading_title(raw, &heading.range) else {
            continue;
        };
        let Some(caps) = version.captures(title).or_else(|| whole.captures(title)) else {
            continue;
        };
        let end = headings[i + 1..]
            .iter()
            .find(|h| h.level <= heading.level)
            .map_or(raw.len(), |h| h.range.start);
        found.push(Release {
            span: heading.range.start..end,
            version: range_end(version, title).unwrap_or_else(|| caps[1].to_owned()),
        });
    }
    // A page titled for a release line ("Change history for Celery 1.0")
    // whose sections are its releases (1.0.6, 1.0.5): the title is no release
    // of its own. A release holding its own pre-releases (7.0.0 over
    // 7.0.0-beta.2) stays one.
    let inner: Vec<(usize, String)> = found
        .iter()
        .map(|r| (r.span.start, r.version.clone()))
        .collect();
    found.retain(|r| {
        let line = format!("{}.", r.version);
        !inner.iter().any(|(start, version)| {
            *start > r.span.start && r.span.contains(start) && version.starts_with(&line)
        })
    });
    // Releases written as plain lines, where no release heading holds them
    // (a changelog of plain lines, or an "Older releases" section that lists
    // each release by a line of its own), end where the section holding
    // them ends.
    let plain: Vec<Release> = plain_line_releases(raw, markdown)
        .into_iter()
        .filter(|p| !found.iter().any(|r| r.span.contains(&p.span.start)))
        .map(|mut p| {
            let holding = headings.iter().rfind(|h| h.range.start < p.span.start);
            let section_end = holding.map_or(raw.len(), |holding| {
                headings
                    .iter()
                    .find(|h| h.range.start > p.span.start && h.level <= holding.level)
                    .map_or(raw.len(), |h| h.range.start)
            });
            p.span.end = p.span.end.min(section_end);
            p
        })
        .collect();
    found.extend(plain);
    found.sort_by_key(|r| r.span.start);
    found
}

/// The later version of a title that names a range of two ("Changes from
/// 4.11.0 to 4.11.1", "1.2 → 1.3"): the notes of the release the range
/// leads to, not of the one it starts from.
fn range_end(version: &Regex, title: &str) -> Option<String> {
    let mut found = version.captures_iter(title);
    let first = found.next()?.get(1)?;
    let last = found.last()?.get(1)?;
    let between = title.get(first.end()..last.start())?.trim().to_lowercase();
    matches!(
        between.trim_matches(|c: char| c == 'v' || c.is_whitespace()),
        "to" | "→" | "->" | ".." | "..." | "–" | "—" | "-"
    )
    .then(|| last.as_str().to_owned())
}

/// Whether a page's title names it a change history ("Changes to CVXPY",
/// "Release notes", "Version history", "What's new"): a docs index so
/// titled is the project's changelog, its headings its releases.
pub(crate) fn titled_as_changes(raw: &str, markdown: &Markdown) -> bool {
    static TITLE: OnceLock<Regex> = OnceLock::new();
    let titled = TITLE.get_or_init(|| {
        Regex::new(r"(?i)\b(?:changes|change\s*log|changelog|release\s+notes|release\s+history|version\s+history|history\s+of\s+changes|what'?s\s+new|news)\b")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    markdown
        .headings
        .first()
        .and_then(|first| heading_title(raw, &first.range))
        .is_some_and(|title| titled.is_match(title))
}

/// A heading's title line: an rst title may have an overline above it, a
/// Markdown one its `#`s before it.
fn heading_title<'r>(raw: &'r str, range: &Range<usize>) -> Option<&'r str> {
    let adornment = |line: &str| {
        let line = line.trim();
        !line.is_empty()
            && line
                .chars()
                .all(|c| c.is_ascii_punctuation() && line.starts_with(c))
    };
    let text = raw.get(range.clone())?;
    Some(
        text.lines()
            .find(|l| !adornment(l))
            .unwrap_or("")
            .trim_start_matches('#')
            .trim(),
    )
}

/// The release a page of a project's docs is the notes of, named by its
/// file (`whatsnew-3.1.rst`, `changelog-2.1.rst`, `history/1.4.rst`,
/// `release-notes/v1.2.md`) or by its title ("What's new in Celery 3.1",
/// "Release notes for 2.0", a report "for Eleventy v3.1.2"): a record of
/// that release, read at its tag as a
/// changelog's newest section is. A page titled for migrating to a version
/// is a guide its project keeps current, not the notes of one release.
pub(crate) fn release_page(record: &str, raw: &str, markdown: &Markdown) -> Option<String> {
    static NAME: OnceLock<Regex> = OnceLock::new();
    static TITLE: OnceLock<Regex> = OnceLock::new();
    let named = NAME.get_or_init(|| {
        Regex::new(r"^(?:(whats?[-_]?new|what-s-new|changelog|change[-_]log|changes|history|release[-_]?notes?|releases?|relnotes|news)[-_. ]?)?v?([0-9]+(?:\.[0-9]+)+|[0-9]+(?:_[0-9]+)+|[0-9]+\.x)(?:\.x)?(?:[-_.]?(?:a|b|c|rc)[0-9]+)?$")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    let titled = TITLE.get_or_init(|| {
        Regex::new(r"(?i)^(?:what'?s\s+new|what\s+is\s+new|new\s+in|noteworthy(?:\s+in)?|release\s+notes|changes|change\s*log|history|release)\b[^0-9\n]{0,40}?\bv?([0-9]+\.[0-9]+(?:\.[0-9]+)?)\b|^[^0-9\n]{0,40}?\bv?([0-9]+\.[0-9]+(?:\.[0-9]+)?)\s+(?:release\s+notes|change\s*log|changes)\b|^[^0-9\n]{0,60}?\b(?:for|of)\s[^0-9\n]{0,40}?\bv([0-9]+\.[0-9]+\.[0-9]+)\b")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    let (folder, name) = record.rsplit_once('/').unwrap_or(("", record));
    let stem = name
        .rsplit_once('.')
        .map_or(name, |(stem, _)| stem)
        .to_ascii_lowercase();
    // In a folder of releases, a page named for a release and what it is
    // about (`upgrading/0.9-upgrade.rst`, `0.9-worker-transition.rst`).
    static LEADING: OnceLock<Regex> = OnceLock::new();
    let leading = LEADING.get_or_init(|| {
        Regex::new(r"^v?([0-9]+(?:\.[0-9]+)+|[0-9]+\.x)[-_][a-z][a-z0-9_-]*$")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    let parent_folder = folder
        .rsplit('/')
        .next()
        .unwrap_or(folder)
        .to_ascii_lowercase();
    if let Some(caps) = leading.captures(&stem)
        && is_release_folder(&parent_folder)
    {
        return Some(caps[1].trim_end_matches(".x").to_owned());
    }
    if let Some(caps) = named.captures(&stem) {
        // A bare version names a release only in a folder of releases.
        // (A folder of upgrade guides names each by the version it leads
        // to: `upgrading/2.0.rst` records that release's move.)
        let release_folder = is_release_folder(&parent_folder);
        if caps.get(1).is_some() || release_folder {
            // `whatsnew_1_1`: a version written with underscores.
            return Some(caps[2].trim_end_matches(".x").replace('_', "."));
        }
    }
    let first = markdown
        .headings
        .iter()
        .min_by_key(|h| (h.level, h.range.start))?;
    let title = heading_title(raw, &first.range)?;
    if let Some(caps) = titled.captures(title) {
        return caps
            .get(1)
            .or_else(|| caps.get(2))
            .or_else(|| caps.get(3))
            .map(|m| m.as_str().to_owned());
    }
    // In a folder of release notes, a title naming a version names the
    // release ("SQLAlchemy 2.0 - Major Migration Guide" in `changelog/`).
    static VERSION: OnceLock<Regex> = OnceLock::new();
    let version = VERSION.get_or_init(|| {
        Regex::new(r"\bv?([0-9]+\.[0-9]+(?:\.[0-9]+)?)\b")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    RELEASE_FOLDERS
        .contains(&parent_folder.as_str())
        .then(|| version.captures(title))
        .flatten()
        .map(|caps| caps[1].to_owned())
}

/// Whether a folder (its name, lowercased) holds a project's release pages:
/// its release notes, or the upgrade guides each named by the release it
/// leads to (`upgrading/2.0.rst` records that release's move).
fn is_release_folder(name: &str) -> bool {
    RELEASE_FOLDERS.contains(&name)
        || [
            "history",
            "whatsnew",
            "whats-new",
            "news",
            "release",
            "upgrading",
            "upgrade",
            "migration",
            "migrations",
        ]
        .contains(&name)
}

/// A page's file name without its suffix, lowercased: what a release's or
/// an upgrade's name is read from.
fn name_stem(record: &str) -> String {
    let name = record.rsplit('/').next().unwrap_or(record);
    name.rsplit_once('.')
        .map_or(name, |(stem, _)| stem)
        .to_ascii_lowercase()
}

/// The version a page's file name ends with, whatever words come before it
/// (`version0.11.rst`, `github-stats-0.13.rst`, `v1.3.md`, `2.1.rst`), or
/// before a word that names it a release's page (`v5-2-release.md`,
/// `v1.3-release-notes.md`: a `v` and dashes stand for the dots), or a
/// zero-padded release number (`coredns-007.md`, of the tag `v007`): a
/// release, when the tags bear it out (the caller asks them).
pub(crate) fn version_named(record: &str) -> Option<String> {
    static STEM: OnceLock<Regex> = OnceLock::new();
    let stem_version = STEM.get_or_init(|| {
        Regex::new(r"^(?:[a-z][a-z_-]*?[-_.]?)?v?([0-9]+\.[0-9]+(?:\.[0-9]+)?|0[0-9]{1,3})(?:[-_](?:release|released|release[-_]notes|notes|announcement))?$")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    static DASHED: OnceLock<Regex> = OnceLock::new();
    let dashed = DASHED.get_or_init(|| {
        Regex::new(r"^(?:[a-z][a-z_-]*?[-_])?v([0-9]+)[-_]([0-9]+)(?:[-_]([0-9]+))?[-_](?:release|released|release[-_]notes|notes|announcement)$")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    let stem = name_stem(record);
    stem_version
        .captures(&stem)
        .map(|caps| caps[1].to_owned())
        .or_else(|| {
            let caps = dashed.captures(&stem)?;
            Some(
                [caps.get(1), caps.get(2), caps.get(3)]
                    .into_iter()
                    .flatten()
                    .map(|part| part.as_str())
                    .collect::<Vec<_>>()
                    .join("."),
            )
        })
}

/// The release an upgrade guide's name leads to
/// (`upgrade-guide-from-2.15.x-to-3.0.0.md`: 3.0.0; `migrate-to-v2.1.md`:
/// 2.1): the page tells that upgrade, as of that release.
pub(crate) fn upgrade_target(record: &str) -> Option<String> {
    static TARGET: OnceLock<Regex> = OnceLock::new();
    let target = TARGET.get_or_init(|| {
        Regex::new(r"(?:^|[-_.])to[-_]v?([0-9]+\.[0-9]+(?:\.[0-9]+)?)$")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    let stem = name_stem(record);
    if !["upgrad", "migrat", "porting"]
        .iter()
        .any(|w| stem.contains(w))
    {
        return None;
    }
    target.captures(&stem).map(|caps| caps[1].to_owned())
}

/// The tag of a release a page names by its line (`3.1`): `3.1`, else its
/// first release, `3.1.0`.
pub(crate) fn page_tag<'t>(version: &str, tags: &'t [String]) -> Option<&'t str> {
    tag_of(version, tags).or_else(|| {
        (version.split('.').count() == 2)
            .then(|| tag_of(&format!("{version}.0"), tags))
            .flatten()
    })
}

/// The line (1-based) of a record's title and the release of the project it
/// names (`# SDK 2.0 Development`, `Migrating to v3`), when the tags bear the
/// release out (`v2.0.0`) and a later major release (`v4.0.0`) followed.
pub(crate) fn earlier_major_title(opening: &str, tags: &[String]) -> Option<(usize, String)> {
    static VERSION: OnceLock<Regex> = OnceLock::new();
    let version = VERSION.get_or_init(|| {
        Regex::new(r"(?-u:\b)[vV]?([0-9]{1,4})(\.[0-9]{1,4}(?:\.[0-9]{1,4})?)?(?-u:\b)")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    // The title: the first heading, Markdown's `#` or a line rst underlines.
    let lines: Vec<&str> = opening.lines().collect();
    let (at, title) = lines.iter().enumerate().find_map(|(i, line)| {
        if let Some(title) = line.strip_prefix("# ") {
            return Some((i, title));
        }
        let under = lines.get(i + 1)?.trim();
        (!line.trim().is_empty()
            && under.len() >= 3
            && under.chars().all(|c| matches!(c, '=' | '-' | '#' | '*')))
        .then_some((i, *line))
    })?;
    // A guide from one release to another ("Upgrading from Shakapacker v6
    // to v7") tells the move to the later: its versions are read from its
    // `to` on.
    let title = title
        .to_ascii_lowercase()
        .rfind(" to ")
        .filter(|&to| version.is_match(&title[to..]))
        .map_or(title, |to| &title[to..]);
    for caps in version.captures_iter(title) {
        let whole = caps.get(0)?.as_str();
        // A bare number is a version only when written as one (`v2`).
        if caps.get(2).is_none() && !whole.starts_with(['v', 'V']) {
            continue;
        }
        let major: u64 = caps[1].parse().ok()?;
        let named = format!("{}{}", &caps[1], caps.get(2).map_or(".0", |m| m.as_str()));
        // `v3` is borne out by any tag of its line (`v3.1.0`).
        let tagged = match caps.get(2) {
            Some(_) => page_tag(&named, tags).is_some(),
            None => tags
                .iter()
                .filter_map(|t| tag_version(t))
                .any(|v| v.split('.').next() == Some(&caps[1]) && v.contains('.')),
        };
        if tagged && shipped(&format!("{}.0.0", major + 1), tags) {
            return Some((at + 1, named));
        }
    }
    None
}

/// Whether a tag names this release or a later one: then the release has
/// shipped, and its notes are history; none does while it is being drafted.
/// A pre-release (`2.1.0b1`) ships only the releases before its own.
pub(crate) fn shipped(version: &str, tags: &[String]) -> bool {
    let Some((release, _)) = release_numbers(version) else {
        return false;
    };
    tags.iter()
        .filter_map(|t| release_numbers(&tag_version(t)?))
        .any(|(tag, pre)| if pre { tag > release } else { tag >= release })
}

/// Whether a later release than `version` is tagged (`1.3` once `v1.4.0`
/// is; a zero-padded `007` once `v008` is): that release's page is an
/// earlier release's, history.
pub(crate) fn superseded(version: &str, tags: &[String]) -> bool {
    if let Some((release, _)) = release_numbers(version) {
        return tags
            .iter()
            .filter_map(|t| release_numbers(&tag_version(t)?))
            .any(|(tag, pre)| !pre && tag > release);
    }
    // A release number alone is compared with the tags numbered alike.
    version.bytes().all(|b| b.is_ascii_digit())
        && tags.iter().filter_map(|t| tag_version(t)).any(|tag| {
            tag.len() == version.len()
                && tag.bytes().all(|b| b.is_ascii_digit())
                && tag.as_str() > version
        })
}

/// A version's numbers, three at least, and whether a pre-release suffix
/// follows them (`1.4rc1`); `None` for fewer than two numbers.
fn release_numbers(text: &str) -> Option<(Vec<u64>, bool)> {
    let start = text.find(|c: char| c.is_ascii_digit())?;
    let digits: String = text[start..]
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    let pre = text[start + digits.len()..]
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphanumeric() || c == '-');
    let parts: Option<Vec<u64>> = digits
        .split('.')
        .filter(|p| !p.is_empty())
        .map(|p| p.parse().ok())
        .collect();
    parts.filter(|p| p.len() >= 2).map(|mut p| {
        p.resize(p.len().max(3), 0);
        (p, pre)
    })
}

/// Releases a changelog writes as plain lines, not headings (ESLint's
/// `v10.9.0 - August 21, 2026`, xlwings' `v0.3.2 (January 17, 2015)`): a
/// version and its date, alone on a line.
fn plain_line_releases(raw: &str, markdown: &Markdown) -> Vec<Release> {
    static LINE: OnceLock<Regex> = OnceLock::new();
    let line = LINE.get_or_init(|| {
        Regex::new(r"(?m)^[vV]?(?:([0-9]+\.[0-9]+\.[0-9]+(?:-[0-9A-Za-z.]+)?) +- +[A-Z0-9][^\n]*|([0-9]+\.[0-9]+(?:\.[0-9]+)?(?:-[0-9A-Za-z.]+)?) +\((?:[A-Z][a-z]+ [0-9]{1,2}, [0-9]{4}|[0-9]{4}-[0-9]{2}-[0-9]{2})\)) *$")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    let starts: Vec<(usize, String)> = line
        .captures_iter(raw)
        .filter_map(|caps| {
            let whole = caps.get(0)?;
            let version = caps.get(1).or_else(|| caps.get(2))?.as_str();
            (!markdown.in_code(whole.start())).then(|| (whole.start(), version.to_owned()))
        })
        .collect();
    starts
        .iter()
        .enumerate()
        .map(|(i, (start, version))| Release {
            span: *start..starts.get(i + 1).map_or(raw.len(), |(next, _)| *next),
            version: version.clone(),
        })
        .collect()
}

/// The tag a release was made at: `v1.4.0` or `1.4.0`, else the one tag that
/// ends with the version after a package's name (`core-v1.4.0`, `core@1.4.0`,
/// `core/1.4.0`). `None` when there is none, or several packages share it.
pub fn tag_of<'t>(version: &str, tags: &'t [String]) -> Option<&'t str> {
    let exact = [version.to_owned(), format!("v{version}")];
    if let Some(tag) = tags.iter().find(|t| exact.contains(t)) {
        return Some(tag);
    }

    let suffixes: Vec<String> = ["-", "_", "/", "@"]
        .iter()
        .flat_map(|sep| [format!("{sep}{version}"), format!("{sep}v{version}")])
        .collect();
    let matching: Vec<&String> = tags
        .iter()
        .filter(|t| suffixes.iter().any(|s| t.ends_with(s.as_str())))
        .collect();
    // A line of development tagged beside its release (`dev-0.11` and
    // `rel-0.11`) is not the release: the one tag left once those are set
    // aside is; two packages' tags (`core-v1.4.0`, `cli-v1.4.0`) stay two.
    let released: Vec<&String> = matching
        .iter()
        .copied()
        .filter(|t| !names_a_development_line(t, version))
        .collect();
    match (matching.as_slice(), released.as_slice()) {
        ([tag], _) | ([_, _, ..], [tag]) => return Some(tag),
        ([_, _, ..], _) => return None,
        _ => {}
    }
    // A version written with underscores (`rel_1_0_0`, `release_2_1`).
    let mut spelled = tags
        .iter()
        .filter(|t| tag_version(t).is_some_and(|v| v == version));
    match (spelled.next(), spelled.next()) {
        (Some(tag), None) => Some(tag),
        _ => None,
    }
}

/// Whether the part of `tag` before `version` names a line of development
/// rather than a release: `dev-0.11`, `pre-1.0`, `beta/2.0`.
fn names_a_development_line(tag: &str, version: &str) -> bool {
    let separators = ['-', '_', '/', '@'];
    let prefix = tag.strip_suffix(version).unwrap_or(tag);
    // (`dev-v0.11`: the `v` is the version's, not the line's.)
    let prefix = prefix
        .strip_suffix('v')
        .filter(|p| p.ends_with(separators))
        .unwrap_or(prefix)
        .trim_end_matches(separators)
        .to_ascii_lowercase();
    let last = prefix.rsplit(separators).next().unwrap_or_default();
    [
        "dev", "devel", "develop", "pre", "alpha", "beta", "rc", "test", "wip", "nightly",
    ]
    .contains(&last)
}

/// The version a tag names, `_` read as `.` (`rel_1_0_0b1`: `1.0.0b1`,
/// `core/v2.1`: `2.1`): from its last part's first digit.
fn tag_version(tag: &str) -> Option<String> {
    let last = tag.rsplit('/').next().unwrap_or(tag);
    let start = last.find(|c: char| c.is_ascii_digit())?;
    Some(last[start..].replace('_', "."))
}

/// Whether the entry a cite sits in says the path went away in that release
/// ("Removed `x.py`", "renamed `a` to `b`"): then the release's tree need not
/// have it.
pub fn entry_removes(raw: &str, at: usize) -> bool {
    static REMOVAL: OnceLock<Regex> = OnceLock::new();
    let removal = REMOVAL.get_or_init(|| {
        Regex::new(r"(?i)\b(remove[ds]?|removing|delete[ds]?|deleting|drop(?:ped|s)?|rename[ds]?|renaming|move[ds]?|moving|replace[ds]?|deprecate[ds]?|retire[ds]?|split|merged?)\b")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    // The entry is the sentence around the cite, within its list item or
    // paragraph: a release page's prose wraps one across lines.
    // (Within a bounded window: an entry is a sentence, however long the
    // record.)
    const WINDOW: usize = 2048;
    let floor = (at.saturating_sub(WINDOW)..=at)
        .find(|i| raw.is_char_boundary(*i))
        .unwrap_or(at);
    let ceiling = (at.saturating_add(WINDOW).min(raw.len())..=raw.len())
        .find(|i| raw.is_char_boundary(*i))
        .unwrap_or(raw.len());
    let before = raw.get(floor..at).unwrap_or_default();
    let start = ["\n\n", ". ", ".\n", "\n- ", "\n* "]
        .iter()
        .filter_map(|sep| before.rfind(sep).map(|i| floor + i + sep.len()))
        .max()
        .unwrap_or(floor);
    let after = raw.get(at..ceiling).unwrap_or_default();
    let end = ["\n\n", ". ", ".\n", "\n- ", "\n* "]
        .iter()
        .filter_map(|sep| after.find(sep))
        .min()
        .map_or(ceiling, |i| at + i);
    // The new name of a move or rename is no removal: "moved into `x`",
    // "renamed `a` to `b`", "replaced by `c`" name what is there now.
    let before = raw.get(start..at).unwrap_or_default();
    // (The words wrap: "to" may end the line before the path.)
    let last_word = before
        .trim_end_matches(|c: char| c.is_whitespace() || "`*_\"'".contains(c))
        .rsplit(|c: char| c.is_whitespace())
        .next()
        .unwrap_or_default()
        .to_ascii_lowercase();
    if ["to", "into", "as", "by", "with", "→", "->", "=>"].contains(&last_word.as_str()) {
        return false;
    }
    raw.get(start..end)
        .is_some_and(|entry| removal.is_match(entry))
}

/// The words of the sentence around a cite that say the path is gone, when
/// they do: a verb of removal that governs it ("Delete the `charts/` folder",
/// a decision that was carried out; "adapters replace the AWS-era
/// `internal/dynamo`"), "no longer" before it ("there is no
/// longer a `deps.scala`"), a past that held it ("In the not distant past,
/// there was also a `../documentation` folder"), or a removal or a new name stated of it after
/// ("`x.sh` was removed", "the `examples/api/` folder is now
/// `examples/api_project/`"). Any record's prose: a changelog's entries are read by
/// [`entry_removes`].
pub fn sentence_says_gone(raw: &str, at: usize) -> Option<String> {
    static BEFORE: OnceLock<Regex> = OnceLock::new();
    static AFTER: OnceLock<Regex> = OnceLock::new();
    let before_words = BEFORE.get_or_init(|| {
        Regex::new(r"(?i)(?:\b(?:delete[ds]?|remove[ds]?|drop(?:ped|s)?)(?:\s+(?:the|a|an|its|this|that|any))?|\b(?:replace[sd]|\w+s\s+replace|(?:intended|meant|designed|going|planned|aims?)\s+to\s+replace)(?:\s+(?:the|a|an|its|this|that|any))?(?:\s+(?:old|legacy|former|previous|deprecated|[\w]+-era))?|\bno\s+longer(?:\s+\S+){0,6}|\b(?:moved|relocated|migrated|converted|extracted|split|renamed)(?:\s+\S+){0,3}?\s+(?:from|out\s+of)(?:\s+(?:the|a|an|its))?|\b(?:formerly|previously)(?:\s+(?:at|in|under|called|named))?|\bthere\s+(?:is|are)\s+no(?:\s+`[^`\n]{1,200}`(?:\s+\w+){0,2}\s+(?:and|or|nor)\s+no)?|\bthere\s+(?:was|were|used\s+to\s+be)(?:\s+(?:also|once))?(?:\s+(?:a|an|the|some))?)[\s`*_\x22'(]*$")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    let after_words = AFTER.get_or_init(|| {
        Regex::new(r"(?i)^[^\s]*[\s`*_\x22')]*(?:(?:directory|folder|file|module|package|script|page)\s+)?(?:(?:was|were|has been|have been|is|are|will\s+be)\s+(?:removed|deleted|gone|dropped|renamed|moved|retired|converted|split|relocated)|no\s+longer\s+exists?|(?:is|are)\s+now\s+(?:(?:at|in|under|called|named)\s+)?`|[:\x{2013}\x{2014}-]\s*[*_]{0,2}(?:removed|deleted|dropped|gone|retired)\b|\s(?:(?:directory|folder|file|module|package|script|page|path)\s+)?(?:removed|deleted|gone)\b|\(\s*(?:removed|deleted|dropped|gone)\b)")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    const WINDOW: usize = 512;
    let floor = (at.saturating_sub(WINDOW)..=at)
        .find(|i| raw.is_char_boundary(*i))
        .unwrap_or(at);
    let before = raw.get(floor..at).unwrap_or_default();
    let start = [". ", ".\n", "\n\n", "\n- ", "\n* ", "\n#", "? ", "! "]
        .iter()
        .filter_map(|sep| before.rfind(sep).map(|i| i + sep.len()))
        .max()
        .unwrap_or(0);
    let sentence_before = before.get(start..).unwrap_or_default();
    if struck_through(raw, at) {
        return Some("struck through".to_owned());
    }
    if let Some(found) = before_words.find(sentence_before) {
        return Some(
            found
                .as_str()
                .trim()
                .trim_end_matches(['`', '*', '_', '"', '\''])
                .trim()
                .chars()
                .take(60)
                .collect(),
        );
    }
    let ceiling = (at.saturating_add(WINDOW).min(raw.len())..=raw.len())
        .find(|i| raw.is_char_boundary(*i))
        .unwrap_or(raw.len());
    let after = raw.get(at..ceiling).unwrap_or_default();
    // (Past the cite's own text: it ends at its first space or backtick.)
    after_words
        .find(after)
        .map(|found| found.as_str().trim().chars().take(60).collect())
}

/// Whether the cite at `at` sits between a line's `~~` marks (`~~old.py~~`,
/// `~~[ADR-16](0016-x.md)~~`): the renderer shows it deleted, as its author
/// marked it.
pub fn struck_through(raw: &str, at: usize) -> bool {
    let Some(before) = raw.get(..at) else {
        return false;
    };
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line_end = raw[at..].find('\n').map_or(raw.len(), |i| at + i);
    before[line_start..].matches("~~").count() % 2 == 1
        && raw
            .get(at..line_end)
            .is_some_and(|rest| rest.contains("~~"))
}

/// Whether the line of the cite at `at` marks what it names as not made yet
/// ("- [Mem0](./mem0.md) - memory layer (when created)", "[Guide](./g.md)
/// (to be created)"): a page announced, not one the tree should have.
pub fn marked_future(raw: &str, at: usize) -> bool {
    static FUTURE: OnceLock<Regex> = OnceLock::new();
    let future = FUTURE.get_or_init(|| {
        Regex::new(r"(?i)\(\s*(?:(?:when|once|to\s+be|not\s+yet|will\s+be)\s+(?:created|written|added|made|available|published|ready)|coming\s+soon|planned|forthcoming)\s*[.)]")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    let Some(rest) = raw.get(at..) else {
        return false;
    };
    let line = rest.split('\n').next().unwrap_or_default();
    future.is_match(line)
}

/// Whether the words just before the cite at `at`, on its line, tell the
/// reader to make it ("Create `src/api/generated.ts` that re-exports …",
/// "add a new file `x`", "touch `x`"): a file the page says is not there
/// yet, whatever the tree has in its place.
pub fn told_to_create(raw: &str, at: usize) -> bool {
    static CREATE: OnceLock<Regex> = OnceLock::new();
    let create = CREATE.get_or_init(|| {
        Regex::new(r"(?i)(?:^|[^a-z])(?:create|touch|(?:add|make|write)\s+(?:a|an|the)\s+(?:new\s+)?file)(?:\s+(?:a|an|the)\s+(?:new\s+)?(?:file|module|page|folder|directory)(?:\s+(?:called|named))?)?[\s*_]*`?$")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    let Some(before) = raw.get(..at) else {
        return false;
    };
    let line = &before[before.rfind('\n').map_or(0, |i| i + 1)..];
    let floor = (line.len().saturating_sub(80)..=line.len())
        .find(|i| line.is_char_boundary(*i))
        .unwrap_or(line.len());
    create.is_match(&line[floor..])
}

/// Whether a record is an upgrade guide — a page that leads its reader from
/// an earlier release's API to a later one (`docs/upgrading/08-upgrade.rst`,
/// `migration.md`, a page titled "Migrating to 3.0", "Porting from 1.x"): its
/// subject is where things were before they moved, named on purpose.
pub(crate) fn upgrade_guide(record: &str, text: &str) -> bool {
    static TITLE: OnceLock<Regex> = OnceLock::new();
    let titled = TITLE.get_or_init(|| {
        Regex::new(r"(?im)^(?:#{1,6}[ \t]+)?(?:upgrading|upgrade[ \t]+(?:guide|to|from)|migrating|migration[ \t]+(?:guide|to|from)|porting)(?-u:\b)")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    let lower = record.to_ascii_lowercase();
    let named = lower.split('/').any(|segment| {
        ["upgrad", "migrat", "porting"]
            .iter()
            .any(|word| segment.contains(word))
    });
    named || titled.is_match(super::exemptions::head_of(text, 2048))
}

/// Folders that hold a project's release notes, one file or section per release.
pub(crate) const RELEASE_FOLDERS: [&str; 9] = [
    "release",
    "changelogs",
    "changelog",
    "changes",
    "release-notes",
    "release_notes",
    "release notes",
    "releasenotes",
    "releases",
];

/// The folder of a record that is one release's notes among others, and the
/// version its name gives (`release notes/v0.41.0.md`: 0.41.0).
pub(crate) fn release_name(record: &str) -> String {
    let name = record.rsplit('/').next().unwrap_or(record);
    name.rsplit_once('.')
        .map_or(name, |(stem, _)| stem)
        .to_owned()
}

pub(crate) fn release_file(record: &str) -> Option<(&str, Vec<u64>)> {
    let (folder, name) = record.rsplit_once('/')?;
    // The release folder itself, or a package's folder in it (a monorepo's
    // `changelogs/drizzle-orm/0.29.0.md`): one release's notes either way.
    let mut last_two = folder.rsplit('/').take(2);
    if !last_two.any(|part| RELEASE_FOLDERS.contains(&part.to_ascii_lowercase().as_str())) {
        return None;
    }
    let stem = name.rsplit_once('.').map_or(name, |(stem, _)| stem);
    let version = stem.trim_start_matches(|c: char| !c.is_ascii_digit());
    let numbers: Option<Vec<u64>> = version
        .split('.')
        .map(|part| part.parse::<u64>().ok())
        .collect();
    numbers.filter(|n| n.len() >= 2).map(|n| (folder, n))
}

/// Whether a record is a changelog: its entries are history, each naming files
/// as they were at that release.
pub(crate) fn is_changelog(record: &str) -> bool {
    let name = record
        .rsplit('/')
        .next()
        .unwrap_or(record)
        .to_ascii_lowercase();
    let stem = name.split('.').next().unwrap_or(&name);
    // `CHANGELOG`, `changelog-2024`, `HISTORY.rst`; not `newsletter` or `changes-guide`.
    let word = stem
        .split(|c: char| !c.is_ascii_alphanumeric() && c != '-' && c != '_')
        .next()
        .unwrap_or(stem);
    ["changelog", "changes", "history", "release-notes", "release_notes", "releases", "news", "release-log", "release_log"]
        .iter()
        .any(|s| {
            word == *s
                // `old_release_log.rst`, `legacy-changelog.md`: the kind last.
                || word.strip_suffix(s).is_some_and(|rest| {
                    rest.ends_with(['-', '_']) && rest.chars().any(|c| c.is_ascii_alphabetic())
                })
                // `CHANGELOG-fusion.md`: a changelog of one part of the project.
                || (*s == "changelog" && word.strip_prefix(s).is_some_and(|rest| rest.starts_with(['-', '_'])))
                || word
                    .strip_prefix(s)
                    .is_some_and(|rest| rest.starts_with(['-', '_']) && rest[1..].chars().all(|c| c.is_ascii_digit() || c == '.' || c == '-'))
                // `CHANGES_UP_TO_1.7.md`: the notes of the releases up to one,
                // moved out of the current changelog.
                || word.strip_prefix(s).is_some_and(|rest| {
                    rest.starts_with(['-', '_']) && rest.ends_with(|c: char| c.is_ascii_digit())
                })
        })
        // `2010-news.md`, `2024_changelog.md`: one year's notes.
        || word.split_once(['-', '_']).is_some_and(|(year, kind)| {
            year.len() == 4
                && year.chars().all(|c| c.is_ascii_digit())
                && ["news", "changelog", "changes", "history", "releases", "release-notes"]
                    .contains(&kind)
        })
        || release_file(record).is_some()
        || record.starts_with("changelogs/")
        || record.contains("/changelogs/")
        || is_news_fragment(record)
}

/// Whether a record is one entry of a changelog kept as fragments, one file
/// per change, until a release collects them (towncrier's
/// `CHANGES/1234.feature.rst`, `changelog.d/fix-x.bugfix.md`,
/// `newsfragments/99.removal`): an entry of the next release's notes.
fn is_news_fragment(record: &str) -> bool {
    const FOLDERS: [&str; 6] = [
        "changes",
        "changes.d",
        "changelog.d",
        "newsfragments",
        "news",
        "changelog",
    ];
    let Some((folder, name)) = record.rsplit_once('/') else {
        return false;
    };
    let last = folder
        .rsplit('/')
        .next()
        .unwrap_or(folder)
        .to_ascii_lowercase();
    if !FOLDERS.contains(&last.as_str()) {
        return false;
    }
    // `<issue or slug>.<type>[.<ext>]`, the type a word: `13457.packaging.rst`.
    let mut parts = name.split('.');
    let (Some(id), Some(kind)) = (parts.next(), parts.next()) else {
        return false;
    };
    !id.is_empty()
        && kind.len() >= 3
        && kind.chars().all(|c| c.is_ascii_alphabetic())
        // `changes/guide.rst` is a page, not a fragment.
        && !["md", "mdx", "rst", "txt", "markdown"].contains(&kind.to_ascii_lowercase().as_str())
        && !name.to_ascii_lowercase().starts_with("readme")
        && !name.to_ascii_lowercase().starts_with("template")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_titled_for_its_changes_is_a_change_history() {
        let titled = |raw: &str| {
            let (markdown, _) = crate::records::markdown::parse(raw);
            titled_as_changes(raw, &markdown)
        };
        assert!(titled("# Changes to CVXPY\n\n## 1.9\n\n## 1.8\n"));
        assert!(titled("# Release notes\n\n## v2.0.0\n"));
        assert!(titled("# What's new\n\n## 0.3\n"));
        assert!(!titled("# CVXPY\n\n## 1.9 highlights\n"));
        assert!(!titled(
            "# Installing\n\nSee the changes below.\n\n# Changes\n"
        ));
    }

    #[test]
    fn a_file_the_reader_is_told_to_create_is_not_there_yet() {
        let told = |line: &str| told_to_create(line, line.find("`x").map_or(0, |i| i + 1));
        assert!(told(
            "1. Create `x/api/generated.ts` (or `generated/index.ts`) that re-exports"
        ));
        assert!(told("Then create a new file named `x.md` with:"));
        assert!(told("Add a file `x/3651.minor`"));
        assert!(told("touch `x.cfg`"));
        assert!(!told("The helpers in `x/util.py` create sessions."));
        assert!(!told("Recreated from `x/old.py`"));
        assert!(!told("We create sessions; see `x/util.py`"));
    }

    #[test]
    fn a_cite_is_struck_through_only_between_its_lines_marks() {
        let struck = "- ~~[ADR-16: E2E tests](../adr/0016-e2e.md)~~ (deleted per ADR-24)\n";
        assert!(struck_through(struck, struck.find('[').unwrap_or(0)));
        let row = "| Unreachable code | ~~`app/jobs/worker.py:208`~~ | stale |\n";
        assert!(struck_through(row, row.find("app/").unwrap_or(0)));
        // A struck-through word earlier on the line closes before the link.
        let other = "- ~~draft~~ see [the guide](../guide.md)\n";
        assert!(!struck_through(other, other.find('[').unwrap_or(0)));
        // Marks on another line strike nothing here.
        let apart = "~~old~~\nsee `app/x.py:3`\n~~new~~\n";
        assert!(!struck_through(apart, apart.find("app/").unwrap_or(0)));
    }

    fn owned(tags: &[&str]) -> Vec<String> {
        tags.iter().map(|t| (*t).to_owned()).collect()
    }

    #[test]
    fn changelogs_are_told_from_files_that_only_start_alike() {
        for log in [
            "CHANGELOG.md",
            "docs/release-notes.md",
            "HISTORY.md",
            "changelog-2024.md",
            "CHANGELOG-fusion.md",
            "changelogs/0.5.x.md",
            "NEWS.md",
            "docs/content/2010-news.md",
            "doc/release/old_release_log.rst",
            "docs/legacy-changelog.md",
            "CHANGES_UP_TO_1.7.md",
        ] {
            assert!(is_changelog(log), "{log}");
        }
        for fragment in [
            "CHANGES/13457.packaging.rst",
            "changelog.d/fix-login.bugfix.md",
            "newsfragments/99.removal",
        ] {
            assert!(is_changelog(fragment), "{fragment}");
        }
        for doc in [
            "CHANGES/README.rst",
            "CHANGES/.TEMPLATE.rst",
            "changes/guide.md",
            "changes/guide.rst",
            "docs/newsletter.md",
            "changes-guide.md",
            "historyless.md",
            "README.md",
            "docs/2010-plans.md",
            "docs/10-news.md",
        ] {
            assert!(!is_changelog(doc), "{doc}");
        }
    }

    #[test]
    fn a_release_folder_holds_one_file_per_release() {
        // networkx's `doc/release/`: `api_1.4.rst`, `release_2.5.rst`.
        for (page, version) in [
            ("doc/release/api_1.4.rst", vec![1, 4]),
            ("doc/release/release_2.5.rst", vec![2, 5]),
            ("docs/releases/v0.41.0.md", vec![0, 41, 0]),
            // A monorepo's notes, a folder per package.
            ("changelogs/drizzle-orm/0.29.0.md", vec![0, 29, 0]),
        ] {
            assert_eq!(release_file(page).map(|(_, v)| v), Some(version), "{page}");
        }
        for page in [
            "doc/release/index.rst",
            "doc/guide/api_1.4.rst",
            "doc/release/migration_guide.rst",
            "docs/guide/drizzle-orm/0.29.0.md",
            "changelogs/a/b/0.29.0.md",
        ] {
            assert_eq!(release_file(page), None, "{page}");
        }
    }

    fn sections(raw: &str) -> Vec<(String, String)> {
        let markdown = Markdown::new(raw);
        releases(raw, &markdown)
            .into_iter()
            .map(|r| {
                (
                    r.version,
                    raw[r.span].lines().next().unwrap_or("").to_owned(),
                )
            })
            .collect()
    }

    #[test]
    fn a_changelog_of_plain_release_lines_has_sections() {
        let raw = "v10.9.0 - August 21, 2026\n\n* a fix\n\nv10.8.1 - August 7, 2026\n\n* `lib/x.js` moved\n";
        assert_eq!(
            sections(raw),
            [
                ("10.9.0".to_owned(), "v10.9.0 - August 21, 2026".to_owned()),
                ("10.8.1".to_owned(), "v10.8.1 - August 7, 2026".to_owned()),
            ]
        );
        // A version in prose is no release line.
        assert_eq!(sections("Upgrade to 1.2.3 - it is faster.\n"), []);
        assert_eq!(sections("Version 1.2 (see below) is faster.\n"), []);
    }

    #[test]
    fn an_older_releases_section_of_plain_lines_has_a_section_for_each() {
        let raw = "# Changes\n\n## v0.5.0\n\n- new\n\n## Older Releases\n\nv0.3.2 (January 17, 2015)\n\n- `a.py` fixed\n\nv0.3.1 (2015-01-16)\n\n- b\n\n## Credits\n\nall\n";
        let got = sections(raw);
        assert_eq!(
            got.iter().map(|(v, _)| v.as_str()).collect::<Vec<_>>(),
            ["0.5.0", "0.3.2", "0.3.1"]
        );
        // The last plain release ends where its section does.
        let markdown = Markdown::new(raw);
        let last = releases(raw, &markdown).pop().expect("0.3.1");
        assert!(!raw[last.span].contains("Credits"));
    }

    #[test]
    fn an_rst_changelogs_pre_releases_and_overlined_titles_are_sections() {
        let raw = "=========\nChangelog\n=========\n\npytest 7.0.0 (2022-02-03)\n=========================\n\n- a\n\npytest 7.0.0rc1 (2021-12-06)\n============================\n\n- b\n\n1.2.post1\n=========\n\n- c\n";
        let structure = crate::records::rst::parse(raw);
        let versions: Vec<String> = releases(raw, &structure)
            .into_iter()
            .map(|r| r.version)
            .collect();
        assert_eq!(versions, ["7.0.0", "7.0.0rc1", "1.2.post1"]);
    }

    #[test]
    fn a_heading_naming_a_range_of_releases_is_the_later_ones_notes() {
        for (title, version) in [
            ("## Changes from 4.11.0 to 4.11.1\n\nText.\n", "4.11.1"),
            ("## 1.2.0 → 1.3.0\n\nText.\n", "1.3.0"),
            (
                "## Version 2.0.0 (compatible with 1.9.0)\n\nText.\n",
                "2.0.0",
            ),
        ] {
            let markdown = Markdown::new(title);
            let found = releases(title, &markdown);
            assert_eq!(found.len(), 1, "{title}");
            assert_eq!(found[0].version, version, "{title}");
        }
    }

    #[test]
    fn release_headings_in_the_common_styles_are_sections() {
        let raw = "# Changelog\n\n## Unreleased\n\n- x\n\n## [v2.0.0] - 2025-01-02\n\n### Added\n\n- y\n\n## 1.4.0\n\n- z\n\n## Release 0.9 (2024-05-01)\n";
        assert_eq!(
            sections(raw),
            [
                ("2.0.0".to_owned(), "## [v2.0.0] - 2025-01-02".to_owned()),
                ("1.4.0".to_owned(), "## 1.4.0".to_owned()),
                ("0.9".to_owned(), "## Release 0.9 (2024-05-01)".to_owned()),
            ]
        );
        // Brackets escaped as Markdown renders them unescaped.
        let raw = "# Changelog\n\n## \\[0.8.0\\] - 2023-04-09\n\n- x\n";
        assert_eq!(
            sections(raw),
            [("0.8.0".to_owned(), "## \\[0.8.0\\] - 2023-04-09".to_owned())]
        );
        // A release script's template kept its brackets.
        let raw =
            "# Changes\n\n# Version 4.0.0 (2018-08-22)\n\n- x\n\n# v<1.13.0>, 2016-11-24\n\n- y\n";
        assert_eq!(
            sections(raw),
            [
                (
                    "4.0.0".to_owned(),
                    "# Version 4.0.0 (2018-08-22)".to_owned()
                ),
                ("1.13.0".to_owned(), "# v<1.13.0>, 2016-11-24".to_owned()),
            ]
        );
        // The version in code markup.
        let raw = "# Notes\n\n## Buildbot ``2.10.5`` ( ``2021-04-05`` )\n\n- x\n\n## Tool `1.2.0`\n\n- y\n";
        assert_eq!(
            sections(raw),
            [
                (
                    "2.10.5".to_owned(),
                    "## Buildbot ``2.10.5`` ( ``2021-04-05`` )".to_owned()
                ),
                ("1.2.0".to_owned(), "## Tool `1.2.0`".to_owned()),
            ]
        );
    }

    #[test]
    fn a_title_naming_the_release_line_is_no_section_of_its_own() {
        let raw = "=============================\nChange history for Shop 1.0\n=============================\n\n1.0.2\n=====\n\n- a\n\n1.0.1\n=====\n\n- b\n";
        let structure = crate::records::rst::parse(raw);
        let versions: Vec<String> = releases(raw, &structure)
            .into_iter()
            .map(|r| r.version)
            .collect();
        assert_eq!(versions, ["1.0.2", "1.0.1"]);
        let raw = "## 7.0.0\n\n- a\n\n#### 7.0.0-beta.1\n\n- b\n\n## 6.3.5\n";
        let versions: Vec<String> = releases(raw, &Markdown::new(raw))
            .into_iter()
            .map(|r| r.version)
            .collect();
        assert_eq!(versions, ["7.0.0", "7.0.0-beta.1", "6.3.5"]);
    }

    #[test]
    fn a_release_numbered_whole_is_one_where_its_title_says_so() {
        let raw = "# Changelog\n\n## Version 46\n\n- `a.py`\n\n## Version 45\n\n- `b.py`\n\n## Step 2\n\n- `c.py`\n";
        let markdown = Markdown::new(raw);
        let found: Vec<String> = releases(raw, &markdown)
            .into_iter()
            .map(|r| r.version)
            .collect();
        assert_eq!(found, ["46", "45"]);
    }

    #[test]
    fn a_section_runs_to_the_next_release_not_to_its_subheadings() {
        let raw = "## 2.0.0\n\n### Added\n\n- `a.py`\n\n## 1.0.0\n\n- `b.py`\n";
        let markdown = Markdown::new(raw);
        let found = releases(raw, &markdown);
        assert!(raw[found[0].span.clone()].contains("a.py"));
        assert!(!raw[found[0].span.clone()].contains("b.py"));
    }

    #[test]
    fn a_release_is_found_at_its_tag_or_its_one_package_tag() {
        let tags = owned(&["v1.4.0", "2.0.0", "core-v3.1.0", "a-4.0.0", "b-4.0.0"]);
        assert_eq!(tag_of("1.4.0", &tags), Some("v1.4.0"));
        assert_eq!(tag_of("2.0.0", &tags), Some("2.0.0"));
        assert_eq!(tag_of("3.1.0", &tags), Some("core-v3.1.0"));
        assert_eq!(tag_of("4.0.0", &tags), None, "two packages share it");
        assert_eq!(tag_of("1.4", &tags), None);
        let lines = owned(&["dev-0.11", "rel-0.11", "dev-0.12"]);
        assert_eq!(
            tag_of("0.11", &lines),
            Some("rel-0.11"),
            "its release, not its dev line"
        );
        assert_eq!(
            tag_of("0.12", &lines),
            Some("dev-0.12"),
            "the one tag there is"
        );
        let spelled = owned(&["rel_1_0_0", "rel_1_0_0b1", "rel_2_0_0"]);
        assert_eq!(tag_of("1.0.0", &spelled), Some("rel_1_0_0"));
        assert_eq!(page_tag("2.0", &spelled), Some("rel_2_0_0"));
        assert!(shipped("1.4", &spelled));
        assert!(!shipped("2.1", &spelled));
        let beta = owned(&["rel_2_0_0", "rel_2_1_0b1"]);
        assert!(!shipped("2.1", &beta), "only its beta is out");
        assert!(shipped("2.0", &beta));
    }

    fn page(record: &str, raw: &str) -> Option<String> {
        let structure = crate::records::rst::parse(raw);
        release_page(record, raw, &structure)
    }

    #[test]
    fn a_page_named_or_titled_for_a_release_is_its_notes() {
        let plain = "Guide\n=====\n\nText.\n";
        assert_eq!(page("docs/whatsnew-3.1.rst", plain).as_deref(), Some("3.1"));
        // A version written with underscores; a folder of upgrade guides.
        assert_eq!(page("docs/whatsnew_1_1.rst", plain).as_deref(), Some("1.1"));
        assert_eq!(
            page("docs/pages/upgrading/2.0.rst", plain).as_deref(),
            Some("2.0")
        );
        assert_eq!(page("docs/pages/guides/2.0.rst", plain), None);
        // A release and what the page is about, in a folder of releases.
        assert_eq!(
            page("docs/manual/upgrading/0.9-worker-transition.rst", plain).as_deref(),
            Some("0.9")
        );
        assert_eq!(page("docs/manual/0.9-worker-transition.rst", plain), None);
        assert_eq!(
            page("docs/history/changelog-2.1.rst", plain).as_deref(),
            Some("2.1")
        );
        assert_eq!(page("docs/history/1.4.rst", plain).as_deref(), Some("1.4"));
        // A report titled for the release it measured.
        let report =
            "Code Coverage for Eleventy v3.1.2\n=================================\n\nTable.\n";
        assert_eq!(page("docs/coverage.md", report).as_deref(), Some("3.1.2"));
        let guide = "Guide for version 3 users\n=========================\n\nText.\n";
        assert_eq!(page("docs/guide.md", guide), None);
        let noteworthy = ".. _id.noteworthy_in_version_1.2.7:\n\nNoteworthy in Version 1.2.7\n===========================\n\nSummary.\n";
        assert_eq!(
            page("docs/new_and_noteworthy_v1.2.7.rst", noteworthy).as_deref(),
            Some("1.2.7")
        );
        assert_eq!(
            page("docs/releases/v1.2.0.rst", plain).as_deref(),
            Some("1.2.0")
        );
        assert_eq!(
            page("docs/whatsnew/5.0.x.rst", plain).as_deref(),
            Some("5.0")
        );
        let titled =
            "===========================\nWhat's new in Celery 3.1\n===========================\n";
        assert_eq!(page("docs/cipater.rst", titled).as_deref(), Some("3.1"));
        let notes = "Pyramid 1.4 release notes\n=========================\n";
        assert_eq!(page("docs/notes.rst", notes).as_deref(), Some("1.4"));
        // A bare version outside a folder of releases, a guide to migrate,
        // and a page that merely mentions a version are no release's notes.
        assert_eq!(page("docs/api/1.4.rst", plain), None);
        let guide = "Migrating to 2.0\n================\n";
        assert_eq!(page("docs/migrate.rst", guide), None);
        // Among release notes, it is the notes of that release.
        assert_eq!(
            page("doc/changelog/migration_20.rst", guide).as_deref(),
            Some("2.0")
        );
        let usage = "Usage\n=====\n\nNew in 3.1: what's new.\n";
        assert_eq!(page("docs/usage.rst", usage), None);
    }

    #[test]
    fn a_release_line_is_tagged_at_its_first_release_and_shipped_once_tagged() {
        let tags = owned(&["v3.1.0", "v3.1.25", "v4.0.0"]);
        assert_eq!(page_tag("3.1", &tags), Some("v3.1.0"));
        assert_eq!(page_tag("3.2", &tags), None);
        assert!(shipped("3.2", &tags), "4.0.0 came after it");
        assert!(shipped("4.0", &tags));
        assert!(!shipped("4.1", &tags), "being drafted");
        assert!(!shipped("1.0", &[]));
        assert!(superseded("3.2", &tags));
        assert!(!superseded("4.0", &tags), "the newest");
        let numbered: Vec<String> = ["v007", "v008", "v1.0.0"].map(String::from).into();
        assert!(superseded("007", &numbered));
        assert!(!superseded("008", &numbered[..2]));
    }

    #[test]
    fn a_page_named_for_a_release_gives_its_version() {
        for (page, version) in [
            ("docs/version0.11.rst", Some("0.11")),
            ("docs/github-stats-0.13.rst", Some("0.13")),
            ("docs/v1.3.md", Some("1.3")),
            ("docs/blog/releases/v5-2-release.md", Some("5.2")),
            ("docs/blog/releases/v1.3.2-release-notes.md", Some("1.3.2")),
            ("news/v2_0_1_released.md", Some("2.0.1")),
            ("notes/coredns-007.md", Some("007")),
            // An ADR's number leads its name; an unpadded number is a step's.
            ("docs/adr/0007-use-go.md", None),
            ("docs/tutorial/step-7.md", None),
            // Dashed numbers without a `v` and a release word are a date's.
            ("docs/2024-01-release.md", None),
            ("docs/v5-2.md", None),
            ("docs/release-process.md", None),
        ] {
            assert_eq!(version_named(page).as_deref(), version, "{page}");
        }
    }

    #[test]
    fn an_upgrade_guide_is_told_by_its_path_or_its_title() {
        assert!(upgrade_guide(
            "docs/upgrading/08-upgrade.rst",
            "Upgrading to v8\n===\n"
        ));
        assert!(upgrade_guide("docs/migration.md", "# Guide\n"));
        assert!(upgrade_guide("docs/v3.md", "# Migrating to 3.0\n"));
        assert_eq!(
            upgrade_target("docs/zh/latest/upgrade-guide-from-2.15.x-to-3.0.0.md").as_deref(),
            Some("3.0.0")
        );
        assert_eq!(
            upgrade_target("docs/migrate-to-v2.1.md").as_deref(),
            Some("2.1")
        );
        assert_eq!(upgrade_target("docs/to-3.0.0.md"), None);
        assert_eq!(upgrade_target("docs/upgrading.md"), None);
        assert!(upgrade_guide("doc/porting.rst", "Porting\n=======\n"));
        let tags: Vec<String> = ["v0.10.0", "v2.0.0", "v2.0.1", "v3.1.0", "v4.8.0"]
            .map(str::to_owned)
            .to_vec();
        let titled = |text: &str| earlier_major_title(text, &tags);
        assert_eq!(
            titled("# SDK 2.0 Development\n"),
            Some((1, "2.0".to_owned()))
        );
        assert_eq!(
            titled("Migrating to v3\n===============\n"),
            Some((1, "3.0".to_owned()))
        );
        assert_eq!(
            titled(":orphan:\n\nMigrating to v0.10.0\n====================\n"),
            Some((3, "0.10.0".to_owned()))
        );
        // From one release to another: the one it leads to.
        assert_eq!(
            titled("# Upgrading from SDK v2 to v3\n"),
            Some((1, "3.0".to_owned()))
        );
        assert_eq!(titled("# Upgrading from SDK v3 to v4\n"), None);
        // The quiet side: the newest major, a version no tag bears out (another
        // project's: Python 3.8), a number that is no version, a title further down.
        for text in [
            "# SDK 4.8 notes\n",
            "# Python 3.8 support\n",
            "# 2 ways to build\n",
            "Intro.\n\n## SDK 2.0 Development\n",
        ] {
            assert_eq!(titled(text), None, "{text}");
        }
        assert!(!upgrade_guide(
            "docs/guide.md",
            "# Guide\n\nUpgrade the pool when it runs out.\n"
        ));
        assert!(!upgrade_guide(
            "docs/api.rst",
            "API\n===\n\nThe upgrade path is in the guide.\n"
        ));
    }

    #[test]
    fn an_entry_that_removes_a_path_is_told_apart() {
        let raw = "- Removed `old.py`.\n- Added `new.py`.\n";
        assert!(entry_removes(raw, raw.find("old.py").unwrap_or(0)));
        assert!(!entry_removes(raw, raw.find("new.py").unwrap_or(0)));
        // The new home of a move or a rename is what is there now.
        // A sentence wrapped across lines is one entry.
        let wrapped = "Both Pythons share one list now, and the\n``req/py3k.txt`` file has been\nremoved. The ``req/base.txt`` file stays.\n";
        assert!(entry_removes(
            wrapped,
            wrapped.find("req/py3k").unwrap_or(0)
        ));
        assert!(!entry_removes(
            wrapped,
            wrapped.find("req/base").unwrap_or(0)
        ));
        let moved = "- Renamed `a.py` to `b.py`; counting moved into ``src/c.py``.\n";
        assert!(entry_removes(moved, moved.find("a.py").unwrap_or(0)));
        assert!(!entry_removes(moved, moved.find("b.py").unwrap_or(0)));
        assert!(!entry_removes(moved, moved.find("src/c.py").unwrap_or(0)));
    }
}
