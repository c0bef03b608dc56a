"""The link state of one account, driven by neonize's events.

waiting (a code was asked for) -> linked (the phone accepted the code and the device connected)
                               -> failed (pairing error, refused connection, ban, outdated client)
linked -> logged_out (the person removed the device in WhatsApp, or WhatsApp did)
Each transition is reported once to the server, which owns the states the person sees.
"""

from __future__ import annotations

from dataclasses import dataclass

from neonize.proto.Neonize_pb2 import (
    ClientOutdated,
    Connected,
    ConnectFailure,
    ConnectFailureReason,
    LoggedOut,
    PairStatus,
    StreamError,
    StreamReplaced,
    TemporaryBan,
)

from .translate import jid_text


@dataclass(frozen=True)
class Report:
    """What the server is told: `event` is code | qr | linked | failed | logged_out."""
    event: str
    code: str | None = None
    jid: str | None = None
    reason: str | None = None
    qr: str | None = None

    def json(self) -> dict:
        body = {"event": self.event}
        for key in ("code", "jid", "reason", "qr"):
            value = getattr(self, key)
            if value is not None:
                body[key] = value
        return body


def failure_reason(reason: int) -> str:
    return ConnectFailureReason.Name(reason).lower() if reason in ConnectFailureReason.values() else f"reason_{reason}"


class LinkMachine:
    """One account's link; `state` is idle, waiting, linked, failed or logged_out."""

    def __init__(self, linked: bool = False, jid: str | None = None):
        self.state = "linked" if linked else "idle"
        self.jid = jid
        self._paired_jid: str | None = None

    def code(self, code: str) -> Report | None:
        """The pairing code PairPhone returned (also its callback). Only a new link shows one."""
        if self.state in ("linked", "logged_out"):
            return None
        self.state = "waiting"
        return Report("code", code=code)

    def qr(self, payload: str) -> Report | None:
        """A QR code to show (whatsmeow's `qr` callback): the first, then each as it turns."""
        if self.state in ("linked", "logged_out", "failed"):
            return None
        self.state = "waiting"
        return Report("qr", qr=payload)

    def pairing_failed(self, message: str) -> Report | None:
        """PairPhone itself refused (a number WhatsApp does not know, a malformed number)."""
        return self._fail(message or "pairing refused")

    def event(self, event) -> Report | None:
        """A library event; None when it changes nothing the server needs to know."""
        if isinstance(event, PairStatus):
            if event.Status == PairStatus.SUCCESS:
                self._paired_jid = jid_text(event.ID)
                return None  # linked once the device has connected with its new identity
            return self._fail(event.Error or "pairing failed")
        if isinstance(event, Connected):
            if self.state == "linked":
                return None  # a reconnect after a network drop
            if self.state in ("waiting", "idle"):
                self.state = "linked"
                self.jid = self._paired_jid or self.jid
                return Report("linked", jid=self.jid)
            return None
        if isinstance(event, LoggedOut):
            if self.state == "logged_out":
                return None
            self.state = "logged_out"
            return Report("logged_out", reason=failure_reason(event.Reason))
        if isinstance(event, ConnectFailure):
            if event.Reason == ConnectFailureReason.LOGGED_OUT:
                self.state = "logged_out"
                return Report("logged_out", reason="logged_out")
            return self._fail(failure_reason(event.Reason) + (f": {event.Message}" if event.Message else ""))
        if isinstance(event, TemporaryBan):
            return self._fail(f"temporarily banned ({TemporaryBan.TempBanReason.Name(event.Code).lower()}), for {event.Expire} s")
        if isinstance(event, ClientOutdated):
            return self._fail("client_outdated: this neonize is too old for WhatsApp; update bridges/whatsapp/requirements.txt")
        if isinstance(event, StreamReplaced):
            return self._fail("stream_replaced: another process connected with this session")
        if isinstance(event, StreamError):
            # whatsmeow reconnects after stream errors by itself; only an unlinked device fails.
            return None if self.state == "linked" else self._fail(f"stream error {event.Code}")
        return None

    def _fail(self, reason: str) -> Report | None:
        if self.state in ("failed", "logged_out"):
            return None
        self.state = "failed"
        return Report("failed", reason=reason)
