#!/usr/bin/env python3
"""`check --since` held to two full checks, commit by commit.

For each repository and each of its newest N first-parent commits C (from its
pinned commit in the corpus, else HEAD), runs

    recount check --rev C --since C^    (the range of one commit)
    recount check --rev C               (the full check at C)
    recount check --rev C^              (the full check at its parent)

and holds the range's report to the two full ones:

- precision: every finding `--since` reports is one the full check at C
  reports (same fingerprint), and one the parent's full check does not
  (check, path, fact, stated text; counted), or one on a line C wrote;
- recall: every finding of C's full check that the parent's does not have is
  reported by `--since` (no silent pass).

Prints one row per commit and a total; a row that breaks either rule is
marked and its findings listed, for judging by hand.

    python3 accuracy/since_proof.py --recount target/release/recount \
        --mirrors /work/.mirror --corpus accuracy/corpus.tsv --commits 20 \
        [--only owner/name,...] [--out rows.tsv]
"""

import argparse
import collections
import json
import os
import subprocess
import sys
import time


def run(recount, repo, args):
    started = time.monotonic()
    done = subprocess.run(
        [recount, "check", "--repo", repo, "--format", "json", "--no-transcripts"] + args,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    took = time.monotonic() - started
    if done.returncode not in (0, 1):
        return None, took, done.stderr.strip().splitlines()[-1:] or ["?"]
    return json.loads(done.stdout), took, None


def key(finding):
    return (
        finding["check"],
        finding["location"]["path"],
        finding.get("fact", ""),
        " ".join((finding.get("stated") or finding["message"]).split()),
    )


def first_parents(repo, start, count):
    out = subprocess.run(
        ["git", "--git-dir", repo, "rev-list", "--first-parent", f"--max-count={count + 1}", start],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return list(zip(out, out[1:]))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--recount", required=True)
    parser.add_argument("--mirrors", required=True)
    parser.add_argument("--corpus", required=True)
    parser.add_argument("--commits", type=int, default=20)
    parser.add_argument("--only", default="")
    parser.add_argument("--out", default="")
    options = parser.parse_args()
    only = {o for o in options.only.split(",") if o}
    pinned = {}
    with open(options.corpus) as corpus:
        for line in corpus.read().splitlines()[1:]:
            name, commit = line.split("\t")[:2]
            pinned[name] = commit
    names = sorted(only) if only else sorted(pinned)
    rows = []
    totals = collections.Counter()
    for name in names:
        repo = os.path.join(options.mirrors, name.replace("/", "+"), "repo")
        if not os.path.isdir(repo):
            print(f"{name}: no mirror", file=sys.stderr)
            continue
        start = pinned.get(name, "HEAD")
        for commit, parent in first_parents(repo, start, options.commits):
            ranged, t_range, err1 = run(options.recount, repo, ["--rev", commit, "--since", parent])
            full, t_full, err2 = run(options.recount, repo, ["--rev", commit])
            before, _, err3 = run(options.recount, repo, ["--rev", parent])
            if err1 or err2 or err3:
                rows.append((name, commit[:8], "error", err1 or err2 or err3))
                totals["errors"] += 1
                continue
            at_parent = collections.Counter(key(f) for f in before["findings"])
            in_full = {f["fingerprint"] for f in full["findings"]}
            wrong = []
            for f in ranged["findings"]:
                if f["fingerprint"] not in in_full:
                    wrong.append(("not in the full check", f))
                elif f.get("cause", {}).get("how") != "wrote" and at_parent[key(f)] > 0:
                    wrong.append(("there at the parent", f))
            reported = {f["fingerprint"] for f in ranged["findings"]}
            left = collections.Counter(at_parent)
            missed = []
            for f in full["findings"]:
                if left[key(f)] > 0:
                    left[key(f)] -= 1
                elif f["fingerprint"] not in reported:
                    missed.append(("new, not reported", f))
            totals["commits"] += 1
            totals["reported"] += len(ranged["findings"])
            totals["wrong"] += len(wrong)
            totals["missed"] += len(missed)
            totals["full_seconds"] += t_full
            totals["range_seconds"] += t_range
            mark = "ok" if not wrong and not missed else "CHECK"
            rows.append(
                (name, commit[:8], mark, len(full["findings"]), len(ranged["findings"]),
                 f"{t_full:.2f}", f"{t_range:.2f}")
            )
            print("\t".join(str(x) for x in rows[-1]), flush=True)
            for why, f in wrong + missed:
                loc = f["location"]
                print(f"    {why}: {f['check']} {loc['path']}:{loc['line']} {f['message'][:160]}", flush=True)
    print(
        f"total: {totals['commits']} commits, {totals['reported']} findings reported, "
        f"{totals['wrong']} not the range's, {totals['missed']} new and not reported, "
        f"{totals['errors']} errors; full {totals['full_seconds']:.1f} s, "
        f"--since {totals['range_seconds']:.1f} s"
    )
    if options.out:
        with open(options.out, "w") as out:
            for row in rows:
                out.write("\t".join(str(x) for x in row) + "\n")


if __name__ == "__main__":
    main()
