#!/usr/bin/env python3
"""`recount fix` on corpus repositories, written and checked again.

For each repository, at its pinned commit in the corpus, in a scratch clone
(the mirror is never written):

    recount check --format json          (the findings before)
    recount fix --format json            (the edits the evidence proves)
    recount fix --write --yes            (the edits made in the records)
    recount check --format json          (the findings after)

and holds the result to what `fix` claimed:

- every edit's finding (check, path, line) was reported before, and is not
  reported after (a mended finding stays mended);
- nothing the fix did not touch changed: every other finding is still there
  (counted by check, path, line), and no file outside the edited records is
  modified (`git status`);
- each edit is printed, its line before and after, for judging by hand
  (`--edits FILE` writes them as TSV: repo, path, line, check, stated,
  replacement, the line before, the line after).

    python3 accuracy/fix_proof.py --recount target/release/recount \
        --mirrors /work/.mirror --corpus accuracy/corpus.tsv \
        [--only owner/name,...] [--edits edits.tsv] [--scratch /tmp/fix-proof] \
        [--at-head]
"""

import argparse
import collections
import json
import os
import shutil
import subprocess
import sys
import time


def recount(binary, repo, args):
    """`recount SUBCOMMAND --repo REPO REST...`; `check` without transcripts."""
    extra = ["--no-transcripts"] if args[0] == "check" else []
    return subprocess.run(
        [binary, args[0], "--repo", repo] + extra + args[1:],
        capture_output=True,
        text=True,
        timeout=3600,
    )


def findings(binary, repo):
    """(check, path, line, stated) of every finding, counted."""
    done = recount(binary, repo, ["check", "--format", "json"])
    if done.returncode not in (0, 1):
        raise RuntimeError(done.stderr.strip().splitlines()[-1:] or ["?"])
    report = json.loads(done.stdout)
    return collections.Counter(
        (f["check"], f["location"]["path"], f["location"]["line"], f.get("stated") or "")
        for f in report["findings"]
    )


def git(repo, *args):
    return subprocess.run(
        ["git", "-C", repo] + list(args), capture_output=True, text=True, check=True
    ).stdout


