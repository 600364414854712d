//! Validation core, what step 3 builds and step 4 reads: a parsed call as a tree that
//! borrows its strings from the caller's bytes, which the schema validator reads
//! through `jsonschema`'s custom-representation traits.
//!
//! A `serde_json::Value` costs an allocation per key, per string and per map node,
//! which is most of a typical call's time. Here a string without escapes is a slice
//! of the input, and an object is one vector of members sorted by key — the order a
//! `Value`'s map iterates in, so errors come out in the same order — found by binary
//! search.

use std::borrow::Cow;

use jsonschema::JsonType;
use jsonschema::json::{Array, Json, Node, NodeIdentity, Object, cmp};
use serde_json::{Map, Number, Value};

/// One JSON value of a parsed document.
#[derive(Debug, Clone, PartialEq)]
pub enum Document<'a> {
    Null,
    Bool(bool),
    Number(Number),
    String(Cow<'a, str>),
    Array(Vec<Document<'a>>),
    /// Members sorted by key, each key once.
    Object(Vec<(Cow<'a, str>, Document<'a>)>),
}

impl<'a> From<&'a Value> for Document<'a> {
    /// A value built elsewhere (a rule file read from TOML), borrowed.
    fn from(value: &'a Value) -> Document<'a> {
        match value {
            Value::Null => Document::Null,
            Value::Bool(value) => Document::Bool(*value),
            Value::Number(number) => Document::Number(number.clone()),
            Value::String(string) => Document::String(Cow::Borrowed(string)),
            Value::Array(items) => Document::Array(items.iter().map(Document::from).collect()),
            Value::Object(members) => {
                let mut members: Vec<_> = members
                    .iter()
                    .map(|(key, value)| (Cow::Borrowed(key.as_str()), Document::from(value)))
                    .collect();
                sort_members(&mut members);
                Document::Object(members)
            }
        }
    }
}

impl Document<'_> {
    /// The `serde_json::Value` this document is, for the cold paths that need one
    /// (a refusal's operands).
    pub fn to_value(&self) -> Value {
        match self {
            Document::Null => Value::Null,
            Document::Bool(value) => Value::Bool(*value),
            Document::Number(number) => Value::Number(number.clone()),
            Document::String(string) => Value::String(string.to_string()),
            Document::Array(items) => Value::Array(items.iter().map(Document::to_value).collect()),
            Document::Object(members) => Value::Object(
                members
                    .iter()
                    .map(|(key, value)| (key.to_string(), value.to_value()))
                    .collect::<Map<String, Value>>(),
            ),
        }
    }

    /// JSON equality: numbers by value (`1` is `1.0`), objects by members.
    fn same(&self, other: &Document<'_>) -> bool {
        match (self, other) {
            (Document::Number(left), Document::Number(right)) => cmp::equal_numbers(left, right),
            (Document::String(left), Document::String(right)) => left == right,
            (Document::Array(left), Document::Array(right)) => {
                left.len() == right.len() && left.iter().zip(right).all(|(l, r)| l.same(r))
            }
            // Sorted and unique on both sides, so members pair up in order.
            (Document::Object(left), Document::Object(right)) => {
                left.len() == right.len()
                    && left
                        .iter()
                        .zip(right)
                        .all(|((lk, lv), (rk, rv))| lk == rk && lv.same(rv))
            }
            (Document::Null, Document::Null) => true,
            (Document::Bool(left), Document::Bool(right)) => left == right,
            _ => false,
        }
    }

    /// JSON equality with a value of the schema (`const`, `enum`).
    fn equals(&self, expected: &Value) -> bool {
        match (self, expected) {
            (Document::Number(left), Value::Number(right)) => cmp::equal_numbers(left, right),
            (Document::String(left), Value::String(right)) => left == right,
            (Document::Array(left), Value::Array(right)) => {
                left.len() == right.len() && left.iter().zip(right).all(|(l, r)| l.equals(r))
            }
            (Document::Object(left), Value::Object(right)) => {
                left.len() == right.len()
                    && left.iter().all(|(key, value)| {
                        right.get(key.as_ref()).is_some_and(|r| value.equals(r))
                    })
            }
            (Document::Null, Value::Null) => true,
            (Document::Bool(left), Value::Bool(right)) => left == right,
            _ => false,
        }
    }
}

