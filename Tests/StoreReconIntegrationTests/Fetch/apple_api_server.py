#!/usr/bin/env python3
"""A loopback HTTPS stand-in for Apple's App Store Server API and App Store Connect API reports, for the
`storerecon fetch` tests. Python 3 standard library only (http.server + ssl, one thread per request).

It serves from a fixtures folder the test writes (DIR/fixtures):

  history/<id>.json        {"signedTransactions": [JWS, ...]} in ascending order, paged --page-size at a
                           time; `revision` is the offset after the page, so a revision at the end
                           returns an empty last page (hasMore false) until the list grows.
  refunds/<id>.json        the same for GET /inApps/v2/refund/lookup/<id> (absent: none).
  notifications.json       [{"date": ms, "signedPayload": JWS, "sendAttempts": [...]}, ...] for
                           POST /inApps/v1/notifications/history (filtered on date, paged with
                           paginationToken, --page-size at a time).
  reports/<name>           report bodies for GET /v1/salesReports and /v1/financeReports, keyed
                           SALES_SUMMARY_<vendor>_<YYYY-MM-DD>, SUBSCRIBER_DETAILED_<vendor>_<YYYY-MM-DD>,
                           FINANCIAL_ZZ_<vendor>_<YYYY-MM>; served gzipped; absent: 404 as Apple does.
  faults.json              [{"path": "/inApps/...", "status": 429, "headers": {...}, "body": "...",
                           "truncate": true, "times": 1}, {"expireFirstToken": true}, ...]: the first
                           rules whose path matches are answered instead, `times` times each.

Every request's bearer JWT is verified: ES256 over header.payload with --public-key (openssl dgst, the
r||s signature converted to DER here), kid, iss, aud "appstoreconnect-v1", bid (Server API paths),
exp - iat <= 20 minutes, not expired. Each request is logged to DIR/requests.jsonl:
{"method", "path", "query", "status", "jwt": "ok" or the reason it failed, "token": sha256 prefix,
"at": when the request arrived, "sent": when the answer went out (seconds since 1970), "onConnection":
how many requests its connection carried before it}.

--latency-ms N holds every answer N milliseconds before sending it, as a distant server would (the
concurrency tests and bench/fetch-backfill); the requests of several connections are served at once.
"""

import argparse
import base64
import gzip
import hashlib
import http.server
import json
import os
import socket
import socketserver
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import loopback_tls

LOCK = threading.Lock()
STATE = {"faults": None, "expired": set(), "seen_tokens": set(), "verified": {}}


