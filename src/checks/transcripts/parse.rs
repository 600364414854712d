//! Stage 4 (the transcript family): reading a shell command line a record shows
//! into a pipeline recount knows how to re-run natively. Nothing here executes
//! anything; a line outside the supported family is refused with the part that
//! was not understood, so the record's reader learns why it was not re-run.

/// A word of the command line after quote removal; `glob` when an unquoted
/// `*`, `?` or `[` in it asks the shell to expand it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Word {
    pub text: String,
    pub glob: bool,
}

/// Why a command line is not re-run: what was not understood, and the part.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub why: String,
    pub part: String,
}

impl Refusal {
    fn new(why: impl Into<String>, part: impl Into<String>) -> Self {
        Refusal {
            why: why.into(),
            part: part.into(),
        }
    }

    /// One line: `why: `part``.
    pub fn text(&self) -> String {
        let part: String = self.part.chars().take(60).collect();
        if part.is_empty() {
            self.why.clone()
        } else {
            format!("{} (`{part}`)", self.why)
        }
    }
}

/// How a pattern is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Syntax {
    /// POSIX basic regular expression: the default of `grep` and `git grep`.
    #[default]
    Basic,
    Extended,
    Fixed,
}

/// The options `grep` and `git grep` share.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GrepOptions {
    pub patterns: Vec<String>,
    pub syntax: Syntax,
    pub ignore_case: bool,
    pub word: bool,
    pub invert: bool,
    pub line_number: bool,
    pub count: bool,
    pub files_only: bool,
    pub no_filename: bool,
    pub only_matching: bool,
    pub recursive: bool,
}

/// The command that produces the lines the rest of the pipeline reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// `git grep`: revisions (or paths; which, the repository decides) before
    /// `--`, path specs after.
    GitGrep {
        options: GrepOptions,
        revs: Vec<String>,
        specs: Vec<String>,
        /// Whether `--` separated the path specs.
        dashdash: bool,
    },
    /// `grep` over files and folders of the tree.
    Grep {
        options: GrepOptions,
        operands: Vec<Word>,
    },
    /// `ls` of a folder, files or a glob.
    Ls { operands: Vec<Word> },
    /// `git ls-files [SPEC…]`.
    LsFiles { specs: Vec<String> },
    /// `find DIR [-type f|d] [-name|-iname GLOB]`.
    Find {
        dir: String,
        name: Option<(String, bool)>,
        kind: Option<char>,
    },
    /// `git rev-list --count REV [-- PATH…]`.
    RevListCount { rev: String, paths: Vec<String> },
}

/// A stage after a `|`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Filter {
    WcLines,
    /// `cut -dD -fLIST`: 1-based inclusive ranges (`None` end = to the last).
    Cut {
        delimiter: char,
        fields: Vec<(usize, Option<usize>)>,
    },
    Sort {
        unique: bool,
        numeric: bool,
        reverse: bool,
    },
    Uniq {
        count: bool,
    },
    Head(usize),
    Tail(usize),
    Grep(GrepOptions),
}

/// A command line recount can re-run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pipeline {
    pub source: Source,
    pub filters: Vec<Filter>,
}

impl Pipeline {
    /// Whether the lines it prints come in an order the tools define (sorted,
    /// or in path order): otherwise only the set of lines is compared.
    pub fn ordered(&self) -> bool {
        let mut ordered = match &self.source {
            Source::GitGrep { .. } | Source::LsFiles { .. } | Source::RevListCount { .. } => true,
            Source::Grep { options, .. } => !options.recursive,
            // `ls` sorts by the reader's locale, `find` walks in directory order.
            Source::Ls { .. } | Source::Find { .. } => false,
        };
        for filter in &self.filters {
            if let Filter::Sort { .. } = filter {
                ordered = true;
            }
        }
        ordered
    }

    /// Whether a `sort` stage decides the order (a locale may collate it).
    pub fn sorted(&self) -> bool {
        self.filters
            .iter()
            .any(|f| matches!(f, Filter::Sort { .. }))
    }
}

/// Longest command line read; a longer one is not a transcript anyone re-runs.
const MAX_COMMAND_BYTES: usize = 4096;

