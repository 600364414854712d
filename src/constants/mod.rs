//! Stage 2a of the pipeline: named values read from source code with real parsers
//! (tree-sitter), evaluated exactly, following references to other constants in the
//! same module and to names imported from other modules of the same repository.
//!
//! Each language module (`python`, `rust`, `typescript`, `go`) turns one parsed file
//! into a `ModuleTable`: its module-level bindings, each with a small
//! language-neutral expression (`SrcExpr`) and, when the value is a literal
//! collection, its entry count. The tree is dropped once the table is built, so a
//! file is parsed at most once per [`Constants`]. Evaluation lives here: it follows
//! names across definitions and files, detects cycles, and does every operation with
//! the checked arithmetic of `arith`. Anything it cannot evaluate exactly is an
//! error that says what it met; it never guesses.
//!
//! `expr` is the separate, tiny expression language of rule files
//! (`3 * MAX_SOURCE_FILE_BYTES + 1 MiB`).

pub mod arith;
pub mod expr;
pub mod go;
pub mod python;
pub mod rust;
pub mod typescript;

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

use rayon::prelude::*;
use tree_sitter::Node;

use crate::limits::Depth;

use std::ops::Range;

use crate::number::Number;
use crate::snapshot::Snapshot;

/// A constant declared in a `[constants]` table.
#[derive(Debug, Clone)]
pub struct ConstantDecl {
    pub file: String,
    /// Name in the source file.
    pub source_name: String,
    pub origin: usize,
    pub span: Range<usize>,
}
pub use arith::ArithError;

/// A constant read from source and evaluated exactly.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Constant {
    pub name: String,
    pub value: Number,
    /// Repository-relative path of the file that defines it (after following imports).
    pub file: String,
    /// 1-based line of the defined name.
    pub line: usize,
    /// 1-based column of the defined name, in characters.
    pub column: usize,
    /// The defining expression as written, e.g. `25 * 1024 * 1024`.
    pub source: String,
}

/// The number of entries of a literal collection bound to a module-level name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entries {
    pub name: String,
    pub file: String,
    pub count: usize,
    /// First and last line (1-based) of the whole binding statement.
    pub first_line: usize,
    pub last_line: usize,
}

/// Why a constant could not be read or evaluated.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConstantError {
    #[error("no supported source file in the snapshot defines `{name}` at module level")]
    NotFound { name: String },
    #[error(
        "`{name}` is defined in {} places ({}); name the file that holds the one you mean",
        candidates.len(),
        candidates.join(", ")
    )]
    Ambiguous {
        name: String,
        /// Every candidate as `file:line`, sorted.
        candidates: Vec<String>,
    },
    #[error("{file} does not define `{name}` at module level{}", defined_note(defined, *defined_total))]
    NotInFile {
        name: String,
        file: String,
        /// The names the file does define, when there are few enough to list.
        defined: Vec<String>,
        defined_total: usize,
    },
    #[error("{file} is not in the snapshot")]
    FileNotFound { file: String },
    #[error(
        "{file} is not a file recount reads constants from (it reads .py, .rs, .ts, .mts, .cts, .tsx, .js, .mjs, .cjs, .jsx and .go)"
    )]
    UnsupportedFile { file: String },
    #[error("{file}:{line}: `{name}` cannot be evaluated statically: it {why}")]
    NotStatic {
        name: String,
        file: String,
        line: usize,
        why: String,
    },
    #[error("{file}:{line}: evaluating `{name}` failed: {problem}")]
    Arithmetic {
        name: String,
        file: String,
        line: usize,
        problem: ArithError,
    },
    #[error("constants refer to each other in a cycle: {}", chain.join(" -> "))]
    Cycle {
        /// `NAME (file:line)` for each step, ending where it started.
        chain: Vec<String>,
    },
    #[error(
        "{file}:{line}: module `{module}` matches {} files ({}); recount cannot tell which one Python would import",
        candidates.len(),
        candidates.join(", ")
    )]
    AmbiguousModule {
        module: String,
        file: String,
        line: usize,
        candidates: Vec<String>,
    },
    #[error("{file}:{line}: `{name}` is bound to {what}, not a literal collection")]
    NotACollection {
        name: String,
        file: String,
        line: usize,
        what: String,
    },
    #[error("could not read {file}: {message}")]
    Read { file: String, message: String },
    #[error("could not parse {file}: {message}")]
    Parse { file: String, message: String },
}

fn defined_note(defined: &[String], total: usize) -> String {
    if total == 0 {
        " (it defines no constants recount can read)".to_string()
    } else if defined.len() == total {
        format!(" (it defines {})", defined.join(", "))
    } else {
        format!(" (it defines {total} other names)")
    }
}

/// The most names a `NotInFile` error lists.
const LISTED_NAMES: usize = 12;
/// How many constants a chain of references may pass through.
const MAX_CHAIN: usize = 64;
/// How deep the evaluation may go counted over the whole chain: each constant's
/// expression nests within the one that refers to it, so the stack the evaluator
/// uses is the sum (200 constants each nested 150 deep overflowed it).
const MAX_CHAIN_NESTING: usize = 400;

/// The definitions being evaluated, outermost first, and how deep the
/// expression that referred to the innermost one had nested (summed along the
/// chain): what bounds the evaluator's recursion across references.
#[derive(Debug, Default)]
struct Chain {
    keys: Vec<(String, usize)>,
    base: usize,
}

impl Chain {
    /// Runs `follow` (the evaluation of a referred constant) as nested `depth`
    /// levels deeper than the referring definition.
    fn nested<T>(&mut self, depth: Depth, follow: impl FnOnce(&mut Chain) -> T) -> T {
        let outer = self.base;
        self.base += depth.level() + 1;
        let result = follow(self);
        self.base = outer;
        result
    }
}

impl std::ops::Deref for Chain {
    type Target = Vec<(String, usize)>;

    fn deref(&self) -> &Self::Target {
        &self.keys
    }
}

impl std::ops::DerefMut for Chain {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.keys
    }
}

/// Source languages, chosen by file extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Language {
    Python,
    Rust,
    TypeScript,
    Tsx,
    Go,
}

impl Language {
    pub(crate) fn of_path(path: &str) -> Option<Language> {
        let file = path.rsplit('/').next().unwrap_or(path);
        let extension = file.rsplit_once('.').map(|(_, ext)| ext)?;
        match extension {
            "py" => Some(Language::Python),
            "rs" => Some(Language::Rust),
            "ts" | "mts" | "cts" | "js" | "mjs" | "cjs" => Some(Language::TypeScript),
            "tsx" | "jsx" => Some(Language::Tsx),
            "go" => Some(Language::Go),
            _ => None,
        }
    }

