#!/usr/bin/env python3
"""Change a remote CalDAV server's data as another client would, for Jadwal's account tests.

  remote_object.py URL --user U --password P [--auth basic|digest] mkcalendar [--name NAME]
  remote_object.py URL ... put [--if-match ETAG] < calendar.ics     prints the new ETag
  remote_object.py URL ... get                                        prints ETag, then the body
  remote_object.py URL ... delete [--if-match ETAG]

Plain `requests` (Basic or Digest auth): an independent client, not Jadwal's. Exit 1 with the
status and body on any answer that is not 2xx.
"""
import argparse
import sys

import requests
from requests.auth import HTTPBasicAuth, HTTPDigestAuth


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("--user", required=True)
    parser.add_argument("--password", required=True)
    parser.add_argument("--auth", choices=("basic", "digest"), default="basic")
    parser.add_argument("action", choices=("mkcalendar", "put", "get", "delete"))
    parser.add_argument("--if-match")
    parser.add_argument("--name", default="Remote")
    args = parser.parse_args()
    auth = HTTPDigestAuth(args.user, args.password) if args.auth == "digest" else HTTPBasicAuth(args.user, args.password)
    headers = {}
    if args.if_match:
        headers["If-Match"] = args.if_match
    if args.action == "mkcalendar":
        body = ('<?xml version="1.0" encoding="utf-8"?><C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">'
                f'<D:set><D:prop><D:displayname>{args.name}</D:displayname>'
                '<I:calendar-color xmlns:I="http://apple.com/ns/ical/">#FF8800FF</I:calendar-color></D:prop></D:set></C:mkcalendar>')
        response = requests.request("MKCALENDAR", args.url, data=body, auth=auth, timeout=30,
                                    headers={"Content-Type": "application/xml"})
    elif args.action == "put":
        headers["Content-Type"] = "text/calendar; charset=utf-8"
        response = requests.put(args.url, data=sys.stdin.buffer.read(), auth=auth, headers=headers, timeout=30)
    elif args.action == "get":
        response = requests.get(args.url, auth=auth, timeout=30)
    else:
        response = requests.delete(args.url, auth=auth, headers=headers, timeout=30)
    if not 200 <= response.status_code < 300:
        print(f"HTTP {response.status_code}\n{response.text}", file=sys.stderr)
        return 1
    print(response.headers.get("ETag", ""))
    if args.action == "get":
        sys.stdout.write(response.text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
