#!/usr/bin/env python3
"""Write Tests/ConversationsTests/Fixtures/extraction/probes-g.jsonl: reader G's probe set.

Each item isolates one phenomenon the unseen rounds fail on (a time bound to a day named beside
it for something else, an excuse's times, a counter settled in two short messages, a venue with a
bare hour, dialect weekday forms, hedges, dialect yes and no, negations inside a yes, a yes to a
side request, hard negatives, relative dates, several numbers in one message, several events).
Gold days are computed here with datetime from each message's own date (labelling rule 7), so no
date is written by hand.
"""
import datetime as dt
import json
import pathlib

OUT = pathlib.Path(__file__).resolve().parents[2] / "Tests" / "ConversationsTests" / "Fixtures" / "extraction" / "probes-g.jsonl"
DAYS = {"mon": 0, "tue": 1, "wed": 2, "thu": 3, "fri": 4, "sat": 5, "sun": 6}
OFFSETS = {"Asia/Riyadh": "+03:00", "Africa/Cairo": "+02:00", "Asia/Beirut": "+02:00", "Asia/Dubai": "+04:00",
           "Europe/London": "+00:00", "Africa/Casablanca": "+01:00", "America/New_York": "-05:00", "Asia/Baghdad": "+03:00",
           "Asia/Amman": "+03:00", "Asia/Manila": "+08:00", "Asia/Karachi": "+05:00", "Africa/Khartoum": "+02:00", "Asia/Aden": "+03:00", "Asia/Kuwait": "+03:00"}
PRAYERS = {"fajr": "05:02", "dhuhr": "11:48", "asr": "14:51", "maghrib": "17:14", "isha": "18:44"}
NAMES = {"en": ("Sam", "Priya"), "ar": ("أبو خالد", "فهد"), "mixed": ("Omar", "Lina")}


def weekday(base, name, weeks=0):
    """The first such day strictly after base (rule 7), plus whole weeks."""
    delta = (DAYS[name] - base.weekday()) % 7 or 7
    return base + dt.timedelta(days=delta + 7 * weeks)


items = []


def probe(ident, lang, tz, base, messages, status, day=None, time=None, title=None, alts=(), location=None, end=None,
          anchor=None, others=(), tags=()):
    base = dt.date.fromisoformat(base)
    a, b = NAMES[lang]
    clock = dt.datetime.combine(base, dt.time(17, 0))
    out = []
    for index, (who, text) in enumerate(messages):
        clock += dt.timedelta(minutes=3 + index)
        out.append({"sender": a if who == "A" else b, "time": clock.strftime("%Y-%m-%dT%H:%M:00") + OFFSETS[tz], "text": text})
    event = None
    if status != "NO_EVENT":
        start = None
        if day is not None:
            start = day.isoformat() if time is None else f"{day.isoformat()}T{time}"
        if anchor is not None and day is not None:
            start = f"{day.isoformat()}T{PRAYERS[anchor]}"
        event = {"title": title, "titleAlternatives": list(alts), "start": start,
                 "end": None if end is None else f"{day.isoformat()}T{end}", "allDay": day is not None and time is None and anchor is None,
                 "location": location, "locationAlternatives": []}
        if anchor:
            event["startRelativeTo"] = anchor
    expected = {"status": status, "event": event}
    if others:
        expected["otherEvents"] = [{"title": t, "titleAlternatives": [], "start": f"{d.isoformat()}T{h}" if h else d.isoformat(), "end": None,
                                    "allDay": h is None, "location": None, "locationAlternatives": []} for d, h, t in others]
    items.append({"id": f"g-{ident}", "lang": lang, "now": (clock + dt.timedelta(minutes=10)).strftime("%Y-%m-%dT%H:%M:00") + OFFSETS[tz],
                  "timezone": tz, "me": b, "messages": out,
                  "prayerTimes": {"computedFor": base.isoformat(), "city": tz.split("/")[1], "method": "fixed", **PRAYERS},
                  "expected": expected, "tags": list(tags)})


D = dt.date.fromisoformat
AG, PR, DN, NO = "HAS_EVENT_AGREED", "HAS_EVENT_BUT_NOT_CONFIRMED", "HAS_EVENT_DENIED", "NO_EVENT"