    fn grammar(self) -> tree_sitter::Language {
        match self {
            Language::Python => tree_sitter_python::LANGUAGE.into(),
            Language::Rust => tree_sitter_rust::LANGUAGE.into(),
            Language::TypeScript => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
            Language::Tsx => tree_sitter_typescript::LANGUAGE_TSX.into(),
            Language::Go => tree_sitter_go::LANGUAGE.into(),
        }
    }

    fn is_javascript(self) -> bool {
        matches!(self, Language::TypeScript | Language::Tsx)
    }
}

/// Whether a value is an integer or a floating-point number in its language; it
/// decides what `/` and the bitwise operators mean (Rust `7 / 2` is 3, `7.0 / 2.0`
/// is 3.5; JavaScript bitwise operators work on 32 bits unless on bigints).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NumKind {
    Int,
    Float,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum UnaryOp {
    Neg,
    Plus,
    BitNot,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BinaryOp {
    Add,
    Sub,
    Mul,
    /// Python `/`: always exact division.
    TrueDiv,
    /// Python `//`.
    FloorDiv,
    /// C-family `/`: truncating on two integers, exact otherwise.
    Div,
    /// Python `%`.
    FloorMod,
    /// C-family `%`.
    Rem,
    Pow,
    Shl,
    Shr,
    /// JavaScript `>>>`.
    UShr,
    BitAnd,
    BitOr,
    BitXor,
    /// Go `&^`.
    BitClear,
}

/// A language-neutral expression extracted from a definition's value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum SrcExpr {
    Literal(Number, NumKind),
    /// A bare name, resolved in the defining module.
    Name(String),
    /// A dotted or `::` path (`paths.MAX_X`, `super::LIMIT`).
    Path(Vec<String>),
    Unary(UnaryOp, Box<SrcExpr>),
    Binary(BinaryOp, Box<SrcExpr>, Box<SrcExpr>),
    /// A numeric conversion (`x as u32`, `int64(x)`), to a type name.
    Cast(Box<SrcExpr>, String),
    /// Something that cannot be evaluated, with a verb phrase saying why.
    NotStatic(String),
    /// A literal that does not fit.
    Invalid(ArithError),
}

/// What a binding's value is, as far as counting entries goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Collection {
    Count(usize),
    /// Rust `[value; N]`: the count is the value of the length expression.
    Repeat(SrcExpr),
    /// Not a literal collection: a noun phrase saying what it is.
    Not(String),
}

/// One module-level binding of a name to a value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Definition {
    pub name: String,
    /// The inline `mod` blocks (Rust) the definition sits in, outermost first.
    pub scope: Vec<String>,
    pub line: usize,
    pub column: usize,
    pub first_line: usize,
    pub last_line: usize,
    pub source: String,
    pub value: SrcExpr,
    /// Its declared type (`const X: u32`), which fixes its kind and range.
    pub declared_type: Option<String>,
    pub collection: Collection,
}

/// A module path in a Python import: `..security.paths` is level 2, `[security, paths]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ModuleRef {
    pub level: usize,
    pub dotted: Vec<String>,
}

impl ModuleRef {
    fn with(&self, more: impl IntoIterator<Item = String>) -> ModuleRef {
        let mut dotted = self.dotted.clone();
        dotted.extend(more);
        ModuleRef {
            level: self.level,
            dotted,
        }
    }

    fn display(&self) -> String {
        format!("{}{}", ".".repeat(self.level), self.dotted.join("."))
    }
}

/// A name bound by a Python import: `from M import X as Y` binds `Y` to (M, Some(X));
/// `import a.b as c` binds `c` to (a.b, None).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Import {
    pub module: ModuleRef,
    pub name: Option<String>,
    pub line: usize,
}

/// Everything recount needs from one parsed source file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ModuleTable {
    pub language: Language,
    pub definitions: Vec<Definition>,
    pub imports: BTreeMap<String, Vec<Import>>,
    /// Lines where a name is bound some other way (`X += 1`, `A, B = ...`, `def X`):
    /// such a name has no single static value.
    pub other_bindings: BTreeMap<String, Vec<usize>>,
    /// Go package name.
    pub package: Option<String>,
    /// Rust: the `use super::...` paths each inline module declares, by scope.
    pub super_uses: BTreeMap<Vec<String>, Vec<String>>,
}

impl ModuleTable {
    pub(crate) fn new(language: Language) -> ModuleTable {
        ModuleTable {
            language,
            definitions: Vec::new(),
            imports: BTreeMap::new(),
            other_bindings: BTreeMap::new(),
            package: None,
            super_uses: BTreeMap::new(),
        }
    }

    fn indices_named<'a>(&'a self, name: &'a str) -> impl Iterator<Item = usize> + 'a {
        self.definitions
            .iter()
            .enumerate()
            .filter(move |(_, d)| d.name == name)
            .map(|(i, _)| i)
    }

    /// The definitions a name given by a user denotes: for Rust, `a::X` selects the
    /// scope; a bare name prefers the file's root scope, then any single nested one.
    fn user_lookup(&self, name: &str) -> Vec<usize> {
        if self.language == Language::Rust && name.contains("::") {
            let mut segments: Vec<&str> = name.split("::").collect();
            let last = segments.pop().unwrap_or_default();
            return self
                .indices_named(last)
                .filter(|&i| {
                    self.definitions.get(i).is_some_and(|d| {
                        d.scope
                            .iter()
                            .map(String::as_str)
                            .eq(segments.iter().copied())
                    })
                })
                .collect();
        }
        let all: Vec<usize> = self.indices_named(name).collect();
        if self.language == Language::Rust {
            let root: Vec<usize> = all
                .iter()
                .copied()
                .filter(|&i| self.definitions.get(i).is_some_and(|d| d.scope.is_empty()))
                .collect();
            if !root.is_empty() {
                return root;
            }
        }
        all
    }

    fn defined_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self
            .definitions
            .iter()
            .map(|d| {
                if d.scope.is_empty() {
                    d.name.clone()
                } else {
                    format!("{}::{}", d.scope.join("::"), d.name)
                }
            })
            .collect();
        names.sort();
        names.dedup();
        names
    }

    /// Every line binding `name` at module level, for the "bound more than once" check.
    fn binding_lines(&self, name: &str) -> Vec<usize> {
        let mut lines: Vec<usize> = self
            .definitions
            .iter()
            .filter(|d| d.name == name && d.scope.is_empty())
            .map(|d| d.line)
            .collect();
        lines.extend(self.imports.get(name).into_iter().flatten().map(|i| i.line));
        lines.extend(self.other_bindings.get(name).into_iter().flatten().copied());
        lines.sort_unstable();
        lines
    }
}

