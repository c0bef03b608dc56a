"""What the reader's probe scripts (make_probes_h/i/j/k.py) share: the item shape, the day
arithmetic and the writing. Each script keeps its own zones, prayer times, base day and probes."""
import datetime as dt
import json

MON, TUE, WED, THU, FRI, SAT, SUN = range(7)


def weekday_after(day, weekday):
    """The first `weekday` (Monday 0) strictly after `day`."""
    return day + dt.timedelta(days=(weekday - day.weekday() - 1) % 7 + 1)


class ProbeSet:
    """Probes said on `base`, one message a minute from `hour`:00, in zones whose offsets are given."""

    def __init__(self, base, zones, prayers):
        self.base, self.zones, self.prayers = base, zones, prayers

    def probe(self, pid, lang, zone, messages, status, day=None, clock=None, title=None, location=None, tags=(),
              relative=None, hour=10, now=None):
        offset = self.zones[zone]
        date = self.base.isoformat()
        msgs = [{"sender": s, "time": f"{date}T{hour:02d}:{i:02d}:00{offset}", "text": t} for i, (s, t) in enumerate(messages)]
        event = None
        if day is not None:
            start = day.isoformat() + (f"T{clock}" if clock else "")
            event = {"title": title, "titleAlternatives": [], "start": start, "end": None, "allDay": clock is None,
                     "location": location, "locationAlternatives": []}
            if relative:
                event["startRelativeTo"] = relative
        return {"id": pid, "lang": lang, "now": f"{date}T{now or f'{hour + 1:02d}:00'}:00{offset}", "timezone": zone,
                "me": messages[-1][0], "messages": msgs,
                "prayerTimes": dict(computedFor=date, city="probe", method="fixed", **self.prayers),
                "expected": {"status": status, "event": event}, "tags": list(tags)}


def write(out, probes):
    with out.open("w", encoding="utf-8") as f:
        for p in probes:
            f.write(json.dumps(p, ensure_ascii=False) + "\n")
    print(f"{len(probes)} probes -> {out}")
