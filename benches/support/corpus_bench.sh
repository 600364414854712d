# Sourced by the corpus benches (evidence-cache.sh, cache-trust.sh): their
# arguments NEW OLD RUNS CORPUS MIRRORS OWNER/REPO..., a scratch folder removed
# on exit, `seconds CMD...` (the wall time of one run, output discarded) and
# `corpus_repo OWNER/REPO` (sets `commit` and `dir` from the corpus and the
# mirrors).
set -euo pipefail
new=$1 old=$2 runs=$3 corpus=$4 mirrors=$5
shift 5
repos=("$@")
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
seconds() {
  local start end
  start=$(date +%s.%N)
  "$@" >/dev/null 2>&1 || true
  end=$(date +%s.%N)
  echo "$end - $start" | bc
}
corpus_repo() {
  commit=$(awk -F'\t' -v r="$1" '$1 == r { print $2 }' "$corpus")
  dir="$mirrors/${1/\//+}/repo"
}
