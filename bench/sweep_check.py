#!/usr/bin/env python3
"""Checks the DuckDB rival's double-billing sweep against storerecon's algorithm on random periods.

The rival finds double billing with one window sweep per person and tier (a bit per chain, the running
sum of start and end events); storerecon (Sources/StoreReconCore/Reconcile/DoubleBilling.swift) orders
a person's chains of a tier and intersects each later chain's merged periods with the union of the
earlier ones. This ports that algorithm to Python and compares the two on random worlds of 1-9 chains
per person in two stores (reason, person, currency and amount of every finding). Exit 1 on a difference.

Usage: bench/.venv/bin/python bench/sweep_check.py [SEED]
"""
import os
import random
import re
import sys

import duckdb

src = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "duckdb_reconcile.py")).read()
m = re.search(r'add\("double billing sweep", f"""(.*?)"""\)', src, re.S)
TOL = 5
sql = m.group(1).replace('{TOL}', str(TOL))
def swift(groups):
    out = {}
    for (person, tier), chains in groups.items():
        if len(chains) < 2: continue
        order = sorted(chains.items(), key=lambda kv: (min(p[0] for p in kv[1]), kv[0][0], kv[0][1]))
        def union(ps):
            merged = []
            for a, b in sorted(ps):
                if merged and a <= merged[-1][1]: merged[-1][1] = max(merged[-1][1], b)
                else: merged.append([a, b])
            return merged
        def inter(a, b):
            return [(max(x0, y0), min(x1, y1)) for x0, x1 in a for y0, y1 in b if min(x1, y1) > max(x0, y0)]
        for i in range(1, len(order)):
            (store, key), periods = order[i]
            mine = union([(s, e) for s, e, _, _ in periods])
            earlier = []; other = False
            for (ostore, okey), ops in order[:i]:
                theirs = union([(s, e) for s, e, _, _ in ops])
                if inter(mine, theirs) and ostore != store: other = True
                earlier += theirs
            ov = inter(mine, union(earlier))
            ms = sum(h - l for l, h in ov)
            if ms <= TOL: continue
            over = [p for p in periods if any(h > p[0] and l < p[1] for l, h in ov)]
            cur = max(over, key=lambda p: p[0])[3]
            amt = sum(p[2] for p in over if p[3] == cur)
            out[(store, key)] = ('across_stores' if other else 'within_store', person, cur, amt)
    return out
random.seed(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
bad = 0
for trial in range(200):
    rows = []; groups = {}
    for person in range(random.randint(1, 6)):
        for c in range(random.randint(1, 9)):
            store = random.choice(['app_store', 'play']); key = f'k{person}_{c}'; tier = random.choice(['t1', 't2'])
            start = random.randint(0, 100)
            for _ in range(random.randint(1, 4)):
                s = start + random.randint(-5, 30); e = s + random.randint(1, 40)
                start = s
                p = (s, e, random.randint(1, 9) * 100, random.choice(['USD', 'USD', 'EUR']))
                rows.append((store, key, *p, tier, f'p{person}'))
                groups.setdefault((f'p{person}', tier), {}).setdefault((store, key), []).append(p)
    con = duckdb.connect()
    con.execute("CREATE TABLE periods(store VARCHAR, chain_key VARCHAR, s BIGINT, e BIGINT, amount BIGINT, currency VARCHAR, tier VARCHAR, person VARCHAR)")
    con.executemany("INSERT INTO periods VALUES (?,?,?,?,?,?,?,?)", rows)
    con.execute("CREATE TABLE findings(kind VARCHAR, reason VARCHAR, store VARCHAR, chain_key VARCHAR, user_id VARCHAR, product_id VARCHAR, currency VARCHAR, amount_minor BIGINT)")
    con.execute("CREATE TABLE chains AS SELECT DISTINCT store, chain_key, 'prod' AS current_product FROM periods")
    con.execute(sql)
    got = {(r[2], r[3]): (r[1], r[4], r[6], r[7]) for r in con.execute("SELECT * FROM findings").fetchall()}
    want = swift(groups)
    if got != want:
        bad += 1
        if bad < 3: print('DIFF', trial, sorted(set(got.items()) ^ set(want.items()))[:4])
print(f'sweep_check: {bad} of 200 random worlds differ')
sys.exit(1 if bad else 0)
