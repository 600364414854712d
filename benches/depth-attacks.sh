#!/usr/bin/env bash
# The three depth attacks of issue 54, each beside a plain repository of the
# same size: a `conf.py` whose `default_role` nests 50,000 parentheses deep
# (with a `:ref:` on a page), a cited Rust test file of 20,000 nested
# `mod a {`, and a Python constant `X = a.b.b.…` of 10,000 attributes read by
# a `constant` fact. Before the depth budget each overflowed the main
# thread's stack (exit 134, no report).
#
# Prints, for each attack, the exit code of each build (a build that dies
# of a signal shows as 128 + the signal: 134 is SIGABRT; 0 to 2 are
# recount's own), then the median wall time of each build on the attack
# (for a build that crashes, the time to the crash) and on the plain
# repository, all four run in turn (new attack, new plain, old attack, old
# plain, ...), NEW's plain time over OLD's (what the budget costs ordinary
# input) and NEW's attack over its plain. Each run is `recount check
# --no-cache --format json` in the repository.
#
#   benches/depth-attacks.sh NEW [OLD] [RUNS]
#
# With DEPTH_ATTACKS_DIR set, the repositories are built there and kept
# (to time them with another tool); otherwise in a temporary folder. RUNS 0
# builds them and runs nothing.
set -euo pipefail
new=$(realpath "$1")
old=${2:+$(realpath "$2")}
runs=${3:-11}
if [ -n "${DEPTH_ATTACKS_DIR:-}" ]; then
  scratch=$DEPTH_ATTACKS_DIR
  mkdir -p "$scratch"
else
  scratch=$(mktemp -d)
  trap 'rm -rf "$scratch"' EXIT
fi

commit_all() { # DIR: a repository of every file under it, in one dated commit
  git -C "$1" init -q
  git -C "$1" add -A
  GIT_AUTHOR_DATE=2026-01-01T00:00:00Z GIT_COMMITTER_DATE=2026-01-01T00:00:00Z \
    git -C "$1" -c user.name=bench -c user.email=bench@example.com commit -qm bench
}
put() { # DIR PATH: standard input into DIR/PATH
  mkdir -p "$(dirname "$1/$2")"
  cat > "$1/$2"
}
repeat() { # N TEXT: TEXT N times
  local n=$1 text=$2
  python3 -c 'import sys; sys.stdout.write(sys.argv[2] * int(sys.argv[1]))' "$n" "$text"
}
plain() { # HEAD LIKE LINE: HEAD, then LINE (its N numbered) to the size of file LIKE
  python3 -c '
import os, sys
head, size, line = sys.argv[1], os.path.getsize(sys.argv[2]), sys.argv[3]
out, i, n = [head], 0, len(head)
while n < size:
    out.append(line.replace("N", str(i)) + "\n"); n += len(out[-1]); i += 1
sys.stdout.write("".join(out))' "$1" "$2" "$3"
}

# 1. conf.py, 50,000 parentheses deep, and a page with a `:ref:`.
page=$'Page\n====\n\nSee :ref:`somewhere-else` and `x`.\n'
{ printf 'extensions = []\ndefault_role = '; repeat 50000 '('; printf "'x'"; repeat 50000 ')'; printf '\n'; } \
  | put "$scratch/conf-attack" docs/conf.py
printf '%s' "$page" | put "$scratch/conf-attack" docs/index.rst
plain $'extensions = []\ndefault_role = \'x\'\n' "$scratch/conf-attack/docs/conf.py" 'html_N = (1)' \
  | put "$scratch/conf-plain" docs/conf.py
printf '%s' "$page" | put "$scratch/conf-plain" docs/index.rst

# 2. A cited Rust test file of 20,000 nested `mod a {`.
record=$'# Tests\n\nSee `tests/deep.rs::a::a::deep` and `tests/deep.rs::gone`.\n'
{ repeat 20000 $'mod a {\n'; printf '#[test]\nfn deep() {}\n'; repeat 20000 $'}\n'; } \
  | put "$scratch/rust-attack" tests/deep.rs
