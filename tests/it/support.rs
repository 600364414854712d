//! Test harness: builds fixtures into temporary repositories and runs the binary.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;
use tempfile::TempDir;

/// A fixture built into a temporary git repository.
pub(crate) struct Repo {
    pub(crate) dir: TempDir,
    pub(crate) commits: Vec<(String, String)>,
}

impl Repo {
    pub(crate) fn path(&self) -> &Path {
        self.dir.path()
    }

    /// The full id of the commit whose directory name starts with `prefix`.
    pub(crate) fn oid(&self, prefix: &str) -> String {
        self.commits
            .iter()
            .find(|(name, _)| name.starts_with(prefix))
            .map(|(_, oid)| oid.clone())
            .unwrap_or_else(|| panic!("fixture has no commit {prefix}"))
    }

    /// `recount ARGS` run inside the repository, colour off.
    pub(crate) fn recount(&self, args: &[&str]) -> Command {
        let mut cmd = Command::cargo_bin("recount").expect("binary builds");
        // No memory between runs unless a test asks for one (`--cache-dir`):
        // the tests leave the user's cache folder alone.
        cmd.current_dir(self.path())
            .env("NO_COLOR", "1")
            .env_remove("FORCE_COLOR")
            .env_remove("CLICOLOR_FORCE")
            .env_remove("CLICOLOR")
            .env("RECOUNT_CACHE_DIR", "")
            .env_remove("COLUMNS")
            // The tests read the notes themselves, not the default count of
            // them (`terminal.rs` holds that line).
            .arg("--verbose")
            .args(args);
        cmd
    }

    /// What a run in the checkout names the tree it audited: the short id of
    /// HEAD when nothing is uncommitted (a clean tree is its commit), else
    /// `working tree`.
    pub(crate) fn label(&self) -> String {
        let git = |args: &[&str]| {
            let out = std::process::Command::new("git")
                .current_dir(self.path())
                .args(args)
                .output()
                .expect("git runs");
            String::from_utf8(out.stdout).expect("git prints UTF-8")
        };
        if git(&["status", "--porcelain", "--untracked-files=all"])
            .trim()
            .is_empty()
        {
            git(&["rev-parse", "HEAD"])[..8].to_owned()
        } else {
            "working tree".to_owned()
        }
    }

    pub(crate) fn write(&self, relative: &str, text: &str) {
        let path = self.path().join(relative);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("create folder");
        }
        std::fs::write(path, text).expect("write file");
    }

    pub(crate) fn read(&self, relative: &str) -> String {
        std::fs::read_to_string(self.path().join(relative)).expect("read file")
    }

    /// Every file under the repository (`.git` included) with its bytes.
    pub(crate) fn contents(&self) -> BTreeMap<PathBuf, Vec<u8>> {
        walkdir::WalkDir::new(self.path())
            .into_iter()
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_file())
            .map(|e| {
                (
                    e.path().to_path_buf(),
                    std::fs::read(e.path()).expect("read"),
                )
            })
            .collect()
    }
}

pub(crate) fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

/// Builds `fixtures/<case>` into a fresh temporary repository.
pub(crate) fn build(case: &str) -> Repo {
    let dir = tempfile::tempdir().expect("temp dir");
    let built =
        recount::fixture::build(&fixtures().join(case), dir.path()).expect("fixture builds");
    Repo {
        dir,
        commits: built.commits,
    }
}

/// Stdout of a finished command, as text.
pub(crate) fn stdout(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub(crate) fn stderr(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Each finding of a JSON report as the fields at `pointers` (JSON pointers:
/// `/location/path`, `/stated`), a missing one read as "".
pub(crate) fn finding_fields(report: &Value, pointers: &[&str]) -> Vec<Vec<String>> {
    report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| {
            pointers
                .iter()
                .map(|p| {
                    f.pointer(p)
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .to_owned()
                })
                .collect()
        })
        .collect()
}

/// `recount check --format json ARGS`: the exit code and the parsed report.
pub(crate) fn json_report(repo: &Repo, extra: &[&str]) -> (i32, Value) {
    let mut args = vec!["check", "--format", "json"];
    args.extend_from_slice(extra);
    let output = repo.recount(&args).output().expect("runs");
    let code = output.status.code().expect("exit code");
    let report: Value = serde_json::from_str(&stdout(&output))
        .unwrap_or_else(|e| panic!("report is JSON ({e}): {}", stderr(&output)));
    (code, report)
}

/// One finding as the tests compare it: check, path, line, column, message.
pub(crate) type Seen = (String, String, u64, u64, String);

/// Every finding of a JSON report.
pub(crate) fn findings(report: &Value) -> Vec<Seen> {
    report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| {
            let text = |v: &Value| v.as_str().unwrap_or_default().to_owned();
            (
                text(&f["check"]),
                text(&f["location"]["path"]),
                f["location"]["line"].as_u64().unwrap_or_default(),
                f["location"]["column"].as_u64().unwrap_or_default(),
                text(&f["message"]),
            )
        })
        .collect()
}

/// Whether `report` is a document `schemas/report.schema.json` accepts.
pub(crate) fn accepted_by_the_report_schema(report: &Value) -> bool {
    let set = recount::validation::SchemaSet::from_files([(
        "report.schema.json",
        recount::report::json::REPORT_SCHEMA,
    )])
    .expect("the report schema loads");
    let bytes = serde_json::to_vec(report).expect("serialises");
    recount::validation::verdict(&set, "report.schema.json", &bytes)
        .expect("checks")
        .is_accepted()
}
