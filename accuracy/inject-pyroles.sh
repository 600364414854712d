#!/bin/bash
# accuracy/inject-pyroles.sh OWNER+NAME COMMIT: drift injection for the Python roles.
# Clones the mirror (MIRRORS/OWNER+NAME/repo) into /tmp, renames the definitions
# that 12 sampled resolved roles name (seed 2026; under their classes, at their
# depth), commits, runs `recount check` (RECOUNT, default target/release/recount)
# and prints how many of the roles citing them are reported.
r=$1; c=$2; RECOUNT=${RECOUNT:-target/release/recount}; MIRRORS=${MIRRORS:-/work/.mirror}; RECOUNT=$(realpath "$RECOUNT"); cd /tmp && rm -rf pyinj-$r && git clone -q $MIRRORS/$r/repo pyinj-$r && cd pyinj-$r && git checkout -q $c && git checkout -q -b inj
RECOUNT_CACHE_DIR= "$RECOUNT" cites --rev HEAD --format json 2>/dev/null > /tmp/pyinj-$r.cites.json
python3 - $r <<'P'
import json,random,re,sys
r=sys.argv[1]
d=json.load(open(f'/tmp/pyinj-{r}.cites.json'))
ok=[c for c in d['citations'] if c['status']['status']=='ok' and ': ' in c['status'].get('resolved','') and c['status']['resolved'].split(': ')[0].endswith('.py') and c['frame']==d['snapshot']['label']]
targets={}
for c in ok:
    f,name=c['status']['resolved'].split(': ',1)
    if name.split('.')[-1].startswith('__'): continue
    targets.setdefault((f,name),[]).append(c)
random.seed(2026)
pick=random.sample(sorted(targets),min(12,len(targets)))
broken=[]
for f,name in pick:
    parts=name.split('.')
    last=parts[-1]
    src=open(f).read()
    # the definition the resolver found: under its classes, at their depth
    pos=0; indent=''
    ok_=True
    for cls in parts[:-1]:
        m=re.compile(r'^'+indent+r'class '+re.escape(cls)+r'\b', re.M).search(src,pos)
        if not m: ok_=False; break
        pos=m.end()
        nxt=re.compile(r'^('+indent+r'\s+)\S', re.M).search(src,pos)
        if not nxt: ok_=False; break
        indent=nxt.group(1)
    if not ok_: continue
    m=re.compile(r'^'+indent+r'(def|class|async def) '+re.escape(last)+r'\b', re.M).search(src,pos)
    if not m: continue
    src=src[:m.start()]+indent+m.group(1)+' '+last+'_renamed'+src[m.end():]
    open(f,'w').write(src)
    broken.append((f,name,[c['at'] for c in targets[(f,name)]]))
json.dump(broken,open(f'/tmp/pyinj-{r}.broken.json','w'))
P
git commit -qam "rename some definitions"
RECOUNT_CACHE_DIR= "$RECOUNT" check --rev HEAD --format json 2>/dev/null > /tmp/pyinj-$r.check.json
python3 - $r <<'P'
import json,sys
r=sys.argv[1]
b=json.load(open(f'/tmp/pyinj-{r}.broken.json'))
d=json.load(open(f'/tmp/pyinj-{r}.check.json'))
at={f"{f['location']['path']}:{f['location']['line']}:{f['location']['column']}" for f in d['findings']}
tot=hit=0
for f,name,ats in b:
    for a in ats:
        tot+=1; hit+= a in at
        if a not in at: print('  MISS',name,a)
print(r,'renamed',len(b),'recall',hit,'/',tot)
P