/// A value with the kind its language gives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Evaluated {
    value: Number,
    kind: NumKind,
    /// The width of the unsigned integer type the value is known to have, which
    /// decides what a bitwise not gives (`!0u32` is 4294967295, not -1).
    unsigned_bits: Option<u32>,
}

/// A file that defines a searched name, with the indices of its definitions.
type Hit = (String, Arc<ModuleTable>, Vec<usize>);

type TableSlot = Arc<OnceLock<Result<Arc<ModuleTable>, ConstantError>>>;

/// Reads and evaluates constants from one snapshot. Files are parsed lazily, at most
/// once each, and evaluated values are remembered; safe to share across threads.
pub struct Constants {
    snapshot: Arc<dyn Snapshot>,
    texts: Mutex<HashMap<String, Option<Arc<str>>>>,
    tables: Mutex<HashMap<String, TableSlot>>,
    values: Mutex<HashMap<(String, usize), Result<Evaluated, ConstantError>>>,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // A poisoned cache only means another thread panicked mid-insert; the maps are
    // still consistent (every insert is a single call), so keep using them.
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Where an evaluation is: the definition whose value is being computed.
struct Site<'a> {
    file: &'a str,
    table: &'a Arc<ModuleTable>,
    definition: &'a Definition,
}

impl Site<'_> {
    fn not_static(&self, why: String) -> ConstantError {
        ConstantError::NotStatic {
            name: self.definition.name.clone(),
            file: self.file.to_string(),
            line: self.definition.line,
            why,
        }
    }

    fn arithmetic(&self, problem: ArithError) -> ConstantError {
        ConstantError::Arithmetic {
            name: self.definition.name.clone(),
            file: self.file.to_string(),
            line: self.definition.line,
            problem,
        }
    }
}

impl Constants {
    pub fn new(snapshot: Arc<dyn Snapshot>) -> Constants {
        Constants {
            snapshot,
            texts: Mutex::new(HashMap::new()),
            tables: Mutex::new(HashMap::new()),
            values: Mutex::new(HashMap::new()),
        }
    }

    /// Finds the module-level definition of `name` and evaluates it exactly. With
    /// `file`, only that file is read (a Python name it imports is followed to its
    /// definition); without, every supported source file containing the name is.
    pub fn resolve(&self, name: &str, file: Option<&str>) -> Result<Constant, ConstantError> {
        match file {
            Some(file) => self.resolve_in(name, file),
            None => self.resolve_anywhere(name),
        }
    }

    /// Counts the entries of the literal collection bound to `name` in `file`.
    pub fn literal_entries(&self, file: &str, name: &str) -> Result<Entries, ConstantError> {
        let table = self.checked_table(file)?;
        let indices = table.user_lookup(name);
        let index = match indices.as_slice() {
            [] => return Err(not_in_file(name, file, &table)),
            // Outside Rust, several bindings are one name bound repeatedly, which the
            // binding check below reports.
            [index, ..] if indices.len() == 1 || table.language != Language::Rust => *index,
            _ => {
                return Err(ConstantError::Ambiguous {
                    name: name.to_string(),
                    candidates: indices
                        .iter()
                        .filter_map(|&i| table.definitions.get(i))
                        .map(|d| format!("{file}:{}", d.line))
                        .collect(),
                });
            }
        };
        let Some(definition) = table.definitions.get(index) else {
            return Err(not_in_file(name, file, &table));
        };
        let site = Site {
            file,
            table: &table,
            definition,
        };
        if definition.scope.is_empty() {
            let lines = table.binding_lines(&definition.name);
            if lines.len() > 1 {
                return Err(site.not_static(bound_repeatedly(&definition.name, &lines)));
            }
        }
        let count = match &definition.collection {
            Collection::Count(count) => *count,
            Collection::Not(what) => {
                return Err(ConstantError::NotACollection {
                    name: definition.name.clone(),
                    file: file.to_string(),
                    line: definition.line,
                    what: what.clone(),
                });
            }
            Collection::Repeat(length) => {
                let mut stack = Chain::default();
                let length = self
                    .eval_expr(&site, length, &mut stack, Depth::ROOT, None)?
                    .value;
                arith::as_integer(&length)
                    .and_then(|n| usize::try_from(n).ok())
                    .ok_or_else(|| {
                        site.not_static(format!(
                            "repeats an element {length} times, which is not a count"
                        ))
                    })?
            }
        };
        Ok(Entries {
            name: definition.name.clone(),
            file: file.to_string(),
            count,
            first_line: definition.first_line,
            last_line: definition.last_line,
        })
    }

    fn resolve_in(&self, name: &str, file: &str) -> Result<Constant, ConstantError> {
        let table = self.checked_table(file)?;
        let indices = table.user_lookup(name);
        match indices.as_slice() {
            [index] => self.constant_at(file, &table, *index),
            [index, ..] if table.language != Language::Rust => {
                self.constant_at(file, &table, *index)
            }
            [] => {
                if table.language == Language::Python && table.imports.contains_key(name) {
                    let (target_file, target_table, index) =
                        self.python_follow_name(file, &table, name, None, &mut Vec::new())?;
                    return self.constant_at(&target_file, &target_table, index);
                }
                Err(not_in_file(name, file, &table))
            }
            several => Err(ConstantError::Ambiguous {
                name: name.to_string(),
                candidates: several
                    .iter()
                    .filter_map(|&i| table.definitions.get(i))
                    .map(|d| format!("{file}:{}", d.line))
                    .collect(),
            }),
        }
    }

    /// The files that define `name` at module level, in path order. A file
    /// that cannot be read or parsed is left out: this answers "where might it
    /// be", for drafting rules, not "what is it".
    pub fn defining_files(&self, name: &str) -> Vec<String> {
        self.scan(name)
            .into_iter()
            .filter_map(|hit| hit.ok().flatten().map(|(file, _, _)| file))
            .collect()
    }

    /// Every supported source file that mentions `name`, read and looked up.
    fn scan(&self, name: &str) -> Vec<Result<Option<Hit>, ConstantError>> {
        let needle = name.rsplit("::").next().unwrap_or(name);
        let files: Vec<&String> = self
            .snapshot
            .paths()
            .iter()
            .filter(|p| Language::of_path(p).is_some())
            .collect();
        files
            .par_iter()
            .map(|path| {
                let Some(text) = self.text(path)? else {
                    return Ok(None);
                };
                if !text.contains(needle) {
                    return Ok(None);
                }
                let table = self.table(path)?;
                let indices = table.user_lookup(name);
                Ok((!indices.is_empty()).then(|| ((*path).clone(), table, indices)))
            })
            .collect()
    }

