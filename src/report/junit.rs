//! The JUnit XML report, which GitLab, Jenkins, Azure Pipelines and most CI
//! test panels read: one test case per finding, failed with its message, and
//! one passing case on a clean run, so a panel shows that the gate ran.

use std::fmt::Write as _;

use super::Report;

/// Text from outside as XML character data or an attribute value: recount's
/// one rule for outside text first (controls and bidi shown escaped, which
/// also keeps out every character XML 1.0 forbids), then XML's five.
fn xml(text: &str) -> String {
    let shown = super::escape::untrusted_lines(text, super::escape::LINE_CAP);
    let mut out = String::with_capacity(shown.len());
    for c in shown.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

pub fn render(report: &Report) -> String {
    let mut cases = String::new();
    let (tests, failures, errors);
    if let Some(error) = &report.error {
        let mut message = error.message.clone();
        if let Some(help) = &error.help {
            let _ = write!(message, "\nhelp: {help}");
        }
        let at = error.path.as_deref().unwrap_or(".");
        let _ = writeln!(
            cases,
            "    <testcase name=\"recount check\" classname=\"{}\">\n      <error message=\"recount could not run\" type=\"{}\">{}</error>\n    </testcase>",
            xml(at),
            xml(&error.code),
            xml(&message)
        );
        (tests, failures, errors) = (1, 0, 1);
    } else if report.findings.is_empty() {
        let _ = writeln!(
            cases,
            "    <testcase name=\"the records agree with {}\" classname=\"recount\"/>",
            xml(&report.snapshot.label)
        );
        (tests, failures, errors) = (1, 0, 0);
    } else {
        for reported in &report.findings {
            let f = &reported.finding;
            let place = format!(
                "{}:{}:{}",
                f.location.path, f.location.line, f.location.column
            );
            let first = f.message.lines().next().unwrap_or_default();
            let _ = writeln!(
                cases,
                "    <testcase name=\"{} {}\" classname=\"{}\" file=\"{}\" line=\"{}\">\n      <failure message=\"{}\" type=\"{}\">{}: {}</failure>\n    </testcase>",
                xml(f.check.as_str()),
                xml(&place),
                xml(&f.location.path),
                xml(&f.location.path),
                f.location.line,
                xml(first),
                xml(f.check.as_str()),
                xml(&place),
                xml(&f.message)
            );
        }
        (tests, failures, errors) = (report.findings.len(), report.findings.len(), 0);
    }
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"recount\" tests=\"{tests}\" failures=\"{failures}\" errors=\"{errors}\">\n  <testsuite name=\"recount check\" tests=\"{tests}\" failures=\"{failures}\" errors=\"{errors}\" skipped=\"0\">\n{cases}  </testsuite>\n</testsuites>\n"
    )
}