def porcelain(repo):
    """The paths `git status` lists as changed, unquoted (`-z`: a name with
    a space is written as it is, not in quotes)."""
    return {entry[3:] for entry in git(repo, "status", "--porcelain", "-z").split("\0") if entry}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--recount", required=True)
    parser.add_argument("--mirrors", required=True)
    parser.add_argument("--corpus", required=True)
    parser.add_argument("--only", default="")
    parser.add_argument("--edits", default="")
    parser.add_argument("--scratch", default="/tmp/fix-proof")
    parser.add_argument(
        "--at-head",
        action="store_true",
        help="the mirror's newest commit instead of the corpus pin",
    )
    options = parser.parse_args()
    binary = os.path.abspath(options.recount)
    only = {n for n in options.only.split(",") if n}
    rows = []
    for line in open(options.corpus):
        name, _, commit = line.strip().partition("\t")
        if name == "repo" or not commit or (only and name not in only):
            continue
        rows.append((name, commit))
    edits_out = open(options.edits, "w") if options.edits else None
    totals = collections.Counter()
    for name, commit in rows:
        mirror = os.path.join(options.mirrors, name.replace("/", "+"), "repo")
        if not os.path.isdir(mirror):
            print(f"{name}: no mirror", file=sys.stderr)
            continue
        scratch = os.path.join(options.scratch, name.replace("/", "+"))
        shutil.rmtree(scratch, ignore_errors=True)
        subprocess.run(
            ["git", "clone", "-q", "--shared", "--no-checkout", mirror, scratch], check=True
        )
        if options.at_head:
            commit = git(scratch, "rev-parse", "HEAD").strip()
        subprocess.run(["git", "-C", scratch, "checkout", "-q", "--detach", commit], check=True)
        # Files the checkout could not write (a blob the mirror lacks) are
        # dirty before recount runs: not the fix's doing.
        dirty = porcelain(scratch)
        started = time.monotonic()
        try:
            before = findings(binary, scratch)
        except RuntimeError as failed:
            # A check that fails (exit 2, a crash) is that repository's
            # result: said, counted, and the run goes on.
            print(f"{name}: check failed: {failed}", file=sys.stderr)
            totals["errors"] += 1
            continue
        planned = recount(binary, scratch, ["fix", "--format", "json"])
        if planned.returncode != 0:
            print(f"{name}: fix failed: {planned.stderr.strip()[-300:]}", file=sys.stderr)
            totals["errors"] += 1
            continue
        plan = json.loads(planned.stdout)
        mended = collections.Counter()
        texts = {}
        for record in plan["edits"]:
            path = record["path"]
            with open(os.path.join(scratch, path), encoding="utf-8", newline="") as handle:
                texts[path] = handle.read()
            for edit in record["edits"]:
                # The finding the edit mends: same check, record and line, its
                # stated text inside the bytes replaced (a renamed link's text
                # is replaced with its destination).
                place = (edit["check"], path, edit["line"])
                here = [k for k in before if k[:3] == place and k not in mended]
                # Its stated text inside the bytes replaced; else, when the
                # record writes it another way (`:lines: 8-21` for the cite
                # `todo.py#L8-L21`), the one such finding on that line.
                # A reference link's definition is edited on its own line,
                # away from the finding (`[mod]: ../a.py` for `[x][mod]`):
                # the one unmended finding of the record with that text.
                if not here:
                    here = [
                        k for k in before
                        if k[:2] == place[:2] and k[3] == edit["stated"] and k not in mended
                    ][:1]
                # (The same text first: `src/ext` is inside `src/ext-test`.)
                key = next(
                    (k for k in here if k[3] and k[3] == edit["stated"]),
                    next(
                        (k for k in here if k[3] and k[3] in edit["stated"]),
                        here[0] if len(here) == 1 else place + (edit["stated"],),
                    ),
                )
                mended[key] += 1
        written = recount(binary, scratch, ["fix", "--write", "--yes"])
        if written.returncode != 0:
            print(f"{name}: fix --write failed: {written.stderr.strip()[-300:]}", file=sys.stderr)
            totals["errors"] += 1
            continue
        try:
            after = findings(binary, scratch)
        except RuntimeError as failed:
            print(f"{name}: check after the fix failed: {failed}", file=sys.stderr)
            totals["errors"] += 1
            continue
        took = time.monotonic() - started
        changed = porcelain(scratch)
        stray = sorted(changed - set(texts) - dirty)
        unreported = [k for k in mended if before[k] == 0]
        still = [k for k in mended if after[k] > 0]
        untouched = before - mended
        lost = untouched - after
        new = after - untouched
        edits = sum(mended.values())
        totals["repos"] += 1
        totals["edits"] += edits
        totals["needs_a_person"] += len(plan["needs_a_person"])
        totals["still"] += len(still)
        totals["lost"] += sum(lost.values())
        totals["new"] += sum(new.values())
        totals["stray"] += len(stray)
        print(
            f"{name}\t{commit[:8]}\tedits {edits}\tneeds a person {len(plan['needs_a_person'])}"
            f"\tstill reported {len(still)}\tother findings lost {sum(lost.values())}"
            f"\tnew {sum(new.values())}\tstray files {len(stray)}\t{took:.1f}s",
            flush=True,
        )
        for k in unreported + still:
            print(f"  !! {k}", flush=True)
        for k in list(lost) + list(new):
            print(f"  ?? {k} before {before[k]} after {after[k]}", flush=True)
        for path in stray:
            print(f"  !! stray change {path}", flush=True)
        if edits_out:
            for record in plan["edits"]:
                lines = texts[record["path"]].split("\n")
                now = open(
                    os.path.join(scratch, record["path"]), encoding="utf-8", newline=""
                ).read().split("\n")
                for edit in record["edits"]:
                    at = edit["line"] - 1
                    cells = [
                        name,
                        record["path"],
                        str(edit["line"]),
                        edit["check"],
                        edit["stated"],
                        edit["replacement"],
                        lines[at].strip() if at < len(lines) else "",
                        now[at].strip() if at < len(now) else "",
                    ]
                    edits_out.write("\t".join(c.replace("\t", " ") for c in cells) + "\n")
    print("total\t" + "\t".join(f"{k} {v}" for k, v in sorted(totals.items())))


if __name__ == "__main__":
    main()
