//! Drafting, last step: every drafted fact weighed against the repository's
//! history before the draft is written. Each is computed, as `recount check`
//! will compute it, at up to three commits — the frame the record declares
//! over its passage (its header's, section's, paragraph's or amendment's,
//! with the stand-in `check` uses when that commit is gone), the commit that
//! wrote the claim's line, and the audited tree — and the evidence decides
//! where the rule is pinned:
//!
//! - the declared frame, when the tree there gives the record's figure;
//! - else the commit that wrote the line, when the tree gave the figure then
//!   (the frame the record names is not the tree it measured);
//! - else the audited tree, when it agrees.
//!
//! A figure no commit bears out is still drafted when the record ties it by
//! name (a constant, a folder, a literal, a search it ran): at its declared
//! frame, or live, and said to disagree, since that is what `check` reports
//! first and what the author most needs to see. A figure tied by a named
//! heuristic ([`Tie::Guessed`]) is drafted only when some commit bears it
//! out; otherwise it is listed as not drafted, with what each commit gave.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::{Draft, DraftAt, DraftFact, NotDrafted, Scan, Tie};
use crate::checks::audited::Audit;
use crate::frames::{Frame, FrameRequest, Frames};
use crate::snapshot::{GitRepo, Snapshot};

/// What weighing found for one drafted fact, for the comment above its rule.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Weighed {
    /// Why the rule is pinned where it is (or reads the audited tree
    /// although the record declares a frame).
    pub pinned: Option<String>,
    /// What `check` will report: the record's figure against the tree's
    /// where the rule measures.
    pub disagrees: Option<String>,
}

/// One commit a fact was computed at, and what it gave.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Outcome {
    /// The record's figure.
    Agrees,
    /// Another value: what the tree has there.
    Gives(String),
    /// Not computed there, and why.
    Unverified(String),
}

impl Outcome {
    fn said(&self) -> String {
        match self {
            Outcome::Agrees => "the record's figure".to_owned(),
            Outcome::Gives(value) => value.clone(),
            Outcome::Unverified(why) => format!("nothing ({why})"),
        }
    }
}

/// The declared frame of one fact, resolved as `check` resolves a record's.
struct Declared {
    /// The frame as the record writes it: a sha, a day, or `sha@day`.
    written: String,
    /// What declared it, for the comment: "the record's section marker".
    by: String,
    /// What the rule's `at` says to measure there, and why (`None` when
    /// the frame resolves to no commit: the reason).
    resolved: Result<(String, DraftAt, Option<String>), String>,
}

/// The commits one fact is weighed at.
struct Candidates {
    declared: Option<Declared>,
    /// The commit that wrote the claim's line.
    writer: Option<String>,
}

fn short(commit: &str) -> String {
    commit.chars().take(8).collect()
}

fn declared_of(fact: &DraftFact, frames: &mut Frames<'_>, repo: &GitRepo) -> Option<Declared> {
    let declared = fact.declared.as_ref()?;
    let d = &declared.frame;
    // An all-digit "sha" that names no commit is a number, not a frame.
    if d.numeric()
        && let Some((sha, _)) = &d.sha
        && repo.resolve(sha).is_err()
    {
        return None;
    }
    let request = FrameRequest::declared(d)?;
    let (found, used) = frames.quietly_told(request, &fact.place.record);
    let resolved = match found {
        Ok(frame) => {
            let commit = frame.commit.clone().unwrap_or_default();
            let used = used.as_ref();
            let stood_in = used.and_then(|u| u.stood_in.clone());
            let by_date = used.and_then(|u| u.by_date);
            Ok(match (&d.sha, stood_in, by_date) {
                (Some((sha, _)), Some(writer), _) => (
                    commit,
                    DraftAt::Rev(short(&writer)),
                    Some(format!(
                        "{} names `{sha}`, which is not in this repository; {}, the commit that wrote this passage, stands in for it, as it does for the passage's citations",
                        declared.by,
                        short(&writer)
                    )),
                ),
                (Some((sha, _)), None, Some(day)) => (
                    commit,
                    DraftAt::Date(day.to_string()),
                    Some(format!(
                        "{} names `{sha}`, which is not in this repository; its day, {day}, stands in for it",
                        declared.by
                    )),
                ),
                (Some((sha, _)), None, None) => (commit, DraftAt::Rev(sha.clone()), None),
                (None, _, _) => match &d.date {
                    Some((day, _)) => (commit, DraftAt::Date(day.to_string()), None),
                    None => return None,
                },
            })
        }
        Err(failure) => Err(failure.explain(&d.shown().0)),
    };
    Some(Declared {
        written: d.key(),
        by: declared.by.clone(),
        resolved,
    })
}

