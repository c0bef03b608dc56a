#!/usr/bin/env python3
"""A realistic WhatsApp "Export chat" file of a given number of lines, for the import benchmark.

  Benchmarks/chat-import/make_export.py OUT.txt [--lines 100000] [--days 300] [--end 2026-11-20] [--seed 6]

Two people (Omar, who imports it, and Layla) chat every day for `--days` days up to `--end`, in
English, Gulf Arabic and a little Arabizi, in the Android en-GB 24-hour layout
(`20/11/2026, 21:40 - Layla: …`, LF line ends). Mixed in, as in real exports: multi-line
messages, `<Media omitted>`, attached files with a caption on the next line, deleted messages,
view-once `null`, edited markers, and every couple of days a plan: agreed, refused, countered and
then agreed, or agreed and later cancelled, with relative days (tomorrow, بكرة, Thursday) and
clock times, so the extractor has real work across the whole span.

With `--unresolved` the chat never settles: every plan is refused and the last message proposes
one more, so the conversation stays open and Jadwal keeps (seals and stores) the text of every
message: the most storing an import can do.

Deterministic: the same arguments write the same bytes. The file ends after exactly `--lines`
lines. Prints what it wrote (messages, plans by kind) on standard error.
"""
import argparse
import datetime
import random
import sys

ME = "Omar"
PARTNER = "Layla"

# Everyday talk with no plan in it (no day, clock time or outing), so the plans below are the
# ones the extractor finds.
SMALL_TALK_EN = [
    "haha", "lol 😂", "how was work?", "long day", "did you see the news?", "send me the link",
    "thanks!", "the traffic is crazy", "on my way home", "I'm so tired", "that's hilarious",
    "no worries", "what are you up to?", "just finished the report", "my mum says hi",
    "the cat knocked over the plant again 🙈", "can you send me that photo?", "I'll check",
    "did you eat?", "not yet", "same here", "omg", "really?", "good luck with the presentation!",
    "how did it go?", "it went well actually", "nice 👌", "I can't find my keys", "found them",
    "this weather though", "so hot today 🥵", "the internet is down again", "back now",
    "did you pay the electricity bill?", "yes done", "thank you ❤️", "love that song",
    "have you finished the book?", "almost, two chapters left", "who won the game?",
    "no idea, didn't watch", "call me when you're free", "can't talk now", "in a meeting",
    "traffic on King Fahd road is terrible", "did Ahmad reply?", "he said he'll think about it",
]
SMALL_TALK_AR = [
    "هههههه", "الحمدلله", "كيف الدوام؟", "والله تعبان", "يعطيك العافية", "وش الاخبار؟",
    "مشكور", "الله يسلمك", "شفت المقطع؟", "😂😂", "ما عليك زود", "الله يعينك",
    "وصلت البيت", "الجو حار مرة اليوم", "النت فاصل", "رجعت", "وش سويت؟", "ولا شي",
    "امي تسلم عليك", "طيب", "ماشي", "يا حبيلك", "ابشر", "الله يحفظك", "صح", "والله؟",
    "ايه والله", "ما شاء الله", "الله يوفقك", "تبي شي من السوبرماركت؟", "لا شكرا",
    "خلصت التقرير", "مبروك!", "الله يبارك فيك", "وين مفاتيحي؟", "لقيتها",
]
SMALL_TALK_ARABIZI = ["hala wallah", "shlonak?", "yalla bye", "wallah ta3ban", "mashi", "hhhhh", "tamam"]

# Plans, as dialogues: (speaker, text) with 0 the proposer and 1 the other side. "{later}" is a
# second part sent a few hours after the first (a cancellation after agreement).
PLANS = {
    "agreed": [
        [(0, "Dinner tomorrow at 8pm at Nando's?"), (1, "Deal 👍")],
        [(0, "Fancy a coffee Thursday?"), (1, "Yes! What time?"), (0, "half 10 at Starbucks on Tahlia?"), (1, "perfect, see you there")],
        [(0, "نتعشى بكرة الساعة ٩ بالليل؟"), (1, "تمام")],
        [(0, "قهوة يوم الخميس الساعة ٥ العصر؟"), (1, "اوكي اشوفك هناك")],
        [(0, "Gym tomorrow at 6am?"), (1, "ok I'll be there")],
        [(0, "غدا بعد العشاء نروح البوليفارد؟"), (1, "يلا")],
        [(0, "Lunch Sunday at 1 at the Lebanese place?"), (1, "sounds good")],
    ],
    "refused": [
        [(0, "Lunch Saturday at 1?"), (1, "Sorry, can't Saturday, I have family over")],
        [(0, "بكرة نطلع البوليفارد الساعة ٧؟"), (1, "لا والله ما اقدر بكرة")],
        [(0, "Movie tonight at 9?"), (1, "not tonight, too tired")],
    ],
    "countered": [
        [(0, "Can we do the budget review Thursday at 3?"), (1, "Thursday is packed for me. Friday?"), (0, "Friday works, same time"), (1, "Great, I'll send an invite")],
        [(0, "عشاء يوم الاربعاء الساعة ٨؟"), (1, "الاربعاء ما يناسبني، الخميس؟"), (0, "تمام الخميس نفس الوقت")],
    ],
    "cancelled": [
        [(0, "Padel tomorrow at 6pm?"), (1, "yes!"), (1, "{later}sorry, have to cancel tomorrow, something came up")],
        [(0, "نتغدى بكرة الساعة ٢؟"), (1, "ايه تمام"), (1, "{later}اسف بكرة ما اقدر، خلها مرة ثانية")],
    ],
}
PLAN_WEIGHTS = {"agreed": 6, "refused": 2, "countered": 2, "cancelled": 1}


