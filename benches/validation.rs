//! Benchmarks of the validation core (`cargo bench --bench validation [typical|bounds|reader]`):
//! a typical tool call end to end (bounds, parse, schema), beside the same call validated
//! by the bare `jsonschema` crate (the anchor: parse and `is_valid`, nothing else), the
//! bounds pre-check over
//! 26,214,400-byte bodies of five families, and the bounded reader fed more than the cap
//! (up to an endless stream), with peak heap from a counting allocator.
//! Plain `std::time` loops; every figure is the median of several rounds.

// A bench's output is its result: the medians go to the terminal and, from there,
// into BENCHMARKS.md.
#![allow(clippy::print_stdout)]

use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};

use peak_alloc::PeakAlloc;
use recount::validation::bounds::{self, Limits};
use recount::validation::{
    Body, MAX_BODY_BYTES, SchemaSet, ToolResolver, Verdict, check_call, read_bounded,
};

// Peak heap is counted by a wrapper around the system allocator; peak_alloc holds
// the one `unsafe impl GlobalAlloc`, so this crate forbids unsafe code everywhere.
#[global_allocator]
static ALLOCATOR: PeakAlloc = PeakAlloc;

/// Run `work` and return what it returned with the heap it added at its peak.
fn peak_heap<T>(work: impl FnOnce() -> T) -> (T, usize) {
    let baseline = ALLOCATOR.current_usage();
    ALLOCATOR.reset_peak_usage();
    let value = work();
    (value, ALLOCATOR.peak_usage().saturating_sub(baseline))
}

fn median(mut samples: Vec<f64>) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples.get(samples.len() / 2).copied().unwrap_or(f64::NAN)
}

const BODY_BYTES: usize = 26_214_400;

/// A `proposal.create`-shaped body of exactly `BODY_BYTES` whose `body` string repeats
/// `unit` (raw UTF-8 or JSON escapes), padded with ASCII to the exact size.
fn string_body(unit: &str) -> Vec<u8> {
    let head = br#"{"projectId": "atlas", "path": "notes/a.md", "body": ""#;
    let tail = b"\"}";
    let mut body = head.to_vec();
    let room = BODY_BYTES - head.len() - tail.len();
    while body.len() + unit.len() <= head.len() + room {
        body.extend_from_slice(unit.as_bytes());
    }
    body.resize(head.len() + room, b'a');
    body.extend_from_slice(tail);
    body
}

/// Many small values: an array of single-digit numbers, exactly `BODY_BYTES` long.
fn small_values_body() -> Vec<u8> {
    let head = br#"{"projectId": "atlas", "labels": ["#;
    let mut body = head.to_vec();
    while body.len() + 5 <= BODY_BYTES {
        body.extend_from_slice(b"0,");
    }
    body.extend_from_slice(b"0");
    while body.len() + 2 < BODY_BYTES {
        body.push(b' ');
    }
    body.extend_from_slice(b"]}");
    body
}

/// Calls per second of `per_round` calls of `call`.
fn round_rate(per_round: u32, mut call: impl FnMut()) -> f64 {
    let start = Instant::now();
    for _ in 0..per_round {
        call();
    }
    f64::from(per_round) / start.elapsed().as_secs_f64()
}

/// The anchor the core is measured against: the same schema, compiled by the bare
/// crate over a registry of the same directory (offline, as the core compiles it),
/// and per call only what any caller must do: parse, then `is_valid`.
fn bare_validator(root: &Path, id: &str) -> jsonschema::Validator {
    let mut resources = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(root)
        .map(|dir| dir.flatten().map(|entry| entry.path()).collect())
        .unwrap_or_default();
    files.sort();
    for file in files {
        let text = std::fs::read(&file).unwrap_or_default();
        let value: serde_json::Value = match serde_json::from_slice(&text) {
            Ok(value) => value,
            Err(error) => panic!("{}: {error}", file.display()),
        };
        let uri = value["$id"].as_str().unwrap_or_default().to_string();
        resources.push((uri, value));
    }
    let schema = resources
        .iter()
        .find(|(uri, _)| uri == id)
        .map(|(_, value)| value.clone())
        .unwrap_or_default();
    let registry = jsonschema::Registry::new()
        .draft(jsonschema::Draft::Draft202012)
        .extend(resources)
        .and_then(|builder| builder.prepare());
    let registry = match registry {
        Ok(registry) => registry,
        Err(error) => panic!("{error}"),
    };
    match jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .with_registry(&registry)
        .offline()
        .should_validate_formats(true)
        .build(&schema)
    {
        Ok(validator) => validator,
        Err(error) => panic!("{error}"),
    }
}

