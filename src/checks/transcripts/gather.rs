//! Stage 4 (the transcript family): for every record the run reads, finds its
//! transcripts, picks the commit each is re-run at — the revision the command
//! names, else the frame the record declares for its passage, else the
//! audited snapshot — re-runs those in the family and compares.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::compare::{as_count, compare};
use super::find::{Form, Found, find};
use super::parse::{Pipeline, Source, parse};
use super::run::{Context, RunError, run};
use super::{Transcript, TranscriptStatus};
use crate::checks::cites::exemptions::{Exemption, copied_from, copied_record};
use crate::checks::cites::scope::own_records;
use crate::checks::family_inputs::{FamilyInputs, TranscriptsPart};
use crate::error::Result;
use crate::frames::Frame;
use crate::frames::{FrameRequest, Frames};
use crate::pathspec::select;
use crate::records::frames::RecordFrames;
use crate::records::{Record, read_record};
use crate::snapshot::Day;
use rayon::prelude::*;

/// Finds and re-runs every transcript in the records the citation settings
/// select (every `*.md` with no rule file).
pub(crate) fn gather(
    inputs: &mut FamilyInputs<'_, '_, TranscriptsPart<'_>>,
) -> Result<Vec<Transcript>> {
    let FamilyInputs {
        plan,
        frames,
        records: cache,
        files,
        notes,
        ..
    } = inputs;
    if !plan.enabled {
        return Ok(Vec::new());
    }
    let audited = frames.audited();
    let selected: Vec<String> = select(audited.snapshot.paths(), &plan.cites.records, &[])
        .into_iter()
        .map(str::to_owned)
        .collect();
    // The records the citations read, set aside the same way; the citation
    // family already says what it set aside, once.
    let mut paths = own_records(
        selected,
        &audited,
        &frames.tags(),
        &plan.cites.exemptions,
        &mut Vec::new(),
    );
    if let Some(only) = &plan.cites.judged {
        paths.retain(|path| only.contains(path));
    }
    let mut out = Vec::new();
    let texts = super::run::Texts::default();
    // Each record's transcripts and declared frames, found on every core
    // (pure reads of its text); re-run below in path order.
    let snapshot = &*audited.snapshot;
    let frame_pattern = &plan.cites.options.frame_pattern;
    type Read = (Arc<Record>, Vec<Found>, RecordFrames);
    let outcomes: Vec<(Vec<String>, Result<Option<Read>>)> = paths
        .par_iter()
        .map(|path| {
            let mut read_notes = Vec::new();
            let read = cache
                .get_or_parse(path, || read_record(snapshot, path, &mut read_notes))
                .map(|record| {
                    let record = record?;
                    // Another repository's README copied in: its commands ran in that tree.
                    if copied_from(&record.text).is_some() {
                        return None;
                    }
                    let markdown = record.markdown();
                    let found = find(&record.text, markdown);
                    if found.is_empty() {
                        return None;
                    }
                    let declared = RecordFrames::read(&record.text, markdown, frame_pattern);
                    Some((record, found, declared))
                });
            (read_notes, read)
        })
        .collect();
    // A knowledge store's verbatim copy re-runs nothing of its own: its
    // commands are its original's, which holds the same transcripts (so is
    // among these records too), re-run once.
    let copies = if plan.cites.exemptions.is_on(Exemption::CopiedRecord) {
        let with_transcripts: Vec<(String, Arc<str>)> = paths
            .iter()
            .zip(&outcomes)
            .filter_map(|(path, (_, read))| match read {
                Ok(Some((record, _, _))) => Some((path.clone(), Arc::clone(&record.text))),
                _ => None,
            })
            .collect();
        copied_record::copies_in(
            frames.repo(),
            snapshot,
            audited.commit.as_deref(),
            &with_transcripts,
        )
    } else {
        BTreeMap::new()
    };
    for (path, (read_notes, read)) in paths.into_iter().zip(outcomes) {
        notes.extend(read_notes);
        let Some((record, found, mut declared)) = read? else {
            continue;
        };
        if copies.contains_key(&path) {
            continue;
        }
        let text = Arc::clone(&record.text);
        let markdown = record.markdown();
        files.insert(path.clone(), Arc::clone(&text));
        crate::frames::drop_numbers(frames, &mut declared);
        // Blocks a rule's listing claim checks are the rule's: one finding, not two.
        let mut claimed: Vec<(std::ops::Range<usize>, String)> = Vec::new();
        for claim in &plan.listings {
            if !claim.records.iter().any(|r| r.matches(&path)) {
                continue;
            }
            if let Some(listing) = crate::claims::find_listing(&record, claim.pattern)
                && let Some(block) = markdown
                    .fenced
                    .iter()
                    .find(|b| b.region().contains(&listing.anchor.start))
            {
                claimed.push((block.region(), claim.fact.to_owned()));
            }
        }
        // Per block: the first command recount did not run; what follows it in
        // the same session may see what it changed.
        let mut tainted: BTreeMap<usize, String> = BTreeMap::new();
        // A reader follows a page's sessions in one shell: a `cd` in one
        // block leaves every later block of the page in that folder, not at
        // the root recount runs from.
        let mut moved: Option<String> = None;
        for f in found {
            if f.block.is_some()
                && let Some(cd) = &moved
                && (f.form == Form::Inline || !f.output.is_empty())
            {
                out.push(Transcript {
                    record: path.clone(),
                    span: f.span.clone(),
                    form: f.form,
                    command: f.command.clone(),
                    frame_from: None,
                    frame: None,
                    status: TranscriptStatus::NotRerun {
                        why: format!(
                            "it follows `{cd}` earlier on its page: the reader's shell is in another folder than the repository's root"
                        ),
                    },
                });
                continue;
            }
            if f.block.is_some() && moved.is_none() {
                moved = changes_folder(&f.command);
            }
            // The day closing the key's own parenthesis, else the frame its
            // passage declares.
            let passage = match &f.day {
                Some(day) => Some(Passage {
                    // A day no calendar has is asked as written: it resolves to
                    // nothing, and the transcript is unverified.
                    request: Day::parse(day).map_or(FrameRequest::Rev(day), FrameRequest::Date),
                    shown: day.clone(),
                    from: "the date closing its parenthesis".to_owned(),
                }),
                None => declared.at(f.span.start).and_then(|d| {
                    Some(Passage {
                        request: FrameRequest::declared(d)?,
                        shown: d.shown().0,
                        from: format!("{} at line {}", d.by.as_str(), record.line_col(d.at).0),
                    })
                }),
            };
            let status_frame = match claimed.iter().find(|(r, _)| r.contains(&f.span.start)) {
                Some((_, fact)) => (TranscriptStatus::Claimed { fact: fact.clone() }, None),
                None => transcript(
                    &path,
                    &f,
                    passage.as_ref(),
                    frames,
                    &audited,
                    &mut tainted,
                    &texts,
                ),
            };
            out.push(Transcript {
                record: path.clone(),
                span: f.span.clone(),
                form: f.form,
                command: f.command.clone(),
                frame_from: status_frame.1.as_ref().and_then(|(_, from)| from.clone()),
                frame: status_frame.1.map(|(label, _)| label),
                status: status_frame.0,
            });
        }
    }
    summarise(&out, cache, notes);
    Ok(out)
}

