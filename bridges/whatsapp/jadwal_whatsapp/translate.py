"""neonize's event objects -> Jadwal connector messages.

A connector message is the dict `POST /internal/whatsapp/accounts/<id>/messages` takes, the same
shape as `/api/v1/chats/messages`: chatId, messageId, sender, fromMe, timestamp (Unix seconds),
text (None for no words), isGroup. Nothing here keeps a message: it is translated and posted.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from neonize.proto.Neonize_pb2 import JID, Message as MessageEv, Receipt as ReceiptEv
from neonize.proto.Neonize_pb2 import HistorySync as HistorySyncEv
from neonize.proto.waE2E.WAWebProtobufsE2E_pb2 import Message, ProtocolMessage
from neonize.proto.waWeb.WAWebProtobufsWeb_pb2 import WebMessageInfo

# Chats that are not conversations: status updates, broadcast lists, channels.
IGNORED_SERVERS = {"broadcast", "newsletter"}
GROUP_SERVER = "g.us"


def jid_text(jid: JID) -> str:
    """`user@server`, without the device: every device of one person is one chat partner."""
    return f"{jid.User}@{jid.Server}" if jid.User else jid.Server


def seconds(value: int) -> int:
    """whatsmeow's times reach Python as integers; a value this large is milliseconds (year
    5138 in seconds), so both units read the same."""
    return value // 1000 if value >= 100_000_000_000 else value


def words(message: Message) -> str | None:
    """The text a person wrote: plain or extended text, or a caption. Media without a caption,
    stickers, reactions, polls, calls and protocol messages have none."""
    # Wrappers whatsmeow may leave in place: disappearing and view-once messages.
    for wrapper in ("ephemeralMessage", "viewOnceMessage", "viewOnceMessageV2", "documentWithCaptionMessage"):
        if message.HasField(wrapper):
            return words(getattr(message, wrapper).message)
    if message.conversation:
        return message.conversation
    if message.HasField("extendedTextMessage") and message.extendedTextMessage.text:
        return message.extendedTextMessage.text
    for media in ("imageMessage", "videoMessage", "documentMessage"):
        if message.HasField(media) and getattr(message, media).caption:
            return getattr(message, media).caption
    return None


@dataclass
class Skipped:
    """Why an event gave no connector message (for the bridge's log; never the text)."""
    reason: str


def from_message(event: MessageEv, me: str | None) -> dict | Skipped:
    """A live message. An edit carries the new words and `replaces`, the id of the message it
    changes (the server puts it in the original's place, or reads it as said again once the
    chat is settled); a message deleted for everyone becomes a retraction of that id."""
    info = event.Info
    source = info.MessageSource
    if source.Chat.Server in IGNORED_SERVERS:
        return Skipped("status or broadcast")
    message = event.Message
    replaces = None
    if message.HasField("protocolMessage"):
        protocol = message.protocolMessage
        if protocol.type == ProtocolMessage.MESSAGE_EDIT and protocol.HasField("editedMessage"):
            replaces = protocol.key.ID
            message = protocol.editedMessage
        elif protocol.type == ProtocolMessage.REVOKE:
            if not protocol.key.ID:
                return Skipped("deletion naming no message")
            return {"chatId": jid_text(source.Chat), "messageId": protocol.key.ID, "deleted": True}
        else:
            return Skipped("protocol message")
    elif message.HasField("editedMessage"):
        inner = message.editedMessage.message
        if inner.HasField("protocolMessage") and inner.protocolMessage.HasField("editedMessage"):
            replaces = inner.protocolMessage.key.ID
            message = inner.protocolMessage.editedMessage
    text = words(message)
    if text is None:
        return Skipped("no words (media, sticker, reaction, call)")
    sender = me if source.IsFromMe and me else jid_text(source.Sender)
    translated = {
        "chatId": jid_text(source.Chat),
        "messageId": info.ID,
        "sender": sender or "me",
        "fromMe": bool(source.IsFromMe),
        "timestamp": seconds(info.Timestamp),
        "text": text,
        "isGroup": bool(source.IsGroup) or source.Chat.Server == GROUP_SERVER,
    }
    if replaces:
        translated["replaces"] = replaces
    return translated


def from_receipt(_: ReceiptEv) -> list[dict]:
    """Receipts say a message was delivered or read; they carry no words, so nothing to deliver."""
    return []


def from_history(event: HistorySyncEv, me: str | None, days: int, now: float | None = None) -> list[dict]:
    """The messages of a history sync from the last `days` days (0: none), oldest first."""
    if days <= 0:
        return []
    since = (now if now is not None else time.time()) - days * 86_400
    out: list[dict] = []
    for conversation in event.Data.conversations:
        chat = conversation.ID
        server = chat.rsplit("@", 1)[-1] if "@" in chat else ""
        if server in IGNORED_SERVERS:
            continue
        for item in conversation.messages:
            translated = from_web_message(item.message, chat, me)
            if translated is not None and translated["timestamp"] >= since:
                out.append(translated)
    out.sort(key=lambda m: m["timestamp"])
    return out


def from_web_message(info: WebMessageInfo, chat: str, me: str | None) -> dict | None:
    if not info.HasField("message"):
        return None
    text = words(info.message)
    if text is None:
        return None
    from_me = bool(info.key.fromMe)
    is_group = chat.endswith("@" + GROUP_SERVER)
    if from_me:
        sender = me or "me"
    elif is_group:
        sender = info.participant or info.key.participant or chat
    else:
        sender = chat
    return {
        "chatId": chat,
        "messageId": info.key.ID,
        "sender": _bare(sender),
        "fromMe": from_me,
        "timestamp": seconds(info.messageTimestamp),
        "text": text,
        "isGroup": is_group,
    }


def _bare(jid: str) -> str:
    """`user:device@server` -> `user@server`, like `jid_text`."""
    if "@" not in jid:
        return jid
    user, server = jid.split("@", 1)
    return f"{user.split(':', 1)[0]}@{server}"