# 1. A time binds to the day of its own clause, not to a deadline, shift or flight beside it.
b = "2026-12-07"  # a Monday
probe("day-01", "en", "Europe/London", b, [("A", "Can you let me know by Wednesday? Thinking dinner Friday at 8 at Dishoom"), ("B", "yes that sounds great")],
      AG, weekday(D(b), "fri"), "20:00", "Dinner", location="Dishoom", tags=["deadline-nearby"])
probe("day-02", "en", "America/New_York", b, [("A", "My shift ends Thursday at 6. Lunch Saturday at 1?"), ("B", "perfect")],
      AG, weekday(D(b), "sat"), "13:00", "Lunch", tags=["shift-nearby"])
probe("day-03", "ar", "Asia/Riyadh", b, [("A", "طيارتي الأحد الساعة ١٠ الصبح، خلنا نتقهوى السبت الساعة ٥"), ("B", "تمام")],
      AG, weekday(D(b), "sat"), "17:00", "قهوة", tags=["flight-nearby"])
probe("day-04", "mixed", "Asia/Dubai", b, [("A", "my flight is el talat 7am, so ghada el arba3a 2pm?"), ("B", "tamam")],
      AG, weekday(D(b), "wed"), "14:00", "Lunch", alts=["غداء"], tags=["flight-nearby"])
probe("day-05", "ar", "Africa/Cairo", b, [("A", "رد عليا قبل الخميس، ايه رأيك نتغدى الجمعة الساعة ٣؟"), ("B", "ماشي")],
      AG, weekday(D(b), "fri"), "15:00", "غداء", tags=["deadline-nearby", "egyptian"])
probe("day-06", "en", "Asia/Karachi", b, [("A", "I'm on night duty Tuesday till 8am, so shall we do chai Wednesday at 5?"), ("B", "haan ji done")],
      AG, weekday(D(b), "wed"), "17:00", "Tea", alts=["Chai"], tags=["shift-nearby"])

# 2. A refusal's excuse gives no plan time.
probe("excuse-01", "en", "Europe/London", b, [("A", "Coffee tomorrow at 4?"), ("B", "can't, at work till 6. Saturday?"), ("A", "Saturday works")],
      AG, weekday(D(b), "sat"), "16:00", "Coffee", tags=["excuse-times", "counter"])
probe("excuse-02", "ar", "Asia/Beirut", b, [("A", "بدك نطلع بكرا الساعة ٧؟"), ("B", "ما بقدر، عندي دوام لل ٩")],
      DN, D(b) + dt.timedelta(days=1), "19:00", "طلعة", tags=["excuse-times", "levantine"])
probe("excuse-03", "en", "America/New_York", b, [("A", "Padel Thursday 7pm?"), ("B", "sorry I'm stuck in the office until 8 on Thursday"), ("A", "ah ok another time then")],
      DN, weekday(D(b), "thu"), "19:00", "Padel", tags=["excuse-times"])
probe("excuse-04", "mixed", "Asia/Riyadh", b, [("A", "nit3asha el jum3a 9?"), ("B", "ma a2dar, 3andi shift la 11")],
      DN, weekday(D(b), "fri"), "21:00", "Dinner", tags=["excuse-times"])
probe("excuse-05", "en", "Asia/Manila", b, [("A", "merienda Sunday 3pm?"), ("B", "I have class from 1 to 5 on Sunday but Monday 3pm pwede"), ("A", "sige Monday")],
      AG, weekday(D(b), "mon"), "15:00", "Merienda", alts=["Gathering"], tags=["excuse-times", "counter"])

# 3. A short counter and a short yes settle the counter.
probe("counter-01", "en", "Europe/London", b, [("A", "Dinner Friday at 7?"), ("B", "8?"), ("A", "ok")],
      AG, weekday(D(b), "fri"), "20:00", "Dinner", tags=["counter"])
probe("counter-02", "ar", "Asia/Riyadh", b, [("A", "نتقابل الخميس الساعة ٦؟"), ("B", "خليها ٧"), ("A", "تم")],
      AG, weekday(D(b), "thu"), "19:00", "لقاء", tags=["counter"])
probe("counter-03", "en", "America/New_York", b, [("A", "Gym tomorrow 6am?"), ("B", "7 better"), ("A", "deal")],
      AG, D(b) + dt.timedelta(days=1), "07:00", "Gym", tags=["counter"])
