#!/usr/bin/env python3
"""A loopback HTTPS stand-in for Google's APIs, for storerecon's `fetch google` tests (stdlib only).

Serves, on 127.0.0.1 and a free port (written to PORT_FILE once it listens), over TLS with the test's
certificate:

  POST /token                      OAuth 2.0 JWT-bearer grant. The assertion's RS256 signature is
                                   verified with `openssl dgst -sha256 -verify PUBLIC_KEY` and its claims
                                   checked (iss, scope, aud, iat, exp <= iat + 3600); answers an access
                                   token valid for an hour.
  GET  /androidpublisher/v3/applications/PKG/purchases/subscriptionsv2/tokens/TOKEN
                                   the resource in DIR/subscriptions.json (an object: token -> resource),
                                   else 404 as Google answers it.
  GET  /androidpublisher/v3/applications/PKG/purchases/voidedpurchases
                                   DIR/voided.json (a list) filtered on startTime (against each entry's
                                   `_recordedMillis`, the server's start when absent; never returned),
                                   in two pages at least (tokenPagination.nextPageToken -> token).
  GET  /androidpublisher/v3/applications/PKG/orders:batchGet?orderIds=…  (and orders/ID)
                                   the orders of DIR/orders.json (order id -> purchase token); one
                                   unknown id fails the whole call with 404, as Google does.
  GET  /storage/v1/b/BUCKET/o?prefix=P    objects.list over the files under DIR/bucket/, two pages
  GET  /storage/v1/b/BUCKET/o/NAME?alt=media  an object's bytes

Every other request needs `Authorization: Bearer <a token this server issued>`. DIR/faults.json (read
on every request; absent means none) injects failures:

  {"rateLimitOnce": [substring, ...]}   the first request whose path contains it: 429, Retry-After: 1
  {"expireTokenAfter": N}                an access token answers 401 after N uses
  {"alwaysUnauthorized": true}           every API request answers 401
  {"truncate": [substring, ...]}         200 with the JSON cut in half (Content-Length of what is sent)
  {"html": [substring, ...]}             200 with an HTML error page (text/html)
  {"badMd5": [object name, ...]}         objects.list publishes a wrong md5Hash for it
  {"rejectToken": true}                  the token endpoint answers 400 invalid_grant

DIR/generations.json (object name -> generation, optional) sets the objects' generations (else "1").
Each request is appended to DIR/log.jsonl: method, path, query, status, and for /token whether the
assertion verified (never the assertion or an access token; those issued are listed in DIR/issued.txt,
for the tests' check that none leaks into an output). Stops by itself after --lifetime seconds.

usage: google_api_server.py --dir DIR --port-file PORT_FILE --cert CERT --key KEY --public-key PUB
                            --client-email EMAIL --package PKG --bucket BUCKET [--lifetime S]
"""
import argparse
import base64
import hashlib
import http.server
import json
import math
import os
import secrets
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import loopback_tls

SCOPE = ("https://www.googleapis.com/auth/androidpublisher "
         "https://www.googleapis.com/auth/devstorage.read_only")
GRANT = "urn:ietf:params:oauth:grant-type:jwt-bearer"


