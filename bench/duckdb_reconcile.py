#!/usr/bin/env python3
"""The DuckDB rival: storerecon's reconciliation as SQL over the same export files.

Reads the files a storerecon config names (App Store JSON Lines with ~5% compact-JWS lines, Play
sales reports, Play subscriptionsv2 and voided JSON Lines, Stripe's objects (JSON Lines of API
objects and webhook events, both API shapes) and balance report CSVs, the app's entitlement,
credential, goodwill and credits CSVs), applies the rules of docs/rules.md as storerecon implements
them (the consumable credit rules and double_billing included; Stripe's chains as the stores'), and
writes `findings.csv` (kind, reason, store, chain_key, user_id, product_id, currency, amount_minor),
`revenue.csv` (the columns of storerecon's revenue.csv) and `tieout_orders.csv` (its Stripe rows:
each Stripe charge and refund against the balance report) into --out.

Python only orchestrates: every row is read, parsed (JWS included: base64url is decoded in SQL
with from_base64) and reconciled by DuckDB. Money stays in BIGINT minor units or DECIMAL; no
DOUBLE touches an amount.

Scope, deliberately the same as the demo world's files: App Store lines are decoded payload
objects or bare compact JWS (not JWS strings or notification wrappers); the config's time zone
may be any IANA zone; rounding of prorated refunds is half-even (the default).

Usage: duckdb_reconcile.py --config DIR/storerecon.json --date 2026-11-29 --out OUTDIR
"""

import argparse
import csv
import datetime
import glob
import json
import os
import sys
import time
import zoneinfo

import duckdb

# ISO 4217 minor-unit digits (the table storerecon uses; codes without a minor unit cannot hold money).
CURRENCY_DIGITS = {
    0: "BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF BYR",
    2: "AED AFN ALL AMD AOA ARS AUD AWG AZN BAM BBD BDT BMD BND BOB BOV BRL BSD BTN BWP BYN BZD CAD CDF "
    "CHE CHF CHW CNY COP COU CRC CUP CVE CZK DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GTQ "
    "GYD HKD HNL HTG HUF IDR ILS INR IRR JMD KES KGS KHR KPW KYD KZT LAK LBP LKR LRD LSL MAD MDL MGA MKD "
    "MMK MNT MOP MRU MUR MVR MWK MXN MXV MYR MZN NAD NGN NIO NOK NPR NZD PAB PEN PGK PHP PKR PLN QAR RON "
    "RSD RUB SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TOP TRY TTD TWD TZS "
    "UAH USD USN UYU UZS VED VES WST XAD XCD XCG YER ZAR ZMW ZWG BGN ANG ZWL SLL HRK CUC MRO STD VEF LTL",
    3: "BHD IQD JOD KWD LYD OMR TND",
    4: "CLF UYW",
}

DISTANT_FUTURE = 2305843009213693951  # Int64.max / 4: "no end"
DISTANT_PAST = -2305843009213693952  # Int64.min / 4
MS_PER_DAY = 86_400_000

# Stripe's currencies whose smallest unit is not the ISO 4217 minor unit (docs/inputs.md#stripe-money).
STRIPE_ZERO_DECIMAL = set("BIF CLP DJF GNF JPY KMF KRW MGA PYG RWF UGX VND VUV XAF XOF XPF".split())
STRIPE_TWO_DECIMAL = {"ISK"}

SALES_COLUMNS = [
    ("Order Number", "VARCHAR"), ("Order Charged Date", "DATE"), ("Order Charged Timestamp", "BIGINT"),
    ("Financial Status", "VARCHAR"), ("Device Model", "VARCHAR"), ("Product Title", "VARCHAR"),
    ("Product ID", "VARCHAR"), ("Product Type", "VARCHAR"), ("SKU ID", "VARCHAR"),
    ("Currency of Sale", "VARCHAR"), ("Item Price", "DECIMAL(18,6)"), ("Taxes Collected", "DECIMAL(18,6)"),
    ("Charged Amount", "DECIMAL(18,6)"), ("City of Buyer", "VARCHAR"), ("State of Buyer", "VARCHAR"),
    ("Postal Code of Buyer", "VARCHAR"), ("Country of Buyer", "VARCHAR"), ("Base Plan ID", "VARCHAR"),
    ("Offer ID", "VARCHAR"), ("Group ID", "VARCHAR"), ("First USD 1M Eligible", "VARCHAR"),
    ("Promotion ID", "VARCHAR"), ("Coupon Value", "VARCHAR"), ("Discount Rate", "VARCHAR"),
    ("Featured Product ID", "VARCHAR"),
]

APPLE_FIELDS = [
    ("transactionId", "VARCHAR"), ("originalTransactionId", "VARCHAR"), ("productId", "VARCHAR"),
    ("purchaseDate", "BIGINT"), ("expiresDate", "BIGINT"), ("type", "VARCHAR"),
    ("inAppOwnershipType", "VARCHAR"), ("environment", "VARCHAR"), ("price", "BIGINT"),
    ("currency", "VARCHAR"), ("revocationDate", "BIGINT"), ("revocationType", "VARCHAR"),
    ("revocationReason", "BIGINT"), ("revocationPercentage", "BIGINT"), ("isUpgraded", "BOOLEAN"),
    ("quantity", "BIGINT"), ("appAccountToken", "VARCHAR"), ("billingPlanType", "VARCHAR"),
    ("commitmentInfo", "STRUCT(billingPeriodNumber BIGINT, totalBillingPeriods BIGINT)"),
]

SUBSCRIPTION_COLUMNS = {
    "purchaseToken": "VARCHAR",
    "subscriptionState": "VARCHAR",
    "startTime": "TIMESTAMPTZ",
    "latestOrderId": "VARCHAR",
    "linkedPurchaseToken": "VARCHAR",
    "testPurchase": "JSON",
    "externalAccountIdentifiers": "STRUCT(obfuscatedExternalAccountId VARCHAR)",
    "lineItems": "STRUCT(productId VARCHAR, expiryTime TIMESTAMPTZ, latestSuccessfulOrderId VARCHAR, "
    "autoRenewingPlan STRUCT(recurringPrice STRUCT(currencyCode VARCHAR, units BIGINT, nanos BIGINT)), "
    "offerDetails STRUCT(basePlanId VARCHAR))[]",
}

VOIDED_COLUMNS = {"purchaseToken": "VARCHAR", "orderId": "VARCHAR", "voidedTimeMillis": "BIGINT"}

CATALOG_TYPES = {"subscription": "auto", "non_renewing": "nonrenewing", "non_consumable": "nonconsumable",
                 "consumable": "consumable"}


def sql_str(text):
    return "'" + text.replace("'", "''") + "'"


def sql_list(paths):
    return "[" + ", ".join(sql_str(p) for p in paths) + "]"


def columns_arg(pairs):
    return "{" + ", ".join(f"{sql_str(name)}: {sql_str(kind)}" for name, kind in pairs) + "}"


def parse_period(text):
    """ISO 8601 period (P1M, P1Y, P2W, P7D, P1Y6M) → (months, days); None when not one."""
    text = text.upper()
    if not text.startswith("P") or len(text) < 3:
        return None
    months = days = 0
    number = ""
    for ch in text[1:]:
        if ch.isdigit():
            number += ch
            continue
        if not number:
            return None
        n = int(number)
        if ch == "Y":
            months += 12 * n
        elif ch == "M":
            months += n
        elif ch == "W":
            days += 7 * n
        elif ch == "D":
            days += n
        else:
            return None
        number = ""
    if number or (months == 0 and days == 0):
        return None
    return months, days


class Config:
    def __init__(self, path, date_text):
        with open(path) as f:
            root = json.load(f)
        base = os.path.dirname(os.path.abspath(path))

        def resolve(p):
            return p if p.startswith("/") else os.path.join(base, p)

        def patterns(section, key):
            value = root.get(section, {}).get(key, [])
            return [resolve(p) for p in ([value] if isinstance(value, str) else value)]

        self.apple = patterns("appStore", "transactions")
        self.sales = patterns("play", "sales")
        self.subscriptions = patterns("play", "subscriptions")
        self.voided = patterns("play", "voided")
        self.stripe_objects = patterns("stripe", "objects")
        self.stripe_reports = patterns("stripe", "reports")
        self.stripe_user_key = root.get("stripe", {}).get("userMetadataKey", "app_user_id")
        self.stripe_bp = root.get("fees", {}).get("stripe", {}).get("bp", 0)
        app = root.get("app", {})
        self.entitlements = resolve(app["entitlements"])
        self.credentials = resolve(app["credentials"]) if app.get("credentials") else None
        self.goodwill = resolve(app["goodwill"]) if app.get("goodwill") else None
        self.credits = resolve(app["credits"]) if isinstance(app.get("credits"), str) else None
        self.credit_grace_ms = root.get("creditGraceHours", 6) * 3_600_000
        grace = {"app_store": 16, "play": 30, "stripe": 0}
        grace.update(root.get("graceDays", {}))
        self.grace_ms = {store: days * MS_PER_DAY for store, days in grace.items()}
        self.tolerance_ms = root.get("toleranceHours", 24) * 3_600_000
        if root.get("rounding", "half_even") != "half_even":
            raise SystemExit("duckdb_reconcile: only rounding half_even is implemented")
        self.time_zone = root.get("timeZone", "UTC")
        self.catalog = []
        for name, entry in root.get("catalog", {}).items():
            kind = CATALOG_TYPES.get(entry["type"]) if "type" in entry else None
            period = parse_period(entry["period"]) if "period" in entry else None
            self.catalog.append((name, kind, period[0] if period else None, period[1] if period else None,
                                 entry.get("units"), entry.get("tier")))
        # T: the start of the day after --date, in the config's time zone.
        day = datetime.date.fromisoformat(date_text) + datetime.timedelta(days=1)
        zone = datetime.timezone.utc if self.time_zone in ("UTC", "Etc/UTC") else zoneinfo.ZoneInfo(self.time_zone)
        start = datetime.datetime(day.year, day.month, day.day, tzinfo=zone)
        self.t = int(start.timestamp() * 1000)


STRIPE_STRUCT = {
    "id": "VARCHAR", "object": "VARCHAR", "created": "BIGINT", "livemode": "BOOLEAN", "status": "VARCHAR",
    "customer": "JSON", "metadata": "JSON", "lookup_key": "VARCHAR",
    "start_date": "BIGINT", "trial_start": "BIGINT", "trial_end": "BIGINT", "ended_at": "BIGINT",
    "canceled_at": "BIGINT", "items": {"data": [{"price": "JSON", "plan": "JSON"}]},
    "subscription": "JSON", "parent": {"subscription_details": {"subscription": "JSON"}},
    "amount_paid": "BIGINT", "currency": "VARCHAR", "tax": "BIGINT", "total_taxes": [{"amount": "BIGINT"}],
    "status_transitions": {"paid_at": "BIGINT", "finalized_at": "BIGINT", "marked_uncollectible_at": "BIGINT",
                           "voided_at": "BIGINT"},
    "charge": "JSON", "payment_intent": "JSON",
    "payments": {"data": [{"payment": {"charge": "JSON", "payment_intent": "JSON"}}]},
    "lines": {"data": [{"period": {"start": "BIGINT", "end": "BIGINT"}, "price": "JSON", "plan": "JSON",
                        "pricing": {"price_details": {"price": "JSON"}}, "quantity": "BIGINT"}]},
    "amount": "BIGINT", "amount_captured": "BIGINT", "paid": "BOOLEAN", "invoice": "JSON",
}


