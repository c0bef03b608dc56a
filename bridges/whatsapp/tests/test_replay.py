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
        self.codes, self.failures, self.events = [], [], []

    def code(self, code): self.codes.append(code)
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

    def test_only_library_event_classes_are_recorded(self):
        with self.assertRaises(ValueError):
            recording.line(recording.jid("x@y"))


if __name__ == "__main__":
    unittest.main()
