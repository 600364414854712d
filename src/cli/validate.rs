//! CLI layer for the validation core: `recount validate` checks one tool call's
//! arguments against the tool's published input schema, or checks a list of
//! registered tools against the schemas a directory publishes. This layer prints;
//! the core in `crate::validation` never does.

use std::io::{Read, Write};

use std::path::PathBuf;

use miette::{IntoDiagnostic, WrapErr, miette};

use crate::escape;
use crate::validation::refusal::{FRAGMENT_CAP, Fragment, Refusal, Subject};
use crate::validation::tools::{self, DEFAULT_DOT_REPLACEMENT, DEFAULT_TEMPLATE};
use crate::validation::{
    Body, MAX_BODY_BYTES, NamingConvention, SchemaSet, ToolResolver, Verdict, body_refusal,
    check_call, read_bounded,
};

/// How the result is printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Human,
    Json,
}

/// Validate a tool call's arguments against the tool's published input schema
/// (exit 0 accepted, 1 refused, 2 could not run), or, with --population, check
/// registered tools against the published input schemas (exit 0 when they pair up).
#[derive(Debug, Clone, clap::Args)]
pub struct ValidateArgs {
    /// Directory of Draft 2020-12 JSON Schemas, keyed by `$id`; a `$ref` outside it is
    /// read from the repository around it, never beyond.
    #[arg(long, value_name = "DIR")]
    pub schemas: PathBuf,

    /// Tool whose arguments are validated; its input schema is the one that declares
    /// it (`x-<vendor>-tool`), else whose title names it, else found by --template.
    #[arg(
        long,
        value_name = "NAME",
        required_unless_present = "population",
        conflicts_with = "population"
    )]
    pub tool: Option<String>,

    /// The arguments document (JSON); `-` or nothing reads standard input.
    #[arg(value_name = "FILE", conflicts_with = "population")]
    pub file: Option<PathBuf>,

    /// A list of registered tool names (one per line, or a JSON array) to check
    /// against the input schemas in --schemas, in both directions.
    #[arg(long, value_name = "FILE")]
    pub population: Option<PathBuf>,

    /// Input schema file name for a tool: `{tool}` is the tool name with each `.`
    /// replaced by --dot.
    #[arg(long, value_name = "TEMPLATE", default_value = DEFAULT_TEMPLATE)]
    pub template: String,

    /// What each `.` of a tool name becomes in --template.
    #[arg(long, value_name = "TEXT", default_value = DEFAULT_DOT_REPLACEMENT)]
    pub dot: String,

    /// An explicit tool -> schema entry (`$id` or file name), ahead of the template.
    #[arg(long = "map", value_name = "TOOL=SCHEMA")]
    pub map: Vec<String>,

    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
}

/// Run `recount validate`, printing to standard output. Returns the exit code (0
/// accepted or clean, 1 refused or unpaired); an `Err` means it could not run (exit 2).
pub fn run(args: &ValidateArgs) -> Result<u8, miette::Report> {
    // Written whole once the verdict is in, through the CLI's one output path.
    let mut out = Vec::new();
    let code = run_to(args, &mut std::io::stdin().lock(), &mut out)?;
    super::print_bytes(&out)?;
    Ok(code)
}