/// Splits a command line into words and pipes, refusing what a shell would do
/// beyond quoting and pipes: substitution, expansion, redirection, lists.
pub fn tokenize(line: &str) -> Result<Vec<Option<Word>>, Refusal> {
    if line.len() > MAX_COMMAND_BYTES {
        return Err(Refusal::new("the command line is too long to read", ""));
    }
    let mut out: Vec<Option<Word>> = Vec::new();
    let mut chars = line.char_indices().peekable();
    let mut current: Option<Word> = None;
    let push = |out: &mut Vec<Option<Word>>, current: &mut Option<Word>| {
        if let Some(w) = current.take() {
            out.push(Some(w));
        }
    };
    while let Some((at, c)) = chars.next() {
        let rest = &line[at..];
        match c {
            ' ' | '\t' => push(&mut out, &mut current),
            '|' => {
                if rest.starts_with("||") {
                    return Err(Refusal::new("a command list is not re-run", "||"));
                }
                push(&mut out, &mut current);
                out.push(None);
            }
            '#' if current.is_none() => break,
            '\'' => {
                let word = current.get_or_insert_with(|| Word {
                    text: String::new(),
                    glob: false,
                });
                let mut closed = false;
                for (_, q) in chars.by_ref() {
                    if q == '\'' {
                        closed = true;
                        break;
                    }
                    word.text.push(q);
                }
                if !closed {
                    return Err(Refusal::new("an unterminated quote", rest));
                }
            }
            '"' => {
                let word = current.get_or_insert_with(|| Word {
                    text: String::new(),
                    glob: false,
                });
                let mut closed = false;
                while let Some((qat, q)) = chars.next() {
                    match q {
                        '"' => {
                            closed = true;
                            break;
                        }
                        '\\' => match chars.peek() {
                            Some(&(_, n @ ('"' | '\\' | '$' | '`'))) => {
                                word.text.push(n);
                                chars.next();
                            }
                            _ => word.text.push('\\'),
                        },
                        '$' | '`' => {
                            return Err(expansion(&line[qat..]));
                        }
                        _ => word.text.push(q),
                    }
                }
                if !closed {
                    return Err(Refusal::new("an unterminated quote", rest));
                }
            }
            '\\' => {
                let word = current.get_or_insert_with(|| Word {
                    text: String::new(),
                    glob: false,
                });
                match chars.next() {
                    Some((_, n)) => word.text.push(n),
                    None => {
                        return Err(Refusal::new(
                            "a line continuation with nothing after it",
                            "\\",
                        ));
                    }
                }
            }
            '$' | '`' => return Err(expansion(rest)),
            '>' | '<' => return Err(Refusal::new("a redirection is not re-run", token_at(rest))),
            ';' => return Err(Refusal::new("a command list is not re-run", ";")),
            '&' => {
                return Err(Refusal::new(
                    "a command list or background job is not re-run",
                    token_at(rest),
                ));
            }
            '(' | ')' => return Err(Refusal::new("a subshell is not re-run", token_at(rest))),
            '~' if current.is_none() => {
                return Err(Refusal::new(
                    "a path under a home folder is outside the repository",
                    token_at(rest),
                ));
            }
            '{' if current.is_none() && rest.contains('}') && rest.contains(',') => {
                return Err(Refusal::new(
                    "brace expansion is not re-run",
                    token_at(rest),
                ));
            }
            _ => {
                let word = current.get_or_insert_with(|| Word {
                    text: String::new(),
                    glob: false,
                });
                if matches!(c, '*' | '?' | '[') {
                    word.glob = true;
                }
                word.text.push(c);
            }
        }
    }
    push(&mut out, &mut current);
    Ok(out)
}

fn expansion(rest: &str) -> Refusal {
    let why = if rest.starts_with("$(") || rest.starts_with('`') {
        "command substitution is not re-run"
    } else {
        "a shell expansion is not re-run"
    };
    Refusal::new(why, token_at(rest))
}

/// The token starting at `rest`, for naming it.
fn token_at(rest: &str) -> String {
    rest.split_whitespace()
        .next()
        .unwrap_or("")
        .chars()
        .take(40)
        .collect()
}

/// Reads a command line as a pipeline recount can re-run.
pub fn parse(line: &str) -> Result<Pipeline, Refusal> {
    let tokens = tokenize(line)?;
    let mut stages: Vec<Vec<Word>> = vec![Vec::new()];
    for token in tokens {
        match token {
            Some(word) => stages.last_mut().map(|s| s.push(word)).unwrap_or_default(),
            None => stages.push(Vec::new()),
        }
    }
    if stages.iter().any(Vec::is_empty) {
        return Err(Refusal::new("an empty pipeline stage", line.trim()));
    }
    let mut stages = stages.into_iter();
    let first = stages.next().unwrap_or_default();
    let source = parse_source(&first)?;
    let filters = stages
        .map(|s| parse_filter(&s))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Pipeline { source, filters })
}