fn bench_typical(set: &SchemaSet, resolver: &ToolResolver, root: &Path, call: &[u8]) {
    let tool = "knowledge.search";
    // The first call of a validator sets up what it keeps (compiled patterns), so
    // heap is counted on the call after it: what each call costs.
    let verdict = check_call(set, resolver, tool, call);
    assert!(matches!(verdict, Ok(Verdict::Accepted)), "{verdict:?}");
    let (_, heap) = peak_heap(|| check_call(set, resolver, tool, call));
    let bare = bare_validator(
        &root.join("mcp"),
        "https://recount.example/mcp/knowledge-search-input.schema.json",
    );
    let bare_call = |call: &[u8]| {
        serde_json::from_slice::<serde_json::Value>(call).is_ok_and(|value| bare.is_valid(&value))
    };
    assert!(bare_call(call), "the bare crate accepts the typical call");
    let (_, bare_heap) = peak_heap(|| bare_call(call));
    let per_round = 20_000;
    // The two alternate round by round, so a busy machine slows both alike.
    let mut core_rates = Vec::new();
    let mut bare_rates = Vec::new();
    for _ in 0..9 {
        core_rates.push(round_rate(per_round, || {
            black_box(check_call(set, resolver, tool, black_box(call)).is_ok());
        }));
        bare_rates.push(round_rate(per_round, || {
            black_box(bare_call(black_box(call)));
        }));
    }
    let core = median(core_rates);
    let bare = median(bare_rates);
    println!(
        "typical call ({} bytes, {tool}): median {core:.0} calls/s over 9 rounds of {per_round}; peak heap per call {heap} bytes",
        call.len(),
    );
    println!(
        "bare jsonschema crate (parse + is_valid): median {bare:.0} calls/s over 9 rounds of {per_round}; peak heap per call {bare_heap} bytes",
    );
    println!("core cost over the bare crate: {:.2}x", bare / core);
}

fn bench_bounds(set: &SchemaSet, resolver: &ToolResolver) {
    let families: Vec<(&str, Vec<u8>)> = vec![
        ("ascii", string_body("abcdefghij klmnopqrst uvwxyz ")),
        ("2-byte script", string_body("\u{600}\u{628}\u{629}\u{62a}")),
        ("astral", string_body("\u{1f600}\u{1d49c}")),
        ("control-heavy", string_body("\\u0001\\n\u{7f}\\t\\u001b")),
        ("many small values", small_values_body()),
    ];
    let loose = Limits {
        max_nodes: u64::MAX,
        max_rendered: u64::MAX,
        ..Limits::DEFAULT
    };
    println!(
        "{:<18} {:>12} {:>9} {:>12} {:>26} {:>14} {:>12}",
        "family", "full scan", "GB/s", "verdict", "refused by", "peak heap", "heap/wire"
    );
    for (name, body) in &families {
        assert_eq!(body.len(), BODY_BYTES, "{name}");
        let mut full = Vec::new();
        let mut to_verdict = Vec::new();
        let mut measured = None;
        let mut refusal = String::new();
        let mut heap = 0usize;
        for _ in 0..5 {
            let start = Instant::now();
            let measure = bounds::check_with(black_box(body), loose);
            full.push(start.elapsed().as_secs_f64());
            measured = Some(measure);
            let start = Instant::now();
            let ((verdict, elapsed), added) = peak_heap(|| {
                let verdict = check_call(set, resolver, "proposal.create", black_box(body));
                (verdict, start.elapsed())
            });
            to_verdict.push(elapsed.as_secs_f64());
            heap = heap.max(added);
            refusal = match verdict {
                Ok(Verdict::Refused(refusal)) => refusal.keyword().to_string(),
                Ok(Verdict::Accepted) => "accepted".to_string(),
                Err(error) => format!("error: {error}"),
            };
        }
        let full_median = median(full);
        let verdict_median = median(to_verdict);
        println!(
            "{:<18} {:>9.2} ms {:>9.2} {:>9.3} ms {:>26} {:>8} bytes {:>11.5}x",
            name,
            full_median * 1e3,
            BODY_BYTES as f64 / full_median / 1e9,
            verdict_median * 1e3,
            refusal,
            heap,
            heap as f64 / BODY_BYTES as f64,
        );
        if let Some(Ok(measure)) = measured {
            println!(
                "{:<18} whole body: nesting {}, nodes {}, charge {}",
                "", measure.nesting, measure.nodes, measure.rendered
            );
        }
    }
}

