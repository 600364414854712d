//! Stage 3 of the pipeline (claims): how a stated string agrees with a string
//! a fact recomputes (`/project/requires-python` = `>=3.10`). Strings are
//! compared as written; a version, or a version specifier, is compared as a
//! version: `>=3.10` states "3.10+", "3.10 or later", ">= 3.10" and "3.10",
//! and `3.10.0` is `3.10`.

/// Whether `stated` (the record's words) states `observed`, and, when it does
/// not, the observed value written the way the record writes it.
pub fn compare(stated: &str, observed: &str) -> Result<(), String> {
    let observed_text = unquoted(observed);
    let mut stated = unquoted(stated);
    // A capture that ran into the sentence's punctuation ("licensed under
    // MIT.") states the word before it.
    if let Some(last) = stated
        .chars()
        .last()
        .filter(|c| matches!(c, '.' | ',' | ';' | ':'))
        && !observed_text.ends_with(last)
    {
        stated = stated
            .get(..stated.len() - last.len_utf8())
            .unwrap_or(stated);
    }
    if stated == observed_text || squeezed(stated) == squeezed(observed_text) {
        return Ok(());
    }
    match (Claimed::parse(stated), Spec::parse(observed_text)) {
        (Some(claimed), Some(spec)) => {
            if claimed.agrees(&spec) {
                Ok(())
            } else {
                Err(claimed.render(stated, &spec))
            }
        }
        _ => Err(observed_text.to_owned()),
    }
}

fn unquoted(text: &str) -> &str {
    let text = text.trim();
    for (open, close) in [('"', '"'), ('\'', '\''), ('`', '`'), ('“', '”')] {
        if let Some(inner) = text
            .strip_prefix(open)
            .and_then(|rest| rest.strip_suffix(close))
        {
            return inner.trim();
        }
    }
    text
}

fn squeezed(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}

/// A version's numeric release parts (`3.10.0` → `[3, 10]`, trailing zeros
/// dropped so `3.10` and `3.10.0` are one version), and how it was written.
#[derive(Debug, Clone)]
struct Version(Vec<u64>, String);

impl PartialEq for Version {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}

impl Eq for Version {}

impl Version {
    /// Reads a version at the start of `text`; returns it and the bytes read.
    fn read(text: &str) -> Option<(Version, usize)> {
        let text_start = text.len() - text.trim_start_matches(['v', 'V']).len();
        let body = text.get(text_start..)?;
        let mut parts = Vec::new();
        let mut at = 0;
        loop {
            let digits = body
                .get(at..)?
                .bytes()
                .take_while(u8::is_ascii_digit)
                .count();
            if digits == 0 || digits > 9 {
                break;
            }
            parts.push(body.get(at..at + digits)?.parse().ok()?);
            at += digits;
            let dot_digit = body.as_bytes().get(at) == Some(&b'.')
                && body.as_bytes().get(at + 1).is_some_and(u8::is_ascii_digit);
            if !dot_digit {
                break;
            }
            at += 1;
        }
        if parts.is_empty() {
            return None;
        }
        while parts.len() > 1 && parts.last() == Some(&0) {
            parts.pop();
        }
        let written = body.get(..at)?.to_owned();
        Some((Version(parts, written), text_start + at))
    }

    fn show(&self) -> String {
        self.1.clone()
    }
}

/// What a recomputed string says about versions: an exact version, or a
/// lowest one (`>=3.10`, `~=3.10`, `^1.2`, with any upper bound after it).
#[derive(Debug, Clone, PartialEq, Eq)]
enum Spec {
    Exact(Version),
    AtLeast(Version),
}

impl Spec {
    fn parse(text: &str) -> Option<Spec> {
        let first = text.split(',').next()?.trim();
        for (operator, lowest) in [
            (">=", true),
            ("~=", true),
            ("^", true),
            ("~", true),
            ("==", false),
            ("=", false),
            ("", false),
        ] {
            let Some(rest) = first.strip_prefix(operator) else {
                continue;
            };
            let rest = rest.trim_start();
            let (version, used) = Version::read(rest)?;
            // `3.10.*` is the 3.10 series.
            let tail = rest.get(used..)?.trim_start_matches(".*");
            if !tail.trim().is_empty() {
                return None;
            }
            return Some(if lowest {
                Spec::AtLeast(version)
            } else {
                Spec::Exact(version)
            });
        }
        None
    }
}

