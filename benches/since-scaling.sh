#!/usr/bin/env bash
set -euo pipefail
# The `--since` shape of benches/hostile-scaling.sh alone, for one build:
#   benches/since-scaling.sh RECOUNT [RUNS]
recount=$(realpath "$1"); runs=${2:-3}; scratch=$(mktemp -d); trap 'rm -rf "$scratch"' EXIT
eval "$(sed -n '/^commit_line()/,/^}/p' "$(dirname "$0")/hostile-scaling.sh")"
eval "$(sed -n '/^median_of()/,/^}/p' "$(dirname "$0")/hostile-scaling.sh")"
eval "$(sed -n '/^median_since()/,/^}/p' "$(dirname "$0")/hostile-scaling.sh")"
commit_line "$scratch/since-small" 1000
commit_line "$scratch/since-large" 8000
small=$(median_since "$scratch/since-small")
large=$(median_since "$scratch/since-large")
echo "| $(basename $1) check --since over C commits (1,000 → 8,000) | $small s | $large s | $(echo "scale=2; $large / $small" | bc)x (8x) |"
