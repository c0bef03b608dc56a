"""The link state machine, driven by neonize's own event classes."""

import unittest

from neonize.proto.Neonize_pb2 import (
    ClientOutdated, Connected, ConnectFailureReason, LoggedOut, Node, StreamError, TemporaryBan,
)

from jadwal_whatsapp.link import LinkMachine
from jadwal_whatsapp.recording import connect_failure, pairing_error, paired, roundtrip

ME = "966500000001@s.whatsapp.net"


class LinkStates(unittest.TestCase):
    def test_code_then_paired_then_connected_is_linked_once(self):
        machine = LinkMachine()
        self.assertEqual(machine.code("ABCD1234").json(), {"event": "code", "code": "ABCD1234"})
        self.assertEqual(machine.state, "waiting")
        self.assertIsNone(machine.event(roundtrip(paired(ME))))
        self.assertEqual(machine.event(roundtrip(Connected(status=True))).json(), {"event": "linked", "jid": "966500000001@s.whatsapp.net"})
        self.assertEqual(machine.state, "linked")
        self.assertIsNone(machine.event(roundtrip(Connected(status=True))), "a reconnect is not a new link")
        self.assertIsNone(machine.code("ZZZZ9999"), "a linked device shows no code")

    def test_qr_codes_turn_until_the_phone_scans_one(self):
        machine = LinkMachine()
        self.assertEqual(machine.qr("2@one,k").json(), {"event": "qr", "qr": "2@one,k"})
        self.assertEqual(machine.qr("2@two,k").json(), {"event": "qr", "qr": "2@two,k"}, "each new code is shown")
        self.assertIsNone(machine.event(roundtrip(paired(ME))))
        self.assertEqual(machine.event(roundtrip(Connected(status=True))).json(), {"event": "linked", "jid": ME})
        self.assertIsNone(machine.qr("2@three,k"), "a linked device shows no QR code")

    def test_pairing_error(self):
        machine = LinkMachine()
        machine.code("ABCD1234")
        report = machine.event(roundtrip(pairing_error("code rejected")))
        self.assertEqual(report.json(), {"event": "failed", "reason": "code rejected"})
        self.assertIsNone(machine.event(roundtrip(pairing_error("again"))), "told once")

    def test_pair_phone_refused(self):
        self.assertEqual(LinkMachine().pairing_failed("invalid phone number").reason, "invalid phone number")

    def test_logged_out_from_the_phone(self):
        machine = LinkMachine(linked=True, jid="966500000001@s.whatsapp.net")
        report = machine.event(roundtrip(LoggedOut(OnConnect=False, Reason=ConnectFailureReason.LOGGED_OUT)))
        self.assertEqual(report.json(), {"event": "logged_out", "reason": "logged_out"})
        self.assertIsNone(machine.event(roundtrip(LoggedOut(OnConnect=True, Reason=ConnectFailureReason.LOGGED_OUT))))

    def test_connect_failure_logged_out_on_reconnect(self):
        machine = LinkMachine(linked=True)
        self.assertEqual(machine.event(roundtrip(connect_failure(ConnectFailureReason.LOGGED_OUT))).event, "logged_out")

    def test_other_failures_say_why(self):
        self.assertEqual(LinkMachine().event(roundtrip(connect_failure(ConnectFailureReason.SERVICE_UNAVAILABLE, "503"))).reason,
                         "service_unavailable: 503")
        self.assertIn("temporarily banned", LinkMachine(linked=True).event(roundtrip(TemporaryBan(Code=TemporaryBan.SEND_TO_TOO_MANY_PEOPLE, Expire=3600))).reason)
        self.assertIn("client_outdated", LinkMachine().event(roundtrip(ClientOutdated())).reason)

    def test_stream_error_of_a_linked_device_is_left_to_whatsmeow(self):
        self.assertIsNone(LinkMachine(linked=True).event(roundtrip(StreamError(Code="515", Raw=Node(Tag="stream:error")))))
        self.assertEqual(LinkMachine().event(roundtrip(StreamError(Code="401", Raw=Node(Tag="stream:error")))).event, "failed")


if __name__ == "__main__":
    unittest.main()
