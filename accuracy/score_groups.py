#!/usr/bin/env python3
"""A build's precision on judged groups (issue 53).

    accuracy/score_groups.py BIN GROUP...

Each GROUP is a folder under /work/groups holding repos.txt and
verdicts.tsv (see ab_judged.py). Every repository is checked with BIN
(`check --repo MIRROR --rev HEAD --format json`), and each finding is looked
up in the group's verdicts by its path and line: the group's real/judged
count, its precision, and how many findings no verdict names. A build
tuned on a group reads it again, which is no fresh measure.
"""
import json,subprocess,sys,csv
b=sys.argv[1]
for g in sys.argv[2:]:
    ver={}
    for row in csv.reader(open(f'/work/groups/{g}/verdicts.tsv'),delimiter='\t'):
        if len(row)>=5: ver.setdefault((row[0].split('/')[-1],row[1]),[]).append(row[4])
    real=noise=unj=0
    for line in open(f'/work/groups/{g}/repos.txt'):
        p=line.rstrip('\n').split('\t')
        if len(p)<2: continue
        n=p[0].split('/')[-1]
        out=subprocess.run(['timeout','300',b,'check','--repo',p[1],'--rev','HEAD','--format','json'],capture_output=True,text=True).stdout
        try: fs=json.loads(out)['findings']
        except Exception: print(g,n,'FAILED'); continue
        for f in fs:
            k=(n,f"{f['location']['path']}:{f['location'].get('line')}")
            v=ver.get(k,['?'])[0]
            if v=='real': real+=1
            elif v=='noise': noise+=1
            else: unj+=1
    t=real+noise
    print(g, f'{real}/{t}', f'{100*real/t:.1f}%' if t else '-', 'unjudged', unj)
