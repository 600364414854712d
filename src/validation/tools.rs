//! Validation core, step 1 of a call: which published input schema a tool name maps
//! to. Resolution is fail-closed — a name that maps to no loaded schema is refused
//! before its arguments are looked at — and the population check compares the tools a
//! server registers with the input schemas a set publishes, in both directions.

use std::collections::{BTreeMap, BTreeSet};

use super::schema_set::{LoadedSchema, SchemaSet, title_word_char};

/// The placeholder a naming template must contain exactly once.
pub const TOOL_PLACEHOLDER: &str = "{tool}";
/// The default template: `knowledge.get` -> `knowledge-get-input.schema.json`.
pub const DEFAULT_TEMPLATE: &str = "{tool}-input.schema.json";
/// What each `.` of a tool name becomes in the default convention.
pub const DEFAULT_DOT_REPLACEMENT: &str = "-";

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ToolConfigError {
    #[error("naming template {template:?} must contain {TOOL_PLACEHOLDER} exactly once")]
    Template { template: String },
    #[error("tool {tool:?} is mapped to {schema:?}, which the schema set does not hold")]
    UnknownSchema { tool: String, schema: String },
}

/// File name of a tool's input schema, derived from the tool's name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NamingConvention {
    prefix: String,
    suffix: String,
    dot_replacement: String,
}

impl NamingConvention {
    /// `template` holds [`TOOL_PLACEHOLDER`] once; each `.` of the tool name is
    /// replaced by `dot_replacement` before it is put there.
    pub fn new(template: &str, dot_replacement: &str) -> Result<NamingConvention, ToolConfigError> {
        match template.split_once(TOOL_PLACEHOLDER) {
            Some((prefix, suffix)) if !suffix.contains(TOOL_PLACEHOLDER) => Ok(NamingConvention {
                prefix: prefix.to_string(),
                suffix: suffix.to_string(),
                dot_replacement: dot_replacement.to_string(),
            }),
            _ => Err(ToolConfigError::Template {
                template: template.to_string(),
            }),
        }
    }

    /// The file name `tool`'s input schema has under this convention.
    pub fn file_for(&self, tool: &str) -> String {
        format!(
            "{}{}{}",
            self.prefix,
            tool.replace('.', &self.dot_replacement),
            self.suffix
        )
    }

    /// Whether `file` has the shape of an input schema under this convention.
    pub fn matches(&self, file: &str) -> bool {
        // The default prefix is empty, and comparing with an empty `String` is
        // not free: its pointer is dangling, and glibc's AVX-512 `memcmp` reads
        // it through a masked load the CPU assists in microcode — a tenth of a
        // whole typical call, measured. An empty prefix needs no comparing.
        file.len() > self.prefix.len() + self.suffix.len()
            && (self.prefix.is_empty() || file.starts_with(&self.prefix))
            && file.ends_with(&self.suffix)
    }
}

impl Default for NamingConvention {
    fn default() -> Self {
        NamingConvention {
            prefix: String::new(),
            suffix: "-input.schema.json".to_string(),
            dot_replacement: DEFAULT_DOT_REPLACEMENT.to_string(),
        }
    }
}

/// Tool name -> input schema: an explicit map first, then the naming convention.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ToolResolver {
    convention: NamingConvention,
    explicit: BTreeMap<String, String>,
}

/// Tools and input schemas that do not pair up.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct PopulationReport {
    /// Registered tools with no published input schema (unreachable, by design).
    pub tools_without_schema: Vec<String>,
    /// Input schema files that no registered tool resolves to.
    pub schemas_without_tool: Vec<String>,
}

impl PopulationReport {
    pub fn is_clean(&self) -> bool {
        self.tools_without_schema.is_empty() && self.schemas_without_tool.is_empty()
    }
}

impl ToolResolver {
    /// A resolver by `convention` alone.
    pub fn new(convention: NamingConvention) -> ToolResolver {
        ToolResolver {
            convention,
            explicit: BTreeMap::new(),
        }
    }

    /// Add explicit entries (tool -> schema `$id` or file), each checked against `set`.
    pub fn with_explicit(
        mut self,
        set: &SchemaSet,
        entries: impl IntoIterator<Item = (String, String)>,
    ) -> Result<ToolResolver, ToolConfigError> {
        for (tool, schema) in entries {
            if set.get(&schema).is_none() {
                return Err(ToolConfigError::UnknownSchema { tool, schema });
            }
            self.explicit.insert(tool, schema);
        }
        Ok(self)
    }

    pub fn convention(&self) -> &NamingConvention {
        &self.convention
    }

