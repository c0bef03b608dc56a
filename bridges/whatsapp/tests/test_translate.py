"""neonize's own event objects, built with its protobuf classes, into connector messages."""

import unittest

from neonize.proto.Neonize_pb2 import Message as MessageEv, Receipt
from neonize.proto.waCommon.WACommon_pb2 import MessageKey
from neonize.proto.waE2E.WAWebProtobufsE2E_pb2 import (
    ExtendedTextMessage, FutureProofMessage, ImageMessage, Message, ProtocolMessage, ReactionMessage, StickerMessage, VideoMessage,
)

from jadwal_whatsapp import recording, translate

ME = "966500000001@s.whatsapp.net"
SARA_TEXT = "966500000002@s.whatsapp.net"
NOW = 1_795_000_000


def event(message: Message, *, sender=SARA_TEXT, chat=None, from_me=False, id="ABC", ts=NOW, device=3) -> MessageEv:
    """Built with every field the library fills, and parsed back the way it arrives."""
    return recording.roundtrip(recording.message_event(chat or sender, sender, from_me, id, ts, message, sender_device=device))


class MessageTranslation(unittest.TestCase):
    def test_plain_text_from_the_partner(self):
        out = translate.from_message(event(Message(conversation="Dinner tomorrow at 8?")), ME)
        self.assertEqual(out, {
            "chatId": SARA_TEXT, "messageId": "ABC", "sender": SARA_TEXT, "fromMe": False, "timestamp": NOW,
            "text": "Dinner tomorrow at 8?", "isGroup": False})

    def test_own_message_from_another_device_is_from_me(self):
        out = translate.from_message(
            event(Message(extendedTextMessage=ExtendedTextMessage(text="Deal 👍")), sender=ME, chat=SARA_TEXT, from_me=True, device=1), ME)
        self.assertTrue(out["fromMe"])
        self.assertEqual(out["sender"], ME)
        self.assertEqual(out["chatId"], SARA_TEXT)
        self.assertEqual(out["text"], "Deal 👍")

    def test_captions_are_words_and_bare_media_is_not(self):
        self.assertEqual(translate.from_message(event(Message(imageMessage=ImageMessage(caption="here at 7"))), ME)["text"], "here at 7")
        self.assertEqual(translate.from_message(event(Message(videoMessage=VideoMessage(caption="v"))), ME)["text"], "v")
        self.assertIsInstance(translate.from_message(event(Message(imageMessage=ImageMessage())), ME), translate.Skipped)
        self.assertIsInstance(translate.from_message(event(Message(stickerMessage=StickerMessage())), ME), translate.Skipped)
        self.assertIsInstance(translate.from_message(event(Message(reactionMessage=ReactionMessage(text="👍"))), ME), translate.Skipped)

    def test_disappearing_wrapper_is_read_through(self):
        wrapped = Message(ephemeralMessage=FutureProofMessage(message=Message(conversation="lunch at 1")))
        self.assertEqual(translate.from_message(event(wrapped), ME)["text"], "lunch at 1")

    def test_edit_carries_the_new_words_and_names_the_message_it_replaces(self):
        edit = ProtocolMessage(type=ProtocolMessage.MESSAGE_EDIT, key=MessageKey(ID="ORIG"), editedMessage=Message(conversation="make it 9"))
        out = translate.from_message(event(Message(protocolMessage=edit), id="EDIT1", ts=NOW + 60), ME)
        self.assertEqual((out["messageId"], out["replaces"]), ("EDIT1", "ORIG"))
        self.assertEqual(out["text"], "make it 9")
        self.assertEqual(out["timestamp"], NOW + 60)

    def test_edit_still_wrapped_in_edited_message(self):
        inner = Message(protocolMessage=ProtocolMessage(
            type=ProtocolMessage.MESSAGE_EDIT, key=MessageKey(ID="ORIG"), editedMessage=Message(conversation="at 9 then")))
        out = translate.from_message(event(Message(editedMessage=FutureProofMessage(message=inner)), id="E2"), ME)
        self.assertEqual((out["messageId"], out["replaces"], out["text"]), ("E2", "ORIG", "at 9 then"))

    def test_deletion_status_and_groups(self):
        revoke = Message(protocolMessage=ProtocolMessage(type=ProtocolMessage.REVOKE, key=MessageKey(ID="ORIG")))
        # Deleted for everyone: a retraction of the message it names, in the same chat.
        self.assertEqual(translate.from_message(event(revoke), ME), {"chatId": SARA_TEXT, "messageId": "ORIG", "deleted": True})
        unnamed = Message(protocolMessage=ProtocolMessage(type=ProtocolMessage.REVOKE, key=MessageKey(ID="")))
        self.assertIsInstance(translate.from_message(event(unnamed), ME), translate.Skipped)
        self.assertNotIn("replaces", translate.from_message(event(Message(conversation="plain")), ME))
        status = event(Message(conversation="my day"), chat="status@broadcast")
        self.assertIsInstance(translate.from_message(status, ME), translate.Skipped)
        group = translate.from_message(event(Message(conversation="all at 8?"), chat="1203630@g.us"), ME)
        self.assertTrue(group["isGroup"])
        self.assertEqual(group["chatId"], "1203630@g.us")
        self.assertEqual(group["sender"], SARA_TEXT)

    def test_milliseconds_read_as_seconds(self):
        self.assertEqual(translate.from_message(event(Message(conversation="x"), ts=NOW * 1000 + 250), ME)["timestamp"], NOW)

    def test_receipts_deliver_nothing(self):
        receipt = recording.roundtrip(recording.receipt(SARA_TEXT, ["ABC"], NOW, Receipt.READ))
        self.assertEqual(translate.from_receipt(receipt), [])


class HistoryTranslation(unittest.TestCase):
    def test_last_days_only_oldest_first(self):
        day = 86_400
        sync = recording.roundtrip(recording.history_event(SARA_TEXT, ME, [
            (False, "H3", NOW - 1 * day, "see you at 8"),
            (True, "H2", NOW - 2 * day, "ok"),
            (False, "OLD", NOW - 9 * day, "long ago"),
        ]))
        out = translate.from_history(sync, ME, days=7, now=NOW)
        self.assertEqual([m["messageId"] for m in out], ["H2", "H3"])
        self.assertEqual(out[0]["sender"], ME)
        self.assertTrue(out[0]["fromMe"])
        self.assertEqual(out[1]["sender"], SARA_TEXT)
        self.assertEqual(translate.from_history(sync, ME, days=0, now=NOW), [])

    def test_status_broadcast_history_is_ignored(self):
        sync = recording.history_event("status@broadcast", ME, [(False, "S", NOW, "my day")])
        self.assertEqual(translate.from_history(sync, ME, days=7, now=NOW), [])


if __name__ == "__main__":
    unittest.main()
