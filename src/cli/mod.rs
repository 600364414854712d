//! The CLI layer: clap definitions, one file per subcommand. The only layer that
//! prints. `run` returns the process exit code: 0 clean, 1 findings, 2 could not run.

// This is the layer that prints (Cargo.toml warns on printing everywhere else).
#![allow(clippy::print_stdout, clippy::print_stderr)]

pub mod bisect;
pub mod check;
pub mod cites;
pub mod completions;
pub mod explain;
pub mod facts;
pub mod fix;
pub mod fixture;
pub mod history;
pub mod init;
pub mod transcripts;
pub mod validate;

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::escape;

/// Exit code: clean.
pub const EXIT_CLEAN: u8 = 0;
/// Exit code: findings at or above the failing severity.
pub const EXIT_FINDINGS: u8 = 1;
/// Exit code: recount could not run.
pub const EXIT_ERROR: u8 = 2;

/// Recomputes the facts your records state, at the commit they name, and
/// reports where the prose and the tree disagree.
#[derive(Debug, Parser)]
#[command(name = "recount", version, about, long_about = None)]
pub struct Cli {
    /// When to use colour: auto (a terminal, unless NO_COLOR; FORCE_COLOR or
    /// CLICOLOR_FORCE force it), always, never.
    #[arg(long, value_enum, default_value_t = Color::Auto, global = true)]
    pub color: Color,
    /// Findings only: no notes, and nothing at all on a clean run.
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    pub quiet: bool,
    /// Every note on what was read, skipped or left out (by default they
    /// are counted in one line).
    #[arg(short, long, global = true)]
    pub verbose: bool,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Audit the records: recompute every fact and report each claim that disagrees.
    Check(check::CheckArgs),
    /// Print the facts table alone (what each rule computes), claims or not.
    Facts(facts::FactsArgs),
    /// List every citation found in the records, where it resolved and its status.
    Cites(cites::CitesArgs),
    /// List every transcript found in the records: whether it was re-run, at which commit, its status.
    Transcripts(transcripts::TranscriptsArgs),
    /// Explain a check: what it checks, why, an example, how to fix.
    Explain(explain::ExplainArgs),
    /// Follow every fact and claim over a range of commits: value changes, culprits.
    History(history::HistoryArgs),
    /// Find the first commit of a range where a claim drifts (binary search).
    Bisect(bisect::BisectArgs),
    /// Draft a recount.toml from the records: one rule per figure recount can tie to the tree.
    Init(init::InitArgs),
    /// Mend what the evidence proves: a diff of the edits, or --write to make them.
    Fix(fix::FixArgs),
    /// Print a JSON Schema: the rule file's (for editors) or the JSON report's.
    Schema(init::SchemaArgs),
    /// Build a fixture's commit series into a new git repository.
    Fixture(fixture::FixtureArgs),
    /// Validate a tool call against its published input schema (fail-closed, bounded refusals).
    Validate(validate::ValidateArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    Completions(completions::CompletionsArgs),
    /// Print the man page (roff).
    Man(completions::ManArgs),
}

/// Where to audit, shared by `check` and `facts`.
#[derive(Debug, Clone, Args)]
pub struct Target {
    /// The repository (default: discovered upward from the current directory).
    #[arg(long, value_name = "DIR")]
    pub repo: Option<PathBuf>,
    /// Audit this revision's tree instead of the working tree (sha, branch, tag, HEAD~N).
    #[arg(long, value_name = "REV")]
    pub rev: Option<String>,
    /// Rule file (repeatable; default: recount.toml at the repository root).
    #[arg(long, value_name = "PATH")]
    pub rules: Vec<PathBuf>,
    /// Remember what history proved (first parents, path lookups) in this folder
    /// between runs (default: $RECOUNT_CACHE_DIR, else the user's cache folder).
    #[arg(long, value_name = "DIR")]
    pub cache_dir: Option<PathBuf>,
    /// Keep no memory between runs.
    #[arg(long, conflicts_with = "cache_dir")]
    pub no_cache: bool,
}

impl Target {
    pub fn options(&self) -> crate::audit::AuditOptions {
        crate::audit::AuditOptions {
            repo: self.repo.clone(),
            rev: self.rev.clone(),
            rules: self.rules.clone(),
            today: None,
            no_transcripts: false,
            cache: self.cache(),
            facts_only: false,
            judged_records: None,
            cache_adds: false,
            progress: None,
            overlay: None,
            levels: std::collections::BTreeMap::new(),
        }
    }

