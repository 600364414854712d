#!/usr/bin/env bash
# The reference book: build it with a pinned mdBook (installed by cargo into
# target/, so a fresh machine needs nothing by hand), then audit it with recount
# itself and no rule file at all — links, anchors, backticked paths, test ids
# and transcripts, as any user's first run reads them — which must report
# nothing in docs/. The generated parts are held to the registries by the test
# suite (tests/it/book.rs).
set -euo pipefail
cd "$(dirname "$0")/.."

version=0.5.4
tools=target/mdbook
if ! "$tools/bin/mdbook" --version 2>/dev/null | grep -qx "mdbook v$version"; then
  cargo install --locked --quiet mdbook --version "$version" \
    --no-default-features --features search --root "$tools"
fi
# mdBook reports a missing include or an unclosed tag and still exits 0: any
# warning or error it prints fails the build here.
log=$(mktemp)
"$tools/bin/mdbook" build docs 2>&1 | tee "$log"
if grep -Eq '(^|[[:space:]])(ERROR|WARN)[[:space:]]' "$log"; then
  rm -f "$log"
  echo "book.sh: mdbook build warned or failed (above)" >&2
  exit 1
fi
rm -f "$log"

recount=${RECOUNT:-target/debug/recount}
empty=$(mktemp)
report=$(mktemp)
trap 'rm -f "$empty" "$report"' EXIT
status=0
"$recount" check --rules "$empty" --no-cache --format json > "$report" || status=$?
if [ "$status" -ge 2 ]; then
  echo "book.sh: recount could not audit the book (exit $status)" >&2
  exit 1
fi
python3 - "$report" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
found = [f for f in report["findings"] if f["location"]["path"].startswith("docs/")]
for f in found:
    loc = f["location"]
    print(f'{loc["path"]}:{loc.get("line", "")}: {f["check"]}: {f["message"]}', file=sys.stderr)
if found:
    sys.exit(f"book.sh: recount reports {len(found)} finding(s) in the book with no configuration")
print("book.sh: the book builds, and recount with no configuration reports nothing in it")
PY