probe("counter-04", "mixed", "Africa/Cairo", b, [("A", "ahwa el sabt 11?"), ("B", "12 a7san"), ("A", "tamam")],
      AG, weekday(D(b), "sat"), "12:00", "Coffee", alts=["قهوة"], tags=["counter"])
probe("counter-05", "en", "Europe/London", b, [("A", "Lunch Tuesday?"), ("B", "Wednesday?"), ("A", "yep")],
      AG, weekday(D(b), "wed"), None, "Lunch", tags=["counter"])
probe("counter-06", "ar", "Asia/Amman", b, [("A", "منلعب بادل الأربعا الساعة ٨؟"), ("B", "الخميس أحسن"), ("A", "ماشي")],
      AG, weekday(D(b), "thu"), "20:00", "بادل", tags=["counter", "levantine"])

# 4. A venue with a bare hour is a timed start.
probe("venue-01", "en", "Europe/London", b, [("A", "Meet at Costa 5 tomorrow?"), ("B", "sure")],
      AG, D(b) + dt.timedelta(days=1), "17:00", "Coffee", alts=["Meetup"], location="Costa", tags=["venue-hour"])
probe("venue-02", "ar", "Asia/Riyadh", b, [("A", "بكرة في كافيه بارنز ٨؟"), ("B", "اوكي")],
      AG, D(b) + dt.timedelta(days=1), "20:00", "قهوة", location="كافيه بارنز", tags=["venue-hour"])
probe("venue-03", "en", "America/New_York", b, [("A", "Saturday, Carmine's on 44th, 7?"), ("B", "See you there")],
      AG, weekday(D(b), "sat"), "19:00", "Dinner", location="Carmine's", tags=["venue-hour"])
probe("venue-04", "mixed", "Africa/Cairo", b, [("A", "bokra fel mall 6?"), ("B", "tamam")],
      AG, D(b) + dt.timedelta(days=1), "18:00", "Shopping", location="mall", tags=["venue-hour"])

# 5. Dialect weekday forms resolve forward.
b2 = "2026-12-14"  # a Monday
probe("wd-01", "ar", "Africa/Cairo", b2, [("A", "نتقابل يوم الخميس الجاي الساعة ٨؟"), ("B", "ماشي")],
      AG, weekday(D(b2), "thu"), "20:00", "لقاء", tags=["egyptian-weekday"])
probe("wd-02", "ar", "Africa/Cairo", b2, [("A", "نروح السينما الحد؟"), ("B", "اشطا")],
      AG, weekday(D(b2), "sun"), None, "سينما", tags=["egyptian-weekday"])
probe("wd-03", "ar", "Asia/Beirut", b2, [("A", "منطلع هالخميس عالعشا الساعة ٨؟"), ("B", "اكيد")],
      AG, weekday(D(b2), "thu"), "20:00", "عشاء", tags=["levantine-weekday"])
probe("wd-04", "ar", "Asia/Amman", b2, [("A", "شو رأيك نروح عالبحر الجمعة الجاية؟"), ("B", "يلا")],
      AG, weekday(D(b2), "fri"), None, "رحلة", alts=["بحر"], tags=["levantine-weekday"])
probe("wd-05", "mixed", "Asia/Beirut", b2, [("A", "yalla nrou7 el cinema el 5amis 9?"), ("B", "akid")],
      AG, weekday(D(b2), "thu"), "21:00", "Cinema", tags=["arabizi-weekday"])
probe("wd-06", "ar", "Africa/Cairo", b2, [("A", "نتغدى يوم التلات الساعة ٢؟"), ("B", "اتفقنا")],
      AG, weekday(D(b2), "tue"), "14:00", "غداء", tags=["egyptian-weekday"])
probe("wd-07", "mixed", "Africa/Cairo", b2, [("A", "net2abel el arba3 el gaya 5?"), ("B", "mashy")],
      AG, weekday(D(b2), "wed"), "17:00", "Meetup", tags=["arabizi-weekday"])
probe("wd-08", "ar", "Asia/Beirut", "2026-12-17", [("A", "هالجمعة منتغدى عند ستي الساعة ١؟"), ("B", "تكرم")],
      AG, weekday(D("2026-12-17"), "fri"), "13:00", "غداء", tags=["levantine-weekday"])

