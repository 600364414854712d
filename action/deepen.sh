#!/usr/bin/env bash
# Fetches what `recount check --since` needs in a shallow clone: the base and
# the history back to where it and HEAD meet. A full clone is left alone.
# Reads SINCE_INPUT (the Action's `since`), PR_BASE_SHA and PR_COMMITS (the
# pull request's base commit and length; empty off pull requests).
set -u
[ "$(git rev-parse --is-shallow-repository 2>/dev/null)" = "true" ] || exit 0
base="$PR_BASE_SHA"
[ "$SINCE_INPUT" = "auto" ] || base="$SINCE_INPUT"
meets() { git merge-base "$base" HEAD >/dev/null 2>&1; }
fetch() { git fetch --no-tags --quiet "$@" origin 2>/dev/null; }
if [ -n "$PR_BASE_SHA" ] && [ "$base" = "$PR_BASE_SHA" ]; then
  # The base commit, then the pull request's own commits and one more.
  fetch --depth=1 "$PR_BASE_SHA"
  meets || fetch --deepen="$(( ${PR_COMMITS:-0} + 2 ))"
  meets || fetch --unshallow
elif fetch --depth=1 "$base" || git rev-parse -q --verify "$base^{commit}" >/dev/null; then
  # A revision (a sha, a tag, a branch): how far back it meets HEAD is unknown.
  meets || fetch --unshallow
else
  # A day or an age: the commits since then, and the one before them.
  fetch --shallow-since="$base" && fetch --deepen=1
fi
exit 0
