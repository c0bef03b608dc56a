#!/usr/bin/env python3
"""Write Tests/ConversationsTests/Fixtures/extraction/probes-l.jsonl: Reader L's probes.

Each probe isolates one mechanism read from round 12's errors (blind8), in other words, names and dialects than
round 12's. Every gold day is computed with datetime from the date the plan was said.
"""
import datetime as dt
import pathlib

from probe_items import FRI, MON, SAT, SUN, THU, TUE, WED, ProbeSet, weekday_after, write  # noqa: F401

OUT = pathlib.Path(__file__).resolve().parents[2] / "Tests/ConversationsTests/Fixtures/extraction/probes-l.jsonl"
ZONES = {"Asia/Riyadh": "+03:00", "Asia/Dubai": "+04:00", "Europe/London": "+01:00", "Africa/Casablanca": "+01:00",
         "America/Toronto": "-04:00", "Asia/Amman": "+03:00", "Africa/Cairo": "+03:00",
         "Africa/Algiers": "+01:00", "Asia/Kuwait": "+03:00"}
PRAYERS = {"fajr": "04:20", "dhuhr": "12:05", "asr": "15:30", "maghrib": "18:25", "isha": "19:50"}
BASE = dt.date(2027, 5, 3)  # a Monday

probe = ProbeSet(BASE, ZONES, PRAYERS).probe
FRIDAY = BASE + dt.timedelta(days=4)
# Probes said in the small hours of a Friday, from 00:00.
small_hours_probe = ProbeSet(FRIDAY, ZONES, PRAYERS).probe


def day(weekday):
    return weekday_after(BASE, weekday)


def also_agreed(item, on, clock, title, location=None):
    """The item with a second agreed event beside its first."""
    item["expected"]["otherEvents"] = [{"title": title, "titleAlternatives": [], "start": f"{on.isoformat()}T{clock}", "end": None,
                                        "allDay": False, "location": location, "locationAlternatives": []}]
    return item


