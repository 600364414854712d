//! Validation core, step 3 (after the bounds scan): the document is parsed into a
//! [`Document`] and every object's keys are checked distinct in the same pass. JSON
//! leaves a repeated key to the parser — serde_json keeps the last value, other
//! parsers the first — so a call whose `"projectId"` appears twice could pass the
//! schema with one value and reach a handler with the other. Refusing the repeat is
//! the only fail-closed answer.
//!
//! The pass is serde_json's tokenizer, so what it accepts and how it decodes are
//! serde_json's. Keys are compared decoded, so `"a"` and `"\u0061"` are one key.
//! Nothing is kept to name where a repeat is until one is found: the path is
//! gathered as the error unwinds, each level adding its key or index. The walk
//! recurses once per nesting level, which the bounds scan has already capped at
//! [`super::MAX_NESTING`] (and serde_json caps at 128 on its own).

use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, Error as _, MapAccess, SeqAccess, Visitor};
use serde_json::Number;

use super::document::{Document, sort_members};

/// Why a document's keys are not acceptable.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KeysError {
    /// A key appears twice in one object. `path` ends with the repeated key; it
    /// names where, never what value either occurrence had.
    #[error("a key appears twice in one object, at byte {offset}")]
    Duplicate { path: Vec<String>, offset: u64 },
    /// The tokenizer stopped (invalid UTF-8, a lone surrogate, a number out of
    /// range: what the bounds scan leaves to the parser).
    #[error("the document is not well-formed JSON at byte {offset}")]
    Malformed { offset: u64 },
}

/// Checks that no object of `bytes` (one JSON document) holds a key twice.
pub fn check_unique(bytes: &[u8]) -> Result<(), KeysError> {
    parse_unique(bytes).map(drop)
}

/// Parses `bytes` (one JSON document), or says which object holds a key twice.
pub fn parse_unique(bytes: &[u8]) -> Result<Document<'_>, KeysError> {
    let mut repeated = None;
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let parsed = Build {
        repeated: &mut repeated,
    }
    .deserialize(&mut deserializer)
    .and_then(|document| deserializer.end().map(|()| document));
    parsed.map_err(|error| {
        let offset = super::byte_offset(bytes, error.line(), error.column());
        match repeated {
            Some(mut path) => {
                // Gathered from the repeated key outwards.
                path.reverse();
                KeysError::Duplicate { path, offset }
            }
            None => KeysError::Malformed { offset },
        }
    })
}

/// Objects up to this many members are searched for a repeat member by member;
/// past it the keys go into a set, so a huge object stays linear.
const SCANNED_MEMBERS: usize = 16;

/// One value of the document. `repeated` is the path of the first repeated key,
/// innermost segment first, filled as the error it raises unwinds.
struct Build<'s> {
    repeated: &'s mut Option<Vec<String>>,
}

impl Build<'_> {
    fn child(&mut self) -> Build<'_> {
        Build {
            repeated: self.repeated,
        }
    }

    /// Name this level's `segment` in the path of a repeat found below it.
    fn through(&mut self, segment: impl FnOnce() -> String) {
        if let Some(path) = self.repeated {
            path.push(segment());
        }
    }
}