    fn resolve_anywhere(&self, name: &str) -> Result<Constant, ConstantError> {
        let mut hits = Vec::new();
        for result in self.scan(name) {
            // A file that cannot be read or parsed is an error only if nothing else
            // settles the question; keep the first such error for that case.
            match result {
                Ok(Some(hit)) => hits.push(hit),
                Ok(None) => {}
                Err(e) => return Err(e),
            }
        }
        let distinct_places: usize = hits
            .iter()
            .map(|(_, table, indices)| {
                if table.language == Language::Rust {
                    indices.len()
                } else {
                    1
                }
            })
            .sum();
        match (hits.as_slice(), distinct_places) {
            ([], _) => Err(ConstantError::NotFound {
                name: name.to_string(),
            }),
            ([(file, table, indices)], 1) => {
                let index = indices.first().copied().unwrap_or_default();
                self.constant_at(file, table, index)
            }
            _ => {
                let mut candidates: Vec<String> = hits
                    .iter()
                    .flat_map(|(file, table, indices)| {
                        indices
                            .iter()
                            .filter_map(|&i| table.definitions.get(i))
                            .map(move |d| format!("{file}:{}", d.line))
                    })
                    .collect();
                candidates.sort();
                candidates.dedup();
                Err(ConstantError::Ambiguous {
                    name: name.to_string(),
                    candidates,
                })
            }
        }
    }

    fn constant_at(
        &self,
        file: &str,
        table: &Arc<ModuleTable>,
        index: usize,
    ) -> Result<Constant, ConstantError> {
        let Some(definition) = table.definitions.get(index) else {
            return Err(not_in_file("?", file, table));
        };
        let evaluated = self.eval_definition(file, table, index, &mut Chain::default())?;
        Ok(Constant {
            name: definition.name.clone(),
            value: evaluated.value,
            file: file.to_string(),
            line: definition.line,
            column: definition.column,
            source: definition.source.clone(),
        })
    }

    fn text(&self, path: &str) -> Result<Option<Arc<str>>, ConstantError> {
        if let Some(text) = lock(&self.texts).get(path) {
            return Ok(text.clone());
        }
        let text = self
            .snapshot
            .read_text_to_parse(path)
            .map_err(|e| ConstantError::Read {
                file: path.to_string(),
                message: e.to_string(),
            })?;
        lock(&self.texts).insert(path.to_string(), text.clone());
        Ok(text)
    }

    fn has_path(&self, path: &str) -> bool {
        self.snapshot
            .paths()
            .binary_search_by(|p| p.as_str().cmp(path))
            .is_ok()
    }

    /// The table of a file the user named: errors say plainly what is wrong with it.
    fn checked_table(&self, file: &str) -> Result<Arc<ModuleTable>, ConstantError> {
        if !self.has_path(file) {
            return Err(ConstantError::FileNotFound {
                file: file.to_string(),
            });
        }
        if Language::of_path(file).is_none() {
            return Err(ConstantError::UnsupportedFile {
                file: file.to_string(),
            });
        }
        self.table(file)
    }

    /// Parses a file once and keeps its table; concurrent callers wait for the one parse.
    fn table(&self, path: &str) -> Result<Arc<ModuleTable>, ConstantError> {
        let slot = lock(&self.tables)
            .entry(path.to_string())
            .or_default()
            .clone();
        slot.get_or_init(|| self.parse(path)).clone()
    }

    fn parse(&self, path: &str) -> Result<Arc<ModuleTable>, ConstantError> {
        let language = Language::of_path(path).ok_or_else(|| ConstantError::UnsupportedFile {
            file: path.to_string(),
        })?;
        let Some(text) = self.text(path)? else {
            return Ok(Arc::new(ModuleTable::new(language)));
        };
        let parse_error = |message: String| ConstantError::Parse {
            file: path.to_string(),
            message,
        };
        let mut parser = tree_sitter::Parser::new();
        parser
            .set_language(&language.grammar())
            .map_err(|e| parse_error(e.to_string()))?;
        let tree = parser
            .parse(text.as_bytes(), None)
            .ok_or_else(|| parse_error("the parser gave up".to_string()))?;
        let root = tree.root_node();
        let table = match language {
            Language::Python => python::extract(root, &text),
            Language::Rust => rust::extract(root, &text),
            Language::TypeScript | Language::Tsx => typescript::extract(root, &text, language),
            Language::Go => go::extract(root, &text),
        };
        Ok(Arc::new(table))
    }

    fn eval_definition(
        &self,
        file: &str,
        table: &Arc<ModuleTable>,
        index: usize,
        stack: &mut Chain,
    ) -> Result<Evaluated, ConstantError> {
        let key = (file.to_string(), index);
        if let Some(done) = lock(&self.values).get(&key) {
            return done.clone();
        }
        let Some(definition) = table.definitions.get(index) else {
            return Err(ConstantError::NotFound {
                name: format!("#{index} in {file}"),
            });
        };
        if let Some(start) = stack.iter().position(|entry| *entry == key) {
            let mut chain: Vec<String> = Vec::new();
            for (f, i) in stack.iter().skip(start).chain(std::iter::once(&key)) {
                let describe = self
                    .table(f)
                    .ok()
                    .and_then(|t| {
                        t.definitions
                            .get(*i)
                            .map(|d| format!("{} ({f}:{})", d.name, d.line))
                    })
                    .unwrap_or_else(|| f.clone());
                chain.push(describe);
            }
            return Err(ConstantError::Cycle { chain });
        }
        let site = Site {
            file,
            table,
            definition,
        };
        if stack.len() >= MAX_CHAIN {
            return Err(site.not_static(format!(
                "refers through more than {MAX_CHAIN} other constants"
            )));
        }
        let result = if definition.scope.is_empty() && table.language != Language::Rust {
            let lines = table.binding_lines(&definition.name);
            if lines.len() > 1 {
                Err(site.not_static(bound_repeatedly(&definition.name, &lines)))
            } else {
                self.eval_value(&site, stack, key.clone())
            }
        } else {
            self.eval_value(&site, stack, key.clone())
        };
        lock(&self.values).insert(key, result.clone());
        result
    }

    fn eval_value(
        &self,
        site: &Site<'_>,
        stack: &mut Chain,
        key: (String, usize),
    ) -> Result<Evaluated, ConstantError> {
        let declared = site.definition.declared_type.as_deref();
        // Rust infers an unsuffixed literal's type from the declaration, so the
        // declared width reaches `!0` inside `const MASK: u32 = !0`.
        let context = match site.table.language {
            Language::Rust => declared.and_then(unsigned_bits),
            _ => None,
        };
        stack.push(key);
        let result = self.eval_expr(site, &site.definition.value, stack, Depth::ROOT, context);
        stack.pop();
        let mut evaluated = result?;
        if let Some(ty) = declared {
            if let Some(kind) = declared_kind(ty) {
                evaluated.kind = kind;
            }
            evaluated.unsigned_bits = unsigned_bits(ty).or(evaluated.unsigned_bits);
            // A value its declared type cannot hold means recount evaluated
            // something differently from the compiler: refuse rather than report it.
            if let Some((min, max)) = integer_range(ty) {
                let fits =
                    arith::as_integer(&evaluated.value).is_some_and(|v| v >= min && v <= max);
                if !fits {
                    return Err(site.arithmetic(ArithError::CastOutOfRange {
                        value: evaluated.value.to_string(),
                        ty: ty.to_string(),
                    }));
                }
            }
        }
        Ok(evaluated)
    }