    /// The cache folder: `--cache-dir`, else `$RECOUNT_CACHE_DIR` (empty: none),
    /// else `recount` in `$XDG_CACHE_HOME` or `~/.cache`; none with `--no-cache`.
    fn cache(&self) -> Option<PathBuf> {
        if self.no_cache {
            return None;
        }
        if let Some(dir) = &self.cache_dir {
            return Some(dir.clone());
        }
        let from_env = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
        if let Some(dir) = std::env::var_os("RECOUNT_CACHE_DIR") {
            return (!dir.is_empty()).then(|| PathBuf::from(dir));
        }
        from_env("XDG_CACHE_HOME")
            .map(PathBuf::from)
            .or_else(|| from_env("HOME").map(|home| PathBuf::from(home).join(".cache")))
            .map(|base| base.join("recount"))
    }

    /// The working tree of the repository audited (`None` when it is bare): what
    /// a path the workflow names (a baseline, a file to write) is confined to.
    pub fn working_tree(&self) -> crate::error::Result<Option<PathBuf>> {
        let repo = crate::audit::open_repo(self.repo.as_deref())?;
        Ok(repo.workdir().map(std::path::Path::to_path_buf))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Color {
    Auto,
    Always,
    Never,
}

impl Color {
    /// Whether to colour output written to a stream that is (or is not) a
    /// terminal. `auto` follows the environment as other tools do: a
    /// forced colour (`CLICOLOR_FORCE`, or `FORCE_COLOR` set to anything
    /// but `0`) wins, then `NO_COLOR` and `CLICOLOR=0` turn it off, then
    /// the stream decides.
    pub fn enabled(self, is_terminal: bool) -> bool {
        match self {
            Color::Always => true,
            Color::Never => false,
            Color::Auto => {
                let forced = std::env::var("FORCE_COLOR")
                    .is_ok_and(|v| !v.is_empty() && v != "0" && v != "false");
                if anstyle_query::clicolor_force() || forced {
                    return true;
                }
                if anstyle_query::no_color() || anstyle_query::clicolor() == Some(false) {
                    return false;
                }
                is_terminal
            }
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Human,
    Json,
}

/// Parses the arguments, runs the subcommand, prints, and returns the exit code.
pub fn run<I, T>(args: I) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                EXIT_ERROR
            } else {
                EXIT_CLEAN
            };
        }
    };
    VERBOSITY.store(
        if cli.quiet {
            Verbosity::Quiet
        } else if cli.verbose {
            Verbosity::Verbose
        } else {
            Verbosity::Normal
        } as u8,
        std::sync::atomic::Ordering::Relaxed,
    );
    let color_out = cli.color.enabled(std::io::stdout().is_terminal());
    let color_err = cli.color.enabled(std::io::stderr().is_terminal());
    let result = caught(|| match &cli.command {
        Command::Check(args) => check::run(args, color_out),
        Command::Facts(args) => facts::run(args),
        Command::Cites(args) => cites::run(args),
        Command::Transcripts(args) => transcripts::run(args),
        Command::Explain(args) => explain::run(args),
        Command::History(args) => history::run(args),
        Command::Bisect(args) => bisect::run(args),
        Command::Init(args) => init::run(args),
        Command::Fix(args) => fix::run(args),
        Command::Schema(args) => init::schema(args),
        Command::Fixture(args) => fixture::run(args),
        Command::Validate(args) => validate::run(args),
        Command::Completions(args) => completions::completions(args),
        Command::Man(args) => completions::man(args),
    });
    match result {
        Ok(code) => code,
        Err(report) => {
            print_error(&report, color_err);
            EXIT_ERROR
        }
    }
}

/// The panic a run stopped on, as the hook saw it: where (recount's or a
/// dependency's source line) and its message, escaped and capped.
static PANICKED: std::sync::Mutex<Option<String>> = std::sync::Mutex::new(None);

/// Runs `work`, turning a panic anywhere under it (a dependency's included,
/// on any thread a parallel step joins) into a plain error: a panic's
/// message may carry the input that caused it (a 2 MB glob), so it is never
/// printed whole, only its first [`escape::VALUE_CAP`] characters, escaped.
fn caught(work: impl FnOnce() -> miette::Result<u8>) -> miette::Result<u8> {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(|info| {
        let message = info
            .payload()
            .downcast_ref::<&str>()
            .map(|m| (*m).to_owned())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_default();
        let at = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        let shown = escape::untrusted(&message, escape::VALUE_CAP).into_owned();
        if let Ok(mut first) = PANICKED.lock() {
            first.get_or_insert(format!("{shown}{at}"));
        }
    }));
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(work));
    std::panic::set_hook(previous);
    outcome.unwrap_or_else(|_| {
        let what = PANICKED
            .lock()
            .ok()
            .and_then(|mut first| first.take())
            .unwrap_or_default();
        Err(miette::miette!(
            help = "this is a bug in recount: please report it with the command that caused it",
            "recount stopped on an internal fault: {what}"
        ))
    })
}