fn texts(words: &[Word]) -> Vec<&str> {
    words.iter().map(|w| w.text.as_str()).collect()
}

fn unknown_command(words: &[Word]) -> Refusal {
    let name = texts(words).into_iter().take(2).collect::<Vec<_>>();
    let name = match name.as_slice() {
        ["git", sub] => format!("git {sub}"),
        [first, ..] => (*first).to_owned(),
        [] => String::new(),
    };
    Refusal::new("a command recount does not re-run", name)
}

fn parse_source(words: &[Word]) -> Result<Source, Refusal> {
    let all = texts(words);
    match all.as_slice() {
        ["git", "grep", ..] => parse_git_grep(&words[2..]),
        ["grep", ..] => {
            let (options, operands) = parse_grep_args(&words[1..], GREP_FLAGS, "grep")?;
            Ok(Source::Grep { options, operands })
        }
        ["ls", ..] => parse_ls(&words[1..]),
        ["git", "ls-files", ..] => {
            let mut specs = Vec::new();
            for w in &words[2..] {
                match w.text.as_str() {
                    "--" => {}
                    t if t.starts_with('-') => {
                        return Err(Refusal::new(
                            "an option of git ls-files recount does not know",
                            t,
                        ));
                    }
                    t => specs.push(t.to_owned()),
                }
            }
            Ok(Source::LsFiles { specs })
        }
        ["find", ..] => parse_find(&words[1..]),
        ["git", "rev-list", ..] => parse_rev_list(&words[2..]),
        _ => Err(unknown_command(words)),
    }
}

/// Flags `grep` takes (single letters).
const GREP_FLAGS: &str = "cnrRhoiwFEvlsI";
/// Flags `git grep` takes.
const GIT_GREP_FLAGS: &str = "nlchiwFEIrG";

fn long_flag(flag: &str) -> Option<char> {
    Some(match flag {
        "--count" => 'c',
        "--line-number" => 'n',
        "--recursive" => 'r',
        "--no-filename" => 'h',
        "--only-matching" => 'o',
        "--ignore-case" => 'i',
        "--word-regexp" => 'w',
        "--fixed-strings" => 'F',
        "--extended-regexp" => 'E',
        "--basic-regexp" => 'G',
        "--invert-match" => 'v',
        "--files-with-matches" | "--name-only" => 'l',
        "--no-color" | "--color=never" => 'I',
        _ => return None,
    })
}

fn parse_grep_args(
    words: &[Word],
    flags: &str,
    tool: &str,
) -> Result<(GrepOptions, Vec<Word>), Refusal> {
    let mut options = GrepOptions::default();
    let mut rest = Vec::new();
    let mut only_operands = false;
    let mut i = 0;
    while i < words.len() {
        let word = &words[i];
        let t = word.text.as_str();
        i += 1;
        if only_operands || !t.starts_with('-') || t == "-" {
            rest.push(word.clone());
            continue;
        }
        if t == "--" {
            only_operands = true;
            rest.push(word.clone());
            continue;
        }
        if t == "-e" || t == "--regexp" {
            let Some(p) = words.get(i) else {
                return Err(Refusal::new("`-e` with no pattern", t));
            };
            options.patterns.push(p.text.clone());
            i += 1;
            continue;
        }
        if let Some(p) = t.strip_prefix("--regexp=") {
            options.patterns.push(p.to_owned());
            continue;
        }
        if t.starts_with("--") {
            match long_flag(t) {
                Some(c) if flags.contains(c) || c == 'I' => set_flag(&mut options, c),
                _ => {
                    return Err(Refusal::new(
                        format!("an option of {tool} recount does not re-run"),
                        t,
                    ));
                }
            }
            continue;
        }
        let letters: Vec<char> = t[1..].chars().collect();
        let mut j = 0;
        while j < letters.len() {
            let c = letters[j];
            j += 1;
            if c == 'e' {
                let tail: String = letters[j..].iter().collect();
                if tail.is_empty() {
                    let Some(p) = words.get(i) else {
                        return Err(Refusal::new("`-e` with no pattern", t));
                    };
                    options.patterns.push(p.text.clone());
                    i += 1;
                } else {
                    options.patterns.push(tail);
                }
                break;
            }
            if !flags.contains(c) {
                return Err(Refusal::new(
                    format!("an option of {tool} recount does not re-run"),
                    format!("-{c}"),
                ));
            }
            set_flag(&mut options, c);
        }
    }
    if options.patterns.is_empty() {
        let at = rest.iter().position(|w| w.text != "--");
        match at {
            Some(at) => {
                let p = rest.remove(at);
                options.patterns.push(p.text);
            }
            None => return Err(Refusal::new(format!("{tool} with no pattern"), tool)),
        }
    }
    Ok((options, rest))
}