    fn eval_expr(
        &self,
        site: &Site<'_>,
        expr: &SrcExpr,
        stack: &mut Chain,
        depth: Depth,
        context: Option<u32>,
    ) -> Result<Evaluated, ConstantError> {
        if depth.exhausted() {
            return Err(site.not_static(depth.too_deep()));
        }
        if stack.base + depth.level() > MAX_CHAIN_NESTING {
            return Err(site.not_static(format!(
                "nests deeper than {MAX_CHAIN_NESTING} levels counted through the constants it refers to"
            )));
        }
        let language = site.table.language;
        match expr {
            SrcExpr::Literal(value, kind) => Ok(Evaluated {
                value: *value,
                kind: *kind,
                unsigned_bits: None,
            }),
            SrcExpr::NotStatic(why) => Err(site.not_static(why.clone())),
            SrcExpr::Invalid(problem) => Err(site.arithmetic(problem.clone())),
            SrcExpr::Name(name) => stack.nested(depth, |stack| self.eval_name(site, name, stack)),
            SrcExpr::Path(segments) => {
                stack.nested(depth, |stack| self.eval_path(site, segments, stack))
            }
            SrcExpr::Unary(op, operand) => {
                let operand = self.eval_expr(site, operand, stack, depth.deeper(), context)?;
                let value = match op {
                    UnaryOp::Neg => arith::neg(&operand.value),
                    UnaryOp::Plus => Ok(operand.value),
                    UnaryOp::BitNot
                        if language.is_javascript() && operand.kind == NumKind::Float =>
                    {
                        arith::js_bit_not(&operand.value)
                    }
                    UnaryOp::BitNot => integer_kind("~", operand).and_then(|v| {
                        match operand.unsigned_bits.or(context) {
                            Some(bits) => arith::unsigned_not(&v, bits),
                            None => arith::bit_not(&v),
                        }
                    }),
                }
                .map_err(|e| site.arithmetic(e))?;
                Ok(Evaluated {
                    value,
                    kind: operand.kind,
                    unsigned_bits: operand.unsigned_bits,
                })
            }
            SrcExpr::Binary(op, left, right) => {
                let shift = matches!(op, BinaryOp::Shl | BinaryOp::Shr | BinaryOp::UShr);
                let left = self.eval_expr(site, left, stack, depth.deeper(), context)?;
                let right_context = if shift { None } else { context };
                let right = self.eval_expr(site, right, stack, depth.deeper(), right_context)?;
                binary(language, *op, left, right).map_err(|e| site.arithmetic(e))
            }
            SrcExpr::Cast(operand, ty) => {
                let operand = self.eval_expr(site, operand, stack, depth.deeper(), None)?;
                cast(operand, ty)
                    .map_err(|e| site.arithmetic(e))?
                    .ok_or_else(|| {
                        site.not_static(format!("converts to `{ty}`, which is not a number type"))
                    })
            }
        }
    }

    fn eval_name(
        &self,
        site: &Site<'_>,
        name: &str,
        stack: &mut Chain,
    ) -> Result<Evaluated, ConstantError> {
        let table = site.table;
        match table.language {
            Language::Python => {
                let (file, target, index) =
                    self.python_follow_name(site.file, table, name, Some(site), &mut Vec::new())?;
                self.eval_definition(&file, &target, index, stack)
            }
            Language::Rust => {
                let mut scope = site.definition.scope.clone();
                loop {
                    let found: Vec<usize> = table
                        .indices_named(name)
                        .filter(|&i| table.definitions.get(i).is_some_and(|d| d.scope == scope))
                        .collect();
                    if let Some(&index) = found.first() {
                        return self.eval_definition(site.file, table, index, stack);
                    }
                    // An inner module sees its parent's names only through a
                    // `use super::*` or `use super::NAME`; anything else would be a
                    // guess about where the name comes from.
                    let imports_from_parent = table
                        .super_uses
                        .get(&scope)
                        .is_some_and(|uses| uses.iter().any(|path| brings_in(path, name)));
                    if scope.is_empty() || !imports_from_parent {
                        return Err(site.not_static(format!(
                            "refers to `{name}`, which is not a const or static of {}{}",
                            site.file,
                            if scope.is_empty() {
                                String::new()
                            } else {
                                format!(
                                    " in module `{}` or brought in by `use super::`",
                                    scope.join("::")
                                )
                            }
                        )));
                    }
                    scope.pop();
                }
            }
            Language::TypeScript | Language::Tsx => {
                let found: Vec<usize> = table.indices_named(name).collect();
                match found.as_slice() {
                    [index] => self.eval_definition(site.file, table, *index, stack),
                    [] => Err(site.not_static(format!(
                        "refers to `{name}`, which is not a top-level const of {}",
                        site.file
                    ))),
                    _ => Err(site.not_static(format!(
                        "refers to `{name}`, which {} binds more than once",
                        site.file
                    ))),
                }
            }
            Language::Go => {
                let found: Vec<usize> = table.indices_named(name).collect();
                if let [index] = found.as_slice() {
                    return self.eval_definition(site.file, table, *index, stack);
                }
                if found.len() > 1 {
                    return Err(site.not_static(format!(
                        "refers to `{name}`, which {} binds more than once",
                        site.file
                    )));
                }
                self.eval_go_package_name(site, name, stack)
            }
        }
    }

    /// Go package-level names are shared by every file of the package's directory.
    fn eval_go_package_name(
        &self,
        site: &Site<'_>,
        name: &str,
        stack: &mut Chain,
    ) -> Result<Evaluated, ConstantError> {
        let directory = parent_dir(site.file);
        let mut hits: Vec<(String, Arc<ModuleTable>, usize)> = Vec::new();
        for path in self.snapshot.paths() {
            if path == site.file
                || parent_dir(path) != directory
                || Language::of_path(path) != Some(Language::Go)
            {
                continue;
            }
            let Some(text) = self.text(path)? else {
                continue;
            };
            if !text.contains(name) {
                continue;
            }
            let table = self.table(path)?;
            if table.package != site.table.package {
                continue;
            }
            for index in table.indices_named(name) {
                hits.push((path.clone(), table.clone(), index));
            }
        }
        match hits.as_slice() {
            [(file, table, index)] => self.eval_definition(file, table, *index, stack),
            [] => Err(site.not_static(format!(
                "refers to `{name}`, which is not a const of package {}",
                site.table.package.as_deref().unwrap_or("?")
            ))),
            several => Err(ConstantError::Ambiguous {
                name: name.to_string(),
                candidates: several
                    .iter()
                    .map(|(f, t, i)| {
                        format!("{f}:{}", t.definitions.get(*i).map(|d| d.line).unwrap_or(0))
                    })
                    .collect(),
            }),
        }
    }

