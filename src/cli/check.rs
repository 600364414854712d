//! `recount check`: the docs-drift gate. Audits, prints the report, exits 1 on
//! findings at or above `--fail-on`.

use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};

use super::{EXIT_CLEAN, EXIT_FINDINGS, Target, print_notes, print_out};
use crate::checks::Severity;
use crate::error::Error;
use crate::local_file::LocalFileError;
use crate::report::baseline::Baseline;
use crate::report::{self, Report};

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Check only the records at or under these paths (files or folders,
    /// relative to the current directory); every record is still read for
    /// what the others learn from it. Default: the whole repository.
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    #[command(flatten)]
    pub target: Target,
    /// Output format: diagnostics and a table, the JSON report, GitHub Actions
    /// annotations, SARIF 2.1.0 for code scanning, a Markdown summary, JUnit
    /// XML, or GitLab's code-quality report.
    #[arg(long, value_enum, default_value_t = CheckFormat::Human)]
    pub format: CheckFormat,
    /// The lowest severity that fails the run (exit 1).
    #[arg(long, value_enum, default_value_t = FailOn::Warning)]
    pub fail_on: FailOn,
    /// Fail only on findings not in this baseline (known debt, as --write-baseline
    /// writes it); known findings are counted, entries that no longer occur listed.
    #[arg(long, value_name = "FILE", conflicts_with = "write_baseline")]
    pub baseline: Option<PathBuf>,
    /// Write the findings' fingerprints to FILE as a baseline and exit 0.
    #[arg(long, value_name = "FILE")]
    pub write_baseline: Option<PathBuf>,
    /// Report only what the range BASE..REV made wrong: findings on record
    /// lines it added or edited, and findings not there at BASE, each with the
    /// commit that caused it. BASE is a revision (origin/main, a sha, a tag),
    /// a day (2026-11-25) or an age (7.days.ago).
    // A baseline records every finding of the tree, never a range's.
    #[arg(long, value_name = "BASE", conflicts_with = "write_baseline")]
    pub since: Option<String>,
    /// Do not re-run the commands records show with their output (transcripts).
    #[arg(long)]
    pub no_transcripts: bool,
    /// Run only these checks (ids as `recount explain` lists them;
    /// repeatable or comma-separated), over the rule file's `[checks]`.
    #[arg(long, value_name = "CHECK", value_delimiter = ',')]
    pub select: Vec<String>,
    /// Do not run these checks (repeatable or comma-separated), over the rule
    /// file's `[checks]` and `--select`.
    #[arg(long, value_name = "CHECK", value_delimiter = ',')]
    pub ignore: Vec<String>,
    /// Also write the report in FORMAT to PATH, from the same run (repeatable):
    /// `--output sarif=recount.sarif --output markdown=summary.md`.
    #[arg(long = "output", value_name = "FORMAT=PATH", value_parser = parse_output)]
    pub outputs: Vec<(CheckFormat, PathBuf)>,
}

/// `FORMAT=PATH` of `--output`.
fn parse_output(text: &str) -> Result<(CheckFormat, PathBuf), String> {
    let (format, path) = text
        .split_once('=')
        .ok_or_else(|| format!("`{text}` is not FORMAT=PATH (for example sarif=recount.sarif)"))?;
    let format = CheckFormat::from_str(format, true).map_err(|_| {
        let names: Vec<String> = CheckFormat::value_variants()
            .iter()
            .filter_map(|v| v.to_possible_value().map(|p| p.get_name().to_owned()))
            .collect();
        format!("`{format}` is not a format; formats: {}", names.join(", "))
    })?;
    if path.is_empty() {
        return Err(format!("`{text}` names no path"));
    }
    Ok((format, PathBuf::from(path)))
}

/// The report in `format`.
fn rendered(format: CheckFormat, report: &Report, color: bool) -> String {
    match format {
        CheckFormat::Human => report::human::render(
            report,
            report::human::Style {
                color,
                width: usize::from(super::output_width()),
                ascii: super::plain_terminal(),
                // Wrapped to the terminal; one line a program can read.
                wrap_summary: std::io::IsTerminal::is_terminal(&std::io::stdout()),
            },
        ),
        CheckFormat::Json => report::json::render(report),
        CheckFormat::Github => report::github::render(report),
        CheckFormat::Sarif => report::sarif::render(report),
        CheckFormat::Markdown => report::markdown::render(report),
        CheckFormat::Junit => report::junit::render(report),
        CheckFormat::Gitlab => report::gitlab::render(report),
    }
}

