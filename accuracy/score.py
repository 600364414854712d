#!/usr/bin/env python3
"""Scores a zero-configuration run of recount against the judged findings.

Usage: accuracy/score.py RUNS_DIR

RUNS_DIR holds one `recount check --format json` report per corpus repository,
named `owner+name.json` and made with
`recount check --repo CLONE --rev COMMIT --format json` at the commit that
accuracy/corpus.tsv names. Every finding is looked up in accuracy/findings.tsv
by (repository, record:line, cite); the script prints precision over the judged
findings and lists every finding nobody has judged yet, so a change that adds a
finding cannot raise the score unseen, and every finding judged real that the
run no longer reports (recall lost).
"""

import csv
import json
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent


def table(name):
    with open(HERE / name, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def main(runs):
    judged = {
        (row["repo"], row["record_at"], row["cite"]): row["verdict"]
        for row in table("findings.tsv")
    }
    real = noise = 0
    unjudged = []
    missing = []
    for repo in table("corpus.tsv"):
        report = pathlib.Path(runs) / (repo["repo"].replace("/", "+") + ".json")
        if not report.exists():
            # Not fetched for this run: its judged findings are not counted,
            # nor counted as lost.
            missing.append(repo["repo"])
            continue
        findings = json.loads(report.read_text(encoding="utf-8"))["findings"]
        for f in findings:
            where = f"{f['location']['path']}:{f['location']['line']}"
            key = (repo["repo"], where, f.get("stated", ""))
            verdict = judged.get(key)
            if verdict == "real":
                real += 1
            elif verdict == "noise":
                noise += 1
            else:
                unjudged.append(key)
    total = real + noise
    if missing:
        print(f"repositories with no report (not scored): {len(missing)}")
    print(f"judged findings: {total} ({real} real, {noise} noise)")
    if total:
        print(f"precision: {real / total:.1%}")
    for key in unjudged:
        print("unjudged:", *key, sep="\t")
    # A drift judged real that the run no longer reports is recall lost.
    fired = set()
    for repo in table("corpus.tsv"):
        report = pathlib.Path(runs) / (repo["repo"].replace("/", "+") + ".json")
        if not report.exists():
            continue
        for f in json.loads(report.read_text(encoding="utf-8"))["findings"]:
            fired.add((repo["repo"], f"{f['location']['path']}:{f['location']['line']}", f.get("stated", "")))
    lost = [
        key
        for key, verdict in judged.items()
        if verdict == "real" and key not in fired and key[0] not in missing
    ]
    for key in lost:
        print("lost:", *key, sep="\t")
    return 1 if unjudged or lost else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "runs"))