    fn eval_path(
        &self,
        site: &Site<'_>,
        segments: &[String],
        stack: &mut Chain,
    ) -> Result<Evaluated, ConstantError> {
        let written = match site.table.language {
            Language::Rust => segments.join("::"),
            _ => segments.join("."),
        };
        match site.table.language {
            Language::Python => {
                let (Some(first), Some((last, middle))) = (segments.first(), segments.split_last())
                else {
                    return Err(site.not_static(format!("reads `{written}`")));
                };
                let imports = site.table.imports.get(first.as_str());
                let Some(import) = imports.and_then(|list| list.first()) else {
                    return Err(site.not_static(format!(
                        "reads attribute `{written}`, and `{first}` is not an imported module"
                    )));
                };
                let lines = site.table.binding_lines(first);
                if lines.len() > 1 {
                    return Err(site.not_static(format!(
                        "reads `{written}`, and {}",
                        bound_repeatedly(first, &lines)
                    )));
                }
                let module = import
                    .module
                    .with(import.name.clone())
                    .with(middle.iter().skip(1).cloned());
                let Some(module_file) = self.find_module(site.file, &module, import.line)? else {
                    return Err(site.not_static(format!(
                        "reads `{written}`, and module `{}` is not a file of this repository",
                        module.display()
                    )));
                };
                let module_table = self.table(&module_file)?;
                let (file, target, index) = self.python_follow_name(
                    &module_file,
                    &module_table,
                    last,
                    Some(site),
                    &mut Vec::new(),
                )?;
                self.eval_definition(&file, &target, index, stack)
            }
            Language::Rust => {
                let mut scope = site.definition.scope.clone();
                let Some((last, middle)) = segments.split_last() else {
                    return Err(site.not_static(format!("refers to `{written}`")));
                };
                for segment in middle {
                    match segment.as_str() {
                        "self" => {}
                        "super" => {
                            if scope.pop().is_none() {
                                return Err(site.not_static(format!(
                                    "refers to `{written}`, which leaves {}",
                                    site.file
                                )));
                            }
                        }
                        "crate" | "Self" => {
                            return Err(site.not_static(format!(
                                "refers to `{written}`, which recount does not follow outside {}",
                                site.file
                            )));
                        }
                        other => scope.push(other.to_string()),
                    }
                }
                let found = site.table.indices_named(last).find(|&i| {
                    site.table
                        .definitions
                        .get(i)
                        .is_some_and(|d| d.scope == scope)
                });
                match found {
                    Some(index) => self.eval_definition(site.file, site.table, index, stack),
                    None => Err(site.not_static(format!(
                        "refers to `{written}`, which is not a const or static of {}",
                        site.file
                    ))),
                }
            }
            Language::TypeScript | Language::Tsx | Language::Go => {
                Err(site.not_static(format!("reads `{written}` from another module")))
            }
        }
    }

    /// Follows a Python name through imports to the definition that gives its value.
    fn python_follow_name(
        &self,
        file: &str,
        table: &Arc<ModuleTable>,
        name: &str,
        site: Option<&Site<'_>>,
        visited: &mut Vec<(String, String)>,
    ) -> Result<(String, Arc<ModuleTable>, usize), ConstantError> {
        let here = (file.to_string(), name.to_string());
        let lines = table.binding_lines(name);
        let fail = |why: String| match site {
            Some(site) => site.not_static(why),
            None => ConstantError::NotStatic {
                name: name.to_string(),
                file: file.to_string(),
                line: lines.first().copied().unwrap_or(1),
                why,
            },
        };
        if visited.contains(&here) {
            let mut chain: Vec<String> =
                visited.iter().map(|(f, n)| format!("{n} ({f})")).collect();
            chain.push(format!("{name} ({file})"));
            return Err(ConstantError::Cycle { chain });
        }
        if visited.len() >= MAX_CHAIN {
            return Err(fail(format!(
                "imports `{name}` through more than {MAX_CHAIN} modules"
            )));
        }
        visited.push(here);
        if lines.len() > 1 {
            return Err(fail(format!(
                "refers to `{name}`, which {}",
                bound_repeatedly_in(file, &lines)
            )));
        }
        if let Some(index) = table.indices_named(name).next() {
            return Ok((file.to_string(), table.clone(), index));
        }
        let Some(import) = table.imports.get(name).and_then(|list| list.first()) else {
            return Err(fail(format!(
                "refers to `{name}`, which {file} neither defines nor imports at module level"
            )));
        };
        let Some(imported) = &import.name else {
            return Err(fail(format!(
                "refers to `{name}`, which is a module, not a number"
            )));
        };
        let Some(module_file) = self.find_module(file, &import.module, import.line)? else {
            return Err(fail(format!(
                "refers to `{name}`, imported from `{}`, which is not a module of this repository",
                import.module.display()
            )));
        };
        let module_table = self.table(&module_file)?;
        if module_table.binding_lines(imported).is_empty()
            && self
                .find_module(file, &import.module.with([imported.clone()]), import.line)?
                .is_some()
        {
            return Err(fail(format!(
                "refers to `{name}`, which is a module, not a number"
            )));
        }
        self.python_follow_name(&module_file, &module_table, imported, site, visited)
    }

    /// Maps a Python module path to the one file it names in the snapshot.
    fn find_module(
        &self,
        from_file: &str,
        module: &ModuleRef,
        line: usize,
    ) -> Result<Option<String>, ConstantError> {
        let paths = self.snapshot.paths();
        let candidates: Vec<String> = if module.level > 0 {
            let mut directory = parent_dir(from_file).to_string();
            for _ in 1..module.level {
                if directory.is_empty() {
                    return Ok(None);
                }
                directory = parent_dir(&directory).to_string();
            }
            let mut base = directory;
            for part in &module.dotted {
                if !base.is_empty() {
                    base.push('/');
                }
                base.push_str(part);
            }
            let options = if module.dotted.is_empty() {
                vec![join_path(&base, "__init__.py")]
            } else {
                vec![format!("{base}.py"), join_path(&base, "__init__.py")]
            };
            options.into_iter().filter(|p| self.has_path(p)).collect()
        } else {
            let stem = module.dotted.join("/");
            let as_file = format!("{stem}.py");
            let as_package = format!("{stem}/__init__.py");
            paths
                .iter()
                .filter(|p| {
                    [&as_file, &as_package].iter().any(|suffix| {
                        p.as_str() == suffix.as_str()
                            || (p.ends_with(suffix.as_str())
                                && p.as_bytes().get(p.len() - suffix.len() - 1) == Some(&b'/'))
                    })
                })
                .cloned()
                .collect()
        };
        match candidates.as_slice() {
            [] => Ok(None),
            [one] => Ok(Some(one.clone())),
            several => Err(ConstantError::AmbiguousModule {
                module: module.display(),
                file: from_file.to_string(),
                line,
                candidates: several.to_vec(),
            }),
        }
    }
}