# 6. Hedges are not a yes.
probe("hedge-01", "en", "Europe/London", b, [("A", "BBQ at mine Saturday 4pm?"), ("B", "I'd love to but not sure I can, will let you know")],
      PR, weekday(D(b), "sat"), "16:00", "BBQ", tags=["hedge"])
probe("hedge-02", "ar", "Asia/Riyadh", b, [("A", "نطلع البر الجمعة العصر؟"), ("B", "يمكن، بشوف")],
      PR, weekday(D(b), "fri"), None, "رحلة", anchor="asr", tags=["hedge"])
probe("hedge-03", "ar", "Africa/Cairo", b, [("A", "تعالى نتعشى الخميس الساعة ٩"), ("B", "هحاول آجي بس مش أكيد")],
      PR, weekday(D(b), "thu"), "21:00", "عشاء", tags=["hedge", "egyptian"])
probe("hedge-04", "mixed", "Asia/Amman", b, [("A", "bowling el sabt 7?"), ("B", "yimkin, bshouf w ba2ollak")],
      PR, weekday(D(b), "sat"), "19:00", "Game", alts=["Bowling"], tags=["hedge"])
probe("hedge-05", "en", "America/New_York", b, [("A", "Drinks Thursday at 6?"), ("B", "Sounds fun, maybe!")],
      PR, weekday(D(b), "thu"), "18:00", "Drinks", tags=["hedge"])
probe("hedge-06", "ar", "Asia/Dubai", b, [("A", "نتعشى السبت الساعة ٨؟"), ("B", "ان شاء الله، بس ما اقدر اوعدك")],
      PR, weekday(D(b), "sat"), "20:00", "عشاء", tags=["hedge"])
probe("hedge-07", "ar", "Asia/Beirut", b, [("A", "بتيجي معنا عالحفلة الجمعة الساعة ٩؟"), ("B", "يمكن، بخبرك بكرا")],
      PR, weekday(D(b), "fri"), "21:00", "حفلة", tags=["hedge", "levantine"])
probe("hedge-08", "en", "Europe/London", b, [("A", "Fancy the cinema Sunday at 5?"), ("B", "Ooh possibly, depends on the kids tbh")],
      PR, weekday(D(b), "sun"), "17:00", "Cinema", tags=["hedge"])

# 7. Dialect yes and no.
probe("yes-01", "ar", "Asia/Baghdad", b, [("A", "نروح نتعشى الخميس الساعة ٩؟"), ("B", "ماكو مشكلة، أجي")],
      AG, weekday(D(b), "thu"), "21:00", "عشاء", tags=["dialect-yes", "iraqi"])
probe("yes-02", "ar", "Africa/Casablanca", b, [("A", "نتلاقاو السبت مع 4؟"), ("B", "واخا، نتلاقاو")],
      AG, weekday(D(b), "sat"), "16:00", "لقاء", tags=["dialect-yes", "maghrebi"])
probe("yes-03", "ar", "Africa/Cairo", b, [("A", "نلعب كورة الجمعة الساعة ٤؟"), ("B", "قشطة يا معلم")],
      AG, weekday(D(b), "fri"), "16:00", "كورة", tags=["dialect-yes", "egyptian"])
probe("yes-04", "ar", "Asia/Beirut", b, [("A", "منتغدى سوا الأحد الساعة ٢؟"), ("B", "ع راسي")],
      AG, weekday(D(b), "sun"), "14:00", "غداء", tags=["dialect-yes", "levantine"])
probe("yes-05", "ar", "Africa/Casablanca", b, [("A", "نمشيو للبحر الأحد الصباح؟"), ("B", "ماشي مشكل")],
      AG, weekday(D(b), "sun"), None, "رحلة", tags=["dialect-yes", "maghrebi"])
probe("no-01", "ar", "Asia/Beirut", b, [("A", "منروح عالسينما الجمعة الساعة ٨؟"), ("B", "ما بتزبط معي هالجمعة")],
      DN, weekday(D(b), "fri"), "20:00", "سينما", tags=["dialect-no", "levantine"])
probe("no-02", "ar", "Africa/Casablanca", b, [("A", "نتغداو السبت مع 2؟"), ("B", "والله ما نلحقش، عندي خدمة")],
      DN, weekday(D(b), "sat"), "14:00", "غداء", tags=["dialect-no", "maghrebi"])
