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

/// The distribution's name: the crate's and the Python project's, which must be
/// one name, and never `recount` itself (another project's on the Python index).
fn distribution() -> String {
    let manifest: toml::Table = read("Cargo.toml").parse().expect("TOML");
    let crate_name = manifest["package"]["name"].as_str().expect("a crate name");
    let pyproject: toml::Table = read("pyproject.toml").parse().expect("TOML");
    let python_name = pyproject["project"]["name"]
        .as_str()
        .expect("a project name");
    assert_eq!(crate_name, python_name, "one name on both registries");
    assert_ne!(
        crate_name, "recount",
        "`recount` on the Python index is not ours"
    );
    // The command and the library keep the short name.
    let bins = manifest["bin"].as_array().expect("[[bin]]");
    assert_eq!(bins[0]["name"].as_str(), Some("recount"));
    assert_eq!(manifest["lib"]["name"].as_str(), Some("recount"));
    crate_name.to_owned()
}

#[test]
fn the_release_the_action_and_binstall_name_the_same_archives() {
    let name = distribution();
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
    assert!(installer.contains(&format!("archive=\"{name}-$target.tar.gz\"")));
    assert!(installer.contains(&format!("archive=\"{name}-$target.zip\"")));
    assert!(installer.contains(&format!("\"$work/{name}-$target/recount$ext\"")));
    assert!(workflow.contains(&format!("dir=\"{name}-$TARGET\"")));
    assert!(workflow.contains("tar czf \"$dir.tar.gz\" \"$dir\""));
    assert!(workflow.contains(&format!(
        "sha256sum {name}-*.tar.gz {name}-*.zip > SHA256SUMS"
    )));
    assert!(workflow.contains(&format!(
        "--verify-tag artifacts/{name}-* artifacts/SHA256SUMS"
    )));
    // binstall fetches the same names (`{ name }` is the crate's), the binary in
    // the same folder.
    let manifest = read("Cargo.toml");
    assert!(manifest.contains(
        "pkg-url = \"{ repo }/releases/download/v{ version }/{ name }-{ target }.tar.gz\""
    ));
    assert!(manifest.contains("bin-dir = \"{ name }-{ target }/{ bin }{ binary-ext }\""));
    assert!(
        manifest.contains(
            "pkg-url = \"{ repo }/releases/download/v{ version }/{ name }-{ target }.zip\""
        )
    );
    // The Action installs through the installer and checks once.
    let action = read("action.yml");
    assert!(action.contains("action/install.sh"));
    assert_eq!(action.matches("\" check ").count(), 1, "{action}");
    assert!(action.contains("--output \"sarif="));
}

/// Every Markdown page a user reads: the README and the book's pages.
fn documentation() -> Vec<(String, String)> {
    let mut pages = vec![("README.md".to_owned(), read("README.md"))];
    let mut stack = vec![Path::new(ROOT).join("docs/src")];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                let relative = path.strip_prefix(ROOT).expect("under the root");
                let text = std::fs::read_to_string(&path).expect("a page");
                pages.push((relative.display().to_string(), text));
            }
        }
    }
    pages.sort();
    pages
}

#[test]
fn every_install_command_names_the_distribution() {
    let name = distribution();
    let installers: [&[&str]; 5] = [
        &["pip", "install"],
        &["pipx", "install"],
        &["uv", "tool", "install"],
        &["cargo", "install"],
        &["cargo", "binstall"],
    ];
    let mut seen = 0;
    for (page, text) in documentation() {
        for (number, line) in text.lines().enumerate() {
            let words: Vec<&str> = line
                .split(|c: char| c.is_whitespace() || c == '`')
                .filter(|w| !w.is_empty())
                .collect();
            for at in 0..words.len() {
                for installer in installers {
                    if !words[at..].starts_with(installer) {
                        continue;
                    }
                    // The first word after the installer and its flags: a
                    // package, or a path (`.`) for a build from a checkout.
                    let mut rest = words[at + installer.len()..].iter();
                    let package = rest.find(|w| {
                        !w.starts_with('-')
                            && !["--path", "--git", "--root", "--features"].contains(w)
                    });
                    let flagged_path = words[at + installer.len()..]
                        .iter()
                        .any(|w| *w == "--path" || *w == "--git");
                    let Some(package) = package else { continue };
                    let package = package.trim_end_matches([',', ';', ')', ':', '.']);
                    if flagged_path
                        || package.is_empty()
                        || package.contains('/')
                        || package.ends_with(".whl")
                    {
                        continue; // a build from a checkout, a wheel file
                    }
                    if !package.starts_with(|c: char| c.is_ascii_alphanumeric()) {
                        continue; // prose after the command, not a package
                    }
                    if ["mdbook", "maturin", "cmake", "pre-commit"]
                        .iter()
                        .any(|tool| package.starts_with(tool))
                    {
                        continue; // a tool the instructions use, not recount
                    }
                    seen += 1;
                    assert_eq!(
                        package,
                        name,
                        "{page}:{}: {line:?} installs {package:?}",
                        number + 1
                    );
                }
            }
        }
    }
    assert!(
        seen >= 4,
        "the install routes are documented ({seen} found)"
    );
    // Said once, plainly, on the front page.
    assert!(
        read("README.md").contains("`recount` on the Python package index is not this project"),
        "the README says which `recount` is not ours"
    );
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
    let name = format!("{}-{target}", distribution());
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