/// Find `key` among members sorted by key.
fn member<'d, 'a>(
    members: &'d [(Cow<'a, str>, Document<'a>)],
    key: &str,
) -> Option<&'d Document<'a>> {
    members
        .binary_search_by(|(name, _)| name.as_ref().cmp(key))
        .ok()
        .and_then(|at| members.get(at))
        .map(|(_, value)| value)
}

/// Arrays up to this long have `uniqueItems` decided pair by pair, with no copy;
/// longer ones go through the crate's hashing check, which is linear.
const PAIRWISE_UNIQUE: usize = 16;

/// The representation, as `jsonschema` sees it.
pub struct BorrowedJson;

impl Json for BorrowedJson {
    type Node<'a> = &'a Document<'a>;
    type PreparedKey = String;
    type StringBuffer = ();

    // A lookup is a binary search comparing keys, as in a `BTreeMap`.
    const KEYS_PER_LOOKUP: usize = 2;
    const ACYCLIC: bool = true;

    fn prepare_key(key: &str) -> String {
        key.to_owned()
    }

    fn with_string_node<T>((): &mut (), string: &str, f: impl FnOnce(Self::Node<'_>) -> T) -> T {
        f(&Document::String(Cow::Borrowed(string)))
    }
}

impl<'a> Node<'a, BorrowedJson> for &'a Document<'a> {
    type Object = &'a [(Cow<'a, str>, Document<'a>)];
    type Array = &'a [Document<'a>];
    type Number = &'a Number;

    fn as_object(&self) -> Option<Self::Object> {
        match self {
            Document::Object(members) => Some(members),
            _ => None,
        }
    }

    fn as_array(&self) -> Option<Self::Array> {
        match self {
            Document::Array(items) => Some(items),
            _ => None,
        }
    }

    fn as_string(&self) -> Option<Cow<'a, str>> {
        match self {
            Document::String(string) => Some(Cow::Borrowed(string.as_ref())),
            _ => None,
        }
    }

    fn as_number(&self) -> Option<&'a Number> {
        match self {
            Document::Number(number) => Some(number),
            _ => None,
        }
    }

    fn as_boolean(&self) -> Option<bool> {
        match self {
            Document::Bool(value) => Some(*value),
            _ => None,
        }
    }

    fn is_null(&self) -> bool {
        matches!(self, Document::Null)
    }

    fn json_type(&self) -> JsonType {
        match self {
            Document::Null => JsonType::Null,
            Document::Bool(_) => JsonType::Boolean,
            Document::Number(_) => JsonType::Number,
            Document::String(_) => JsonType::String,
            Document::Array(_) => JsonType::Array,
            Document::Object(_) => JsonType::Object,
        }
    }

    fn string_length_within(&self, min: u64, max: u64) -> Option<bool> {
        let Document::String(string) = self else {
            return None;
        };
        // A character is one to four bytes: the byte length alone often decides.
        let bytes = string.len() as u64;
        if bytes < min || bytes.div_ceil(4) > max {
            return Some(false);
        }
        if min <= bytes.div_ceil(4) && bytes <= max {
            return Some(true);
        }
        Some((min..=max).contains(&(string.chars().count() as u64)))
    }

    fn equals_value(&self, expected: &Value) -> bool {
        self.equals(expected)
    }

    fn to_value(&self) -> Cow<'a, Value> {
        Cow::Owned(Document::to_value(self))
    }

    fn identity(&self) -> Option<NodeIdentity> {
        Some(NodeIdentity::new(
            std::ptr::from_ref::<Document<'_>>(self) as usize
        ))
    }
}

/// The members of an object, by key.
pub struct Members<'a>(std::slice::Iter<'a, (Cow<'a, str>, Document<'a>)>);

impl<'a> Iterator for Members<'a> {
    type Item = (&'a str, &'a Document<'a>);

    fn next(&mut self) -> Option<Self::Item> {
        self.0.next().map(|(key, value)| (key.as_ref(), value))
    }
}

impl<'a> Object<'a, BorrowedJson> for &'a [(Cow<'a, str>, Document<'a>)] {
    type Node = &'a Document<'a>;
    type MemberName = &'a str;
    type MembersIter = Members<'a>;