probe("no-03", "ar", "Asia/Baghdad", b, [("A", "نطلع باچر العصر؟"), ("B", "ما اگدر باچر")],
      DN, D(b) + dt.timedelta(days=1), None, "طلعة", anchor="asr", tags=["dialect-no", "iraqi"])
probe("no-04", "ar", "Africa/Khartoum", b, [("A", "نتقابل الخميس بعد المغرب؟"), ("B", "والله ما بقدر، معليش")],
      DN, weekday(D(b), "thu"), None, "لقاء", anchor="maghrib", tags=["dialect-no", "sudanese"])

# 8. A negation inside a yes is no refusal.
probe("neg-01", "en", "Europe/London", b, [("A", "Movie Friday 9pm?"), ("B", "Sure, I'm not busy that night")],
      AG, weekday(D(b), "fri"), "21:00", "Cinema", alts=["Movie"], tags=["negation-in-yes"])
probe("neg-02", "en", "America/New_York", b, [("A", "Brunch Sunday at 11?"), ("B", "sorry for the late reply! yes count me in")],
      AG, weekday(D(b), "sun"), "11:00", "Brunch", tags=["negation-in-yes"])
probe("neg-03", "ar", "Asia/Riyadh", b, [("A", "نتعشى الخميس الساعة ٩؟"), ("B", "آسف على التأخير بالرد، أكيد جاي")],
      AG, weekday(D(b), "thu"), "21:00", "عشاء", tags=["negation-in-yes"])
probe("neg-04", "en", "Asia/Karachi", b, [("A", "Cricket Saturday at 3?"), ("B", "yes yes, no problem at all, nothing else that day")],
      AG, weekday(D(b), "sat"), "15:00", "Cricket", alts=["Outing"], tags=["negation-in-yes"])
probe("neg-05", "ar", "Africa/Cairo", b, [("A", "نتقابل السبت الساعة ٦؟"), ("B", "ماشي، مش مشكلة خالص")],
      AG, weekday(D(b), "sat"), "18:00", "لقاء", tags=["negation-in-yes"])

# 9. A yes to a side request agrees nothing.
probe("side-01", "en", "Europe/London", b, [("A", "Dinner Thursday 8?"), ("B", "can you send me the address first?"), ("A", "sure, sending now")],
      PR, weekday(D(b), "thu"), "20:00", "Dinner", tags=["side-request"])
probe("side-02", "en", "America/New_York", b, [("A", "Hike Saturday 7am?"), ("B", "is Dan coming too?"), ("A", "yes")],
      PR, weekday(D(b), "sat"), "07:00", "Hike", alts=["Sport"], tags=["side-request"])
probe("side-03", "ar", "Asia/Riyadh", b, [("A", "نتعشى الجمعة بعد العشاء؟"), ("B", "ترسل لي اللوكيشن؟"), ("A", "اكيد")],
      PR, weekday(D(b), "fri"), None, "عشاء", anchor="isha", tags=["side-request"])

# 10. Hard negatives.
probe("neg-hard-01", "en", "Europe/London", b, [("A", "The assignment is due Thursday at 5, have you finished?"), ("B", "yes almost")],
      NO, tags=["deadline"])
probe("neg-hard-02", "en", "America/New_York", b, [("A", "Are you watching the final Sunday at 9?"), ("B", "yes obviously")],
      NO, tags=["tv"])
probe("neg-hard-03", "ar", "Asia/Riyadh", b, [("A", "المدرسة تبدأ الأحد الساعة ٧ ونص"), ("B", "تمام")],
      NO, tags=["school"])
probe("neg-hard-04", "en", "Asia/Dubai", b, [("A", "My brother's wedding is on the 19th at 6"), ("B", "oh nice, congrats to him!")],
      NO, tags=["other-people"])
probe("neg-hard-05", "ar", "Africa/Cairo", b, [("A", "الماتش بكرة الساعة ٩"), ("B", "اه هتفرج عليه في البيت")],
      NO, tags=["tv"])
probe("neg-hard-06", "mixed", "Asia/Dubai", b, [("A", "el ejar lazem yitdafa3 qabl el khamis"), ("B", "ok")],
      NO, tags=["deadline"])

# 11. Relative dates.
probe("rel-01", "en", "Europe/London", b, [("A", "Lunch Sunday week at 1?"), ("B", "lovely")],
      AG, weekday(D(b), "sun", weeks=1), "13:00", "Lunch", tags=["sunday-week"])
