#!/usr/bin/env bash
# How the cost of two hostile shapes grows with their size, measured here and
# not in a timed test (a loaded machine makes a timed ratio flake): a page of
# N links to a missing anchor and N includes of one file (Markdown and rst),
# an rst page of N unclosed inline-markup openers, an rst page of N hyperlink
# targets no reference uses, and a package of K modules that each star-import
# all the others, asked for a name none defines, and one commit moving N
# identical files checked with --since over it. Prints the median wall
# time at each size and the ratio to the smaller one; linear growth is about
# the size ratio (30x and 10x), the quadratic shapes these replaced were its
# square.
#
#   benches/hostile-scaling.sh RECOUNT [RUNS]
set -euo pipefail
recount=$(realpath "$1")
runs=${2:-5}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

commit_all() { # DIR: a repository of every file under it, in one dated commit
  git -C "$1" init -q
  git -C "$1" add -A
  GIT_AUTHOR_DATE=2026-01-01T00:00:00Z GIT_COMMITTER_DATE=2026-01-01T00:00:00Z \
    git -C "$1" -c user.name=bench -c user.email=bench@example.com commit -qm bench
}
repo_with() { # DIR, then NAME TEXT pairs
  local dir=$1; shift
  mkdir -p "$dir"
  while [ $# -gt 0 ]; do printf '%s' "$2" > "$dir/$1"; shift 2; done
  commit_all "$dir"
}
median() { # DIR: the median wall time of `recount check` in DIR
  median_of "$1" check --format json
}
page() { # N FORM RST
  local n=$1 form=$2 rst=$3 text
  if [ "$rst" = 1 ]; then text=$'P\n=\n\n'; else text=$'# P\n\n'; fi
  for _ in $(seq "$n"); do
    if [ "$rst" = 1 ]; then text+=$'`x <#nowhere>`_\n\n'; else text+=$'[x](#nowhere)\n\n'; fi
  done
  for _ in $(seq "$n"); do text+="$form"; done
  printf '%s' "$text"
}
echo "| shape | small | large | ratio (size ratio) |"
echo "|---|---:|---:|---:|"
for rst in 0 1; do
  if [ "$rst" = 1 ]; then name=page.rst inc=a.rst body=$'A\n=\n' form=$'.. include:: a.rst\n\n'
  else name=page.md inc=a.md body=$'# A\n' form=$'--8<-- "a.md"\n\n'; fi
  repo_with "$scratch/inc-small-$rst" "$name" "$(page 100 "$form" "$rst")" "$inc" "$body"
  repo_with "$scratch/inc-large-$rst" "$name" "$(page 3000 "$form" "$rst")" "$inc" "$body"
  small=$(median "$scratch/inc-small-$rst")
  large=$(median "$scratch/inc-large-$rst")
  echo "| $name: links x includes | $small s | $large s | $(echo "scale=2; $large / $small" | bc)x (30x) |"
done
for opener in '*a ' '`a ' ':class:`a '; do
  doc() { local text=$'T\n=\n\n'; for _ in $(seq "$1"); do text+="$opener"; done; printf '%s\n' "$text"; }
  slug=$(printf '%s' "$opener" | tr -c 'a-z' '_')
  repo_with "$scratch/rst-medium-$slug" doc.rst "$(doc 10000)"
  repo_with "$scratch/rst-large-$slug" doc.rst "$(doc 100000)"
  medium=$(median "$scratch/rst-medium-$slug")
  large=$(median "$scratch/rst-large-$slug")
  echo "| rst opener \`$opener\` | $medium s | $large s | $(echo "scale=2; $large / $medium" | bc)x (10x) |"
done
targets() { # N: an rst page of N targets no reference names
  local text=$'T\n=\n\n'
  for i in $(seq "$1"); do text+=".. _t$i: https://example.com/t$i"$'\n'; done
  printf '%s\n' "$text"
}
repo_with "$scratch/targets-small" doc.rst "$(targets 2000)"
repo_with "$scratch/targets-large" doc.rst "$(targets 20000)"
small=$(median "$scratch/targets-small")
large=$(median "$scratch/targets-large")
echo "| rst unused targets (2,000 → 20,000) | $small s | $large s | $(echo "scale=2; $large / $small" | bc)x (10x) |"
star_package() { # DIR K: K modules that each star-import all the others
  local dir=$1 k=$2
  mkdir -p "$dir/kit" "$dir/docs"
  printf 'from .m0 import *\n' > "$dir/kit/__init__.py"
  for i in $(seq 0 $((k - 1))); do
    : > "$dir/kit/m$i.py"
    for j in $(seq 0 $((k - 1))); do
      [ "$i" = "$j" ] || printf 'from .m%s import *\n' "$j" >> "$dir/kit/m$i.py"
    done
    printf 'def f%s():\n    pass\n' "$i" >> "$dir/kit/m$i.py"
  done
  printf 'extensions = []\n' > "$dir/docs/conf.py"
  printf 'API\n===\n\nCall :func:`kit.gone` and :func:`kit.f0`.\n' > "$dir/docs/index.rst"
  commit_all "$dir"
}
star_package "$scratch/star-small" 10
star_package "$scratch/star-large" 40
small=$(median "$scratch/star-small")
large=$(median "$scratch/star-large")
echo "| star imports, K modules (10 → 40: 16x the import lines) | $small s | $large s | $(echo "scale=2; $large / $small" | bc)x (16x) |"
# `check --since ROOT` over a line of C commits (issue 54, item 3): the range
# is one walk of the graph; a merge-base test per commit made it quadratic
# (1,000 commits: 0.35 s; 8,000: 31 s).
commit_line() { # DIR C: a README and C commits that each append a line to a log
  local dir=$1 c=$2
  mkdir -p "$dir"
  git -C "$dir" init -q
  {
    for i in $(seq 1 "$c"); do
      printf 'commit refs/heads/main\ncommitter bench <bench@example.com> %s +0000\n' $((1767225600 + i))
      printf 'data 2\nc\n'
      printf 'M 100644 inline README.md\ndata 12\n# Project\n\n\n'
      printf 'M 100644 inline log.txt\ndata %s\n%s\n' $((${#i} + 1)) "$i"
    done
  } | git -C "$dir" fast-import --quiet
  git -C "$dir" checkout -q main
}
median_of() { # DIR ARGS...: the median wall time of `recount ARGS` run in DIR
  local dir=$1 times=()
  shift
  for _ in $(seq "$runs"); do
    local start end
    start=$(date +%s.%N)
    (cd "$dir" && RECOUNT_CACHE_DIR= "$recount" "$@" >/dev/null 2>&1) || true
    end=$(date +%s.%N)
    times+=("$(echo "$end - $start" | bc)")
  done
  printf '%s\n' "${times[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
}
median_since() {
  median_of "$1" check --since "$(git -C "$1" rev-list --max-parents=0 HEAD)" --format json
}
commit_line "$scratch/since-small" 1000
commit_line "$scratch/since-large" 8000
small=$(median_since "$scratch/since-small")
large=$(median_since "$scratch/since-large")
echo "| check --since over C commits (1,000 → 8,000) | $small s | $large s | $(echo "scale=2; $large / $small" | bc)x (8x) |"
# N links to names never there, in a folder of N files (issue 54, item 3):
# each path looked up through trees read once (libgit2 caches no tree over
# 4 KiB, so the folder's was inflated again per lookup), and a missing name
# compared with at most 1,024 of its siblings.
missing_in_folder() { # DIR N
  local dir=$1 n=$2
  python3 - "$dir" "$n" <<'PY'
import os, sys
d, n = sys.argv[1], int(sys.argv[2])
os.makedirs(f"{d}/docs", exist_ok=True)
for i in range(n):
    open(f"{d}/docs/page{i:05d}.md", "w").write("# p\n")
open(f"{d}/README.md", "w").write("# R\n\n" + "".join(f"[x](docs/gone{i:05d}.md)\n" for i in range(n)))
PY
  commit_all "$dir"
}
missing_in_folder "$scratch/missing-small" 2000
missing_in_folder "$scratch/missing-large" 16000
small=$(median "$scratch/missing-small")
large=$(median "$scratch/missing-large")
echo "| N missing links in a folder of N files (2,000 → 16,000) | $small s | $large s | $(echo "scale=2; $large / $small" | bc)x (8x) |"
# One commit moving N identical files to new names, checked with --since
# over it (issue 54, item 3): the deleted paths are handed the added ones of
# their blob by a name index and a cursor; a scan and a shift of the list per
# path made it quadratic (40,000: 36 s).
identical_move() { # DIR N
  local dir=$1 n=$2
  mkdir -p "$dir"
  git -C "$dir" init -q
  {
    printf 'blob\nmark :1\ndata 5\nsame\n'
    printf 'blob\nmark :2\ndata 25\n# Notes\n\nSee `a/f1.txt`.\n'
    printf 'commit refs/heads/main\ncommitter bench <bench@example.com> 1767225600 +0000\ndata 4\none\n'
    printf 'M 100644 :2 README.md\n'
    for i in $(seq "$n"); do printf 'M 100644 :1 a/f%s.txt\n' "$i"; done
    printf 'commit refs/heads/main\ncommitter bench <bench@example.com> 1767225660 +0000\ndata 4\ntwo\n'
    printf 'D a\n'
    for i in $(seq "$n"); do printf 'M 100644 :1 b/g%s.txt\n' "$i"; done
  } | git -C "$dir" fast-import --quiet
}
median_move() {
  median_of "$1" check --rev main --since main~1 --format json
}
identical_move "$scratch/move-small" 20000
identical_move "$scratch/move-large" 40000
small=$(median_move "$scratch/move-small")
large=$(median_move "$scratch/move-large")
echo "| one commit moving N identical files, --since (20,000 → 40,000) | $small s | $large s | $(echo "scale=2; $large / $small" | bc)x (2x) |"