/// Two `--output` files at one path: the second format would silently
/// replace the first, so the run is refused before it starts. Paths are
/// compared as absolute, lexically (`./a.json` and `a.json` are one file).
fn refuse_an_output_named_twice(outputs: &[(CheckFormat, PathBuf)]) -> miette::Result<()> {
    let mut seen: Vec<PathBuf> = Vec::new();
    for (_, path) in outputs {
        let absolute = std::path::absolute(path).unwrap_or_else(|_| path.clone());
        let plain: PathBuf = absolute
            .components()
            .filter(|c| !matches!(c, std::path::Component::CurDir))
            .collect();
        if seen.contains(&plain) {
            return Err(miette::miette!(
                help = "give each format its own file",
                "--output names {} twice",
                shown_path(path)
            ));
        }
        seen.push(plain);
    }
    Ok(())
}

/// Writes each `--output` file (never through a link, never into `.git`).
fn write_outputs(args: &CheckArgs, report: &Report, skip_human: bool) -> miette::Result<()> {
    let root = args.target.working_tree()?;
    for (format, path) in &args.outputs {
        if skip_human && *format == CheckFormat::Human {
            continue;
        }
        // A file is read later, elsewhere: no colour codes in it.
        let text = rendered(*format, report, false);
        crate::local_file::write(path, root.as_deref(), text.as_bytes()).map_err(|why| {
            miette::miette!("cannot write the --output file {}: {why}", shown_path(path))
        })?;
    }
    Ok(())
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CheckFormat {
    Human,
    Json,
    Github,
    Sarif,
    /// Markdown for `$GITHUB_STEP_SUMMARY` or a pull-request comment.
    Markdown,
    /// JUnit XML, for CI test panels (GitLab, Jenkins, Azure Pipelines).
    Junit,
    /// GitLab's code-quality report (`artifacts:reports:codequality`).
    Gitlab,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FailOn {
    Warning,
    Error,
    Never,
}

pub fn run(args: &CheckArgs, color: bool) -> miette::Result<u8> {
    refuse_an_output_named_twice(&args.outputs)?;
    // The baseline is read first: a bad one stops the run before the audit.
    let audited = match &args.baseline {
        Some(path) => args
            .target
            .working_tree()
            .and_then(|root| read_baseline(path, root.as_deref()))
            .map(Some),
        None => Ok(None),
    }
    .and_then(|baseline| {
        // A bad --since stops the run before the audit, as a bad revision does.
        let range = match &args.since {
            Some(since) => Some(resolve_range(&args.target, since)?),
            None => None,
        };
        let scope = scope_of(&args.paths, &args.target)?;
        let levels = selected_levels(&args.select, &args.ignore)?;
        let bar = CitationsBar::on_a_terminal();
        let options = crate::audit::AuditOptions {
            no_transcripts: args.no_transcripts,
            judged_records: scope,
            levels,
            progress: bar
                .clone()
                .map(|bar| crate::audit::ProgressSink(std::sync::Arc::new(bar))),
            ..args.target.options()
        };
        let report = crate::check(&options);
        if let Some(bar) = bar {
            bar.0.finish_and_clear();
        }
        let mut report = report?;
        if let Some((repo, range)) = range {
            narrow_to_range(&repo, &range, &options, &mut report)?;
        }
        Ok((report, baseline))
    });
    let mut report = match audited {
        Ok((mut report, baseline)) => {
            if let (Some(baseline), Some(path)) = (baseline, &args.baseline) {
                baseline.apply(&path.display().to_string(), &mut report);
            }
            report
        }
        Err(error) => {
            // The diagnostic goes to stderr as for every format (the caller
            // prints it); a machine-read format also says why on stdout.
            let failed = || {
                let snapshot = args.target.rev.as_deref().unwrap_or("working tree");
                Report::failed(snapshot, report::RunError::from_diagnostic(&error))
            };
            // The run's own error is what stderr reports; a write error here
            // would only hide it. Each machine-read output file says why too.
            let failed = failed();
            if args.format != CheckFormat::Human {
                let _ = print_out(&rendered(args.format, &failed, false));
            }
            let _ = write_outputs(args, &failed, true);
            return Err(error.into());
        }
    };
    if let Some(path) = &args.write_baseline {
        let baseline = Baseline::of(&report);
        let root = args.target.working_tree()?;
        crate::local_file::write(path, root.as_deref(), baseline.render().as_bytes()).map_err(
            |why| miette::miette!("cannot write the baseline {}: {why}", shown_path(path)),
        )?;
        report.notes.push(format!(
            "wrote {} finding{} to the baseline {}: `recount check --baseline {}` fails only on findings not in it",
            baseline.findings.len(),
            if baseline.findings.len() == 1 { "" } else { "s" },
            path.display(),
            path.display()
        ));
    }
    print_notes(&report.notes);
    write_outputs(args, &report, false)?;
    // `-q`: a clean run says nothing (a program reading another format
    // still gets its report).
    let silent = super::verbosity() == super::Verbosity::Quiet
        && args.format == CheckFormat::Human
        && report.findings.is_empty();
    if !silent {
        print_out(&rendered(args.format, &report, color))?;
    }
    if args.write_baseline.is_some() {
        // Writing a baseline records the debt; it is not a gate.
        return Ok(EXIT_CLEAN);
    }
    Ok(exit_code(&report, args.fail_on))
}

/// The records `check PATH…` names, as repository paths: each path is taken
/// from the current directory and must lie inside the working tree (in a bare
/// repository, which has none, each is a repository path as written). No
/// path, or one naming the repository's root, is the whole repository.
fn scope_of(
    paths: &[PathBuf],
    target: &super::Target,
) -> crate::error::Result<Option<crate::scope::RecordScope>> {
    if paths.is_empty() {
        return Ok(None);
    }
    let root = target.working_tree()?;
    let mut roots = Vec::new();
    for path in paths {
        let relative = match &root {
            Some(root) => {
                let absolute = std::path::absolute(path).map_err(|e| {
                    Error::plain(format!("cannot read the path {}: {e}", shown_path(path)))
                })?;
                // The working tree as git names it may be reached through
                // a link (`/tmp` on macOS): compared resolved as well.
                let resolved_root = root.canonicalize().unwrap_or_else(|_| root.clone());
                let resolved = absolute.canonicalize().unwrap_or_else(|_| absolute.clone());
                match (
                    absolute.strip_prefix(root),
                    resolved.strip_prefix(&resolved_root),
                ) {
                    (Ok(inside), _) | (_, Ok(inside)) => inside.to_path_buf(),
                    _ => {
                        return Err(Error::plain(format!(
                            "{} is outside the repository",
                            shown_path(path)
                        ))
                        .with_help("name files or folders of the repository audited"));
                    }
                }
            }
            None => path.clone(),
        };
        match crate::scope::repository_path(&relative) {
            Ok(Some(inside)) => roots.push(inside),
            // The root: the whole repository, whatever else is named.
            Ok(None) => return Ok(None),
            Err(why) => {
                return Err(Error::plain(format!("{} {why}", shown_path(path)))
                    .with_help("name files or folders of the repository audited"));
            }
        }
    }
    roots.sort();
    roots.dedup();
    Ok(Some(crate::scope::RecordScope::Under(roots)))
}

/// The range `--since` names, resolved against the audited revision.
fn resolve_range(
    target: &super::Target,
    since: &str,
) -> crate::error::Result<(crate::snapshot::GitRepo, crate::range::Range)> {
    let repo = crate::audit::open_repo(target.repo.as_deref())?;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX));
    let range = crate::range::Range::resolve(&repo, since, target.rev.as_deref(), now)?;
    Ok((repo, range))
}

