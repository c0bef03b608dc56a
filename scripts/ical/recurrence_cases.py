#!/usr/bin/env python3
"""Differential proof for Jadwal's recurrence expansion.

Generates recurrence test cases (every RRULE part, EXDATE/RDATE/RECURRENCE-ID,
RANGE=THISANDFUTURE, DST transitions), expands each with the reference engine
(PyPI `icalendar` + `recurring-ical-events`) and either

  generate  writes them, with the reference's instances, to
            Tests/ICalendarTests/Fixtures/recurrence-cases.json (the unit tests
            compare against this file, so they need no Python), or
  compare   runs `jadwal ics expand` (any binary with that interface) on every case
            and reports cases where the instance sets differ.

Set up:  python3 -m venv /var/tmp/jadwal-venv &&
         /var/tmp/jadwal-venv/bin/pip install icalendar recurring-ical-events
Run:     /var/tmp/jadwal-venv/bin/python scripts/ical/recurrence_cases.py generate
         /var/tmp/jadwal-venv/bin/python scripts/ical/recurrence_cases.py compare --binary .build/debug/jadwal
"""
import argparse
import importlib.metadata
import datetime as dt
import json
import os
import random
import subprocess
import sys
import tempfile

import icalendar
import recurring_ical_events

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURE = os.path.join(HERE, "..", "..", "Tests", "ICalendarTests", "Fixtures", "recurrence-cases.json")
UTC = dt.timezone.utc

ZONES = ["Europe/London", "America/New_York", "Europe/Berlin", "Australia/Sydney", "Asia/Riyadh",
         "Pacific/Auckland", "America/Los_Angeles", "Asia/Kolkata"]
DAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]


def fmt_local(t):
    return t.strftime("%Y%m%dT%H%M%S")


def dtstart_lines(name, start, kind, zone):
    """kind: utc | floating | zoned | date"""
    if kind == "date":
        return f"{name};VALUE=DATE:{start.strftime('%Y%m%d')}"
    if kind == "utc":
        return f"{name}:{fmt_local(start)}Z"
    if kind == "floating":
        return f"{name}:{fmt_local(start)}"
    return f"{name};TZID={zone}:{fmt_local(start)}"


def make_calendar(events, name="VEVENT"):
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Jadwal//recurrence cases//EN"]
    for ev in events:
        lines.append("BEGIN:" + name)
        lines.extend(ev)
        lines.append("END:" + name)
    lines.append("END:VCALENDAR")
    return "\r\n".join(lines) + "\r\n"


def master(uid, start, kind, zone, rrule=None, length=None, extra=(), summary="Series"):
    ev = [f"UID:{uid}", "DTSTAMP:20250101T000000Z", dtstart_lines("DTSTART", start, kind, zone)]
    if kind == "date":
        days = length or 1
        ev.append(dtstart_lines("DTEND", start + dt.timedelta(days=days), kind, zone))
    elif length is not None:
        ev.append(dtstart_lines("DTEND", start + length, kind, zone))
    if rrule:
        ev.append("RRULE:" + rrule)
    ev.extend(extra)
    ev.append(f"SUMMARY:{summary}")
    return ev


def reference(ics, start, end, components=("VEVENT",)):
    cal = icalendar.Calendar.from_ical(ics)
    out = []
    for comp in recurring_ical_events.of(cal, components=list(components)).between(start, end):
        if str(comp.get("STATUS", "")).upper() == "CANCELLED":
            continue
        s = comp["DTSTART"].dt
        e = comp["DTEND"].dt if "DTEND" in comp else comp["DUE"].dt if "DUE" in comp else s
        out.append({"uid": str(comp["UID"]), "start": iso(s), "end": iso(e),
                    "allDay": not isinstance(s, dt.datetime), "summary": str(comp.get("SUMMARY", ""))})
    out.sort(key=lambda o: (o["start"], o["uid"], o["end"], o["summary"]))
    return out


def iso(t):
    if not isinstance(t, dt.datetime):
        return t.isoformat()
    if t.tzinfo is None:
        t = t.replace(tzinfo=UTC)  # floating is read as UTC against a UTC window
    return t.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def window_for(freq):
    return {
        "SECONDLY": dt.timedelta(minutes=10), "MINUTELY": dt.timedelta(hours=12),
        "HOURLY": dt.timedelta(days=10), "DAILY": dt.timedelta(days=120),
        "WEEKLY": dt.timedelta(days=500), "MONTHLY": dt.timedelta(days=365 * 4),
        "YEARLY": dt.timedelta(days=365 * 12),
    }[freq]


