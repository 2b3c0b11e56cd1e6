#!/usr/bin/env python3
"""A loopback HTTPS stand-in for Stripe's API, for storerecon's `fetch stripe` tests (stdlib only).

Serves, on 127.0.0.1 and a free port (written to PORT_FILE once it listens), over TLS with the test's
certificate, answering as Stripe's API reference describes (JSON indented as Stripe writes it, `id` and
`object` first):

  GET  /v1/{subscriptions,invoices,charges,refunds,disputes,customers,prices,products}
           list objects (`object: list`, `url`, `has_more`, `data`), newest first, `limit`,
           `starting_after`, `created[gte]`; subscriptions without `status=all` leave out canceled ones, as
           Stripe does. `expand[]=data.payments` (invoices) and `expand[]=data.balance_transaction`
           (charges, refunds) include those fields; without it an invoice has no `payments` and a
           balance transaction is its id.
  GET  /v1/{kind}/{id}   one object (`expand[]=payments`, `expand[]=balance_transaction`), else 404 with
           Stripe's `resource_missing` error.
  GET  /v1/events        DIR/events.json, newest first, paged; events older than 30 days are gone.
  GET  /v1/reporting/report_types/balance_change_from_activity.itemized.3   from DIR/report.json
  POST /v1/reporting/report_runs   a run (`frr_N`), pending; the same Idempotency-Key gives the same run.
  GET  /v1/reporting/report_runs/ID   pending for report.json's `pendingPolls` looks, then succeeded
           with `result` a file object whose `url` is this server's /v1/files/file_N/contents.
  GET  /v1/files/ID/contents   the CSV of DIR/balance.json's rows with `created_utc` in the run's
           interval, in the run's columns.

Objects are DIR/objects.json (a list; balance transactions too, `object: balance_transaction`; an
invoice's payments under `_payments`). Every request needs `Authorization: Bearer <--api-key>`, else 401
with Stripe's error JSON (which quotes the key masked, as Stripe does). DIR/faults.json (read on every
request) injects failures:

  {"rateLimitOnce": [substring, ...], "retryAfter": N}   first matching request: 429, Retry-After: N
  {"serverErrorOnce": [substring, ...]}                    first matching request: 500 (api_error)
  {"html": [substring, ...]}                               200 with an HTML page
  {"failRuns": true}                                       report runs end `failed`

Each request is appended to DIR/log.jsonl (method, path, query, form, status, Stripe-Version, whether it
was authorized; never the key). The compact text of each object as last served is written to
DIR/served/ID.json. Stops by itself after --lifetime seconds.

usage: stripe_api_server.py --dir DIR --port-file PORT_FILE --cert CERT --key KEY --api-key KEY [--lifetime S]
"""
import argparse
import csv
import http.server
import io
import json
import os
import ssl
import sys
import threading
import time
import urllib.parse
import loopback_tls

KINDS = {"subscriptions": "subscription", "invoices": "invoice", "charges": "charge", "refunds": "refund",
         "disputes": "dispute", "customers": "customer", "prices": "price", "products": "product"}
REPORT_TYPE = "balance_change_from_activity.itemized.3"


class State:
    def __init__(self, args):
        self.args = args
        self.lock = threading.Lock()
        self.once = set()
        self.runs = {}  # id -> run
        self.idempotency = {}  # key -> run id

    def path(self, name):
        return os.path.join(self.args.dir, name)

    def json_file(self, name, default):
        try:
            with open(self.path(name), encoding="utf-8") as f:
                return json.load(f)
        except FileNotFoundError:
            return default

    def log(self, entry):
        with self.lock:
            with open(self.path("log.jsonl"), "a", encoding="utf-8") as f:
                f.write(json.dumps(entry) + "\n")


