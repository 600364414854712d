//! `recount validate` as a binary: exit codes 0 accepted, 1 refused, 2 could not run,
//! and the population check. Runs once the subcommand is wired to
//! `recount::cli::validate::{ValidateArgs, run}`.

use assert_cmd::Command;

fn fixtures() -> String {
    format!("{}/fixtures/validation", env!("CARGO_MANIFEST_DIR"))
}

fn validate() -> Command {
    let mut command = match Command::cargo_bin("recount") {
        Ok(command) => command,
        Err(error) => panic!("{error}"),
    };
    command
        .arg("validate")
        .arg("--schemas")
        .arg(format!("{}/mcp", fixtures()));
    command
}

#[test]
fn an_accepted_call_exits_zero() {
    validate()
        .args(["--tool", "knowledge.search"])
        .arg(format!("{}/typical-call.json", fixtures()))
        .assert()
        .code(0)
        .stdout("accepted: tool 'knowledge.search'\n");
}

#[test]
fn a_refused_call_on_stdin_exits_one_with_the_bounded_refusal() {
    validate()
        .args(["--tool", "knowledge.search", "-"])
        .write_stdin(r#"{"projectId": "atlas", "query": "q", "extra": 1}"#)
        .assert()
        .code(1)
        .stdout(
            "refused: tool 'knowledge.search': '/extra' is not a published key \
             (unevaluatedProperties, 1 unexpected)\n",
        );
}

#[test]
fn json_output_carries_the_refusal_as_data() {
    let output = validate()
        .args(["--tool", "no.such.tool", "--format", "json"])
        .write_stdin("{}")
        .output();
    let output = match output {
        Ok(output) => output,
        Err(error) => panic!("{error}"),
    };
    assert_eq!(output.status.code(), Some(1));
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap_or_default();
    assert_eq!(value["verdict"], "refused");
    assert_eq!(value["refusal"]["kind"], "unknown_tool");
}

#[test]
fn a_ten_thousand_character_key_is_not_echoed() {
    let key = "k".repeat(10_000);
    let output = validate()
        .args(["--tool", "knowledge.get"])
        .write_stdin(format!(
            r#"{{"projectId": "atlas", "itemId": "x", "{key}": 1}}"#
        ))
        .output();
    let output = match output {
        Ok(output) => output,
        Err(error) => panic!("{error}"),
    };
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stdout.len() < 300, "{}", output.stdout.len());
}

#[test]
fn the_population_check_exits_zero_when_tools_and_schemas_pair_up() {
    validate()
        .arg("--population")
        .arg(format!("{}/mcp-tools.txt", fixtures()))
        .assert()
        .code(0);
}

#[test]
fn a_schema_directory_that_cannot_load_exits_two() {
    let mut command = match Command::cargo_bin("recount") {
        Ok(command) => command,
        Err(error) => panic!("{error}"),
    };
    command
        .args(["validate", "--schemas"])
        .arg(format!("{}/no-such-directory", fixtures()))
        .args(["--tool", "knowledge.get"])
        .write_stdin("{}")
        .assert()
        .code(2);
}

#[test]
fn json_verdicts_match_the_published_verdict_schema() {
    let set = recount::validation::SchemaSet::from_files([(
        "verdict.schema.json",
        include_str!("../../schemas/verdict.schema.json"),
    )])
    .expect("the verdict schema loads through the core");
    let schemas = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/validation/mcp");
    let long_key = format!(
        "{{\"projectId\":\"atlas\",\"query\":\"x\",\"{}\":1}}",
        "k".repeat(10_000)
    );
    let deep = "[".repeat(1_000) + &"]".repeat(1_000);
    for (tool, document, code) in [
        (
            "knowledge.search",
            "{\"projectId\":\"atlas\",\"query\":\"x\"}".to_owned(),
            0,
        ),
        ("knowledge.search", long_key, 1),
        ("knowledge.search", deep, 1),
        ("no.such.tool", "{}".to_owned(), 1),
        ("knowledge.search", "{not json".to_owned(), 1),
        (
            "knowledge.search",
            "{\"projectId\":\"atlas\",\"query\":\"x\",\"limit\":1.0000000000000001}".to_owned(),
            1,
        ),
    ] {
        let output = assert_cmd::Command::cargo_bin("recount")
            .expect("binary")
            .args([
                "validate",
                "--schemas",
                schemas,
                "--tool",
                tool,
                "--format",
                "json",
                "-",
            ])
            .write_stdin(document)
            .output()
            .expect("runs");
        assert_eq!(output.status.code(), Some(code), "{output:?}");
        let verdict = recount::validation::verdict(&set, "verdict.schema.json", &output.stdout)
            .expect("checks");
        assert!(
            verdict.is_accepted(),
            "{tool}: {:?} -> {verdict:?}",
            String::from_utf8_lossy(&output.stdout)
        );
    }
}
