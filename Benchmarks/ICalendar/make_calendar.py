#!/usr/bin/env python3
"""Writes a deterministic 10,000-event calendar (10% recurring) for the benchmark.

Mix: timed and all-day events in several zones, descriptions, attendees, alarms, X-
properties; the recurring tenth uses daily/weekly/monthly/yearly rules with EXDATEs and
some RECURRENCE-ID overrides. Usage: make_calendar.py OUTPUT [COUNT]
"""
import datetime as dt
import random
import sys

ZONES = ["Europe/London", "America/New_York", "Asia/Riyadh", "Europe/Berlin", "Australia/Sydney"]
RULES = ["FREQ=DAILY;COUNT=30", "FREQ=WEEKLY;BYDAY=MO,WE,FR", "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU",
         "FREQ=MONTHLY;BYDAY=1MO", "FREQ=MONTHLY;BYMONTHDAY=15;COUNT=24", "FREQ=YEARLY",
         "FREQ=DAILY;UNTIL=20260630T000000Z", "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1"]


def main():
    out = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 10_000
    rnd = random.Random(2026)
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Jadwal//benchmark//EN", "X-WR-CALNAME:Benchmark"]
    for i in range(count):
        zone = rnd.choice(ZONES)
        start = dt.datetime(2026, 1, 1, 8) + dt.timedelta(days=rnd.randint(0, 364), minutes=15 * rnd.randint(0, 40))
        uid = f"bench-{i}@jadwal.example"
        ev = ["BEGIN:VEVENT", f"UID:{uid}", "DTSTAMP:20251201T000000Z", f"CREATED:20251201T000000Z",
              f"SUMMARY:Meeting {i} about project {rnd.randint(1, 500)}"]
        all_day = rnd.random() < 0.15
        if all_day:
            ev.append(f"DTSTART;VALUE=DATE:{start:%Y%m%d}")
            ev.append(f"DTEND;VALUE=DATE:{start + dt.timedelta(days=1):%Y%m%d}")
        else:
            ev.append(f"DTSTART;TZID={zone}:{start:%Y%m%dT%H%M%S}")
            ev.append(f"DTEND;TZID={zone}:{start + dt.timedelta(minutes=30 * rnd.randint(1, 4)):%Y%m%dT%H%M%S}")
        ev.append("DESCRIPTION:Agenda\\n- review, plan\\; decide\\n" + "Notes " * rnd.randint(1, 20))
        ev.append(f"LOCATION:Room {rnd.randint(1, 40)}\\, Building {rnd.randint(1, 5)}")
        if rnd.random() < 0.5:
            ev.append(f"ORGANIZER;CN=Person {i % 97}:mailto:p{i % 97}@example.com")
            for a in range(rnd.randint(1, 4)):
                ev.append(f"ATTENDEE;CUTYPE=INDIVIDUAL;ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED;CN=Guest {a}:mailto:g{a}.{i}@example.com")
        ev.append(f"X-APPLE-TRAVEL-ADVISORY-BEHAVIOR:AUTOMATIC")
        recurring = i % 10 == 0
        overrides = []
        if recurring and not all_day:
            rule = rnd.choice(RULES)
            ev.append("RRULE:" + rule)
            ex = start + dt.timedelta(days=7)
            ev.append(f"EXDATE;TZID={zone}:{ex:%Y%m%dT%H%M%S}")
            if rule.startswith("FREQ=DAILY"):
                rid = start + dt.timedelta(days=2)
                moved = rid + dt.timedelta(hours=2)
                overrides.append(["BEGIN:VEVENT", f"UID:{uid}", "DTSTAMP:20251201T000000Z", f"RECURRENCE-ID;TZID={zone}:{rid:%Y%m%dT%H%M%S}",
                                  f"DTSTART;TZID={zone}:{moved:%Y%m%dT%H%M%S}", f"DTEND;TZID={zone}:{moved + dt.timedelta(hours=1):%Y%m%dT%H%M%S}",
                                  f"SUMMARY:Meeting {i} (moved)", "SEQUENCE:1", "END:VEVENT"])
        elif recurring:
            ev.append("RRULE:FREQ=YEARLY")
        ev += ["BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Reminder", "TRIGGER:-PT15M", "END:VALARM", "END:VEVENT"]
        lines += ev
        for o in overrides:
            lines += o
    lines.append("END:VCALENDAR")
    with open(out, "w", newline="") as f:
        f.write("\r\n".join(lines) + "\r\n")


if __name__ == "__main__":
    main()