def stripe_steps(cfg, add, T, DF, DP, product_type, advance):
    """Stripe's objects and balance report: the chains (`sp` purchases, `schains`), the ids that name a
    chain (`s_alias`) and the tie-out's feed lines (`s_feed`); empty tables when the config has none."""
    if not cfg.stripe_objects:
        add("no stripe", """
CREATE TABLE sp(chain_key VARCHAR, tid VARCHAR, product VARCHAR, at_ms BIGINT, pend BIGINT, prod BOOLEAN,
                amount BIGINT, currency VARCHAR, tax BIGINT, revoked BOOLEAN, ptype VARCHAR, token VARCHAR,
                back_at BIGINT, back_amount BIGINT);
CREATE TABLE schains(store VARCHAR, chain_key VARCHAR, production BOOLEAN, current_product VARCHAR,
                     paid_through BIGINT, revoked BOOLEAN, lpc STRUCT(currency VARCHAR, amount BIGINT, product VARCHAR),
                     lpos STRUCT(currency VARCHAR, amount BIGINT), paid_sum HUGEINT, multi_currency BOOLEAN,
                     first_token VARCHAR);
CREATE TABLE s_alias(alias VARCHAR, chain_key VARCHAR);
CREATE TABLE s_feed(kind VARCHAR, id VARCHAR, charge_id VARCHAR, amount BIGINT, currency VARCHAR, at_ms BIGINT,
                    product VARCHAR, live BOOLEAN);
CREATE TABLE s_disp(at_ms BIGINT, product VARCHAR, currency VARCHAR, disputed BIGINT, fee BIGINT);
""")
        return
    key = sql_str(cfg.stripe_user_key)

    def duck_type(shape):
        if isinstance(shape, dict):
            return "STRUCT(" + ", ".join(f'"{k}" {duck_type(v)}' for k, v in shape.items()) + ")"
        if isinstance(shape, list):
            return duck_type(shape[0]) + "[]"
        return shape
    # The typed members of any object line, and of an event's data.object: DuckDB's JSON reader parses
    # each line once, straight into these types (members not named are skipped).
    types = {k: duck_type(v) for k, v in STRIPE_STRUCT.items()}
    types["data"] = f"STRUCT(object {duck_type(STRIPE_STRUCT)})"
    columns = "{" + ", ".join(f"{sql_str(k)}: {sql_str(v)}" for k, v in types.items()) + "}"
    pack = ", ".join(f'"{k}" := "{k}"' for k in STRIPE_STRUCT)
    # Stripe's amounts in its smallest unit → ISO minor units (NULL when not exact: the object is rejected).
    def minor(col):
        return f"(CASE WHEN {col} % c.sdiv = 0 THEN {col} // c.sdiv * c.smul END)"

    add("read stripe.objects", f"""
CREATE MACRO sref(x) AS CASE json_type(x) WHEN 'VARCHAR' THEN x->>'$' WHEN 'OBJECT' THEN x->>'id' END;
CREATE TEMP TABLE s_all AS  -- every line typed as it is read: an event counts as its data.object, at its created
SELECT * FROM (
  SELECT CASE WHEN object = 'event' THEN created END AS ev_at,
         unnest(CASE WHEN object = 'event' THEN data.object ELSE struct_pack({pack}) END)
  FROM read_json({sql_list(cfg.stripe_objects)}, format = 'newline_delimited', columns = {columns},
                 maximum_object_size = 67108864)
) WHERE object IN ('subscription', 'invoice', 'charge', 'refund', 'dispute', 'customer', 'price');
CREATE TEMP TABLE s_obj AS  -- each id's latest state (the event's created, else the object's own instants)
SELECT unnest(arg_max(s, k)) FROM (
  SELECT s, coalesce(ev_at, list_max([created, canceled_at, ended_at, status_transitions.paid_at,
         status_transitions.finalized_at, status_transitions.marked_uncollectible_at, status_transitions.voided_at])) AS k,
         id, object
  FROM s_all s WHERE id IS NOT NULL AND object IS NOT NULL
) GROUP BY object, id;
DROP TABLE s_all;
""")
    add("stripe objects", f"""
CREATE TABLE s_price AS SELECT id, lookup_key FROM s_obj WHERE object = 'price' AND lookup_key IS NOT NULL;
CREATE TABLE s_cust AS SELECT id, nullif(metadata->>{key}, '') AS user_id FROM s_obj WHERE object = 'customer';
CREATE TABLE s_sub AS
SELECT id, livemode IS DISTINCT FROM false AS live, sref(customer) AS customer, nullif(metadata->>{key}, '') AS user_id,
       coalesce(start_date, created) * 1000 AS start_ms, trial_start * 1000 AS trial_start, trial_end * 1000 AS trial_end,
       ended_at * 1000 AS ended,
       sref(coalesce(items.data[1].price, items.data[1].plan)) AS price,
       coalesce(items.data[1].price, items.data[1].plan)->>'lookup_key' AS lookup
FROM s_obj WHERE object = 'subscription';
CREATE TABLE s_inv AS  -- invoices: subscription and payments in either API shape; the line with the latest period end
WITH i AS (
  SELECT *, coalesce(sref(subscription), sref(parent.subscription_details.subscription)) AS sub,
         coalesce(lines.data[list_position(list_transform(lines.data, lambda x: x.period."end"),
                                           list_max(list_transform(lines.data, lambda x: x.period."end")))],
                  lines.data[1]) AS line
  FROM s_obj WHERE object = 'invoice'
)
SELECT i.id, i.livemode IS DISTINCT FROM false AS live, i.sub, sref(i.customer) AS customer,
       i.status = 'paid' AND coalesce(i.amount_paid, 0) > 0 AS paid,
       {minor('i.amount_paid')} AS amount, c.code AS currency,
       CASE WHEN i.tax IS NOT NULL THEN {minor('i.tax')}
            ELSE {minor('list_sum(list_transform(i.total_taxes, lambda x: x.amount))')} END AS tax,
       coalesce(i.status_transitions.paid_at, i.created) * 1000 AS paid_at,
       i.line.period."end" * 1000 AS period_end,
       sref(coalesce(i.line.price, i.line.pricing.price_details.price, i.line.plan)) AS price,
       i.line.price->>'lookup_key' AS lookup,
       i.sub IS NULL AND coalesce(i.line.price->>'type', '') <> 'recurring' AS one_time,
       list_filter([sref(i.charge)] || coalesce(list_transform(i.payments.data, lambda x: sref(x.payment.charge)), []),
                   lambda x: x IS NOT NULL)
         AS charges,
       list_filter([sref(i.payment_intent)]
                   || coalesce(list_transform(i.payments.data, lambda x: sref(x.payment.payment_intent)), []),
                   lambda x: x IS NOT NULL) AS intents
FROM i LEFT JOIN cur c ON c.code = upper(i.currency);
CREATE TABLE s_charge AS
SELECT o.id, o.livemode IS DISTINCT FROM false AS live, {minor('coalesce(o.amount_captured, o.amount)')} AS amount,
       c.code AS currency, o.status = 'succeeded' AND coalesce(o.paid, true) AS succeeded, o.created * 1000 AS at_ms,
       sref(o.payment_intent) AS intent, sref(o.invoice) AS invoice, sref(o.customer) AS customer,
       nullif(o.metadata->>'product_id', '') AS product, nullif(o.metadata->>{key}, '') AS user_id
FROM s_obj o JOIN cur c ON c.code = upper(o.currency) WHERE o.object = 'charge';
CREATE TABLE s_ret AS  -- refunds that went through and disputes lost: money back, keyed by charge, else intent
SELECT coalesce(sref(o.charge), sref(o.payment_intent), o.id) AS pay, o.id, {minor('o.amount')} AS amount,
       c.code AS currency, o.created * 1000 AS at_ms, o.object = 'dispute' AS dispute,
       o.livemode IS DISTINCT FROM false AS live
FROM s_obj o JOIN cur c ON c.code = upper(o.currency)
WHERE (o.object = 'refund' AND o.status = 'succeeded') OR (o.object = 'dispute' AND o.status = 'lost');
DROP TABLE s_obj;
""")
    # A charge belongs to the invoice that names it (before 2025-03-31), the invoice it names (idem), or the
    # invoice that names its payment intent (from 2025-03-31 on).
    add("stripe chains", f"""
CREATE TABLE s_paymap AS
SELECT pay, max(id) AS inv FROM (SELECT id, unnest(charges || intents) AS pay FROM s_inv) GROUP BY pay;
CREATE TABLE s_chinv AS
SELECT ch.id AS charge, coalesce(a.inv, i.id, b.inv) AS inv
FROM s_charge ch LEFT JOIN s_paymap a ON a.pay = ch.id LEFT JOIN s_inv i ON i.id = ch.invoice
LEFT JOIN s_paymap b ON b.pay = ch.intent;
CREATE TABLE s_invpay AS  -- each invoice's payments: its own and its charges' (and their intents)
SELECT i.id AS inv, i.charges || coalesce(l.charges, []) AS charges, i.intents || coalesce(l.intents, []) AS intents
FROM s_inv i LEFT JOIN (
  SELECT m.inv, list(ch.id ORDER BY ch.id) AS charges, list(ch.intent ORDER BY ch.id) FILTER (WHERE ch.intent IS NOT NULL) AS intents
  FROM s_chinv m JOIN s_charge ch ON ch.id = m.charge WHERE m.inv IS NOT NULL GROUP BY m.inv
) l ON l.inv = i.id;
CREATE TABLE s_rec AS  -- purchases: paid invoices, charges without invoice, trials
SELECT coalesce(i.sub, p.intents[1], p.charges[1], i.id) AS chain_key, i.id AS tid,
       CASE WHEN coalesce(i.price, s.price) IS NULL THEN ''
            ELSE coalesce(i.lookup, s.lookup, pr.lookup_key, coalesce(i.price, s.price)) END AS product,
       i.paid_at AS at_ms, i.amount, i.currency, i.tax,
       CASE WHEN NOT i.one_time AND i.period_end IS NOT NULL
            THEN greatest(i.paid_at, least(i.period_end, coalesce(s.ended, {DF}))) END AS expires,
       CASE WHEN i.one_time THEN 'non_consumable' ELSE 'subscription' END AS raw_type, i.live AS prod,
       coalesce(s.user_id, cu.user_id) AS token, list_distinct(p.charges || p.intents) AS pays
FROM s_inv i JOIN s_invpay p ON p.inv = i.id LEFT JOIN s_sub s ON s.id = i.sub
LEFT JOIN s_price pr ON pr.id = coalesce(i.price, s.price)
LEFT JOIN s_cust cu ON cu.id = coalesce(i.customer, s.customer)
WHERE i.paid AND i.amount IS NOT NULL
UNION ALL
SELECT coalesce(ch.intent, ch.id), ch.id, coalesce(ch.product, ''), ch.at_ms, ch.amount, ch.currency, NULL, NULL,
       'non_consumable', ch.live, coalesce(ch.user_id, cu.user_id), list_filter([ch.id, ch.intent], lambda x: x IS NOT NULL)
FROM s_charge ch JOIN s_chinv m ON m.charge = ch.id LEFT JOIN s_cust cu ON cu.id = ch.customer
WHERE m.inv IS NULL AND ch.succeeded AND ch.amount > 0
UNION ALL
SELECT s.id, s.id || ':trial', coalesce(s.lookup, pr.lookup_key, s.price, ''), s.trial_start, 0, NULL, NULL,
       CASE WHEN s.ended IS NOT NULL THEN greatest(s.trial_start, least(s.trial_end, s.ended)) ELSE s.trial_end END,
       'subscription', s.live, coalesce(s.user_id, cu.user_id), []
FROM s_sub s LEFT JOIN s_price pr ON pr.id = s.price LEFT JOIN s_cust cu ON cu.id = s.customer
WHERE s.trial_start IS NOT NULL AND s.trial_end > s.trial_start;
CREATE TABLE s_back AS  -- per purchase: the money back on its payments in its currency, once per refund or dispute
SELECT r.tid, sum(b.amount) AS total, bool_or(b.dispute) AS lost, max(b.at_ms) AS last_at
FROM (SELECT DISTINCT tid, currency, unnest(pays) AS pay FROM s_rec) r
JOIN (SELECT DISTINCT pay, id, amount, currency, at_ms, dispute FROM s_ret) b ON b.pay = r.pay AND b.currency = r.currency
GROUP BY r.tid;
CREATE TABLE sp AS  -- Stripe purchases as of T (an App Store-like ledger: money back revokes on the whole amount)
SELECT r.chain_key, r.tid, r.product, r.at_ms, r.amount, r.currency, r.tax, r.prod, r.token,
       {product_type('k', 'r.raw_type')} AS ptype,
       CASE WHEN {product_type('k', 'r.raw_type')} = 'nonconsumable' THEN {DF}
            WHEN r.expires IS NOT NULL THEN r.expires ELSE {advance('k', 'r.at_ms')} END AS pend,
       coalesce((b.lost OR b.total >= r.amount) AND b.last_at <= {T}, false) AS revoked,
       b.last_at AS back_at, least(b.total, r.amount) AS back_amount
FROM s_rec r LEFT JOIN s_back b ON b.tid = r.tid
LEFT JOIN cat k1 ON k1.name = 'stripe:' || r.product LEFT JOIN cat k2 ON k2.name = r.product
WHERE r.at_ms <= {T};
CREATE TABLE schains AS
SELECT 'stripe' AS store, chain_key, bool_or(prod) AS production,
       coalesce(arg_max(product, (at_ms, tid)) FILTER (WHERE ptype <> 'consumable'), arg_max(product, (at_ms, tid)))
         AS current_product,
       max(pend) FILTER (WHERE ptype <> 'consumable' AND NOT revoked) AS paid_through,
       coalesce(arg_max(revoked, (at_ms, tid)) FILTER (WHERE ptype <> 'consumable'), false) AS revoked,
       arg_max({{'currency': currency, 'amount': amount, 'product': product}}, (at_ms, tid))
         FILTER (WHERE amount > 0 AND prod AND NOT revoked) AS lpc,
       arg_max({{'currency': currency, 'amount': amount}}, (at_ms, tid)) FILTER (WHERE amount > 0) AS lpos,
       sum(amount) FILTER (WHERE amount > 0 AND prod AND NOT revoked) AS paid_sum,
       min(currency) FILTER (WHERE amount > 0 AND prod AND NOT revoked)
         <> max(currency) FILTER (WHERE amount > 0 AND prod AND NOT revoked) AS multi_currency,
       arg_min(token, (at_ms, tid)) FILTER (WHERE token IS NOT NULL) AS first_token
FROM sp GROUP BY chain_key;
CREATE TABLE s_alias AS  -- the other ids that name a chain: an invoice's id, payment intents and charges
SELECT DISTINCT alias, chain_key FROM (
  SELECT coalesce(i.sub, p.intents[1], p.charges[1], i.id) AS chain_key, unnest([i.id] || p.intents || p.charges) AS alias
  FROM s_inv i JOIN s_invpay p ON p.inv = i.id
  UNION ALL
  SELECT ch.intent, ch.id FROM s_charge ch JOIN s_chinv m ON m.charge = ch.id WHERE m.inv IS NULL AND ch.intent IS NOT NULL
) WHERE alias <> chain_key;
""")
    add("stripe feed", f"""
CREATE TABLE s_feed AS  -- the charges and refunds of paid invoices and one-time charges (docs/tieout.md)
WITH inv_ch AS (
  SELECT r.tid, r.product, ch.id, ch.amount, ch.currency, ch.at_ms, ch.live, ch.intent
  FROM s_rec r JOIN s_chinv m ON m.inv = r.tid JOIN s_charge ch ON ch.id = m.charge
  WHERE ch.succeeded AND ch.amount > 0
), charged AS (
  SELECT * FROM inv_ch
  UNION ALL
  SELECT r.tid, r.product, ch.id, ch.amount, ch.currency, ch.at_ms, ch.live, ch.intent
  FROM s_rec r JOIN s_charge ch ON ch.id = r.tid
)
SELECT 'charge' AS kind, id, id AS charge_id, amount, currency, at_ms, product, live FROM charged
UNION ALL
SELECT 'charge', r.tid, '', r.amount, r.currency, r.at_ms, r.product, r.prod
FROM s_rec r JOIN s_inv i ON i.id = r.tid ANTI JOIN inv_ch c ON c.tid = r.tid
UNION ALL
SELECT DISTINCT 'refund', f.id, c.id, -f.amount, f.currency, f.at_ms, c.product, f.live
FROM charged c JOIN s_ret f ON (f.pay = c.id OR f.pay = c.intent) AND NOT f.dispute;
""")
    if cfg.stripe_reports:
        bal_cols = ["balance_transaction_id", "created_utc", "created", "currency", "gross", "fee", "net",
                    "reporting_category", "source_id", "charge_id", "invoice_id", "automatic_payout_id"]
        # The report's versions differ in their columns. `union_by_name` would sniff every file (7.8 s of
        # CPU for 71,000 rows in 54 files at 50,000 users); instead the files are grouped by their header
        # line and each group is read with its columns named, the ones used picked by name (NULL where a
        # version lacks one): 0.3 s.
        groups = {}
        for path in sorted({f for pattern in cfg.stripe_reports for f in glob.glob(pattern)}):
            with open(path, newline="", encoding="utf-8-sig") as f:
                header = tuple(next(csv.reader([f.readline()]), []))
            groups.setdefault(header, []).append(path)
        if not groups:
            raise SystemExit(f"duckdb_reconcile: no file matches stripe.reports {cfg.stripe_reports}")
        reads = []
        for header, paths in groups.items():
            named = "{" + ", ".join(f"{sql_str(n)}: 'VARCHAR'" for n in header) + "}"
            picked = ", ".join(f'"{n}"' if n in header else f'CAST(NULL AS VARCHAR) AS "{n}"' for n in bal_cols)
            reads.append(f"SELECT {picked} FROM read_csv({sql_list(paths)}, header = true, columns = {named}, "
                         f"auto_detect = false, delim = ',', quote = '\"', escape = '\"')")
        balance_rows = "\nUNION ALL\n".join(reads)
        add("read stripe.reports", f"""
CREATE TABLE s_bal AS  -- the balance report's rows (columns by header name, amounts in major units → minor)
SELECT b.balance_transaction_id AS id,
       epoch_ms(strptime(regexp_replace(replace(coalesce(b.created_utc, b.created), 'T', ' '), '(Z|\\+00:00)$', ''),
                         '%Y-%m-%d %H:%M:%S')) AS at_ms,
       c.code AS currency,
       CAST(CAST(b.gross AS DECIMAL(38, 6)) * 1000000 AS BIGINT) // c.mdiv AS gross,
       CAST(CAST(b.fee AS DECIMAL(38, 6)) * 1000000 AS BIGINT) // c.mdiv AS fee,
       lower(b.reporting_category) AS cat, coalesce(b.source_id, '') AS source_id, coalesce(b.charge_id, '') AS charge_id,
       coalesce(b.invoice_id, '') AS invoice_id
FROM ({balance_rows}) b
JOIN cur c ON c.code = upper(b.currency)
WHERE b.balance_transaction_id IS NOT NULL AND coalesce(b.created_utc, b.created) IS NOT NULL
  AND CAST(CAST(b.gross AS DECIMAL(38, 6)) * 1000000 AS BIGINT) % c.mdiv = 0
  AND CAST(CAST(b.fee AS DECIMAL(38, 6)) * 1000000 AS BIGINT) % c.mdiv = 0
QUALIFY row_number() OVER (PARTITION BY b.balance_transaction_id) = 1
""")
        bp = cfg.stripe_bp
        add("stripe tie-out", f"""
CREATE TABLE s_tied AS  -- the report's charge and refund rows as of T, each with the feed line it ties to
WITH span AS (SELECT min(at_ms) AS lo, max(at_ms) AS hi FROM s_bal WHERE at_ms <= {T}),
feed AS (SELECT f.* FROM s_feed f CROSS JOIN span WHERE f.live AND f.at_ms BETWEEN span.lo AND span.hi)
SELECT r.*, coalesce(fc.id, fi.id, fr.id) AS line
FROM s_bal r
LEFT JOIN feed fc ON r.cat = 'charge' AND r.charge_id <> '' AND fc.kind = 'charge' AND fc.charge_id <> ''
  AND fc.id = r.charge_id
LEFT JOIN feed fi ON r.cat = 'charge' AND r.invoice_id <> '' AND fi.kind = 'charge' AND fi.charge_id = ''
  AND fi.id = r.invoice_id
LEFT JOIN feed fr ON r.cat = 'refund' AND r.source_id <> '' AND fr.kind = 'refund' AND fr.id = r.source_id
WHERE r.at_ms <= {T} AND r.cat IN ('charge', 'refund');
CREATE TABLE s_tie AS
WITH span AS (SELECT min(at_ms) AS lo, max(at_ms) AS hi FROM s_bal WHERE at_ms <= {T}),
per_line AS (
  SELECT line, sum(gross) AS gross, sum(fee) AS fee, min(currency) AS lo_cur, max(currency) AS hi_cur
  FROM s_tied WHERE line IS NOT NULL GROUP BY line
), judged AS (
  SELECT f.id AS order_id, f.at_ms, f.product AS product_id, f.currency, f.amount AS sales_item_minor,
         p.gross AS earnings_charge_minor,
         CASE WHEN f.kind = 'charge' THEN
           (f.amount * {bp}) // 10000 + CASE
             WHEN 2 * ((f.amount * {bp}) % 10000) > 10000 THEN 1
             WHEN 2 * ((f.amount * {bp}) % 10000) < 10000 THEN 0
             ELSE ((f.amount * {bp}) // 10000) % 2 END
         ELSE 0 END AS estimated_fee_minor,
         p.fee AS actual_fee_minor,
         p.line IS NULL AS missing, p.lo_cur <> f.currency OR p.hi_cur <> f.currency AS other_currency
  FROM s_feed f CROSS JOIN span LEFT JOIN per_line p ON p.line = f.id
  WHERE f.live AND f.at_ms BETWEEN span.lo AND span.hi
)
SELECT 'stripe' AS store, order_id, strftime(epoch_ms(at_ms), '%Y-%m') AS month, product_id, currency,
       sales_item_minor, CASE WHEN NOT missing THEN earnings_charge_minor END AS earnings_charge_minor,
       estimated_fee_minor, actual_fee_minor,
       CASE WHEN missing THEN 'missing_in_report'
            WHEN other_currency OR earnings_charge_minor <> sales_item_minor THEN 'amount_differs'
            WHEN abs(actual_fee_minor - estimated_fee_minor) > 1 THEN 'fee_differs'
            ELSE 'match' END AS status
FROM judged
UNION ALL
SELECT 'stripe', CASE WHEN cat = 'charge' THEN coalesce(nullif(charge_id, ''), id) ELSE coalesce(nullif(source_id, ''), id) END,
       strftime(epoch_ms(at_ms), '%Y-%m'), '', currency, NULL, gross, NULL, fee, 'missing_in_feed'
FROM s_tied WHERE line IS NULL;
""")
        add("stripe disputes", f"""
CREATE TABLE s_disp AS  -- the report's dispute rows as of T under their live charge's product (docs/tieout.md)
SELECT r.at_ms, f.product, f.currency, -r.gross AS disputed, r.fee
FROM s_bal r
JOIN (SELECT charge_id, any_value(product) AS product, any_value(currency) AS currency FROM s_feed
      WHERE kind = 'charge' AND charge_id <> '' AND live GROUP BY charge_id) f
  ON f.charge_id = coalesce(nullif(r.charge_id, ''),
                            CASE WHEN starts_with(r.source_id, 'ch_') OR starts_with(r.source_id, 'py_')
                                 THEN r.source_id END)
WHERE r.at_ms <= {T} AND r.cat IN ('dispute', 'dispute_reversal') AND r.currency = f.currency;
""")
    else:
        add("no stripe reports", "CREATE TABLE s_tie(store VARCHAR, order_id VARCHAR, month VARCHAR, product_id VARCHAR, "
            "currency VARCHAR, sales_item_minor BIGINT, earnings_charge_minor BIGINT, estimated_fee_minor BIGINT, "
            "actual_fee_minor BIGINT, status VARCHAR);"
            "CREATE TABLE s_disp(at_ms BIGINT, product VARCHAR, currency VARCHAR, disputed BIGINT, fee BIGINT)")