def ordered(obj):
    """Stripe writes `id` and `object` first."""
    out = {}
    for key in ("id", "object"):
        if key in obj:
            out[key] = obj[key]
    for key, value in obj.items():
        if key not in out and not key.startswith("_"):
            out[key] = value
    return out


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    @property
    def state(self):
        return self.server.state

    def send(self, status, body, content_type="application/json", headers=None, entry=None):
        if isinstance(body, (dict, list)):
            body = (json.dumps(body, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
        record = {"method": self.command, "path": self.parsed.path, "query": self.query, "form": self.form,
                  "status": status, "version": self.headers.get("Stripe-Version"),
                  "idempotencyKey": self.headers.get("Idempotency-Key"), "authorized": self.authorized}
        record.update(entry or {})
        self.state.log(record)
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Request-Id", "req_%d" % int(time.time() * 1000))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(body)

    def error(self, status, kind, message, code=None, param=None, headers=None):
        error = {"message": message, "type": kind}
        if code:
            error = {"code": code, "doc_url": "https://stripe.com/docs/error-codes/" + code.replace("_", "-"),
                     "message": message, "param": param, "type": kind}
            if param is None:
                del error["param"]
        self.send(status, {"error": error}, headers=headers)

    def parse(self):
        self.parsed = urllib.parse.urlparse(self.path)
        self.query = {}
        for key, value in urllib.parse.parse_qsl(self.parsed.query, keep_blank_values=True):
            if key.endswith("[]"):
                self.query.setdefault(key, []).append(value)
            else:
                self.query[key] = value
        self.form = None
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.form = {}
            for key, value in urllib.parse.parse_qsl(self.rfile.read(length).decode("utf-8")):
                if key.endswith("[]"):
                    self.form.setdefault(key, []).append(value)
                else:
                    self.form[key] = value
        key = self.state.args.api_key
        self.authorized = self.headers.get("Authorization") == "Bearer " + key

    def do_GET(self):
        self.handle_request()

    def do_POST(self):
        self.handle_request()

    def handle_request(self):
        self.parse()
        faults = self.state.json_file("faults.json", {})
        if not self.authorized:
            given = (self.headers.get("Authorization") or "").replace("Bearer ", "")
            masked = given[:8] + "*" * max(0, len(given) - 12) + given[-4:] if len(given) > 12 else "****"
            return self.error(401, "invalid_request_error", "Invalid API Key provided: " + masked)
        path = self.parsed.path
        for key in ("rateLimitOnce", "serverErrorOnce"):
            for marker in faults.get(key, []):
                if marker in path and (key, marker) not in self.state.once:
                    self.state.once.add((key, marker))
                    if key == "rateLimitOnce":
                        return self.error(429, "invalid_request_error",
                                          "Request rate limit exceeded. Learn more about rate limits here "
                                          "https://stripe.com/docs/rate-limits.", code="rate_limit",
                                          headers={"Retry-After": str(faults.get("retryAfter", 1))})
                    return self.error(500, "api_error", "An unknown error occurred")
        if any(marker in path for marker in faults.get("html", [])):
            return self.send(200, b"<!DOCTYPE html><html><body>Bad gateway</body></html>", "text/html")
        self.route(path, faults)

    def route(self, path, faults):
        parts = [p for p in path.split("/") if p]
        if self.command == "POST" and path == "/v1/reporting/report_runs":
            return self.create_run()
        if self.command != "GET":
            return self.error(404, "invalid_request_error", "Unrecognized request URL (%s: %s)" % (self.command, path))
        if len(parts) == 2 and parts[1] in KINDS:
            return self.list_objects(KINDS[parts[1]])
        if len(parts) == 3 and parts[1] in KINDS:
            return self.retrieve(KINDS[parts[1]], parts[2])
        if parts == ["v1", "events"]:
            return self.events()
        if parts == ["v1", "reporting", "report_types", REPORT_TYPE]:
            return self.report_type()
        if len(parts) == 4 and parts[:3] == ["v1", "reporting", "report_runs"]:
            return self.run(parts[3], faults)
        if len(parts) == 4 and parts[:2] == ["v1", "files"] and parts[3] == "contents":
            return self.file(parts[2])
        return self.error(404, "invalid_request_error", "Unrecognized request URL (GET: %s)" % path)

    def objects(self):
        return self.state.json_file("objects.json", [])

    def render(self, obj, expand):
        out = ordered(obj)
        by_id = {o["id"]: o for o in self.objects()}
        if out.get("object") == "invoice":
            if "payments" in expand:
                payments = obj.get("_payments", [])
                out["payments"] = {"object": "list", "data": payments, "has_more": False,
                                   "url": "/v1/invoice_payments?invoice=" + obj["id"]}
        if out.get("object") in ("charge", "refund") and isinstance(out.get("balance_transaction"), str):
            bt = out["balance_transaction"]
            if "balance_transaction" in expand and bt in by_id:
                out["balance_transaction"] = ordered(by_id[bt])
        os.makedirs(self.state.path("served"), exist_ok=True)
        with open(self.state.path(os.path.join("served", obj["id"] + ".json")), "w", encoding="utf-8") as f:
            f.write(json.dumps(out, separators=(",", ":"), ensure_ascii=False))
        return out

    def page(self, items, url, expand):
        items = sorted(items, key=lambda o: (o.get("created", 0), o["id"]), reverse=True)
        after = self.query.get("starting_after")
        if after is not None:
            ids = [o["id"] for o in items]
            if after not in ids:
                return self.error(400, "invalid_request_error", "No such object: '%s'" % after,
                                  code="resource_missing", param="starting_after")
            items = items[ids.index(after) + 1:]
        limit = int(self.query.get("limit", "10"))
        data = [self.render(o, expand) for o in items[:limit]]
        self.send(200, {"object": "list", "data": data, "has_more": len(items) > limit, "url": url})

    def since(self, items):
        gte = self.query.get("created[gte]")
        if gte is None:
            return items
        return [o for o in items if o.get("created", 0) >= int(gte)]

    def list_objects(self, kind):
        items = [o for o in self.objects() if o.get("object") == kind]
        if kind == "subscription":
            status = self.query.get("status")
            if status is None:
                items = [o for o in items if o.get("status") != "canceled"]
            elif status != "all":
                items = [o for o in items if o.get("status") == status]
        expand = [e[len("data."):] for e in self.query.get("expand[]", []) if e.startswith("data.")]
        self.page(self.since(items), self.parsed.path, expand)

    def retrieve(self, kind, ident):
        for obj in self.objects():
            if obj.get("object") == kind and obj["id"] == ident:
                return self.send(200, self.render(obj, self.query.get("expand[]", [])))
        self.error(404, "invalid_request_error", "No such %s: '%s'" % (kind, ident), code="resource_missing",
                   param="id")

    def events(self):
        oldest = time.time() - 30 * 86400
        items = [e for e in self.state.json_file("events.json", []) if e["created"] >= oldest]
        self.page(self.since(items), "/v1/events", [])

    def report(self):
        return self.state.json_file("report.json", {})

    def report_type(self):
        report = self.report()
        self.send(200, {"id": REPORT_TYPE, "object": "reporting.report_type",
                        "data_available_end": report["data_available_end"],
                        "data_available_start": report["data_available_start"],
                        "default_columns": ["balance_transaction_id", "created_utc", "currency", "gross", "fee",
                                            "net", "reporting_category"],
                        "livemode": True, "name": "Itemized balance change from activity",
                        "updated": report["data_available_end"], "version": 3})

    def run_object(self, run):
        out = {"id": run["id"], "object": "reporting.report_run", "created": run["created"], "error": None,
               "livemode": True, "parameters": run["parameters"], "report_type": run["report_type"],
               "result": None, "status": run["status"], "succeeded_at": None}
        if run["status"] == "failed":
            out["error"] = "We could not run this report. Contact support."
        if run["status"] == "succeeded":
            out["succeeded_at"] = run["created"]
            port = self.server.server_address[1]
            out["result"] = {"id": run["file"], "object": "file", "created": run["created"],
                             "expires_at": run["created"] + 86400 * 365, "filename": run["id"] + ".csv",
                             "purpose": "finance_report_run", "size": 0, "title": "FinanceReportRun " + run["id"],
                             "type": "csv",
                             "url": "https://127.0.0.1:%d/v1/files/%s/contents" % (port, run["file"])}
        return out

    def create_run(self):
        form = self.form or {}
        report = self.report()
        key = self.headers.get("Idempotency-Key")
        with self.state.lock:
            if key and key in self.state.idempotency:
                return self.send(200, self.run_object(self.state.runs[self.state.idempotency[key]]))
            if form.get("report_type") != REPORT_TYPE:
                return self.error(400, "invalid_request_error", "Invalid report_type", param="report_type")
            start, end = int(form["parameters[interval_start]"]), int(form["parameters[interval_end]"])
            if not (report["data_available_start"] <= start < end <= report["data_available_end"]):
                return self.error(400, "invalid_request_error",
                                  "interval_end must be at most data_available_end", code="parameter_invalid_integer",
                                  param="parameters[interval_end]")
            number = len(self.state.runs) + 1
            run = {"id": "frr_test%d" % number, "file": "file_test%d" % number, "created": int(time.time()),
                   "report_type": REPORT_TYPE, "status": "pending", "polls": 0,
                   "parameters": {"columns": form.get("parameters[columns][]"), "interval_end": end,
                                  "interval_start": start}}
            self.state.runs[run["id"]] = run
            if key:
                self.state.idempotency[key] = run["id"]
        self.send(200, self.run_object(run))

    def run(self, ident, faults):
        run = self.state.runs.get(ident)
        if run is None:
            return self.error(404, "invalid_request_error", "No such report run: '%s'" % ident,
                              code="resource_missing", param="id")
        run["polls"] += 1
        if run["status"] == "pending" and run["polls"] > self.report().get("pendingPolls", 2):
            run["status"] = "failed" if faults.get("failRuns") else "succeeded"
        self.send(200, self.run_object(run))

    def file(self, ident):
        runs = [r for r in self.state.runs.values() if r["file"] == ident and r["status"] == "succeeded"]
        if not runs:
            return self.error(404, "invalid_request_error", "No such file: '%s'" % ident, code="resource_missing",
                              param="file")
        params = runs[0]["parameters"]
        columns = params["columns"] or ["balance_transaction_id", "created_utc", "currency", "gross", "fee", "net",
                                        "reporting_category"]
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(columns)
        for row in self.state.json_file("balance.json", []):
            if params["interval_start"] <= row["_created"] < params["interval_end"]:
                writer.writerow([row.get(c, "") for c in columns])
        self.send(200, out.getvalue().encode("utf-8"), "text/csv")


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True


def main():
    parser = argparse.ArgumentParser()
    for name in ["--dir", "--port-file", "--cert", "--key", "--api-key"]:
        parser.add_argument(name, required=True)
    parser.add_argument("--lifetime", type=float, default=180)
    args = parser.parse_args()
    server = Server(("127.0.0.1", 0), Handler)
    port = server.server_address[1]
    server.state = State(args)
    loopback_tls.serve(server, args.cert, args.key, args.port_file, args.lifetime)
    return 0


if __name__ == "__main__":
    sys.exit(main())
