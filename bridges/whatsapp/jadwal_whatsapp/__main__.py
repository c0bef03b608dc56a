"""`python -m jadwal_whatsapp`: started by `jadwal serve --whatsapp-bridge`, configured by it:

JADWAL_WHATSAPP_SERVER_URL  the server's loopback address
JADWAL_WHATSAPP_TOKEN       the token the server generated for this bridge
JADWAL_WHATSAPP_REPLAY      a recording to replay instead of connecting to WhatsApp (tests)
"""

from __future__ import annotations

import logging
import os
import signal
import sys

from .bridge import Bridge
from .server import Server, ServerError


def main() -> int:
    logging.basicConfig(level=logging.INFO, format="whatsapp-bridge %(levelname)s %(message)s", stream=sys.stderr)
    url = os.environ.get("JADWAL_WHATSAPP_SERVER_URL", "")
    token = os.environ.get("JADWAL_WHATSAPP_TOKEN", "")
    if not url or not token:
        print("JADWAL_WHATSAPP_SERVER_URL and JADWAL_WHATSAPP_TOKEN come from jadwal serve --whatsapp-bridge", file=sys.stderr)
        return 2
    try:
        server = Server(url, token)
    except ServerError as error:
        print(error, file=sys.stderr)
        return 2
    replay = os.environ.get("JADWAL_WHATSAPP_REPLAY")
    if replay:
        from .clients import ReplayClient

        def factory(account, path, sink):
            return ReplayClient(account, path, sink, replay)
        logging.getLogger("jadwal.whatsapp").info("replaying %s instead of connecting to WhatsApp", replay)
    else:
        from .clients import LiveClient

        factory = LiveClient
    bridge = Bridge(server, factory)
    signal.signal(signal.SIGTERM, lambda *_: bridge.stopping.set())
    signal.signal(signal.SIGINT, lambda *_: bridge.stopping.set())
    bridge.run(float(os.environ.get("JADWAL_WHATSAPP_POLL_SECONDS", "1")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