/// Whether a `use super::...` path (whitespace removed) makes `name` visible.
fn brings_in(path: &str, name: &str) -> bool {
    let Some(rest) = path.strip_prefix("super::") else {
        return false;
    };
    if rest == "*" || rest == name {
        return true;
    }
    rest.strip_prefix('{')
        .and_then(|r| r.strip_suffix('}'))
        .is_some_and(|items| items.split(',').any(|item| item == "*" || item == name))
}

fn parent_dir(path: &str) -> &str {
    path.rsplit_once('/').map(|(dir, _)| dir).unwrap_or("")
}

fn join_path(dir: &str, name: &str) -> String {
    if dir.is_empty() {
        name.to_string()
    } else {
        format!("{dir}/{name}")
    }
}

fn bound_repeatedly(name: &str, lines: &[usize]) -> String {
    format!(
        "binds `{name}` {} times at module level (lines {}), so it has no single value",
        lines.len(),
        lines
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    )
}

fn bound_repeatedly_in(file: &str, lines: &[usize]) -> String {
    format!(
        "{file} binds {} times at module level (lines {})",
        lines.len(),
        lines
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    )
}

fn not_in_file(name: &str, file: &str, table: &ModuleTable) -> ConstantError {
    let names = table.defined_names();
    let total = names.len();
    ConstantError::NotInFile {
        name: name.to_string(),
        file: file.to_string(),
        defined: if total <= LISTED_NAMES {
            names
        } else {
            Vec::new()
        },
        defined_total: total,
    }
}

fn integer_kind(op: &'static str, value: Evaluated) -> Result<Number, ArithError> {
    if value.kind == NumKind::Int {
        Ok(value.value)
    } else {
        Err(ArithError::NotInteger {
            op,
            value: format!("the floating-point value {}", value.value),
        })
    }
}

fn binary(
    language: Language,
    op: BinaryOp,
    left: Evaluated,
    right: Evaluated,
) -> Result<Evaluated, ArithError> {
    let both_int = left.kind == NumKind::Int && right.kind == NumKind::Int;
    let kind = if both_int {
        NumKind::Int
    } else {
        NumKind::Float
    };
    let (a, b) = (&left.value, &right.value);
    let js_numbers = language.is_javascript() && !both_int;
    let (value, kind) = match op {
        BinaryOp::Add => (arith::add(a, b)?, kind),
        BinaryOp::Sub => (arith::sub(a, b)?, kind),
        BinaryOp::Mul => (arith::mul(a, b)?, kind),
        BinaryOp::TrueDiv => (arith::div(a, b)?, NumKind::Float),
        BinaryOp::FloorDiv => (arith::floor_div(a, b)?, kind),
        BinaryOp::Div if both_int => (arith::trunc_div(a, b)?, kind),
        BinaryOp::Div => (arith::div(a, b)?, kind),
        BinaryOp::FloorMod => (arith::floor_mod(a, b)?, kind),
        BinaryOp::Rem => (arith::trunc_rem(a, b)?, kind),
        BinaryOp::Pow => {
            let negative_exponent = *b.numer() < 0;
            let kind = if negative_exponent {
                NumKind::Float
            } else {
                kind
            };
            (arith::pow(a, b, true)?, kind)
        }
        BinaryOp::Shl
        | BinaryOp::Shr
        | BinaryOp::UShr
        | BinaryOp::BitAnd
        | BinaryOp::BitOr
        | BinaryOp::BitXor
            if js_numbers =>
        {
            let symbol = match op {
                BinaryOp::Shl => "<<",
                BinaryOp::Shr => ">>",
                BinaryOp::UShr => ">>>",
                BinaryOp::BitAnd => "&",
                BinaryOp::BitOr => "|",
                _ => "^",
            };
            (arith::js_bitwise(symbol, a, b)?, NumKind::Float)
        }
        BinaryOp::Shl => (
            arith::shl(&integer_kind("<<", left)?, &integer_kind("<<", right)?)?,
            kind,
        ),
        BinaryOp::Shr | BinaryOp::UShr => (
            arith::shr(&integer_kind(">>", left)?, &integer_kind(">>", right)?)?,
            kind,
        ),
        BinaryOp::BitAnd => (
            arith::bit_and(&integer_kind("&", left)?, &integer_kind("&", right)?)?,
            kind,
        ),
        BinaryOp::BitOr => (
            arith::bit_or(&integer_kind("|", left)?, &integer_kind("|", right)?)?,
            kind,
        ),
        BinaryOp::BitXor => (
            arith::bit_xor(&integer_kind("^", left)?, &integer_kind("^", right)?)?,
            kind,
        ),
        BinaryOp::BitClear => (
            arith::bit_clear(&integer_kind("&^", left)?, &integer_kind("&^", right)?)?,
            kind,
        ),
    };
    let unsigned_bits = match op {
        BinaryOp::Shl | BinaryOp::Shr | BinaryOp::UShr => left.unsigned_bits,
        _ => left.unsigned_bits.or(right.unsigned_bits),
    };
    Ok(Evaluated {
        value,
        kind,
        unsigned_bits,
    })
}

/// The range of an integer type by its Rust or Go name (pointer-sized types are
/// taken as 64-bit, the only width recount's users ship).
pub(crate) fn integer_range(ty: &str) -> Option<(i128, i128)> {
    Some(match ty {
        "i8" | "int8" => (i8::MIN.into(), i8::MAX.into()),
        "i16" | "int16" => (i16::MIN.into(), i16::MAX.into()),
        "i32" | "int32" | "rune" => (i32::MIN.into(), i32::MAX.into()),
        "i64" | "int64" | "isize" | "int" => (i64::MIN.into(), i64::MAX.into()),
        "i128" => (i128::MIN, i128::MAX),
        "u8" | "uint8" | "byte" => (0, u8::MAX.into()),
        "u16" | "uint16" => (0, u16::MAX.into()),
        "u32" | "uint32" => (0, u32::MAX.into()),
        "u64" | "uint64" | "usize" | "uint" | "uintptr" => (0, u64::MAX.into()),
        // u128's top half does not fit i128; its range is checked where it is used.
        "u128" => (0, i128::MAX),
        _ => return None,
    })
}

