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
        (
            "knowledge.search",
            "{\"projectId\":\"atlas\",\"query\":\"\",\"limit\":0,\"kinds\":[\"x\"],\"a\":1}"
                .to_owned(),
            1,
        ),
        (
            "knowledge.search",
            format!(
                "{{\"projectId\":\"atlas\",\"query\":\"x\",\"kinds\":[{}]}}",
                vec!["1"; 40].join(",")
            ),
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

/// A repository with a schema folder whose schemas name their tools in their
/// own words, and refer to a schema in a sibling folder.
fn repository_of_schemas() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    std::fs::create_dir_all(root.join(".git")).expect(".git");
    std::fs::create_dir_all(root.join("schemas/mcp/write")).expect("mcp");
    std::fs::create_dir_all(root.join("schemas/common")).expect("common");
    let write = |path: &str, text: &str| std::fs::write(root.join(path), text).expect("write");
    write(
        "schemas/common/project.schema.json",
        r#"{ "$schema": "https://json-schema.org/draft/2020-12/schema",
             "$id": "https://relay.example/schemas/common/project.schema.json",
             "type": "object",
             "properties": { "projectId": { "type": "string", "maxLength": 8 } },
             "required": ["projectId"] }"#,
    );
    // Declared in a vendor keyword, filed under a name no convention gives.
    write(
        "schemas/mcp/write/proposal.schema.json",
        r#"{ "$schema": "https://json-schema.org/draft/2020-12/schema",
             "$id": "https://relay.example/schemas/mcp/write/proposal.schema.json",
             "x-relay-tool": "knowledge.proposeChange",
             "allOf": [{ "$ref": "../../common/project.schema.json" }],
             "properties": { "body": { "type": "string", "maxLength": 16 } },
             "unevaluatedProperties": false }"#,
    );
    // Named by its title alone.
    write(
        "schemas/mcp/notes-input.schema.json",
        r#"{ "$schema": "https://json-schema.org/draft/2020-12/schema",
             "$id": "https://relay.example/schemas/mcp/notes-input.schema.json",
             "title": "Arguments of spool.addNote",
             "type": "object", "additionalProperties": false,
             "properties": { "note": { "type": "string" } } }"#,
    );
    // Found by the convention, camelCase as kebab-case, in a subfolder.
    write(
        "schemas/mcp/write/spool-drain-all-input.schema.json",
        r#"{ "$schema": "https://json-schema.org/draft/2020-12/schema",
             "$id": "https://relay.example/schemas/mcp/write/spool-drain-all-input.schema.json",
             "type": "object", "additionalProperties": false }"#,
    );
    dir
}

fn validate_in(dir: &std::path::Path, folder: &str) -> Command {
    let mut command = match Command::cargo_bin("recount") {
        Ok(command) => command,
        Err(error) => panic!("{error}"),
    };
    command
        .current_dir(dir)
        .arg("validate")
        .arg("--schemas")
        .arg(folder);
    command
}

