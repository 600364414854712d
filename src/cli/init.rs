//! `recount init`: drafts a `recount.toml` from the repository's records and
//! tree (and, asked, writes the rules schema beside it); `recount schema`
//! prints a schema.

use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};

use super::{EXIT_CLEAN, print_out};
use crate::escape;

/// The file name the rules schema is written under, beside the rule file.
const SCHEMA_FILE: &str = "recount.schema.json";

#[derive(Debug, Args)]
pub struct InitArgs {
    /// The repository (default: discovered upward from the current directory).
    #[arg(long, value_name = "DIR")]
    pub repo: Option<PathBuf>,
    /// Read this revision's tree instead of the working tree.
    #[arg(long, value_name = "REV")]
    pub rev: Option<String>,
    /// Where to write the rule file (default: recount.toml at the repository root).
    #[arg(long, value_name = "FILE", conflicts_with = "stdout")]
    pub output: Option<PathBuf>,
    /// Print the draft instead of writing it (the schema is not written).
    #[arg(long)]
    pub stdout: bool,
    /// Overwrite an existing rule file or schema.
    #[arg(long)]
    pub force: bool,
    /// Also write the rules schema beside the rule file and point the rule
    /// file's `#:schema` line at it, for completion in editors that read it.
    #[arg(long, conflicts_with = "stdout")]
    pub schema: bool,
}

pub fn run(args: &InitArgs) -> miette::Result<u8> {
    let repo = crate::audit::open_repo(args.repo.as_deref())?;
    let snapshot = crate::audit::snapshot_of(&repo, args.rev.as_deref())?;
    let draft = crate::init::draft(&repo, snapshot)?;
    let schema_line = format!("./{SCHEMA_FILE}");
    let rules = crate::init::render::rule_file(&draft, args.schema.then_some(schema_line.as_str()));
    if args.stdout {
        print_out(&rules)?;
        return Ok(EXIT_CLEAN);
    }
    let target = match (&args.output, repo.workdir()) {
        (Some(path), _) => path.clone(),
        (None, Some(root)) => root.join("recount.toml"),
        (None, None) => {
            return Err(miette::miette!(
                help = "use --output FILE or --stdout",
                "a bare repository has no working tree to write recount.toml into"
            ));
        }
    };
    let schema = target
        .parent()
        .map_or_else(|| PathBuf::from(SCHEMA_FILE), |dir| dir.join(SCHEMA_FILE));
    let schema_text = crate::rules::load::RULES_SCHEMA;
    // The schema is rewritten only when it differs; an identical one is ours already.
    let schema_differs = std::fs::read_to_string(&schema).is_ok_and(|t| t != schema_text);
    let schema_written = args.schema.then_some(&schema);
    if !args.force {
        for path in [&target]
            .into_iter()
            .chain(schema_written.filter(|_| schema_differs))
        {
            if path.exists() {
                return Err(miette::miette!(
                    help = "pass --force to overwrite it, --output FILE to write elsewhere, or --stdout",
                    "{} exists; recount init does not overwrite it",
                    escape::untrusted(&path.display().to_string(), 400)
                ));
            }
        }
    }
    write(&target, repo.workdir(), &rules)?;
    if let Some(schema) = schema_written {
        write(schema, repo.workdir(), schema_text)?;
    }
    let facts = draft.facts.len();
    let disagreeing = draft
        .facts
        .iter()
        .filter(|f| f.weighed.disagrees.is_some())
        .count();
    let claims = draft.facts.iter().filter(|f| f.says.is_some()).count();
    let shown =
        |path: &Path| escape::untrusted(&relative(path).display().to_string(), 400).into_owned();
    print_out(&format!(
        "wrote {} ({facts} fact{}, {claims} claim{}, {} retired rule{}, {} test root{}; {} passage{} listed as not drafted){}\n{}next: review it, then run `recount check`{}\n",
        shown(&target),
        plural(facts),
        plural(claims),
        draft.retired.len(),
        plural(draft.retired.len()),
        draft.test_roots.len(),
        plural(draft.test_roots.len()),
        draft.not_drafted.len() + draft.retired_candidates.len(),
        plural(draft.not_drafted.len() + draft.retired_candidates.len()),
        schema_written.map_or_else(String::new, |schema| format!(" and {}", shown(schema))),
        match disagreeing {
            0 => String::new(),
            1 => "1 drafted figure already disagrees with the tree: the rule file says how\n"
                .to_owned(),
            n => format!(
                "{n} drafted figures already disagree with the tree: the rule file says how\n"
            ),
        },
        if draft.facts.is_empty() && draft.retired.is_empty() && draft.example.is_some() {
            " (it holds an example rule to start from)"
        } else {
            ""
        },
    ))?;
    Ok(EXIT_CLEAN)
}

/// A path as the user would type it from here: relative to the current
/// folder when under it, else as given.
fn relative(path: &Path) -> PathBuf {
    let here = std::env::current_dir().ok();
    let absolute = path.canonicalize().ok();
    match (here.and_then(|h| h.canonicalize().ok()), absolute) {
        (Some(here), Some(absolute)) => absolute
            .strip_prefix(&here)
            .map_or_else(|_| path.to_path_buf(), Path::to_path_buf),
        _ => path.to_path_buf(),
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn write(path: &Path, root: Option<&Path>, text: &str) -> miette::Result<()> {
    crate::local_file::write(path, root, text.as_bytes()).map_err(|e| {
        miette::miette!(
            "cannot write {}: {e}",
            escape::untrusted(&path.display().to_string(), 400)
        )
    })
}

/// Which schema `recount schema` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SchemaName {
    /// The rule file (`recount.toml`), for editors' `#:schema`.
    Rules,
    /// `recount check --format json`.
    Report,
    /// `recount facts --format json`.
    Facts,
    /// `recount cites --format json`.
    Cites,
    /// `recount check --format sarif`: the part of SARIF 2.1.0 recount writes.
    Sarif,
    /// `recount history --format json`.
    History,
    /// `recount fix --format json`.
    Fix,
    /// `recount check --format gitlab`: GitLab's code-quality report.
    Gitlab,
}

#[derive(Debug, Args)]
pub struct SchemaArgs {
    /// The schema to print.
    #[arg(value_enum, default_value_t = SchemaName::Rules)]
    pub name: SchemaName,
}

pub fn schema(args: &SchemaArgs) -> miette::Result<u8> {
    print_out(match args.name {
        SchemaName::Rules => crate::rules::load::RULES_SCHEMA,
        SchemaName::Report => crate::report::json::REPORT_SCHEMA,
        SchemaName::Facts => crate::report::json::FACTS_SCHEMA,
        SchemaName::Cites => crate::report::json::CITES_SCHEMA,
        SchemaName::Sarif => crate::report::sarif::SARIF_SCHEMA,
        SchemaName::History => crate::report::history::HISTORY_SCHEMA,
        SchemaName::Fix => crate::fix::FIX_SCHEMA,
        SchemaName::Gitlab => crate::report::gitlab::CODEQUALITY_SCHEMA,
    })?;
    Ok(EXIT_CLEAN)
}