/// Notes: one for the transcripts with output that were not re-run, one per
/// unverified transcript.
fn summarise(out: &[Transcript], cache: &crate::records::RecordCache, notes: &mut Vec<String>) {
    let records = cache.records();
    let at = |t: &Transcript| {
        let line = records
            .get(&t.record)
            .map_or(1, |r| r.line_col(t.span.start).0);
        format!("{}:{line}", t.record)
    };
    let over_budget = super::run::over_budget();
    let (past_budget, not_rerun): (Vec<&Transcript>, Vec<&Transcript>) = out
        .iter()
        .filter(|t| matches!(t.status, TranscriptStatus::NotRerun { .. }))
        .partition(
            |t| matches!(&t.status, TranscriptStatus::NotRerun { why } if *why == over_budget),
        );
    if let Some(first) = past_budget.first() {
        notes.push(format!(
            "{} transcript{} not re-run from {} on: {over_budget}",
            past_budget.len(),
            if past_budget.len() == 1 { "" } else { "s" },
            at(first),
        ));
    }
    if let Some(first) = not_rerun.first() {
        let TranscriptStatus::NotRerun { why } = &first.status else {
            return;
        };
        notes.push(format!(
            "{} transcript{} with output not re-run: outside the commands recount re-runs natively (first: {} `{}`: {why}); `recount transcripts` lists them",
            not_rerun.len(),
            if not_rerun.len() == 1 { "" } else { "s" },
            at(first),
            crate::escape::untrusted(&first.command, 80),
        ));
    }
    for t in out {
        if let TranscriptStatus::Unverified { why } = &t.status {
            notes.push(format!(
                "{}: transcript `{}` not verified: {why}",
                at(t),
                crate::escape::untrusted(&t.command, 80)
            ));
        }
    }
}

