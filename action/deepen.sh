#!/usr/bin/env bash
# Fetches what `recount check` needs in a shallow clone: for `--since`, the
# base and the history back to where it and HEAD meet; for a whole check, the
# whole history (each citation is judged by the commit that wrote it). A full
# clone is left alone.
# Reads SINCE_INPUT (the Action's `since`), PR_BASE_SHA and PR_COMMITS (the
# pull request's base commit and length; empty off pull requests).
#
# Every one of them is data, never code or an option: a value from the
# environment reaches git only after `--` (or `--end-of-options`, or glued into
# one `--opt=VALUE` word), so a `since` of `--upload-pack=CMD` is a revision git
# cannot find, not a command it runs; and a number is checked to be digits
# before shell arithmetic sees it, since `$(( X ))` evaluates what X holds
# (`PATH[$(CMD)]` runs CMD).
set -u
[ "$(git rev-parse --is-shallow-repository 2>/dev/null)" = "true" ] || exit 0
since="${SINCE_INPUT:-}"
pr_base="${PR_BASE_SHA:-}"
base="$pr_base"
[ "$since" = "auto" ] || base="$since"
if [ -z "$base" ]; then
  # A whole check judges each citation by the commit that wrote it, however
  # old: the whole history, with the tags frames name.
  git fetch --no-tags --quiet --unshallow -- origin 2>/dev/null
  git fetch --quiet --tags -- origin 2>/dev/null
  exit 0
fi

# PR_COMMITS as a decimal number of at most nine digits (no octal, no
# overflow). Anything else is treated as 0, said on stderr, not refused: the
# deepening below then falls back to the whole history, which is slower but
# right, and a job is not failed over a number GitHub itself supplies.
commits=0
pr_commits="${PR_COMMITS:-}"
if [[ "$pr_commits" =~ ^[0-9]{1,9}$ ]]; then
  commits=$((10#$pr_commits))
elif [ -n "$pr_commits" ]; then
  echo "recount: PR_COMMITS is not a number; deepening as if it were 0" >&2
fi

meets() { git merge-base -- "$base" HEAD >/dev/null 2>&1; }
# fetch [OPTION...] [-- REVISION]: the options (recount's own, or an input
# glued into `--opt=VALUE`), then `--`, then the remote, then what to fetch.
fetch() {
  local options=()
  while [ "$#" -gt 0 ] && [ "$1" != "--" ]; do
    options+=("$1")
    shift
  done
  [ "$#" -gt 0 ] && shift
  git fetch --no-tags --quiet ${options[@]+"${options[@]}"} -- origin "$@" 2>/dev/null
}
if [ -n "$pr_base" ] && [ "$base" = "$pr_base" ]; then
  # The base commit, then the pull request's own commits and one more.
  fetch --depth=1 -- "$pr_base"
  meets || fetch --deepen="$((commits + 2))"
  meets || fetch --unshallow
elif fetch --depth=1 -- "$base" \
  || git rev-parse -q --verify --end-of-options "$base^{commit}" >/dev/null 2>&1; then
  # A revision (a sha, a tag, a branch): how far back it meets HEAD is unknown.
  meets || fetch --unshallow
else
  # A day or an age: the commits since then, and the one before them.
  fetch --shallow-since="$base" && fetch --deepen=1
fi
exit 0
