//! Tests of stage 2a's source constants: every language form, imports, ambiguity,
//! refusals and literal entry counts, over an in-memory snapshot.

use std::sync::Arc;

use super::*;
use crate::snapshot::memory::MemorySnapshot;

fn constants(files: &[(&str, &str)]) -> Constants {
    Constants::new(Arc::new(MemorySnapshot::new(files)))
}

fn int(v: i128) -> Number {
    Number::from_integer(v)
}

fn value(c: &Constants, name: &str, file: Option<&str>) -> Number {
    match c.resolve(name, file) {
        Ok(constant) => constant.value,
        Err(e) => panic!("{name}: {e}"),
    }
}

fn why(result: Result<Constant, ConstantError>) -> String {
    match result {
        Err(ConstantError::NotStatic { why, .. }) => why,
        other => panic!("expected NotStatic, got {other:?}"),
    }
}

// ---------- Python ----------

const PATHS_PY: &str = r#""""Limits on what the indexer reads.

MAX_SOURCE_FILE_BYTES = 1  (a docstring is not a definition)
"""
from typing import Final

# MAX_SOURCE_FILE_BYTES = 2
MAX_SOURCE_FILE_BYTES: Final[int] = 8_388_608


def _helper():
    MAX_SOURCE_FILE_BYTES = 3
    return MAX_SOURCE_FILE_BYTES
"#;

#[test]
fn python_annotated_final_with_separators() {
    let c = constants(&[("src/pkg/security/paths.py", PATHS_PY)]);
    let constant = c.resolve("MAX_SOURCE_FILE_BYTES", None).unwrap();
    assert_eq!(constant.value, int(8_388_608));
    assert_eq!(constant.file, "src/pkg/security/paths.py");
    assert_eq!((constant.line, constant.column), (8, 1));
    assert_eq!(constant.source, "8_388_608");
}

#[test]
fn python_docstring_comment_and_function_bodies_are_not_definitions() {
    let only_fakes = r#""""