/// The command's own words when it changes the shell's folder (`cd x`,
/// `pushd x`), shortened for a reason.
fn changes_folder(command: &str) -> Option<String> {
    let command = command.trim();
    let word = command.split_whitespace().next()?;
    matches!(word, "cd" | "pushd").then(|| command.chars().take(40).collect())
}

/// The frame a transcript's passage names (its parenthesis's day, or the
/// record's declaration), and where it came from.
struct Passage<'r> {
    request: FrameRequest<'r>,
    /// The frame as shown in a reason: the sha, else the day.
    shown: String,
    from: String,
}

/// The status of one transcript and the frame it was re-run at.
fn transcript(
    record: &str,
    f: &Found,
    passage: Option<&Passage<'_>>,
    frames: &mut Frames<'_>,
    audited: &Arc<Frame>,
    tainted: &mut BTreeMap<usize, String>,
    texts: &super::run::Texts,
) -> (TranscriptStatus, Option<(String, Option<String>)>) {
    let block = f.block.map(|(b, _)| b);
    let pipeline = parse(&f.command);
    let asserts = f.form == Form::Inline || !f.output.is_empty();
    if let Some(first) = block.and_then(|b| tainted.get(&b)) {
        if !asserts {
            return (TranscriptStatus::NoOutput, None);
        }
        if let Err(refusal) = &pipeline {
            return (
                TranscriptStatus::NotRerun {
                    why: refusal.text(),
                },
                None,
            );
        }
        return (
            TranscriptStatus::NotRerun {
                why: format!(
                    "it follows `{first}` in the same session, which recount does not run"
                ),
            },
            None,
        );
    }
    let mut pipeline = match pipeline {
        Ok(p) => p,
        Err(refusal) => {
            if let Some(b) = block {
                let head: String = f
                    .command
                    .split_whitespace()
                    .take(2)
                    .collect::<Vec<_>>()
                    .join(" ");
                tainted.insert(b, head.chars().take(40).collect());
            }
            if !asserts {
                return (TranscriptStatus::NoOutput, None);
            }
            return (
                TranscriptStatus::NotRerun {
                    why: refusal.text(),
                },
                None,
            );
        }
    };
    if !asserts {
        return (TranscriptStatus::NoOutput, None);
    }
    if f.cut {
        return (
            TranscriptStatus::NotRerun {
                why: format!(
                    "its block is longer than the {} lines recount reads, so its output is cut",
                    super::find::MAX_BLOCK_LINES
                ),
            },
            None,
        );
    }
    if f.narrated {
        return (
            TranscriptStatus::NotRerun {
                why: "its block narrates between its lines (`// …`): a scripted demonstration, not a recorded session".to_owned(),
            },
            None,
        );
    }
    let unverified = |why: String| (TranscriptStatus::Unverified { why }, None);
    let not_rerun = |why: String| (TranscriptStatus::NotRerun { why }, None);
    // The revision the command names decides; else the passage's frame.
    let mut rev_prefix: Option<String> = None;
    let mut frame = Arc::clone(audited);
    let mut frame_from = None;
    let named_rev: Option<String> = match &mut pipeline.source {
        Source::GitGrep {
            revs,
            specs,
            dashdash,
            ..
        } => match revs.len() {
            0 => None,
            1 => {
                let rev = revs[0].clone();
                let paths = audited.snapshot.paths();
                let names_a_path = || {
                    let path = rev.trim_start_matches("./").trim_end_matches('/');
                    crate::snapshot::has_file(paths, path)
                        || crate::snapshot::has_folder(paths, path)
                };
                match frames.lookup(&at_head(&rev, audited)) {
                    Ok(_) => Some(rev),
                    // Without `--`, a word that is no revision is a path, as git
                    // reads it — when the tree has that path. Neither a revision
                    // nor a path, git refuses it: the output shown came from a
                    // revision this clone lacks (`deadbeef`), and is not
                    // re-run against a path of that name.
                    Err(_) if !*dashdash && names_a_path() => {
                        specs.insert(0, rev);
                        revs.clear();
                        None
                    }
                    Err(e) => return unverified(missing_revision(&e, &rev)),
                }
            }
            _ => {
                return (
                    TranscriptStatus::NotRerun {
                        why: "git grep of several revisions is not re-run".to_owned(),
                    },
                    None,
                );
            }
        },
        _ => None,
    };
    if let Some(rev) = named_rev {
        match frames.lookup(&at_head(&rev, audited)) {
            Ok((_, at)) => {
                frame = at;
                frame_from = Some("the revision the command names".to_owned());
                rev_prefix = Some(rev);
            }
            Err(e) => return unverified(missing_revision(&e, &rev)),
        }
    } else if let Some(Passage {
        request,
        shown,
        from,
    }) = passage
    {
        match frames
            .quietly(*request, record)
            .map_err(|f| f.explain(shown))
        {
            Ok((_, at)) => {
                frame = at;
                frame_from = Some(from.to_owned());
            }
            Err(why) => return unverified(format!("the frame of its passage ({from}): {why}")),
        }
    }
    // `HEAD` in a transcript is the tree the reader is looking at: the frame.
    if let Source::RevListCount { rev, .. } = &mut pipeline.source {
        *rev = at_head(rev, &frame);
    }
    let repo = frames.repo();
    let history = |rev: &str, paths: &[String]| -> std::result::Result<usize, String> {
        repo.count_commits(rev, paths)
            .map_err(|e| e.frame_failure().explain(rev))
    };
    let cx = Context {
        snapshot: &*frame.snapshot,
        texts,
        rev: rev_prefix.as_deref(),
        history: &history,
    };
    let at_label = Some((frame.label.clone(), frame_from));
    let printed = match run(&pipeline, &cx) {
        Ok(lines) => lines,
        Err(RunError::Refused(r)) => {
            return (TranscriptStatus::NotRerun { why: r.text() }, None);
        }
        Err(RunError::Missing(p)) => {
            // The snapshot leaves out what it will not read (a link, a submodule):
            // such an operand is there, and the real tools would follow it.
            let trimmed = p.trim_end_matches('/');
            let left_out = frame.snapshot.skipped().iter().find(|s| {
                trimmed == s.path
                    || trimmed
                        .strip_prefix(s.path.as_str())
                        .is_some_and(|rest| rest.starts_with('/'))
            });
            return not_rerun(match left_out {
                Some(s) => format!(
                    "`{p}` is {} {} at {}, which recount does not follow (the real tools would)",
                    if s.path == trimmed { "a" } else { "under a" },
                    s.why,
                    frame.label
                ),
                None => format!(
                    "`{p}` is not in the tree at {} (an ignored, untracked or removed path)",
                    frame.label
                ),
            });
        }
        Err(RunError::History(why)) => return unverified(why),
        Err(RunError::OverBudget) => return not_rerun(super::run::over_budget()),
    };
    let status = match &f.stated {
        Some((span, stated)) => {
            let observed = match printed.as_slice() {
                [one] => as_count(one).unwrap_or(1),
                lines => lines.len() as i128,
            };
            if observed == *stated {
                TranscriptStatus::Agrees
            } else {
                TranscriptStatus::Drift {
                    at: span.clone(),
                    expected: stated.to_string(),
                    actual: observed.to_string(),
                    diff: vec![format!("-{stated}"), format!("+{observed}")],
                }
            }
        }
        None => compare_block(record, f, &pipeline, &printed, &frame.label),
    };
    (status, at_label)
}