def b64url_decode(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class State:
    def __init__(self, args):
        self.args = args
        self.lock = threading.Lock()
        self.tokens = {}  # access token -> uses so far
        self.limited = set()
        self.cache = {}  # fixture name -> ((mtime, size), parsed value)
        self.started_ms = int(time.time() * 1000)

    def path(self, name):
        return os.path.join(self.args.dir, name)

    def json_file(self, name, default):
        """The fixture `name`, parsed again only when the test rewrote it (its mtime and size changed)."""
        try:
            info = os.stat(self.path(name))
        except FileNotFoundError:
            return default
        stamp = (info.st_mtime_ns, info.st_size)
        with self.lock:
            cached = self.cache.get(name)
            if cached is not None and cached[0] == stamp:
                return cached[1]
        with open(self.path(name), "rb") as f:
            value = json.load(f)
        with self.lock:
            self.cache[name] = (stamp, value)
        return value

    def faults(self):
        return self.json_file("faults.json", {})

    def log(self, entry):
        with self.lock:
            with open(self.path("log.jsonl"), "a") as f:
                f.write(json.dumps(entry, sort_keys=True) + "\n")


def verify_assertion(state, assertion):
    """The reason the assertion is refused, or None when its signature and claims are good."""
    parts = assertion.split(".")
    if len(parts) != 3:
        return "not a JWS"
    try:
        header = json.loads(b64url_decode(parts[0]))
        claims = json.loads(b64url_decode(parts[1]))
        signature = b64url_decode(parts[2])
    except ValueError:
        return "header, claims or signature do not decode"
    if header.get("alg") != "RS256" or header.get("typ") != "JWT":
        return "header is not {alg: RS256, typ: JWT}"
    with tempfile.TemporaryDirectory() as scratch:
        data = os.path.join(scratch, "data")
        sig = os.path.join(scratch, "sig.bin")
        with open(data, "wb") as f:
            f.write((parts[0] + "." + parts[1]).encode("ascii"))
        with open(sig, "wb") as f:
            f.write(signature)
        result = subprocess.run(
            ["openssl", "dgst", "-sha256", "-verify", state.args.public_key, "-signature", sig, data],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if result.returncode != 0:
        return "signature does not verify"
    now = time.time()
    if claims.get("iss") != state.args.client_email:
        return "iss is not the service account"
    if claims.get("scope") != SCOPE:
        return "scope is not androidpublisher + devstorage.read_only"
    if claims.get("aud") != state.args.audience:
        return "aud is not the token URL"
    iat, exp = claims.get("iat"), claims.get("exp")
    if not isinstance(iat, int) or not isinstance(exp, int):
        return "iat/exp are not integers"
    if abs(iat - now) > 300 or exp <= iat or exp - iat > 3600 or exp < now:
        return "iat/exp out of range"
    return None


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "FakeGoogle/1.0"
    # Small answers go out at once (Nagle's algorithm and the client's delayed ACK would hold each ~40 ms).
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    @property
    def state(self):
        return self.server.state

    def send(self, status, body, content_type="application/json; charset=UTF-8", headers=None, entry=None):
        if isinstance(body, (dict, list)):
            body = json.dumps(body).encode("utf-8")
        # Logged before the answer goes out, so a client that has its answer finds the request in the log.
        record = {"method": self.command, "path": self.parsed.path, "query": self.query, "status": status}
        record.update(entry or {})
        self.state.log(record)
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(body)

    def error(self, status, message, reason):
        self.send(status, {"error": {"code": status, "message": message, "status": reason}})

    def do_POST(self):
        self.parse()
        length = int(self.headers.get("Content-Length", "0"))
        form = urllib.parse.parse_qs(self.rfile.read(length).decode("utf-8"))
        if self.parsed.path != "/token":
            return self.error(404, "not found", "NOT_FOUND")
        if form.get("grant_type") != [GRANT] or len(form.get("assertion", [])) != 1:
            return self.send(400, {"error": "unsupported_grant_type"}, entry={"verified": False})
        refused = verify_assertion(self.state, form["assertion"][0])
        if refused is None and self.state.faults().get("rejectToken"):
            refused = "refused by faults.json"
        if refused is not None:
            return self.send(400, {"error": "invalid_grant", "error_description": refused},
                             entry={"verified": False, "refused": refused})
        token = "ya29.test-" + secrets.token_urlsafe(24)
        with self.state.lock:
            self.state.tokens[token] = 0
            with open(self.state.path("issued.txt"), "a") as f:  # for the tests' leak check only
                f.write(token + "\n")
        self.send(200, {"access_token": token, "expires_in": 3599, "token_type": "Bearer"},
                  entry={"verified": True})

    def do_GET(self):
        self.parse()
        faults = self.state.faults()
        path = self.parsed.path
        for marker in faults.get("rateLimitOnce", []):
            if marker in path and marker not in self.state.limited:
                self.state.limited.add(marker)
                return self.send(429, {"error": {"code": 429, "message": "Rate limit", "status":
                                                 "RESOURCE_EXHAUSTED"}}, headers={"Retry-After": "1"})
        if not self.authorized(faults):
            return self.send(401, {"error": {"code": 401, "message": "Request had invalid authentication "
                                             "credentials.", "status": "UNAUTHENTICATED"}},
                             headers={"WWW-Authenticate": "Bearer realm=\"https://accounts.google.com/\""})
        if any(marker in path for marker in faults.get("html", [])):
            page = b"<!DOCTYPE html><html><body><h1>502 Bad Gateway</h1></body></html>"
            return self.send(200, page, content_type="text/html; charset=UTF-8")
        status, body, content_type = self.route(path, faults)
        if status == 200 and any(marker in path for marker in faults.get("truncate", [])):
            body = body[: len(body) // 2]
        self.send(status, body, content_type=content_type)

    def parse(self):
        self.parsed = urllib.parse.urlsplit(self.path)
        self.query = {k: v[0] for k, v in urllib.parse.parse_qs(self.parsed.query).items()}

    def authorized(self, faults):
        if faults.get("alwaysUnauthorized"):
            return False
        value = self.headers.get("Authorization", "")
        if not value.startswith("Bearer "):
            return False
        token = value[len("Bearer "):]
        with self.state.lock:
            if token not in self.state.tokens:
                return False
            self.state.tokens[token] += 1
            limit = faults.get("expireTokenAfter")
            return limit is None or self.state.tokens[token] <= limit

    def route(self, path, faults):
        app = "/androidpublisher/v3/applications/" + self.state.args.package
        if path == app + "/orders:batchGet" or path.startswith(app + "/orders/"):
            return self.orders(path, app)
        api = app + "/purchases/"
        storage = "/storage/v1/b/" + self.state.args.bucket + "/o"
        if path.startswith(api + "subscriptionsv2/tokens/"):
            token = urllib.parse.unquote(path[len(api + "subscriptionsv2/tokens/"):])
            resource = self.state.json_file("subscriptions.json", {}).get(token)
            if resource is None:
                return 404, json.dumps({"error": {"code": 404, "message": "The purchase token was not found.",
                                                  "status": "NOT_FOUND"}}).encode(), "application/json"
            return 200, json.dumps(resource).encode(), "application/json; charset=UTF-8"
        if path == api + "voidedpurchases":
            return self.voided()
        if path == storage:
            return self.objects(faults)
        if path.startswith(storage + "/") and self.query.get("alt") == "media":
            name = urllib.parse.unquote(path[len(storage + "/"):])
            file = os.path.join(self.state.path("bucket"), name)
            if ".." in name.split("/") or not os.path.isfile(file):
                return 404, b'{"error": {"code": 404, "message": "No such object"}}', "application/json"
            with open(file, "rb") as f:
                return 200, f.read(), "application/zip"
        return 404, b'{"error": {"code": 404, "message": "Not Found"}}', "application/json"

    def orders(self, path, app):
        known = self.state.json_file("orders.json", {})
        if path.startswith(app + "/orders/"):
            ids = [urllib.parse.unquote(path[len(app + "/orders/"):])]
        else:
            ids = urllib.parse.parse_qs(self.parsed.query).get("orderIds", [])
        if not ids or any(i not in known for i in ids):  # Google fails the whole call for one unknown id
            return 404, json.dumps({"error": {"code": 404, "message": "Order not found.",
                                              "status": "NOT_FOUND"}}).encode(), "application/json"
        orders = [{"orderId": i, "purchaseToken": known[i], "state": "PROCESSED"} for i in ids]
        body = orders[0] if path.startswith(app + "/orders/") else {"orders": orders}
        return 200, json.dumps(body).encode(), "application/json; charset=UTF-8"

    def pages(self, items, size):
        """Items from the page the query's token names, and the next page's token (or None)."""
        start = int(self.query.get("token", self.query.get("pageToken", "p0"))[1:] or 0)
        end = start + size
        return items[start:end], ("p%d" % end if end < len(items) else None)

    def voided(self):
        start = int(self.query.get("startTime", "0"))
        if start < int(time.time() * 1000) - 31 * 86_400_000:
            return 400, json.dumps({"error": {"code": 400, "message": "startTime is too far in the past",
                                              "status": "INVALID_ARGUMENT"}}).encode(), "application/json"
        items = [v for v in self.state.json_file("voided.json", [])
                 if v.get("_recordedMillis", self.state.started_ms) >= start]
        size = min(int(self.query.get("maxResults", "1000")), max(1, math.ceil(len(items) / 2)))
        page, next_token = self.pages(items, size)
        body = {"voidedPurchases": [{k: v for k, v in e.items() if k != "_recordedMillis"} for e in page],
                "pageInfo": {"totalResults": len(items), "resultPerPage": size}}
        if next_token:
            body["tokenPagination"] = {"nextPageToken": next_token}
        return 200, json.dumps(body).encode(), "application/json; charset=UTF-8"

    def objects(self, faults):
        prefix = self.query.get("prefix", "")
        root = self.state.path("bucket")
        generations = self.state.json_file("generations.json", {})
        names = []
        for folder, _, files in os.walk(root):
            for file in files:
                name = os.path.relpath(os.path.join(folder, file), root)
                if name.startswith(prefix):
                    names.append(name)
        names.sort()
        page, next_token = self.pages(names, max(1, math.ceil(len(names) / 2)))
        items = []
        for name in page:
            with open(os.path.join(root, name), "rb") as f:
                data = f.read()
            md5 = hashlib.md5(data + (b"x" if name in faults.get("badMd5", []) else b"")).digest()
            items.append({"kind": "storage#object", "name": name, "bucket": self.state.args.bucket,
                          "generation": str(generations.get(name, "1")), "size": str(len(data)),
                          "md5Hash": base64.b64encode(md5).decode("ascii"),
                          "contentType": "application/zip"})
        body = {"kind": "storage#objects", "items": items}
        if next_token:
            body["nextPageToken"] = next_token
        return 200, json.dumps(body).encode(), "application/json; charset=UTF-8"


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True


def main():
    parser = argparse.ArgumentParser()
    for name in ["--dir", "--port-file", "--cert", "--key", "--public-key", "--client-email", "--package",
                 "--bucket"]:
        parser.add_argument(name, required=True)
    parser.add_argument("--lifetime", type=float, default=180)
    args = parser.parse_args()
    server = Server(("127.0.0.1", 0), Handler)
    port = server.server_address[1]
    args.audience = "https://127.0.0.1:%d/token" % port
    server.state = State(args)
    loopback_tls.serve(server, args.cert, args.key, args.port_file, args.lifetime)
    return 0


if __name__ == "__main__":
    sys.exit(main())