/// [`run`] with its input and output given.
pub fn run_to(
    args: &ValidateArgs,
    stdin: &mut dyn Read,
    out: &mut dyn Write,
) -> Result<u8, miette::Report> {
    let set = SchemaSet::from_dir(&args.schemas)
        .map_err(|error| miette!("{error}"))
        .wrap_err_with(|| format!("loading schemas from {}", args.schemas.display()))?;
    let convention =
        NamingConvention::new(&args.template, &args.dot).map_err(|error| miette!("{error}"))?;
    let mut entries = Vec::new();
    for entry in &args.map {
        let Some((tool, schema)) = entry.split_once('=') else {
            return Err(miette!("--map {entry:?} is not of the form TOOL=SCHEMA"));
        };
        entries.push((tool.to_string(), schema.to_string()));
    }
    let resolver = ToolResolver::new(convention)
        .with_explicit(&set, entries)
        .map_err(|error| miette!("{error}"))?;

    if let Some(list) = &args.population {
        let text = read_list(list)?;
        let registered = tools::parse_tool_list(&text)
            .into_diagnostic()
            .wrap_err_with(|| format!("{} is not a JSON array of tool names", list.display()))?;
        let report = resolver.population(&set, &registered);
        match args.format {
            Format::Json => {
                let text = escape::json_pretty(&report).into_diagnostic()?;
                writeln!(out, "{text}").into_diagnostic()?;
            }
            Format::Human => {
                // Registered names and schema file names are the caller's: escaped
                // and cut, one per line.
                let shown = |name: &str| escape::untrusted(name, escape::VALUE_CAP).into_owned();
                for tool in &report.tools_without_schema {
                    writeln!(out, "tool without an input schema: {}", shown(tool))
                        .into_diagnostic()?;
                }
                for file in &report.schemas_without_tool {
                    writeln!(
                        out,
                        "input schema naming no registered tool: {}",
                        shown(file)
                    )
                    .into_diagnostic()?;
                }
                if report.is_clean() {
                    writeln!(
                        out,
                        "{} registered tools, each with its input schema",
                        registered.len()
                    )
                    .into_diagnostic()?;
                }
            }
        }
        return Ok(if report.is_clean() { 0 } else { 1 });
    }

    let Some(tool) = &args.tool else {
        return Err(miette!("either --tool or --population is required"));
    };
    // Through the bounded reader: at most the cap plus one byte is ever read, so
    // an endless stream or /dev/zero costs the cap in memory, never more.
    let body = match &args.file {
        Some(path) if path.as_os_str() != "-" => std::fs::File::open(path)
            .and_then(|mut file| read_bounded(&mut file, MAX_BODY_BYTES))
            .into_diagnostic()
            .wrap_err_with(|| format!("reading {}", path.display()))?,
        _ => read_bounded(stdin, MAX_BODY_BYTES)
            .into_diagnostic()
            .wrap_err("reading the arguments from standard input")?,
    };
    let verdict = match body {
        Body::Within(document) => check_call(&set, &resolver, tool, &document),
        Body::Over { cap } => {
            Refusal::new(body_refusal(Subject::tool(tool), cap)).map(Verdict::Refused)
        }
    }
    .map_err(|error| miette!("{error}"))?;
    match args.format {
        Format::Json => {
            let text = escape::json_compact(&verdict).into_diagnostic()?;
            writeln!(out, "{text}").into_diagnostic()?;
        }
        Format::Human => match &verdict {
            Verdict::Accepted => {
                writeln!(
                    out,
                    "accepted: tool '{}'",
                    Fragment::new(tool, FRAGMENT_CAP)
                )
                .into_diagnostic()?;
            }
            Verdict::Refused(refusal) => {
                writeln!(out, "{refusal}").into_diagnostic()?;
                for other in refusal.also() {
                    writeln!(out, "{other}").into_diagnostic()?;
                }
                if let Some(more) = refusal.more() {
                    let violations = if more == 1 { "violation" } else { "violations" };
                    writeln!(out, "refused: and {more} more {violations} of the schema")
                        .into_diagnostic()?;
                }
            }
        },
    }
    Ok(if verdict.is_accepted() { 0 } else { 1 })
}

