//! Citations, after resolution: anchors held to their history. A link whose
//! page is there but lacks its `#fragment` is read at the commit that wrote it
//! into the record: the page there offered the anchor → the finding says which
//! commit took it away and what the heading became (one heading reworded in
//! that commit: "the heading is now "Y"", and its anchor is the suggestion);
//! the page never offered it → it never worked, and the finding says so;
//! it was the title the page opened with → the page still opens where it
//! stood (`page-title`).
//! A page that pulls text in from elsewhere is left to the resolver's reading
//! (its includes are not read at earlier commits).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use git2::Oid;

use super::{History, short, turning_point};
use crate::checks::cites::anchors::{PageAnchors, vitepress_slug};
use crate::checks::cites::cfg::CitesPlan;
use crate::checks::cites::exemptions::{page_title, recurring_section};
use crate::checks::cites::model::Exemption;
use crate::checks::cites::model::{AnchorTarget, Slugger};
use crate::checks::cites::model::{CiteStatus, ResolvedCite};
use crate::frames::Frame;

pub(super) fn judge(
    resolved: &mut [ResolvedCite],
    history: &mut History<'_>,
    audited: &Frame,
    texts: &BTreeMap<String, Arc<str>>,
    settings: &CitesPlan,
) {
    let mut pages = Pages::default();
    for cite in resolved.iter_mut() {
        let Some(target) = cite.anchor.clone() else {
            continue;
        };
        // A page that pulls in text it cannot read is exempt (`unread-include`)
        // unless its own headings offered the anchor when the record cited
        // it: then the page itself dropped it.
        let exempt = matches!(
            cite.status,
            CiteStatus::Skipped {
                exemption: Exemption::UnreadInclude,
                ..
            }
        );
        if cite.frame != audited.label
            || !(exempt || matches!(cite.status, CiteStatus::Stale { .. }))
        {
            continue;
        }
        let Some((writing, _)) = history.writing_of(cite, texts) else {
            continue;
        };
        let offers = |pages: &mut Pages, history: &mut History<'_>, position: usize| {
            pages.at(history, position, &target.file).map(|page| {
                (
                    page.offers_on(&target.fragment, target.slugger),
                    page.includes_text,
                )
            })
        };
        let Some((offered, includes)) = offers(&mut pages, history, writing) else {
            continue;
        };
        if (includes && !exempt) || (exempt && !offered) {
            continue;
        }
        let when = history.commit_at(writing).map(short).unwrap_or_default();
        // Offered then, the anchor must have been the title's own; never
        // offered, the link named the title in its words (one the page had
        // reworded before the line was last written).
        let opened_with = pages
            .at(history, writing, &target.file)
            .is_some_and(|page| {
                if offered {
                    page.is_top(&target.fragment)
                } else {
                    page.names_top(&target.fragment)
                }
            });
        if let Some(status) = settings.exemptions.ask(Exemption::PageTitle, || {
            page_title::fires(opened_with, &target.file, &target.fragment, &when)
        }) {
            cite.status = status;
            cite.evidenced = true;
            continue;
        }
        if exempt {
            cite.status = CiteStatus::Stale {
                why: format!(
                    "{} has no heading or anchor `#{}` at {} (the unread-include exemption yields: the page's own headings had it)",
                    target.file, target.fragment, audited.label
                ),
                suggestion: None,
                guessed: false,
            };
        }
        let Some((why, suggestion, guessed)) = cite.status.stale_mut() else {
            continue;
        };
        cite.evidenced = true;
        if !offered {
            why.push_str(&format!(
                "; the page did not offer it when the record cited it either (at {when})"
            ));
            continue;
        }
        // The newest position where the page still offered it.
        if offers(&mut pages, history, 0).is_some_and(|(o, _)| o) {
            // Committed with the anchor, gone only from the working tree: what
            // the resolver says stands.
            continue;
        }
        let (present, absent) = turning_point(history, writing, 0, |h, at| {
            offers(&mut pages, h, at).is_some_and(|(o, _)| o)
        });
        let Some(commit) = history.commit_at(absent) else {
            continue;
        };
        // Dropped and offered again since the record cited it (on either
        // side of the turn found): a section the project re-adds in turn.
        let returned = recurs(writing, present, absent, |at| {
            offers(&mut pages, history, at).is_some_and(|(o, _)| o)
        })
        .and_then(|(gone, back)| {
            Some((
                short(history.commit_at(gone)?),
                short(history.commit_at(back)?),
            ))
        });
        if let Some(status) = settings.exemptions.ask(Exemption::RecurringSection, || {
            recurring_section::fires(returned.as_ref(), &target.file, &target.fragment)
        }) {
            cite.status = status;
            cite.evidenced = true;
            continue;
        }
        cite.held_when_written = Some(when.clone());
        let mut was_named = None;
        let became = match (
            pages.at(history, present, &target.file),
            pages.at(history, absent, &target.file),
        ) {
            (Some(before), Some(after)) => {
                was_named = before
                    .headings
                    .iter()
                    .find(|(_, anchor)| anchor.eq_ignore_ascii_case(&target.fragment))
                    .map(|(words, _)| words.clone());
                heading_now(&before, &after, &target.fragment, target.slugger)
            }
            _ => None,
        };
        match became {
            Some((words, anchor)) => {
                why.push_str(&format!(
                    "; it resolved when the record cited it (at {when}), and in {} the heading became \"{words}\"",
                    short(commit)
                ));
                let page = if target.file == cite.record {
                    ""
                } else {
                    cite.text.split('#').next().unwrap_or("")
                };
                *suggestion = Some(format!("{page}#{anchor}"));
                // A pending section ("Upcoming release", "Unreleased") renamed
                // to the version it shipped as is a release, not a new name
                // for what the record links: the record means the next one.
                *guessed = names_a_version(&words);
                // The section the record linked (as it read when the cite
                // was written) rewritten by the time its heading was
                // reworded: not what went on under the new heading.
                let page_text = |history: &mut History<'_>, at: usize| {
                    let id = history.id_at(at, &target.file)?;
                    let bytes = history
                        .repo()
                        .blob_bytes(id, crate::snapshot::MAX_PARSED_BYTES)?;
                    Some(String::from_utf8_lossy(&bytes).into_owned())
                };
                if !*guessed
                    && let Some(old_words) = &was_named
                    && let (Some(then), Some(now)) =
                        (page_text(history, writing), page_text(history, absent))
                    && let (Some(was), Some(is)) =
                        (section_lines(&then, old_words), section_lines(&now, &words))
                {
                    let kept = was.intersection(&is).count();
                    if was.len() >= 2 && kept * 2 < was.len() {
                        why.push_str(&format!(
                            ", but the section under it keeps {kept} of the {} lines it had when cited: rewritten, not only renamed",
                            was.len()
                        ));
                        *guessed = true;
                    }
                }
            }
            None => match moved_to(history, &mut pages, present, absent, &target) {
                // The section left the page whole for another one (a
                // changelog's old releases split into a file of their
                // own): the link follows it there, in the form it was
                // written in; a section rewritten on the way, or a link
                // written as a page's address, is the reader's to judge.
                Some((page, kept)) => {
                    why.push_str(&format!(
                        "; it resolved when the record cited it (at {when}), and in {} the section moved to {page}",
                        short(commit)
                    ));
                    let stated = if target.file == cite.record {
                        format!("#{}", target.fragment)
                    } else {
                        cite.text.clone()
                    };
                    let written_as_file = stated.split('#').next().is_some_and(|p| {
                        p.is_empty() || target.file.ends_with(p.trim_start_matches("./"))
                    });
                    *suggestion = Some(super::fates::link_to(&cite.record, &page, &stated));
                    *guessed = !(kept && written_as_file);
                }
                None => why.push_str(&format!(
                    "; it resolved when the record cited it (at {when}) and went in {}",
                    short(commit)
                )),
            },
        }
    }
}

