#!/usr/bin/env python3
"""A stand-in for a browser's push service (RFC 8030), on loopback, for tests only.

Real push services (Google's, Mozilla's, Apple's) cannot be reached from the test machine, so
this plays both of their parts that matter to Jadwal: it makes browser subscriptions (a P-256
key pair and an auth secret per subscription, as a browser does), and it receives what Jadwal
posts to them over HTTPS. Each message is checked with independent implementations from PyPI:
the VAPID JWT with py_vapid (signature) and its claims by RFC 8292's rules, and the body decrypted
with http_ece (RFC 8188 aes128gcm, RFC 8291 keys). What it saw is appended as JSON lines.

    push_service.py --cert CERT.pem --key KEY.pem --out DIR [--subscriptions ok,gone,busy]

It prints one JSON object when it listens: {"url": ..., "subscriptions": {name: {endpoint, keys}}}.
A subscription's name sets its answer: `ok` 201, `gone` 410, `missing` 404, `busy` 429 once then
201. Every request is recorded in DIR/received.jsonl, decrypted or with the reason it failed.
"""
import argparse
import base64
import json
import os
import signal
import ssl
import sys
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
import py_vapid
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Browser:
    """One subscription: what a browser keeps (its private key) and what it hands out."""

    def __init__(self, name: str):
        self.name = name
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        self.token = b64url(os.urandom(12))
        self.calls = 0

    def public(self) -> str:
        return b64url(self.key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint))


def check_vapid(header: str, origin: str) -> dict:
    """RFC 8292 §2–3: `vapid t=<JWT>,k=<key>`; the JWT signed by k (py_vapid), aud this origin,
    exp in the future and at most 24 hours ahead, sub a mailto: or https: address."""
    if not header:
        raise ValueError("no Authorization header")
    scheme, _, params = header.partition(" ")
    if scheme.lower() != "vapid":
        raise ValueError(f"Authorization scheme is {scheme!r}, not vapid")
    # RFC 7235 auth-params: "t=…, k=…" or "t=…,k=…"; py_vapid reads the second form.
    parts = dict(p.strip().split("=", 1) for p in params.split(","))
    if not py_vapid.Vapid02.verify("vapid t={},k={}".format(parts["t"], parts["k"])):
        raise ValueError("the VAPID signature does not verify with k")
    claims = json.loads(unb64url(parts["t"].split(".")[1]))
    header_json = json.loads(unb64url(parts["t"].split(".")[0]))
    if header_json.get("alg") != "ES256":
        raise ValueError(f"JWT alg is {header_json.get('alg')!r}")
    if claims.get("aud") != origin:
        raise ValueError(f"aud is {claims.get('aud')!r}, not {origin!r}")
    now = time.time()
    if not (now < claims.get("exp", 0) <= now + 24 * 3600 + 60):
        raise ValueError(f"exp {claims.get('exp')} is not within 24 hours from now ({int(now)})")
    sub = claims.get("sub", "")
    if not (sub.startswith("mailto:") or sub.startswith("https://")):
        raise ValueError(f"sub {sub!r} is not a mailto: or https: address")
    return {"claims": claims, "k": parts["k"]}


def main() -> int:
    # A test runner may start this with SIGTERM blocked (its threads block signals and children
    # inherit the mask): unblock it, so the test can stop this server.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    parser = argparse.ArgumentParser()
    parser.add_argument("--cert", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--subscriptions", default="ok")
    args = parser.parse_args()

    browsers = {name: Browser(name) for name in args.subscriptions.split(",")}
    by_token = {b.token: b for b in browsers.values()}
    received = os.path.join(args.out, "received.jsonl")

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *_):
            pass

        def do_POST(self):
            length = int(self.headers.get("Content-Length", "0"))
            body = self.rfile.read(length)
            token = urllib.parse.urlparse(self.path).path.rsplit("/", 1)[-1]
            browser = by_token.get(token)
            record = {"subscription": browser.name if browser else None, "path": self.path, "bytes": len(body),
                      "headers": {k: self.headers[k] for k in ("TTL", "Urgency", "Topic", "Content-Encoding", "Content-Type")}}
            status = 404
            if browser:
                browser.calls += 1
                try:
                    if self.headers.get("Content-Encoding") != "aes128gcm":
                        raise ValueError(f"Content-Encoding is {self.headers.get('Content-Encoding')!r}")
                    if self.headers.get("TTL") is None:
                        raise ValueError("no TTL header (RFC 8030 §5.2 requires one)")
                    record["vapid"] = check_vapid(self.headers.get("Authorization", ""), origin)
                    plain = http_ece.decrypt(body, private_key=browser.key, auth_secret=browser.auth, version="aes128gcm")
                    record["message"] = json.loads(plain.decode("utf-8"))
                    status = {"ok": 201, "gone": 410, "missing": 404}.get(browser.name, 201)
                    if browser.name == "busy" and browser.calls == 1:
                        status = 429
                except Exception as error:  # recorded for the test to read; the push service says 400
                    record["error"] = f"{type(error).__name__}: {error}"
                    status = 400
            record["status"] = status
            with open(received, "a", encoding="utf-8") as out:
                out.write(json.dumps(record) + "\n")
            self.send_response(status)
            if status == 201:
                self.send_header("Location", f"/message/{b64url(os.urandom(8))}")
            if status == 429:
                self.send_header("Retry-After", "1")
            self.send_header("Content-Length", "0")
            self.end_headers()

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(args.cert, args.key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    port = server.server_address[1]
    origin = f"https://127.0.0.1:{port}"
    described = {
        "url": origin,
        "subscriptions": {
            b.name: {"endpoint": f"{origin}/wpush/{b.token}", "keys": {"p256dh": b.public(), "auth": b64url(b.auth)}}
            for b in browsers.values()
        },
    }
    print(json.dumps(described, indent=1), flush=True)
    try:
        server.serve_forever()
    except (KeyboardInterrupt, SystemExit):
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
