//! `recount history`: every rule fact and claim at each first-parent commit of
//! a range — value changes, each claim's culprit, one verdict per commit — as
//! text, JSON or Markdown, and optionally an SVG chart of the values.

use std::io::IsTerminal;
use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::{EXIT_CLEAN, print_notes, print_out};
use crate::error::Error;
use crate::history::{ClaimState, History, HistoryOptions, RangeSpec, Selection, Session};
use crate::snapshot::Day;

/// The walk, shared by `history` and `bisect`.
#[derive(Debug, Clone, Args)]
pub struct Walk {
    /// The repository (default: discovered upward from the current directory).
    #[arg(long, value_name = "DIR")]
    pub repo: Option<PathBuf>,
    /// Rule file (repeatable; default: recount.toml at the repository root).
    #[arg(long, value_name = "PATH")]
    pub rules: Vec<PathBuf>,
    /// The commits to walk: `A..B` (the first-parent commits after A up to B),
    /// `A..` (up to HEAD) or one revision (back to the first commit).
    #[arg(long, value_name = "RANGE", default_value = "HEAD")]
    pub range: String,
    /// Only commits dated on or after this day (UTC, YYYY-MM-DD).
    #[arg(long, value_name = "DATE", value_parser = parse_day)]
    pub since: Option<Day>,
    /// Refuse a range of more first-parent commits than this (default: no
    /// limit, the whole first-parent line).
    #[arg(long, value_name = "N")]
    pub max_commits: Option<usize>,
    /// Worker threads (default: one per core).
    #[arg(long, value_name = "N")]
    pub jobs: Option<usize>,
}

fn parse_day(text: &str) -> Result<Day, String> {
    Day::parse(text).ok_or_else(|| format!("`{text}` is not a calendar day (YYYY-MM-DD)"))
}

impl Walk {
    pub fn options(&self) -> HistoryOptions {
        HistoryOptions {
            repo: self.repo.clone(),
            rules: self.rules.clone(),
            range: RangeSpec {
                range: Some(self.range.clone()),
                since: self.since,
                max_commits: self.max_commits.unwrap_or(usize::MAX),
            },
            incremental: true,
            jobs: self.jobs,
        }
    }
}

#[derive(Debug, Args)]
pub struct HistoryArgs {
    #[command(flatten)]
    pub walk: Walk,
    /// Report this fact (and its claims) only.
    #[arg(long, value_name = "ID", conflicts_with = "claim")]
    pub fact: Option<String>,
    /// Report this claim only: FACT#N, the N-th claim of the fact (from 1).
    #[arg(long, value_name = "ID")]
    pub claim: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = HistoryFormat::Human)]
    pub format: HistoryFormat,
    /// Also write an SVG chart of each fact's value over the range to FILE.
    #[arg(long, value_name = "FILE")]
    pub chart: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum HistoryFormat {
    Human,
    Json,
    Markdown,
}

pub fn run(args: &HistoryArgs) -> miette::Result<u8> {
    let options = args.walk.options();
    let mut session = Session::open(&options)?;
    let selection = Selection {
        fact: args.fact.clone(),
        claim: args.claim.clone(),
    }
    .resolve(session.plan())?;
    let commits = session.commits(&options.range)?;
    print_notes(session.notes());
    let bar = Progress::new(commits.len());
    let evals = session.evaluate_all(&commits, &|n| bar.set(n))?;
    bar.finish();
    let infos = commits
        .iter()
        .map(|&c| session.info(c))
        .collect::<Result<Vec<_>, Error>>()?;
    // A claim drifted at the range's first commit: the commit before says
    // whether the drift (or the statement) began there, inside the range.
    let before = if evals
        .first()
        .is_some_and(|e| e.claims.iter().flatten().any(ClaimState::is_drifted))
    {
        commits
            .first()
            .and_then(|&oldest| session.before_range(oldest))
            .and_then(|parent| session.evaluate(parent).ok())
    } else {
        None
    };
    let history = History::build(
        session.plan(),
        &selection,
        &infos,
        &evals,
        before.as_ref(),
        &options.range,
    );
    if let Some(path) = &args.chart {
        let repo = crate::audit::open_repo(args.walk.repo.as_deref())?;
        let root = repo.workdir();
        let chart = crate::report::history::chart(&history);
        crate::local_file::write(path, root, chart.as_bytes()).map_err(|e| {
            miette::miette!(
                "cannot write the chart to {}: {e}",
                crate::escape::untrusted(&path.display().to_string(), 400)
            )
        })?;
    }
    let out = match args.format {
        HistoryFormat::Human => crate::report::history::human(&history),
        HistoryFormat::Markdown => crate::report::history::markdown(&history),
        HistoryFormat::Json => {
            let mut out = crate::escape::json_pretty(&history)
                .map_err(|e| miette::miette!("cannot serialise the history: {e}"))?;
            out.push('\n');
            out
        }
    };
    print_out(&out)?;
    Ok(EXIT_CLEAN)
}

/// A progress bar on stderr, drawn only when stderr is a terminal (a CI log
/// or a pipe gets nothing).
pub(crate) struct Progress {
    bar: indicatif::ProgressBar,
}

impl Progress {
    pub(crate) fn new(total: usize) -> Progress {
        let bar = if std::io::stderr().is_terminal() && total > 1 {
            let bar = indicatif::ProgressBar::new(total as u64);
            if let Ok(style) = indicatif::ProgressStyle::with_template(
                "{prefix} [{bar:40}] {pos}/{len} commits ({eta} left)",
            ) {
                bar.set_style(style.progress_chars("=> "));
            }
            bar.set_prefix("history");
            bar
        } else {
            indicatif::ProgressBar::hidden()
        };
        Progress { bar }
    }

    pub(crate) fn set(&self, done: usize) {
        self.bar.set_position(done as u64);
    }

    pub(crate) fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