/// The text of a drafted claim's line, the needle its writing commit is
/// found by: with the line before it when it is a few characters ("8
/// MiB."), which too many places hold to say which commit wrote it.
fn line_of(scan: &Scan, fact: &DraftFact) -> Option<String> {
    let record = scan.records.iter().find(|r| r.path == fact.place.record)?;
    let index = fact.place.line.checked_sub(1)?;
    let lines: Vec<&str> = record.text.lines().collect();
    let line = lines.get(index)?.trim();
    if line.chars().count() >= 12 {
        return Some(line.to_owned());
    }
    let before = lines.get(index.checked_sub(1)?)?.trim_start();
    let joined = format!("{before}\n{}", lines.get(index)?);
    (joined.trim().chars().count() >= 12).then_some(joined)
}

/// Weighs every drafted fact (see the module comment): sets each one's
/// `at` and what was found, and moves the guessed ones no commit bears out
/// to `not_drafted`.
pub fn weigh(draft: &mut Draft, scan: &Scan, repo: &GitRepo) -> crate::error::Result<()> {
    let audited: Arc<dyn Snapshot> = Arc::clone(&scan.snapshot);
    let mut frames = Frames::new(
        repo,
        Arc::new(Frame::new(Arc::clone(&audited))),
        "HEAD".into(),
    );
    let from = audited
        .commit()
        .and_then(|c| repo.commit_id(&c))
        .or_else(|| repo.commit_id("HEAD"));
    let candidates: Vec<Candidates> = draft
        .facts
        .iter()
        .map(|fact| Candidates {
            declared: declared_of(fact, &mut frames, repo),
            writer: from.and_then(|from| {
                let line = line_of(scan, fact)?;
                repo.writing_commit(from, &fact.place.record, &line)
                    .map(|c| c.to_string())
            }),
        })
        .collect();
    // One probe rule file: each fact once per commit it is weighed at.
    let mut probe = Draft {
        records: draft.records.clone(),
        constants: draft.constants.clone(),
        ..Draft::default()
    };
    let mut asked: BTreeMap<(usize, &'static str), String> = BTreeMap::new();
    for (i, (fact, c)) in draft.facts.iter().zip(&candidates).enumerate() {
        if fact.says.is_none() {
            continue;
        }
        let mut ask = |which: &'static str, at: Option<DraftAt>| {
            let id = format!("probe-{i}-{which}");
            let mut variant = fact.clone();
            variant.id = id.clone();
            variant.at = at;
            variant.equals = None;
            probe.facts.push(variant);
            asked.insert((i, which), id);
        };
        if let Some(Declared {
            resolved: Ok((commit, _, _)),
            ..
        }) = &c.declared
        {
            ask("frame", Some(DraftAt::Rev(commit.clone())));
        }
        if let Some(writer) = &c.writer {
            ask("writer", Some(DraftAt::Rev(writer.clone())));
        }
        ask("live", None);
    }
    let outcomes = probe_outcomes(repo, &audited, probe);
    let outcome = |i: usize, which: &'static str| -> Option<Outcome> {
        asked
            .get(&(i, which))
            .and_then(|id| outcomes.get(id))
            .cloned()
    };
    let mut kept = Vec::new();
    for (i, (mut fact, c)) in std::mem::take(&mut draft.facts)
        .into_iter()
        .zip(candidates)
        .enumerate()
    {
        let (at_frame, at_writer, live) = (
            outcome(i, "frame"),
            outcome(i, "writer"),
            outcome(i, "live"),
        );
        let writer = c.writer.as_deref().map(short);
        let agrees = |o: &Option<Outcome>| o.as_ref() == Some(&Outcome::Agrees);
        let live_said = live.as_ref().map_or_else(String::new, Outcome::said);
        // What each commit gave, for a guess none bears out.
        let mut gave: Vec<(String, &Option<Outcome>)> = Vec::new();
        if let Some(declared) = &c.declared {
            gave.push((
                format!("at `{}`, which {} names", declared.written, declared.by),
                &at_frame,
            ));
        }
        gave.push((
            format!(
                "at {}, which wrote the line",
                writer.clone().unwrap_or_default()
            ),
            &at_writer,
        ));
        gave.push(("now".to_owned(), &live));
        match &c.declared {
            Some(declared) => {
                let by = &declared.by;
                match &declared.resolved {
                    Ok((commit, at, stand_in)) => {
                        let frame_said = at_frame.as_ref().map_or_else(String::new, Outcome::said);
                        if agrees(&at_frame) || fact.says.is_none() {
                            fact.at = Some(at.clone());
                            fact.weighed.pinned = Some(match stand_in {
                                Some(why) => why.clone(),
                                None => format!("measured at `{}` as {by} says", declared.written),
                            });
                        } else if agrees(&at_writer) {
                            let writer = writer.clone().unwrap_or_default();
                            fact.at = Some(DraftAt::Rev(writer.clone()));
                            fact.weighed.pinned = Some(format!(
                                "at `{}` ({}), which {by} names, the tree gives {frame_said}; at {writer}, the commit that wrote this line, it gives the record's figure, so the rule is pinned there",
                                declared.written,
                                short(commit)
                            ));
                        } else if agrees(&live) {
                            fact.weighed.pinned = Some(format!(
                                "at `{}` ({}), which {by} names, the tree gives {frame_said}; the audited tree gives the record's figure, so the rule reads it",
                                declared.written,
                                short(commit)
                            ));
                        } else if fact.tie == Tie::Guessed {
                            draft.not_drafted.push(not_borne_out(&fact, &gave));
                            continue;
                        } else if matches!(at_frame, Some(Outcome::Gives(_))) {
                            fact.at = Some(at.clone());
                            fact.weighed.pinned.clone_from(stand_in);
                            fact.weighed.disagrees = Some(format!(
                                "at `{}`, which {by} names, the tree gives {frame_said}",
                                declared.written
                            ));
                        } else {
                            draft.not_drafted.push(left_out(
                                &fact,
                                format!(
                                    "at `{}`, which {by} names, recount computes {frame_said}",
                                    declared.written
                                ),
                            ));
                            continue;
                        }
                    }
                    Err(why) => {
                        if agrees(&at_writer) {
                            let writer = writer.clone().unwrap_or_default();
                            fact.at = Some(DraftAt::Rev(writer.clone()));
                            fact.weighed.pinned = Some(format!(
                                "`{}`, which {by} names, does not resolve here ({why}); at {writer}, the commit that wrote this line, the tree gives the record's figure, so the rule is pinned there",
                                declared.written
                            ));
                        } else if agrees(&live) {
                            fact.weighed.pinned = Some(format!(
                                "`{}`, which {by} names, does not resolve here ({why}); the audited tree gives the record's figure, so the rule reads it",
                                declared.written
                            ));
                        } else {
                            draft.not_drafted.push(left_out(&fact, format!(
                                    "`{}`, which {by} names, does not resolve here ({why}), and no commit that does gives the figure",
                                    declared.written
                                )));
                            continue;
                        }
                    }
                }
            }
            None if agrees(&live) || fact.says.is_none() => {}
            None => {
                if agrees(&at_writer) {
                    fact.weighed.disagrees = Some(format!(
                        "the tree now gives {live_said}; it gave the record's figure when {}, the commit that wrote this line, was made",
                        writer.clone().unwrap_or_default()
                    ));
                } else if fact.tie == Tie::Guessed {
                    draft.not_drafted.push(not_borne_out(&fact, &gave));
                    continue;
                } else if matches!(live, Some(Outcome::Gives(_))) {
                    fact.weighed.disagrees = Some(format!("the tree gives {live_said}"));
                } else {
                    draft
                        .not_drafted
                        .push(left_out(&fact, format!("recount computes {live_said}")));
                    continue;
                }
            }
        }
        kept.push(fact);
    }
    draft.facts = kept;
    Ok(())
}

