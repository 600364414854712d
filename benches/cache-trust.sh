#!/usr/bin/env bash
# Zero-config `recount check` on corpus repositories, an older build and this
# one side by side, each with no memory (cold) and with the memory of its own
# run at the same commit (warm). Each round runs the four in turn, so the
# machine's drift hits all alike; prints the median wall time of each and the
# ratios new/old.
#
#   benches/cache-trust.sh NEW OLD RUNS CORPUS MIRRORS OWNER/REPO...
#
# CORPUS is accuracy/corpus.tsv (repository, commit); MIRRORS holds one bare
# repository per entry at MIRRORS/OWNER+REPO/repo.
source "$(dirname "$0")/support/corpus_bench.sh"
for repo in "${repos[@]}"; do
  corpus_repo "$repo"
  check=(check --repo "$dir" --rev "$commit" --format json)
  "$old" "${check[@]}" --cache-dir "$scratch/old" >/dev/null 2>&1 || true
  "$new" "${check[@]}" --cache-dir "$scratch/new" >/dev/null 2>&1 || true
  oc=() ow=() nc=() nw=()
  for _ in $(seq "$runs"); do
    oc+=("$(seconds "$old" "${check[@]}" --no-cache)")
    ow+=("$(seconds "$old" "${check[@]}" --cache-dir "$scratch/old")")
    nc+=("$(seconds "$new" "${check[@]}" --no-cache)")
    nw+=("$(seconds "$new" "${check[@]}" --cache-dir "$scratch/new")")
  done
  python3 - "$repo" "${oc[*]}" "${ow[*]}" "${nc[*]}" "${nw[*]}" <<'PY'
import statistics, sys
repo, *series = sys.argv[1:]
oc, ow, nc, nw = (statistics.median(map(float, s.split())) for s in series)
print(f"| {repo} | {oc:.3f} s | {ow:.3f} s ({ow/oc:.2f}x) | {nc:.3f} s ({nc/oc:.2f}x) "
      f"| {nw:.3f} s ({nw/oc:.2f}x, {nw/ow:.2f}x of old warm) |")
PY
done