/// A caller sending `total` bytes of spaces (`None`: without end), counting what
/// was taken from it.
struct Sender {
    left: Option<u64>,
    taken: u64,
}

impl std::io::Read for Sender {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let room = match self.left {
            Some(left) => out.len().min(usize::try_from(left).unwrap_or(usize::MAX)),
            None => out.len(),
        };
        out[..room].fill(b' ');
        if let Some(left) = &mut self.left {
            *left -= room as u64;
        }
        self.taken += room as u64;
        Ok(room)
    }
}

/// The bounded reader against callers that send more and more: what it reads and
/// the heap it holds at its peak must not grow with what is sent.
fn bench_reader() {
    println!(
        "{:<22} {:>14} {:>12} {:>16} {:>10}",
        "caller sends", "bytes read", "median", "peak heap", "verdict"
    );
    let sizes: [(&str, Option<u64>); 4] = [
        ("cap + 1 byte", Some(MAX_BODY_BYTES as u64 + 1)),
        ("256 MiB", Some(256 << 20)),
        ("16 GiB", Some(16 << 30)),
        ("endless", None),
    ];
    for (name, total) in sizes {
        let mut times = Vec::new();
        let mut heap = 0usize;
        let mut taken = 0;
        let mut verdict = "";
        for _ in 0..5 {
            let mut sender = Sender {
                left: total,
                taken: 0,
            };
            let start = Instant::now();
            let (body, added) = peak_heap(|| read_bounded(&mut sender, MAX_BODY_BYTES));
            times.push(start.elapsed().as_secs_f64());
            heap = heap.max(added);
            taken = sender.taken;
            verdict = match body {
                Ok(Body::Over { .. }) => "refused",
                Ok(Body::Within(_)) => "read whole",
                Err(_) => "io error",
            };
        }
        println!(
            "{:<22} {:>14} {:>9.2} ms {:>10} bytes {:>10}",
            name,
            taken,
            median(times) * 1e3,
            heap,
            verdict
        );
    }
}

fn main() {
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|arg| !arg.starts_with("--"))
        .collect();
    let wants = |name: &str| filter.is_empty() || filter.iter().any(|f| f == name);
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/validation");
    let set = match SchemaSet::from_dir(&root.join("mcp")) {
        Ok(set) => set,
        Err(error) => panic!("{error}"),
    };
    let resolver = ToolResolver::default();
    let start = Instant::now();
    if wants("typical") {
        let call = std::fs::read(root.join("typical-call.json")).unwrap_or_default();
        bench_typical(&set, &resolver, &root, &call);
    }
    if wants("bounds") {
        bench_bounds(&set, &resolver);
    }
    if wants("reader") {
        bench_reader();
    }
    let elapsed: Duration = start.elapsed();
    println!("bench wall time {:.1} s", elapsed.as_secs_f64());
}