/// Prints a could-not-run error as a miette diagnostic on stderr. Its message,
/// causes, labels and help can carry outside text (a rule-file key, a file name),
/// so it is shown through [`EscapedDiagnostic`]; the snippet is escaped where it
/// is built (`IndexedSource`).
pub fn print_error(error: &miette::Report, color: bool) {
    let style = crate::report::human::Style {
        color,
        width: 100,
        ascii: plain_terminal(),
        wrap_summary: false,
    };
    let handler = miette::GraphicalReportHandler::new_themed(style.theme())
        .with_links(false)
        .with_width(style.width)
        // A line wraps at spaces, never inside a word ("whe" / "n") nor a
        // path (`packages/` / `quarry-core/…`).
        .with_break_words(false)
        .with_word_separator(textwrap::WordSeparator::AsciiSpace)
        .with_word_splitter(textwrap::WordSplitter::NoHyphenation);
    let shown = EscapedDiagnostic::new(error.as_ref());
    let mut out = String::new();
    if handler.render_report(&mut out, &shown).is_err() {
        out = format!("error: {shown}\n");
    }
    let _ = std::io::stderr().write_all(escape::guard_lines(&out).as_bytes());
}

/// A diagnostic with every piece of text escaped by the one rule, its causes
/// folded into its message (one line each).
struct EscapedDiagnostic<'a> {
    inner: &'a dyn miette::Diagnostic,
    message: String,
    help: Option<String>,
    labels: Vec<miette::LabeledSpan>,
}

impl<'a> EscapedDiagnostic<'a> {
    fn new(inner: &'a dyn miette::Diagnostic) -> Self {
        let shown = |text: &str| escape::untrusted_lines(text, escape::LINE_CAP).into_owned();
        let mut message = inner.to_string();
        let mut cause = std::error::Error::source(inner);
        while let Some(error) = cause {
            message.push_str(&format!("\n  caused by: {error}"));
            cause = error.source();
        }
        let labels = inner
            .labels()
            .map(|labels| {
                labels
                    .map(|l| miette::LabeledSpan::new(l.label().map(shown), l.offset(), l.len()))
                    .collect()
            })
            .unwrap_or_default();
        EscapedDiagnostic {
            inner,
            message: shown(&message),
            help: inner.help().map(|h| shown(&h.to_string())),
            labels,
        }
    }
}

impl std::fmt::Debug for EscapedDiagnostic<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::fmt::Display for EscapedDiagnostic<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for EscapedDiagnostic<'_> {}

impl miette::Diagnostic for EscapedDiagnostic<'_> {
    // The header a person reads names the kind of problem; the internal code
    // (`recount::input`) stays in the JSON and SARIF error, for machines.
    fn code<'b>(&'b self) -> Option<Box<dyn std::fmt::Display + 'b>> {
        let header = match self.inner.code()?.to_string().as_str() {
            "recount::input" => "bad input",
            "recount::run" => "recount could not run",
            _ => return None,
        };
        Some(Box::new(header))
    }

    fn severity(&self) -> Option<miette::Severity> {
        self.inner.severity()
    }

    fn help<'b>(&'b self) -> Option<Box<dyn std::fmt::Display + 'b>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn std::fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.inner.source_code()
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        (!self.labels.is_empty()).then(|| Box::new(self.labels.iter().cloned()) as Box<_>)
    }
}

/// Writes to stdout. A closed pipe (`recount check | head`) ends the output
/// quietly, as command-line tools do, and the run keeps its exit code; any other
/// write error (a full disk) is an error, exit 2, so a report that was never
/// written cannot pass for a clean run.
pub fn print_out(text: &str) -> miette::Result<()> {
    print_bytes(text.as_bytes())
}

/// [`print_out`] for bytes (a man page, a completion script).
pub fn print_bytes(bytes: &[u8]) -> miette::Result<()> {
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(bytes).and_then(|()| stdout.flush()) {
        Ok(()) => Ok(()),
        Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(error) => Err(miette::miette!("cannot write the output: {error}")),
    }
}