probe("rel-02", "ar", "Asia/Dubai", b, [("A", "عقب باجر نطلع البر؟"), ("B", "ابشر")],
      AG, D(b) + dt.timedelta(days=2), None, "رحلة", tags=["relative"])
probe("rel-03", "ar", "Asia/Beirut", b, [("A", "هالسبت منروح عالبحر؟"), ("B", "اكيد")],
      AG, weekday(D(b), "sat"), None, "رحلة", tags=["relative", "levantine"])
probe("rel-04", "en", "Europe/London", b, [("A", "a week on Friday, drinks at 7?"), ("B", "yes!")],
      AG, weekday(D(b), "fri", weeks=1), "19:00", "Drinks", tags=["relative"])
probe("rel-05", "en", "America/New_York", b, [("A", "tennis the day after tomorrow at 3?"), ("B", "I'm in")],
      AG, D(b) + dt.timedelta(days=2), "15:00", "Tennis", alts=["Sport"], tags=["relative"])
probe("rel-06", "ar", "Asia/Riyadh", b, [("A", "الخميس اللي بعد الجاي نسوي عشا عندي؟"), ("B", "ابشر")],
      AG, weekday(D(b), "thu", weeks=1), None, "عشاء", tags=["relative"])

# 12. The number that is the time among several.
probe("num-01", "en", "Europe/London", b, [("A", "We're 4 people, table at 8:30 Friday at Zaatar w Zeit?"), ("B", "great")],
      AG, weekday(D(b), "fri"), "20:30", "Dinner", location="Zaatar w Zeit", tags=["several-numbers"])
probe("num-02", "en", "America/New_York", b, [("A", "Court 3 is booked Saturday 10 to 11, you in?"), ("B", "yes")],
      AG, weekday(D(b), "sat"), "10:00", "Game", end="11:00", tags=["several-numbers"])
probe("num-03", "en", "Asia/Dubai", b, [("A", "It's 50 dirhams each, escape room Sunday at 2?"), ("B", "👍")],
      AG, weekday(D(b), "sun"), "14:00", "Escape room", alts=["Outing"], tags=["several-numbers"])
probe("num-04", "ar", "Asia/Riyadh", b, [("A", "بنكون ٦ أشخاص، تجي الخميس الساعة ٩ بالليل؟"), ("B", "اكيد")],
      AG, weekday(D(b), "thu"), "21:00", "لقاء", tags=["several-numbers"])

# 13. Several events.
probe("multi-01", "en", "Europe/London", b, [("A", "Cinema Friday 8pm, and brunch Sunday at 11?"), ("B", "yes to both")],
      AG, weekday(D(b), "fri"), "20:00", "Cinema", others=[(weekday(D(b), "sun"), "11:00", "Brunch")], tags=["multi-event"])
probe("multi-02", "ar", "Asia/Riyadh", b, [("A", "نتغدى الخميس الساعة ٢؟"), ("B", "تمام"), ("A", "وبعدين نلعب بادل السبت الساعة ٨ بالليل؟"), ("B", "اكيد")],
      AG, weekday(D(b), "thu"), "14:00", "غداء", others=[(weekday(D(b), "sat"), "20:00", "بادل")], tags=["multi-event"])
probe("multi-03", "en", "America/New_York", b, [("A", "coffee tomorrow 10?"), ("B", "yes"), ("A", "also my sister's party Saturday 7pm, wanna come?"), ("B", "sure!")],
      AG, D(b) + dt.timedelta(days=1), "10:00", "Coffee", others=[(weekday(D(b), "sat"), "19:00", "Party")], tags=["multi-event"])

OUT.write_text("".join(json.dumps(item, ensure_ascii=False) + "\n" for item in items))
print(f"{len(items)} probes -> {OUT}")

# A hold-out written after reader G's first mechanisms and before any were fitted to it: the same
# phenomena in other words, scored once with F and once with G (docs/extraction.md), never tuned on.
items = []
b = "2027-01-11"  # a Monday
probe("h-day-01", "en", "Europe/London", b, [("A", "I've got a dentist appointment Wednesday at 9. Could we grab a pint Thursday at 7 instead?"), ("B", "go on then")],
      AG, weekday(D(b), "thu"), "19:00", "Drinks", tags=["own-day-nearby"])
