//! Validation core, step 2 (with the bounds scan, before the parse that builds the
//! document): every object's keys are distinct. JSON leaves a repeated key to the
//! parser — serde_json keeps the last value, other parsers the first — so a call
//! whose `"projectId"` appears twice could pass the schema with one value and reach
//! a handler with the other. Refusing the repeat is the only fail-closed answer.
//!
//! One pass over the bytes with serde_json's tokenizer and no values kept: each
//! object's keys go into a set (borrowed from the input where no escape needs
//! decoding, so `"a"` and `"\u0061"` are one key), and the path walked so far is
//! kept only to name where a repeat is. The walk recurses once per nesting level,
//! which the bounds scan has already capped at [`super::MAX_NESTING`] (and
//! serde_json caps at 128 on its own).

use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, Error as _, MapAccess, SeqAccess, Visitor};

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
    let mut path = Vec::new();
    let mut repeated = None;
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let walked = Walk {
        path: &mut path,
        repeated: &mut repeated,
    }
    .deserialize(&mut deserializer)
    .and_then(|()| deserializer.end());
    match walked {
        Ok(()) => Ok(()),
        Err(error) => {
            let offset = super::byte_offset(bytes, error.line(), error.column());
            Err(match repeated {
                Some(path) => KeysError::Duplicate { path, offset },
                None => KeysError::Malformed { offset },
            })
        }
    }
}

/// One value of the document; `path` is where it sits, `repeated` where the first
/// repeated key was found.
struct Walk<'s> {
    path: &'s mut Vec<String>,
    repeated: &'s mut Option<Vec<String>>,
}

impl Walk<'_> {
    fn child(&mut self) -> Walk<'_> {
        Walk {
            path: self.path,
            repeated: self.repeated,
        }
    }
}

impl<'de> DeserializeSeed<'de> for Walk<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Walk<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> Result<(), A::Error> {
        let mut index = 0usize;
        loop {
            self.path.push(index.to_string());
            let more = seq.next_element_seed(self.child())?.is_some();
            self.path.pop();
            if !more {
                return Ok(());
            }
            index += 1;
        }
    }

    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<(), A::Error> {
        let mut keys: HashSet<Cow<'de, str>> = HashSet::new();
        while let Some(Key(key)) = map.next_key()? {
            if keys.contains(&key) {
                let mut path = self.path.clone();
                path.push(key.into_owned());
                *self.repeated = Some(path);
                return Err(A::Error::custom("duplicate key"));
            }
            self.path.push(key.to_string());
            map.next_value_seed(self.child())?;
            self.path.pop();
            keys.insert(key);
        }
        Ok(())
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
