"""Recorded library events, for the bridge's replay mode.

A recording is JSON lines. Each event is neonize's own event object, serialised by its protobuf
class: `{"type": "Message", "proto": "<base64 of SerializeToString()>", "delay": 0.1}`; the type
is the class name in `neonize.events.EVENT_TO_INT`. One line `{"code": "ABCD1234"}` is the pairing
code PairPhone returns. Replaying parses each line back with the same class, so the bridge reads
exactly what it would read from the library.
"""

from __future__ import annotations

import argparse
import base64
import json
import sys
import time
from datetime import datetime

from google.protobuf.message import Message as Proto
from neonize.events import EVENT_TO_INT
from neonize.proto.Neonize_pb2 import (
    JID,
    Connected,
    ConnectFailure,
    ConnectFailureReason,
    HistorySync as HistorySyncEv,
    LoggedOut,
    Message as MessageEv,
    MessageInfo,
    MessageSource,
    Node,
    PairStatus,
    Receipt,
)
from neonize.proto.waCommon.WACommon_pb2 import MessageKey
from neonize.proto.waE2E.WAWebProtobufsE2E_pb2 import Message, ProtocolMessage
from neonize.proto.waHistorySync.WAWebProtobufsHistorySync_pb2 import Conversation, HistorySync, HistorySyncMsg
from neonize.proto.waWeb.WAWebProtobufsWeb_pb2 import WebMessageInfo

EVENT_CLASSES: dict[str, type[Proto]] = {cls.__name__: cls for cls in EVENT_TO_INT}


def line(event: Proto, delay: float = 0.0) -> str:
    name = type(event).__name__
    if EVENT_CLASSES.get(name) is not type(event):
        raise ValueError(f"{name} is not one of neonize's event classes")
    return json.dumps({"type": name, "proto": base64.b64encode(event.SerializeToString()).decode(), "delay": delay})


def read(path: str) -> tuple[str | None, list[tuple[float, Proto]]]:
    """The pairing code and the events, parsed with their classes."""
    code, _, events = read_all(path)
    return code, events


def read_all(path: str) -> tuple[str | None, list[tuple[float, str]], list[tuple[float, Proto]]]:
    """The pairing code, the QR codes (`{"qr": "2@…", "delay": 0.5}` lines, shown to a QR link
    before the events) and the events, parsed with their classes."""
    code = None
    qrs: list[tuple[float, str]] = []
    events: list[tuple[float, Proto]] = []
    with open(path, encoding="utf-8") as handle:
        for number, raw in enumerate(handle, 1):
            if not raw.strip():
                continue
            item = json.loads(raw)
            if "code" in item:
                code = item["code"]
                continue
            if "qr" in item:
                qrs.append((float(item.get("delay", 0)), item["qr"]))
                continue
            cls = EVENT_CLASSES.get(item.get("type", ""))
            if cls is None:
                raise ValueError(f"{path}:{number}: {item.get('type')!r} is not a neonize event class")
            events.append((float(item.get("delay", 0)), cls.FromString(base64.b64decode(item["proto"]))))
    return code, qrs, events


def jid(text: str, device: int = 0) -> JID:
    """A JID as whatsmeow fills it (every field neonize's proto requires)."""
    if not text:
        return JID(User="", RawAgent=0, Device=0, Integrator=0, Server="", IsEmpty=True)
    user, server = text.split("@", 1)
    return JID(User=user, RawAgent=0, Device=device, Integrator=0, Server=server, IsEmpty=False)


def message_event(
    chat: str, sender: str, from_me: bool, message_id: str, timestamp: int, message: Message | str, *, sender_device: int = 0,
) -> MessageEv:
    """A message as whatsmeow hands it to neonize (`events.Message`), required fields and all."""
    if isinstance(message, str):
        message = Message(conversation=message)
    is_group = chat.endswith("@g.us")
    source = MessageSource(
        Chat=jid(chat), Sender=jid(sender, sender_device), IsFromMe=from_me, IsGroup=is_group, SenderAlt=jid(""),
        RecipientAlt=jid(""), BroadcastListOwner=jid(""))
    info = MessageInfo(
        MessageSource=source, ID=message_id, ServerID=0, Type="text", Pushname="", Timestamp=timestamp, Category="",
        Multicast=False, MediaType="", Edit="")
    return MessageEv(
        Info=info, Message=message, IsEphemeral=False, IsViewOnce=False, IsViewOnceV2=False, IsViewOnceV2Extension=False,
        IsDocumentWithCaption=False, IsLottieSticker=False, IsEdit=message.HasField("protocolMessage"), UnavailableRequestID="",
        RetryCount=0)


def paired(me: str) -> PairStatus:
    return PairStatus(ID=jid(me), BusinessName="", Platform="replay", Status=PairStatus.SUCCESS)


def pairing_error(reason: str) -> PairStatus:
    return PairStatus(ID=jid(""), BusinessName="", Platform="", Status=PairStatus.ERROR, Error=reason)


