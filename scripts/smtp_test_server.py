#!/usr/bin/env python3
"""A real SMTP server on 127.0.0.1 for Jadwal's mail tests (aiosmtpd).

    smtp_test_server.py --dir DIR [--port N] [--starttls | --implicit-tls] [--auth user:password]
                        [--auth-mechanisms PLAIN,LOGIN]
    smtp_test_server.py --parse FILE.eml

Server mode prints "PORT <n>" (and "CERT <path>" with --starttls or --implicit-tls) on stdout, then serves until
killed. Each received message is saved as DIR/<n>.eml (the content as received, after SMTP
dot-unstuffing) and DIR/<n>.json (mail_from, rcpt_tos, tls, authenticated, auth_mechanism).

Recipients busy@… are refused with 450 (transient), nobody@… with 550 (permanent).

--parse reads an .eml with Python's email package (policy=default) and prints JSON with the
decoded headers, display names and parts (attachments' file names, a calendar part's method and,
read by Python's icalendar, its events): an independent check of our MIME and iMIP encoding.

Install: python3 -m venv /var/tmp/jadwal-venv && /var/tmp/jadwal-venv/bin/pip install aiosmtpd cryptography
(cryptography makes the certificate for --starttls/--implicit-tls; aiosmtpd does not pull it in).
"""