probe("h-day-02", "ar", "Asia/Riyadh", b, [("A", "انا مداوم الثلاثاء لين ٤، وش رايك نتقهوى الاربعاء الساعة ٨؟"), ("B", "ابشر")],
      AG, weekday(D(b), "wed"), "20:00", "قهوة", tags=["own-day-nearby"])
probe("h-day-03", "mixed", "Africa/Cairo", b, [("A", "ana msafer el 7ad el sob7, tigi nit3asha el sabt 9?"), ("B", "akeed")],
      AG, weekday(D(b), "sat"), "21:00", "Dinner", tags=["own-day-nearby"])
probe("h-excuse-01", "en", "America/New_York", b, [("A", "Tacos tonight at 7?"), ("B", "can't tonight, stuck in the lab until 9. Friday?"), ("A", "Friday's good")],
      AG, weekday(D(b), "fri"), "19:00", "Meal", alts=["Tacos"], tags=["excuse-times"])
probe("h-excuse-02", "ar", "Africa/Cairo", b, [("A", "نتقابل بكرة الساعة ٦؟"), ("B", "مش هقدر، عندي شغل لحد ٨ بكرة")],
      DN, D(b) + dt.timedelta(days=1), "18:00", "لقاء", tags=["excuse-times"])
probe("h-counter-01", "en", "Asia/Dubai", b, [("A", "Breakfast Saturday at 9?"), ("B", "10 instead?"), ("A", "sure")],
      AG, weekday(D(b), "sat"), "10:00", "Breakfast", tags=["counter"])
probe("h-counter-02", "ar", "Asia/Kuwait", b, [("A", "نلعب بلوت الخميس الساعة ٩؟"), ("B", "١٠ ابرك"), ("A", "تم")],
      AG, weekday(D(b), "thu"), "22:00", "بلوت", tags=["counter"])
probe("h-counter-03", "mixed", "Asia/Amman", b, [("A", "argileh el jom3a 8?"), ("B", "9 a7san"), ("A", "yalla")],
      AG, weekday(D(b), "fri"), "21:00", "Gathering", alts=["Argileh"], tags=["counter"])
probe("h-venue-01", "en", "Europe/London", b, [("A", "Friday, Flat Iron in Covent Garden, 8?"), ("B", "see you there")],
      AG, weekday(D(b), "fri"), "20:00", "Dinner", location="Flat Iron in Covent Garden", tags=["venue-hour"])
probe("h-venue-02", "ar", "Asia/Riyadh", b, [("A", "الخميس في مقهى دانة ٧؟"), ("B", "تمام")],
      AG, weekday(D(b), "thu"), "19:00", "قهوة", location="مقهى دانة", tags=["venue-hour"])
probe("h-wd-01", "ar", "Africa/Cairo", b, [("A", "نروح النادي يوم الحد الجاي الساعة ٥؟"), ("B", "ماشي")],
      AG, weekday(D(b), "sun"), "17:00", "النادي", tags=["egyptian-weekday"])
probe("h-wd-02", "ar", "Asia/Beirut", b, [("A", "هالأربعا منتعشى سوا الساعة ٩؟"), ("B", "أكيد")],
      AG, weekday(D(b), "wed"), "21:00", "عشاء", tags=["levantine-weekday"])
probe("h-wd-03", "mixed", "Africa/Cairo", b, [("A", "nrou7 el cinema el 5ames el gai 10?"), ("B", "tamam")],
      AG, weekday(D(b), "thu"), "22:00", "Cinema", tags=["arabizi-weekday"])
probe("h-hedge-01", "en", "America/New_York", b, [("A", "Game night at mine Saturday 7pm?"), ("B", "would love to but let me see if I can get a sitter")],
      PR, weekday(D(b), "sat"), "19:00", "Game night", alts=["Gathering"], tags=["hedge"])
probe("h-hedge-02", "ar", "Asia/Riyadh", b, [("A", "نطلع الاستراحة الجمعة بعد العصر؟"), ("B", "الله كريم، ما اقدر اوعدك")],
      PR, weekday(D(b), "fri"), None, "جلسة", anchor="asr", tags=["hedge"])