printf '%s' "$record" | put "$scratch/rust-attack" docs/tests.md
plain $'mod a {\nmod a {\n#[test]\nfn deep() {}\n}\n}\n' "$scratch/rust-attack/tests/deep.rs" 'mod mN { #[test] fn tN() {} }' \
  | put "$scratch/rust-plain" tests/deep.rs
printf '%s' "$record" | put "$scratch/rust-plain" docs/tests.md

# 3. A Python constant of 10,000 attributes, read by a `constant` fact.
rules='[recount]
records = ["docs/*.md"]

[constants]
X = { file = "src/deep.py" }

[[fact]]
id = "x"
constant = "X"
claims = [{ in = "docs/a.md", says = '\''X is (?<value>\d+)'\'' }]
'
for shape in attack plain; do
  printf '%s' "$rules" | put "$scratch/constant-$shape" recount.toml
  printf '# A\n\nX is 1.\n' | put "$scratch/constant-$shape" docs/a.md
done
{ printf 'X = a'; repeat 10000 '.b'; printf '\n'; } | put "$scratch/constant-attack" src/deep.py
plain $'X = 1\n' "$scratch/constant-attack/src/deep.py" 'Y_N = N' \
  | put "$scratch/constant-plain" src/deep.py

for dir in "$scratch"/*-attack "$scratch"/*-plain; do
  [ -d "$dir/.git" ] || commit_all "$dir"
done
if [ "$runs" = 0 ]; then echo "built in $scratch"; exit 0; fi

exit_of() { # BUILD DIR: the exit code of one run (128 + signal when killed)
  local code=0
  (cd "$2" && exec env RECOUNT_CACHE_DIR= NO_COLOR=1 "$1" check --no-cache --format json >/dev/null 2>&1) || code=$?
  echo "$code"
}
seconds_of() { # BUILD DIR: the wall seconds of one run
  local start end
  start=$(date +%s.%N)
  exit_of "$1" "$2" >/dev/null
  end=$(date +%s.%N)
  echo "$end - $start" | bc
}
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

median_of() { printf '%s\n' "$@" | median; }

if [ -n "$old" ]; then
  echo "| attack | bytes | exit before | exit after | before: attack | after: attack | before: plain | after: plain | after/before, plain | attack/plain, after |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
else
  echo "| attack | bytes | exit after | after: attack | after: plain | attack/plain, after |"
  echo "|---|---:|---:|---:|---:|---:|"
fi
for name in conf rust constant; do
  attack=$scratch/$name-attack plain=$scratch/$name-plain
  bytes=$(git -C "$attack" ls-files -z | (cd "$attack" && xargs -0 cat) | wc -c | tr -d ' ')
  after=$(exit_of "$new" "$attack")
  exit_of "$new" "$plain" >/dev/null # warm-up
  a=() p=() oa=() op=()
  for _ in $(seq "$runs"); do
    a+=("$(seconds_of "$new" "$attack")")
    p+=("$(seconds_of "$new" "$plain")")
    if [ -n "$old" ]; then
      oa+=("$(seconds_of "$old" "$attack")")
      op+=("$(seconds_of "$old" "$plain")")
    fi
  done
  ma=$(median_of "${a[@]}") mp=$(median_of "${p[@]}")
  if [ -n "$old" ]; then
    before=$(exit_of "$old" "$attack")
    moa=$(median_of "${oa[@]}") mop=$(median_of "${op[@]}")
    printf '| %s | %s | %s | %s | %.3f s | %.3f s | %.3f s | %.3f s | %.2fx | %.2fx |\n' \
      "$name" "$bytes" "$before" "$after" "$moa" "$ma" "$mop" "$mp" \
      "$(echo "$mp / $mop" | bc -l)" "$(echo "$ma / $mp" | bc -l)"
  else
    printf '| %s | %s | %s | %.3f s | %.3f s | %.2fx |\n' \
      "$name" "$bytes" "$after" "$ma" "$mp" "$(echo "$ma / $mp" | bc -l)"
  fi
done
