//! Installing recount without building it: the release workflow's targets and
//! archive names, Cargo.toml's `cargo binstall` metadata and the Action's
//! installer agree, and the installer puts a release archive's binary in place
//! only when it matches the release's SHA256SUMS, building from source when
//! there is no release.

use std::path::Path;
use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn read(relative: &str) -> String {
    std::fs::read_to_string(Path::new(ROOT).join(relative)).expect("readable")
}

/// The targets the release workflow's `binaries` job builds.
fn release_targets() -> Vec<String> {
    let workflow = read(".github/workflows/release.yml");
    let binaries = workflow
        .split("\n  wheels:")
        .next()
        .expect("a binaries job");
    binaries
        .lines()
        .filter_map(|line| {
            let rest = line.split("target: ").nth(1)?;
            Some(rest.split([',', ' ', '}']).next()?.to_owned())
        })
        .collect()
}

#[test]
fn the_release_the_action_and_binstall_name_the_same_archives() {
    let targets = release_targets();
    assert_eq!(
        targets,
        [
            "x86_64-unknown-linux-musl",
            "aarch64-unknown-linux-musl",
            "x86_64-apple-darwin",
            "aarch64-apple-darwin",
            "x86_64-pc-windows-msvc",
        ]
    );
    let workflow = read(".github/workflows/release.yml");
    // Wheels for every target the binaries have.
    let wheels = workflow.split("\n  wheels:").nth(1).expect("a wheels job");
    for target in &targets {
        assert!(wheels.contains(&format!("target: {target}")), "{target}");
    }
    // The installer maps each runner to one of them, archives named alike.
    let installer = read("action/install.sh");
    for triple in [
        "$arch-unknown-linux-musl",
        "$arch-apple-darwin",
        "x86_64-pc-windows-msvc",
    ] {
        assert!(installer.contains(triple), "{triple}");
    }
    assert!(installer.contains("archive=\"recount-$target.tar.gz\""));
    assert!(installer.contains("archive=\"recount-$target.zip\""));
    assert!(workflow.contains("tar czf \"$dir.tar.gz\" \"$dir\""));
    assert!(workflow.contains("sha256sum recount-*.tar.gz recount-*.zip > SHA256SUMS"));
    // binstall fetches the same names, the binary in the same folder.
    let manifest = read("Cargo.toml");
    assert!(manifest.contains(
        "pkg-url = \"{ repo }/releases/download/v{ version }/recount-{ target }.tar.gz\""
    ));
    assert!(manifest.contains("bin-dir = \"recount-{ target }/{ bin }{ binary-ext }\""));
    assert!(
        manifest.contains(
            "pkg-url = \"{ repo }/releases/download/v{ version }/recount-{ target }.zip\""
        )
    );
    // The Action installs through the installer and checks once.
    let action = read("action.yml");
    assert!(action.contains("action/install.sh"));
    assert_eq!(action.matches("\" check ").count(), 1, "{action}");
    assert!(action.contains("--output \"sarif="));
}

#[test]
fn every_distributed_build_inflates_with_zlib_ng() {
    // Whether the array at `keys` of the TOML file `relative` holds a string
    // `holds` accepts.
    let lists = |relative: &str, keys: &[&str], holds: &dyn Fn(&str) -> bool| {
        let table: toml::Table = read(relative).parse().expect("TOML");
        let mut value = &toml::Value::Table(table);
        for key in keys {
            value = &value[*key];
        }
        let list = value.as_array().expect("an array");
        list.iter().any(|v| v.as_str().is_some_and(holds))
    };
    assert!(lists("Cargo.toml", &["features", "zlib-ng"], &|f| f
        == "git2/zlib-ng-compat"));
    // Off by default: the README's two commands need no cmake.
    assert!(!lists("Cargo.toml", &["features", "default"], &|f| f == "zlib-ng"));
    // The release archives, the wheels (with cmake to build it) and the
    // Action's build where the runner has cmake.
    let workflow = read(".github/workflows/release.yml");
    assert!(workflow.contains("cargo build --release --locked --features zlib-ng --target"));
    assert!(lists(
        "pyproject.toml",
        &["tool", "maturin", "features"],
        &|f| f == "zlib-ng"
    ));
    assert!(lists(
        "pyproject.toml",
        &["build-system", "requires"],
        &|r| r.starts_with("cmake")
    ));
    let installer = read("action/install.sh");
    assert!(installer.contains("features=(--features zlib-ng)"));
}

/// A release folder holding this build as the host's archive, and its sums.
fn release(dir: &Path, tamper: bool) -> Option<String> {
    let arch = match std::env::consts::ARCH {
        "x86_64" => "x86_64",
        "aarch64" => "aarch64",
        _ => return None,
    };
    let target = match std::env::consts::OS {
        "linux" => format!("{arch}-unknown-linux-musl"),
        "macos" => format!("{arch}-apple-darwin"),
        _ => return None,
    };
    let name = format!("recount-{target}");
    let folder = dir.join(&name);
    std::fs::create_dir_all(&folder).expect("folder");
    std::fs::copy(env!("CARGO_BIN_EXE_recount"), folder.join("recount")).expect("binary");
    let archive = format!("{name}.tar.gz");
    let status = Command::new("tar")
        .args(["czf", &archive, &name])
        .current_dir(dir)
        .status()
        .expect("tar");
    assert!(status.success());
    let sum = Command::new("sha256sum")
        .arg(&archive)
        .current_dir(dir)
        .output()
        .expect("sha256sum");
    let mut sums = String::from_utf8_lossy(&sum.stdout).into_owned();
    if tamper {
        sums = format!("{}{}", "0".repeat(64), &sums[64..]);
    }
    std::fs::write(dir.join("SHA256SUMS"), sums).expect("sums");
    Some(format!("file://{}", dir.display()))
}

fn install(url: &str, root: &Path) -> std::process::Output {
    Command::new("bash")
        .arg(Path::new(ROOT).join("action/install.sh"))
        .arg(root)
        .env("RECOUNT_RELEASE_URL", url)
        .env(
            "RECOUNT_BUILD",
            format!("touch {}/built-from-source", root.display()),
        )
        .output()
        .expect("runs")
}

#[test]
fn the_installer_checks_the_archive_and_builds_only_without_a_release() {
    let dir = tempfile::tempdir().expect("temp dir");
    let Some(url) = release(dir.path(), false) else {
        return; // a host the release does not build for: nothing to install
    };
    let root = dir.path().join("installed");
    let output = install(&url, &root);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let version = Command::new(root.join("bin/recount"))
        .arg("--version")
        .output()
        .expect("installed binary runs");
    assert!(String::from_utf8_lossy(&version.stdout).starts_with("recount "));
    assert!(!root.join("built-from-source").exists());

    // A tampered archive is refused, and not replaced by a build.
    let bad = tempfile::tempdir().expect("temp dir");
    let url = release(bad.path(), true).expect("same host");
    let root = bad.path().join("installed");
    let output = install(&url, &root);
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("does not match SHA256SUMS"));
    assert!(!root.join("bin/recount").exists());
    assert!(!root.join("built-from-source").exists());

    // No release there (a commit the Action is used at): built from source.
    let none = tempfile::tempdir().expect("temp dir");
    let root = none.path().join("installed");
    let output = install(&format!("file://{}/missing", none.path().display()), &root);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(root.join("built-from-source").exists());
}