/// The one page that gained the anchor in the commit that took it from
/// `target`'s page (the commit between positions `present` and `absent`),
/// and whether the section came with it: at least half of the lines under
/// the heading, as the page had them, stand under it on the new page.
fn moved_to(
    history: &mut History<'_>,
    pages: &mut Pages,
    present: usize,
    absent: usize,
    target: &AnchorTarget,
) -> Option<(String, bool)> {
    let (before, after) = (history.commit_at(present)?, history.commit_at(absent)?);
    let gained: Vec<String> = history
        .repo()
        .changes_between(before, after)
        .into_iter()
        .filter_map(|(_, now)| now)
        .filter(|page| *page != target.file && crate::checks::cites::anchors::is_page(page))
        .filter(|page| {
            pages
                .at(history, absent, page)
                .is_some_and(|p| p.offers_on(&target.fragment, target.slugger))
                && !pages
                    .at(history, present, page)
                    .is_some_and(|p| p.offers_on(&target.fragment, target.slugger))
        })
        .collect();
    let [page] = gained.as_slice() else {
        return None;
    };
    let words = |p: Arc<PageAnchors>| {
        p.headings
            .iter()
            .find(|(_, anchor)| anchor.eq_ignore_ascii_case(&target.fragment))
            .map(|(words, _)| words.clone())
    };
    let text = |history: &mut History<'_>, at: usize, file: &str| {
        let id = history.id_at(at, file)?;
        let bytes = history
            .repo()
            .blob_bytes(id, crate::snapshot::MAX_PARSED_BYTES)?;
        Some(String::from_utf8_lossy(&bytes).into_owned())
    };
    let kept = (|| {
        let was_named = words(pages.at(history, present, &target.file)?)?;
        let is_named = words(pages.at(history, absent, page)?)?;
        let was = section_lines(&text(history, present, &target.file)?, &was_named)?;
        let is = section_lines(&text(history, absent, page)?, &is_named)?;
        Some(was.intersection(&is).count() * 2 >= was.len())
    })()
    .unwrap_or(false);
    Some((page.clone(), kept))
}