def build_sql(cfg):
    """The reconciliation as a list of (label, SQL) steps."""
    T = cfg.t
    DF = DISTANT_FUTURE
    DP = DISTANT_PAST
    TOL = cfg.tolerance_ms
    def grace(store):
        return (f"(CASE {store} WHEN 'app_store' THEN {cfg.grace_ms.get('app_store', 0)} "
                f"WHEN 'play' THEN {cfg.grace_ms.get('play', 0)} ELSE {cfg.grace_ms.get('stripe', 0)} END)")
    if cfg.time_zone in ("UTC", "Etc/UTC"):
        def day(ms):
            return f"CAST(epoch_ms({ms}) AS DATE)"
    else:
        def day(ms):
            return f"CAST(timezone({sql_str(cfg.time_zone)}, make_timestamptz({ms} * 1000)) AS DATE)"

    currency_rows = []
    for digits, codes in CURRENCY_DIGITS.items():
        for code in codes.split():
            adiv = 10 ** (3 - digits) if digits <= 3 else 1
            amul = 10 ** (digits - 3) if digits > 3 else 1
            sexp = 0 if code in STRIPE_ZERO_DECIMAL else (2 if code in STRIPE_TWO_DECIMAL else digits)
            currency_rows.append(f"('{code}', {digits}, {adiv}, {amul}, {10 ** (6 - digits)}, {10 ** (9 - digits)}, "
                                 f"{10 ** max(digits - sexp, 0)}, {10 ** max(sexp - digits, 0)})")
    catalog_rows = [
        f"({sql_str(name)}, {sql_str(kind) if kind else 'NULL'}, {months if months is not None else 'NULL'}, "
        f"{days if days is not None else 'NULL'}, {units if units is not None else 'NULL'}, "
        f"{sql_str(tier) if tier is not None else 'NULL'})"
        for name, kind, months, days, units, tier in cfg.catalog
    ] or ["('', NULL, NULL, NULL, NULL, NULL)"]

    apple_json_columns = "{" + ", ".join(f"{name}: '{kind}'" for name, kind in APPLE_FIELDS) + "}"
    apple_struct = sql_str(json.dumps({name: kind for name, kind in APPLE_FIELDS}, separators=(",", ":")))
    apple_names = ", ".join(name for name, _ in APPLE_FIELDS)
    payload = "split_part(line, '.', 2)"
    # base64url → base64 with two replace() calls: DuckDB's translate() is several times slower on
    # these 1-2 KB payloads (measured on the realistic world: it was most of the JWS step).
    b64 = (f"from_base64(replace(replace({payload}, '-', '+'), '_', '/') "
           f"|| repeat('=', (4 - length({payload}) % 4) % 4))")
    sub_cols = "{" + ", ".join(f"{name}: {sql_str(kind)}" for name, kind in SUBSCRIPTION_COLUMNS.items()) + "}"
    void_cols = "{" + ", ".join(f"{name}: {sql_str(kind)}" for name, kind in VOIDED_COLUMNS.items()) + "}"

    # Product type: the catalog's (store-prefixed entry first), else the export's raw type.
    def product_type(alias, raw):
        return (f"coalesce(CASE WHEN {alias}1.name IS NOT NULL THEN {alias}1.kind ELSE {alias}2.kind END, "
                f"CASE lower({raw}) WHEN 'auto-renewable subscription' THEN 'auto' WHEN 'subscription' THEN 'auto' "
                f"WHEN 'auto_renewable' THEN 'auto' WHEN 'non-renewing subscription' THEN 'nonrenewing' "
                f"WHEN 'non_renewable' THEN 'nonrenewing' WHEN 'non-consumable' THEN 'nonconsumable' "
                f"WHEN 'non_consumable' THEN 'nonconsumable' WHEN 'inapp' THEN 'nonconsumable' "
                f"WHEN 'paidapp' THEN 'nonconsumable' WHEN 'consumable' THEN 'consumable' ELSE 'unknown' END)")

    def advance(alias, at_ms):
        # The catalog's billing period (both parts set together, or neither: one month), on the UTC calendar.
        months = f"coalesce(CASE WHEN {alias}1.name IS NOT NULL THEN {alias}1.months ELSE {alias}2.months END, 1)"
        days = f"coalesce(CASE WHEN {alias}1.name IS NOT NULL THEN {alias}1.days ELSE {alias}2.days END, 0)"
        return f"epoch_ms(epoch_ms({at_ms}) + to_months({months}) + to_days({days}))"

    def ts_ok(col):
        # ISO 8601 with an explicit offset; storerecon rejects a timestamp without one.
        return (f"({col} IS NULL OR ((suffix({col}, 'Z') OR suffix({col}, 'z') OR "
                f"regexp_matches({col}, '[+-][0-9][0-9](:?[0-9][0-9])?$')) AND TRY_CAST({col} AS TIMESTAMPTZ) IS NOT NULL))")

    def ts(col):
        return f"epoch_ms(CAST({col} AS TIMESTAMPTZ))"

    def csv(path, names):
        cols = ", ".join(f"{sql_str(n)}: 'VARCHAR'" for n in names)
        return f"read_csv({sql_str(path)}, header = true, columns = {{{cols}}}, ignore_errors = true, auto_detect = false)"

    steps = []
    add = lambda label, sql: steps.append((label, sql))

    add("setup", f"""
CREATE MACRO obase(x) AS regexp_replace(x, '\\.\\.[0-9]*$', '');  -- a Play order id without its ..N
CREATE TABLE cur(code VARCHAR, digits INTEGER, adiv BIGINT, amul BIGINT, mdiv BIGINT, ndiv BIGINT,
                 smul BIGINT, sdiv BIGINT);  -- smul/sdiv: Stripe's smallest unit → ISO minor units
INSERT INTO cur VALUES {', '.join(currency_rows)};
CREATE TABLE cat(name VARCHAR, kind VARCHAR, months INTEGER, days INTEGER, units BIGINT, tier VARCHAR);
INSERT INTO cat VALUES {', '.join(catalog_rows)};
""")

    # ---------------------------------------------------------------- App Store
    def apple_rows(source):
        # Accepted App Store transactions: the fields storerecon requires, a known currency, an exact price.
        return f"""
SELECT originalTransactionId AS chain_key, transactionId AS tid, productId AS product, purchaseDate AS at_ms,
       expiresDate AS expires, type AS raw_type,
       environment IS NULL OR environment IN ('', 'Production') AS prod,
       coalesce(inAppOwnershipType = 'FAMILY_SHARED', false) AS family,
       price // c.adiv * c.amul AS amount, c.code AS currency,
       revocationDate AS revoked_at, upper(nullif(revocationType, '')) AS rev_type,
       revocationReason AS rev_reason, revocationPercentage AS rev_pct, coalesce(isUpgraded, false) AS upgraded,
       coalesce(quantity, 1) AS quantity, nullif(appAccountToken, '') AS token,
       upper(billingPlanType) IS NOT DISTINCT FROM 'MONTHLY' OR commitmentInfo IS NOT NULL AS commit
FROM ({source}) raw JOIN cur c ON c.code = upper(raw.currency)
WHERE originalTransactionId <> '' AND transactionId <> '' AND productId <> ''
  AND purchaseDate IS NOT NULL AND price IS NOT NULL AND price % c.adiv = 0
  AND (quantity IS NULL OR quantity BETWEEN 1 AND 65535)
  AND coalesce(commitmentInfo.billingPeriodNumber BETWEEN 0 AND 4095, true)
  AND coalesce(commitmentInfo.totalBillingPeriods BETWEEN 0 AND 4095, true)
  AND coalesce(commitmentInfo.billingPeriodNumber <= commitmentInfo.totalBillingPeriods, true)"""

    # A transaction read in an earlier state and again revoked (fetch's journal: a refund of an old purchase
    # arrives in a later file) counts once, in its revoked state, as storerecon's records-read-twice rule
    # keeps it (docs/inputs.md); any other pair is left as read.
    APPLE_LATEST_STATE = """SELECT * FROM apple_raw WHERE originalTransactionId IS NOT NULL
QUALIFY revocationDate IS NOT NULL
     OR count(revocationDate) OVER (PARTITION BY originalTransactionId, transactionId) = 0"""

    # The App Store files are read once, as lines: a decoded payload line is typed with json_transform, a
    # compact-JWS line's base64url payload is decoded and typed the same way (nothing is verified). Typed
    # into a table of their own first: inside one query with the filters and the join, DuckDB evaluates
    # the decoding far more slowly.
    add("read app_store", f"""
CREATE TEMP TABLE apple_raw AS
SELECT unnest(TRY(json_transform(CASE WHEN line[1] = '{{' THEN line ELSE decode({b64}) END, {apple_struct})))
FROM read_csv({sql_list(cfg.apple)}, columns = {{'line': 'VARCHAR'}}, header = false, delim = '\\x01',
              quote = '', escape = '', auto_detect = false, max_line_size = 67108864);
CREATE TABLE apple AS {apple_rows(APPLE_LATEST_STATE)};
DROP TABLE apple_raw;
""")

    # ---------------------------------------------------------------- Play
    sales_cols = "{" + ", ".join(f"{sql_str(n)}: {sql_str(k)}" for n, k in SALES_COLUMNS) + "}"
    add("read play.sales", f"""
CREATE TABLE sales AS
SELECT s."Order Number" AS tid, obase(s."Order Number") AS base,
       lower(s."Financial Status") = 'refund' AS is_refund,
       coalesce(s."Order Charged Timestamp" * 1000, epoch_ms(CAST(s."Order Charged Date" AS TIMESTAMP))) AS at_ms,
       s."SKU ID" || coalesce(':' || s."Base Plan ID", '') AS product, coalesce(s."Product Type", '') AS raw_type,
       CAST(abs(s."Charged Amount") * 1000000 AS BIGINT) // c.mdiv AS amount,
       coalesce(CAST(abs(s."Taxes Collected") * 1000000 AS BIGINT) // c.mdiv, 0) AS tax,
       c.code AS currency
FROM read_csv({sql_list(cfg.sales)}, header = true, columns = {sales_cols}, ignore_errors = true,
              auto_detect = false) s
JOIN cur c ON c.code = upper(s."Currency of Sale")
WHERE lower(s."Financial Status") IN ('charged', 'refund') AND s."Order Number" IS NOT NULL
  AND s."SKU ID" IS NOT NULL AND s."Charged Amount" IS NOT NULL
  AND CAST(s."Charged Amount" * 1000000 AS BIGINT) % c.mdiv = 0
  AND (s."Taxes Collected" IS NULL OR CAST(s."Taxes Collected" * 1000000 AS BIGINT) % c.mdiv = 0)
  AND (s."Order Charged Timestamp" IS NOT NULL OR s."Order Charged Date" IS NOT NULL)
""")

    add("read play.subscriptions", f"""
CREATE TABLE subs AS
WITH raw AS (
  SELECT purchaseToken AS token, subscriptionState AS state,
         coalesce(subscriptionState IN ('SUBSCRIPTION_STATE_PENDING',
                                        'SUBSCRIPTION_STATE_PENDING_PURCHASE_CANCELED'), false) AS pending,
         epoch_ms(startTime) AS start_ms, coalesce(lineItems, []) AS items, nullif(latestOrderId, '') AS legacy,
         nullif(linkedPurchaseToken, '') AS linked, testPurchase IS NOT NULL AS test,
         nullif(externalAccountIdentifiers.obfuscatedExternalAccountId, '') AS account
  FROM read_json({sql_list(cfg.subscriptions)}, format = 'newline_delimited', columns = {sub_cols},
                 ignore_errors = true)
  WHERE purchaseToken IS NOT NULL AND purchaseToken <> ''
), shaped AS (
  SELECT *, list_max(list_transform(items, lambda x: epoch_ms(x.expiryTime))) AS expires FROM raw
), current AS (
  SELECT *, coalesce(list_filter(items, lambda x: epoch_ms(x.expiryTime) = expires)[1], items[1]) AS cur FROM shaped
)
SELECT token, pending, coalesce(start_ms, CASE WHEN pending THEN {DP} END) AS at_ms, expires,
       coalesce(nullif(cur.productId, ''), '') || coalesce(':' || nullif(cur.offerDetails.basePlanId, ''), '') AS product,
       coalesce(nullif(cur.latestSuccessfulOrderId, ''), legacy) AS latest_order,
       list_distinct(list_filter(list_transform(items, lambda x: obase(nullif(x.latestSuccessfulOrderId, '')))
                                 || [obase(legacy)], lambda b: b IS NOT NULL)) AS bases,
       linked, test, account
FROM current
WHERE (start_ms IS NOT NULL OR pending)
  AND (cur.autoRenewingPlan.recurringPrice IS NULL OR EXISTS (
        SELECT 1 FROM cur c WHERE c.code = upper(cur.autoRenewingPlan.recurringPrice.currencyCode)
          AND coalesce(cur.autoRenewingPlan.recurringPrice.nanos, 0) % c.ndiv = 0))
""")

    add("read play.voided", f"""
CREATE TABLE voids AS
SELECT nullif(purchaseToken, '') AS token, nullif(orderId, '') AS order_id,
       coalesce(nullif(orderId, ''), nullif(purchaseToken, '')) AS tid, voidedTimeMillis AS at_ms
FROM read_json({sql_list(cfg.voided)}, format = 'newline_delimited', columns = {void_cols}, ignore_errors = true)
WHERE voidedTimeMillis IS NOT NULL AND (nullif(purchaseToken, '') IS NOT NULL OR nullif(orderId, '') IS NOT NULL)
""")

    # ---------------------------------------------------------------- the app's rows
    ent_names = ["entitlement_id", "user_id", "product_id", "source", "store_key", "status", "starts_at",
                 "expires_at", "updated_at"]
    add("read app.entitlements", f"""
CREATE TABLE ents AS
SELECT entitlement_id, user_id, product_id,
       CASE src WHEN 'app_store' THEN 'app_store' WHEN 'play' THEN 'play' WHEN 'stripe' THEN 'stripe' END AS store,
       coalesce(store_key, '') AS key, st IN ('active', 'grace') AS live,
       {ts('starts_at')} AS starts, {ts('expires_at')} AS expires
FROM (SELECT *, lower(trim(source)) AS src, lower(trim(status)) AS st FROM {csv(cfg.entitlements, ent_names)})
WHERE entitlement_id IS NOT NULL AND user_id IS NOT NULL AND product_id IS NOT NULL
  AND src IN ('app_store', 'play', 'stripe', 'goodwill', 'promo', 'manual')
  AND st IN ('active', 'grace', 'billing_retry', 'on_hold', 'paused', 'expired', 'revoked')
  AND {ts_ok('starts_at')} AND {ts_ok('expires_at')} AND {ts_ok('updated_at')}
""")
    if cfg.credentials:
        cred_names = ["store", "store_key", "user_id", "linked_store_key", "order_id", "claimed_at"]
        add("read app.credentials", f"""
CREATE TABLE creds AS
SELECT st AS store, store_key AS key, user_id, order_id, {ts('claimed_at')} AS at_ms
FROM (SELECT *, lower(trim(store)) AS st FROM {csv(cfg.credentials, cred_names)})
WHERE st IN ('app_store', 'play', 'stripe') AND store_key IS NOT NULL AND user_id IS NOT NULL
  AND {ts_ok('claimed_at')}
""")
    else:
        add("no credentials", "CREATE TABLE creds(store VARCHAR, key VARCHAR, user_id VARCHAR, order_id VARCHAR, at_ms BIGINT)")
    if cfg.goodwill:
        gw_names = ["grant_id", "user_id", "product_id", "starts_at", "ends_at", "reason"]
        add("read app.goodwill", f"""
CREATE TABLE goodwill_now AS
SELECT DISTINCT user_id, product_id FROM {csv(cfg.goodwill, gw_names)}
WHERE grant_id IS NOT NULL AND user_id IS NOT NULL AND product_id IS NOT NULL
  AND {ts_ok('starts_at')} AND {ts_ok('ends_at')}
  AND coalesce({ts('starts_at')}, {DP}) <= {T} AND coalesce({ts('ends_at')}, {DF}) > {T}
""")
    else:
        add("no goodwill", "CREATE TABLE goodwill_now(user_id VARCHAR, product_id VARCHAR)")

    # ---------------------------------------------------------------- App Store chains as of T
    add("app_store purchases", f"""
CREATE TABLE ap AS
SELECT a.*, {product_type('c', 'a.raw_type')} AS ptype,
       coalesce(a.revoked_at <= {T}, false) AS revoked,
       CASE WHEN {product_type('c', 'a.raw_type')} = 'nonconsumable' THEN {DF}
            WHEN a.expires IS NOT NULL THEN a.expires
            WHEN a.commit THEN epoch_ms(epoch_ms(a.at_ms) + INTERVAL 1 MONTH) ELSE {advance('c', 'a.at_ms')} END AS pend
FROM apple a LEFT JOIN cat c1 ON c1.name = 'app_store:' || a.product LEFT JOIN cat c2 ON c2.name = a.product
WHERE a.at_ms <= {T}
""")
    add("app_store chains", f"""
CREATE TABLE achains AS
WITH nc AS (  -- the chains with an upgrade: their distinct non-consumable transactions, in order
  SELECT chain_key, tid, at_ms, bool_or(upgraded AND NOT revoked) AS upgraded
  FROM ap SEMI JOIN (SELECT DISTINCT chain_key FROM ap WHERE upgraded) u USING (chain_key)
  WHERE ptype <> 'consumable' GROUP BY chain_key, tid, at_ms
), upg AS (  -- an upgraded transaction ends when the next one of its chain starts (a window, no self-join)
  SELECT chain_key, tid, at_ms, next_at FROM (
    SELECT *, lead(at_ms) OVER (PARTITION BY chain_key ORDER BY at_ms, tid) AS next_at FROM nc
  ) WHERE upgraded AND next_at IS NOT NULL
), agg AS (
  SELECT p.chain_key,
         bool_or(p.prod) AS production,
         bool_and(p.family) AS family,
         coalesce(arg_max(p.product, (p.at_ms, p.tid)) FILTER (WHERE p.ptype <> 'consumable'),
                  arg_max(p.product, (p.at_ms, p.tid))) AS current_product,
         max(CASE WHEN upg.next_at IS NOT NULL THEN least(p.pend, upg.next_at) ELSE p.pend END)
           FILTER (WHERE p.ptype <> 'consumable' AND NOT p.revoked) AS paid_through,
         arg_max({{'revoked': p.revoked, 'rev_type': p.rev_type, 'rev_reason': p.rev_reason,
                  'upgraded': p.upgraded, 'family': p.family, 'commit': p.commit}}, (p.at_ms, p.tid))
           FILTER (WHERE p.ptype <> 'consumable') AS lb,
         arg_max({{'currency': p.currency, 'amount': p.amount, 'product': p.product}}, (p.at_ms, p.tid))
           FILTER (WHERE p.amount > 0 AND p.prod AND NOT p.family AND NOT p.revoked) AS lpc,
         arg_max({{'currency': p.currency, 'amount': p.amount}}, (p.at_ms, p.tid)) FILTER (WHERE p.amount > 0) AS lpos,
         sum(p.amount) FILTER (WHERE p.amount > 0 AND p.prod AND NOT p.family AND NOT p.revoked) AS paid_sum,
         min(p.currency) FILTER (WHERE p.amount > 0 AND p.prod AND NOT p.family AND NOT p.revoked)
           <> max(p.currency) FILTER (WHERE p.amount > 0 AND p.prod AND NOT p.family AND NOT p.revoked) AS multi_currency,
         arg_min(p.token, (p.at_ms, p.tid)) FILTER (WHERE p.token IS NOT NULL) AS first_token
  FROM ap p LEFT JOIN upg ON upg.chain_key = p.chain_key AND upg.tid = p.tid AND upg.at_ms = p.at_ms
    AND p.ptype <> 'consumable' AND NOT p.revoked
  GROUP BY p.chain_key
)
SELECT 'app_store' AS store, chain_key, production, false AS pending, family, current_product, paid_through,
       coalesce(lb.revoked AND (lb.rev_type = 'FAMILY_REVOKE' OR lb.family
                OR NOT (lb.upgraded AND lb.rev_type IS NULL AND lb.rev_reason IS NULL)), false) AS revoked,
       false AS superseded, lpc, lpos, paid_sum, multi_currency, first_token,
       coalesce(lb.commit, false) AS commitment  -- the payment backing access is one of a commitment plan
FROM agg
""")

    # ---------------------------------------------------------------- Play chains as of T
    add("play chain keys", f"""
CREATE TABLE tok_bases AS
SELECT DISTINCT token, base FROM (
  SELECT token, unnest(bases) AS base FROM subs
  UNION ALL
  SELECT token, obase(order_id) FROM voids WHERE token IS NOT NULL AND order_id IS NOT NULL);
CREATE TABLE tokens AS SELECT token FROM subs UNION SELECT token FROM voids WHERE token IS NOT NULL;
CREATE TABLE token_of_order AS SELECT base, min(token) AS token FROM tok_bases GROUP BY base;
CREATE TABLE status AS  -- one resource per token (the one with the latest expiry), if it is known as of T
SELECT * FROM (SELECT token, arg_max(s, coalesce(s.expires, {DP})) AS s FROM subs s GROUP BY token)
WHERE s.at_ms = {DP} OR s.at_ms <= {T};
CREATE TABLE pp AS  -- Play charges and refunds as of T, keyed by chain
SELECT coalesce(o.token, s.base) AS chain_key, s.*,
       coalesce(TRY_CAST(CASE WHEN s.base <> s.tid THEN substr(s.tid, length(s.base) + 3) END AS INTEGER), -1) AS renewal
FROM sales s LEFT JOIN token_of_order o ON o.base = s.base
WHERE s.at_ms <= {T};
CREATE TABLE pvoids AS
SELECT coalesce(v.token, o.token, obase(v.order_id)) AS chain_key, v.tid, v.at_ms
FROM voids v LEFT JOIN token_of_order o ON v.token IS NULL AND o.base = obase(v.order_id)
WHERE v.at_ms <= {T};
CREATE TABLE returned AS  -- orders refunded or voided as of T
SELECT chain_key, tid, min(at_ms) AS at_ms FROM (
  SELECT chain_key, tid, at_ms FROM pp WHERE is_refund UNION ALL SELECT chain_key, tid, at_ms FROM pvoids)
GROUP BY chain_key, tid;
""")
    add("play chains", f"""
CREATE TABLE pchains AS
WITH purchases AS (
  SELECT p.*, r.tid IS NOT NULL AS returned, {product_type('c', 'p.raw_type')} AS ptype,
         CASE WHEN {product_type('c', 'p.raw_type')} = 'nonconsumable' THEN {DF}
              WHEN {product_type('c', 'p.raw_type')} = 'consumable' THEN NULL ELSE {advance('c', 'p.at_ms')} END AS pend
  FROM pp p LEFT JOIN returned r ON r.chain_key = p.chain_key AND r.tid = p.tid
  LEFT JOIN cat c1 ON c1.name = 'play:' || p.product LEFT JOIN cat c2 ON c2.name = p.product
  WHERE NOT p.is_refund
), agg AS (
  SELECT chain_key,
         arg_max({{'tid': tid, 'product': product}}, (at_ms, renewal, tid)) AS last,
         max(pend) FILTER (WHERE NOT returned) AS sales_paid_through,
         arg_max({{'currency': currency, 'amount': amount, 'product': product}}, (at_ms, renewal, tid))
           FILTER (WHERE amount > 0 AND NOT returned) AS lpc,
         arg_max({{'currency': currency, 'amount': amount}}, (at_ms, renewal, tid)) FILTER (WHERE amount > 0) AS lpos,
         sum(amount) FILTER (WHERE amount > 0 AND NOT returned) AS paid_sum,
         min(currency) FILTER (WHERE amount > 0 AND NOT returned)
           <> max(currency) FILTER (WHERE amount > 0 AND NOT returned) AS multi_currency
  FROM purchases GROUP BY chain_key
), matched AS (  -- the purchase the resource's latestSuccessfulOrderId names
  SELECT p.chain_key, arg_max(p.product, (p.at_ms, p.renewal, p.tid)) AS product
  FROM pp p JOIN status s ON s.token = p.chain_key AND s.s.latest_order = p.tid
  WHERE NOT p.is_refund GROUP BY p.chain_key
), keys AS (
  SELECT token AS chain_key FROM status
  UNION SELECT chain_key FROM pp UNION SELECT chain_key FROM pvoids
), joined AS (
  SELECT k.chain_key, s.s AS st, a.*, m.product AS matched_product,
         CASE WHEN m.chain_key IS NOT NULL THEN s.s.latest_order ELSE coalesce(a.last.tid, s.s.latest_order) END
           AS latest_order
  FROM keys k LEFT JOIN status s ON s.token = k.chain_key LEFT JOIN agg a ON a.chain_key = k.chain_key
  LEFT JOIN matched m ON m.chain_key = k.chain_key
)
SELECT 'play' AS store, j.chain_key, NOT coalesce(j.st.test, false) AS production,
       coalesce(j.st.pending, false) AS pending, false AS family,
       coalesce(nullif(j.st.product, ''), CASE WHEN j.matched_product IS NOT NULL THEN j.matched_product
                                               ELSE j.last.product END) AS current_product,
       CASE WHEN j.st.expires IS NOT NULL THEN j.st.expires ELSE j.sales_paid_through END AS paid_through,
       r.tid IS NOT NULL AS revoked,
       false AS superseded,
       CASE WHEN coalesce(j.st.pending, false) OR coalesce(j.st.test, false) THEN NULL ELSE j.lpc END AS lpc,
       j.lpos, j.paid_sum, j.multi_currency,
       j.st.linked AS linked, j.st.at_ms AS status_at,
       j.chain_key IN (SELECT token FROM tokens) AS keyed_by_token
FROM joined j LEFT JOIN returned r ON r.chain_key = j.chain_key AND r.tid = j.latest_order
""")
    add("play order index", f"""
CREATE TABLE play_orders AS  -- first-order id → the first chain (by key) that holds it
SELECT base, min(chain_key) AS chain_key FROM (
  SELECT t.token AS chain_key, t.base FROM tok_bases t JOIN pchains c ON c.chain_key = t.token
  UNION ALL
  SELECT chain_key, chain_key FROM pchains WHERE NOT keyed_by_token  -- an order-keyed chain: its key is its base
) GROUP BY base;
UPDATE pchains SET superseded = true WHERE chain_key IN (
  SELECT coalesce(c.chain_key, o.chain_key) AS target
  FROM pchains n
  LEFT JOIN pchains c ON c.chain_key = n.linked
  LEFT JOIN play_orders o ON n.linked LIKE 'GPA.%' AND o.base = obase(n.linked)
  WHERE n.linked IS NOT NULL AND NOT n.pending AND n.status_at <= {T}
    AND coalesce(c.chain_key, o.chain_key) <> n.chain_key);
""")

    stripe_steps(cfg, add, T, DF, DP, product_type, advance)

    add("all chains", """
CREATE TABLE chains AS
SELECT store, chain_key, production, pending, family, current_product, paid_through, revoked, superseded,
       lpc, lpos, paid_sum, multi_currency, commitment FROM achains
UNION ALL
SELECT store, chain_key, production, pending, family, current_product, paid_through, revoked, superseded,
       lpc, lpos, paid_sum, multi_currency, false FROM pchains
UNION ALL
SELECT store, chain_key, production, false, false, current_product, paid_through, revoked, false,
       lpc, lpos, paid_sum, multi_currency, false FROM schains
""")

    # ---------------------------------------------------------------- claims
    def lookup(alias, key_col, store_col):
        # A key names a chain of its store; for Play also through any order id of the chain (its ..N cut off).
        return (f"LEFT JOIN keymap {alias} ON {alias}.store = {store_col} AND {alias}.key = "
                f"CASE WHEN {store_col} = 'play' AND {key_col} LIKE 'GPA.%' THEN obase({key_col}) ELSE {key_col} END")

    add("claims", f"""
CREATE TABLE keymap AS  -- every key an app row may name → its chain: the chains' own keys, then Play first-order ids
SELECT store, chain_key AS key, chain_key FROM chains
UNION ALL
SELECT 'play', o.base, o.chain_key FROM play_orders o ANTI JOIN pchains c ON c.chain_key = o.base
UNION ALL
SELECT 'stripe', alias, chain_key FROM s_alias;
CREATE TABLE ents_r AS
SELECT e.*, x.chain_key,
       e.live AND (e.expires IS NULL OR e.expires > {T}) AS active
FROM ents e {lookup('x', 'e.key', 'e.store')}
WHERE e.store IS NOT NULL;
CREATE TABLE claims AS
SELECT k.store, coalesce(x.chain_key, y.chain_key) AS chain_key, k.user_id, k.at_ms,
       false AS active
FROM creds k {lookup('x', 'k.key', 'k.store')} {lookup('y', 'k.order_id', 'k.store')}
WHERE coalesce(x.chain_key, y.chain_key) IS NOT NULL
UNION ALL
SELECT store, chain_key, user_id, starts, active FROM ents_r WHERE chain_key IS NOT NULL AND key <> '';
CREATE TABLE claim_agg AS
SELECT store, chain_key, count(DISTINCT user_id) AS users,
       arg_min(user_id, (coalesce(at_ms, {DF}), user_id)) AS first_user, bool_or(active) AS any_active
FROM claims GROUP BY store, chain_key;
""")

    # ---------------------------------------------------------------- findings
    add("findings", f"""
CREATE TABLE findings AS
WITH fe AS (
  SELECT e.store, e.key, e.user_id, e.product_id, e.expires, c.chain_key, c.production, c.revoked,
         c.superseded, c.paid_through, c.current_product, c.lpc, c.lpos, g.user_id IS NOT NULL AS excused,
         CASE WHEN c.commitment THEN 0 ELSE {grace('e.store')} END AS grace  -- an App Store commitment: none
  FROM ents_r e LEFT JOIN chains c ON c.store = e.store AND c.chain_key = e.chain_key AND e.key <> ''
  LEFT JOIN goodwill_now g ON g.user_id = e.user_id AND g.product_id = e.product_id
  WHERE e.active
), fe_reason AS (
  SELECT *, CASE
      WHEN chain_key IS NULL THEN 'no_store_record'
      WHEN NOT production THEN 'sandbox'
      WHEN revoked THEN 'refunded'
      WHEN superseded THEN 'superseded'
      WHEN paid_through IS NULL OR paid_through + grace < {T} THEN CASE WHEN excused THEN NULL ELSE 'store_expired' END
      WHEN coalesce(expires, {DF}) > paid_through + grace + {TOL} AND paid_through < {DF} AND NOT excused
        THEN 'overextended'
      WHEN current_product IS NOT NULL AND current_product <> product_id THEN 'product_mismatch'
    END AS reason
  FROM fe
), orphan AS (
  SELECT c.*, a.chain_key IS NULL AS unclaimed, a.first_user
  FROM chains c LEFT JOIN claim_agg a ON a.store = c.store AND a.chain_key = c.chain_key
  WHERE c.production AND NOT c.pending AND NOT c.family AND c.lpc IS NOT NULL
    AND (a.chain_key IS NULL OR (NOT c.revoked AND NOT c.superseded AND c.paid_through > {T + TOL}
                                 AND NOT a.any_active))
), multi AS (  -- unclaimed chains paid in several currencies: sum only the latest charge's currency
  SELECT store, chain_key, lpc.currency AS currency FROM orphan WHERE unclaimed AND multi_currency
), multi_sum AS (
  SELECT 'app_store' AS store, p.chain_key, sum(p.amount) AS total
  FROM ap p JOIN multi m ON m.store = 'app_store' AND m.chain_key = p.chain_key AND m.currency = p.currency
  WHERE p.amount > 0 AND p.prod AND NOT p.family AND NOT p.revoked GROUP BY p.chain_key
  UNION ALL
  SELECT 'play', p.chain_key, sum(p.amount)
  FROM pp p JOIN multi m ON m.store = 'play' AND m.chain_key = p.chain_key AND m.currency = p.currency
  WHERE NOT p.is_refund AND p.amount > 0
    AND NOT EXISTS (SELECT 1 FROM returned r WHERE r.chain_key = p.chain_key AND r.tid = p.tid)
  GROUP BY p.chain_key
  UNION ALL
  SELECT 'stripe', p.chain_key, sum(p.amount)
  FROM sp p JOIN multi m ON m.store = 'stripe' AND m.chain_key = p.chain_key AND m.currency = p.currency
  WHERE p.amount > 0 AND p.prod AND NOT p.revoked GROUP BY p.chain_key
)
SELECT 'free_entitlement' AS kind, reason, store, CASE WHEN reason = 'no_store_record' THEN key ELSE chain_key END
         AS chain_key, user_id, product_id,
       CASE WHEN reason <> 'no_store_record' THEN coalesce(lpc.currency, lpos.currency) END AS currency,
       CASE WHEN reason <> 'no_store_record' THEN coalesce(lpc.amount, lpos.amount) END AS amount_minor
FROM fe_reason WHERE reason IS NOT NULL
UNION ALL
SELECT 'orphaned_charge', CASE WHEN unclaimed THEN 'unclaimed' ELSE 'locked_out' END, store, chain_key,
       CASE WHEN unclaimed THEN '' ELSE coalesce(first_user, '') END, coalesce(current_product, lpc.product),
       lpc.currency, CASE WHEN NOT unclaimed THEN lpc.amount WHEN multi_currency THEN
         (SELECT total FROM multi_sum s WHERE s.store = orphan.store AND s.chain_key = orphan.chain_key)
         ELSE paid_sum END
FROM orphan
UNION ALL
SELECT 'duplicate_claim', 'multiple_users', c.store, c.chain_key, u.user_id, coalesce(c.current_product, ''),
       c.lpc.currency, c.lpc.amount
FROM (SELECT DISTINCT store, chain_key, user_id FROM claims) u
JOIN claim_agg a ON a.store = u.store AND a.chain_key = u.chain_key
JOIN chains c ON c.store = u.store AND c.chain_key = u.chain_key
WHERE a.users > 1 AND u.user_id <> a.first_user
""")

    # ---------------------------------------------------------------- consumable credits
    if cfg.credits:
        credit_names = ["credit_id", "user_id", "store", "transaction_id", "product_id", "quantity", "credited_at",
                        "reversed_at"]
        add("read app.credits", f"""
CREATE TABLE credits AS
SELECT credit_id, user_id, st AS store, transaction_id AS tid, product_id, TRY_CAST(trim(quantity) AS BIGINT) AS qty,
       {ts('credited_at')} AS credited, {ts('reversed_at')} AS reversed
FROM (SELECT *, lower(trim(store)) AS st FROM {csv(cfg.credits, credit_names)})
WHERE credit_id IS NOT NULL AND user_id IS NOT NULL AND transaction_id IS NOT NULL AND product_id IS NOT NULL
  AND st IN ('app_store', 'play', 'stripe') AND regexp_full_match(trim(quantity), '[+]?[0-9]{{1,18}}')
  AND TRY_CAST(trim(quantity) AS BIGINT) >= 1 AND {ts_ok('credited_at')} AND {ts_ok('reversed_at')}
  AND NOT coalesce({ts('reversed_at')} < {ts('credited_at')}, false)
""")
        grace_c = cfg.credit_grace_ms
        add("credit findings", f"""
CREATE TABLE cons AS  -- consumable purchases as of T: (store, transaction id), money, returned or not
SELECT 'app_store' AS store, a.chain_key, a.tid, a.product, a.at_ms, a.prod, a.family, a.amount, a.currency,
       a.quantity, a.revoked AS returned, false AS pending,
       CASE WHEN c1.name IS NOT NULL THEN c1.units ELSE c2.units END AS units
FROM ap a LEFT JOIN cat c1 ON c1.name = 'app_store:' || a.product LEFT JOIN cat c2 ON c2.name = a.product
WHERE a.ptype = 'consumable'
UNION ALL
SELECT 'play', p.chain_key, p.tid, p.product, p.at_ms, true, false, p.amount, p.currency, 1,
       EXISTS (SELECT 1 FROM returned r WHERE r.chain_key = p.chain_key AND r.tid = p.tid),
       coalesce((SELECT pending FROM pchains c WHERE c.chain_key = p.chain_key), false),
       CASE WHEN c1.name IS NOT NULL THEN c1.units ELSE c2.units END
FROM pp p LEFT JOIN cat c1 ON c1.name = 'play:' || p.product LEFT JOIN cat c2 ON c2.name = p.product
WHERE NOT p.is_refund AND {product_type('c', 'p.raw_type')} = 'consumable';
CREATE TABLE credited AS  -- credits as of T, earliest first
SELECT *, reversed IS NULL OR reversed > {T} AS standing,
       row_number() OVER (PARTITION BY store, tid ORDER BY coalesce(credited, {DP}), credit_id) AS rk
FROM credits WHERE coalesce(credited, {DP}) <= {T};
CREATE TABLE per_purchase AS
SELECT c.*, a.first_user,
       count(k.credit_id) FILTER (WHERE k.standing) AS live,
       arg_min(k.user_id, k.rk) FILTER (WHERE k.standing) AS live_user,
       arg_min(k.qty, k.rk) FILTER (WHERE k.standing) AS live_qty,
       arg_min(k.user_id, k.rk) FILTER (WHERE NOT k.standing) AS reversed_user
FROM cons c
LEFT JOIN credited k ON k.store = c.store AND k.tid = c.tid
LEFT JOIN claim_agg a ON a.store = c.store AND a.chain_key = c.chain_key
WHERE c.prod
GROUP BY ALL;
INSERT INTO findings
SELECT 'credit_not_reversed', 'refund_not_reversed', store, tid, live_user, product, currency, amount
FROM per_purchase WHERE returned AND amount > 0 AND NOT family AND live > 0
UNION ALL
SELECT 'uncredited_purchase', 'not_credited', store, tid, coalesce(reversed_user, first_user, ''), product,
       currency, amount
FROM per_purchase WHERE NOT returned AND amount > 0 AND NOT family AND NOT pending AND live = 0
  AND at_ms + {grace_c} < {T}
UNION ALL
SELECT 'double_credit', 'credited_twice', store, tid, live_user, product, currency, amount * (live - 1)
FROM per_purchase WHERE NOT returned AND amount > 0 AND NOT family AND NOT pending AND live > 1
UNION ALL
SELECT 'double_credit', 'over_credited', store, tid, live_user, product, currency,
       amount * (live_qty - units * quantity) // (units * quantity)
FROM per_purchase WHERE NOT returned AND amount > 0 AND NOT family AND NOT pending AND live = 1
  AND units > 0 AND live_qty > units * quantity;
INSERT INTO findings
SELECT 'orphan_credit',
       CASE WHEN EXISTS (SELECT 1 FROM cons c WHERE c.store = k.store AND c.tid = k.tid) THEN 'sandbox_credit'
            ELSE 'unknown_transaction' END,
       k.store, k.tid, k.user_id, arg_min(k.product_id, k.rk), NULL, NULL
FROM credited k
WHERE k.standing AND NOT EXISTS (SELECT 1 FROM cons c WHERE c.store = k.store AND c.tid = k.tid AND c.prod)
GROUP BY k.store, k.tid, k.user_id;
""")

    # ---------------------------------------------------------------- double billing
    add("double billing periods", f"""
CREATE TABLE periods AS  -- paid subscription periods, clipped to the chain's paid-through and to T
WITH upg AS (  -- an upgraded transaction's period ends where the next one of its chain starts (a window, no self-join)
  SELECT chain_key, tid, next_at FROM (
    SELECT chain_key, tid, upgraded, lead(at_ms) OVER (PARTITION BY chain_key ORDER BY at_ms, tid) AS next_at
    FROM ap SEMI JOIN (SELECT DISTINCT chain_key FROM ap WHERE upgraded) u USING (chain_key)
  ) WHERE upgraded AND next_at IS NOT NULL
), raw AS (
  SELECT 'app_store' AS store, p.chain_key, p.product, p.at_ms AS s,
         least(CASE WHEN upg.next_at IS NOT NULL THEN least(p.pend, upg.next_at) ELSE p.pend END,
               coalesce(c.paid_through, {DF}), {T}) AS e,
         p.amount, p.currency, c.first_token AS token
  FROM ap p JOIN achains c ON c.chain_key = p.chain_key
  LEFT JOIN upg ON upg.chain_key = p.chain_key AND upg.tid = p.tid
  WHERE p.prod AND NOT p.family AND p.amount > 0 AND NOT p.revoked AND p.ptype NOT IN ('consumable', 'nonconsumable')
    AND c.production AND NOT c.family
  UNION ALL
  SELECT 'play', p.chain_key, p.product, p.at_ms,
         least({advance('k', 'p.at_ms')}, coalesce(c.paid_through, {DF}), {T}), p.amount, p.currency, s.s.account
  FROM pp p JOIN pchains c ON c.chain_key = p.chain_key LEFT JOIN status s ON s.token = p.chain_key
  LEFT JOIN cat k1 ON k1.name = 'play:' || p.product LEFT JOIN cat k2 ON k2.name = p.product
  WHERE NOT p.is_refund AND p.amount > 0 AND c.production AND NOT c.pending
    AND NOT EXISTS (SELECT 1 FROM returned r WHERE r.chain_key = p.chain_key AND r.tid = p.tid)
    AND {product_type('k', 'p.raw_type')} NOT IN ('consumable', 'nonconsumable')
  UNION ALL
  SELECT 'stripe', p.chain_key, p.product, p.at_ms, least(p.pend, coalesce(c.paid_through, {DF}), {T}), p.amount,
         p.currency, c.first_token
  FROM sp p JOIN schains c ON c.chain_key = p.chain_key
  WHERE p.prod AND p.amount > 0 AND NOT p.revoked AND p.ptype NOT IN ('consumable', 'nonconsumable') AND c.production
)
SELECT r.store, r.chain_key, r.s, r.e, r.amount, r.currency,
       coalesce(CASE WHEN t1.name IS NOT NULL THEN t1.tier ELSE t2.tier END, r.store || ':' || r.product) AS tier,
       coalesce(a.first_user, r.token) AS person
FROM raw r
LEFT JOIN cat t1 ON t1.name = r.store || ':' || r.product LEFT JOIN cat t2 ON t2.name = r.product
LEFT JOIN claim_agg a ON a.store = r.store AND a.chain_key = r.chain_key
WHERE r.e > r.s AND coalesce(a.first_user, r.token, '') <> '';
""")
    # One sweep per person and tier over the chains' merged paid periods: each chain has a bit (its rank
    # among the person's chains of the tier, by first paid period), the running sum of the start (+bit)
    # and end (-bit) events is the set of chains paying at each instant. A later chain is double billed
    # where its bit is set together with a lower one; no pair of periods is ever joined.
    add("double billing sweep", f"""
CREATE TABLE ranked AS  -- each person's chains of a tier in the order they started, where there are two or more
SELECT person, tier, store, chain_key, n FROM (
  SELECT person, tier, store, chain_key,
         row_number() OVER (PARTITION BY person, tier ORDER BY min(s), store, chain_key) AS n,
         count(*) OVER (PARTITION BY person, tier) AS chains
  FROM periods GROUP BY person, tier, store, chain_key
) WHERE chains > 1;
SELECT error('duckdb_reconcile: a person has more than 62 chains of one tier (the sweep keeps a set of chains in 62 bits)')
FROM ranked WHERE n > 62 LIMIT 1;
CREATE TABLE dp AS  -- those chains' periods, with the chain's rank
SELECT p.person, p.tier, r.n, p.s, p.e, p.amount, p.currency
FROM periods p JOIN ranked r USING (person, tier, store, chain_key);
CREATE TABLE islands AS  -- each chain's periods merged (gaps and islands)
WITH prior AS (
  SELECT person, tier, n, s, e,
         max(e) OVER (PARTITION BY person, tier, n ORDER BY s, e ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)
           AS reach
  FROM dp
), numbered AS (
  SELECT *, sum(CASE WHEN reach IS NULL OR s > reach THEN 1 ELSE 0 END)
              OVER (PARTITION BY person, tier, n ORDER BY s, e ROWS UNBOUNDED PRECEDING) AS island
  FROM prior
)
SELECT person, tier, n, min(s) AS s, max(e) AS e FROM numbered GROUP BY person, tier, n, island;
CREATE TABLE segments AS  -- the stretches between events where two or more chains pay: (lo, hi, the set)
WITH events AS (
  SELECT person, tier, t, sum(d) AS d FROM (
    SELECT person, tier, s AS t, CAST(1 AS BIGINT) << (n - 1) AS d FROM islands
    UNION ALL
    SELECT person, tier, e, -(CAST(1 AS BIGINT) << (n - 1)) FROM islands
  ) GROUP BY person, tier, t
), swept AS (
  SELECT person, tier, t AS lo, lead(t) OVER w AS hi,
         CAST(sum(d) OVER (w ROWS UNBOUNDED PRECEDING) AS BIGINT) AS paying
  FROM events WINDOW w AS (PARTITION BY person, tier ORDER BY t)
)
SELECT * FROM swept WHERE hi > lo AND bit_count(paying) > 1;
CREATE TABLE store_bits AS  -- per person, tier and store: the set of its chains of that store
SELECT person, tier, store, bit_or(CAST(1 AS BIGINT) << (n - 1)) AS bits FROM ranked GROUP BY ALL;
CREATE TABLE ov AS  -- per later chain, the stretches where an earlier chain pays too
SELECT g.person, g.tier, g.n, r.store, r.chain_key, g.lo, g.hi,
       (g.paying & ((CAST(1 AS BIGINT) << (g.n - 1)) - 1) & ~coalesce(b.bits, 0)) <> 0 AS across
FROM (SELECT *, unnest(generate_series(2, CAST(floor(log2(paying)) AS BIGINT) + 1)) AS n FROM segments) g
JOIN ranked r ON r.person = g.person AND r.tier = g.tier AND r.n = g.n
LEFT JOIN store_bits b ON b.person = g.person AND b.tier = g.tier AND b.store = r.store
WHERE (g.paying >> (g.n - 1)) & 1 = 1 AND g.paying & ((CAST(1 AS BIGINT) << (g.n - 1)) - 1) <> 0;
INSERT INTO findings
WITH over AS (
  SELECT person, tier, n, store, chain_key, bool_or(across) AS across FROM ov
  GROUP BY ALL HAVING sum(hi - lo) > {TOL}
), charged AS (  -- the later chain's charges whose own period overlaps
  SELECT p.person, p.tier, p.n, p.s, p.amount, p.currency FROM dp p SEMI JOIN over USING (person, tier, n)
  WHERE EXISTS (SELECT 1 FROM ov o WHERE o.person = p.person AND o.tier = p.tier AND o.n = p.n
                  AND o.hi > p.s AND o.lo < p.e)
), latest AS (
  SELECT person, tier, n, arg_max(currency, s) AS currency FROM charged GROUP BY ALL
)
SELECT 'double_billing', CASE WHEN o.across THEN 'across_stores' ELSE 'within_store' END, o.store, o.chain_key,
       o.person, coalesce(c.current_product, ''), l.currency,
       (SELECT sum(m.amount) FROM charged m WHERE m.person = o.person AND m.tier = o.tier AND m.n = o.n
          AND m.currency = l.currency)
FROM over o JOIN latest l USING (person, tier, n)
JOIN chains c ON c.store = o.store AND c.chain_key = o.chain_key;
""")

    # ---------------------------------------------------------------- revenue
    add("revenue", f"""
CREATE TABLE revenue AS
WITH play_money AS (  -- Play chains that move money: not a license tester's, not pending
  SELECT chain_key FROM pchains WHERE production AND NOT pending
), parts AS (
  SELECT {day('at_ms')} AS day, 'app_store' AS store, product, currency, 1 AS charges, amount AS gross, 0 AS tax,
         0 AS refunds, 0 AS refund_count, 0 AS disputed, 0 AS dispute_fees
  FROM ap WHERE prod AND NOT family AND amount > 0
  UNION ALL
  SELECT {day('revoked_at')}, 'app_store', product, currency, 0, 0, 0,
         CASE WHEN rev_type = 'REFUND_PRORATED' AND rev_pct IS NOT NULL THEN
           (amount * rev_pct) // 100000 + CASE
             WHEN 2 * ((amount * rev_pct) % 100000) > 100000 THEN 1
             WHEN 2 * ((amount * rev_pct) % 100000) < 100000 THEN 0
             ELSE ((amount * rev_pct) // 100000) % 2 END
         ELSE amount END, 1, 0, 0
  FROM ap WHERE prod AND NOT family AND amount > 0 AND revoked AND rev_type IS DISTINCT FROM 'FAMILY_REVOKE'
    AND NOT (upgraded AND rev_type IS NULL AND rev_reason IS NULL)
  UNION ALL
  SELECT {day('p.at_ms')}, 'play', p.product, p.currency, CASE WHEN p.is_refund THEN 0 ELSE 1 END,
         CASE WHEN p.is_refund THEN 0 ELSE p.amount END, CASE WHEN p.is_refund THEN 0 ELSE p.tax END,
         CASE WHEN p.is_refund THEN p.amount ELSE 0 END, CASE WHEN p.is_refund THEN 1 ELSE 0 END, 0, 0
  FROM pp p SEMI JOIN play_money m ON m.chain_key = p.chain_key
  WHERE p.is_refund OR p.amount > 0
  UNION ALL
  SELECT {day('at_ms')}, 'stripe', product, currency, 1, amount, coalesce(tax, 0), 0, 0, 0, 0 FROM sp
  WHERE prod AND amount > 0
  UNION ALL
  SELECT {day('back_at')}, 'stripe', product, currency, 0, 0, 0, back_amount, 1, 0, 0 FROM sp
  WHERE prod AND amount > 0 AND back_at <= {T}
  UNION ALL
  SELECT {day('at_ms')}, 'stripe', product, currency, 0, 0, 0, 0, 0, disputed, fee FROM s_disp
)
SELECT day, store, product AS product_id, currency, sum(charges) AS charges, sum(gross) AS gross_minor,
       sum(tax) AS tax_minor, sum(refunds) AS refunds_minor, sum(refund_count) AS refund_count,
       sum(disputed) AS disputed_minor, sum(dispute_fees) AS dispute_fees_minor
FROM parts GROUP BY day, store, product, currency
""")
    return steps


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--config", required=True)
    parser.add_argument("--date", required=True, help="report date YYYY-MM-DD (T = start of the next day)")
    parser.add_argument("--out", required=True)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--explain", action="store_true", help="print each step's time")
    args = parser.parse_args()

    started = time.monotonic()
    cfg = Config(args.config, args.date)
    os.makedirs(args.out, exist_ok=True)
    con = duckdb.connect()
    con.execute(f"SET threads = {args.threads}")
    con.execute("SET preserve_insertion_order = false")
    con.execute("SET TimeZone = 'UTC'")
    timings = []
    for label, sql in build_sql(cfg):
        step, cpu = time.monotonic(), time.process_time()
        con.execute(sql)
        timings.append((label, time.monotonic() - step, time.process_time() - cpu))
    step, cpu = time.monotonic(), time.process_time()
    findings_path = os.path.join(args.out, "findings.csv")
    revenue_path = os.path.join(args.out, "revenue.csv")
    con.execute(f"""COPY (SELECT * FROM findings ORDER BY kind, reason, store, chain_key, user_id)
                    TO {sql_str(findings_path)} (HEADER, DELIMITER ',')""")
    con.execute(f"""COPY (SELECT * FROM revenue ORDER BY day, store, product_id, currency)
                    TO {sql_str(revenue_path)} (HEADER, DELIMITER ',')""")
    con.execute(f"""COPY (SELECT * FROM s_tie ORDER BY month, order_id)
                    TO {sql_str(os.path.join(args.out, 'tieout_orders.csv'))} (HEADER, DELIMITER ',')""")
    timings.append(("write", time.monotonic() - step, time.process_time() - cpu))
    if args.explain:
        for label, seconds, cpu_seconds in timings:
            print(f"  {label:28s} {seconds * 1000:9.0f} ms  (cpu {cpu_seconds * 1000:.0f} ms)", file=sys.stderr)
    counts = con.execute("SELECT count(*) FROM findings").fetchone()[0]
    print(f"duckdb_reconcile: {counts} findings, T={cfg.t}, {time.monotonic() - started:.2f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
