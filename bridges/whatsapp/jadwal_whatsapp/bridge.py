"""One process for every linked account: asks the server which links to serve, runs a device per
account, reports link changes, delivers messages as connector batches and hands the session back
to be sealed. It keeps no message text: each message is translated and posted at once."""

from __future__ import annotations

import base64
import logging
import os
import shutil
import tempfile
import threading
import time
from typing import Callable

from google.protobuf.message import Message as Proto
from neonize.proto.Neonize_pb2 import HistorySync, Message as MessageEv, Receipt

from . import translate
from .link import LinkMachine, Report
from .server import Server, ServerError

log = logging.getLogger("jadwal.whatsapp")

ClientFactory = Callable[[str, str, "AccountLink"], object]


class InFlight:
    """Deliveries under way, so a stopping bridge lets them land before it exits."""

    def __init__(self):
        self._count = 0
        self._idle = threading.Condition()

    def __enter__(self):
        with self._idle:
            self._count += 1

    def __exit__(self, *_):
        with self._idle:
            self._count -= 1
            if self._count == 0:
                self._idle.notify_all()

    def wait_idle(self, timeout: float) -> bool:
        with self._idle:
            return self._idle.wait_for(lambda: self._count == 0, timeout)


class AccountLink:
    """One account's device: its link machine, its client and its session file."""

    def __init__(self, account: str, work: dict, server: Server, directory: str, factory: ClientFactory, in_flight: InFlight | None = None):
        self.account = account
        self.in_flight = in_flight or InFlight()
        self.attempt = work.get("attempt")
        self.server = server
        self.history_days = int(work.get("historyDays", 7))
        self.session_path = os.path.join(directory, f"{account}.sqlite")
        session = work.get("session")
        if session:
            with open(self.session_path, "wb") as handle:
                handle.write(base64.b64decode(session))
        linked = work.get("state") == "linked"
        self.machine = LinkMachine(linked=linked, jid=work.get("jid"))
        self.lock = threading.Lock()
        self.saved_stamp: tuple[float, int] | None = self._stamp()
        self.client = factory(account, self.session_path, self)
        wants_qr = not linked and work.get("method") == "qr"
        self.client.start(None if linked or wants_qr else work.get("phone"), qr=wants_qr)

    # Sink: called from the client's threads.

    def code(self, code: str) -> None:
        with self.lock:
            self._send(self.machine.code(code))

    def qr(self, payload: str) -> None:
        with self.lock:
            self._send(self.machine.qr(payload))

    def pairing_failed(self, reason: str) -> None:
        with self.lock:
            self._send(self.machine.pairing_failed(reason))

    def event(self, event: Proto) -> None:
        try:
            if isinstance(event, MessageEv):
                translated = translate.from_message(event, self.machine.jid)
                if isinstance(translated, dict):
                    with self.in_flight:
                        self.server.deliver(self.account, [translated])
                return
            if isinstance(event, HistorySync):
                with self.in_flight:
                    self.server.deliver(self.account, translate.from_history(event, self.machine.jid, self.history_days))
                return
            if isinstance(event, Receipt):
                return
            with self.lock:
                report = self.machine.event(event)
                if report is not None and report.event == "linked":
                    self.save_session()  # before the server calls it linked, so a restart finds it
                self._send(report)
        except ServerError as error:
            log.warning("account %s: %s", self.account, error)

    def _send(self, report: Report | None) -> None:
        if report is not None:
            self.server.report(self.account, report.json())

    # Session

    def _stamp(self) -> tuple[float, int] | None:
        try:
            info = os.stat(self.session_path)
        except FileNotFoundError:
            return None
        return (info.st_mtime, info.st_size)

    def save_session(self) -> None:
        """Hands the device store to the server when it changed (whatsmeow updates it as keys turn)."""
        stamp = self._stamp()
        if stamp is None or stamp == self.saved_stamp:
            return
        with open(self.session_path, "rb") as handle:
            data = handle.read()
        self.server.save_session(self.account, data)
        self.saved_stamp = stamp

    def close(self, logout: bool) -> None:
        try:
            if logout:
                self.client.logout()  # removes the device from the person's phone too
        except Exception as error:
            log.warning("account %s: logout failed: %s", self.account, error)
        self.client.stop()
        for suffix in ("", "-wal", "-shm", "-journal"):
            try:
                os.remove(self.session_path + suffix)
            except FileNotFoundError:
                pass


class Bridge:
    def __init__(self, server: Server, factory: ClientFactory, directory: str | None = None):
        self.server = server
        self.factory = factory
        self.own_directory = directory is None
        # The working copies of the sessions: readable by this user only, gone when the bridge stops.
        self.directory = directory or tempfile.mkdtemp(prefix="jadwal-wa-")
        os.chmod(self.directory, 0o700)
        self.links: dict[str, AccountLink] = {}
        self.stopping = threading.Event()
        self.in_flight = InFlight()

    def sync(self) -> None:
        """Starts the links the server lists, stops the ones it no longer lists, saves sessions."""
        wanted = {item["accountId"]: item for item in self.server.work()}
        for account, link in list(self.links.items()):
            work = wanted.get(account)
            if work is None or (work.get("state") == "waiting" and work.get("attempt") != link.attempt):
                # Cancelled, unlinked, logged out, expired, or a new code asked for.
                del self.links[account]
                link.close(logout=work is None and link.machine.state == "linked")
        for account, work in wanted.items():
            if account not in self.links:
                self.links[account] = AccountLink(account, work, self.server, self.directory, self.factory, self.in_flight)
        for link in self.links.values():
            if link.machine.state == "linked":
                try:
                    link.save_session()
                except ServerError as error:
                    log.warning("account %s: saving the session: %s", link.account, error)

    def run(self, poll_seconds: float = 2.0) -> None:
        while not self.stopping.is_set():
            try:
                self.sync()
            except ServerError as error:
                log.warning("%s", error)
            self.stopping.wait(poll_seconds)
        self.shutdown()

    # Below the server's 10 s before it kills a bridge that does not stop.
    DRAIN_SECONDS = 8.0

    def shutdown(self) -> None:
        """Stops taking events, lets the deliveries under way land (the server keeps listening
        until the bridge has exited), then hands back the sessions."""
        for link in self.links.values():
            link.client.stop()
        if not self.in_flight.wait_idle(self.DRAIN_SECONDS):
            log.warning("stopping with deliveries still under way after %.0f s", self.DRAIN_SECONDS)
        for link in self.links.values():
            try:
                if link.machine.state == "linked":
                    link.save_session()
            except ServerError as error:
                log.warning("account %s: saving the session: %s", link.account, error)
        self.links.clear()
        if self.own_directory:
            shutil.rmtree(self.directory, ignore_errors=True)