/// Why a revision a transcript names cannot be read, with what to do about it
/// in CI, where a shallow checkout is the usual cause.
fn missing_revision(e: &crate::snapshot::RevisionError, rev: &str) -> String {
    let why = e.frame_failure().explain(rev);
    if why.contains("fetch-depth") {
        why
    } else {
        format!(
            "{why}; in CI, fetch the full history (`fetch-depth: 0` for actions/checkout) so \
             the commit is there"
        )
    }
}

/// `HEAD` (or `HEAD~N`) read against the commit a frame is, so a transcript
/// audited at `--rev X` or in a framed passage means that commit, not the
/// clone's checkout; the working tree's HEAD stays HEAD.
fn at_head(rev: &str, frame: &Frame) -> String {
    match (rev.strip_prefix("HEAD"), &frame.commit) {
        (Some(rest), Some(commit)) if rest.is_empty() || rest.starts_with(['~', '^']) => {
            format!("{commit}{rest}")
        }
        _ => rev.to_owned(),
    }
}

/// Whether a command reads the whole tree without naming a path, as a
/// tutorial's `ls` or `find .` of the reader's own project does.
fn reads_an_unnamed_root(pipeline: &Pipeline) -> bool {
    match &pipeline.source {
        Source::Ls { operands } => operands.iter().all(|w| w.text == "." || w.text == "./"),
        Source::Find { dir, .. } => dir == "." || dir == "./",
        Source::LsFiles { specs } => specs.is_empty(),
        Source::Grep { operands, .. } => operands.iter().all(|w| w.text == "." || w.text == "./"),
        _ => false,
    }
}