/// A list of registered tools, read through the same bounded reader as a body.
fn read_list(path: &std::path::Path) -> Result<String, miette::Report> {
    let body = std::fs::File::open(path)
        .and_then(|mut file| read_bounded(&mut file, MAX_BODY_BYTES))
        .into_diagnostic()
        .wrap_err_with(|| format!("reading {}", path.display()))?;
    let Body::Within(bytes) = body else {
        return Err(miette!(
            "{} is over {MAX_BODY_BYTES} bytes; reading stopped there",
            path.display()
        ));
    };
    String::from_utf8(bytes).map_err(|e| {
        miette!(
            "{} is not UTF-8 text (byte {})",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Debug, Parser)]
    struct Harness {
        #[command(flatten)]
        args: ValidateArgs,
    }

    fn fixtures() -> String {
        format!("{}/fixtures/validation", env!("CARGO_MANIFEST_DIR"))
    }

    fn args(extra: &[&str]) -> ValidateArgs {
        let schemas = format!("{}/mcp", fixtures());
        let mut argv = vec!["validate", "--schemas", schemas.as_str()];
        argv.extend_from_slice(extra);
        match Harness::try_parse_from(argv) {
            Ok(harness) => harness.args,
            Err(error) => panic!("{error}"),
        }
    }

    fn run_with(args: &ValidateArgs, stdin: &[u8]) -> (Result<u8, String>, String) {
        let mut out = Vec::new();
        let code = run_to(args, &mut &stdin[..], &mut out).map_err(|e| format!("{e:?}"));
        (code, String::from_utf8_lossy(&out).into_owned())
    }

    #[test]
    fn an_accepted_call_exits_zero() {
        let file = format!("{}/typical-call.json", fixtures());
        let (code, out) = run_with(&args(&["--tool", "knowledge.search", &file]), b"");
        assert_eq!(code, Ok(0));
        assert_eq!(out, "accepted: tool 'knowledge.search'\n");
    }

    #[test]
    fn a_refused_call_from_stdin_exits_one_and_prints_the_refusal() {
        let stdin = br#"{"projectId": "atlas", "query": "q", "extra": 1}"#;
        let (code, out) = run_with(&args(&["--tool", "knowledge.search", "-"]), stdin);
        assert_eq!(code, Ok(1));
        assert_eq!(
            out,
            "refused: tool 'knowledge.search': '/extra' is not a published key \
             (unevaluatedProperties, 1 unexpected)\n"
        );
    }

    #[test]
    fn json_output_is_the_refusal_as_data() {
        let (code, out) = run_with(&args(&["--tool", "nope", "--format", "json"]), b"{}");
        assert_eq!(code, Ok(1));
        let value: serde_json::Value = serde_json::from_str(&out).unwrap_or_default();
        assert_eq!(value["verdict"], "refused");
        assert_eq!(value["refusal"]["kind"], "unknown_tool");
        assert_eq!(value["refusal"]["subject"]["name"], "nope");
        assert_eq!(value["refusal"]["keyword"], "publishedSchema");
    }

    #[test]
    fn the_population_check_exits_by_whether_tools_and_schemas_pair_up() {
        let clean = format!("{}/mcp-tools.txt", fixtures());
        let (code, out) = run_with(&args(&["--population", &clean]), b"");
        assert_eq!(code, Ok(0), "{out}");
        let dir = tempfile::tempdir().ok();
        let list = dir
            .as_ref()
            .map(|d| d.path().join("tools.txt"))
            .unwrap_or_default();
        let written = std::fs::write(&list, "knowledge.get\nadmin.purge\n");
        assert!(written.is_ok());
        let list = list.display().to_string();
        let (code, out) = run_with(&args(&["--population", &list]), b"");
        assert_eq!(code, Ok(1));
        assert!(
            out.contains("tool without an input schema: admin.purge"),
            "{out}"
        );
        assert!(
            out.contains("input schema naming no registered tool: review-search-input.schema.json"),
            "{out}"
        );
    }

    #[test]
    fn a_schema_directory_that_does_not_load_is_an_error() {
        let mut bad = args(&["--tool", "x"]);
        bad.schemas = PathBuf::from(format!("{}/does-not-exist", fixtures()));
        let (code, _) = run_with(&bad, b"{}");
        assert!(code.is_err());
        let (code, _) = run_with(&args(&["--tool", "x", "--map", "broken"]), b"{}");
        assert!(code.is_err());
    }

    #[test]
    fn tool_and_population_are_exclusive_and_one_is_required() {
        let schemas = format!("{}/mcp", fixtures());
        assert!(Harness::try_parse_from(["validate", "--schemas", &schemas]).is_err());
        assert!(
            Harness::try_parse_from([
                "validate",
                "--schemas",
                &schemas,
                "--tool",
                "a",
                "--population",
                "b"
            ])
            .is_err()
        );
    }
}