fn set_flag(options: &mut GrepOptions, c: char) {
    match c {
        'c' => options.count = true,
        'n' => options.line_number = true,
        'r' | 'R' => options.recursive = true,
        'h' => options.no_filename = true,
        'o' => options.only_matching = true,
        'i' => options.ignore_case = true,
        'w' => options.word = true,
        'F' => options.syntax = Syntax::Fixed,
        'E' => options.syntax = Syntax::Extended,
        'G' => options.syntax = Syntax::Basic,
        'v' => options.invert = true,
        'l' => options.files_only = true,
        // -s (quiet about unreadable files), -I (skip binary files): recount
        // reads no unreadable file and skips binary ones anyway.
        _ => {}
    }
}

fn parse_git_grep(words: &[Word]) -> Result<Source, Refusal> {
    let (options, rest) = parse_grep_args(words, GIT_GREP_FLAGS, "git grep")?;
    if options.only_matching || options.invert {
        return Err(Refusal::new(
            "an option of git grep recount does not re-run",
            "-o/-v",
        ));
    }
    let mut revs = Vec::new();
    let mut specs = Vec::new();
    let mut dashdash = false;
    for w in rest {
        if w.text == "--" {
            dashdash = true;
        } else if dashdash {
            specs.push(w.text);
        } else {
            revs.push(w.text);
        }
    }
    Ok(Source::GitGrep {
        options,
        revs,
        specs,
        dashdash,
    })
}

fn parse_ls(words: &[Word]) -> Result<Source, Refusal> {
    let mut operands = Vec::new();
    for w in words {
        match w.text.as_str() {
            "-1" | "--" => {}
            t if t.starts_with('-') => {
                return Err(Refusal::new("an option of ls recount does not re-run", t));
            }
            _ => operands.push(w.clone()),
        }
    }
    Ok(Source::Ls { operands })
}

fn parse_find(words: &[Word]) -> Result<Source, Refusal> {
    let mut dir = None;
    let mut name = None;
    let mut kind = None;
    let mut i = 0;
    while i < words.len() {
        let t = words[i].text.as_str();
        i += 1;
        match t {
            "-name" | "-iname" => {
                let Some(p) = words.get(i) else {
                    return Err(Refusal::new("`-name` with no pattern", t));
                };
                name = Some((p.text.clone(), t == "-iname"));
                i += 1;
            }
            "-type" => {
                match words.get(i).map(|w| w.text.as_str()) {
                    Some("f") => kind = Some('f'),
                    Some("d") => kind = Some('d'),
                    other => {
                        return Err(Refusal::new(
                            "a -type recount does not re-run",
                            other.unwrap_or("-type"),
                        ));
                    }
                }
                i += 1;
            }
            _ if t.starts_with('-') => {
                return Err(Refusal::new(
                    "an expression of find recount does not re-run",
                    t,
                ));
            }
            _ if dir.is_none() => dir = Some(t.to_owned()),
            _ => return Err(Refusal::new("find with more than one starting folder", t)),
        }
    }
    Ok(Source::Find {
        dir: dir.unwrap_or_else(|| ".".to_owned()),
        name,
        kind,
    })
}

fn parse_rev_list(words: &[Word]) -> Result<Source, Refusal> {
    let all = texts(words);
    if all.first() != Some(&"--count") {
        return Err(Refusal::new(
            "git rev-list is re-run only as `git rev-list --count REV -- PATH`",
            all.first().copied().unwrap_or("git rev-list"),
        ));
    }
    let mut rev = None;
    let mut paths = Vec::new();
    let mut after = false;
    for t in &all[1..] {
        match *t {
            "--" => after = true,
            t if after => paths.push(t.to_owned()),
            t if t.starts_with('-') => {
                return Err(Refusal::new(
                    "an option of git rev-list recount does not re-run",
                    t,
                ));
            }
            t if rev.is_none() => rev = Some(t.to_owned()),
            t => return Err(Refusal::new("git rev-list with more than one revision", t)),
        }
    }
    Ok(Source::RevListCount {
        rev: rev.unwrap_or_else(|| "HEAD".to_owned()),
        paths,
    })
}