/// Keeps the findings the range made. The base is checked with the same
/// rules only when the audited tree has findings to weigh against it.
fn narrow_to_range(
    repo: &crate::snapshot::GitRepo,
    range: &crate::range::Range,
    options: &crate::audit::AuditOptions,
    report: &mut Report,
) -> crate::error::Result<()> {
    if report.findings.is_empty() {
        range.apply(repo, None, report);
        return Ok(());
    }
    if range.commits.is_empty() && options.rev.is_some() {
        // The audited commit is the base itself: every finding was there.
        let mut same = Report::empty(&range.base.to_string());
        same.sources = report.sources.clone();
        same.findings = report.findings.clone();
        range.apply(repo, Some(&same), report);
        return Ok(());
    }
    // The base is asked only about the records the findings are in (a
    // record the range renamed, by its name there).
    let options = crate::audit::AuditOptions {
        rev: Some(range.base.to_string()),
        progress: None,
        judged_records: Some(crate::scope::RecordScope::Only(
            range.records_at_base(repo, report),
        )),
        cache_adds: true,
        ..options.clone()
    };
    let at_base = crate::check(&options).map_err(|error| {
        Error::plain(format!(
            "--since: cannot check the base {}: {error}",
            range.base
        ))
    })?;
    range.apply(repo, Some(&at_base), report);
    Ok(())
}

