#!/usr/bin/env bash
# Recall of a Python package gone whole (issue 32): on top of a mirror's HEAD,
# commits the package folder deleted (or moved one folder down, under
# `moved/`) in a temporary bare repository that borrows the mirror's objects,
# with plumbing and fixed dates, and counts how many of the citations
# `recount cites` had as `ok` into the package `recount check` then reports.
#
#   accuracy/break-package.sh RECOUNT MIRROR PACKAGE_FOLDER delete|move
#
# e.g. accuracy/break-package.sh target/release/recount /work/.mirror/pallets+werkzeug/repo src/werkzeug delete
# Nothing is written to the mirror.
set -euo pipefail
recount=$1
mirror=$2
package=$3
mode=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git clone -q --bare --shared "$mirror" "$work/repo.git"
head=$(git -C "$mirror" rev-parse HEAD)
export GIT_DIR=$work/repo.git GIT_INDEX_FILE=$work/index
git read-tree "$head"
if [[ $mode == move ]]; then
  git ls-files -s -- "$package" |
    sed "s#\t$package/#\tmoved/$(basename "$package")/#" >"$work/moved"
  git rm -q -r --cached -- "$package"
  git update-index --index-info <"$work/moved"
else
  git rm -q -r --cached -- "$package"
fi
tree=$(git write-tree)
broken=$(GIT_AUTHOR_DATE=2026-12-01T00:00:00Z GIT_COMMITTER_DATE=2026-12-01T00:00:00Z \
  GIT_AUTHOR_NAME=breaker GIT_AUTHOR_EMAIL=breaker@recount.invalid \
  GIT_COMMITTER_NAME=breaker GIT_COMMITTER_EMAIL=breaker@recount.invalid \
  git commit-tree "$tree" -p "$head" -m "$mode $package")
unset GIT_DIR GIT_INDEX_FILE
"$recount" cites --repo "$work/repo.git" --rev "$head" --format json >"$work/before.json" 2>/dev/null || true
"$recount" check --repo "$work/repo.git" --rev "$broken" --format json >"$work/after.json" 2>/dev/null || true
python3 - "$package" "$work/before.json" "$work/after.json" <<'PY'
import json, sys
package, before, after = sys.argv[1:]
cites = json.load(open(before))["citations"]
found = {(f["location"]["path"], f["location"]["line"], f["location"].get("column"))
         for f in json.load(open(after))["findings"]}
def at(c):
    path, line, column = c["at"].rsplit(":", 2)
    return path, int(line), int(column)
into = [c for c in cites if c["status"].get("status") == "ok"
        and c["status"].get("resolved", "").startswith(package + "/")]
missed = [c for c in into if at(c) not in found]
print(f"{package}: {len(into) - len(missed)}/{len(into)} citations into it reported")
for c in missed:
    print(f"  miss {c['at']} `{c['text']}` ({c['status'].get('resolved')})")
PY
