//! A deterministic generator for the history benchmark's repository: FILES
//! Python files under `src/` (20 folders of 10 of 100 by default), a limits
//! module whose constants a record states, a `schemas/` folder that grows, and
//! an ADR whose claims drift and are corrected now and then, over COMMITS
//! first-parent commits with fixed authors and dates. Objects are written into
//! memory and stored as one pack, so a generation leaves a small, bare
//! repository and writes nothing else. The same scale gives the same commit ids
//! on every machine.

use std::collections::BTreeMap;
use std::path::Path;

use git2::{Oid, Repository, Signature, Time};

/// 2026-01-01T00:00:00Z; commit N is dated N hours later.
const EPOCH: i64 = 1_767_225_600;

/// A small, fixed pseudo-random sequence (64-bit LCG, upper bits).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A folder being built: its files' blobs, its folders, and its tree id once
/// written (cleared when anything below it changes).
#[derive(Default)]
struct Dir {
    files: BTreeMap<String, Oid>,
    dirs: BTreeMap<String, Dir>,
    written: Option<Oid>,
}

impl Dir {
    fn set(&mut self, path: &str, blob: Oid) {
        self.written = None;
        match path.split_once('/') {
            Some((first, rest)) => self
                .dirs
                .entry(first.to_owned())
                .or_default()
                .set(rest, blob),
            None => {
                self.files.insert(path.to_owned(), blob);
            }
        }
    }

    fn write(&mut self, repo: &Repository) -> Result<Oid, git2::Error> {
        if let Some(id) = self.written {
            return Ok(id);
        }
        let mut builder = repo.treebuilder(None)?;
        for (name, dir) in &mut self.dirs {
            builder.insert(name, dir.write(repo)?, 0o040000)?;
        }
        for (name, blob) in &self.files {
            builder.insert(name, *blob, 0o100644)?;
        }
        let id = builder.write()?;
        self.written = Some(id);
        Ok(id)
    }
}

/// The repository's size.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Scale {
    /// Python files under `src/` (a multiple of 1,000: 20 × 10 folders).
    pub(crate) files: usize,
    pub(crate) commits: usize,
}

impl Scale {
    /// 20,000 files and 2,000 commits, or `RECOUNT_HISTORY_SCALE=FILES:COMMITS`.
    // The integration tests, which share this file, pick a scale of their own.
    #[allow(dead_code)]
    pub(crate) fn from_env() -> Scale {
        let full = Scale {
            files: 20_000,
            commits: 2_000,
        };
        std::env::var("RECOUNT_HISTORY_SCALE")
            .ok()
            .and_then(|s| {
                let (f, c) = s.split_once(':')?;
                Some(Scale {
                    files: f.parse().ok()?,
                    commits: c.parse().ok()?,
                })
            })
            .unwrap_or(full)
    }
}

/// The rule file the benchmark audits the generated repository with (also
/// committed at its root).
pub(crate) const RULES: &str = r#"[recount]
records = ["docs/adr/*.md"]

[constants]
MAX_FILE_BYTES = { file = "pkg/limits.py" }
MAX_BODY_BYTES = { file = "pkg/limits.py" }

[[fact]]
id = "schemas"
files = "schemas/*.json"
claims = [{ says = 'schemas/ holds (?<value>\w+) schemas' }]

[[fact]]
id = "file-cap"
constant = "MAX_FILE_BYTES"
claims = [{ says = 'The file cap is (?<value>\d+ MiB)' }]

[[fact]]
id = "body-cap"
expr = "3 * MAX_FILE_BYTES + 1 MiB"
equals = "MAX_BODY_BYTES"
claims = [{ says = 'The body cap is (?<value>[\d,]+) bytes' }]

[[fact]]
id = "todos-m00"
grep = "TODO"
paths = ["src/m00"]
claims = [{ says = '(?<value>\d+) TODO lines under src/m00' }]

[[fact]]
id = "python-files"
files = "src/**/*.py"
claims = [{ says = 'src/ holds (?<value>[\d,]+) Python files' }]
"#;

fn module(rng: &mut Lcg, path: &str, version: u64) -> String {
    let mut text = format!(
        "\"\"\"Module {path}, revision {version}.\"\"\"\n\nLIMIT = {}\n",
        rng.below(1000)
    );
    if rng.below(10) == 0 {
        text.push_str("# TODO: split this module\n");
    }
    text.push_str("\n\ndef run(x):\n    return x + LIMIT\n");
    text
}

fn limits(cap_mib: u64, body_follows: bool, cap_at_body: u64) -> String {
    let body = if body_follows {
        "3 * MAX_FILE_BYTES + 1024 * 1024".to_owned()
    } else {
        format!("3 * {cap_at_body} * 1024 * 1024 + 1024 * 1024")
    };
    format!("MAX_FILE_BYTES = {cap_mib} * 1024 * 1024\nMAX_BODY_BYTES = {body}\n")
}

fn words(n: usize) -> String {
    const WORDS: [&str; 13] = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        "eleven", "twelve",
    ];
    WORDS
        .get(n)
        .map_or_else(|| n.to_string(), |w| (*w).to_owned())
}

