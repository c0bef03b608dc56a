"""The Jadwal server, as the bridge reaches it: loopback only, with the token the server made."""

from __future__ import annotations

import base64
import ipaddress
import json
import urllib.error
import urllib.request
from urllib.parse import urlsplit

BATCH_SIZE = 500  # well under the connector's 1,000 messages per batch


class ServerError(Exception):
    pass


class Server:
    def __init__(self, url: str, token: str, timeout: float = 30):
        host = urlsplit(url).hostname or ""
        if host != "localhost" and not _loopback(host):
            raise ServerError(f"{url}: the bridge talks to Jadwal over loopback only")
        self.base = url.rstrip("/") + "/internal/whatsapp"
        self.token = token
        self.timeout = timeout

    def work(self) -> list[dict]:
        """The links to serve: waiting ones to pair, linked ones with their sessions."""
        return self._call("GET", "/links")["links"]

    def report(self, account: str, body: dict) -> None:
        self._call("POST", f"/accounts/{account}/events", body)

    def save_session(self, account: str, data: bytes) -> None:
        self._call("PUT", f"/accounts/{account}/session", {"session": base64.b64encode(data).decode()})

    def deliver(self, account: str, messages: list[dict]) -> None:
        for start in range(0, len(messages), BATCH_SIZE):
            self._call("POST", f"/accounts/{account}/messages", {"messages": messages[start:start + BATCH_SIZE]})

    def _call(self, method: str, path: str, body: dict | None = None) -> dict:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        request.add_header("Authorization", f"Bearer {self.token}")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                raw = response.read()
        except urllib.error.HTTPError as error:
            raise ServerError(f"{method} {path}: HTTP {error.code} {error.read()[:300]!r}") from None
        except (urllib.error.URLError, OSError) as error:
            raise ServerError(f"{method} {path}: {error}") from None
        return json.loads(raw) if raw else {}


def _loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
