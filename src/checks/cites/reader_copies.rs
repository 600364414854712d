//! Stage 4, the citation family: the folders the records have their reader
//! copy from the tree (`cp -rfp inventory/sample inventory/mycluster`), read
//! once from every record's text. A path under the copy names the file the
//! copy holds, so the resolvers read it in the folder it was copied from: a
//! file still there resolves, one the source lost is a drift.

use std::sync::{Arc, OnceLock};

use regex::Regex;

/// The most copies kept: a page of commands is read, not a script library.
const MAX_COPIES: usize = 1000;

/// One recursive copy a record has its reader make of a folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct ReaderCopy {
    /// The folder copied, as written (no `./`, no trailing `/`).
    pub(super) source: String,
    /// The reader's copy, as written.
    pub(super) copy: String,
    /// The record and the line that say so, and the command as written
    /// (a few hundred bytes at most: the pattern bounds each part).
    pub(super) record: String,
    pub(super) line: usize,
    pub(super) command: String,
}

impl ReaderCopy {
    /// Where the record says so, for a message: the command as written and
    /// its page and line.
    pub(super) fn said(&self) -> String {
        format!("`{}` in {}:{}", self.command, self.record, self.line)
    }
}

fn copy_command() -> &'static Regex {
    static CP: OnceLock<Regex> = OnceLock::new();
    CP.get_or_init(|| {
        Regex::new(
            r"(?m)(?:^|[\s`$;&(|])cp((?:[ \t]+-[-A-Za-z]{1,20})+)[ \t]+([A-Za-z0-9_.][A-Za-z0-9_./-]{0,200}(?:/\*)?)[ \t]+([A-Za-z0-9_.][A-Za-z0-9_./-]{0,200})",
        )
        .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    })
}

/// Whether `cp`'s options copy folders: `-r`, `-R`, `-a` (in any group of
/// short options), `--recursive` or `--archive`.
fn recursive(options: &str) -> bool {
    options.split_whitespace().any(|option| {
        if let Some(long) = option.strip_prefix("--") {
            long == "recursive" || long == "archive"
        } else {
            option
                .strip_prefix('-')
                .is_some_and(|short| short.contains(['r', 'R', 'a']))
        }
    })
}

/// A folder as a command names it, from the root: no `./`, no trailing `/`,
/// `/.` or `/*` (its contents); `None` for one that climbs (`..`) or is
/// empty.
fn folder_named(written: &str) -> Option<String> {
    let written = written.strip_suffix("/*").unwrap_or(written);
    let mut folder = written.trim_start_matches("./");
    while let Some(rest) = folder
        .strip_suffix("/.")
        .or_else(|| folder.strip_suffix('/'))
    {
        folder = rest;
    }
    let climbs = folder.split('/').any(|part| part == ".." || part == ".");
    (!folder.is_empty() && !climbs).then(|| folder.to_owned())
}

/// Every recursive copy of a folder into another that `text` runs (`cp -r
/// inventory/sample inventory/mine`, `cp -a docs/* site`): its source and
/// destination folders, and the command's bytes (from `cp` to the
/// destination's end). A destination written with a variable names no
/// folder and is left out; one that ends mid-word is no command.
pub(super) fn folder_copies(
    text: &str,
) -> impl Iterator<Item = (String, String, std::ops::Range<usize>)> + '_ {
    let commands = text.contains("cp ") || text.contains("cp\t");
    copy_command()
        .captures_iter(text)
        .filter(move |_| commands)
        .filter_map(move |found| {
            let (options, source, copy) = (found.get(1)?, found.get(2)?, found.get(3)?);
            let ends_cleanly = text[copy.end()..]
                .chars()
                .next()
                .is_none_or(|c| c.is_whitespace() || "`;&|)\"'#".contains(c));
            if !ends_cleanly || !recursive(options.as_str()) {
                return None;
            }
            let source = folder_named(source.as_str())?;
            let copy_folder = folder_named(copy.as_str())?;
            // (From `cp`, two bytes before its options, to the copy's end.)
            (source != copy_folder).then(|| (source, copy_folder, options.start() - 2..copy.end()))
        })
}