/// Where the page lacked the anchor and where it offered it again later,
/// if it did, between the commit that wrote the cite (`writing`) and the
/// newest (0), around the turn found (`present` offering, `absent`, newer,
/// lacking): a position older than `present` that lacked it (back at
/// `present`), else one newer than `absent` that offers it (gone at
/// `absent`). Up to `SAMPLES` positions are read on each side.
fn recurs(
    writing: usize,
    present: usize,
    absent: usize,
    mut offered: impl FnMut(usize) -> bool,
) -> Option<(usize, usize)> {
    /// The most commits read on each side: a page's versions are read once
    /// each (by blob), so this bounds the trees walked, not pages parsed.
    const SAMPLES: usize = 24;
    let spread = |from: usize, to: usize| {
        let step = (to.saturating_sub(from) + 1).div_ceil(SAMPLES).max(1);
        (from..=to).step_by(step)
    };
    if present + 1 < writing
        && let Some(gone) = spread(present + 1, writing - 1).find(|&at| !offered(at))
    {
        return Some((gone, present));
    }
    if absent > 1
        && let Some(back) = spread(1, absent - 1).find(|&at| offered(at))
    {
        return Some((absent, back));
    }
    None
}

/// The heading that stands where the one with `fragment` stood: the page's
/// headings before and after the commit that took the anchor, the same but
/// for that one heading (reworded in place). Its words and its anchor, as
/// the site the link is followed on slugs it.
fn heading_now(
    before: &PageAnchors,
    after: &PageAnchors,
    fragment: &str,
    slugger: Option<Slugger>,
) -> Option<(String, String)> {
    let anchor_of = |(words, anchor): &(String, String)| match slugger {
        Some(Slugger::VitePress) => vitepress_slug(words),
        None => anchor.clone(),
    };
    let gone = before
        .headings
        .iter()
        .position(|heading| anchor_of(heading).eq_ignore_ascii_case(fragment))?;
    let now = |heading: &(String, String)| (heading.0.clone(), anchor_of(heading));
    if before.headings.len() == after.headings.len() {
        let changed: Vec<usize> = (0..before.headings.len())
            .filter(|&i| before.headings[i].0 != after.headings[i].0)
            .collect();
        return (changed == [gone]).then(|| now(&after.headings[gone]));
    }
    // Headings added or dropped around it too: the one heading that went and
    // the one that came, when that is all the commit did to the outline.
    let words = |page: &PageAnchors| -> Vec<String> {
        page.headings.iter().map(|(w, _)| w.clone()).collect()
    };
    let (old, new) = (words(before), words(after));
    let went: Vec<&String> = old.iter().filter(|w| !new.contains(w)).collect();
    let came: Vec<&(String, String)> = after
        .headings
        .iter()
        .filter(|(w, _)| !old.contains(w))
        .collect();
    match (went.as_slice(), came.as_slice()) {
        ([one], [heading]) if **one == before.headings[gone].0 => Some(now(heading)),
        _ => None,
    }
}