    /// The input schema `tool` resolves to, or `None`: the call must be refused.
    /// An explicit entry first; then what the schemas say — the one that
    /// declares the tool in an `x-<vendor>-tool` keyword, else the one input
    /// schema whose title names it; then the file-naming convention, with the
    /// name as written and with camelCase as kebab-case
    /// (`knowledge.proposeChange` → `knowledge-propose-change-input.schema.json`),
    /// at its path or by its file name anywhere in the set. Two schemas that
    /// claim one tool resolve it to neither: fail closed.
    pub fn resolve<'s>(&self, set: &'s SchemaSet, tool: &str) -> Option<&'s LoadedSchema> {
        if let Some(schema) = self.explicit.get(tool) {
            return set.get(schema);
        }
        // Each step is a lookup in the set's indexes, never a search of every
        // schema: this runs on every call.
        match only(set.declaring(tool)) {
            Only::One(one) => return Some(one),
            Only::None => {}
            Only::Many => return None,
        }
        let titled = set
            .titled_maybe_naming(tool)
            .filter(|s| s.declared_tool().is_none() && self.is_input_file(s.file()))
            .filter(|s| s.title().is_some_and(|title| names_tool(title, tool)));
        match only(titled) {
            Only::One(one) => return Some(one),
            Only::None => {}
            Only::Many => return None,
        }
        let free = |s: &&LoadedSchema| s.declared_tool().is_none();
        let mut names = vec![tool.to_owned()];
        let kebab = kebab_case(tool);
        if kebab != tool {
            names.push(kebab);
        }
        for name in names {
            let file = self.convention.file_for(&name);
            if let Some(schema) = set.by_file(&file).filter(free) {
                return Some(schema);
            }
            let base = file.rsplit('/').next().unwrap_or(&file);
            let anywhere = set
                .schemas()
                .filter(|s| s.file().rsplit('/').next() == Some(base))
                .filter(free);
            match only(anywhere) {
                Only::One(one) => return Some(one),
                Only::None => {}
                Only::Many => return None,
            }
        }
        None
    }

    /// Whether `file` (a path in the set) is an input schema by the
    /// convention's shape, at its path or by its file name.
    fn is_input_file(&self, file: &str) -> bool {
        self.convention.matches(file)
            || self
                .convention
                .matches(file.rsplit('/').next().unwrap_or(file))
    }

    /// Compare the registered tools with the input schemas `set` publishes.
    pub fn population(&self, set: &SchemaSet, registered: &[String]) -> PopulationReport {
        let mut claimed: BTreeSet<&str> = BTreeSet::new();
        let mut tools_without_schema = BTreeSet::new();
        for tool in registered {
            match self.resolve(set, tool) {
                Some(schema) => {
                    claimed.insert(schema.file());
                }
                None => {
                    tools_without_schema.insert(tool.clone());
                }
            }
        }
        let explicit_files: BTreeSet<&str> = self
            .explicit
            .values()
            .filter_map(|schema| set.get(schema).map(LoadedSchema::file))
            .collect();
        let schemas_without_tool = set
            .schemas()
            .filter(|s| {
                self.is_input_file(s.file())
                    || s.declared_tool().is_some()
                    || explicit_files.contains(s.file())
            })
            .map(LoadedSchema::file)
            .filter(|file| !claimed.contains(file))
            .map(str::to_string)
            .collect::<BTreeSet<String>>()
            .into_iter()
            .collect();
        PopulationReport {
            tools_without_schema: tools_without_schema.into_iter().collect(),
            schemas_without_tool,
        }
    }
}

/// How many of a resolution step's candidates there are, as far as it matters:
/// two that claim one tool resolve it to neither.
enum Only<T> {
    None,
    One(T),
    Many,
}

fn only<T>(mut candidates: impl Iterator<Item = T>) -> Only<T> {
    match (candidates.next(), candidates.next()) {
        (None, _) => Only::None,
        (Some(one), None) => Only::One(one),
        (Some(_), Some(_)) => Only::Many,
    }
}

/// Whether `title` names `tool` as a whole word: "Arguments of spool.send"
/// names `spool.send`, not `spool.sen` or `spool.sendAll`.
fn names_tool(title: &str, tool: &str) -> bool {
    if tool.is_empty() {
        return false;
    }
    let part = title_word_char;
    title.match_indices(tool).any(|(at, _)| {
        let before = title.get(..at).and_then(|s| s.chars().next_back());
        let after = title.get(at + tool.len()..).and_then(|s| s.chars().next());
        // A sentence's full stop after the name still ends it.
        let after_ends = after.is_none_or(|c| !part(c))
            || (after == Some('.')
                && title
                    .get(at + tool.len() + 1..)
                    .and_then(|s| s.chars().next())
                    .is_none_or(char::is_whitespace));
        before.is_none_or(|c| !part(c)) && after_ends
    })
}

