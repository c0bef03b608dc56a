#!/usr/bin/env python3
"""Write Tests/ConversationsTests/Fixtures/extraction/probes-j.jsonl: Reader J's probes.

Each probe isolates one phenomenon read from round 10's errors (blind6), in other words, names and dialects than
round 10's. Every gold day is computed with datetime from the date the plan was said.
"""
import datetime as dt
import pathlib

from probe_items import FRI, MON, SAT, SUN, THU, TUE, WED, ProbeSet, weekday_after, write  # noqa: F401

OUT = pathlib.Path(__file__).resolve().parents[2] / "Tests/ConversationsTests/Fixtures/extraction/probes-j.jsonl"
ZONES = {"Asia/Riyadh": "+03:00", "Asia/Dubai": "+04:00", "Asia/Kuwait": "+03:00", "Europe/London": "+01:00",
         "Europe/Paris": "+02:00", "Asia/Kuala_Lumpur": "+08:00", "America/Chicago": "-05:00", "Asia/Amman": "+03:00",
         "Africa/Tunis": "+01:00", "Australia/Perth": "+08:00", "America/New_York": "-04:00", "Asia/Qatar": "+03:00", "Africa/Cairo": "+02:00", "Africa/Khartoum": "+02:00", "Asia/Beirut": "+03:00"}
PRAYERS = {"fajr": "04:20", "dhuhr": "12:05", "asr": "15:30", "maghrib": "18:25", "isha": "19:50"}
BASE = dt.date(2027, 4, 12)  # a Monday, after Ramadan and Eid


probe = ProbeSet(BASE, ZONES, PRAYERS).probe