class Export:
    def __init__(self, limit):
        self.limit = limit
        self.lines = []
        self.messages = 0

    @property
    def full(self):
        return len(self.lines) >= self.limit

    def write(self, when, sender, body):
        header = when.strftime("%d/%m/%Y, %H:%M - ")
        body_lines = body.split("\n")
        body_lines[0] = f"{header}{sender}: {body_lines[0]}" if sender else f"{header}{body_lines[0]}"
        room = self.limit - len(self.lines)
        self.lines.extend(body_lines[:room])
        self.messages += 1


def small_talk(rng):
    roll = rng.random()
    if roll < 0.55:
        return rng.choice(SMALL_TALK_EN)
    if roll < 0.93:
        return rng.choice(SMALL_TALK_AR)
    return rng.choice(SMALL_TALK_ARABIZI)


def body(rng):
    roll = rng.random()
    if roll < 0.03:
        return "<Media omitted>"
    if roll < 0.04:
        stamp = rng.randrange(10**7)
        return f"IMG-2026{stamp:07d}-WA{rng.randrange(10000):04d}.jpg (file attached)\n{small_talk(rng)}"
    if roll < 0.045:
        return "This message was deleted"
    if roll < 0.05:
        return "null"
    if roll < 0.11:
        # Multi-line: a few thoughts in one message.
        return "\n".join(small_talk(rng) for _ in range(rng.randint(2, 4)))
    text = small_talk(rng)
    if roll > 0.985:
        text += " <This message was edited>"
    return text


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--lines", type=int, default=100_000)
    parser.add_argument("--days", type=int, default=300)
    parser.add_argument("--end", default="2026-11-20")
    parser.add_argument("--seed", type=int, default=6)
    parser.add_argument("--unresolved", action="store_true", help="only refused plans, and a last one left open")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    end = datetime.date.fromisoformat(args.end)
    first = end - datetime.timedelta(days=args.days - 1)
    export = Export(args.lines)
    people = (ME, PARTNER)
    plans = {kind: 0 for kind in PLANS}
    kinds = ["refused"] if args.unresolved else [kind for kind, weight in PLAN_WEIGHTS.items() for _ in range(weight)]
    # The last line is kept for the open proposal.
    export.limit -= 1 if args.unresolved else 0

    start = datetime.datetime.combine(first, datetime.time(7, 58))
    export.write(start, None, "Messages and calls are end-to-end encrypted. No one outside of this chat, not even WhatsApp, "
                 "can read or listen to them. Tap to learn more.")
    day = first
    while not export.full:
        # Messages per day so the lines left fill the days left (the last day takes the rest).
        days_left = (end - day).days + 1
        lines_per_message = len(export.lines) / export.messages
        per_day = (args.lines - len(export.lines)) / max(days_left, 1) / lines_per_message
        count = max(1, int(rng.gauss(per_day, per_day / 5))) if days_left > 1 else args.lines
        minute = 8 * 60 + rng.randrange(60)
        plan_at = rng.randrange(count) if rng.random() < 0.5 else None
        for index in range(count):
            if export.full:
                break
            # Waking hours, a message every minute or two, bursts and pauses.
            minute = min(minute + rng.choice((0, 0, 1, 1, 2, 3, 4)), 23 * 60 + 59)
            when = datetime.datetime.combine(day, datetime.time(minute // 60, minute % 60))
            if index == plan_at:
                kind = rng.choice(kinds)
                dialogue = rng.choice(PLANS[kind])
                proposer = rng.randrange(2)
                plans[kind] += 1
                for speaker, text in dialogue:
                    if text.startswith("{later}"):
                        text = text[len("{later}"):]
                        minute = min(minute + 120, 23 * 60 + 59)
                    else:
                        minute = min(minute + 1, 23 * 60 + 59)
                    when = datetime.datetime.combine(day, datetime.time(minute // 60, minute % 60))
                    export.write(when, people[(proposer + speaker) % 2], text)
                continue
            export.write(when, people[rng.randrange(2)], body(rng))
        day += datetime.timedelta(days=1)
    if args.unresolved:
        export.limit += 1
        export.write(datetime.datetime.combine(end, datetime.time(23, 59)), PARTNER, "Brunch Saturday at 11 at the Lebanese place?")

    with open(args.out, "w", encoding="utf-8", newline="\n") as out:
        out.write("\n".join(export.lines) + "\n")
    last = day - datetime.timedelta(days=1)
    print(f"{args.out}: {len(export.lines)} lines, {export.messages} messages, {first} to {last}; plans: "
          + ", ".join(f"{count} {kind}" for kind, count in plans.items()), file=sys.stderr)


if __name__ == "__main__":
    main()