    fn len(&self) -> usize {
        <[_]>::len(self)
    }

    fn get(&self, key: &String) -> Option<&'a Document<'a>> {
        member(self, key)
    }

    fn members(&self) -> Members<'a> {
        Members(self.iter())
    }
}

impl<'a> Array<'a, BorrowedJson> for &'a [Document<'a>] {
    type Node = &'a Document<'a>;
    type ElementsIter = std::slice::Iter<'a, Document<'a>>;

    fn len(&self) -> usize {
        <[_]>::len(self)
    }

    fn elements(&self) -> Self::ElementsIter {
        self.iter()
    }

    fn is_unique(&self) -> bool {
        if self.len() > PAIRWISE_UNIQUE {
            let values: Vec<Value> = self.iter().map(Document::to_value).collect();
            return jsonschema::json::unique::is_unique(&values);
        }
        self.iter()
            .enumerate()
            .all(|(at, item)| self[at + 1..].iter().all(|other| !item.same(other)))
    }
}

/// Members in the order a `serde_json::Map` iterates them.
pub(crate) fn sort_members(members: &mut [(Cow<'_, str>, Document<'_>)]) {
    members.sort_unstable_by(|(left, _), (right, _)| left.as_ref().cmp(right.as_ref()));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(text: &str) -> Document<'_> {
        match super::super::keys::parse_unique(text.as_bytes()) {
            Ok(document) => document,
            Err(error) => panic!("{error}"),
        }
    }

    #[test]
    fn a_document_is_the_value_serde_json_parses() {
        let text = r#"{"b": [1, 2.5, -3, "x\u0041", true, null, {}], "a": {"z": 1, "y": "é"}}"#;
        let value: Value = serde_json::from_str(text).unwrap_or_default();
        assert_eq!(parsed(text).to_value(), value);
    }

    #[test]
    fn members_are_sorted_and_found_by_key() {
        let text = r#"{"kinds": 1, "cursor": 2, "query": 3, "a": 4}"#;
        let document = parsed(text);
        let Document::Object(members) = &document else {
            panic!("an object");
        };
        let keys: Vec<&str> = members.iter().map(|(key, _)| key.as_ref()).collect();
        assert_eq!(keys, ["a", "cursor", "kinds", "query"]);
        assert_eq!(
            member(members, "query"),
            Some(&Document::Number(Number::from(3)))
        );
        assert_eq!(member(members, "limit"), None);
    }

    #[test]
    fn strings_without_escapes_borrow_the_input() {
        let document = parsed(r#"["plain", "esc\naped"]"#);
        let Document::Array(items) = &document else {
            panic!("an array");
        };
        assert!(matches!(
            &items[0],
            Document::String(Cow::Borrowed("plain"))
        ));
        assert!(matches!(&items[1], Document::String(Cow::Owned(_))));
    }

    #[test]
    fn equality_is_json_equality() {
        let one = parsed("[1, {\"a\": [1.0]}]");
        let same = parsed("[1.0, {\"a\": [1]}]");
        let other = parsed("[1, {\"a\": [2]}]");
        assert!(one.same(&same));
        assert!(!one.same(&other));
        assert!(one.equals(&serde_json::json!([1.0, {"a": [1]}])));
        assert!(!one.equals(&serde_json::json!([1, {"a": [1], "b": 2}])));
        assert!(!parsed("\"1\"").equals(&serde_json::json!(1)));
    }

    #[test]
    fn unique_items_agree_pairwise_and_hashed() {
        for text in [
            "[1, 1.0]",
            "[{\"a\": 1}, {\"a\": 1.0}]",
            "[1, \"1\", true, null]",
        ] {
            let document = parsed(text);
            let Document::Array(items) = &document else {
                panic!("an array");
            };
            let values: Vec<Value> = items.iter().map(Document::to_value).collect();
            assert_eq!(
                items.as_slice().is_unique(),
                jsonschema::json::unique::is_unique(&values),
                "{text}"
            );
        }
    }
}