probe("h-hedge-03", "mixed", "Asia/Beirut", b, [("A", "bowling el sabt 6?"), ("B", "ma ba3ref, yimkin, bkhabrak")],
      PR, weekday(D(b), "sat"), "18:00", "Game", tags=["hedge"])
probe("h-yes-01", "ar", "Asia/Baghdad", b, [("A", "نروح للمول السبت الساعة ٥؟"), ("B", "اي والله خوش، اجي")],
      AG, weekday(D(b), "sat"), "17:00", "تسوق", tags=["dialect-yes"])
probe("h-no-01", "ar", "Africa/Casablanca", b, [("A", "نخرجو للبحر الحد مع 10؟"), ("B", "سمحلي، ما نقدرش نجي الحد")],
      DN, weekday(D(b), "sun"), "10:00", "رحلة", tags=["dialect-no"])
probe("h-no-02", "ar", "Africa/Cairo", b, [("A", "نتغدى الجمعة الساعة ٣؟"), ("B", "معلش مش هينفع الجمعة خالص")],
      DN, weekday(D(b), "fri"), "15:00", "غداء", tags=["dialect-no"])
probe("h-neg-01", "en", "Europe/London", b, [("A", "Quiz night Tuesday at 8?"), ("B", "I'm never busy on a Tuesday, count me in")],
      AG, weekday(D(b), "tue"), "20:00", "Quiz", alts=["Outing"], tags=["negation-in-yes"])
probe("h-neg-02", "ar", "Asia/Riyadh", b, [("A", "نتعشى السبت الساعة ٩؟"), ("B", "معليش تأخرت بالرد، تمام اكيد")],
      AG, weekday(D(b), "sat"), "21:00", "عشاء", tags=["negation-in-yes"])
probe("h-side-01", "en", "America/New_York", b, [("A", "Movie Friday at 8?"), ("B", "which one? can you send me the trailer"), ("A", "yep sending")],
      PR, weekday(D(b), "fri"), "20:00", "Cinema", tags=["side-request"])
probe("h-hard-01", "en", "Europe/London", b, [("A", "Don't forget the council tax is due Friday"), ("B", "ok thanks")],
      NO, tags=["deadline"])
probe("h-hard-02", "ar", "Asia/Riyadh", b, [("A", "اختي زواجها الخميس الجاي الساعة ٩"), ("B", "الله يتمم لها على خير")],
      NO, tags=["other-people"])
probe("h-hard-03", "mixed", "Africa/Cairo", b, [("A", "el matsh el gom3a el sa3a 8, hatetfarag fen?"), ("B", "fel beit 3adi")],
      NO, tags=["tv"])
probe("h-rel-01", "en", "Europe/London", b, [("A", "Brunch Saturday week at 11?"), ("B", "perfect")],
      AG, weekday(D(b), "sat", weeks=1), "11:00", "Brunch", tags=["sunday-week"])
probe("h-rel-02", "ar", "Asia/Riyadh", b, [("A", "بعد بكرة نروح البر؟"), ("B", "تم")],
      AG, D(b) + dt.timedelta(days=2), None, "رحلة", tags=["relative"])
probe("h-num-01", "en", "Asia/Dubai", b, [("A", "Table for 6 at Zuma, Thursday 9pm?"), ("B", "done")],
      AG, weekday(D(b), "thu"), "21:00", "Dinner", location="Zuma", tags=["several-numbers"])
probe("h-multi-01", "en", "America/New_York", b, [("A", "Coffee Wednesday at 10?"), ("B", "yes!"), ("A", "and dinner Friday at 8?"), ("B", "also yes")],
      AG, weekday(D(b), "wed"), "10:00", "Coffee", others=[(weekday(D(b), "fri"), "20:00", "Dinner")], tags=["multi-event"])
probe("h-multi-02", "ar", "Asia/Riyadh", b, [("A", "نتغدى السبت الساعة ٢؟"), ("B", "تمام، وبعدها نروح السينما الساعة ٥؟"), ("A", "اكيد")],
      AG, weekday(D(b), "sat"), "14:00", "غداء", others=[(weekday(D(b), "sat"), "17:00", "سينما")], tags=["multi-event"])
HOLDOUT = OUT.with_name("probes-g-holdout.jsonl")
HOLDOUT.write_text("".join(json.dumps(item, ensure_ascii=False) + "\n" for item in items))
print(f"{len(items)} hold-out probes -> {HOLDOUT}")