fn compare_block(
    record: &str,
    f: &Found,
    pipeline: &Pipeline,
    printed: &[String],
    label: &str,
) -> TranscriptStatus {
    // A search of the tree finds the record that shows it (its command names
    // what it searches for): those lines are the record quoting itself, no
    // output the record claims of the tree.
    let own: Vec<String>;
    let printed = if matches!(pipeline.source, Source::Grep { .. }) {
        let quoting = format!("{record}:");
        own = printed
            .iter()
            .filter(|l| !l.strip_prefix("./").unwrap_or(l).starts_with(&quoting))
            .cloned()
            .collect();
        own.as_slice()
    } else {
        printed
    };
    // `ls` to a terminal prints its names in columns.
    let shown: Vec<(std::ops::Range<usize>, String)> =
        if matches!(pipeline.source, Source::Ls { .. }) && pipeline.filters.is_empty() {
            f.output
                .iter()
                .flat_map(|(r, l)| l.split_whitespace().map(move |w| (r.clone(), w.to_owned())))
                .collect()
        } else {
            f.output.clone()
        };
    let Some(m) = compare(&shown, printed, pipeline.ordered(), pipeline.sorted()) else {
        return TranscriptStatus::Agrees;
    };
    // Not one shown line in the tree's listing of its root: another project's
    // session (a tutorial's), not a claim about this tree.
    let counts = shown.len() == 1 && as_count(&shown[0].1).is_some();
    if !counts
        && reads_an_unnamed_root(pipeline)
        && !shown
            .iter()
            .any(|(_, l)| printed.iter().any(|p| p.trim() == l.trim()))
    {
        return TranscriptStatus::NotRerun {
            why: format!(
                "none of the lines it shows is in the tree's at {label}: the session of another project or checkout?"
            ),
        };
    }
    let at = match m.first.and_then(|i| shown.get(i)) {
        Some((r, _)) => r.clone(),
        None => shown.last().map_or(f.span.clone(), |(r, _)| r.clone()),
    };
    TranscriptStatus::Drift {
        at,
        expected: m.expected,
        actual: m.actual,
        diff: m.diff,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A page showing `grep -r "def run" .` and its one line of output.
    const PAGE: &str =
        "# Where\n\n```console\n$ grep -r \"def run\" .\n./src/app.py:def run(\n```\n";

    fn compared(printed: &[&str]) -> TranscriptStatus {
        let markdown = crate::records::markdown::parse_with(PAGE, false).0;
        let found = find(PAGE, &markdown);
        let pipeline = parse(&found[0].command).expect("a grep");
        let printed: Vec<String> = printed.iter().map(|l| (*l).to_owned()).collect();
        compare_block("docs/where.md", &found[0], &pipeline, &printed, "abc1234")
    }

    #[test]
    fn a_search_finding_the_record_that_shows_it_is_the_record_quoting_itself() {
        let own = "./docs/where.md:$ grep -r \"def run\" .";
        assert_eq!(
            compared(&[own, "./src/app.py:def run("]),
            TranscriptStatus::Agrees
        );
        // A line from any other file is output the record does not show.
        let status = compared(&[own, "./src/app.py:def run(", "./src/cli.py:def run("]);
        assert_ne!(status, TranscriptStatus::Agrees);
    }
}