/// A drafted fact listed as not drafted, and why.
fn left_out(fact: &DraftFact, why: String) -> NotDrafted {
    NotDrafted {
        place: fact.place.clone(),
        quote: fact.quote.clone(),
        why,
    }
}

/// A guessed tie no commit bears out, listed with what each commit gave.
fn not_borne_out(fact: &DraftFact, gave: &[(String, &Option<Outcome>)]) -> NotDrafted {
    let said: Vec<String> = gave
        .iter()
        .filter_map(|(when, outcome)| outcome.as_ref().map(|o| format!("{} {when}", o.said())))
        .collect();
    left_out(
        fact,
        format!(
            "recount's guess at what it counts ({}) gives {}: no commit bears the guess out",
            fact.what
                .split_once(',')
                .map_or(fact.what.as_str(), |(w, _)| w)
                .trim_start_matches("Counts ")
                .trim_start_matches("the "),
            said.join(", ")
        ),
    )
}

/// What each probe fact gave, computed in one run; when the run fails as a
/// whole (a constant a `[constants]` entry places is not in its file at an
/// older commit), in halves until each failing fact stands alone, its error
/// its outcome: a few failures cost a few runs each, not one run per fact.
fn probe_outcomes(
    repo: &GitRepo,
    audited: &Arc<dyn Snapshot>,
    probe: Draft,
) -> BTreeMap<String, Outcome> {
    let mut out = BTreeMap::new();
    if !probe.facts.is_empty() {
        probe_group(repo, audited, &probe, &probe.facts, &mut out);
    }
    out
}