fn group(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The state the record describes.
struct Stated {
    schemas: usize,
    cap_mib: u64,
    todos: usize,
    files: usize,
}

fn record(s: &Stated) -> String {
    format!(
        "# ADR 0001: limits\n\nThe file cap is {} MiB. The body cap is {} bytes, three \
         file caps and one MiB of envelope.\n\nschemas/ holds {} schemas.\n\nThere are {} \
         TODO lines under src/m00, and src/ holds {} Python files.\n",
        s.cap_mib,
        group(((3 * s.cap_mib + 1) * 1024 * 1024) as usize),
        words(s.schemas),
        s.todos,
        group(s.files)
    )
}

/// Builds the repository at `dest` (a new bare repository); returns the
/// first-parent commit ids, oldest first.
pub(crate) fn generate(dest: &Path, scale: Scale) -> Result<Vec<Oid>, git2::Error> {
    let repo = Repository::init_bare(dest)?;
    let odb = repo.odb()?;
    let mempack = odb.add_new_mempack_backend(1000)?;
    let mut rng = Lcg(0x5eed);
    let mut root = Dir::default();
    let blob = |text: &str| repo.blob(text.as_bytes());
    let per_sub = (scale.files / 200).max(1);
    let mut paths = Vec::with_capacity(scale.files);
    for top in 0..20 {
        for sub in 0..10 {
            for n in 0..per_sub {
                paths.push(format!("src/m{top:02}/s{sub}/f{n:03}.py"));
            }
        }
    }
    let todo_count = |root: &Dir, repo: &Repository| -> usize {
        let Some(m00) = root.dirs.get("src").and_then(|d| d.dirs.get("m00")) else {
            return 0;
        };
        let mut count = 0;
        for sub in m00.dirs.values() {
            for blob in sub.files.values() {
                if let Ok(b) = repo.find_blob(*blob) {
                    count += b.content().windows(4).filter(|w| w == b"TODO").count();
                }
            }
        }
        count
    };
    for path in &paths {
        let text = module(&mut rng, path, 0);
        root.set(path, blob(&text)?);
    }
    let mut file_count = paths.len();
    let mut schemas = 5usize;
    for k in 0..schemas {
        root.set(
            &format!("schemas/s{k:03}.schema.json"),
            blob(&format!("{{\"$id\": \"s{k}\", \"type\": \"object\"}}\n"))?,
        );
    }
    let mut cap = 8u64;
    root.set("pkg/limits.py", blob(&limits(cap, true, cap))?);
    root.set("recount.toml", blob(RULES)?);
    root.set(
        "README.md",
        blob("# generated\n\nA repository for recount's history benchmark.\n")?,
    );
    let mut stated = Stated {
        schemas,
        cap_mib: cap,
        todos: todo_count(&root, &repo),
        files: file_count,
    };
    root.set("docs/adr/0001-limits.md", blob(&record(&stated))?);

    let mut commits = Vec::with_capacity(scale.commits);
    let mut parent: Option<Oid> = None;
    for n in 0..scale.commits {
        let mut subject = format!("change {n}");
        if n > 0 {
            // Ordinary work: a few modules edited.
            for _ in 0..(1 + rng.below(5)) {
                let path = &paths[rng.below(paths.len() as u64) as usize];
                let text = module(&mut rng, path, n as u64);
                root.set(path, blob(&text)?);
            }
            // Now and then: a module added, a schema added, the cap raised,
            // the record brought up to date.
            if n % 97 == 0 {
                let path = format!("src/m{:02}/s{}/new{n:05}.py", rng.below(20), rng.below(10));
                let text = module(&mut rng, &path, n as u64);
                root.set(&path, blob(&text)?);
                paths.push(path);
                file_count += 1;
                subject = format!("add a module ({n})");
            }
            if n % 151 == 0 {
                root.set(
                    &format!("schemas/s{schemas:03}.schema.json"),
                    blob(&format!(
                        "{{\"$id\": \"s{schemas}\", \"type\": \"object\"}}\n"
                    ))?,
                );
                schemas += 1;
                subject = format!("publish schema {schemas} ({n})");
            }
            if n % 401 == 0 {
                cap += 2;
                root.set("pkg/limits.py", blob(&limits(cap, true, cap))?);
                subject = format!("raise the file cap to {cap} MiB ({n})");
            }
            if n % 307 == 0 {
                stated = Stated {
                    schemas,
                    cap_mib: cap,
                    todos: todo_count(&root, &repo),
                    files: file_count,
                };
                root.set("docs/adr/0001-limits.md", blob(&record(&stated))?);
                subject = format!("bring ADR 0001 up to date ({n})");
            }
        }
        let tree = repo.find_tree(root.write(&repo)?)?;
        let who = Signature::new(
            "recount bench",
            "bench@recount.invalid",
            &Time::new(EPOCH + 3600 * n as i64, 0),
        )?;
        let parents: Vec<git2::Commit<'_>> = parent
            .iter()
            .map(|p| repo.find_commit(*p))
            .collect::<Result<_, _>>()?;
        let parent_refs: Vec<&git2::Commit<'_>> = parents.iter().collect();
        let id = repo.commit(None, &who, &who, &subject, &tree, &parent_refs)?;
        commits.push(id);
        parent = Some(id);
    }
    // One pack for everything written.
    let mut pack = git2::Buf::new();
    mempack.dump(&repo, &mut pack)?;
    let mut writer = odb.packwriter()?;
    std::io::Write::write_all(&mut writer, &pack)
        .map_err(|e| git2::Error::from_str(&e.to_string()))?;
    writer.commit()?;
    mempack.reset()?;
    if let Some(last) = parent {
        repo.reference("refs/heads/main", last, true, "generated")?;
        repo.set_head("refs/heads/main")?;
    }
    Ok(commits)
}
