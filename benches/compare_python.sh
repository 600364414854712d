#!/usr/bin/env sh
# Validate the typical tool call three ways in one session — the validation core, the
# bare jsonschema crate (parse + is_valid: the anchor), and Python jsonschema==4.26.0 —
# and print each rate and the ratios. The venv lives under target/.
set -eu
cd "$(dirname "$0")/.."
venv=target/python-bench-venv
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet "jsonschema==4.26.0"
fi
"$venv/bin/python" -c 'import importlib.metadata as m; print("python", __import__("sys").version.split()[0], "jsonschema", m.version("jsonschema"), "referencing", m.version("referencing"))'
rust=$(cargo bench --quiet --bench validation typical 2>/dev/null | grep -E '^(typical call|bare jsonschema|core cost)')
python=$("$venv/bin/python" benches/python_validate.py fixtures/validation)
echo "$rust"
echo "$python"
rate() { sed -n 's/.*median \([0-9]*\) calls.*/\1/p'; }
core_rate=$(echo "$rust" | grep '^typical call' | rate)
bare_rate=$(echo "$rust" | grep '^bare jsonschema' | rate)
python_rate=$(echo "$python" | rate)
awk -v c="$core_rate" -v b="$bare_rate" -v p="$python_rate" 'BEGIN {
    printf "ratio core/python: %.2fx\n", c / p
    printf "ratio bare crate/python: %.2fx\n", b / p
}'