TOMORROW = BASE + dt.timedelta(days=1)
PROBES = [
    # "quarter to 10": the half of the day is guessed from the hour named (10, the morning), not the 9 it comes to;
    # "quarter to 1" is a quarter to one in the afternoon.
    probe("j-quarterto-01", "en", "Europe/London", [("A", "Can you help me move the bookcase on Sunday? Come round at quarter to 10"),
          ("B", "go on then, see you Sunday")], "HAS_EVENT_AGREED", weekday_after(BASE, SUN), "09:45", "Moving the bookcase", tags=["quarter-to"]),
    probe("j-quarterto-02", "mixed", "Asia/Dubai", [("A", "saturday nit2abal 3ind el ma7atta quarter to 10? w nrou7 sawa"),
          ("B", "ok deal")], "HAS_EVENT_AGREED", weekday_after(BASE, SAT), "09:45", "Meetup", tags=["quarter-to"]),
    probe("j-quarterto-03", "en", "Asia/Kuala_Lumpur", [("A", "Lunch Wednesday? quarter to 1 at the noodle bar"),
          ("B", "perfect, see you then")], "HAS_EVENT_AGREED", weekday_after(BASE, WED), "12:45", "Lunch", tags=["quarter-to"]),
    # A forwarded card ("Fwd:", "Weitergeleitet:", "Transféré :") is an announcement, not a plan between the two.
    probe("j-forwarded-01", "en", "America/Chicago", [("A", "Fwd: Neighborhood cleanup drive Thursday 5pm, gloves provided"),
          ("B", "ok thanks")], "NO_EVENT", tags=["forwarded"]),
    probe("j-forwarded-02", "mixed", "Europe/Paris", [("A", "Transféré : portes ouvertes du conservatoire samedi à 14h"),
          ("B", "merci khouya, tamam")], "NO_EVENT", tags=["forwarded"]),
    # An Arabizi prayer with its article joined ("ba3d el3asr", "ba3d elisha") is that prayer; Malay "Jumaah" is Jumu'ah.
    probe("j-prayer-01", "mixed", "Asia/Riyadh", [("A", "bokra ba3d el3asr nrou7 el corniche?"), ("B", "akeed, yalla")],
          "HAS_EVENT_AGREED", TOMORROW, "15:30", "Corniche", relative="asr", tags=["prayer", "arabizi-article"]),
    probe("j-prayer-02", "mixed", "Asia/Kuwait", [("A", "el khamis ba3d elisha ta3aly 3indi, el banat jayeen"), ("B", "tamam, jaya")],
          "HAS_EVENT_AGREED", weekday_after(BASE, THU), "19:50", "Gathering", relative="isha", tags=["prayer", "arabizi-article"]),
    probe("j-prayer-03", "en", "Asia/Kuala_Lumpur", [("A", "Friday after Jumaah we go eat at the mamak near the masjid ok?"), ("B", "Can, see you")],
          "HAS_EVENT_AGREED", weekday_after(BASE, FRI), "12:05", "Mamak", relative="dhuhr", tags=["prayer", "jumuah"]),
    # The one who said yes calls it off later ("we can't come Sunday after all"): the plan is cancelled, and word
    # promised for when something has passed ("I'll let you know once it's fixed") puts it off, no maybe.
    probe("j-cancel-01", "en", "Australia/Perth", [("A", "Lunch at ours Sunday at 1? Dad's doing a roast"), ("B", "yes please, we'll be there"),
          ("A", "great"), ("B", "so sorry, the car's broken down, we can't make it Sunday after all. I'll let you know once it's fixed"), ("A", "ah no worries")],
          "HAS_EVENT_DENIED", weekday_after(BASE, SUN), "13:00", "Lunch", tags=["cancel-after-yes"]),
    probe("j-cancel-02", "mixed", "Asia/Amman", [("A", "ya Lina, 3azimtik 3al ghada el jum3a el sa3a 2"), ("B", "akeed ya habibti, jaye"),
          ("B", "Rasha sorry ktir, 2ma 3indi 7arara, ma ba2dar aji el jum3a"), ("A", "salamtik, mish mushkle")],
          "HAS_EVENT_DENIED", weekday_after(BASE, FRI), "14:00", "Ghada", tags=["cancel-after-yes"]),
    # "if the ferry runs I'm in, otherwise no": a yes held by its condition is no agreement.
    probe("j-conditional-01", "en", "America/New_York", [("A", "Fire Island Saturday? ferry at 8"), ("B", "if the ferry's running I'm in, otherwise no"),
          ("A", "ok we'll see")], "HAS_EVENT_BUT_NOT_CONFIRMED", weekday_after(BASE, SAT), "08:00", "Fire Island", tags=["conditional"]),
    # The thing's own start said beside an invitation with an hour of its own ("starts at 8 but let's get there at 7:30")
    # is not when the two meet.
    probe("j-meettime-01", "en", "America/New_York", [("A", "Comedy night at the Bell House Friday? show starts at 8 but let's get there at 7:30 for seats"),
          ("B", "sounds good, see you there")], "HAS_EVENT_AGREED", weekday_after(BASE, FRI), "19:30", "Comedy night", tags=["meet-before-start"]),
    probe("j-meettime-02", "mixed", "Asia/Amman", [("A", "film el khamis 3al cinema? starts 9 bas let's meet 8:30 3al mall"),
          ("B", "tamam, akeed")], "HAS_EVENT_AGREED", weekday_after(BASE, THU), "20:30", "Film", tags=["meet-before-start"]),
    # The proposer's nudge ("So?", "Nobody cares. So?", "alors?") and chat spelling ("so ur in?") ask for the answer to the
    # plan on the table; the yes to it agrees that plan.
    probe("j-nudge-01", "en", "Europe/London", [("A", "Karaoke Saturday night at 9? I can book the room"), ("B", "haha I'm a terrible singer"),
          ("A", "Nobody cares. So?"), ("B", "go on then")], "HAS_EVENT_AGREED", weekday_after(BASE, SAT), "21:00", "Karaoke", tags=["nudge"]),
    probe("j-nudge-02", "mixed", "Africa/Tunis", [("A", "Samedi on fait le hammam à 10h?"), ("B", "hhh ya3ni l9dim walla jdid"),
          ("A", "el jdid. alors?"), ("B", "wakha, ok")], "HAS_EVENT_AGREED", weekday_after(BASE, SAT), "10:00", "Hammam", tags=["nudge"]),
    probe("j-nudge-03", "en", "Australia/Perth", [("A", "Rottnest trip Sunday? ferry at 8"), ("B", "maybe, need to see if I'm rostered on"),
          ("A", "so ur in?"), ("B", "yep")], "HAS_EVENT_AGREED", weekday_after(BASE, SUN), "08:00", "Rottnest trip", tags=["nudge"]),
    # "with me" asks the other along, as "معي" does: "bowling with me? Thursday at 8" is an invitation, not one's own plan.
    probe("j-withme-01", "en", "America/Chicago", [("A", "bowling with me? Thursday at 8, lanes are half price"), ("B", "lol ok fine")],
          "HAS_EVENT_AGREED", weekday_after(BASE, THU), "20:00", "Bowling", tags=["with-me"]),
    probe("j-withme-02", "mixed", "Europe/Paris", [("A", "tu viens avec moi? samedi 15h au marché aux puces"), ("B", "ok wakha")],
          "HAS_EVENT_AGREED", weekday_after(BASE, SAT), "15:00", "Marché aux puces", tags=["with-me"]),
    # "1) …", "2) …": a number that opens a message with ")" numbers a list; it is no hour.
    probe("j-listmark-01", "en", "Asia/Riyadh", [("A", "Two plans for you:"), ("A", "1) Tuesday after maghrib, shisha at the corniche?"), ("B", "yes!"),
          ("A", "2) Saturday 10am football?"), ("B", "Saturday I can't, sorry")], "HAS_EVENT_AGREED", weekday_after(BASE, TUE), "18:25", "Shisha",
          relative="maghrib", tags=["list-mark", "two-plans"]),
    # An invitation with a when of its own ("you free this weekend?") does not take the day of someone else's doings
    # said beside it ("my brother's moving in on Saturday").
    probe("j-othersday-01", "en", "Europe/London", [("A", "you free this weekend? my brother's moving in on Saturday"), ("B", "yeah should be"),
          ("A", "lunch on Sunday then? 1pm at the Swan"), ("B", "perfect")], "HAS_EVENT_AGREED", weekday_after(BASE, SUN), "13:00", "Lunch",
          location="the Swan", tags=["others-day"]),
    probe("j-othersday-02", "ar", "Asia/Riyadh", [("A", "فاضية هالاسبوع؟ اختي جاية الاربعاء"), ("B", "اي تقريبا"),
          ("A", "طيب نتغدى سوا الخميس الساعة ٢؟"), ("B", "تمام")], "HAS_EVENT_AGREED", weekday_after(BASE, THU), "14:00", "غداء", tags=["others-day"]),
    # A reminder of a deadline ("don't forget") under a forwarded card speaks of its own thing, not the card's event.
    probe("j-reminder-01", "mixed", "Asia/Dubai", [("A", "Fwd: Food festival at the Marina opens Friday 5pm, free entry"), ("B", "nice"),
          ("A", "w el rent lazm yindifi3 Sunday, don't forget"), ("B", "ok")], "NO_EVENT", tags=["forwarded", "deadline"]),
    # A forecast for the plan's day is a worry, not an excuse; the yes held by a condition that follows is no agreement,
    # and a later "ok great" about something else does not answer it again.
    probe("j-weather-01", "en", "Australia/Perth", [("A", "Kings Park picnic Saturday at 11?"), ("B", "forecast says storms on Saturday"), ("A", "so?"),
          ("B", "if it clears up I'm keen, otherwise no"), ("A", "fair enough"), ("B", "did you get the tickets for Mum?"), ("A", "yep got them"),
          ("B", "ok great")], "HAS_EVENT_BUT_NOT_CONFIRMED", weekday_after(BASE, SAT), "11:00", "Picnic", tags=["weather", "conditional"]),
    # A prayer beside an earlier hour ("القطر الساعة ٢ الضهر") said that hour's half of the day; a new hour far from it
    # ("١١ ونص") is read afresh. Sudanese and Egyptian "كويس" answers "…، كويس؟".
    probe("j-halfday-01", "ar", "Africa/Cairo", [("A", "بكرة ممكن توصلني المحطة؟ القطر الساعة ٢ الضهر"), ("B", "اكيد، اعدي عليك ١١ ونص كويس؟"),
          ("A", "كويس جدا، تسلم")], "HAS_EVENT_AGREED", TOMORROW, "11:30", "توصيل", tags=["half-of-day", "kwayes"]),
    probe("j-kwayes-01", "ar", "Africa/Khartoum", [("A", "نتلاقى بعد بكرة في النادي الساعة ٥؟"), ("B", "كويس شديد")],
          "HAS_EVENT_AGREED", BASE + dt.timedelta(days=2), "17:00", "لقاء", location="النادي", tags=["kwayes"]),
    probe("j-cancel-03", "ar", "Asia/Kuwait", [("A", "تعالي عندنا الجمعة الساعة ٢ على الغدا"), ("B", "اكيد جاية"),
          ("B", "سامحيني حبيبتي، بنتي مريضة. ما اقدر اجي الجمعة، بقولك لما تخف"), ("A", "سلامتها")],
          "HAS_EVENT_DENIED", weekday_after(BASE, FRI), "14:00", "غداء", tags=["cancel-after-yes"]),
    # An "if" about running late ("but if I'm a bit late don't be mad", "بس لو اتأخرت") asks leave; the yes stands.
    probe("j-late-01", "en", "America/Chicago", [("A", "Tacos Thursday at 7 at Big Star?"), ("B", "yes! but if I'm late don't order without me")],
          "HAS_EVENT_AGREED", weekday_after(BASE, THU), "19:00", "Tacos", location="Big Star", tags=["if-late"]),
    probe("j-late-02", "ar", "Africa/Cairo", [("A", "نتقابل بكرة الساعة ٦ عند المكتبة؟"), ("B", "تمام، بس لو اتأخرت خمس دقايق استناني")],
          "HAS_EVENT_AGREED", TOMORROW, "18:00", "لقاء", location="المكتبة", tags=["if-late"]),
    # "not this time" as the Levant and Egypt say it refuses.
    probe("j-notthistime-01", "ar", "Asia/Amman", [("A", "بتيجي معنا ع البحر الميت الجمعة؟"), ("B", "مش هالمرة يا صاحبي، خليها لبعدين")],
          "HAS_EVENT_DENIED", weekday_after(BASE, FRI), None, "البحر الميت", tags=["refusal"]),
    # One's own absence after "but" ("we'd love to but we're away in Devon from Sunday till Wednesday") takes back the
    # yes before it, and starting on the plan's day it is the excuse that turns the plan down; its span is no counter.
    probe("j-away-01", "en", "Europe/London", [("A", "Roast at ours on Sunday, 1pm? Mum's asking"),
          ("B", "ah we'd love to but we're away in Devon from Sunday till Wednesday")], "HAS_EVENT_DENIED", weekday_after(BASE, SUN), "13:00",
          "Roast", tags=["away"]),
    probe("j-away-02", "mixed", "Asia/Beirut", [("A", "3asha 3andna el sabt 8:30? mama 3amle mloukhiye"),
          ("B", "I'd love to bas we're away from el sabt till el tnein")], "HAS_EVENT_DENIED", weekday_after(BASE, SAT), "20:30", "3asha", tags=["away"]),
    # Taking note ("got it, thanks", "ok noted") of a when that names neither of the two is taking note of news; said
    # with "you and me" the same words take a plan.
    probe("j-note-01", "en", "America/New_York", [("A", "residents' meeting moved to Wednesday 6pm"), ("B", "ok noted")],
          "NO_EVENT", tags=["news", "takes-note"]),
    probe("j-note-02", "en", "America/New_York", [("A", "Drinks Friday 7pm at the Anchor, you and me"), ("B", "got it")],
          "HAS_EVENT_AGREED", weekday_after(BASE, FRI), "19:00", "Drinks", location="the Anchor", tags=["takes-note", "control"]),
]

if __name__ == "__main__":
    write(OUT, PROBES)