fn number_arg(words: &[Word], i: &mut usize, tool: &str) -> Result<usize, Refusal> {
    let t = words[*i].text.as_str();
    let parse = |s: &str| {
        s.parse::<usize>()
            .map_err(|_| Refusal::new(format!("a count {tool} recount does not read"), t))
    };
    if let Some(n) = t.strip_prefix("-n") {
        if n.is_empty() {
            *i += 1;
            let Some(w) = words.get(*i) else {
                return Err(Refusal::new(format!("`{tool} -n` with no count"), t));
            };
            return parse(&w.text);
        }
        return parse(n);
    }
    if let Some(n) = t.strip_prefix("--lines=") {
        return parse(n);
    }
    match t.strip_prefix('-') {
        Some(n) => parse(n),
        None => Err(Refusal::new(format!("{tool} of a file is not re-run"), t)),
    }
}

fn parse_filter(words: &[Word]) -> Result<Filter, Refusal> {
    let all = texts(words);
    match all.as_slice() {
        ["wc", "-l"] => Ok(Filter::WcLines),
        ["wc", ..] => Err(Refusal::new(
            "wc is re-run only as `wc -l`",
            all[1..].join(" "),
        )),
        ["head" | "tail", ..] => {
            let tool = all[0];
            let n = match words.len() {
                1 => 10,
                _ => {
                    let mut i = 1;
                    let n = number_arg(words, &mut i, tool)?;
                    if i + 1 != words.len() {
                        return Err(Refusal::new(
                            format!("{tool} of a file is not re-run"),
                            all[i + 1..].join(" "),
                        ));
                    }
                    n
                }
            };
            Ok(if tool == "head" {
                Filter::Head(n)
            } else {
                Filter::Tail(n)
            })
        }
        ["cut", ..] => parse_cut(words),
        ["sort", ..] => {
            let (mut unique, mut numeric, mut reverse) = (false, false, false);
            for t in &all[1..] {
                let Some(letters) = t.strip_prefix('-').filter(|l| !l.is_empty()) else {
                    return Err(Refusal::new("sort of a file is not re-run", *t));
                };
                for c in letters.chars() {
                    match c {
                        'u' => unique = true,
                        'n' => numeric = true,
                        'r' => reverse = true,
                        _ => {
                            return Err(Refusal::new(
                                "an option of sort recount does not re-run",
                                format!("-{c}"),
                            ));
                        }
                    }
                }
            }
            Ok(Filter::Sort {
                unique,
                numeric,
                reverse,
            })
        }
        ["uniq"] => Ok(Filter::Uniq { count: false }),
        ["uniq", "-c"] => Ok(Filter::Uniq { count: true }),
        ["uniq", ..] => Err(Refusal::new(
            "an option of uniq recount does not re-run",
            all[1..].join(" "),
        )),
        ["grep", ..] => {
            let (options, rest) = parse_grep_args(&words[1..], "cvinwFEohHs", "grep")?;
            if let Some(file) = rest.first() {
                return Err(Refusal::new(
                    "grep of a file inside a pipeline is not re-run",
                    file.text.clone(),
                ));
            }
            Ok(Filter::Grep(options))
        }
        _ => Err(unknown_command(words)),
    }
}

fn parse_cut(words: &[Word]) -> Result<Filter, Refusal> {
    let mut delimiter = '\t';
    let mut fields = None;
    let mut i = 1;
    while i < words.len() {
        let t = words[i].text.as_str();
        i += 1;
        let mut value = |flag: &str| -> Result<String, Refusal> {
            let v = &t[flag.len()..];
            if v.is_empty() {
                let w = words
                    .get(i)
                    .ok_or_else(|| Refusal::new(format!("`cut {flag}` with no value"), t))?;
                i += 1;
                Ok(w.text.clone())
            } else {
                Ok(v.to_owned())
            }
        };
        if t.starts_with("-d") {
            let d = value("-d")?;
            let mut chars = d.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) => delimiter = c,
                _ => {
                    return Err(Refusal::new(
                        "a cut delimiter of more than one character",
                        d,
                    ));
                }
            }
        } else if t.starts_with("-f") {
            let list = value("-f")?;
            fields = Some(parse_fields(&list)?);
        } else {
            return Err(Refusal::new("an option of cut recount does not re-run", t));
        }
    }
    match fields {
        Some(fields) => Ok(Filter::Cut { delimiter, fields }),
        None => Err(Refusal::new("cut is re-run only with -f", "cut")),
    }
}

