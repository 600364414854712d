//! Stage 4, the citation family's Python object reading: what Python's own
//! classes and collections.abc's lend a subclass (`python_bases.data`), so a
//! member a class of this repository gets from `dict` or `MutableSequence`
//! is known to be there, and one such a base lacks is known not to be.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

const DATA: &str = include_str!("python_bases.data");

/// Where a base comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Bound in every module (`dict`, `Exception`).
    Builtin,
    /// Imported from collections.abc (or typing's alias).
    Abc,
}

struct Base {
    kind: Kind,
    parents: Vec<String>,
    members: BTreeSet<String>,
}

fn bases() -> &'static BTreeMap<String, Base> {
    static BASES: OnceLock<BTreeMap<String, Base>> = OnceLock::new();
    BASES.get_or_init(|| {
        let mut bases = BTreeMap::new();
        for line in DATA.lines() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let Some((head, members)) = line.split_once(':') else {
                continue;
            };
            let mut words = head.split_whitespace();
            let kind = match words.next() {
                Some("builtin") => Kind::Builtin,
                Some("abc") => Kind::Abc,
                _ => continue,
            };
            let Some(name) = words.next() else {
                continue;
            };
            let parents = words.filter(|w| *w != "<").map(str::to_owned).collect();
            let members = members.split_whitespace().map(str::to_owned).collect();
            bases.insert(
                name.to_owned(),
                Base {
                    kind,
                    parents,
                    members,
                },
            );
        }
        bases
    })
}

/// Whether `name`, bound nowhere in a module, is one of Python's own
/// classes this data knows (an exception class of any name counts as
/// `Exception`).
pub fn is_builtin(name: &str) -> Option<&'static str> {
    match bases().get_key_value(name) {
        Some((key, base)) if base.kind == Kind::Builtin => Some(key.as_str()),
        _ if is_exception_name(name) => Some("Exception"),
        _ => None,
    }
}

/// The collections.abc class `name` imported from `module` is, if it is one
/// (`collections.abc.Mapping`, `typing.MutableSequence`).
pub fn is_abc(module: &str, name: &str) -> Option<&'static str> {
    if !matches!(module, "collections.abc" | "typing" | "typing_extensions") {
        return None;
    }
    match bases().get_key_value(name) {
        Some((key, base)) if base.kind == Kind::Abc => Some(key.as_str()),
        _ => None,
    }
}

fn is_exception_name(name: &str) -> bool {
    (name.ends_with("Error") || name.ends_with("Warning"))
        && name.chars().next().is_some_and(|c| c.is_ascii_uppercase())
        && !name.contains('.')
}

/// Whether the known base `base` (a key [`is_builtin`] or [`is_abc`] gave)
/// lends its subclasses `member`.
pub fn lends(base: &str, member: &str) -> bool {
    let mut seen = BTreeSet::new();
    let mut pending = vec![base, "object"];
    while let Some(name) = pending.pop() {
        if !seen.insert(name) {
            continue;
        }
        let Some(known) = bases().get(name) else {
            continue;
        };
        if known.members.contains(member) {
            return true;
        }
        pending.extend(known.parents.iter().map(String::as_str));
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_known_base_lends_its_own_members_its_parents_and_objects() {
        assert!(lends("dict", "__contains__"));
        assert!(lends("MutableSequence", "index"));
        assert!(lends("MutableSet", "__len__"));
        assert!(lends("Exception", "args"));
        assert!(lends("list", "__repr__"));
        assert_eq!(is_builtin("dict"), Some("dict"));
        assert_eq!(is_builtin("ConfigError"), Some("Exception"));
        assert_eq!(is_abc("collections.abc", "Mapping"), Some("Mapping"));
    }

    #[test]
    fn stays_quiet_for_a_member_the_base_lacks_or_a_base_it_does_not_know() {
        assert!(!lends("MutableSequence", "irange"));
        assert!(!lends("MutableSet", "union"));
        assert!(!lends("object", "render"));
        assert_eq!(is_builtin("Mapping"), None);
        assert_eq!(is_abc("flask", "Mapping"), None);
        assert_eq!(is_builtin("errors.ValueError"), None);
    }
}
