#!/usr/bin/env python3
"""Write Tests/ConversationsTests/Fixtures/extraction/probes-i.jsonl: Reader I's probes.

Each probe isolates one phenomenon read from round 9's errors (blind5), in other words, names and dialects than
round 9's. Every gold day is computed with datetime from the date the plan was said.
"""
import datetime as dt
import pathlib

from probe_items import FRI, MON, SAT, SUN, THU, TUE, WED, ProbeSet, weekday_after, write  # noqa: F401

OUT = pathlib.Path(__file__).resolve().parents[2] / "Tests/ConversationsTests/Fixtures/extraction/probes-i.jsonl"
ZONES = {"Asia/Riyadh": "+03:00", "Africa/Cairo": "+02:00", "Asia/Amman": "+03:00", "Asia/Kolkata": "+05:30",
         "Africa/Algiers": "+01:00", "Europe/London": "+00:00", "Asia/Dubai": "+04:00", "America/Chicago": "-05:00",
         "Asia/Beirut": "+02:00", "Africa/Casablanca": "+01:00", "Asia/Kuwait": "+03:00", "Africa/Lagos": "+01:00", "Africa/Tunis": "+01:00", "Asia/Baghdad": "+03:00",
         "America/Toronto": "-05:00", "Australia/Sydney": "+11:00", "Asia/Karachi": "+05:00", "Asia/Bahrain": "+03:00",
         "Asia/Kuala_Lumpur": "+08:00"}
PRAYERS = {"fajr": "04:50", "dhuhr": "11:45", "asr": "14:50", "maghrib": "17:10", "isha": "18:30"}
BASE = dt.date(2027, 1, 11)  # a Monday


probe = ProbeSet(BASE, ZONES, PRAYERS).probe