/// The baseline at `path`. A missing or unreadable file, or one that is not a
/// baseline, is a could-not-run error (exit 2): a gate with a broken baseline
/// must not pass, nor fail on every finding as if it had none.
fn read_baseline(path: &Path, root: Option<&Path>) -> crate::error::Result<Baseline> {
    let name = shown_path(path);
    let read =
        crate::local_file::read_text(path, root, crate::local_file::BASELINE_CAP, "baseline")
            .map_err(|why| {
                let plain = if why == LocalFileError::Missing {
                    Error::plain(format!("no baseline file {name}"))
                } else {
                    Error::plain(format!("cannot read the baseline {name}: {why}"))
                };
                plain.with_help(format!(
                    "`recount check --write-baseline {name}` writes one from the current findings"
                ))
            })?;
    Baseline::parse(&name, &read.text)
}

/// A path the command line named, as messages show it: escaped and cut.
fn shown_path(path: &Path) -> String {
    crate::escape::untrusted(&path.display().to_string(), report::escape::VALUE_CAP).into_owned()
}

fn exit_code(report: &Report, fail_on: FailOn) -> u8 {
    let fails = match fail_on {
        FailOn::Warning => report.fails(Severity::Warning),
        FailOn::Error => report.fails(Severity::Error),
        FailOn::Never => false,
    };
    if fails { EXIT_FINDINGS } else { EXIT_CLEAN }
}

/// The checks `--select` and `--ignore` turn off for this run: with a
/// selection, every check it does not name; then every check ignored. An id
/// no check has stops the run (exit 2), with the one it most likely meant.
fn selected_levels(
    select: &[String],
    ignore: &[String],
) -> crate::error::Result<std::collections::BTreeMap<crate::checks::CheckId, crate::checks::Level>>
{
    use crate::checks::{CheckId, Level};
    let id = |flag: &str, name: &String| {
        CheckId::from_name(name.trim()).ok_or_else(|| {
            let ids: Vec<&str> = CheckId::ALL.iter().map(|c| c.as_str()).collect();
            Error::plain(format!(
                "{flag} names no check `{}`",
                crate::escape::untrusted(name, crate::escape::VALUE_CAP)
            ))
            .with_help(format!(
                "{}the checks: {}",
                crate::spelling::did_you_mean(name.trim(), &ids),
                ids.join(", ")
            ))
        })
    };
    let selected = select
        .iter()
        .map(|name| id("--select", name))
        .collect::<crate::error::Result<Vec<CheckId>>>()?;
    let ignored = ignore
        .iter()
        .map(|name| id("--ignore", name))
        .collect::<crate::error::Result<Vec<CheckId>>>()?;
    let mut levels = std::collections::BTreeMap::new();
    if !selected.is_empty() {
        for check in CheckId::ALL {
            if !selected.contains(check) {
                levels.insert(*check, Level::Off);
            }
        }
    }
    for check in ignored {
        levels.insert(check, Level::Off);
    }
    Ok(levels)
}

/// How far the citations are, drawn on stderr only when stderr is a terminal:
/// a CI log, a pipe and every `--format`'s stdout get nothing of it.
#[derive(Clone)]
struct CitationsBar(indicatif::ProgressBar);

impl CitationsBar {
    fn on_a_terminal() -> Option<CitationsBar> {
        use std::io::IsTerminal;
        if !std::io::stderr().is_terminal() {
            return None;
        }
        // Drawn once the records are counted (a bar of 0/0 reads as done),
        // as wide as the terminal leaves it room, never wrapping.
        let bar =
            indicatif::ProgressBar::with_draw_target(None, indicatif::ProgressDrawTarget::hidden());
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{prefix} [{wide_bar}] {pos}/{len} records, {msg}",
        ) {
            bar.set_style(style.progress_chars("=> "));
        }
        bar.set_prefix("citations");
        // Redrawn on a clock too: the evidence after the last record can take
        // seconds with nothing new to report.
        bar.enable_steady_tick(std::time::Duration::from_millis(120));
        Some(CitationsBar(bar))
    }
}

impl crate::audit::Progress for CitationsBar {
    fn records(&self, done: usize, total: usize, citations: usize) {
        if total > 0 && self.0.is_hidden() {
            self.0
                .set_draw_target(indicatif::ProgressDrawTarget::stderr());
        }
        self.0.set_length(total as u64);
        self.0.set_position(done as u64);
        self.0.set_message(if done == total {
            format!("{citations} citations; weighing evidence")
        } else {
            format!("{citations} citations")
        });
    }
}