/// The lines of the section under the heading whose words are `words` (a
/// Markdown `#` heading, or a heading line an underline follows), trimmed,
/// blank ones left out, up to the next heading; None when no heading of
/// the page has those words.
fn section_lines(text: &str, words: &str) -> Option<BTreeSet<String>> {
    let lines: Vec<&str> = text.lines().collect();
    let underline = |line: &str| {
        let line = line.trim();
        line.len() >= 3
            && line
                .chars()
                .all(|c| matches!(c, '=' | '-' | '~' | '^' | '*' | '+' | '#' | '"'))
    };
    let heading = |at: usize| -> Option<&str> {
        let line = lines[at].trim();
        if let Some(rest) = line.strip_prefix('#') {
            return Some(
                rest.trim_start_matches('#')
                    .trim()
                    .trim_end_matches('#')
                    .trim(),
            );
        }
        (!line.is_empty()
            && lines.get(at + 1).is_some_and(|next| underline(next))
            && !underline(line))
        .then_some(line)
    };
    // Compared by letters and digits: the parsed words lose the markup
    // (`` `cssHash` ``) the line has.
    let compact = |text: &str| -> String {
        text.chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect()
    };
    let wanted = compact(words);
    let start = (0..lines.len()).find(|&at| heading(at).is_some_and(|h| compact(h) == wanted))?;
    let body = (start + 1..lines.len())
        .take_while(|&at| heading(at).is_none())
        .map(|at| lines[at].trim())
        .filter(|line| !line.is_empty() && !underline(line))
        .map(str::to_owned)
        .collect();
    Some(body)
}

/// Pages read along the history, by blob id.
#[derive(Default)]
struct Pages {
    parsed: BTreeMap<Oid, Arc<PageAnchors>>,
}

impl Pages {
    fn at(
        &mut self,
        history: &mut History<'_>,
        position: usize,
        file: &str,
    ) -> Option<Arc<PageAnchors>> {
        let id = history.id_at(position, file)?;
        let repo = history.repo();
        Some(Arc::clone(self.parsed.entry(id).or_insert_with(|| {
            let bytes = repo
                .blob_bytes(id, crate::snapshot::MAX_PARSED_BYTES)
                .unwrap_or_default();
            Arc::new(PageAnchors::of_page(file, &String::from_utf8_lossy(&bytes)))
        })))
    }
}

/// Whether a heading names a version (`v10.0.0`, `1.2 (2024-05-01)`,
/// `Release 3.4.1`): a number with at least one dot in it.
fn names_a_version(heading: &str) -> bool {
    heading
        .split(|c: char| c.is_whitespace() || matches!(c, '(' | ')' | '[' | ']'))
        .any(|word| {
            let word = word.trim_start_matches(['v', 'V']);
            let mut parts = word.split('.');
            let numeric = |p: &str| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit());
            parts.next().is_some_and(numeric)
                && word.contains('.')
                && parts.all(|p| numeric(p) || p.is_empty())
        })
}

#[cfg(test)]
mod version_tests {
    use super::{names_a_version, recurs};

    #[test]
    fn a_heading_recurs_when_it_went_and_came_back_since_it_was_cited() {
        // Positions: 0 the newest; cited at 12; the turn found: offered at
        // 6, gone at 5.
        // Gone at 9 too, older than the turn: back by 6.
        assert_eq!(recurs(12, 6, 5, |at| at != 9 && at > 5), Some((9, 6)));
        // Offered again at 3, newer than the turn.
        assert_eq!(recurs(12, 6, 5, |at| at >= 6 || at == 3), Some((5, 3)));
        // Went once for good.
        assert_eq!(recurs(12, 6, 5, |at| at >= 6), None);
        assert_eq!(recurs(1, 1, 0, |_| true), None);
        // A long history is sampled, never walked whole.
        let mut asked = 0;
        let offered = |at: usize| {
            asked += 1;
            at >= 5_000
        };
        assert_eq!(recurs(10_000, 5_000, 4_999, offered), None);
        assert!(asked <= 50, "{asked}");
    }

    #[test]
    fn a_release_heading_names_a_version_and_a_renamed_section_does_not() {
        for heading in ["v10.0.0", "1.2 (2024-05-01)", "Release 3.4.1", "[2.0.1]"] {
            assert!(names_a_version(heading), "{heading}");
        }
        for heading in ["Installing", "Step 2", "Python 3 support", "Unreleased"] {
            assert!(!names_a_version(heading), "{heading}");
        }
    }
}
