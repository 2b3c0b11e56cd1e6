#!/usr/bin/env python3
"""Compares the DuckDB rival's reports with storerecon's on the same world.

Findings must agree row for row on (kind, reason, store, chain_key, user_id); product_id, currency
and amount_minor are compared too. Revenue must agree on every column. Stripe's rows of
tieout_orders.csv (store `stripe`: each charge and refund of the feed against Stripe's balance report)
must agree on every column but the words (detail, what to do, docs, case). Exit 0 when they agree;
otherwise print the differing rows and exit 1 (the benchmark's comparison is then void).

Usage: compare.py STORERECON_OUT_DIR RIVAL_OUT_DIR
"""

import csv
import sys
from collections import Counter

FINDING_KEY = ["kind", "reason", "store", "chain_key", "user_id"]
FINDING_EXTRA = ["product_id", "currency", "amount_minor"]
REVENUE = ["day", "store", "product_id", "currency", "charges", "gross_minor", "tax_minor", "refunds_minor",
           "refund_count", "disputed_minor", "dispute_fees_minor"]
TIEOUT = ["store", "order_id", "month", "product_id", "currency", "sales_item_minor", "earnings_charge_minor",
          "estimated_fee_minor", "actual_fee_minor", "status"]
SHOW = 20


def read(path, columns):
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        missing = [c for c in columns if c not in (reader.fieldnames or [])]
        if missing:
            sys.exit(f"compare: {path} lacks columns {missing}")
        return [tuple(row[c] for c in columns) for row in reader]


def diff(name, ours, theirs, header):
    a, b = Counter(ours), Counter(theirs)
    only_ours = sorted((a - b).elements())
    only_theirs = sorted((b - a).elements())
    if not only_ours and not only_theirs:
        print(f"compare: {name}: {len(ours)} rows agree")
        return True
    print(f"compare: {name} DIFFER: {len(only_ours)} only in storerecon, {len(only_theirs)} only in DuckDB "
          f"(of {len(ours)} / {len(theirs)})")
    print("  columns: " + ",".join(header))
    for label, rows in (("storerecon", only_ours), ("duckdb", only_theirs)):
        for row in rows[:SHOW]:
            print(f"  only {label:10s} " + ",".join(row))
        if len(rows) > SHOW:
            print(f"  … and {len(rows) - SHOW} more only in {label}")
    return False


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    ours_dir, theirs_dir = sys.argv[1], sys.argv[2]
    ok = True
    ours = read(f"{ours_dir}/findings.csv", FINDING_KEY + FINDING_EXTRA)
    theirs = read(f"{theirs_dir}/findings.csv", FINDING_KEY + FINDING_EXTRA)
    ok &= diff("findings (kind,reason,store,chain_key,user_id)", [r[:5] for r in ours], [r[:5] for r in theirs],
               FINDING_KEY)
    ok &= diff("findings (with product_id,currency,amount_minor)", ours, theirs, FINDING_KEY + FINDING_EXTRA)
    ok &= diff("revenue", read(f"{ours_dir}/revenue.csv", REVENUE), read(f"{theirs_dir}/revenue.csv", REVENUE), REVENUE)
    ours_tie = [r for r in read(f"{ours_dir}/tieout_orders.csv", TIEOUT) if r[0] == "stripe"]
    theirs_tie = read(f"{theirs_dir}/tieout_orders.csv", TIEOUT)
    ok &= diff("tie-out of Stripe charges and refunds", ours_tie, theirs_tie, TIEOUT)
    if not ok:
        print("compare: MISMATCH — the comparison is void")
        sys.exit(1)
    print("compare: storerecon and DuckDB agree")


if __name__ == "__main__":
    main()
