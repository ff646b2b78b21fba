#!/usr/bin/env python3
"""Medians and p95 (ms per page) per dataset from scripts/peers-side-by-side.sh output: python3 scripts/peers-summary.py OUT"""
import json, sys, glob, os, statistics
out=sys.argv[1]
def q(v,p):
    v=sorted(v); return v[min(len(v)-1,int(round(p*(len(v)-1))))]
rows={}
for f in sorted(glob.glob(out+'/*.json')):
    d,p=os.path.basename(f)[:-5].split('.',1)
    r=json.load(open(f)); s=[x*1000 for x in r['seconds'].values()]
    if s: rows.setdefault(d,{})[p]=(statistics.median(s), q(s,.95), len(s))
for f in sorted(glob.glob(out+'/*.pith.jsonl')):
    d=os.path.basename(f).split('.')[0]
    s=[json.loads(l)['ms'] for l in open(f)]
    s=[x for x in s if x is not None]
    if s: rows.setdefault(d,{})['pith_auto']=(statistics.median(s), q(s,.95), len(s))
names=sorted({p for v in rows.values() for p in v})
print('| dataset | '+' | '.join(names)+' |'); print('|---'*(len(names)+1)+'|')
for d,v in rows.items():
    print('| %s | '%d+' | '.join('%.2f / %.2f'%v[p][:2] if p in v else '' for p in names)+' |')