def connect_failure(reason: int, message: str = "") -> ConnectFailure:
    return ConnectFailure(Reason=reason, Message=message, Raw=Node(Tag="failure"))


def receipt(chat: str, ids: list[str], timestamp: int, kind: int) -> Receipt:
    source = MessageSource(
        Chat=jid(chat), Sender=jid(chat), IsFromMe=False, IsGroup=False, SenderAlt=jid(""), RecipientAlt=jid(""),
        BroadcastListOwner=jid(""))
    return Receipt(MessageSource=source, MessageIDs=ids, Timestamp=timestamp, Type=kind)


def roundtrip(event: Proto) -> Proto:
    """The event as the library would deliver it: serialised and parsed by its class."""
    return type(event).FromString(event.SerializeToString())


def history_event(chat: str, me: str, items: list[tuple[bool, str, int, str]]) -> HistorySyncEv:
    """A history sync of one chat: (fromMe, id, timestamp, text) each."""
    conversation = Conversation(ID=chat)
    for order, (from_me, message_id, timestamp, text) in enumerate(items):
        info = WebMessageInfo(
            key=MessageKey(remoteJID=chat, fromMe=from_me, ID=message_id),
            message=Message(conversation=text), messageTimestamp=timestamp)
        conversation.messages.append(HistorySyncMsg(message=info, msgOrderID=order))
    return HistorySyncEv(Data=HistorySync(syncType=HistorySync.RECENT, conversations=[conversation]))


def protocol_event(chat: str, sender: str, from_me: bool, message_id: str, timestamp: int, target: str, text: str | None) -> MessageEv:
    """An edit of `target` to `text`, or (text None) its deletion for everyone, as whatsmeow
    delivers them: a message whose `protocolMessage` names the target by its key."""
    key = MessageKey(remoteJID=chat, fromMe=from_me, ID=target)
    if text is None:
        protocol = ProtocolMessage(key=key, type=ProtocolMessage.REVOKE)
    else:
        protocol = ProtocolMessage(key=key, type=ProtocolMessage.MESSAGE_EDIT, editedMessage=Message(conversation=text))
    return message_event(chat, sender, from_me, message_id, timestamp, Message(protocolMessage=protocol))


def _stamp(at) -> int:
    return int(at) if isinstance(at, (int, float)) else int(datetime.fromisoformat(at).timestamp())


def conversation_recording(spec: dict) -> list[str]:
    """A whole link: the code (or QR codes), pairing success, connection, a history sync, then
    the conversation.

    spec: {"code", "qrs": ["2@…", …], "me": "9665...@s.whatsapp.net", "partner": "...@s.whatsapp.net",
           "history": [{"chat": jid, "messages": [{"fromMe", "id", "text", "at"}]}],
           "messages": [{"fromMe", "text", "at": ISO-8601 or Unix seconds, "id"?, "delay"?}
                        | {"fromMe", "edit": id, "text", "at"} | {"fromMe", "revoke": id, "at"}],
           "loggedOutAfter": bool}
    """
    me, partner = spec["me"], spec["partner"]
    lines = [json.dumps({"code": spec.get("code", "JDWL2026")})]
    lines += [json.dumps({"qr": payload, "delay": 0.3 if index else 0}) for index, payload in enumerate(spec.get("qrs", []))]
    lines.append(line(paired(me), delay=float(spec.get("pairAfter", 0.5))))
    lines.append(line(Connected(status=True)))
    for chat in spec.get("history", []):
        items = [(item["fromMe"], item["id"], _stamp(item["at"]), item["text"]) for item in chat["messages"]]
        lines.append(line(history_event(chat["chat"], me, items)))
    for index, item in enumerate(spec["messages"]):
        stamp = _stamp(item["at"])
        sender = me if item["fromMe"] else partner
        message_id = item.get("id", f"REPLAY{index:04d}")
        delay = float(item.get("delay", 0.05))
        if "edit" in item:
            event = protocol_event(partner, sender, item["fromMe"], message_id, stamp, item["edit"], item["text"])
        elif "revoke" in item:
            event = protocol_event(partner, sender, item["fromMe"], message_id, stamp, item["revoke"], None)
        else:
            event = message_event(partner, sender, item["fromMe"], message_id, stamp, item["text"])
        lines.append(line(event, delay=delay))
    if spec.get("loggedOutAfter"):
        lines.append(line(LoggedOut(OnConnect=False, Reason=ConnectFailureReason.LOGGED_OUT), delay=0.2))
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Write a replay recording of a link and one conversation.")
    parser.add_argument("spec", help="JSON file: see conversation_recording")
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    with open(args.spec, encoding="utf-8") as handle:
        spec = json.load(handle)
    with open(args.out, "w", encoding="utf-8") as out:
        out.write("\n".join(conversation_recording(spec)) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
