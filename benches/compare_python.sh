#!/usr/bin/env sh
# Validate the typical tool call in Rust (this crate) and in Python jsonschema==4.26.0,
# in the same session, and print the ratio. The venv lives under target/.
set -eu
cd "$(dirname "$0")/.."
venv=target/python-bench-venv
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet "jsonschema==4.26.0"
fi
"$venv/bin/python" -c 'import importlib.metadata as m; print("python", __import__("sys").version.split()[0], "jsonschema", m.version("jsonschema"), "referencing", m.version("referencing"))'
rust=$(cargo bench --quiet --bench validation typical 2>/dev/null | grep '^typical call')
python=$("$venv/bin/python" benches/python_validate.py fixtures/validation)
echo "$rust"
echo "$python"
rust_rate=$(echo "$rust" | sed -n 's/.*median \([0-9]*\) calls.*/\1/p')
python_rate=$(echo "$python" | sed -n 's/.*median \([0-9]*\) calls.*/\1/p')
awk -v r="$rust_rate" -v p="$python_rate" 'BEGIN { printf "ratio rust/python: %.2fx\n", r / p }'