fn parse_fields(list: &str) -> Result<Vec<(usize, Option<usize>)>, Refusal> {
    let bad = || Refusal::new("a cut field list recount does not read", list);
    let mut out = Vec::new();
    for part in list.split(',') {
        let num = |s: &str| s.parse::<usize>().ok().filter(|n| *n > 0);
        let range = match part.split_once('-') {
            None => {
                let n = num(part).ok_or_else(bad)?;
                (n, Some(n))
            }
            Some(("", end)) => (1, Some(num(end).ok_or_else(bad)?)),
            Some((start, "")) => (num(start).ok_or_else(bad)?, None),
            Some((start, end)) => (num(start).ok_or_else(bad)?, Some(num(end).ok_or_else(bad)?)),
        };
        out.push(range);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(line: &str) -> Refusal {
        parse(line).expect_err(line)
    }

    #[test]
    fn the_seed_forms_parse() {
        let p = parse(
            r#"git grep -n "tool-context" be977ea7 -- packages schemas docs tools | cut -d: -f2,3"#,
        )
        .unwrap();
        match &p.source {
            Source::GitGrep {
                options,
                revs,
                specs,
                ..
            } => {
                assert!(options.line_number);
                assert_eq!(options.patterns, ["tool-context"]);
                assert_eq!(revs, &["be977ea7"]);
                assert_eq!(specs.len(), 4);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            p.filters,
            [Filter::Cut {
                delimiter: ':',
                fields: vec![(2, Some(2)), (3, Some(3))]
            }]
        );
        let p = parse("ls schemas/mcp/*-input.schema.json | wc -l").unwrap();
        assert!(matches!(&p.source, Source::Ls { operands } if operands[0].glob));
        assert_eq!(p.filters, [Filter::WcLines]);
        let p = parse("grep -c '@_tool(' src/tools.py").unwrap();
        assert!(
            matches!(&p.source, Source::Grep { options, operands } if options.count && options.patterns == ["@_tool("] && operands.len() == 1)
        );
    }

    #[test]
    fn what_a_shell_would_do_beyond_pipes_is_refused_by_name() {
        assert_eq!(refused("rm -rf /").part, "rm");
        assert!(
            refused("grep -c x $(git ls-files)")
                .why
                .contains("substitution")
        );
        assert!(refused("grep -c x `ls`").why.contains("substitution"));
        assert!(refused("git grep x > out.txt").why.contains("redirection"));
        assert!(refused("git grep x 2>&1").why.contains("redirection"));
        assert!(refused("grep 'x file").why.contains("unterminated"));
        assert!(refused("ls && rm x").why.contains("list"));
        assert!(refused("grep x ~/.bashrc").why.contains("home"));
        assert_eq!(refused("pytest --collect-only -q").part, "pytest");
        assert_eq!(refused("git grep -A3 x").part, "-A");
        assert_eq!(refused("git log --oneline").part, "git log");
        assert!(refused("grep -c x | xargs rm").part == "xargs");
        assert!(refused("ls |").why.contains("empty"));
    }

    #[test]
    fn quotes_and_escapes_make_one_word() {
        let words = tokenize(r#"grep -e 'a b' "c \"d\"" e\ f"#).unwrap();
        let texts: Vec<String> = words.into_iter().flatten().map(|w| w.text).collect();
        assert_eq!(texts, ["grep", "-e", "a b", "c \"d\"", "e f"]);
    }

    #[test]
    fn filters_read_their_counts_and_fields() {
        let p = parse(
            "git ls-files | sort -u | uniq -c | head -n 3 | tail -2 | grep -v x | cut -d, -f1-2,4-",
        )
        .unwrap();
        assert_eq!(
            p.filters,
            [
                Filter::Sort {
                    unique: true,
                    numeric: false,
                    reverse: false
                },
                Filter::Uniq { count: true },
                Filter::Head(3),
                Filter::Tail(2),
                Filter::Grep(GrepOptions {
                    patterns: vec!["x".into()],
                    invert: true,
                    ..Default::default()
                }),
                Filter::Cut {
                    delimiter: ',',
                    fields: vec![(1, Some(2)), (4, None)]
                },
            ]
        );
        assert!(parse("git ls-files | head -n").is_err());
        assert!(parse("git ls-files | cut -f0").is_err());
    }
}