pub(crate) fn is_float_type(ty: &str) -> bool {
    matches!(ty, "f32" | "f64" | "float32" | "float64")
}

/// The width of an unsigned integer type by its Rust or Go name.
pub(crate) fn unsigned_bits(ty: &str) -> Option<u32> {
    Some(match ty {
        "u8" | "uint8" | "byte" => 8,
        "u16" | "uint16" => 16,
        "u32" | "uint32" => 32,
        "u64" | "uint64" | "usize" | "uint" | "uintptr" => 64,
        "u128" => 128,
        _ => return None,
    })
}

/// The kind a declared type gives a constant.
pub(crate) fn declared_kind(ty: &str) -> Option<NumKind> {
    if is_float_type(ty) {
        Some(NumKind::Float)
    } else if integer_range(ty).is_some() {
        Some(NumKind::Int)
    } else {
        None
    }
}

/// A numeric conversion: to an integer type it drops the fraction (as Rust's `as`
/// does) and refuses a value the type cannot hold; `None` for a non-numeric type.
fn cast(operand: Evaluated, ty: &str) -> Result<Option<Evaluated>, ArithError> {
    if is_float_type(ty) {
        return Ok(Some(Evaluated {
            value: operand.value,
            kind: NumKind::Float,
            unsigned_bits: None,
        }));
    }
    let Some((min, max)) = integer_range(ty) else {
        return Ok(None);
    };
    let whole = *arith::trunc(&operand.value).numer();
    if whole < min || whole > max {
        return Err(ArithError::CastOutOfRange {
            value: operand.value.to_string(),
            ty: ty.to_string(),
        });
    }
    Ok(Some(Evaluated {
        value: Number::from_integer(whole),
        kind: NumKind::Int,
        unsigned_bits: unsigned_bits(ty),
    }))
}

// ---- helpers shared by the language extractors ----

/// The source text of a node (empty if the range is somehow not on char boundaries).
/// A binary node as all four grammars spell it (`left`, `operator` and `right`
/// fields), read with the language's own operator table and expression reader.
pub(crate) fn binary_node(
    node: Node<'_>,
    text: &str,
    depth: Depth,
    op_of: fn(&str) -> Option<BinaryOp>,
    read: fn(Node<'_>, &str, Depth) -> SrcExpr,
) -> SrcExpr {
    let (Some(left), Some(operator), Some(right)) = (
        node.child_by_field_name("left"),
        node.child_by_field_name("operator"),
        node.child_by_field_name("right"),
    ) else {
        return SrcExpr::NotStatic(format!("is `{}`", excerpt(node_text(node, text))));
    };
    let symbol = node_text(operator, text);
    let Some(op) = op_of(symbol) else {
        return SrcExpr::NotStatic(format!(
            "applies `{symbol}`, which recount does not evaluate"
        ));
    };
    SrcExpr::Binary(
        op,
        Box::new(read(left, text, depth.deeper())),
        Box::new(read(right, text, depth.deeper())),
    )
}

/// A unary operator applied to an operand, read alike in every grammar: each
/// finds its `(operator, operand)` nodes and says which symbols it evaluates.
pub(crate) fn unary_node(
    node: Node<'_>,
    text: &str,
    depth: Depth,
    parts: Option<(Node<'_>, Node<'_>)>,
    op_of: fn(&str) -> Option<UnaryOp>,
    read: fn(Node<'_>, &str, Depth) -> SrcExpr,
) -> SrcExpr {
    let Some((operator, operand)) = parts else {
        return SrcExpr::NotStatic(format!("is `{}`", excerpt(node_text(node, text))));
    };
    let symbol = node_text(operator, text);
    let Some(op) = op_of(symbol) else {
        return SrcExpr::NotStatic(format!(
            "applies `{symbol}`, which recount does not evaluate"
        ));
    };
    SrcExpr::Unary(op, Box::new(read(operand, text, depth.deeper())))
}

pub(crate) fn node_text<'a>(node: Node<'_>, text: &'a str) -> &'a str {
    text.get(node.byte_range()).unwrap_or("")
}

/// 1-based line and character column of a node's start.
pub(crate) fn position(node: Node<'_>, text: &str) -> (usize, usize) {
    let point = node.start_position();
    let start = node.start_byte();
    let line_start = start.saturating_sub(point.column);
    let column = text
        .get(line_start..start)
        .map(|prefix| prefix.chars().count())
        .unwrap_or(point.column);
    (point.row + 1, column + 1)
}

/// 1-based first and last line of a node.
pub(crate) fn line_span(node: Node<'_>) -> (usize, usize) {
    (node.start_position().row + 1, node.end_position().row + 1)
}

/// Named children that are not comments (and not other extras).
pub(crate) fn value_children(node: Node<'_>) -> Vec<Node<'_>> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor)
        .filter(|child| !child.is_extra() && !child.kind().contains("comment"))
        .collect()
}

/// Shortens source text for a message.
pub(crate) fn excerpt(text: &str) -> String {
    let flat: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() > 40 {
        let cut: String = flat.chars().take(37).collect();
        format!("{cut}...")
    } else {
        flat
    }
}

/// Builds a definition for a name node bound to a value node within a statement.
pub(crate) struct DefinitionParts<'t> {
    pub name_node: Node<'t>,
    pub statement: Node<'t>,
    pub value_node: Node<'t>,
    pub value: SrcExpr,
    pub declared_type: Option<String>,
    pub collection: Collection,
    pub scope: Vec<String>,
}

pub(crate) fn definition(parts: DefinitionParts<'_>, text: &str) -> Definition {
    let (line, column) = position(parts.name_node, text);
    let (first_line, last_line) = line_span(parts.statement);
    let (value, collection) = if parts.statement.has_error() {
        (
            SrcExpr::NotStatic(
                "sits in a statement the parser could not read (a syntax error)".to_string(),
            ),
            Collection::Not("a statement with a syntax error".to_string()),
        )
    } else {
        (parts.value, parts.collection)
    };
    Definition {
        name: node_text(parts.name_node, text).to_string(),
        scope: parts.scope,
        line,
        column,
        first_line,
        last_line,
        source: node_text(parts.value_node, text).to_string(),
        value,
        declared_type: parts.declared_type,
        collection,
    }
}

/// `not_static("calls len()")` with the shared wording.
pub(crate) fn call_not_static(function: &str) -> SrcExpr {
    SrcExpr::NotStatic(format!(
        "calls {}(), which recount does not evaluate",
        excerpt(function)
    ))
}

#[cfg(test)]
mod tests;
