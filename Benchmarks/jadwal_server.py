"""A release `jadwal serve` for the benchmark scripts: a fresh SQLite data folder, one person in
Asia/Riyadh signed in through the magic link the server logs, and an app password for CalDAV."""

from __future__ import annotations

import base64
import http.client
import json
import re
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

EMAIL = "bench@example.com"


def run(cmd: list[str]) -> str:
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{done.stdout}{done.stderr}")
    return done.stdout


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Connection:
    """One keep-alive HTTP/1.1 connection with an Authorization header."""

    def __init__(self, port: int, auth: str):
        self.http = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        self.auth = auth

    def send(self, method: str, path: str, body: str | None = None, content_type: str = "application/json") -> tuple[int, bytes]:
        headers = {"Authorization": self.auth} if self.auth else {}
        if body is not None:
            headers["Content-Type"] = content_type
        self.http.request(method, path, body=body.encode() if body is not None else None, headers=headers)
        response = self.http.getresponse()
        return response.status, response.read()


class JadwalServer:
    """`with JadwalServer(binary) as server:` — server.api (Bearer), server.basic (CalDAV), server.home."""

    def __init__(self, binary: str, extra_args: list[str] | None = None, database_url: str | None = None):
        self.binary = str(Path(binary).resolve())
        self.extra_args = extra_args or []
        # An empty PostgreSQL database instead of SQLite in the data folder, when given.
        self.storage_args = ["--database-url", database_url] if database_url else []

    def __enter__(self) -> "JadwalServer":
        self.folder = tempfile.TemporaryDirectory(prefix="jadwal-bench-")
        data = Path(self.folder.name) / "data"
        run([self.binary, "user", "create", EMAIL, "--name", "Bench", "--time-zone", "Asia/Riyadh", "--data-dir", str(data)] + self.storage_args)
        created = run([self.binary, "app-password", "create", EMAIL, "--name", "bench", "--data-dir", str(data)] + self.storage_args)
        password = next(line.split(":", 1)[1].strip() for line in created.splitlines() if line.lower().startswith("password:"))
        self.port = free_port()
        self.log_path = Path(self.folder.name) / "server.log"
        with self.log_path.open("w") as log:
            self.process = subprocess.Popen(
                [self.binary, "serve", "--hostname", "127.0.0.1", "--port", str(self.port), "--data-dir", str(data), "--log-level", "notice"]
                + self.storage_args + self.extra_args, stdout=log, stderr=subprocess.STDOUT)
        try:
            self._sign_in(password)
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def _sign_in(self, password: str) -> None:
        for _ in range(300):
            try:
                probe = http.client.HTTPConnection("127.0.0.1", self.port, timeout=1)
                probe.request("GET", "/readyz")
                if probe.getresponse().status == 200:
                    break
            except OSError:
                time.sleep(0.1)
        anonymous = Connection(self.port, "")
        anonymous.send("POST", "/api/v1/auth/email", json.dumps({"email": EMAIL}))
        link = None
        for _ in range(100):
            link = re.search(r"auth/magic\?token=([A-Za-z0-9_-]+)", self.log_path.read_text())
            if link:
                break
            time.sleep(0.1)
        if not link:
            sys.exit("no sign-in link in the server log")
        _, body = anonymous.send("POST", "/api/v1/auth/magic", json.dumps({"token": link.group(1)}))
        session = json.loads(body)
        self.refresh_token = session["refreshToken"]
        self.access_token = session["accessToken"]
        self.api = Connection(self.port, "Bearer " + self.access_token)
        self.home = f"/dav/calendars/{session['account']['id'].lower()}/"
        self.basic = "Basic " + base64.b64encode(f"{EMAIL}:{password}".encode()).decode()

    def refresh(self) -> None:
        """A new access token (they last 5 minutes; a long run outlives one)."""
        _, body = Connection(self.port, "").send("POST", "/api/v1/auth/refresh", json.dumps({"refreshToken": self.refresh_token}))
        session = json.loads(body)
        self.refresh_token = session["refreshToken"]
        self.access_token = session["accessToken"]
        self.api = Connection(self.port, "Bearer " + self.access_token)

    def jobs_pending(self) -> float:
        """Jobs due now or running (queued reminders for next month do not count)."""
        _, body = self.api.send("GET", "/metrics")
        found = re.search(r"^jadwal_jobs_due ([0-9.e+]+)", body.decode(), re.MULTILINE)
        if not found:
            sys.exit("no jadwal_jobs_due in /metrics")
        return float(found.group(1))

    def wait_for_jobs(self) -> None:
        while self.jobs_pending() > 0:
            time.sleep(0.05)
        self.refresh()

    def __exit__(self, *exc) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.folder.cleanup()
