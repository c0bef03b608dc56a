#!/usr/bin/env python3
"""Times Python icalendar (parse + serialise) and recurring-ical-events (one-year
expansion) on FILE (and writes the
instance list to OUT when given). Prints JSON: seconds per operation (best of ROUNDS) and counts."""
import datetime as dt
import json
import sys
import time

import icalendar
import recurring_ical_events


def best(fn, rounds):
    times, result = [], None
    for _ in range(rounds):
        t = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t)
    return min(times), result


def main():
    path, rounds = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 3
    data = open(path, "rb").read()
    parse_serialise, out = best(lambda: icalendar.Calendar.from_ical(data).to_ical(), rounds)
    cal = icalendar.Calendar.from_ical(data)
    start, end = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc), dt.datetime(2027, 1, 1, tzinfo=dt.timezone.utc)
    expand, instances = best(lambda: recurring_ical_events.of(cal).between(start, end), rounds)
    if len(sys.argv) > 3:  # the instance list, to check the set against Jadwal's
        def iso(t):
            if not isinstance(t, dt.datetime):
                return t.isoformat()
            return (t if t.tzinfo else t.replace(tzinfo=dt.timezone.utc)).astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        lines = sorted(f"{c['UID']} {iso(c['DTSTART'].dt)} {iso(c['DTEND'].dt)}" for c in instances
                       if str(c.get("STATUS", "")).upper() != "CANCELLED")
        with open(sys.argv[3], "w") as f:
            f.write("\n".join(lines))
    print(json.dumps({"parseSerialise": parse_serialise, "expand": expand, "instances": len(instances), "bytes": len(data), "outBytes": len(out)}))


if __name__ == "__main__":
    main()