TOMORROW = BASE + dt.timedelta(days=1)
PROBES = [
    # A day said for when the answer comes ("text me Friday about it", "قوليلي بكرة") is no day for the plan;
    # the yes to that request answers the request.
    probe("i-answerday-01", "en", "Australia/Sydney", [("A", "Kayaking on the harbour Sunday arvo if the wind drops?"), ("B", "maybe, depends how I pull up after Saturday"),
          ("A", "no stress, message me Saturday about it"), ("B", "will do")], "HAS_EVENT_BUT_NOT_CONFIRMED", weekday_after(BASE, SUN), None, "Kayaking",
          tags=["answer-day"]),
    probe("i-answerday-02", "ar", "Asia/Amman", [("A", "بتيجي معي عالسينما الخميس؟"), ("B", "يمكن، لسا مش عارفة شو عندي"),
          ("A", "طيب ردّيلي بكرا"), ("B", "ماشي")], "HAS_EVENT_BUT_NOT_CONFIRMED", weekday_after(BASE, THU), None, "سينما", tags=["answer-day"]),
    probe("i-answerday-03", "mixed", "Africa/Tunis", [("A", "On se fait un ciné vendredi soir?"), ("B", "inchallah, nchouf w nraja3lek"),
          ("A", "ok 9olli ghodwa"), ("B", "ok")], "HAS_EVENT_BUT_NOT_CONFIRMED", weekday_after(BASE, FRI), None, "Ciné", tags=["answer-day"]),
    # The day of one's own obligation, said beside a no ("ولازم أذاكر", "lazem nqra" in the Maghreb,
    # "j'ai un examen mardi"), is the excuse's day, not a counter.
    probe("i-excuse-01", "ar", "Asia/Bahrain", [("A", "تعالي معانا البر السبت، بنشوي"), ("B", "ودي والله، بس عندي امتحان الاثنين ولازم اذاكر، ما اقدر"),
          ("A", "خلاص براحتج، الله يوفقج")], "HAS_EVENT_DENIED", weekday_after(BASE, SAT), None, "البر", tags=["excuse-day"]),
    probe("i-excuse-02", "mixed", "Africa/Casablanca", [("A", "Dimanche on monte à Ifrane? Kayn toute la bande"),
          ("B", "smeh lia khouya, ma nqderch, j'ai un examen mardi w lazem nqra"), ("A", "ok, bon courage"), ("B", "merci, wakha")],
          "HAS_EVENT_DENIED", weekday_after(BASE, SUN), None, "Ifrane", tags=["excuse-day"]),
    probe("i-excuse-03", "ar", "Asia/Riyadh", [("A", "نتعشى سوا الخميس؟"), ("B", "ودي بس عندي تقديم الأحد ولازم اجهز، خلها الأربعاء؟"),
          ("A", "تمام الأربعاء")], "HAS_EVENT_AGREED", weekday_after(BASE, WED), None, "عشاء", tags=["excuse-day", "counter"]),
    # A statement of a thing's own day ("the recital is Thursday", "the new album is out Friday") is
    # about that thing: it neither moves the plan nor is a plan; the answer to it is news.
    probe("i-thing-01", "en", "America/Toronto", [("A", "climbing gym thursday at 6?"), ("B", "wait the recital is friday right"),
          ("A", "ya friday at 8"), ("B", "ok then that works, see u there")], "HAS_EVENT_AGREED", weekday_after(BASE, THU), "18:00", "Climbing",
          tags=["thing-day"]),
    probe("i-thing-02", "en", "Europe/London", [("A", "Lunch tomorrow at 1?"), ("B", "👍"),
          ("B", "Also unrelated, the new Villeneuve is out Friday, fancy Saturday night at the Curzon?"), ("A", "Go on! What time's it on?"),
          ("B", "There's a 7:40"), ("A", "Book it")], "HAS_EVENT_AGREED", TOMORROW, "13:00", "Lunch", tags=["thing-day", "two-plans"]),
    probe("i-thing-03", "en", "Asia/Karachi", [("A", "Bilal's walima is in Lahore on the 20th btw, did he invite you?"), ("B", "nope, family only I think"),
          ("A", "fair"), ("B", "we should meet up soon though")], "NO_EVENT", tags=["thing-day", "control"]),
    # A short counter taken with its number and a yes ("7 tamem", "6 works") agrees that time on the plan's day.
    probe("i-counter-01", "mixed", "Asia/Beirut", [("A", "mnel3ab padel el tnein 3al 6?"), ("B", "el tnein eh bas 6 bakkir shway"),
          ("A", "7?"), ("B", "7 tamem")], "HAS_EVENT_AGREED", weekday_after(BASE, MON), "19:00", "Padel", tags=["counter-two-words"]),
    probe("i-counter-02", "en", "Africa/Lagos", [("A", "Badminton on Wednesday at 5?"), ("B", "5 is too early, traffic"),
          ("A", "6 then?"), ("B", "6 works")], "HAS_EVENT_AGREED", weekday_after(BASE, WED), "18:00", "Badminton", tags=["counter-two-words"]),
    # A short clause that opens with a bare hour and then the meeting point ("9 at yours?") is when to meet.
    probe("i-hourplace-01", "en", "America/Toronto", [("A", "Could you help me carry the new sofa up Sunday morning?"), ("B", "yeah for sure"),
          ("B", "I owe you one anyway. 9 at yours?"), ("A", "9 at mine, perfect")], "HAS_EVENT_AGREED", weekday_after(BASE, SUN), "09:00", "Sofa",
          tags=["hour-then-place"]),
    # "احنا الاثنين" is "the two of us", not Monday; a question about the other's relative's travel is their day.
    probe("i-both-01", "ar", "Asia/Baghdad", [("A", "اشتاقيت الك، لازم نطلع سوا قريب احنا الاثنين"), ("B", "اكيد، نرتبها")],
          "NO_EVENT", tags=["no-event", "both-of-us"]),
    probe("i-yours-01", "ar", "Asia/Kuwait", [("A", "ختك مسافرة لندن السبت؟"), ("B", "ايوه، مع زوجها"), ("A", "الله يوصلهم بالسلامة")],
          "NO_EVENT", tags=["no-event", "third-party"]),
    # A put-off until the other is back names no time: the plan stays refused, and the yes to it agrees nothing.
    probe("i-untilback-01", "ar", "Africa/Cairo", [("A", "نتغدى سوا بكرة؟"), ("B", "بكرة مسافرة اسكندرية، راجعة الخميس"),
          ("A", "خلاص لما ترجعي نشوف"), ("B", "ان شاء الله")], "HAS_EVENT_DENIED", TOMORROW, None, "غدا", tags=["put-off"]),
    # A yes to a statement ("yeah it will") or inside a question ("did you get the gutters sorted?") agrees no plan.
    probe("i-claimyes-01", "en", "Australia/Sydney", [("A", "Beach walk Sunday morning?"), ("B", "might do, depends on the kids"),
          ("A", "no rush. reckon it'll bucket down anyway"), ("B", "haha yeah it will. did you get the gutters sorted?")],
          "HAS_EVENT_BUT_NOT_CONFIRMED", weekday_after(BASE, SUN), None, "Beach walk", tags=["yes-to-a-statement"]),
    # The one who hedged asking a new time is answered afresh.
    probe("i-hedger-01", "en", "Europe/London", [("A", "Footy Saturday? kickoff 3"), ("B", "if my knee holds up, sure"), ("A", "fingers crossed mate"),
          ("B", "knee's grand! meet at the gate at 2:30?"), ("A", "perfect")], "HAS_EVENT_AGREED", weekday_after(BASE, SAT), "14:30", "Footy",
          tags=["hedge-then-offer"]),
    # The proposer's question about something else with another day beside it does not move the plan.
    probe("i-aside-01", "en", "America/Chicago", [("A", "Trivia night Thursday at 7?"), ("B", "if I get off work in time"),
          ("A", "no worries. did you sort your visa yet? mine comes through Wednesday"), ("B", "not yet, still waiting")],
          "HAS_EVENT_BUT_NOT_CONFIRMED", weekday_after(BASE, THU), "19:00", "Trivia night", tags=["aside-day"]),
    # Yes and no as other Englishes say them; asking leave for a detail is no condition; a yes "either way" drops its "if".
    probe("i-scots-01", "en", "Europe/London", [("A", "Fancy the pub quiz Thursday at 8?"), ("B", "Ah I'd love tae but I cannae, I'm on lates"),
          ("A", "Nae bother, next time")], "HAS_EVENT_DENIED", weekday_after(BASE, THU), "20:00", "Pub quiz", tags=["dialect-no"]),
    probe("i-malay-01", "mixed", "Asia/Kuala_Lumpur", [("A", "Jom makan satay Friday at 8pm? Kat Kajang"), ("B", "InsyaAllah, jumpa kat sana")],
          "HAS_EVENT_AGREED", weekday_after(BASE, FRI), "20:00", "Satay", "Kajang", tags=["dialect-yes"]),
    probe("i-leave-01", "en", "Africa/Lagos", [("A", "Dinner at mine Saturday at 7?"), ("B", "I'm in! I'll bring my cousin if that's alright"),
          ("A", "of course, the more the merrier")], "HAS_EVENT_AGREED", weekday_after(BASE, SAT), "19:00", "Dinner", tags=["politeness-if"]),
    probe("i-regardless-01", "en", "America/Chicago", [("A", "Bowling Friday at 6?"), ("B", "if my shift ends on time, yes. actually yes either way"),
          ("A", "sweet")], "HAS_EVENT_AGREED", weekday_after(BASE, FRI), "18:00", "Bowling", tags=["yes-regardless"]),
    # One's own obligation said in the same breath as the yes ("I have to be at my cousin's by 2") gives no time to the plan.
    probe("i-ownby-01", "en", "America/Toronto", [("A", "wanna grab brunch sunday around 11 at the diner?"),
          ("B", "yeah sunday works and 11 is good I have to be at my cousin's by 2 though"), ("A", "perfect")],
          "HAS_EVENT_AGREED", weekday_after(BASE, SUN), "11:00", "Brunch", "the diner", tags=["own-time-beside-yes"]),
    # A walk up a hill is a morning outing: a bare hour is before noon.
    probe("i-hike-01", "en", "Europe/London", [("A", "Fancy a walk up Pen y Fan Saturday? I'll collect you at 8"), ("B", "deadly, count me in")],
          "HAS_EVENT_AGREED", weekday_after(BASE, SAT), "08:00", "Walk", "Pen y Fan", tags=["morning-outing"]),
    # An excuse with its hour, then "but … free", says when one can: no refusal; "so you're in?" asks about that plan.
    probe("i-freeafter-01", "en", "Africa/Lagos", [("A", "Can we meet Friday 4pm at the library to finish the slides?"),
          ("B", "Friday I have a lab at 11 but the afternoon is free"), ("A", "great, 4pm it is"), ("B", "cool see you")],
          "HAS_EVENT_AGREED", weekday_after(BASE, FRI), "16:00", "Slides", "the library", tags=["free-after-excuse"]),
    probe("i-freeafter-02", "ar", "Asia/Bahrain", [("A", "نلعب بولينج الخميس الساعة ٨ بالليل؟"), ("B", "الخميس عندي اجتماع الساعة ٣ بس بعده فاضي"),
          ("A", "يعني معانا؟"), ("B", "اكيد")], "HAS_EVENT_AGREED", weekday_after(BASE, THU), "20:00", "بولينج", tags=["free-after-excuse", "asks-to-join"]),
    # A no-word about someone else ("they're always fully booked") refuses nothing.
    probe("i-othersno-01", "en", "Europe/London", [("A", "Lunch at Rosa's Sunday at 1?"), ("B", "yess"),
          ("A", "I'll ring them, they're always fully booked at the weekend")], "HAS_EVENT_AGREED", weekday_after(BASE, SUN), "13:00", "Lunch",
          "Rosa's", tags=["others-no"]),
    probe("i-othersno-02", "en", "America/Toronto", [("A", "Pizza Friday at 7 at Luigi's?"), ("B", "yes!"),
          ("A", "I'll book a table, it gets crazy busy on Fridays")], "HAS_EVENT_AGREED", weekday_after(BASE, FRI), "19:00", "Pizza", "Luigi's",
          tags=["others-no"]),
    # The answer to a question about someone else's doings ("ابوج رجع؟" "اي رجع الخميس") is news: it neither agrees nor moves the plan.
    probe("i-othersask-01", "ar", "Asia/Baghdad", [("A", "نروح للمول باچر؟"), ("B", "ان شاء الله، إذا خلصت شغلي بوقت"),
          ("A", "ماشي. وصحيح، ابوج رجع من السفر؟"), ("B", "اي رجع الخميس")], "HAS_EVENT_BUT_NOT_CONFIRMED", TOMORROW, None, "المول",
          tags=["news-answer"]),
    # The answer to a question about a deadline ("the essay deadline is friday right?" "yep, 5pm") is news too.
    probe("i-deadline-01", "en", "America/Chicago", [("A", "Movie Saturday night?"), ("B", "yes! what time's it on?"), ("A", "there's a 9:10"),
          ("B", "book it"), ("B", "also the essay deadline is friday right?"), ("A", "yep, 5pm. good luck")], "HAS_EVENT_AGREED",
          weekday_after(BASE, SAT), "21:10", "Movie", tags=["news-answer"]),
    # "got two tickets for …" asks the other along, as "booked us a table" does.
    probe("i-tickets-01", "en", "Asia/Kolkata", [("A", "guess who got two tickets for the comedy show on Saturday 😍"), ("B", "stop it!! what time?"),
          ("A", "starts at 8"), ("B", "count me in")], "HAS_EVENT_AGREED", weekday_after(BASE, SAT), "20:00", "Comedy show", tags=["tickets-invite"]),
    # "6 el sob7": an hour with a part of the day after its Arabizi article is a clock; "dawam online" is one's own day.
    probe("i-elsob7-01", "mixed", "Asia/Dubai", [("A", "nrou7 el bar ba3d bacher?"), ("B", "ok, ana 3indi online la el 3asr bas"),
          ("A", "la la nitla3 6 el sob7 w nrid 2bl el dhuhr"), ("B", "tamam")], "HAS_EVENT_AGREED", BASE + dt.timedelta(days=2), "06:00", "Bar",
          tags=["clock-part-of-day"]),
    # Jumu'ah is Friday's Dhuhr: "see you after Jumu'ah" starts at that prayer.
    probe("i-jumuah-01", "mixed", "Europe/London", [("A", "Salam bro, lunch on Friday at the Turkish place near the masjid?"),
          ("B", "InshaAllah, see you after Jumu'ah"), ("A", "perfect")], "HAS_EVENT_AGREED", weekday_after(BASE, FRI), PRAYERS["dhuhr"], "Lunch",
          tags=["prayer-friday"], relative="dhuhr"),
    # Levantine "ma fine" ("I can't") is a no, not the English "fine".
    probe("i-mafine-01", "mixed", "Asia/Beirut", [("A", "bukra mnrou7 3al cinema ba3d el shoghl?"), ("B", "bukra ma fine, 3ande 3asha 3and ahle"),
          ("A", "ok ma3lesh")], "HAS_EVENT_DENIED", TOMORROW, None, "Cinema", tags=["levantine-no"]),
]

if __name__ == "__main__":
    write(OUT, PROBES)
