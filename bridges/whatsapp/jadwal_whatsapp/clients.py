"""One linked device per account: neonize's client, or the replay of a recording.

Both hand the bridge the same things: the pairing code (or why pairing was refused) and neonize's
event objects, and both keep the device's session in the SQLite file at `session_path`.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from typing import Callable, Protocol

from google.protobuf.message import Message as Proto

from . import recording

log = logging.getLogger("jadwal.whatsapp")


class Sink(Protocol):
    def code(self, code: str) -> None: ...
    def qr(self, payload: str) -> None: ...
    def pairing_failed(self, reason: str) -> None: ...
    def event(self, event: Proto) -> None: ...


class LiveClient:
    """neonize's client: whatsmeow connected to WhatsApp as a linked device."""

    def __init__(self, account: str, session_path: str, sink: Sink):
        from neonize.client import NewClient
        from neonize.events import (
            ClientOutdatedEv, ConnectedEv, ConnectFailureEv, HistorySyncEv, LoggedOutEv, MessageEv, PairStatusEv, ReceiptEv,
            StreamErrorEv, StreamReplacedEv, TemporaryBanEv,
        )

        self.sink = sink
        self.phone: str | None = None
        self.show_qr = False
        self._asked = False
        # The name is the device store's SQLite file; uuid keeps accounts apart in one process.
        self.client = NewClient(session_path, uuid=account)
        for kind in (MessageEv, ReceiptEv, HistorySyncEv, PairStatusEv, ConnectedEv, LoggedOutEv, ConnectFailureEv, TemporaryBanEv,
                     ClientOutdatedEv, StreamReplacedEv, StreamErrorEv):
            self.client.event(kind)(self._forward)
        self.client.event.qr(self._ready_to_pair)
        self._thread: threading.Thread | None = None
        self._stopped = threading.Event()

    def _forward(self, _client, event: Proto) -> None:
        self.sink.event(event)

    def _ready_to_pair(self, _client, qr: bytes) -> None:
        # whatsmeow asks for a QR scan once the socket is up, and again each time the code
        # turns; that is also when a phone code can be asked for.
        if self.show_qr:
            self.sink.qr(qr.decode() if isinstance(qr, (bytes, bytearray)) else str(qr))
            return
        if self.phone and not self._asked:
            self._asked = True
            threading.Thread(target=self._pair, daemon=True).start()

    def _pair(self) -> None:
        try:
            code = self.client.PairPhone(self.phone, show_push_notification=True)
        except Exception as error:  # PairPhoneError, and anything the library raises on a bad number
            self.sink.pairing_failed(str(error))
            return
        self.sink.code(code)

    def start(self, phone: str | None, qr: bool = False) -> None:
        self.phone = phone
        self.show_qr = qr
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        delay = 2.0
        while not self._stopped.is_set():
            try:
                self.client.connect()
                return  # stopped
            except Exception as error:  # NeonizeError: the first dial failed
                if self.phone or self.show_qr:
                    # Someone is waiting for a code: say why there is none instead of retrying.
                    self.sink.pairing_failed(f"cannot reach WhatsApp: {error}")
                    return
                log.warning("cannot reach WhatsApp, again in %.0f s: %s", delay, error)
            self._stopped.wait(delay)
            delay = min(delay * 2, 300.0)

    def stop(self) -> None:
        self._stopped.set()
        self.client.stop()

    def logout(self) -> None:
        self.client.logout()


class ReplayClient:
    """Replays a recording: the code it holds, then its events, in order and at their delays.
    Its session is a real SQLite file naming the linked number, so sealing and restoring the
    session runs as it does for neonize's store."""

    def __init__(self, account: str, session_path: str, sink: Sink, path: str, sleep: Callable[[float], None] | None = None):
        self.account = account
        self.session_path = session_path
        self.sink = sink
        self.code, self.qrs, self.events = recording.read_all(path)
        self._stop = threading.Event()
        self._sleep = sleep or (lambda seconds: self._stop.wait(seconds))
        self._thread: threading.Thread | None = None

    def start(self, phone: str | None, qr: bool = False) -> None:
        self._thread = threading.Thread(target=self._run, args=(phone, qr), daemon=True)
        self._thread.start()

    def _run(self, phone: str | None, qr: bool = False) -> None:
        from neonize.proto.Neonize_pb2 import PairStatus

        events = self.events
        if qr:
            # The QR codes the recording holds, each shown for its delay, as whatsmeow turns them.
            for delay, payload in self.qrs or [(0.0, "2@replay,JDWL0000")]:
                self._sleep(delay)
                if self._stop.is_set():
                    return
                self.sink.qr(payload)
        elif phone is not None:
            self.sink.code(self.code or "JDWL0000")
        else:
            # Reconnecting with a stored session: no pairing again.
            events = [(delay, event) for delay, event in events if not isinstance(event, PairStatus)]
        for delay, event in events:
            self._sleep(delay)
            if self._stop.is_set():
                return
            if isinstance(event, PairStatus) and event.Status == PairStatus.SUCCESS:
                self._write_session(f"{event.ID.User}@{event.ID.Server}")
            self.sink.event(event)

    def _write_session(self, jid: str) -> None:
        with sqlite3.connect(self.session_path) as db:
            db.execute("CREATE TABLE IF NOT EXISTS replay_device (jid TEXT NOT NULL)")
            db.execute("DELETE FROM replay_device")
            db.execute("INSERT INTO replay_device VALUES (?)", (jid,))

    def stop(self) -> None:
        self._stop.set()

    def logout(self) -> None:
        self._stop.set()
