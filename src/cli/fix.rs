//! `recount fix`: the audit, then the edits its findings carry — shown as a
//! unified diff, or made in the working tree's records with `--write` — and the
//! findings the evidence leaves to a person, listed on stderr.

use std::io::{BufRead, IsTerminal, Write};

use clap::{Args, ValueEnum};

use super::{EXIT_CLEAN, EXIT_FINDINGS, Target, print_notes, print_out};
use crate::escape;
use crate::fix::{Plan, apply, diff};

#[derive(Debug, Args)]
pub struct FixArgs {
    #[command(flatten)]
    pub target: Target,
    /// Make the edits in the working tree's records (never through a link,
    /// never into .git; a record changed since it was read is refused).
    #[arg(long, conflicts_with = "rev")]
    pub write: bool,
    /// Exit 1 when there is anything to fix, after writing it with --write
    /// (a pre-commit hook that mends, then fails the commit for a look).
    #[arg(long)]
    pub check: bool,
    /// With --write: write records that have uncommitted changes without asking.
    #[arg(long, requires = "write")]
    pub yes: bool,
    /// Output: the unified diff of the edits, or the plan as JSON (`edits` by
    /// record, `needs_a_person`).
    #[arg(long, value_enum, default_value_t = FixFormat::Diff)]
    pub format: FixFormat,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FixFormat {
    Diff,
    Json,
}

pub fn run(args: &FixArgs) -> miette::Result<u8> {
    // A transcript's drift is never a record edit: they are not re-run.
    let options = crate::audit::AuditOptions {
        no_transcripts: true,
        ..args.target.options()
    };
    let report = crate::check(&options)?;
    let mut plan = Plan::of(&report);
    // Each edit made in memory and the records checked again before a
    // byte is shown or written: an edit that does not hold is a person's.
    let verification = crate::fix::verify::verify(&options, &report, &mut plan)?;
    print_notes(&report.notes);
    match args.format {
        FixFormat::Diff => {
            let text: String = plan.files.iter().map(diff::unified).collect();
            print_out(&text)?;
        }
        FixFormat::Json => print_out(&plan.render_json(&report.snapshot))?,
    }
    let mut summary = summarise(&plan, args.write);
    summary.push_str(&verified(&verification));
    if args.write && !plan.files.is_empty() {
        write_all(args, &plan, &mut summary)?;
    }
    let mut stderr = std::io::stderr().lock();
    let _ = stderr.write_all(escape::guard_lines(&summary).as_bytes());
    if args.check && plan.edits() > 0 {
        return Ok(EXIT_FINDINGS);
    }
    Ok(EXIT_CLEAN)
}

/// What the plan holds, in lines for stderr: the count of edits and each
/// finding left to a person, with why.
fn summarise(plan: &Plan, writing: bool) -> String {
    let edits = plan.edits();
    let records = plan.files.len();
    let mut out = if edits == 0 {
        "nothing to fix".to_owned()
    } else {
        format!(
            "{edits} edit{} in {records} record{} {}",
            if edits == 1 { "" } else { "s" },
            if records == 1 { "" } else { "s" },
            if writing {
                "to write"
            } else {
                "proposed (`--write` makes them)"
            }
        )
    };
    if plan.needs_a_person.is_empty() {
        out.push('\n');
        return out;
    }
    out.push_str(&format!(
        "; {} finding{} need{} a person:\n",
        plan.needs_a_person.len(),
        if plan.needs_a_person.len() == 1 {
            ""
        } else {
            "s"
        },
        if plan.needs_a_person.len() == 1 {
            "s"
        } else {
            ""
        }
    ));
    for left in &plan.needs_a_person {
        let message = left.message.lines().next().unwrap_or_default();
        out.push_str(&format!(
            "  {}:{}: {} ({}): {}\n",
            escape::untrusted(&left.path, escape::VALUE_CAP),
            left.line,
            left.check.as_str(),
            left.why.as_str(),
            escape::untrusted(message, escape::VALUE_CAP)
        ));
    }
    out
}

/// What checking the edits again found, in a line for stderr.
fn verified(verification: &crate::fix::verify::Verification) -> String {
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    match (verification.held, verification.dropped) {
        (0, 0) => String::new(),
        (held, 0) => format!(
            "checked again {} with the edit{} made: each mended finding is gone, and nothing new is reported\n",
            where_checked(&verification.at),
            plural(held),
        ),
        (held, dropped) => format!(
            "checked again {} with the edits made: {held} held; {dropped} did not and {} left to a person (above)\n",
            where_checked(&verification.at),
            if dropped == 1 { "is" } else { "are" },
        ),
    }
}

/// Where the records were checked again, in words.
fn where_checked(label: &str) -> String {
    if label == "working tree" {
        "in the working tree".to_owned()
    } else {
        format!("at {}", escape::untrusted(label, escape::VALUE_CAP))
    }
}

/// Writes every record of the plan, after asking about records with
/// uncommitted changes; a refused record is reported and the rest written.
fn write_all(args: &FixArgs, plan: &Plan, summary: &mut String) -> miette::Result<()> {
    let repo = crate::audit::open_repo(args.target.repo.as_deref())?;
    let Some(root) = repo.workdir().map(std::path::Path::to_path_buf) else {
        return Err(miette::miette!(
            help = "run `recount fix --write` in a clone with a working tree",
            "the repository is bare: there are no records to write"
        ));
    };
    let head = repo.commit_id("HEAD");
    let uncommitted: Vec<&str> = plan
        .files
        .iter()
        .filter(|file| {
            let committed = head.and_then(|head| repo.file_at(head, &file.path));
            // Read as the record was (a record that is not UTF-8 with U+FFFD
            // for each bad sequence), so such a record unchanged since its
            // commit is refused for what it is, not as uncommitted work.
            committed.is_none_or(|(_, bytes)| String::from_utf8_lossy(&bytes) != *file.before)
        })
        .map(|file| file.path.as_str())
        .collect();
    if !uncommitted.is_empty() && !args.yes {
        let listed: Vec<String> = uncommitted
            .iter()
            .map(|p| escape::untrusted(p, escape::VALUE_CAP).into_owned())
            .collect();
        if !std::io::stdin().is_terminal() {
            return Err(miette::miette!(
                help = "commit or stash them first, or pass --yes to write them as they are",
                "records with uncommitted changes would be edited: {}",
                listed.join(", ")
            ));
        }
        let mut stderr = std::io::stderr().lock();
        let _ = write!(
            stderr,
            "{}\nwrite them anyway? [y/N] ",
            escape::guard_lines(&format!(
                "records with uncommitted changes would be edited: {}",
                listed.join(", ")
            ))
        );
        let _ = stderr.flush();
        let mut answer = String::new();
        let _ = std::io::stdin().lock().read_line(&mut answer);
        if !matches!(answer.trim(), "y" | "Y" | "yes") {
            return Err(miette::miette!("nothing written"));
        }
    }
    let mut refused = Vec::new();
    for file in &plan.files {
        let shown = escape::untrusted(&file.path, escape::VALUE_CAP);
        match apply::write(&root, file) {
            Ok(()) => summary.push_str(&format!(
                "wrote {shown} ({} edit{})\n",
                file.edits.len(),
                if file.edits.len() == 1 { "" } else { "s" }
            )),
            Err(why) => refused.push(format!("{shown}: {why}")),
        }
    }
    if refused.is_empty() {
        return Ok(());
    }
    let mut stderr = std::io::stderr().lock();
    let _ = stderr.write_all(escape::guard_lines(summary).as_bytes());
    summary.clear();
    Err(miette::miette!(
        "{} record{} not written: {}",
        refused.len(),
        if refused.len() == 1 { " was" } else { "s were" },
        refused.join("; ")
    ))
}