impl<'de> DeserializeSeed<'de> for Build<'_> {
    type Value = Document<'de>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Document<'de>, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Build<'_> {
    type Value = Document<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, value: bool) -> Result<Document<'de>, E> {
        Ok(Document::Bool(value))
    }
    fn visit_i64<E>(self, value: i64) -> Result<Document<'de>, E> {
        Ok(Document::Number(value.into()))
    }
    fn visit_u64<E>(self, value: u64) -> Result<Document<'de>, E> {
        Ok(Document::Number(value.into()))
    }
    fn visit_f64<E>(self, value: f64) -> Result<Document<'de>, E> {
        // What serde_json's own `Value` makes of a float it cannot hold.
        Ok(Number::from_f64(value).map_or(Document::Null, Document::Number))
    }
    fn visit_borrowed_str<E>(self, value: &'de str) -> Result<Document<'de>, E> {
        Ok(Document::String(Cow::Borrowed(value)))
    }
    fn visit_str<E>(self, value: &str) -> Result<Document<'de>, E> {
        Ok(Document::String(Cow::Owned(value.to_owned())))
    }
    fn visit_unit<E>(self) -> Result<Document<'de>, E> {
        Ok(Document::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> Result<Document<'de>, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        loop {
            match seq.next_element_seed(self.child()) {
                Ok(Some(item)) => items.push(item),
                Ok(None) => return Ok(Document::Array(items)),
                Err(error) => {
                    let index = items.len();
                    self.through(|| index.to_string());
                    return Err(error);
                }
            }
        }
    }

    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<Document<'de>, A::Error> {
        let mut members: Vec<(Cow<'de, str>, Document<'de>)> = Vec::new();
        let mut seen: HashSet<Cow<'de, str>> = HashSet::new();
        while let Some(Key(key)) = map.next_key()? {
            let repeat = if members.len() < SCANNED_MEMBERS {
                members.iter().any(|(name, _)| *name == key)
            } else {
                if seen.is_empty() {
                    seen.extend(members.iter().map(|(name, _)| name.clone()));
                }
                !seen.insert(key.clone())
            };
            if repeat {
                *self.repeated = Some(vec![key.into_owned()]);
                return Err(A::Error::custom("duplicate key"));
            }
            match map.next_value_seed(self.child()) {
                Ok(value) => members.push((key, value)),
                Err(error) => {
                    self.through(|| key.into_owned());
                    return Err(error);
                }
            }
        }
        sort_members(&mut members);
        Ok(Document::Object(members))
    }
}

/// An object key, borrowed from the input when it holds no escape.
struct Key<'de>(Cow<'de, str>);

impl<'de> serde::Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object key")
            }
            fn visit_borrowed_str<E>(self, key: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(key)))
            }
            fn visit_str<E>(self, key: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(key.to_owned())))
            }
        }
        deserializer.deserialize_str(KeyVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn duplicate(text: &str) -> Option<Vec<String>> {
        match check_unique(text.as_bytes()) {
            Err(KeysError::Duplicate { path, .. }) => Some(path),
            _ => None,
        }
    }

    #[test]
    fn distinct_keys_pass_at_every_depth() {
        assert_eq!(
            check_unique(br#"{"a": 1, "b": {"a": [1, {"a": 2, "b": 3}]}, "c": null}"#),
            Ok(())
        );
        assert_eq!(check_unique(b"[1, 2.5, \"x\", true, []]"), Ok(()));
    }

    #[test]
    fn a_repeat_is_named_by_its_path_at_the_top_and_nested() {
        assert_eq!(
            duplicate(r#"{"projectId": "BAD ID!", "projectId": "abc"}"#),
            Some(vec!["projectId".to_owned()])
        );
        assert_eq!(
            duplicate(r#"{"a": [0, {"x": 1, "y": {"k": 1, "k": 2}}]}"#),
            Some(
                vec!["a", "1", "y", "k"]
                    .into_iter()
                    .map(String::from)
                    .collect()
            )
        );
    }

    #[test]
    fn a_repeat_in_a_large_object_is_found_through_the_set() {
        let keys: Vec<String> = (0..40).map(|i| format!("\"k{i}\": {i}")).collect();
        let text = format!("{{\"o\": {{{}, \"k\\u0033\": 0}}}}", keys.join(", "));
        assert_eq!(
            duplicate(&text),
            Some(vec!["o".to_owned(), "k3".to_owned()])
        );
        let text = format!("{{{}, \"k40\": 0}}", keys.join(", "));
        assert_eq!(check_unique(text.as_bytes()), Ok(()));
    }

    #[test]
    fn an_escaped_spelling_of_the_same_key_is_a_repeat() {
        assert_eq!(
            duplicate(r#"{"ab": 1, "\u0061b": 2}"#),
            Some(vec!["ab".to_owned()])
        );
    }

    #[test]
    fn the_error_names_the_place_never_the_values() {
        let Err(error) = check_unique(br#"{"k": "first-secret", "k": "second-secret"}"#) else {
            panic!("a repeated key is refused");
        };
        let shown = format!("{error} {error:?}");
        assert!(!shown.contains("secret"), "{shown}");
    }

    #[test]
    fn what_the_tokenizer_refuses_is_malformed() {
        assert!(matches!(
            check_unique(b"{\"a\": \"\xff\"}"),
            Err(KeysError::Malformed { .. })
        ));
        assert!(matches!(
            check_unique(b"{} {}"),
            Err(KeysError::Malformed { .. })
        ));
    }
}
