"""Recordings hold neonize's event objects, and the replay client hands them back as they were."""

import os
import sqlite3
import tempfile
import unittest

from neonize.proto.Neonize_pb2 import Connected, LoggedOut, Message as MessageEv, PairStatus

from jadwal_whatsapp import recording, translate
from jadwal_whatsapp.clients import ReplayClient

SPEC = {
    "code": "JDWL2026", "me": "966500000001@s.whatsapp.net", "partner": "966500000002@s.whatsapp.net",
    "messages": [
        {"fromMe": False, "text": "Dinner tomorrow at 8pm?", "at": 1_795_000_000},
        {"fromMe": True, "text": "Deal 👍", "at": "2026-11-18T10:00:30+00:00"},
    ],
    "loggedOutAfter": True,
}


class Collected:
    def __init__(self):
        self.codes, self.failures, self.events, self.qrs = [], [], [], []

    def code(self, code): self.codes.append(code)
    def qr(self, payload): self.qrs.append(payload)
    def pairing_failed(self, reason): self.failures.append(reason)
    def event(self, event): self.events.append(event)


class Replay(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.path = os.path.join(self.dir, "rec.jsonl")
        with open(self.path, "w") as out:
            out.write("\n".join(recording.conversation_recording(SPEC)) + "\n")

    def test_events_come_back_as_their_classes(self):
        code, events = recording.read(self.path)
        self.assertEqual(code, "JDWL2026")
        self.assertEqual([type(e) for _, e in events], [PairStatus, Connected, MessageEv, MessageEv, LoggedOut])
        first = translate.from_message(events[2][1], SPEC["me"])
        self.assertEqual((first["text"], first["fromMe"], first["timestamp"]), ("Dinner tomorrow at 8pm?", False, 1_795_000_000))

    def test_a_new_link_gets_the_code_and_a_session_file(self):
        sink = Collected()
        session = os.path.join(self.dir, "a.sqlite")
        client = ReplayClient("a", session, sink, self.path, sleep=lambda _: None)
        client.start("+966500000001")
        client._thread.join(5)
        self.assertEqual(sink.codes, ["JDWL2026"])
        self.assertEqual(len(sink.events), 5)
        with sqlite3.connect(session) as db:
            self.assertEqual(db.execute("SELECT jid FROM replay_device").fetchall(), [("966500000001@s.whatsapp.net",)])

    def test_a_reconnect_does_not_pair_again(self):
        sink = Collected()
        client = ReplayClient("a", os.path.join(self.dir, "b.sqlite"), sink, self.path, sleep=lambda _: None)
        client.start(None)
        client._thread.join(5)
        self.assertEqual(sink.codes, [])
        self.assertNotIn(PairStatus, [type(e) for e in sink.events])

    def test_a_qr_link_gets_the_recorded_qr_codes_in_turn_and_no_pairing_code(self):
        path = os.path.join(self.dir, "qr.jsonl")
        with open(path, "w") as out:
            out.write("\n".join(recording.conversation_recording({**SPEC, "qrs": ["2@first,k1", "2@second,k2"]})) + "\n")
        sink = Collected()
        client = ReplayClient("a", os.path.join(self.dir, "q.sqlite"), sink, path, sleep=lambda _: None)
        client.start(None, qr=True)
        client._thread.join(5)
        self.assertEqual(sink.qrs, ["2@first,k1", "2@second,k2"])
        self.assertEqual(sink.codes, [])
        self.assertIn(PairStatus, [type(e) for e in sink.events])

    def test_edits_deletions_and_history_are_recorded_as_the_library_sends_them(self):
        spec = {**SPEC, "loggedOutAfter": False, "history": [{"chat": SPEC["partner"], "messages": [
            {"fromMe": False, "id": "H1", "text": "old news", "at": 1_795_000_000 - 3600}]}],
            "messages": [
                {"fromMe": False, "id": "M1", "text": "Dinner tomorrow at 8pm?", "at": 1_795_000_000},
                {"fromMe": False, "id": "M2", "edit": "M1", "text": "Dinner tomorrow at 9pm?", "at": 1_795_000_030},
                {"fromMe": False, "id": "M3", "revoke": "M1", "at": 1_795_000_060},
            ]}
        path = os.path.join(self.dir, "edits.jsonl")
        with open(path, "w") as out:
            out.write("\n".join(recording.conversation_recording(spec)) + "\n")
        _, events = recording.read(path)
        history = [e for _, e in events if type(e).__name__ == "HistorySync"]
        self.assertEqual(len(history), 1)
        self.assertEqual([m["messageId"] for m in translate.from_history(history[0], SPEC["me"], 7, now=1_795_000_000)], ["H1"])
        live = [translate.from_message(e, SPEC["me"]) for _, e in events if isinstance(e, MessageEv)]
        self.assertEqual(live[0]["messageId"], "M1")
        self.assertEqual((live[1]["messageId"], live[1]["replaces"], live[1]["text"]), ("M2", "M1", "Dinner tomorrow at 9pm?"))
        self.assertEqual(live[2], {"chatId": SPEC["partner"], "messageId": "M1", "deleted": True})

    def test_only_library_event_classes_are_recorded(self):
        with self.assertRaises(ValueError):
            recording.line(recording.jid("x@y"))


if __name__ == "__main__":
    unittest.main()