def b64url_decode(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def der_integer(raw):
    raw = raw.lstrip(b"\x00") or b"\x00"
    if raw[0] & 0x80:
        raw = b"\x00" + raw
    return b"\x02" + bytes([len(raw)]) + raw


def der_signature(raw):
    body = der_integer(raw[:32]) + der_integer(raw[32:])
    return b"\x30" + bytes([len(body)]) + body


def verify_signature(args, signing_input, raw_signature):
    with tempfile.TemporaryDirectory() as folder:
        message = os.path.join(folder, "message")
        signature = os.path.join(folder, "signature")
        with open(message, "wb") as f:
            f.write(signing_input)
        with open(signature, "wb") as f:
            f.write(der_signature(raw_signature))
        result = subprocess.run(
            ["openssl", "dgst", "-sha256", "-verify", args.public_key, "-signature", signature, message],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return result.returncode == 0


def check_jwt(args, authorization, server_api):
    if not authorization or not authorization.startswith("Bearer "):
        return "no bearer token"
    token = authorization[len("Bearer "):]
    parts = token.split(".")
    if len(parts) != 3:
        return "not a compact JWT"
    try:
        header = json.loads(b64url_decode(parts[0]))
        claims = json.loads(b64url_decode(parts[1]))
        raw = b64url_decode(parts[2])
    except Exception:
        return "JWT does not decode"
    if header.get("alg") != "ES256" or header.get("typ") != "JWT" or header.get("kid") != args.kid:
        return "header %r" % header
    if claims.get("iss") != args.issuer or claims.get("aud") != "appstoreconnect-v1":
        return "iss/aud %r" % claims
    if server_api and claims.get("bid") != args.bid:
        return "bid %r" % claims.get("bid")
    iat, exp = claims.get("iat"), claims.get("exp")
    if not isinstance(iat, int) or not isinstance(exp, int) or exp - iat > 1200 or exp - iat <= 0:
        return "lifetime iat=%r exp=%r" % (iat, exp)
    if exp < time.time():
        return "expired"
    if len(raw) != 64:
        return "signature is not 64 bytes"
    with LOCK:
        known = STATE["verified"].get(token)
    if known is None:
        known = verify_signature(args, (parts[0] + "." + parts[1]).encode(), raw)
        with LOCK:
            STATE["verified"][token] = known
    return "ok" if known else "bad signature"


def load_json(path, default):
    try:
        with open(path, "rb") as f:
            return json.load(f)
    except FileNotFoundError:
        return default


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *_):
        pass

    def setup(self):
        super().setup()
        # Headers and body go out in two writes: without this, Nagle's algorithm and the client's delayed
        # ACK hold every response about 40 ms.
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.served = 0

    def do_GET(self):
        self.arrived = time.time()
        self.handle_any("GET", b"")

    def do_POST(self):
        self.arrived = time.time()
        length = int(self.headers.get("Content-Length") or 0)
        self.handle_any("POST", self.rfile.read(length))

    def send(self, status, body, headers=None, truncate=False):
        if isinstance(body, str):
            body = body.encode()
        if self.server.args.latency_ms > 0:
            time.sleep(self.server.args.latency_ms / 1000.0)
        self.send_response(status)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        if "Content-Type" not in (headers or {}):
            self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body) + (100 if truncate else 0)))
        if truncate:
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        self.wfile.write(body)
        self.wfile.flush()

    def log(self, method, path, query, status, jwt, token):
        entry = {"method": method, "path": path, "query": query, "status": status, "jwt": jwt,
                 "token": hashlib.sha256(token.encode()).hexdigest()[:12], "at": self.arrived,
                 "sent": time.time() + self.server.args.latency_ms / 1000.0, "onConnection": self.served}
        self.served += 1
        with LOCK:
            with open(os.path.join(self.server.args.dir, "requests.jsonl"), "a") as f:
                f.write(json.dumps(entry, sort_keys=True) + "\n")

    def fault(self, path, token):
        folder = os.path.join(self.server.args.dir, "fixtures")
        with LOCK:
            if STATE["faults"] is None:
                STATE["faults"] = load_json(os.path.join(folder, "faults.json"), [])
            for rule in STATE["faults"]:
                if rule.get("expireFirstToken"):
                    if not STATE["seen_tokens"]:
                        STATE["expired"].add(token)
                    STATE["seen_tokens"].add(token)
                    if token in STATE["expired"]:
                        return {"status": 401, "body": '{"errorCode":401,"errorMessage":"expired"}'}
                    continue
                if rule.get("times", 1) > 0 and path.startswith(rule.get("path", "\0")):
                    rule["times"] = rule.get("times", 1) - 1
                    return rule
        return None

    def handle_any(self, method, body):
        args = self.server.args
        url = urllib.parse.urlsplit(self.path)
        query = urllib.parse.parse_qs(url.query)
        authorization = self.headers.get("Authorization") or ""
        token = authorization[len("Bearer "):]
        jwt = check_jwt(args, authorization, url.path.startswith("/inApps/"))
        if jwt != "ok":
            self.log(method, url.path, url.query, 401, jwt, token)
            self.send(401, '{"errorCode":4010000,"errorMessage":"Unauthenticated"}')
            return
        rule = self.fault(url.path, token)
        if rule is not None:
            status = rule.get("status", 500)
            self.log(method, url.path, url.query, status, jwt, token)
            self.send(status, rule.get("body", ""), rule.get("headers"), rule.get("truncate", False))
            return
        status, payload, headers = self.route(method, url.path, query, body)
        self.log(method, url.path, url.query, status, jwt, token)
        self.send(status, payload, headers)

    def route(self, method, path, query, body):
        folder = os.path.join(self.server.args.dir, "fixtures")
        size = self.server.args.page_size
        not_found = (404, '{"errorCode":4040010,"errorMessage":"Transaction id not found."}', None)
        for prefix, sub in (("/inApps/v2/history/", "history"), ("/inApps/v2/refund/lookup/", "refunds")):
            if method == "GET" and path.startswith(prefix):
                name = path[len(prefix):]
                items = load_json(os.path.join(folder, sub, name + ".json"), None)
                if items is None:
                    return not_found if sub == "history" else (200, json.dumps(
                        {"signedTransactions": [], "revision": "0", "hasMore": False}), None)
                signed = items["signedTransactions"]
                start = int(query.get("revision", ["0"])[0])
                page = signed[start:start + size]
                end = start + len(page)
                answer = {"revision": str(end), "hasMore": end < len(signed), "signedTransactions": page}
                if sub == "history":
                    answer.update({"bundleId": self.server.args.bid, "appAppleId": 1234567890,
                                   "environment": "Production"})
                return 200, json.dumps(answer), None
        if method == "POST" and path == "/inApps/v1/notifications/history":
            request = json.loads(body or b"{}")
            items = [n for n in load_json(os.path.join(folder, "notifications.json"), [])
                     if request.get("startDate", 0) <= n["date"] < request.get("endDate", 1 << 62)]
            start = int(query.get("paginationToken", ["0"])[0])
            page = items[start:start + size]
            end = start + len(page)
            answer = {"hasMore": end < len(items), "notificationHistory": [
                {"signedPayload": n["signedPayload"], "sendAttempts": n.get("sendAttempts", [])} for n in page]}
            if end < len(items):
                answer["paginationToken"] = str(end)
            return 200, json.dumps(answer), None
        if method == "GET" and path in ("/v1/salesReports", "/v1/financeReports"):
            get = lambda key: query.get(key, [""])[0]
            if path == "/v1/salesReports":
                name = "%s_%s_%s_%s" % (get("filter[reportType]"), get("filter[reportSubType]"),
                                        get("filter[vendorNumber]"), get("filter[reportDate]"))
            else:
                name = "%s_%s_%s_%s" % (get("filter[reportType]"), get("filter[regionCode]"),
                                        get("filter[vendorNumber]"), get("filter[reportDate]"))
            try:
                with open(os.path.join(folder, "reports", name), "rb") as f:
                    data = f.read()
            except FileNotFoundError:
                return 404, json.dumps({"errors": [{"status": "404", "code": "NOT_FOUND",
                                                    "title": "The specified resource does not exist",
                                                    "detail": "There were no sales for the date specified."}]}), None
            return 200, gzip.compress(data, mtime=0), {"Content-Type": "application/a-gzip"}
        return 404, '{"errorCode":4040000,"errorMessage":"no such route"}', None


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dir", required=True)
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--cert", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--public-key", required=True)
    parser.add_argument("--kid", required=True)
    parser.add_argument("--issuer", required=True)
    parser.add_argument("--bid", required=True)
    parser.add_argument("--page-size", type=int, default=20)
    parser.add_argument("--lifetime", type=int, default=120)
    parser.add_argument("--latency-ms", type=int, default=0)
    args = parser.parse_args()
    server = Server(("127.0.0.1", 0), Handler)
    server.args = args
    loopback_tls.serve(server, args.cert, args.key, args.port_file, args.lifetime)


if __name__ == "__main__":
    sys.exit(main())