PROBES = [
    # An emoji closes what was said before it, as a full stop does; "I'm in <Place>" says where one is, so the day
    # beside it is one's own and the day asked after the emoji is the counter.
    probe("l-emoji-01", "en", "Europe/London", [("A", "climbing Saturday at 11?"), ("B", "Saturday I'm in Leeds 🙈 Sunday at 11?"),
          ("A", "Sunday's grand")], "HAS_EVENT_AGREED", day(SUN), "11:00", "Climbing", tags=["emoji-clause"]),
    probe("l-emoji-02", "mixed", "Asia/Dubai", [("A", "nrou7 el gym el sabt 6?"), ("B", "el sabt ana fi Al Ain 😅 el a7ad 6?"),
          ("A", "tamam el a7ad")], "HAS_EVENT_AGREED", day(SUN), "18:00", "Gym", tags=["emoji-clause"]),
    # The proposer's bare "ok?", "خلاص تمام؟" after the other's answer asks for the plan again; the yes to it agrees.
    probe("l-confirm-01", "ar", "Asia/Riyadh", [("A", "نروح المعرض الأربعاء الساعة ٥؟"), ("B", "الأربعاء عندي دوام لين ٣ بعدها فاضي"),
          ("A", "خلاص تمام؟"), ("B", "تمام")], "HAS_EVENT_AGREED", day(WED), "17:00", "المعرض", tags=["confirm"]),
    probe("l-confirm-02", "en", "America/Toronto", [("A", "skating Thursday at 6?"), ("B", "I'm done with class at 4 so should be fine"),
          ("A", "deal?"), ("B", "yes")], "HAS_EVENT_AGREED", day(THU), "18:00", "Skating", tags=["confirm"]),
    # Asking what the other does on a day, or where they spend it, proposes nothing.
    probe("l-doings-01", "en", "America/Toronto", [("A", "what are you doing Friday night?"), ("B", "staying in, I'm wiped"),
          ("A", "fair enough")], "NO_EVENT", tags=["others-doings"]),
    probe("l-doings-02", "ar", "Asia/Amman", [("A", "هلا سلمى، كيفك؟ وين العيد؟"), ("B", "عند أهلي بإربد"), ("A", "الله يسعدكم")],
          "NO_EVENT", tags=["others-doings"]),
    # "what if <when>?" asks for that when; it holds no condition.
    probe("l-whatif-01", "en", "Europe/London", [("A", "bowling Friday at 7?"), ("B", "Friday I'm on a late shift"),
          ("B", "what if Saturday at 7 instead?"), ("A", "let me check with Sam first"), ("B", "ok")],
          "HAS_EVENT_BUT_NOT_CONFIRMED", day(SAT), "19:00", "Bowling", tags=["what-if"]),
    # The Maghrebi "ila" before a verb is "if": a yes held by it is a condition.
    probe("l-ila-01", "mixed", "Africa/Casablanca", [("A", "nemchiw l bhar ghedda?"), ("B", "ila salit l khedma bekri, wakha")],
          "HAS_EVENT_BUT_NOT_CONFIRMED", BASE + dt.timedelta(days=1), None, "Bhar", tags=["maghrebi-if"]),
    # The way back ("ونرجع نفس اليوم بالليل", "back the same evening") tells when the plan ends, not when it starts,
    # and "the same day" is the day already said, not today.
    probe("l-wayback-01", "ar", "Asia/Dubai", [("A", "نطلع حتا يوم الجمعة الساعة ٧ الصبح، ونرجع نفس اليوم بالليل"), ("B", "تمام معكم")],
          "HAS_EVENT_AGREED", day(FRI), "07:00", "رحلة", tags=["way-back"]),
    probe("l-wayback-02", "en", "Europe/London", [("A", "road trip to the Lakes? we leave Saturday at 8am, back the same day at night"),
          ("B", "yes count me in")], "HAS_EVENT_AGREED", day(SAT), "08:00", "Road trip", tags=["way-back"]),
    # A yes that says back the hour the other has just given keeps an agreed plan agreed, at that hour.
    probe("l-echo-01", "en", "Europe/London", [("A", "five-a-side Sunday at 5?"), ("B", "yes"),
          ("A", "I'll wait for you by the pitch gate at 4:30 then"), ("B", "ok 4:30 gate")],
          "HAS_EVENT_AGREED", day(SUN), "16:30", "Football", tags=["echo-hour"]),
    # "we have to push our meeting" puts the agreed plan off with no new time.
    probe("l-push-01", "en", "America/Toronto", [("A", "sync on the budget Wednesday at 3pm?"), ("B", "works for me"),
          ("A", "ugh, we have to push our sync, I'll let you know a new day"), ("B", "no worries")],
          "HAS_EVENT_DENIED", day(WED), "15:00", "Sync", tags=["push"]),
    # A kin word right after a no ("ما نقدرش خويا") calls the other; it brings no one else in, so the no stands.
    probe("l-vocative-01", "ar", "Africa/Algiers", [("A", "غدوة نروحو للبحر؟ مع العشرة"), ("B", "غدوة ما نقدرش خويا، عندي خدمة")],
          "HAS_EVENT_DENIED", BASE + dt.timedelta(days=1), "10:00", "البحر", tags=["vocative"]),
    # The Maghrebi "إلا" before a word is "if": the yes it holds is a condition.
    probe("l-ila-02", "ar", "Africa/Casablanca", [("A", "نمشيو للسينما نهار السبت مع التسعة؟"), ("B", "واخا، إلا ما خدمتش")],
          "HAS_EVENT_BUT_NOT_CONFIRMED", day(SAT), "21:00", "السينما", tags=["maghrebi-if"]),
    # In a no that asks another day, the part of the day of the no is the refused one; the hour asked is read afresh.
    probe("l-refused-when-01", "en", "Europe/London", [("A", "brunch tomorrow at 10am?"),
          ("B", "tomorrow morning I can't, got a class. Sunday at 4?"), ("A", "Sunday 4 works")],
          "HAS_EVENT_AGREED", day(SUN), "16:00", "Brunch", tags=["refused-when"]),
    probe("l-refused-when-02", "ar", "Asia/Riyadh", [("A", "نفطر بكرة الساعة ٩ الصبح؟"),
          ("B", "بكرة الصبح ما اقدر، عندي محاضرة. وش رايك الخميس الساعة ٤؟"), ("A", "تمام الخميس")],
          "HAS_EVENT_AGREED", day(THU), "16:00", "فطور", tags=["refused-when"]),
    # The Maghrebi way back, "نرجعو نهار الأحد": out Friday at seven, back Sunday.
    probe("l-wayback-03", "ar", "Africa/Casablanca", [("A", "نخرجو للغابة نهار الجمعة مع السابعة الصباح، نرجعو نهار الأحد"), ("B", "موافق")],
          "HAS_EVENT_AGREED", day(FRI), "07:00", "الغابة", tags=["way-back"]),
    # A wish with no time frame ("we should hang out more sometime") touches no plan on the table: the hedged
    # invitation keeps its hour, and the yes answers the wish.
    probe("l-sometime-01", "en", "America/Toronto", [("A", "street parade Saturday at 11, wanna come watch?"), ("B", "depends on work"),
          ("A", "anyway we should hang out more sometime"), ("B", "for sure!")],
          "HAS_EVENT_BUT_NOT_CONFIRMED", day(SAT), "11:00", "Parade", tags=["no-time-frame"]),
    # The inviter's answer to "when?" ("you still coming to help me?" "sure, when?" "Saturday, I'm starting at 9am")
    # offers that when for the invitation, as much as asking would.
    probe("l-when-answer-01", "en", "Europe/London", [("A", "you still coming to help me paint the flat?"), ("B", "sure, when?"),
          ("A", "Saturday, I'm starting at 9am"), ("B", "ok see you then")], "HAS_EVENT_AGREED", day(SAT), "09:00", "Painting",
          tags=["when-answer"]),
    probe("l-when-answer-02", "ar", "Asia/Riyadh", [("A", "تجين تساعديني في تجهيز العزيمة؟"), ("B", "أكيد، متى؟"),
          ("A", "الخميس، بنبدأ الطبخ الساعة ٤ العصر"), ("B", "تمام")], "HAS_EVENT_AGREED", day(THU), "16:00", "العزيمة",
          tags=["when-answer"]),
    probe("l-when-answer-03", "mixed", "Asia/Dubai", [("A", "tiji ma3i el souq?"), ("B", "akeed, emta?"), ("A", "bukra ba3d el 3asr"),
          ("B", "tamam")], "HAS_EVENT_AGREED", BASE + dt.timedelta(days=1), "15:30", "Souq", tags=["when-answer"], relative="asr"),
    # "don't forget <a thing> on <day>" is a reminder: it tells the thing's day, like "the recital is Friday"; asked to
    # attend ("you're coming right?") the thing is a second plan, and otherwise no plan at all.
    also_agreed(probe("l-reminder-01", "en", "Europe/London", [("A", "padel Thursday at 8?"), ("B", "yes"),
                ("A", "and don't forget Sara's leaving drinks at the Crown on Friday, 7. you're coming right?"), ("B", "wouldn't miss it")],
                "HAS_EVENT_AGREED", day(THU), "20:00", "Padel", tags=["reminder"]), day(FRI), "19:00", "Leaving drinks", "the Crown"),
    probe("l-reminder-02", "en", "America/Toronto", [("A", "don't forget your car's booked in for its service on Monday at 8"),
          ("B", "ah thanks, totally slipped my mind")], "NO_EVENT", tags=["reminder", "control"]),
    # Said in the small hours, a weekday that names the day just begun is that day, not the same weekday a week on.
    small_hours_probe("l-small-hours-01", "en", "Europe/London", [("A", "you still up? could you drop me at the airport Friday at 8am?"),
                      ("B", "sure, Friday 8am")], "HAS_EVENT_AGREED", FRIDAY, "08:00", "Airport drop", tags=["small-hours"], hour=0),
    small_hours_probe("l-small-hours-02", "ar", "Asia/Riyadh", [("A", "صاحي؟ توديني المطار الجمعة الساعة ٨ الصبح؟"), ("B", "ابشر")],
                      "HAS_EVENT_AGREED", FRIDAY, "08:00", "توصيلة للمطار", tags=["small-hours"], hour=0),
    # An excuse followed by "then I'm free" ("ba3deen free", "بعدها فاضي") leaves the plan open, as "but free after" does.
    probe("l-free-after-01", "mixed", "Asia/Kuwait", [("A", "nrou7 el ba7ar baacher el 3a9er?"), ("B", "baacher 3indi dawam lain 2, ba3deen free"),
          ("A", "ya3ni ok?"), ("B", "ok zain")], "HAS_EVENT_AGREED", BASE + dt.timedelta(days=1), "15:30", "Ba7ar", tags=["free-after"],
          relative="asr"),
    probe("l-free-after-02", "ar", "Asia/Riyadh", [("A", "نتمشى الخميس الساعة ٥؟"), ("B", "الخميس عندي محاضرة لين ٣، بعدها فاضي"),
          ("A", "خلاص تمام؟"), ("B", "تمام")], "HAS_EVENT_AGREED", day(THU), "17:00", "مشي", tags=["free-after"]),
    # "can we do 8": the number a plan is done at counters.
    probe("l-do-01", "en", "Europe/London", [("A", "quiz night Thursday?"), ("B", "yes! what time"), ("A", "half 7?"),
          ("B", "can we do 8, I've got netball till 7"), ("A", "fine 8 it is")], "HAS_EVENT_AGREED", day(THU), "20:00", "Quiz night",
          tags=["do-counter"]),
    # An apology for answering late ("sorry, was asleep!", "sorry kunt nayma") refuses nothing.
    probe("l-late-answer-01", "en", "America/Toronto", [("A", "hike Saturday at 8am?"), ("B", "sorry, was asleep!"), ("B", "yes I'm in")],
          "HAS_EVENT_AGREED", day(SAT), "08:00", "Hike", tags=["late-answer"]),
    probe("l-late-answer-02", "mixed", "Africa/Casablanca", [("A", "ftour l sebt m3a 10?"), ("B", "sorry kunt nayma 😴"), ("A", "?"),
          ("B", "wakha l sebt")], "HAS_EVENT_AGREED", day(SAT), "10:00", "Ftour", tags=["late-answer"]),
    # Beside an hour asked, one person's own hour ("I'm getting there at 6:30 to save seats") is theirs, not the plan's.
    probe("l-own-hour-01", "en", "America/Toronto", [("A", "dinner Friday?"), ("B", "yes!"), ("A", "7 then? I'm getting there at 6:30 to save seats"),
          ("B", "see you then")], "HAS_EVENT_AGREED", day(FRI), "19:00", "Dinner", tags=["own-hour"]),
    # "see you at 6!" in answer to "padel Tuesday at 6?" says yes.
    probe("l-see-you-01", "en", "Europe/London", [("A", "padel Tuesday at 6?"), ("B", "see you at 6!")],
          "HAS_EVENT_AGREED", day(TUE), "18:00", "Padel", tags=["see-you"]),
    # "ta3 el jam3a": "jam3a" owned by a place is the university, not Friday.
    probe("l-university-01", "mixed", "Asia/Amman", [("A", "bukra 3al 4 bnidros fi el maktabe ta3 el jam3a?"), ("B", "tamam, ana jay")],
          "HAS_EVENT_AGREED", BASE + dt.timedelta(days=1), "16:00", "Dirase", location="el maktabe ta3 el jam3a", tags=["university"]),
    # No plan between the two: a notice ("FYI …") and results that come out tell of things; someone else asking the
    # sender along ("she wants me to come") invites nobody in the chat.
    probe("l-news-01", "en", "Europe/London", [("A", "FYI the lift maintenance is Thursday, use the stairs from 9 to 12"), ("B", "ok thanks")],
          "NO_EVENT", tags=["no-plan"]),
    probe("l-news-02", "en", "America/Toronto", [("A", "my driving test results come out on the 20th 😬"), ("B", "you'll smash it")],
          "NO_EVENT", tags=["no-plan"]),
    probe("l-news-03", "en", "Europe/London", [("A", "my cousin's engagement party is on Friday, she wants me to come"), ("B", "aww cute"),
          ("A", "yeah")], "NO_EVENT", tags=["no-plan"]),
    # "ok 8 it is": the hour taken up, read as a clock in a short yes.
    probe("l-it-is-01", "en", "Europe/London", [("A", "karaoke Friday?"), ("B", "yes! what time does it start"),
          ("A", "half 8, but we should get there for 8 to grab a booth"), ("B", "ok 8 it is")],
          "HAS_EVENT_AGREED", day(FRI), "20:00", "Karaoke", tags=["it-is"]),
    # A change of mind: after a plan is agreed, another day asked for with no activity of its own ("can we do Friday?")
    # moves that plan; when it is turned down, the plan is off.
    probe("l-change-01", "en", "America/Toronto", [("A", "nails Thursday at 5?"), ("B", "yesss"),
          ("B", "ugh my manager moved the stocktake to Thursday evening 😤 can we do Friday?"), ("A", "Friday I've got my son's recital at 6, can't")],
          "HAS_EVENT_DENIED", day(FRI), "17:00", "Nails", tags=["change-of-mind"]),
    probe("l-change-02", "ar", "Asia/Riyadh", [("A", "نروح السينما الخميس الساعة ٩؟"), ("B", "تمام"),
          ("B", "المدير نقل الجرد للخميس 😤 نقدر نروح الجمعة؟"), ("A", "الجمعة عندي عزيمة، ما اقدر")],
          "HAS_EVENT_DENIED", day(FRI), "21:00", "السينما", tags=["change-of-mind"]),
    # "men 4 l 6": the Arabizi range, "from 4 to 6", starts at 4.
    probe("l-range-01", "mixed", "Asia/Amman", [("A", "bukra nil3ab padel men 4 l 6 fi el nadi?"), ("B", "tamam")],
          "HAS_EVENT_AGREED", BASE + dt.timedelta(days=1), "16:00", "Padel", location="el nadi", tags=["arabizi-range"]),
]


if __name__ == "__main__":
    write(OUT, PROBES)