/// camelCase words as kebab-case, the dots kept: `knowledge.proposeChange` →
/// `knowledge.propose-change`, `getHTTPStatus` → `get-http-status`.
pub fn kebab_case(tool: &str) -> String {
    let chars: Vec<char> = tool.chars().collect();
    let mut out = String::with_capacity(tool.len() + 4);
    for (i, &c) in chars.iter().enumerate() {
        if c.is_uppercase() {
            let previous = i.checked_sub(1).and_then(|j| chars.get(j)).copied();
            let next = chars.get(i + 1).copied();
            let starts_word = previous.is_some_and(|p| p.is_lowercase() || p.is_ascii_digit())
                || (previous.is_some_and(char::is_uppercase)
                    && next.is_some_and(char::is_lowercase));
            if starts_word && !out.ends_with(['-', '.', '_']) {
                out.push('-');
            }
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// Registered tool names from a text list: one per line, `#` starts a comment,
/// blank lines ignored; or, when the text is a JSON array of strings, its entries.
pub fn parse_tool_list(text: &str) -> Result<Vec<String>, serde_json::Error> {
    if text.trim_start().starts_with('[') {
        return serde_json::from_str(text);
    }
    Ok(text
        .lines()
        .map(|line| line.split_once('#').map_or(line, |(head, _)| head).trim())
        .filter(|line| !line.is_empty())
        .map(str::to_string)
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_convention_names_files_from_dotted_tools() {
        let convention = NamingConvention::default();
        assert_eq!(
            convention.file_for("knowledge.get"),
            "knowledge-get-input.schema.json"
        );
        assert!(convention.matches("knowledge-get-input.schema.json"));
        assert!(!convention.matches("tool-context.schema.json"));
        assert!(!convention.matches("-input.schema.json"));
        assert_eq!(
            NamingConvention::new(DEFAULT_TEMPLATE, DEFAULT_DOT_REPLACEMENT).ok(),
            Some(convention)
        );
    }

    #[test]
    fn a_template_needs_the_placeholder_exactly_once() {
        assert!(NamingConvention::new("input.json", "-").is_err());
        assert!(NamingConvention::new("{tool}/{tool}.json", "-").is_err());
        let nested = NamingConvention::new("mcp/{tool}.input.json", "_");
        assert_eq!(
            nested.map(|c| c.file_for("review.search")).ok().as_deref(),
            Some("mcp/review_search.input.json")
        );
    }

    #[test]
    fn camel_case_tools_are_kebab_case_files() {
        assert_eq!(
            kebab_case("knowledge.proposeChange"),
            "knowledge.propose-change"
        );
        assert_eq!(kebab_case("getHTTPStatus"), "get-http-status");
        assert_eq!(kebab_case("review.search"), "review.search");
        assert_eq!(
            NamingConvention::default().file_for(&kebab_case("knowledge.proposeChange")),
            "knowledge-propose-change-input.schema.json"
        );
    }

    #[test]
    fn a_title_names_a_tool_as_a_whole_word() {
        assert!(names_tool("Arguments of spool.send", "spool.send"));
        assert!(names_tool("Arguments of spool.send.", "spool.send"));
        assert!(!names_tool("Arguments of spool.sendAll", "spool.send"));
        assert!(!names_tool("Arguments of myspool.send", "spool.send"));
        assert!(!names_tool("anything", ""));
    }

    proptest::proptest! {
        /// The set finds a tool's titled schemas by the title's words; that must
        /// never miss a title that names the tool, or a call would be refused
        /// (or, worse, resolved by the next rule to another schema).
        #[test]
        fn a_title_that_names_a_tool_holds_it_as_a_word(
            title in "[a-c. _/é-]{0,12}",
            tool in "[a-c. _/é-]{1,5}",
        ) {
            use super::super::schema_set::title_words;
            if names_tool(&title, &tool) && tool.chars().all(title_word_char) {
                proptest::prop_assert!(
                    title_words(&title).any(|word| word == tool),
                    "{title:?} names {tool:?}"
                );
            }
        }
    }

    #[test]
    fn tool_lists_parse_as_lines_or_json() {
        assert_eq!(
            parse_tool_list("a.b\n# comment\n\n c.d  # trailing\n").ok(),
            Some(vec!["a.b".to_string(), "c.d".to_string()])
        );
        assert_eq!(
            parse_tool_list(r#"["x", "y.z"]"#).ok(),
            Some(vec!["x".to_string(), "y.z".to_string()])
        );
        assert!(parse_tool_list("[1]").is_err());
    }
}
