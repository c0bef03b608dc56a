#!/usr/bin/env python3
"""Write Tests/ConversationsTests/Fixtures/extraction/probes-k.jsonl: Reader K's probes.

Each probe isolates one mechanism read from round 11's errors (blind7), in other words, names and dialects than
round 11's. Every gold day is computed with datetime from the date the plan was said; each probe is sent from the
hour given, since some mechanisms depend on when a message was sent.
"""
import datetime as dt
import pathlib

from probe_items import FRI, MON, SAT, SUN, THU, TUE, WED, ProbeSet, weekday_after, write  # noqa: F401

OUT = pathlib.Path(__file__).resolve().parents[2] / "Tests/ConversationsTests/Fixtures/extraction/probes-k.jsonl"
ZONES = {"Asia/Riyadh": "+03:00", "Asia/Beirut": "+03:00", "Europe/London": "+01:00", "Asia/Qatar": "+03:00",
         "America/Chicago": "-05:00", "Africa/Casablanca": "+01:00", "Asia/Karachi": "+05:00"}
PRAYERS = {"fajr": "04:20", "dhuhr": "12:05", "asr": "15:30", "maghrib": "18:25", "isha": "19:50"}
BASE = dt.date(2027, 5, 3)  # a Monday


PROBE_SET = ProbeSet(BASE, ZONES, PRAYERS)


def probe(*args, hour=10, **fields):
    """Reader K's probes are sent from the hour given and read a minute before the next."""
    return PROBE_SET.probe(*args, hour=hour, now=f"{hour:02d}:59", **fields)


TOMORROW = BASE + dt.timedelta(days=1)
PROBES = [
    # A when said for today whose hour had passed, in either half of the day, when the message was sent ("the audit
    # went in today at 2", sent in the evening) tells of something done: it is no plan, and the day and hour asked
    # for next belong to the plan proposed after it.
    probe("k-passed-01", "en", "America/Chicago", [("A", "finally submitted the audit today at 2, what a week"),
          ("B", "nice one"), ("A", "bowling tomorrow to celebrate?"), ("B", "sure, what time?"), ("A", "7 at Lucky Strike"),
          ("B", "7 works")], "HAS_EVENT_AGREED", TOMORROW, "19:00", "Bowling", location="Lucky Strike", tags=["passed-when"], hour=18),
    probe("k-passed-02", "ar", "Asia/Beirut", [("A", "خلصت الامتحان اليوم الساعة ٣ الحمدلله"), ("B", "مبروك!"),
          ("A", "شو رأيك نطلع نتعشى بكرا؟"), ("B", "اكيد، ايمتى؟"), ("A", "الساعة ٨ بالمطعم اللي بالحمرا"), ("B", "تمام ٨")],
          "HAS_EVENT_AGREED", TOMORROW, "20:00", "عشا", tags=["passed-when"], hour=19),
    probe("k-passed-03", "mixed", "Asia/Qatar", [("A", "5alast el dawam elyom el sa3a 4, ta3abt wayed"),
          ("B", "allah y3eenik"), ("A", "bachir nrou7 el ma63am? el sa3a 9 bil lail"), ("B", "ok 9 tamam")],
          "HAS_EVENT_AGREED", TOMORROW, "21:00", "Ma63am", tags=["passed-when"], hour=20),
    probe("k-passed-08", "ar", "Asia/Beirut", [("A", "عندنا مراجعة حسابات ما انتهت الا اليوم الساعة ٣"), ("B", "الله يعطيك العافية"),
          ("A", "شو رأيك نروح ع البحر بكرا؟"), ("B", "فكرة بس الصبح ما بقدر عندي دوام الساعة ٨"), ("A", "خلص خليها بعد العصر"),
          ("B", "تمام بعد العصر بيناسبني")], "HAS_EVENT_AGREED", TOMORROW, "15:30", "البحر", tags=["passed-when"], relative="asr", hour=19),
    probe("k-passed-09", "en", "Europe/London", [("A", "we had our team review today at 1, finally over"),
          ("B", "about time"), ("A", "fancy a walk up Arthur's Seat tomorrow?"), ("B", "can't do the morning, dentist at 9"),
          ("A", "after lunch then, 2?"), ("B", "2 is good")], "HAS_EVENT_AGREED", TOMORROW, "14:00", "Walk", tags=["passed-when"], hour=17),
    probe("k-passed-10", "mixed", "Asia/Qatar", [("A", "3indna meeting ma 5ilas ila elyom el sa3a 3"), ("B", "allah y3eenik"),
          ("A", "shrayik nrou7 el ba7ar bachir?"), ("B", "fikra bs el sob7 ma agdar 3indi dawam el sa3a 8"), ("A", "5alaha ba3d el 3asr"),
          ("B", "tamam ba3d el 3asr")], "HAS_EVENT_AGREED", TOMORROW, "15:30", "Ba7ar", tags=["passed-when"], relative="asr", hour=20),
    # The proposer answering the other's no at once with another time of the same day, said as a statement
    # ("5alaha ba3d el maghrib"), counters; the yes to it agrees.
    probe("k-counter-01", "mixed", "Asia/Qatar", [("A", "nrou7 el souq bukra?"), ("B", "el sob7 ma agdar"),
          ("A", "5alaha ba3d el maghrib"), ("B", "tamam ba3d el maghrib")], "HAS_EVENT_AGREED", TOMORROW, "18:25", "Souq",
          tags=["counter"], relative="maghrib"),
    # Controls: a when for today still to come ("today at 8" said at six) is a plan; a passed one with nothing after it
    # is no event; an invitation after a passed one is open until answered, and a no turns it down.
    probe("k-passed-04", "en", "Europe/London", [("A", "dinner today at 8? the new Lebanese place"), ("B", "yes go on")],
          "HAS_EVENT_AGREED", BASE, "20:00", "Dinner", tags=["passed-when", "control"], hour=18),
    probe("k-passed-05", "ar", "Asia/Riyadh", [("A", "جا السباك اليوم الساعة ٩ وصلّح المغسلة"), ("B", "الحمدلله")],
          "NO_EVENT", tags=["passed-when", "control"], hour=17),
    probe("k-passed-06", "en", "Asia/Karachi", [("A", "landed today at 1, totally shattered"),
          ("B", "welcome back yaar! chai tomorrow at 11?")], "HAS_EVENT_BUT_NOT_CONFIRMED", tags=["passed-when", "control"], hour=21),
    probe("k-passed-07", "mixed", "Asia/Beirut", [("A", "khallast el shi8el el yom 3al 5, ta3bane ktir"),
          ("B", "yalla bukra nit3asha barra?"), ("A", "la2 sorry bukra ma ba2dar")],
          "HAS_EVENT_DENIED", tags=["passed-when", "control"], hour=20),
]


if __name__ == "__main__":
    write(OUT, PROBES)