MAX_X = 5
"""
# MAX_X = 6
def f():
    MAX_X = 7
if True:
    MAX_X = 8
"#;
    let c = constants(&[("a.py", only_fakes)]);
    assert_eq!(
        c.resolve("MAX_X", None),
        Err(ConstantError::NotFound {
            name: "MAX_X".into()
        })
    );
    let c = constants(&[("a.py", only_fakes), ("b.py", "MAX_X = 9\n")]);
    let constant = c.resolve("MAX_X", None).unwrap();
    assert_eq!((constant.value, constant.file.as_str()), (int(9), "b.py"));
}

#[test]
fn python_literal_forms_and_operators() {
    let src = "\
A = 0x10
B: Final = 0o17 + 0b101
C: int = A * 2
D = 1.5
E = 7 / 2
F = 7 // 2
G = -7 % 3
H = 2 ** 10
I = 1 << 4 | 3 & ~0
J = (A + 1) * 3
K = 2 ** -1
L = 1.25e2
M = -2 ** 2
N = 0.1 + 0.2
O = 10 ^ 3
P = -7 // 2
";
    let c = constants(&[("m.py", src)]);
    let expect = [
        ("A", int(16)),
        ("B", int(20)),
        ("C", int(32)),
        ("D", Number::new(3, 2)),
        ("E", Number::new(7, 2)),
        ("F", int(3)),
        ("G", int(2)),
        ("H", int(1024)),
        ("I", int(19)),
        ("J", int(51)),
        ("K", Number::new(1, 2)),
        ("L", int(125)),
        ("M", int(-4)),
        ("N", Number::new(3, 10)),
        ("O", int(9)),
        ("P", int(-4)),
    ];
    for (name, expected) in expect {
        assert_eq!(value(&c, name, Some("m.py")), expected, "{name}");
    }
}

fn python_project() -> Constants {
    constants(&[
        ("src/pkg/__init__.py", ""),
        ("src/pkg/security/__init__.py", ""),
        ("src/pkg/security/paths.py", PATHS_PY),
        (
            "src/pkg/daemon/limits.py",
            "from pkg.security.paths import MAX_SOURCE_FILE_BYTES as SRC_MAX\n",
        ),
        (
            "src/pkg/daemon/server.py",
            "from .limits import SRC_MAX\nfrom ..security import paths\n\nMAX_REQUEST_BODY_BYTES = 3 * SRC_MAX + 1024 * 1024\nVIA_ATTRIBUTE = paths.MAX_SOURCE_FILE_BYTES // 2\n",
        ),
        (
            "src/pkg/daemon/other.py",
            "import pkg.security.paths as p\nimport pkg.security.paths\nA = p.MAX_SOURCE_FILE_BYTES + 1\nB = pkg.security.paths.MAX_SOURCE_FILE_BYTES + 2\n",
        ),
    ])
}

#[test]
fn python_aliased_import_resolves_through_two_files() {
    let c = python_project();
    let constant = c.resolve("MAX_REQUEST_BODY_BYTES", None).unwrap();
    assert_eq!(constant.value, int(26_214_400));
    assert_eq!(constant.file, "src/pkg/daemon/server.py");
    assert_eq!(constant.line, 4);
    assert_eq!(constant.source, "3 * SRC_MAX + 1024 * 1024");
    // Asking for the alias in the file that imports it lands on the definition.
    let alias = c
        .resolve("SRC_MAX", Some("src/pkg/daemon/limits.py"))
        .unwrap();
    assert_eq!(alias.name, "MAX_SOURCE_FILE_BYTES");
    assert_eq!(alias.file, "src/pkg/security/paths.py");
    assert_eq!(alias.value, int(8_388_608));
}

#[test]
fn python_module_attributes_follow_imports() {
    let c = python_project();
    assert_eq!(
        value(&c, "VIA_ATTRIBUTE", Some("src/pkg/daemon/server.py")),
        int(4_194_304)
    );
    assert_eq!(
        value(&c, "A", Some("src/pkg/daemon/other.py")),
        int(8_388_609)
    );
}

#[test]
fn python_plain_import_binds_the_top_package() {
    // `import pkg.security.paths as p` and `import pkg.security.paths` bind `p` and
    // `pkg`: distinct names, so both attribute forms work.
    let c = python_project();
    assert_eq!(
        value(&c, "B", Some("src/pkg/daemon/other.py")),
        int(8_388_610)
    );
}

#[test]
fn python_import_lists_and_package_relative_imports() {
    let c = constants(&[
        ("app/__init__.py", "ROOT = 2\n"),
        ("app/sizes.py", "A = 1\nB = 10\n"),
        (
            "app/use.py",
            "from .sizes import A, B as BEE\nfrom . import ROOT\nfrom app import sizes\nTOTAL = A + BEE + ROOT + sizes.B\nMOD = sizes\n",
        ),
    ]);
    assert_eq!(value(&c, "TOTAL", Some("app/use.py")), int(23));
    assert_eq!(value(&c, "BEE", Some("app/use.py")), int(10));
    assert!(why(c.resolve("MOD", Some("app/use.py"))).contains("module"));
}

#[test]
fn python_syntax_error_in_the_statement_is_refused() {
    let c = constants(&[("s.py", "OK = 1\nBROKEN = (1 +\n\nLATER = 2\n")]);
    assert_eq!(value(&c, "OK", None), int(1));
    assert!(why(c.resolve("BROKEN", None)).contains("syntax error"));
}

#[test]
fn python_same_name_in_two_modules_is_ambiguous_until_the_file_is_named() {
    let c = constants(&[
        ("src/a/limits.py", "TIMEOUT = 30\n"),
        ("src/b/limits.py", "\nTIMEOUT = 60\n"),
    ]);
    assert_eq!(
        c.resolve("TIMEOUT", None),
        Err(ConstantError::Ambiguous {
            name: "TIMEOUT".into(),
            candidates: vec!["src/a/limits.py:1".into(), "src/b/limits.py:2".into()],
        })
    );
    assert_eq!(value(&c, "TIMEOUT", Some("src/b/limits.py")), int(60));
}

#[test]
fn python_call_is_not_static_and_names_the_function() {
    let c = constants(&[(
        "t.py",
        "TIERS = (1, 2, 3)\nTIER_COUNT = len(TIERS)\nNAME = \"x\"\nS = [x for x in TIERS]\nR = TIERS.count\n",
    )]);
    let message = why(c.resolve("TIER_COUNT", None));
    assert!(message.contains("len()"), "{message}");
    let error = c.resolve("TIER_COUNT", None).unwrap_err().to_string();
    assert_eq!(
        error,
        "t.py:2: `TIER_COUNT` cannot be evaluated statically: it calls len(), which recount does not evaluate"
    );
    assert!(why(c.resolve("NAME", None)).contains("a string"));
    assert!(why(c.resolve("S", None)).contains("list comprehension"));
    assert!(why(c.resolve("TIERS", None)).contains("a tuple"));
    assert!(why(c.resolve("R", None)).contains("TIERS.count"));
}

#[test]
fn python_cycles_are_reported_with_the_chain() {
    let c = constants(&[("c.py", "A = B + 1\nB = A * 2\n")]);
    match c.resolve("A", None) {
        Err(ConstantError::Cycle { chain }) => {
            assert_eq!(chain, vec!["A (c.py:1)", "B (c.py:2)", "A (c.py:1)"]);
        }
        other => panic!("{other:?}"),
    }
    let c = constants(&[
        ("pkg/a.py", "from pkg.b import Y\nX = Y + 1\n"),
        ("pkg/b.py", "from pkg.a import X\nY = X + 1\n"),
    ]);
    match c.resolve("X", Some("pkg/a.py")) {
        Err(ConstantError::Cycle { chain }) => {
            assert_eq!(
                chain,
                vec!["X (pkg/a.py:2)", "Y (pkg/b.py:2)", "X (pkg/a.py:2)"]
            );
        }
        other => panic!("{other:?}"),
    }
    let c = constants(&[
        ("pkg/a.py", "from pkg.b import X\n"),
        ("pkg/b.py", "from pkg.a import X\n"),
    ]);
    assert!(matches!(
        c.resolve("X", Some("pkg/a.py")),
        Err(ConstantError::Cycle { .. })
    ));
}

#[test]
fn python_overflow_and_division_by_zero_name_the_constant() {
    let c = constants(&[(
        "o.py",
        "BIG = 2 ** 200\nUSES_BIG = BIG + 1\nZERO = 0\nBAD = 1 / ZERO\nHUGE = 1_000_000_000_000_000_000_000_000_000_000_000_000_000_000\n",
    )]);
    for name in ["BIG", "USES_BIG"] {
        assert_eq!(
            c.resolve(name, None),
            Err(ConstantError::Arithmetic {
                name: "BIG".into(),
                file: "o.py".into(),
                line: 1,
                problem: ArithError::Overflow,
            })
        );
    }
    assert_eq!(
        c.resolve("BAD", None),
        Err(ConstantError::Arithmetic {
            name: "BAD".into(),
            file: "o.py".into(),
            line: 4,
            problem: ArithError::DivisionByZero,
        })
    );
    assert!(matches!(
        c.resolve("HUGE", None),
        Err(ConstantError::Arithmetic {
            problem: ArithError::Overflow,
            ..
        })
    ));
}

#[test]
fn python_import_errors() {
    let c = constants(&[
        ("a/pkg/m.py", "X = 1\n"),
        ("b/pkg/m.py", "X = 2\n"),
        (
            "use.py",
            "from pkg.m import X\nfrom math import pi\nY = X + 1\nZ = pi * 2\n",
        ),
    ]);
    assert_eq!(
        c.resolve("Y", Some("use.py")),
        Err(ConstantError::AmbiguousModule {
            module: "pkg.m".into(),
            file: "use.py".into(),
            line: 1,
            candidates: vec!["a/pkg/m.py".into(), "b/pkg/m.py".into()],
        })
    );
    let message = why(c.resolve("Z", Some("use.py")));
    assert!(
        message.contains("`math`") && message.contains("not a module of this repository"),
        "{message}"
    );
}

#[test]
fn python_rebinding_has_no_single_value() {
    let c = constants(&[(
        "r.py",
        "X = 1\nX = 2\nY = 3\nY += 1\nZ = W = 4\nA, B = 1, 2\nC = A\n",
    )]);
    assert!(why(c.resolve("X", Some("r.py"))).contains("lines 1, 2"));
    assert!(why(c.resolve("Y", Some("r.py"))).contains("lines 3, 4"));
    assert_eq!(value(&c, "Z", Some("r.py")), int(4));
    assert_eq!(value(&c, "W", Some("r.py")), int(4));
    assert!(why(c.resolve("C", Some("r.py"))).contains("neither defines nor imports"));
}

#[test]
fn named_file_errors() {
    let c = constants(&[("m.py", "A = 1\nB = 2\n"), ("README.md", "A = 1\n")]);
    assert_eq!(
        c.resolve("C", Some("m.py")),
        Err(ConstantError::NotInFile {
            name: "C".into(),
            file: "m.py".into(),
            defined: vec!["A".into(), "B".into()],
            defined_total: 2,
        })
    );
    assert_eq!(
        c.resolve("C", Some("m.py")).unwrap_err().to_string(),
        "m.py does not define `C` at module level (it defines A, B)"
    );
    assert_eq!(
        c.resolve("A", Some("nope.py")),
        Err(ConstantError::FileNotFound {
            file: "nope.py".into()
        })
    );
    assert_eq!(
        c.resolve("A", Some("README.md")),
        Err(ConstantError::UnsupportedFile {
            file: "README.md".into()
        })
    );
    // A README mentioning the name is not a source file, so no ambiguity.
    assert_eq!(value(&c, "A", None), int(1));
}

#[test]
fn prefilter_skips_files_without_the_name_and_parses_once() {
    let c = constants(&[
        ("a.py", "X = 1\n"),
        ("b.py", "this is not python (((\n"),
        ("c.py", "Y = X\n"),
    ]);
    assert_eq!(value(&c, "X", None), int(1));
    assert_eq!(value(&c, "X", None), int(1));
    let parsed: Vec<String> = {
        let mut keys: Vec<String> = lock(&c.tables).keys().cloned().collect();
        keys.sort();
        keys
    };
    assert_eq!(parsed, vec!["a.py", "c.py"]);
}

// ---------- Rust ----------

const LIMITS_RS: &str = r#"//! Limits. const FAKE: u32 = 5;
/* const FAKE: u32 = 6; */
pub const MAX: usize = 1_024usize;
const A: u64 = 1_u64 << 20;
pub(crate) static S: u32 = (MAX as u32) * 2;
const D: usize = 7 / 2;
const F: f64 = 7.0 / 2.0;
const G: f64 = 1.5e3_f64;
const NEG: i32 = -5 % 3;
const M: u64 = u32::MAX as u64 + 1;
const H: u32 = 0xFF_u32 + 0o7 + 0b11;
static mut COUNTER: u8 = 0;
const BAD_CAST: u8 = 300 as u8;
const CALL: usize = size_of::<u64>();
const STR: &str = "x";

mod inner {
    use super::{A, MAX};
    pub const IN: u32 = super::A as u32 + 1;
    const T: u64 = A + IN as u64;
    pub mod deeper {
        use super::*;
        pub const DEEP: u64 = super::T * 2;
        pub const VIA_GLOB: u64 = T + 1;
        pub const NOT_IMPORTED: u64 = D as u64;
    }
}

#[cfg(test)]
mod tests {
    const MAX: usize = 1;
}

fn f() {
    const LOCAL: u32 = 9;
}
"#;

#[test]
fn rust_consts_and_statics() {
    let c = constants(&[("src/limits.rs", LIMITS_RS)]);
    let file = Some("src/limits.rs");
    let expect = [
        ("MAX", int(1024)),
        ("A", int(1 << 20)),
        ("S", int(2048)),
        ("D", int(3)),
        ("F", Number::new(7, 2)),
        ("G", int(1500)),
        ("NEG", int(-2)),
        ("M", int(4_294_967_296)),
        ("H", int(255 + 7 + 3)),
        ("IN", int((1 << 20) + 1)),
        ("inner::IN", int((1 << 20) + 1)),
        ("inner::T", int((1 << 20) + (1 << 20) + 1)),
        ("DEEP", int(2 * ((1 << 20) + (1 << 20) + 1))),
        ("tests::MAX", int(1)),
        ("VIA_GLOB", int((1 << 20) + (1 << 20) + 2)),
    ];
    for (name, expected) in expect {
        assert_eq!(value(&c, name, file), expected, "{name}");
    }
    let max = c.resolve("MAX", file).unwrap();
    assert_eq!(
        (max.line, max.column, max.source.as_str()),
        (3, 11, "1_024usize")
    );
    assert!(why(c.resolve("COUNTER", file)).contains("static mut"));
    assert!(why(c.resolve("NOT_IMPORTED", file)).contains("use super::"));
    assert!(why(c.resolve("CALL", file)).contains("size_of::<u64>()"));
    assert!(why(c.resolve("STR", file)).contains("a string"));
    assert!(matches!(
        c.resolve("BAD_CAST", file),
        Err(ConstantError::Arithmetic {
            problem: ArithError::CastOutOfRange { .. },
            ..
        })
    ));
    assert!(matches!(
        c.resolve("FAKE", None),
        Err(ConstantError::NotFound { .. })
    ));
    assert!(matches!(
        c.resolve("LOCAL", None),
        Err(ConstantError::NotFound { .. })
    ));
}

#[test]
fn rust_bitwise_not_follows_the_unsigned_type() {
    let c = constants(&[(
        "bits.rs",
        "const MASK: u32 = !0;\nconst LOW: u8 = !0u8 >> 4;\nconst SIGNED: i32 = !0;\nconst WIDE: u64 = !(MASK as u64);\nconst TOO_BIG: u8 = 200 + 100;\nconst SUFFIX: u32 = 300u8 as u32;\n",
    )]);
    let file = Some("bits.rs");
    assert_eq!(value(&c, "MASK", file), int(4_294_967_295));
    assert_eq!(value(&c, "LOW", file), int(15));
    assert_eq!(value(&c, "SIGNED", file), int(-1));
    assert_eq!(value(&c, "WIDE", file), int(0xFFFF_FFFF_0000_0000));
    for name in ["TOO_BIG", "SUFFIX"] {
        assert!(
            matches!(
                c.resolve(name, file),
                Err(ConstantError::Arithmetic {
                    problem: ArithError::CastOutOfRange { .. },
                    ..
                })
            ),
            "{name}"
        );
    }
}

#[test]
fn rust_same_name_in_nested_modules_only_is_ambiguous() {
    let c = constants(&[(
        "x.rs",
        "mod a { pub const N: u8 = 1; }\nmod b { pub const N: u8 = 2; }\n",
    )]);
    assert_eq!(
        c.resolve("N", Some("x.rs")),
        Err(ConstantError::Ambiguous {
            name: "N".into(),
            candidates: vec!["x.rs:1".into(), "x.rs:2".into()],
        })
    );
    assert_eq!(value(&c, "b::N", Some("x.rs")), int(2));
}

// ---------- TypeScript / JavaScript ----------

#[test]
fn typescript_consts() {
    let src = "\
// export const FAKE = 1;
/** const FAKE = 2 */
export const MAX_BYTES: number = 1_000 * 1024;
const HEX = 0xff as const;
const HALF = 7 / 2;
const BIG = 10n / 3n;
const SHIFTED = 1 << 31;
let L = 5;
const CALL = Math.max(1, 2);
const SUM = (HEX + MAX_BYTES) satisfies number, OTHER = -HALF;
const OCTAL = 0755;
";
    let c = constants(&[
        ("web/limits.ts", src),
        (
            "web/app.tsx",
            "export const TSX_LIMIT = 3 * 4;\nconst el = <div>{TSX_LIMIT}</div>;\n",
        ),
        ("web/legacy.mjs", "export const JS_LIMIT = 2 ** 8;\n"),
    ]);
    let file = Some("web/limits.ts");
    assert_eq!(value(&c, "MAX_BYTES", file), int(1_024_000));
    assert_eq!(value(&c, "HEX", file), int(255));
    assert_eq!(value(&c, "HALF", file), Number::new(7, 2));
    assert_eq!(value(&c, "BIG", file), int(3));
    assert_eq!(value(&c, "SHIFTED", file), int(-2_147_483_648));
    assert_eq!(value(&c, "SUM", file), int(1_024_255));
    assert_eq!(value(&c, "OTHER", file), Number::new(-7, 2));
    assert!(why(c.resolve("L", file)).contains("`let`"));
    assert!(why(c.resolve("CALL", file)).contains("Math.max()"));
    assert!(why(c.resolve("OCTAL", file)).contains("legacy octal"));
    assert!(matches!(
        c.resolve("FAKE", None),
        Err(ConstantError::NotFound { .. })
    ));
    assert_eq!(value(&c, "TSX_LIMIT", None), int(12));
    assert_eq!(value(&c, "JS_LIMIT", None), int(256));
}

// ---------- Go ----------

#[test]
fn go_consts() {
    let a = "\
package limits

import \"math\"

// const FAKE = 1
const X = 1_000
const Y int64 = 1 << 40

const (
\tA = 10
\tB
\tC, D = 7 / 2, 7.0 / 2
\tE = iota
\tF
)

const O = 0755
const Typed float64 = 7 / 2
const Bound = math.MaxInt32
const Conv = int64(3) * 2
var V = 5
const AllOnes = ^uint32(0)
const Flipped = ^1
const BadOctal = 08
";
    let b = "package limits\n\nconst Z = X * 2\nconst Missing = Nope + 1\n";
    let c = constants(&[
        ("internal/limits/a.go", a),
        ("internal/limits/b.go", b),
        ("internal/other/c.go", "package other\nconst Nope = 1\n"),
    ]);
    let file = Some("internal/limits/a.go");
    let expect = [
        ("X", int(1000)),
        ("Y", int(1 << 40)),
        ("A", int(10)),
        ("B", int(10)),
        ("C", int(3)),
        ("D", Number::new(7, 2)),
        ("O", int(493)),
        ("Typed", int(3)),
        ("Bound", int(2_147_483_647)),
        ("Conv", int(6)),
        ("AllOnes", int(4_294_967_295)),
        ("Flipped", int(-2)),
    ];
    for (name, expected) in expect {
        assert_eq!(value(&c, name, file), expected, "{name}");
    }
    assert!(why(c.resolve("E", file)).contains("iota"));
    assert!(why(c.resolve("F", file)).contains("iota"));
    assert!(why(c.resolve("V", file)).contains("`var`"));
    // Go has no digit 8 in octal; the grammar itself rejects `08`.
    assert_eq!(
        c.resolve("BadOctal", file).unwrap_err().to_string(),
        "internal/limits/a.go:24: `BadOctal` cannot be evaluated statically: it sits in a statement the parser could not read (a syntax error)"
    );
    assert_eq!(value(&c, "Z", Some("internal/limits/b.go")), int(2000));
    assert!(why(c.resolve("Missing", Some("internal/limits/b.go"))).contains("package limits"));
    assert!(matches!(
        c.resolve("FAKE", None),
        Err(ConstantError::NotFound { .. })
    ));
}

// ---------- literal entries ----------

fn entries(c: &Constants, file: &str, name: &str) -> (usize, usize, usize) {
    match c.literal_entries(file, name) {
        Ok(e) => (e.count, e.first_line, e.last_line),
        Err(e) => panic!("{name}: {e}"),
    }
}

#[test]
fn python_entries() {
    let src = "\
import x

_FACES = (
    \"cli\",
    \"mcp\",  # a comment is not an entry
    \"daemon\",
    \"web\",
    \"sdk\",
)
ITEMS = [1, 2, 3]
TABLE = {\"a\": 1, \"b\": 2}
TAGS: frozenset = {\"x\", \"y\", \"z\", \"w\"}
PAIR: tuple[int, int] = (1, 2)
BARE = 1, 2, 3
EMPTY = ()
ONE = (1,)
CALLED = frozenset({\"a\"})
SPREAD = [*ITEMS, 4]
NUMBER = 5
";
    let c = constants(&[("faces.py", src)]);
    assert_eq!(entries(&c, "faces.py", "_FACES"), (5, 3, 9));
    assert_eq!(entries(&c, "faces.py", "ITEMS"), (3, 10, 10));
    assert_eq!(entries(&c, "faces.py", "TABLE"), (2, 11, 11));
    assert_eq!(entries(&c, "faces.py", "TAGS"), (4, 12, 12));
    assert_eq!(entries(&c, "faces.py", "PAIR"), (2, 13, 13));
    assert_eq!(entries(&c, "faces.py", "BARE"), (3, 14, 14));
    assert_eq!(entries(&c, "faces.py", "EMPTY"), (0, 15, 15));
    assert_eq!(entries(&c, "faces.py", "ONE"), (1, 16, 16));
    let faces = c.literal_entries("faces.py", "_FACES").unwrap();
    assert_eq!(
        (faces.name.as_str(), faces.file.as_str()),
        ("_FACES", "faces.py")
    );
    match c.literal_entries("faces.py", "CALLED") {
        Err(ConstantError::NotACollection { what, line, .. }) => {
            assert_eq!((what.as_str(), line), ("a call to frozenset()", 17));
        }
        other => panic!("{other:?}"),
    }
    match c.literal_entries("faces.py", "SPREAD") {
        Err(ConstantError::NotACollection { what, .. }) => {
            assert!(what.contains("*ITEMS"), "{what}")
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        c.literal_entries("faces.py", "NUMBER")
            .unwrap_err()
            .to_string(),
        "faces.py:19: `NUMBER` is bound to a number, not a literal collection"
    );
    assert!(matches!(
        c.literal_entries("faces.py", "NOPE"),
        Err(ConstantError::NotInFile { .. })
    ));
}

#[test]
fn rust_entries() {
    let src = "\
const N: usize = 4;
pub const A: [u8; 3] = [1, 2, 3];
pub static B: &[&str] = &[
    \"a\", // first
    \"b\",
];
const C: [u8; N] = [0; N];
const D: u32 = 5;
";
    let c = constants(&[("e.rs", src)]);
    assert_eq!(entries(&c, "e.rs", "A"), (3, 2, 2));
    assert_eq!(entries(&c, "e.rs", "B"), (2, 3, 6));
    assert_eq!(entries(&c, "e.rs", "C"), (4, 7, 7));
    assert!(matches!(
        c.literal_entries("e.rs", "D"),
        Err(ConstantError::NotACollection { .. })
    ));
}

#[test]
fn typescript_entries() {
    let src = "\
export const FACES = [
  'cli',
  'mcp',
] as const;
const MORE = [...FACES, 'web'];
const OBJ = { a: 1 };
";
    let c = constants(&[("f.ts", src)]);
    assert_eq!(entries(&c, "f.ts", "FACES"), (2, 1, 4));
    match c.literal_entries("f.ts", "MORE") {
        Err(ConstantError::NotACollection { what, .. }) => assert!(what.contains("...FACES")),
        other => panic!("{other:?}"),
    }
    match c.literal_entries("f.ts", "OBJ") {
        Err(ConstantError::NotACollection { what, .. }) => assert_eq!(what, "an object literal"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn go_entries() {
    let src = "\
package x

var Names = []string{
\t\"a\",
\t\"b\",
\t\"c\",
}
var Fixed = [...]int{1, 2}
var (
\tTable = map[string]int{\"a\": 1, \"b\": 2}
\tPoint = image.Point{1, 2}
)
";
    let c = constants(&[("g.go", src)]);
    assert_eq!(entries(&c, "g.go", "Names"), (3, 3, 7));
    assert_eq!(entries(&c, "g.go", "Fixed"), (2, 8, 8));
    assert_eq!(entries(&c, "g.go", "Table"), (2, 10, 10));
    assert!(matches!(
        c.literal_entries("g.go", "Point"),
        Err(ConstantError::NotACollection { .. })
    ));
}

#[test]
fn constants_is_send_and_sync() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Constants>();
}

#[test]
fn a_chain_through_sixty_three_constants_evaluates_and_one_more_is_refused() {
    let chain = |links: usize| {
        let mut source: String = (0..links)
            .map(|i| format!("C{i} = C{} + 1\n", i + 1))
            .collect();
        source.push_str(&format!("C{links} = 1\n"));
        constants(&[("deep.py", source.as_str())])
    };
    assert_eq!(value(&chain(63), "C0", Some("deep.py")), int(64));
    assert!(why(chain(64).resolve("C0", Some("deep.py"))).contains("more than 64 other constants"),);
}
