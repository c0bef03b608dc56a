#!/usr/bin/env python3
"""Write Tests/ConversationsTests/Fixtures/extraction/probes-h.jsonl: Reader H's probes.

Each probe isolates one phenomenon read from round 8's errors, in other words and dialects than
round 8's. Every gold day is computed with datetime from the date the plan was said.
"""
import datetime as dt
import pathlib

from probe_items import FRI, MON, SAT, SUN, THU, TUE, WED, ProbeSet, weekday_after, write  # noqa: F401

OUT = pathlib.Path(__file__).resolve().parents[2] / "Tests/ConversationsTests/Fixtures/extraction/probes-h.jsonl"
ZONES = {"Asia/Riyadh": "+03:00", "Africa/Cairo": "+02:00", "Asia/Amman": "+03:00", "Asia/Kolkata": "+05:30",
         "Africa/Algiers": "+01:00", "Europe/London": "+00:00", "Asia/Dubai": "+04:00", "America/Chicago": "-05:00",
         "Asia/Beirut": "+02:00", "Africa/Casablanca": "+01:00", "Asia/Kuwait": "+03:00", "Africa/Lagos": "+01:00"}
PRAYERS = {"fajr": "04:50", "dhuhr": "11:45", "asr": "14:50", "maghrib": "17:10", "isha": "18:30"}
BASE = dt.date(2027, 1, 11)  # a Monday


probe = ProbeSet(BASE, ZONES, PRAYERS).probe


TOMORROW = BASE + dt.timedelta(days=1)
PROBES = [
    # The hour that closes the answer to "what time?" is the plan's time.
    probe("h-hour-01", "en", "Europe/London", [("A", "Fancy the car boot sale on Sunday morning?"), ("B", "go on then, what time?"),
          ("A", "I'll swing by yours 9"), ("B", "perfect")], "HAS_EVENT_AGREED", weekday_after(BASE, SUN), "09:00", "Car boot sale", tags=["hour-answers-what-time"]),
    probe("h-hour-02", "ar", "Africa/Cairo", [("A", "تيجي نروح السوق الجمعة الصبح بدري؟"), ("B", "ماشي، الساعة كام؟"),
          ("A", "هعدي عليك ٧"), ("B", "تمام")], "HAS_EVENT_AGREED", weekday_after(BASE, FRI), "07:00", "السوق", tags=["hour-answers-what-time"]),
    probe("h-hour-03", "mixed", "Asia/Beirut", [("A", "badna nrou7 3al ba7r yom el jum3a, btiji?"), ("B", "akeed, ay sa3a?"),
          ("A", "mnetla2a 3and el dawar 5"), ("B", "tamam")], "HAS_EVENT_AGREED", weekday_after(BASE, FRI), "17:00", "Ba7r", tags=["hour-answers-what-time"]),
    probe("h-hour-04", "ar", "Asia/Riyadh", [("A", "نطلع البر الخميس؟"), ("B", "ابشر، كم الساعة؟"),
          ("A", "امرك ٤ العصر"), ("B", "تم")], "HAS_EVENT_AGREED", weekday_after(BASE, THU), "16:00", "البر", tags=["hour-answers-what-time"]),
    # Busy until an hour says when one is free; it is no refusal of a plan whose hour is open.
    probe("h-until-01", "en", "Asia/Kolkata", [("A", "Shall we catch a movie at Phoenix mall on Friday evening?"),
          ("B", "Friday I have office till 7, after that I'm free"), ("A", "ok 8 pm show then"), ("B", "done")],
          "HAS_EVENT_AGREED", weekday_after(BASE, FRI), "20:00", "Movie", "Phoenix mall", tags=["busy-until"]),
    probe("h-until-02", "ar", "Asia/Amman", [("A", "بتيجي نلعب فوتبول بكرة؟"), ("B", "بكرة عندي شغل لحد الساعة ٥"),
          ("A", "طيب منلعب الساعة ٧"), ("B", "تمام")], "HAS_EVENT_AGREED", TOMORROW, "19:00", "فوتبول", tags=["busy-until"]),
    probe("h-until-03", "mixed", "Africa/Algiers", [("A", "ndirou café el khemis?"), ("B", "el khemis 3andi dars 7atta 4"),
          ("A", "ok 6 f café Milano"), ("B", "saha")], "HAS_EVENT_AGREED", weekday_after(BASE, THU), "18:00", "Café", "café Milano", tags=["busy-until"]),
    probe("h-until-04", "en", "America/Chicago", [("A", "Lake day Saturday, all day?"), ("B", "Saturday I'm at work till 4")],
          "HAS_EVENT_DENIED", weekday_after(BASE, SAT), None, "Lake day", tags=["busy-until", "control"]),
]

if __name__ == "__main__":
    write(OUT, PROBES)
