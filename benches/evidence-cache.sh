#!/usr/bin/env bash
# Zero-config `recount check` on corpus repositories: an older build against
# this one with no memory (cold), with the memory of a run at the same commit
# (warm), and with the memory of a run 30 first-parent commits earlier (next).
# Each round runs the four in turn, so the machine's drift hits all alike;
# prints the median wall time of each and its ratio to the older build.
#
#   benches/evidence-cache.sh NEW OLD RUNS CORPUS MIRRORS OWNER/REPO...
#
# CORPUS is accuracy/corpus.tsv (repository, commit); MIRRORS holds one bare
# repository per entry at MIRRORS/OWNER+REPO/repo.
source "$(dirname "$0")/support/corpus_bench.sh"
for repo in "${repos[@]}"; do
  corpus_repo "$repo"
  earlier=$(git -C "$dir" rev-parse "$commit~30")
  check=(check --repo "$dir" --format json)
  "$new" "${check[@]}" --rev "$commit" --cache-dir "$scratch/warm" >/dev/null 2>&1 || true
  o=() c=() w=() n=()
  for _ in $(seq "$runs"); do
    o+=("$(seconds "$old" "${check[@]}" --rev "$commit")")
    rm -rf "$scratch/cold"
    c+=("$(seconds "$new" "${check[@]}" --rev "$commit" --cache-dir "$scratch/cold")")
    w+=("$(seconds "$new" "${check[@]}" --rev "$commit" --cache-dir "$scratch/warm")")
    rm -rf "$scratch/next"
    "$new" "${check[@]}" --rev "$earlier" --cache-dir "$scratch/next" >/dev/null 2>&1 || true
    n+=("$(seconds "$new" "${check[@]}" --rev "$commit" --cache-dir "$scratch/next")")
  done
  python3 - "$repo" "${o[*]}" "${c[*]}" "${w[*]}" "${n[*]}" <<'PY'
import statistics, sys
repo, *series = sys.argv[1:]
old, cold, warm, nxt = (statistics.median(map(float, s.split())) for s in series)
print(f"| {repo} | {old:.3f} s | {cold:.3f} s ({cold/old:.2f}x) | {warm:.3f} s ({warm/old:.2f}x) | {nxt:.3f} s ({nxt/old:.2f}x) |")
PY
done