/// How much beside the report a run prints: `-q`, neither, `-v`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Verbosity {
    Quiet = 0,
    Normal = 1,
    Verbose = 2,
}

/// This run's [`Verbosity`], set once from its flags.
static VERBOSITY: std::sync::atomic::AtomicU8 =
    std::sync::atomic::AtomicU8::new(Verbosity::Normal as u8);

pub(crate) fn verbosity() -> Verbosity {
    match VERBOSITY.load(std::sync::atomic::Ordering::Relaxed) {
        0 => Verbosity::Quiet,
        2 => Verbosity::Verbose,
        _ => Verbosity::Normal,
    }
}

/// A note that says the run could not see all it should (a shallow clone's
/// history) begins so: shown whatever the verbosity but `-q`, never counted
/// away.
pub(crate) const WARNING: &str = "warning: ";

/// Notes (skipped files and the like) go to stderr, so stdout stays the report:
/// with `-v` each, by default the warnings and one line counting the rest,
/// with `-q` none. A note carries file names and other outside text: each is
/// escaped, one line.
pub fn print_notes(notes: &[String]) {
    let mut stderr = std::io::stderr().lock();
    let (warnings, notes): (Vec<&String>, Vec<&String>) =
        notes.iter().partition(|note| note.starts_with(WARNING));
    if verbosity() == Verbosity::Quiet {
        return;
    }
    for warning in warnings {
        let warning = escape::untrusted(warning, escape::LINE_CAP);
        let _ = stderr.write_all(escape::guard_lines(&format!("{warning}\n")).as_bytes());
    }
    match verbosity() {
        Verbosity::Quiet => return,
        Verbosity::Normal if !notes.is_empty() => {
            let _ = writeln!(
                stderr,
                "note: {} on what was read, skipped or left out (`-v` lists {})",
                if notes.len() == 1 {
                    "1 note".to_owned()
                } else {
                    format!("{} notes", notes.len())
                },
                if notes.len() == 1 { "it" } else { "them" }
            );
            return;
        }
        Verbosity::Normal | Verbosity::Verbose => {}
    }
    for note in notes {
        let note = escape::untrusted(note, escape::LINE_CAP);
        let _ = stderr.write_all(escape::guard_lines(&format!("note: {note}\n")).as_bytes());
    }
}

/// Whether the terminal wants plain ASCII: `TERM=dumb`, or a locale that says
/// it is not UTF-8 (`LC_ALL`, else `LC_CTYPE`, else `LANG`; none set reads as
/// UTF-8, as CI runners and modern terminals are).
pub(crate) fn plain_terminal() -> bool {
    if std::env::var("TERM").is_ok_and(|t| t == "dumb") {
        return true;
    }
    let locale = ["LC_ALL", "LC_CTYPE", "LANG"]
        .iter()
        .find_map(|name| std::env::var(name).ok().filter(|v| !v.is_empty()));
    locale.is_some_and(|l| {
        let l = l.to_ascii_lowercase();
        !(l.contains("utf-8") || l.contains("utf8"))
    })
}

/// How wide human output may be: `COLUMNS` when set, else the width of the
/// terminal stdout is (within 40..=400), else 100 columns, so output a
/// program reads is the same whatever runs it.
pub(crate) fn output_width() -> u16 {
    std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse::<u16>().ok())
        .or_else(|| {
            // Shells keep `COLUMNS` to themselves: a terminal says its own
            // width. Output read by a program (a pipe, a file) keeps 100.
            let (terminal_size::Width(width), _) =
                terminal_size::terminal_size_of(std::io::stdout())?;
            Some(width)
        })
        .map_or(100, |c| c.clamp(40, 400))
}

#[cfg(test)]
mod panic_tests {
    use super::*;

    #[test]
    fn a_panic_is_a_bounded_error_not_a_crash() {
        let huge = "[".repeat(800_000);
        let result = caught(|| panic!("unclosed class in {huge}"));
        let error = format!("{:?}", result.expect_err("a panic is an error"));
        assert!(error.contains("internal fault"), "{error}");
        assert!(error.len() < 4 * escape::VALUE_CAP, "{} bytes", error.len());
        // A run that does not panic is untouched.
        assert_eq!(caught(|| Ok(EXIT_CLEAN)).ok(), Some(EXIT_CLEAN));
    }
}