fn probe_group(
    repo: &GitRepo,
    audited: &Arc<dyn Snapshot>,
    probe: &Draft,
    facts: &[DraftFact],
    out: &mut BTreeMap<String, Outcome>,
) {
    let group = Draft {
        records: probe.records.clone(),
        constants: probe.constants.clone(),
        facts: facts.to_vec(),
        ..Draft::default()
    };
    let text = super::render::rule_file(&group, None);
    match crate::audit::facts_of_rule_text(repo, Arc::clone(audited), "(the draft)", &text) {
        Ok(audit) => out.extend(outcomes_of(&audit)),
        Err(e) => match facts {
            [one] => {
                out.insert(one.id.clone(), Outcome::Unverified(e.to_string()));
            }
            _ => {
                let (left, right) = facts.split_at(facts.len() / 2);
                probe_group(repo, audited, probe, left, out);
                probe_group(repo, audited, probe, right, out);
            }
        },
    }
}

/// What each probe fact gave: the record's figure, another value, or
/// nothing.
fn outcomes_of(audit: &Audit) -> BTreeMap<String, Outcome> {
    let mut out = BTreeMap::new();
    for fact in &audit.facts {
        out.insert(fact.id.clone(), Outcome::Agrees);
    }
    for finding in crate::checks::fact_drift::run(audit) {
        if let Some(id) = &finding.fact {
            out.insert(
                id.clone(),
                Outcome::Gives(
                    finding
                        .observed
                        .clone()
                        .unwrap_or_else(|| "a value the record's words cannot state".to_owned()),
                ),
            );
        }
    }
    for unverified in &audit.unverified {
        out.insert(
            unverified.id.clone(),
            Outcome::Unverified(unverified.why.reason()),
        );
    }
    out
}