#[test]
fn a_tool_finds_its_schema_by_what_the_schemas_say_and_a_sibling_ref_loads() {
    let repo = repository_of_schemas();
    let dir = repo.path();
    validate_in(dir, "schemas/mcp")
        .args(["--tool", "knowledge.proposeChange", "-"])
        .write_stdin(r#"{"projectId": "relay", "body": "short"}"#)
        .assert()
        .code(0);
    // The sibling folder's constraint applies: the referenced schema was read.
    validate_in(dir, "schemas/mcp")
        .args(["--tool", "knowledge.proposeChange", "-"])
        .write_stdin(r#"{"body": "short"}"#)
        .assert()
        .code(1);
    validate_in(dir, "schemas/mcp")
        .args(["--tool", "spool.addNote", "-"])
        .write_stdin(r#"{"note": "n", "extra": 1}"#)
        .assert()
        .code(1);
    validate_in(dir, "schemas/mcp")
        .args(["--tool", "spool.drainAll", "-"])
        .write_stdin("{}")
        .assert()
        .code(0);
    // A tool no schema names is refused, fail-closed.
    validate_in(dir, "schemas/mcp")
        .args(["--tool", "spool.unknown", "-"])
        .write_stdin("{}")
        .assert()
        .code(1);
    // The population pairs each registered tool with the schema that names it.
    std::fs::write(
        dir.join("tools.txt"),
        "knowledge.proposeChange\nspool.addNote\nspool.drainAll\n",
    )
    .expect("list");
    validate_in(dir, "schemas/mcp")
        .args(["--population", "tools.txt"])
        .assert()
        .code(0);
}

#[test]
fn a_ref_that_leaves_the_repository_still_does_not_load() {
    let repo = repository_of_schemas();
    let dir = repo.path();
    // Without a repository around the folder, the sibling is not read.
    std::fs::remove_dir_all(dir.join(".git")).expect("rm .git");
    let output = validate_in(dir, "schemas/mcp")
        .args(["--tool", "knowledge.proposeChange", "-"])
        .write_stdin("{}")
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("outside the schema set"), "{stderr}");
}

#[test]
fn every_violation_is_refused_up_to_the_cap_and_a_missing_key_is_named_missing() {
    // Four mistakes: an empty query, a limit under its minimum, a kind the
    // enum lacks, a key the schema does not publish; each is said.
    let output = validate()
        .args(["--tool", "knowledge.search", "--format", "json", "-"])
        .write_stdin(r#"{"projectId":"atlas","query":"","limit":0,"kinds":["x"],"zz":1}"#)
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(1));
    let verdict: serde_json::Value = serde_json::from_slice(&output.stdout).expect("json");
    let refusal = &verdict["refusal"];
    let mut said: Vec<(String, String)> = std::iter::once(refusal)
        .chain(refusal["also"].as_array().expect("also").iter())
        .map(|r| {
            (
                r["path"].as_str().unwrap_or_default().to_owned(),
                r["keyword"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect();
    said.sort();
    let expected: Vec<(String, String)> = [
        ("/kinds/0", "enum"),
        ("/limit", "minimum"),
        ("/query", "minLength"),
        ("/zz", "unevaluatedProperties"),
    ]
    .iter()
    .map(|(p, k)| ((*p).to_owned(), (*k).to_owned()))
    .collect();
    assert_eq!(said, expected, "{verdict:#}");
    assert!(refusal.get("more").is_none(), "{verdict:#}");
    // The human output: one line each, the first first.
    let human = validate()
        .args(["--tool", "knowledge.search", "-"])
        .write_stdin(r#"{"projectId":"atlas","query":"","limit":0,"kinds":["x"],"zz":1}"#)
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&human.stdout).into_owned();
    assert_eq!(text.lines().count(), 4, "{text}");
    assert!(
        text.lines()
            .all(|l| l.starts_with("refused: tool 'knowledge.search': "))
    );
    // Forty bad items: eight said, the rest counted.
    let many = format!(
        "{{\"projectId\":\"atlas\",\"query\":\"x\",\"kinds\":[{}]}}",
        (0..40).map(|i| i.to_string()).collect::<Vec<_>>().join(",")
    );
    let output = validate()
        .args(["--tool", "knowledge.search", "--format", "json", "-"])
        .write_stdin(many.clone())
        .output()
        .expect("runs");
    let verdict: serde_json::Value = serde_json::from_slice(&output.stdout).expect("json");
    assert_eq!(verdict["refusal"]["also"].as_array().map(Vec::len), Some(7));
    assert!(
        verdict["refusal"]["more"].as_u64().is_some_and(|n| n >= 30),
        "{verdict:#}"
    );
    let human = validate()
        .args(["--tool", "knowledge.search", "-"])
        .write_stdin(many)
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&human.stdout).into_owned();
    assert_eq!(text.lines().count(), 9, "{text}");
    assert!(
        text.lines()
            .last()
            .is_some_and(|l| l.contains("more violations")),
        "{text}"
    );
    // A required key that is absent is named as missing, not as failing.
    validate()
        .args(["--tool", "knowledge.search", "-"])
        .write_stdin(r#"{"projectId":"atlas"}"#)
        .assert()
        .code(1)
        .stdout("refused: tool 'knowledge.search': '/query' is missing (required)\n");
}