import argparse
import datetime
import ipaddress
import json
import os
import signal
import socket
import ssl
import sys
import threading
import time


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def make_certificate(directory):
    """A throwaway self-signed certificate for 127.0.0.1 and localhost."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
            ),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path = os.path.join(directory, "cert.pem")
    key_path = os.path.join(directory, "key.pem")
    with open(cert_path, "wb") as f:
        f.write(cert.public_bytes(serialization.Encoding.PEM))
    with open(key_path, "wb") as f:
        f.write(
            key.private_bytes(
                serialization.Encoding.PEM,
                serialization.PrivateFormat.PKCS8,
                serialization.NoEncryption(),
            )
        )
    return cert_path, key_path


class SavingHandler:
    def __init__(self, directory):
        self.directory = directory
        self.count = 0
        self.lock = threading.Lock()

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        # Fixed answers for testing how a client classifies refusals.
        local = address.split("@", 1)[0].lower()
        if local == "busy":
            return "450 4.2.1 Mailbox busy, try again later"
        if local == "nobody":
            return "550 5.1.1 No such user here"
        envelope.rcpt_tos.append(address)
        envelope.rcpt_options.extend(rcpt_options)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        with self.lock:
            self.count += 1
            n = self.count
        meta = {
            "mail_from": envelope.mail_from,
            "rcpt_tos": list(envelope.rcpt_tos),
            "mail_options": list(envelope.mail_options),
            # session.ssl is only set by STARTTLS; implicit TLS shows on the transport.
            "tls": session.ssl is not None
            or (server.transport is not None and server.transport.get_extra_info("ssl_object") is not None),
            "authenticated": bool(session.authenticated),
            "auth_login": _text(getattr(session.auth_data, "login", None)),
            "auth_mechanism": getattr(session, "jadwal_auth_mechanism", None),
        }
        content = envelope.original_content or envelope.content
        if isinstance(content, str):
            content = content.encode("utf-8", "surrogateescape")
        _write_atomically(os.path.join(self.directory, f"{n}.json"), json.dumps(meta).encode())
        _write_atomically(os.path.join(self.directory, f"{n}.eml"), content)
        return "250 Message accepted for delivery"


def _text(value):
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return value


def _write_atomically(path, data):
    temporary = path + ".tmp"
    with open(temporary, "wb") as f:
        f.write(data)
    os.replace(temporary, path)


def make_authenticator(user, password):
    from aiosmtpd.smtp import AuthResult, LoginPassword

    def authenticator(server, session, envelope, mechanism, auth_data):
        session.jadwal_auth_mechanism = mechanism
        if not isinstance(auth_data, LoginPassword):
            return AuthResult(success=False, handled=False)
        ok = auth_data.login == user.encode() and auth_data.password == password.encode()
        return AuthResult(success=ok, handled=False, auth_data=auth_data if ok else None)

    return authenticator


def serve(args):
    from aiosmtpd.controller import Controller

    # A parent such as a Swift test runner may start us with signals blocked (the mask is
    # inherited); unblock them so that SIGTERM from Process.terminate() actually stops us.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT, signal.SIGHUP})

    os.makedirs(args.dir, exist_ok=True)
    port = args.port or free_port()
    kwargs = {"enable_SMTPUTF8": True}
    cert_path = None
    controller_kwargs = {}
    if args.starttls or args.implicit_tls:
        cert_path, key_path = make_certificate(args.dir)
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(cert_path, key_path)
        if args.implicit_tls:
            controller_kwargs["ssl_context"] = context
        else:
            kwargs["tls_context"] = context
            kwargs["require_starttls"] = False
    if args.auth:
        user, _, password = args.auth.partition(":")
        kwargs["authenticator"] = make_authenticator(user, password)
        # aiosmtpd only counts STARTTLS as TLS; with implicit TLS every session is encrypted anyway.
        kwargs["auth_require_tls"] = bool(args.starttls)
        allowed = {m.strip().upper() for m in args.auth_mechanisms.split(",") if m.strip()}
        kwargs["auth_exclude_mechanism"] = [m for m in ("PLAIN", "LOGIN") if m not in allowed]
    else:
        kwargs["auth_require_tls"] = False

    controller = Controller(
        SavingHandler(args.dir), hostname="127.0.0.1", port=port, **controller_kwargs, **kwargs
    )
    controller.start()
    print(f"PORT {port}", flush=True)
    if cert_path:
        print(f"CERT {cert_path}", flush=True)

    # Stop at once when told to, and on our own when the process that started us is gone
    # (a test runner that crashed or was killed must not leave servers behind).
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    signal.signal(signal.SIGINT, lambda *_: os._exit(0))
    parent = os.getppid()
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(0)


def parse_calendar(text):
    """An attached calendar read by Python's icalendar (an independent reader of our iTIP):
    its METHOD and, per VEVENT, what a mail app shows and answers with."""
    try:
        import icalendar
    except ImportError:
        return {"error": "icalendar is not installed"}
    try:
        calendar = icalendar.Calendar.from_ical(text)
    except Exception as error:  # noqa: BLE001 - any parse failure is the answer
        return {"error": f"{type(error).__name__}: {error}"}
    events = []
    for event in calendar.walk("VEVENT"):
        attendees = event.get("ATTENDEE", [])
        if not isinstance(attendees, list):
            attendees = [attendees]
        events.append({
            "uid": str(event.get("UID", "")),
            "summary": str(event.get("SUMMARY", "")),
            "sequence": int(event.get("SEQUENCE", 0)),
            "status": str(event.get("STATUS", "")),
            "dtstart": event.decoded("DTSTART").isoformat() if event.get("DTSTART") else None,
            "organizer": str(event.get("ORGANIZER", "")),
            "attendees": [{"address": str(a), "partstat": str(a.params.get("PARTSTAT", "")), "cn": str(a.params.get("CN", ""))} for a in attendees],
            "alarms": len(event.walk("VALARM")),
        })
    return {"method": str(calendar.get("METHOD", "")), "events": events}


def parse(path):
    import email
    from email import policy

    with open(path, "rb") as f:
        message = email.message_from_bytes(f.read(), policy=policy.default)

    def addresses(header):
        value = message[header]
        if value is None:
            return []
        return [
            {"display_name": a.display_name, "addr_spec": a.addr_spec} for a in value.addresses
        ]

    parts = []
    for part in message.walk():
        if part.is_multipart():
            continue
        content = part.get_content()
        if isinstance(content, bytes):  # an attachment (application/ics): its text
            content = content.decode("utf-8", errors="replace")
        entry = {
            "content_type": part.get_content_type(),
            "charset": part.get_content_charset(),
            "transfer_encoding": part.get("Content-Transfer-Encoding"),
            # Line ends as the text had them: CRLF on the wire becomes "\n".
            "content": content.replace("\r\n", "\n"),
            "filename": part.get_filename(),
            "method": part.get_param("method"),
        }
        if entry["content_type"] in ("text/calendar", "application/ics"):
            entry["calendar"] = parse_calendar(content)
        parts.append(entry)
    result = {
        "subject": str(message["subject"]),
        "from": addresses("from"),
        "to": addresses("to"),
        "reply_to": addresses("reply-to"),
        "content_type": message.get_content_type(),
        "defects": [type(d).__name__ for d in message.defects],
        "parts": parts,
    }
    json.dump(result, sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dir", help="where received messages (and the certificate) are written")
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    parser.add_argument("--starttls", action="store_true", help="offer STARTTLS with a throwaway certificate")
    parser.add_argument("--implicit-tls", action="store_true", help="TLS from the first byte (like port 465)")
    parser.add_argument("--auth", help="user:password accepted by AUTH PLAIN and LOGIN")
    parser.add_argument("--auth-mechanisms", default="PLAIN,LOGIN", help="which of PLAIN,LOGIN to offer")
    parser.add_argument("--parse", metavar="EML", help="print the decoded message as JSON and exit")
    args = parser.parse_args()
    if args.parse:
        parse(args.parse)
        return
    if not args.dir:
        parser.error("--dir is required")
    serve(args)


if __name__ == "__main__":
    main()