/// A version as prose states one: "3.10+", "3.10 or later", ">= 3.10", "3.10".
#[derive(Debug, Clone, PartialEq, Eq)]
struct Claimed {
    version: Version,
    /// Where the version is in the stated text, to write the observed one there.
    at: std::ops::Range<usize>,
    at_least: bool,
}

const AT_LEAST_WORDS: [&str; 7] = [
    "+",
    "or later",
    "or newer",
    "or above",
    "or higher",
    "and up",
    "and above",
];

impl Claimed {
    fn parse(text: &str) -> Option<Claimed> {
        let lead = [">=", "≥", "=="]
            .iter()
            .find(|op| text.starts_with(**op))
            .copied();
        let start = lead.map_or(0, str::len);
        let after_op = text.get(start..)?;
        let space = after_op.len() - after_op.trim_start().len();
        let (version, used) = Version::read(after_op.trim_start())?;
        let begin = start + space;
        let end = begin + used;
        let rest = text.get(end..)?.trim().to_ascii_lowercase();
        let at_least_words = AT_LEAST_WORDS.iter().any(|w| rest == *w);
        if !rest.is_empty() && !at_least_words {
            return None;
        }
        Some(Claimed {
            version,
            at: begin..end,
            at_least: at_least_words || matches!(lead, Some(">=" | "≥")),
        })
    }

    fn agrees(&self, spec: &Spec) -> bool {
        match spec {
            Spec::AtLeast(lowest) => self.version == *lowest,
            Spec::Exact(exact) => !self.at_least && self.version == *exact,
        }
    }

    /// The observed version where the record wrote its own, the rest as
    /// written ("3.11+" for a stated "3.10+" and `>=3.11`).
    fn render(&self, stated: &str, spec: &Spec) -> String {
        let (Spec::AtLeast(version) | Spec::Exact(version)) = spec;
        if matches!(spec, Spec::Exact(_)) && self.at_least {
            return version.show();
        }
        let mut shown = stated.to_owned();
        shown.replace_range(self.at.clone(), &version.show());
        if matches!(spec, Spec::AtLeast(_)) && !self.at_least {
            shown.push('+');
        }
        shown
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_compare_as_written() {
        assert_eq!(compare("`main`", "main"), Ok(()));
        assert_eq!(compare("\"Apache-2.0\"", "Apache-2.0"), Ok(()));
        assert_eq!(compare("MIT", "Apache-2.0"), Err("Apache-2.0".to_owned()));
        assert_eq!(compare("MIT.", "MIT"), Ok(()));
        assert_eq!(compare("2.4.1", "2.5.0"), Err("2.5.0".to_owned()));
    }

    #[test]
    fn a_specifier_states_its_lowest_version() {
        for stated in [
            "3.10+",
            "3.10 or later",
            ">=3.10",
            ">= 3.10",
            "3.10",
            "3.10.0+",
            "≥3.10",
        ] {
            assert_eq!(compare(stated, ">=3.10"), Ok(()), "{stated}");
        }
        assert_eq!(compare("3.10+", ">=3.10,<4"), Ok(()));
        assert_eq!(compare("3.8+", "~=3.8"), Ok(()));
        assert_eq!(compare("3.10+", ">=3.11"), Err("3.11+".to_owned()));
        assert_eq!(compare("3.10", ">=3.11"), Err("3.11+".to_owned()));
        assert_eq!(compare("3.1+", ">=3.10"), Err("3.10+".to_owned()));
        // An exact version is not a floor.
        assert_eq!(compare("1.2.3", "==1.2.3"), Ok(()));
        assert_eq!(compare("1.2.3", "1.2.3"), Ok(()));
        assert_eq!(compare("1.2+", "1.2.0"), Err("1.2.0".to_owned()));
        // Words that are no version stay strings.
        assert_eq!(compare("3.10 at least", ">=3.10"), Err(">=3.10".to_owned()));
    }
}
