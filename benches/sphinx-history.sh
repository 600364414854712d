#!/usr/bin/env bash
# A role-heavy Sphinx page over a long generated history (issue 32, item 1):
# builds a bare repository with `git fast-import` (COMMITS commits, 10,000 by
# default), then times `recount check` on it (`benches/paired.py`), cold (no memo of
# earlier runs) and warm, and side by side with a second build when one is
# given.
#
#   benches/sphinx-history.sh RECOUNT [BASELINE_RECOUNT]
#
# The package `pkg` has 12 modules that star-import one another (the shape
# that made the static lookup exponential); `docs/api.rst` names 300 objects
# with `:func:`/`:class:`/`:meth:` roles, a third of them never defined, a
# third renamed part way through the history (so the evidence reads old
# trees), under `.. currentmodule:: pkg`. Every commit touches a module or a
# page; the roles are written in the first tenth of the history.
# `SPHINX_HISTORY_DIR` keeps the repository (reused when it exists),
# `COMMITS` sets the history's length, `RUNS` the timed runs (default 5).
set -euo pipefail
recount=$1
baseline=${2:-}
commits=${COMMITS:-10000}
runs=${RUNS:-5}
dir=${SPHINX_HISTORY_DIR:-$(mktemp -d)}
repo=$dir/repo.git

generate() {
  python3 - "$commits" <<'PY'
import sys
commits = int(sys.argv[1])
modules = 12
out = sys.stdout.buffer
def blob(text):
    data = text.encode()
    out.write(b"data %d\n" % len(data) + data + b"\n")
def module(i, version):
    lines = [f"from .m{j} import *\n" for j in range(modules) if j != i]
    for k in range(25):
        # A third of the names are renamed half way through the history.
        name = f"f{i}_{k}" if (k % 3 != 1 or version == 0) else f"g{i}_{k}"
        lines.append(f"def {name}():\n    return {k}\n")
    lines.append(f"class C{i}:\n    def run(self):\n        pass\n")
    return "".join(lines)
def page(upto):
    lines = ["API\n===\n\n.. currentmodule:: pkg\n\n"]
    for n in range(upto):
        i, k = n % modules, n % 25
        role = ("func", "class", "meth")[n % 3]
        if role == "func":
            target = f"f{i}_{k}" if n % 4 else f"missing{n}"
        elif role == "class":
            target = f"C{i}"
        else:
            target = f"C{i}.run" if n % 5 else f"C{i}.gone{n}"
        lines.append(f"Item {n} is :{role}:`{target}`.\n\n")
    return "".join(lines)
mark = 0
for c in range(commits):
    mark += 1
    when = 1700000000 + c * 60
    out.write(b"commit refs/heads/main\n")
    out.write(b"mark :%d\n" % mark)
    out.write(b"committer bench <bench@recount.invalid> %d +0000\n" % when)
    blob(f"commit {c}")
    version = 0 if c < commits // 2 else 1
    if c == 0:
        out.write(b"M 100644 inline docs/conf.py\n")
        blob('project = "pkg"\nextensions = ["sphinx.ext.autodoc"]\n')
        out.write(b"M 100644 inline pkg/__init__.py\n")
        blob("".join(f"from .m{j} import *\n" for j in range(modules)))
    if c == 0 or c == commits // 2:
        for i in range(modules):
            out.write(b"M 100644 inline pkg/m%d.py\n" % i)
            blob(module(i, version))
    if c < commits // 10 and c % max(1, commits // 3000) == 0:
        upto = min(300, 1 + c * 300 // max(1, commits // 10))
        out.write(b"M 100644 inline docs/api.rst\n")
        blob(page(upto))
    out.write(b"M 100644 inline docs/notes/n%d.txt\n" % (c % 500))
    blob(f"note {c}\n")
PY
}

if [[ ! -f $repo/HEAD ]]; then
  git init -q --bare "$repo"
  started=$(date +%s)
  generate | git --git-dir="$repo" fast-import --quiet
  echo "generated $commits commits in $(($(date +%s) - started)) s: $repo"
fi

cache=$(mktemp -d)
check="check --repo $repo --rev main --format json"
# Cold: `--no-cache`, nothing remembered; warm: a cache folder of its own that
# the warm-up run fills.
paired="$(dirname "$0")/paired.py"
if [[ -n $baseline ]]; then
  "$paired" "$runs" -- "$recount" $check --no-cache --vs $baseline $check --no-cache
  "$paired" "$runs" -- "$recount" $check --cache-dir "$cache/a" --vs $baseline $check --cache-dir "$cache/b"
else
  "$paired" "$runs" -- "$recount" $check --no-cache
  "$paired" "$runs" -- "$recount" $check --cache-dir "$cache/a"
fi
rm -rf "$cache"
