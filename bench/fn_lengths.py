#!/usr/bin/env python3
"""The longest Rust functions of this checkout (rustfmt'd code), from the `fn` line to its
closing brace at the same indent: `python3 bench/fn_lengths.py [N]` prints the N longest (15).
Run from the repository root; issue #49 asks that none be over 120 lines."""
import re, sys, subprocess
files = subprocess.run(["git","ls-files","*.rs"],capture_output=True,text=True,cwd=".").stdout.split()
out=[]
pat=re.compile(r'^(\s*)(pub(\([a-z]+\))? )?(const )?(async )?(unsafe )?(extern "C" )?fn ([A-Za-z0-9_]+)')
for f in files:
    try: lines=open(f).read().split("\n")
    except: continue
    i=0
    while i<len(lines):
        m=pat.match(lines[i])
        if m:
            ind=m.group(1); name=m.group(8)
            # find line that opens body: first line ending with '{' at or after i
            j=i
            while j<len(lines) and not lines[j].rstrip().endswith("{") and not lines[j].rstrip().endswith(";"):
                j+=1
            if j<len(lines) and lines[j].rstrip().endswith(";"):
                i=j+1; continue
            k=j+1
            while k<len(lines) and lines[k]!=ind+"}":
                k+=1
            out.append((k-i+1,f"{f}:{i+1}",name))
        i+=1
out.sort(reverse=True)
n=int(sys.argv[1]) if len(sys.argv)>1 else 15
for l,loc,name in out[:n]: print(f"{l:5d} {name} {loc}")