/// Every recursive copy the records' texts have their reader make, in
/// record order; a destination written with a variable (`inventory/$NAME`)
/// names no folder and is left out.
pub(super) fn copies_in(records: &[(String, Arc<str>)]) -> Vec<ReaderCopy> {
    let mut copies = Vec::new();
    for (record, text) in records {
        for (source, copy_folder, command) in folder_copies(text) {
            copies.push(ReaderCopy {
                source,
                copy: copy_folder,
                record: record.clone(),
                line: text[..command.start].matches('\n').count() + 1,
                command: text[command]
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" "),
            });
            if copies.len() >= MAX_COPIES {
                return copies;
            }
        }
    }
    copies
}

/// The path `written` names in the source of the reader's copy it lies in,
/// with that copy: `inventory/mycluster/group_vars/all.yml` is
/// `inventory/sample/group_vars/all.yml` when a record copies
/// `inventory/sample` to `inventory/mycluster`. Only a copy whose source is
/// a folder of the tree (`is_folder`) and whose destination is not counts.
pub(super) fn in_source<'c>(
    copies: &'c [ReaderCopy],
    written: &str,
    is_folder: impl Fn(&str) -> bool,
) -> Option<(&'c ReaderCopy, String)> {
    let written = written.trim_start_matches("./").trim_end_matches('/');
    copies.iter().find_map(|copy| {
        let rest = written.strip_prefix(copy.copy.as_str())?;
        let rest = if rest.is_empty() {
            ""
        } else {
            rest.strip_prefix('/')?
        };
        if !is_folder(&copy.source) || is_folder(&copy.copy) {
            return None;
        }
        let inside = if rest.is_empty() {
            copy.source.clone()
        } else {
            format!("{}/{rest}", copy.source)
        };
        Some((copy, inside))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn copies(text: &str) -> Vec<(String, String, usize)> {
        copies_in(&[("docs/setup.md".to_owned(), Arc::from(text))])
            .into_iter()
            .map(|c| (c.source, c.copy, c.line))
            .collect()
    }

    #[test]
    fn reads_a_recursive_copy_in_a_code_block() {
        let text = "# Setup\n\n```sh\ncp -rfp inventory/sample inventory/mycluster\n```\n";
        assert_eq!(
            copies(text),
            vec![("inventory/sample".into(), "inventory/mycluster".into(), 4)]
        );
    }

    #[test]
    fn reads_long_options_and_trailing_slashes() {
        assert_eq!(
            copies("Run `cp --recursive ./conf/example/. ./conf/local/` first."),
            vec![("conf/example".into(), "conf/local".into(), 1)]
        );
    }

    #[test]
    fn leaves_out_file_copies_variables_and_climbing_paths() {
        assert!(copies("cp config.example.yml config.yml\n").is_empty());
        assert!(copies("cp -r inventory/sample inventory/$CLUSTER\n").is_empty());
        assert!(copies("cp -r ../shared/x local/x\n").is_empty());
        assert!(copies("scp -r host/a b/c\n").is_empty());
    }

    #[test]
    fn a_path_under_the_copy_is_read_in_its_source() {
        let found = copies_in(&[(
            "README.md".to_owned(),
            Arc::from("cp -a inventory/sample inventory/mycluster\n"),
        )]);
        let is_folder = |f: &str| f == "inventory/sample";
        let (copy, inside) = in_source(&found, "inventory/mycluster/group_vars/all.yml", is_folder)
            .expect("under the copy");
        assert_eq!(inside, "inventory/sample/group_vars/all.yml");
        assert_eq!(
            copy.said(),
            "`cp -a inventory/sample inventory/mycluster` in README.md:1"
        );
        assert!(in_source(&found, "inventory/myclusters/x.yml", is_folder).is_none());
        // A copy whose source the tree lacks proves nothing.
        assert!(in_source(&found, "inventory/mycluster/x.yml", |_| false).is_none());
    }
}
