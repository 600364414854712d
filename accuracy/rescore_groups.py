#!/usr/bin/env python3
"""Rescore judged groups with another build: each finding of `check --rev HEAD`
matched to its verdict by place (repo, path:line, stated; else the one verdict
of that place); findings no verdict covers are listed as NEW, to judge.

    python3 accuracy/rescore_groups.py BIN GROUP... (groups under /work/groups)
"""
import json, subprocess, sys, csv, collections
binary, groups = sys.argv[1], sys.argv[2:]
tot = collections.Counter()
for g in groups:
    verd = {}
    for row in csv.DictReader(open(f"/work/groups/{g}/verdicts.tsv"), delimiter="\t"):
        verd[(row["repo"], row["record_at"], row["cite"])] = row["verdict"]
    c = collections.Counter(); new = []
    for line in open(f"/work/groups/{g}/repos.txt"):
        repo, mirror, _ = line.rstrip("\n").split("\t")
        p = subprocess.run([binary, "check", "--repo", mirror, "--rev", "HEAD", "--format", "json", "--no-cache"], capture_output=True, text=True)
        for f in json.loads(p.stdout)["findings"]:
            key = (repo, f"{f['location']['path']}:{f['location']['line']}", f.get("stated") or "")
            v = verd.get(key)
            if v is None:
                # verdict rows may hold the cite with other text: match on place
                vs = [vv for (r, at, _), vv in verd.items() if r == repo and at == key[1]]
                v = vs[0] if len(set(vs)) == 1 else None
            if v is None:
                new.append(key + (f["message"][:200],)); c["unjudged"] += 1
            else:
                c[v] += 1
    judged = c["real"] + c["noise"]
    print(g, dict(c), f"precision {c['real']}/{judged} = {100*c['real']/max(judged,1):.1f}%")
    for n in new: print("  NEW", *n, sep="\t")
    tot.update(c)