def build_cases(seed=5545):
    rnd = random.Random(seed)
    cases = []

    def add(name, events, start, span):
        cases.append({"name": name, "ics": make_calendar(events), "from": start, "to": start + span})

    base = dt.datetime(2026, 1, 5, 9, 30, 0)
    kinds = ["utc", "floating", "zoned", "date"]
    freqs = ["YEARLY", "MONTHLY", "WEEKLY", "DAILY", "HOURLY", "MINUTELY", "SECONDLY"]

    # 1. Every FREQ x INTERVAL x end condition x value kind.
    for freq in freqs:
        for interval in (1, 2, 3):
            for ending in ("", ";COUNT=7", ";UNTIL"):
                kind = rnd.choice(kinds if freq in ("YEARLY", "MONTHLY", "WEEKLY", "DAILY") else kinds[:3])
                zone = rnd.choice(ZONES)
                start = base if kind != "date" else base.replace(hour=0, minute=0)
                span = window_for(freq)
                rule = f"FREQ={freq};INTERVAL={interval}"
                if ending == ";UNTIL":
                    until = start + span * 0.6
                    if kind == "date":
                        rule += ";UNTIL=" + until.strftime("%Y%m%d")
                    elif kind == "floating":
                        rule += ";UNTIL=" + fmt_local(until)
                    else:
                        rule += ";UNTIL=" + fmt_local(until) + "Z"
                else:
                    rule += ending
                length = None if kind == "date" else dt.timedelta(minutes=rnd.choice([0, 1, 30, 90]) if freq in ("SECONDLY", "MINUTELY") else rnd.choice([30, 60, 150]))
                if freq == "SECONDLY":
                    length = dt.timedelta(seconds=0)
                ev = master(f"freq-{freq}-{interval}-{len(cases)}", start, kind, zone, rule, length)
                add(f"{freq} interval {interval}{ending} {kind}", [ev], dt.datetime(2026, 1, 1, tzinfo=UTC), span)

    # 2. BY-parts, each alone and in common combinations.
    by_parts = [
        ("YEARLY", "BYMONTH=1,3,7"), ("YEARLY", "BYMONTH=2;BYMONTHDAY=29"), ("YEARLY", "BYMONTH=2;BYMONTHDAY=-1"),
        ("YEARLY", "BYWEEKNO=1"), ("YEARLY", "BYWEEKNO=20;BYDAY=MO"), ("YEARLY", "BYWEEKNO=-1;BYDAY=SU"),
        ("YEARLY", "BYWEEKNO=53"), ("YEARLY", "BYWEEKNO=1,52;BYDAY=TH;WKST=SU"),
        ("YEARLY", "BYYEARDAY=1,100,200"), ("YEARLY", "BYYEARDAY=-1,-306"), ("YEARLY", "BYYEARDAY=366"),
        ("YEARLY", "BYDAY=20MO"), ("YEARLY", "BYDAY=-1FR"), ("YEARLY", "BYMONTH=11;BYDAY=4TH"),
        ("YEARLY", "BYMONTH=5;BYDAY=-1MO"), ("YEARLY", "BYMONTH=3;BYDAY=2SU"), ("YEARLY", "BYMONTHDAY=13;BYDAY=FR"),
        ("YEARLY", "BYMONTH=1;BYDAY=MO,WE"), ("YEARLY", "BYSETPOS=-1;BYMONTH=12;BYDAY=MO,TU,WE,TH,FR"),
        ("YEARLY", "BYMONTH=6,7;BYMONTHDAY=1,15;BYHOUR=8,20"), ("YEARLY", "BYDAY=1MO,-1MO"),
        ("MONTHLY", "BYMONTHDAY=31"), ("MONTHLY", "BYMONTHDAY=-1"), ("MONTHLY", "BYMONTHDAY=1,-1"), ("MONTHLY", "BYMONTHDAY=30"),
        ("MONTHLY", "BYDAY=1MO"), ("MONTHLY", "BYDAY=-1SU"), ("MONTHLY", "BYDAY=2TU,4TU"), ("MONTHLY", "BYDAY=5FR"),
        ("MONTHLY", "BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1"), ("MONTHLY", "BYDAY=MO,TU,WE,TH,FR;BYSETPOS=1,3"),
        ("MONTHLY", "BYDAY=SA,SU;BYSETPOS=2"), ("MONTHLY", "BYMONTHDAY=13;BYDAY=FR"), ("MONTHLY", "BYDAY=TU;BYMONTHDAY=2,3,4,5,6,7,8"),
        ("MONTHLY", "BYMONTH=1,4,7,10;BYMONTHDAY=15"), ("MONTHLY", "BYDAY=TH;BYSETPOS=-2"), ("MONTHLY", "BYHOUR=9,17;BYMINUTE=0,30;BYMONTHDAY=10"),
        ("MONTHLY", "BYDAY=MO;BYSETPOS=2;BYHOUR=10,14"),
        ("WEEKLY", "BYDAY=MO,WE,FR"), ("WEEKLY", "BYDAY=TU,TH;INTERVAL=2"), ("WEEKLY", "INTERVAL=2;BYDAY=TU,SU;WKST=MO"),
        ("WEEKLY", "INTERVAL=2;BYDAY=TU,SU;WKST=SU"), ("WEEKLY", "BYDAY=SA,SU;WKST=SA;INTERVAL=3"), ("WEEKLY", "BYMONTH=3,4"),
        ("WEEKLY", "BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1"), ("WEEKLY", "BYHOUR=8,12,18"), ("WEEKLY", "BYDAY=FR;BYHOUR=7;BYMINUTE=15,45"),
        ("DAILY", "BYMONTH=1,2"), ("DAILY", "BYMONTHDAY=1,15,-1"), ("DAILY", "BYDAY=MO,FR"), ("DAILY", "BYHOUR=6,18"),
        ("DAILY", "BYHOUR=9;BYMINUTE=0,20,40"), ("DAILY", "BYMINUTE=5;BYSECOND=10,50"), ("DAILY", "INTERVAL=10;BYDAY=SA"),
        ("DAILY", "BYHOUR=8,9,10;BYSETPOS=2"), ("DAILY", "BYDAY=TU;BYMONTHDAY=1,2,3,4,5,6,7"),
        ("HOURLY", "BYHOUR=9,10,11"), ("HOURLY", "INTERVAL=5"), ("HOURLY", "BYDAY=SA,SU"), ("HOURLY", "BYMINUTE=0,30"),
        ("HOURLY", "INTERVAL=7;BYHOUR=1,8,15,22"), ("HOURLY", "BYMONTHDAY=10,20"), ("HOURLY", "BYMINUTE=15;BYSECOND=0,30;BYSETPOS=-1"),
        ("MINUTELY", "BYHOUR=10"), ("MINUTELY", "INTERVAL=15;BYHOUR=9,10,11,12,13,14,15,16"), ("MINUTELY", "BYMINUTE=0,59"),
        ("MINUTELY", "INTERVAL=7;BYSECOND=0,30"), ("MINUTELY", "BYDAY=MO;INTERVAL=20"),
        ("SECONDLY", "INTERVAL=7"), ("SECONDLY", "BYSECOND=0,15,30,45"), ("SECONDLY", "BYMINUTE=31;BYSECOND=5,10"),
        ("SECONDLY", "INTERVAL=13;BYSECOND=1,2,3,4,5,6,7,8,9,10"),
    ]
    for freq, parts in by_parts:
        for variant in range(3):
            kind = ["zoned", "utc", "floating"][variant] if freq in ("HOURLY", "MINUTELY", "SECONDLY") else rnd.choice(kinds)
            zone = ZONES[(len(cases) + variant) % len(ZONES)]
            start = dt.datetime(2025 + variant, rnd.choice([1, 2, 3]), rnd.randint(1, 28), rnd.choice([8, 9, 11, 13]), rnd.choice([0, 15, 30]), 0)
            if kind == "date":
                start = start.replace(hour=0, minute=0)
            rule = f"FREQ={freq};{parts}"
            if variant == 1 and "COUNT" not in rule:
                rule += f";COUNT={rnd.choice([3, 10, 25])}"
            if "BYHOUR" in parts or "BYMINUTE" in parts or "BYSECOND" in parts:
                if kind == "date":
                    kind = "zoned"
            length = None if kind == "date" else dt.timedelta(minutes=rnd.choice([0, 30, 45]))
            ev = master(f"by-{len(cases)}", start, kind, zone, rule, length)
            win_start = dt.datetime(start.year, start.month, 1, tzinfo=UTC)
            add(f"{freq};{parts} {kind}", [ev], win_start, window_for(freq))

    # 3. EXDATE, RDATE (DATE-TIME and PERIOD), RECURRENCE-ID overrides, THISANDFUTURE.
    for i in range(45):
        kind = ["zoned", "utc", "floating", "date"][i % 4]
        zone = ZONES[i % len(ZONES)]
        start = dt.datetime(2026, 2, 2 + i % 20, 10, 0, 0) if kind != "date" else dt.datetime(2026, 2, 2 + i % 20)
        freq = ["DAILY", "WEEKLY", "MONTHLY"][i % 3]
        step = {"DAILY": dt.timedelta(days=1), "WEEKLY": dt.timedelta(weeks=1), "MONTHLY": dt.timedelta(days=31)}[freq]
        rule = f"FREQ={freq};COUNT=12" if freq != "MONTHLY" else "FREQ=MONTHLY;COUNT=12"

        def nth(n):
            if freq == "MONTHLY":
                m = start.month - 1 + n
                return start.replace(year=start.year + m // 12, month=m % 12 + 1)
            return start + step * n

        extra = []
        ex = [nth(2), nth(5)]
        if kind == "date":
            extra.append("EXDATE;VALUE=DATE:" + ",".join(x.strftime("%Y%m%d") for x in ex))
            extra.append("RDATE;VALUE=DATE:" + (start + dt.timedelta(days=400)).strftime("%Y%m%d") + "," + (nth(3) + dt.timedelta(days=1)).strftime("%Y%m%d"))
        else:
            if kind == "zoned":
                extra.append(f"EXDATE;TZID={zone}:" + ",".join(fmt_local(x) for x in ex))
                extra.append(f"RDATE;TZID={zone}:" + fmt_local(nth(3) + dt.timedelta(hours=5)))
            elif kind == "utc":
                extra.append("EXDATE:" + ",".join(fmt_local(x) + "Z" for x in ex))
                if i % 2:
                    extra.append("RDATE;VALUE=PERIOD:" + fmt_local(nth(3) + dt.timedelta(hours=5)) + "Z/PT3H")
                else:
                    extra.append("RDATE:" + fmt_local(nth(3) + dt.timedelta(hours=5)) + "Z")
            else:
                extra.append("EXDATE:" + ",".join(fmt_local(x) for x in ex))
                extra.append("RDATE:" + fmt_local(nth(4) + dt.timedelta(hours=2)))
        uid = f"mod-{i}"
        events = [master(uid, start, kind, zone, rule, None if kind == "date" else dt.timedelta(hours=1), extra)]
        # A moved instance with a new title.
        rid = nth(1)
        moved = rid + (dt.timedelta(days=1) if kind == "date" else dt.timedelta(hours=3, minutes=15))
        ov = [f"UID:{uid}", "DTSTAMP:20250101T000000Z", dtstart_lines("RECURRENCE-ID", rid, kind, zone),
              dtstart_lines("DTSTART", moved, kind, zone),
              dtstart_lines("DTEND", moved + (dt.timedelta(days=1) if kind == "date" else dt.timedelta(minutes=30)), kind, zone),
              "SUMMARY:Moved", "SEQUENCE:1"]
        events.append(ov)
        if i % 3 == 0:
            # Cancelled instance via STATUS, left out by both.
            rid2 = nth(6)
            events.append([f"UID:{uid}", "DTSTAMP:20250101T000000Z", dtstart_lines("RECURRENCE-ID", rid2, kind, zone),
                           dtstart_lines("DTSTART", rid2, kind, zone), "STATUS:CANCELLED", "SUMMARY:Cancelled"])
        if i % 5 == 1 and kind != "date":
            rid3 = nth(8)
            new = rid3 + dt.timedelta(hours=2)
            events.append([f"UID:{uid}", "DTSTAMP:20250101T000000Z",
                           dtstart_lines("RECURRENCE-ID", rid3, kind, zone).replace("RECURRENCE-ID", "RECURRENCE-ID;RANGE=THISANDFUTURE", 1),
                           dtstart_lines("DTSTART", new, kind, zone), dtstart_lines("DTEND", new + dt.timedelta(hours=2), kind, zone),
                           "SUMMARY:Later from here", "SEQUENCE:2"])
        add(f"overrides {freq} {kind}", events, dt.datetime(2026, 1, 1, tzinfo=UTC), dt.timedelta(days=800))

    # 4. DST transitions: gaps and repeated hours, in zones with and without DST.
    dst = [
        ("America/New_York", dt.datetime(2026, 3, 1, 2, 30), "FREQ=DAILY;COUNT=20"),
        ("America/New_York", dt.datetime(2026, 10, 25, 1, 30), "FREQ=DAILY;COUNT=20"),
        ("America/New_York", dt.datetime(2026, 3, 8, 0, 0), "FREQ=HOURLY;COUNT=6"),
        ("America/New_York", dt.datetime(2026, 11, 1, 0, 30), "FREQ=HOURLY;COUNT=5"),
        ("Europe/London", dt.datetime(2026, 3, 2, 9, 0), "FREQ=WEEKLY;BYDAY=MO;COUNT=10"),
        ("Europe/London", dt.datetime(2026, 3, 1, 1, 30), "FREQ=DAILY;COUNT=40"),
        ("Europe/London", dt.datetime(2026, 10, 1, 1, 30), "FREQ=DAILY;COUNT=40"),
        ("Europe/Berlin", dt.datetime(2026, 3, 29, 2, 30), "FREQ=YEARLY;COUNT=4"),
        ("Europe/Berlin", dt.datetime(2026, 1, 1, 2, 30), "FREQ=MONTHLY;BYDAY=-1SU;COUNT=24"),
        ("Australia/Sydney", dt.datetime(2026, 3, 20, 2, 30), "FREQ=DAILY;COUNT=30"),
        ("Australia/Sydney", dt.datetime(2026, 9, 20, 2, 30), "FREQ=DAILY;COUNT=30"),
        ("Pacific/Auckland", dt.datetime(2026, 4, 1, 2, 30), "FREQ=DAILY;COUNT=15"),
        ("Pacific/Auckland", dt.datetime(2026, 9, 20, 2, 30), "FREQ=WEEKLY;COUNT=5"),
        ("Asia/Riyadh", dt.datetime(2026, 1, 5, 9, 0), "FREQ=WEEKLY;BYDAY=MO;COUNT=60"),
        ("America/Los_Angeles", dt.datetime(2026, 3, 8, 1, 0), "FREQ=MINUTELY;INTERVAL=20;COUNT=12"),
        ("America/Los_Angeles", dt.datetime(2026, 11, 1, 0, 45), "FREQ=MINUTELY;INTERVAL=30;COUNT=8"),
        ("Asia/Kolkata", dt.datetime(2026, 1, 1, 23, 45), "FREQ=DAILY;COUNT=10"),
        ("Europe/London", dt.datetime(2026, 1, 1, 9, 0), "FREQ=WEEKLY;BYDAY=MO,WE;UNTIL=20261231T235959Z"),
        ("America/New_York", dt.datetime(2026, 1, 1, 9, 0), "FREQ=MONTHLY;BYDAY=2SU;BYHOUR=1,2,3;COUNT=36"),
        ("Europe/Berlin", dt.datetime(2026, 1, 1, 12, 0), "FREQ=DAILY;UNTIL=20260601T100000Z"),
    ]
    for j, (zone, start, rule) in enumerate(dst):
        for length in (dt.timedelta(minutes=30), dt.timedelta(hours=1)):
            ev = master(f"dst-{j}-{length.seconds}", start, "zoned", zone, rule, length)
            add(f"DST {zone} {rule}", [ev], dt.datetime(2026, 1, 1, tzinfo=UTC), dt.timedelta(days=1200))

    # 5a. Zones named by a calendar's own VTIMEZONE or by Windows names, and DURATION.
    custom_vtimezone = ["BEGIN:VTIMEZONE", "TZID:Custom London", "BEGIN:DAYLIGHT", "TZOFFSETFROM:+0000", "TZOFFSETTO:+0100",
                        "DTSTART:19810329T010000", "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU", "END:DAYLIGHT", "BEGIN:STANDARD",
                        "TZOFFSETFROM:+0100", "TZOFFSETTO:+0000", "DTSTART:19961027T020000", "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU",
                        "END:STANDARD", "END:VTIMEZONE"]
    for j, (zone, rule, extra) in enumerate([
        ("Custom London", "FREQ=WEEKLY;BYDAY=MO;COUNT=30", []),
        ("Custom London", "FREQ=DAILY;COUNT=60", ["DURATION:PT45M"]),
        ("Arab Standard Time", "FREQ=WEEKLY;BYDAY=SU,TU;COUNT=20", []),
        ("W. Europe Standard Time", "FREQ=MONTHLY;BYDAY=-1FR;COUNT=14", []),
        ("Eastern Standard Time", "FREQ=WEEKLY;BYDAY=TH;COUNT=40", ["DURATION:PT2H"]),
        ("Europe/Berlin", "FREQ=DAILY;COUNT=10", ["DURATION:P1DT2H"]),
    ]):
        start = dt.datetime(2026, 2, 2, 9, 15)
        ev = master(f"zone-{j}", start, "zoned", zone, rule, None if extra else dt.timedelta(hours=1), extra)
        cal = make_calendar([ev])
        if zone == "Custom London":
            cal = cal.replace("BEGIN:VEVENT", "\r\n".join(custom_vtimezone) + "\r\nBEGIN:VEVENT", 1)
        cases.append({"name": f"zone {zone} {rule} {extra}", "ics": cal, "from": dt.datetime(2026, 1, 1, tzinfo=UTC),
                      "to": dt.datetime(2027, 1, 1, tzinfo=UTC)})

    # 5b. To-dos (DTSTART/DUE/DURATION, DUE only) and journal entries.
    todo_shapes = [
        ("dtstart+due", lambda st, k, z: [dtstart_lines("DTSTART", st, k, z), dtstart_lines("DUE", st + (dt.timedelta(days=2) if k == "date" else dt.timedelta(hours=3)), k, z)]),
        ("due only", lambda st, k, z: [dtstart_lines("DUE", st, k, z)]),
        ("dtstart only", lambda st, k, z: [dtstart_lines("DTSTART", st, k, z)]),
        ("dtstart+duration", lambda st, k, z: [dtstart_lines("DTSTART", st, k, z), "DURATION:" + ("P2D" if k == "date" else "PT90M")]),
    ]
    for j, (shape, make) in enumerate(todo_shapes):
        for kind in kinds:
            zone = ZONES[j % len(ZONES)]
            start = dt.datetime(2026, 3, 3, 10, 0) if kind != "date" else dt.datetime(2026, 3, 3)
            rule = ["FREQ=WEEKLY;COUNT=10", "FREQ=MONTHLY;BYMONTHDAY=3,-1;COUNT=12", "FREQ=DAILY;INTERVAL=3;COUNT=20", "FREQ=YEARLY;COUNT=3"][j]
            todo = [f"UID:todo-{j}-{kind}", "DTSTAMP:20250101T000000Z"] + make(start, kind, zone) + ["RRULE:" + rule, f"SUMMARY:To-do {shape}"]
            cases.append({"name": f"VTODO {shape} {kind} {rule}", "ics": make_calendar([todo], "VTODO"), "components": ["VTODO"],
                          "from": dt.datetime(2026, 1, 1, tzinfo=UTC), "to": dt.datetime(2027, 6, 1, tzinfo=UTC)})
    for kind in kinds:
        start = dt.datetime(2026, 1, 12, 20, 0) if kind != "date" else dt.datetime(2026, 1, 12)
        journal = ["UID:journal-" + kind, "DTSTAMP:20250101T000000Z", dtstart_lines("DTSTART", start, kind, "Europe/London"),
                   "RRULE:FREQ=WEEKLY;BYDAY=MO,TH;COUNT=15", "SUMMARY:Diary"]
        cases.append({"name": f"VJOURNAL {kind}", "ics": make_calendar([journal], "VJOURNAL"), "components": ["VJOURNAL"],
                      "from": dt.datetime(2026, 1, 1, tzinfo=UTC), "to": dt.datetime(2026, 6, 1, tzinfo=UTC)})

    # 5c. Identifying instances across zones: RECURRENCE-ID / EXDATE / RDATE written in another
    # zone or in UTC than DTSTART (a known pain point between clients), and two RRULEs.
    def to_zone(local, src, dst):
        from zoneinfo import ZoneInfo
        aware = local.replace(tzinfo=ZoneInfo(src))
        return aware.astimezone(UTC if dst == "UTC" else ZoneInfo(dst)).replace(tzinfo=None)

    for j, (series_zone, other) in enumerate([("Europe/London", "America/New_York"), ("Asia/Riyadh", "UTC"),
                                              ("America/Los_Angeles", "Europe/Berlin"), ("Australia/Sydney", "UTC")]):
        start = dt.datetime(2026, 3, 2, 9, 0)
        uid = f"cross-{j}"
        def written(name, local):
            moved = to_zone(local, series_zone, other)
            return f"{name}:{fmt_local(moved)}Z" if other == "UTC" else f"{name};TZID={other}:{fmt_local(moved)}"
        extra = [written("EXDATE", start + dt.timedelta(weeks=3)), written("RDATE", start + dt.timedelta(weeks=2, days=2))]
        events = [master(uid, start, "zoned", series_zone, "FREQ=WEEKLY;COUNT=12", dt.timedelta(hours=1), extra)]
        rid = start + dt.timedelta(weeks=5)
        new = rid + dt.timedelta(days=1, hours=1)
        events.append([f"UID:{uid}", "DTSTAMP:20250101T000000Z", written("RECURRENCE-ID", rid),
                       dtstart_lines("DTSTART", new, "zoned", series_zone), dtstart_lines("DTEND", new + dt.timedelta(hours=2), "zoned", series_zone),
                       "SUMMARY:Moved (other zone id)", "SEQUENCE:1"])
        add(f"cross-zone ids {series_zone} / {other}", events, dt.datetime(2026, 1, 1, tzinfo=UTC), dt.timedelta(days=365))
    for j, rules in enumerate([("FREQ=WEEKLY;BYDAY=MO;COUNT=8", "FREQ=MONTHLY;BYMONTHDAY=15;COUNT=4"),
                               ("FREQ=DAILY;INTERVAL=10", "FREQ=WEEKLY;BYDAY=FR;UNTIL=20260601T000000Z")]):
        start = dt.datetime(2026, 1, 5, 12, 0)
        ev = master(f"two-rules-{j}", start, "zoned", "Europe/Berlin", rules[0], dt.timedelta(minutes=45), ["RRULE:" + rules[1]])
        add(f"two RRULEs {rules}", [ev], dt.datetime(2026, 1, 1, tzinfo=UTC), dt.timedelta(days=300))

    # 5. Random combinations.
    attempts = 0
    while len(cases) < 480 and attempts < 5000:
        attempts += 1
        freq = rnd.choice(freqs[:4])
        parts = [f"FREQ={freq}"]
        if rnd.random() < 0.4:
            parts.append(f"INTERVAL={rnd.randint(2, 4)}")
        if rnd.random() < 0.4:
            parts.append("BYMONTH=" + ",".join(str(m) for m in sorted(rnd.sample(range(1, 13), rnd.randint(1, 4)))))
        if freq != "WEEKLY" and rnd.random() < 0.4:
            parts.append("BYMONTHDAY=" + ",".join(str(d) for d in rnd.sample([1, 2, 5, 10, 15, 28, 29, 30, 31, -1, -2, -7], rnd.randint(1, 3))))
        if rnd.random() < 0.5:
            if freq in ("MONTHLY", "YEARLY") and rnd.random() < 0.5:
                parts.append("BYDAY=" + ",".join(f"{rnd.choice([1, 2, 3, -1, -2])}{d}" for d in rnd.sample(DAYS, rnd.randint(1, 2))))
            else:
                parts.append("BYDAY=" + ",".join(rnd.sample(DAYS, rnd.randint(1, 4))))
        if rnd.random() < 0.3:
            parts.append("BYHOUR=" + ",".join(str(h) for h in sorted(rnd.sample(range(6, 22), rnd.randint(1, 3)))))
        if rnd.random() < 0.2 and len(parts) > 1:
            parts.append("BYSETPOS=" + rnd.choice(["1", "-1", "2", "1,-1"]))
        if rnd.random() < 0.3:
            parts.append("WKST=" + rnd.choice(DAYS))
        if rnd.random() < 0.5:
            parts.append(f"COUNT={rnd.randint(1, 40)}")
        kind = rnd.choice(kinds)
        if "BYHOUR" in "".join(parts) and kind == "date":
            kind = "utc"
        zone = rnd.choice(ZONES)
        start = dt.datetime(2026, rnd.randint(1, 12), rnd.randint(1, 28), rnd.randint(7, 19), rnd.choice([0, 30]))
        if kind == "date":
            start = start.replace(hour=0, minute=0)
        ev = master(f"rand-{len(cases)}", start, kind, zone, ";".join(parts), None if kind == "date" else dt.timedelta(minutes=rnd.choice([15, 60, 120])))
        add("random " + ";".join(parts) + " " + kind, [ev], dt.datetime(2026, 1, 1, tzinfo=UTC), window_for(freq) if freq != "DAILY" else dt.timedelta(days=400))
    return cases


def with_reference(cases):
    kept = []
    for case in cases:
        try:
            expected = reference(case["ics"], case["from"], case["to"], case.get("components", ["VEVENT"]))
        except Exception as error:  # the reference refuses some inputs; those are not evidence
            print(f"skip {case['name']}: reference failed: {error}", file=sys.stderr)
            continue
        kept.append({"name": case["name"], "ics": case["ics"], "components": case.get("components", ["VEVENT"]),
                     "from": iso(case["from"]), "to": iso(case["to"]), "expected": expected})
    return kept


def generate(args):
    cases = with_reference(build_cases())
    header = {"generator": "scripts/ical/recurrence_cases.py",
              "reference": f"icalendar {icalendar.__version__}, recurring-ical-events {importlib.metadata.version('recurring-ical-events')}"}
    with open(args.output, "w") as f:
        # One case per line: small diffs when the generator changes, still valid JSON.
        f.write("{" + json.dumps(header)[1:-1] + ', "cases": [\n')
        f.write(",\n".join(json.dumps(c, ensure_ascii=False, separators=(",", ":")) for c in cases))
        f.write("\n]}\n")
    total = sum(len(c["expected"]) for c in cases)
    print(f"wrote {len(cases)} cases, {total} instances, to {os.path.relpath(args.output)}")


def compare(args):
    cases = with_reference(build_cases())
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "case.ics")
        for case in cases:
            with open(path, "w") as f:
                f.write(case["ics"])
            kinds = [arg for name in case["components"] for arg in ("--component", name)]
            run = subprocess.run(args.binary + ["expand", path, "--from", case["from"], "--to", case["to"]] + kinds,
                                 capture_output=True, text=True, timeout=60)
            got = [json.loads(line) for line in run.stdout.splitlines() if line.strip()]
            got = sorted(({k: o[k] for k in ("uid", "start", "end", "allDay", "summary")} for o in got),
                         key=lambda o: (o["start"], o["uid"], o["end"], o["summary"]))
            for o in got:
                o["summary"] = o["summary"] or ""
            if run.returncode != 0 or got != case["expected"]:
                failures += 1
                print(f"DIFFERENT: {case['name']} (exit {run.returncode}) {run.stderr.strip()[:200]}")
                exp = {json.dumps(o, sort_keys=True) for o in case["expected"]}
                have = {json.dumps(o, sort_keys=True) for o in got}
                for o in sorted(exp - have)[:5]:
                    print("   only reference:", o)
                for o in sorted(have - exp)[:5]:
                    print("   only jadwal:   ", o)
    print(f"{len(cases) - failures}/{len(cases)} cases identical")
    return 1 if failures else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    g = sub.add_parser("generate")
    g.add_argument("--output", default=FIXTURE)
    c = sub.add_parser("compare")
    c.add_argument("--binary", nargs="+", default=["swift", "run", "jadwal", "ics"],
                   help="command that accepts `expand FILE --from --to` (e.g. .build/debug/jadwal ics)")
    args = parser.parse_args()
    if args.command == "generate":
        generate(args)
        return 0
    return compare(args)


if __name__ == "__main__":
    sys.exit(main())
