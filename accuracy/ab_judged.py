#!/usr/bin/env python3
"""Old build against new on judged groups (issue 53).

    accuracy/ab_judged.py OLD NEW GROUP...

Each GROUP is a folder under /work/groups holding repos.txt (owner/name, bare
mirror, checkout; tab-separated) and verdicts.tsv (repo, record_at, cite,
check, verdict, reason). Every repository is checked with both builds
(`check --repo MIRROR --rev HEAD --format json`, 120 s each at most), and
every finding one build has and the other lacks is printed with its verdict:
`-` gone with NEW, `+` new with NEW; UNJUDGED when no verdict names its
place. A fix is kept when every `-` is noise and there is no `+`.
"""
import json,subprocess,sys,csv,os
old,new=sys.argv[1],sys.argv[2]
for g in sys.argv[3:]:
    ver={}
    vp=f'/work/groups/{g}/verdicts.tsv'
    if os.path.exists(vp):
        for row in csv.reader(open(vp),delimiter='\t'):
            if len(row)>=5: ver[(row[0].split('/')[-1],row[1])]=row[4]
    for line in open(f'/work/groups/{g}/repos.txt'):
        parts=line.rstrip('\n').split('\t')
        if len(parts)<2: continue
        repo,mirror=parts[0],parts[1]; n=repo.split('/')[-1]
        def run(b):
            
            try: out=subprocess.run(['timeout','120',b,'check','--repo',mirror,'--rev','HEAD','--format','json'],capture_output=True,text=True).stdout
            except Exception: return None
            try: return json.loads(out)['findings']
            except Exception: return None
        o,w=run(old),run(new)
        if o is None or w is None: print(g,n,'RUN FAILED'); continue
        key=lambda f:(f['location']['path'],f['location'].get('line'),f['message'][:60])
        ok={key(f) for f in o}; nk={key(f) for f in w}
        for k in sorted(ok-nk): print(g,n,'-',f'{k[0]}:{k[1]}',ver.get((n,f'{k[0]}:{k[1]}'),'UNJUDGED'),k[2])
        for k in sorted(nk-ok): print(g,n,'+',f'{k[0]}:{k[1]}',ver.get((n,f'{k[0]}:{k[1]}'),'UNJUDGED'),k[2])
