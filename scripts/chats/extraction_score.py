#!/usr/bin/env python3
"""Score `jadwal extract --jsonl` with the official scorer, the way the held-out set is scored.

  scripts/chats/extraction_score.py --binary .build/debug/jadwal [--min-score 0.90] [--min-language 0.85]

For each labelled set in Tests/ConversationsTests/Fixtures/extraction (the public dev set, our
own differently-worded set, and the two dev2 sets by other authors): strip the labels with
score.py, pipe the items through the binary, score the predictions, print the report, and fail
if jadwal_score or any language's score is below the set's gate (issue 6: dev and generalisation
>= 0.90 overall, >= 0.85 per language; issue 19: dev2 sets >= 0.88 overall, >= 0.85 per language,
a little below what the rules reach on them, 0.898 and 0.913).
"""
import argparse
import json
import pathlib
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
FIXTURES = HERE.parent.parent / "Tests" / "ConversationsTests" / "Fixtures" / "extraction"
SCORER = FIXTURES / "score.py"
# Every gated set beyond dev and generalisation, with its gate (jadwal_score, each language's),
# a margin below what the rules reach on it, so a change that loses ground fails.
GATED = [
    # Issue 19: English varieties and Arabizi, and Arabic dialects, written by other authors.
    # Reader G: 0.972 and 0.948 (lowest language 0.948).
    ("dev2-en-mixed", (0.92, 0.90)),
    ("dev2-ar", (0.92, 0.90)),
    # Round 1 of the blind sets: 120 long chats written blind by another author, many dialects
    # (C 0.785, half of it tuned on). Reader G reaches 0.923 (ar 0.853, en 0.953, mixed 1.000).
    ("blind1", (0.82, 0.76)),
    # Round 2: 100 long chats (en 35, ar 40, mixed 25), first run 0.519 blind; C 0.674.
    # Reader G reaches 0.836 (ar 0.785, en 0.872, mixed 0.865).
    ("blind2", (0.75, 0.70)),
    # Round 6: 150 chats (2-12 messages; ar 60, en 60, mixed 30) written blind by an author who
    # never saw the reader; first run with reader E 0.808 (ar 0.754, en 0.872, mixed 0.783).
    ("blind3", (0.85, 0.80)),
    # Reader G's probes: 73 short chats, one phenomenon each (scripts/chats/make_probes_g.py).
    # First run with reader F 0.803; G reaches 1.000.
    ("probes-g", (0.90, 0.85)),
    # Round 8: 120 chats (ar 40 in 16 dialects, en 40 in seven Englishes, mixed 40; 23 zones)
    # written blind; first runs F 0.667, G 0.680 (ar 0.759, en 0.676, mixed 0.596). Reader H was
    # tuned on it (0.751: ar 0.835, en 0.705, mixed 0.716), so that is no first run any more.
    ("blind4", (0.71, 0.66)),
    # Round 9: 100 long chats (76 of them 10-18 messages; ar 35, en 35, mixed 30; 28 zones) written
    # blind after reader G; first runs F 0.664, G 0.661, H 0.661 (ar 0.718, en 0.563, mixed 0.681).
    # Reader I was tuned on it (0.894: ar 0.936, en 0.836, mixed 0.911), so that is no first run.
    ("blind5", (0.86, 0.80)),
    # Reader H's probes (scripts/chats/make_probes_h.py): 8 chats, other wording for round 8's
    # phenomena. Eight chats make a per-language figure coarse, so the language gate is loose;
    # G 0.250 (first run), H 0.660 (ar 0.625, en 0.750, mixed 0.417).
    ("probes-h", (0.60, 0.33)),
    # Round 10: 120 chats (ar 40 in 14 dialects, en 40 in nine Englishes, mixed 40; half short, half
    # 9-18 messages; 31 zones, Ramadan 2027 and a year's end) written blind while reader I was made;
    # first runs H 0.763, I 0.793 (ar 0.864, en 0.775, mixed 0.745; short chats 0.879, long 0.715).
    # Reader J was tuned on it (0.927: ar 0.918, en 0.961, mixed 0.900), so that is no first run.
    ("blind6", (0.90, 0.87)),
    # Round 11: 100 chats (ar 30, en 40, mixed 30; 70 of them 10-20 messages, 30 of 5-9; 29 zones,
    # Ramadan and both Eids of 2027) written blind while reader J was made; first runs I 0.643 and
    # J 0.643, the same answers (ar 0.607, en 0.631, mixed 0.699). Reader K was tuned on it (0.658:
    # ar 0.651, en 0.631, mixed 0.699), so that is no first run. Reader L, which read it again for long-chat
    # mechanisms, reaches 0.723 (ar 0.651, en 0.731, mixed 0.775).
    ("blind7", (0.68, 0.62)),
    # Round 12: 90 chats (ar, en, mixed 30 each; 30 short, 30 of 6-10 messages, 30 of 11-13; 29
    # zones, a year's end) written blind while reader K was made; first runs J 0.781 and K 0.781,
    # the same answers (ar 0.792, en 0.746, mixed 0.804; short 0.897, medium 0.797, long 0.656). Reader L was
    # tuned on it (0.952: ar 1.000, en 0.926, mixed 0.925), so that is no first run.
    ("blind8", (0.92, 0.88)),
    # Round 13: 90 chats (ar in 20 registers, en in many Englishes, mixed: 30 each; 30 short, 30 of
    # 6-10 messages, 30 of 11-16; 40 zones, Ramadan, both Eids, DST changes) written blind while
    # reader L was made; first runs K 0.629 (ar 0.685, en 0.654, mixed 0.548; short 0.729, medium
    # 0.594, long 0.540) and L 0.617 (ar 0.685, en 0.617, mixed 0.548). Nobody has tuned on it.
    ("blind9", (0.59, 0.52)),
    # Reader I's probes (scripts/chats/make_probes_i.py): 34 chats, other wording for round 9's
    # phenomena. H 0.234 (first run: ar 0.139, en 0.336, mixed 0.056); I 0.988 (ar 1.000, en 0.983,
    # mixed 0.875). Seven mixed chats make that language coarse.
    ("probes-i", (0.94, 0.82)),
    # Reader J's probes (scripts/chats/make_probes_j.py): 33 chats, other wording for round 10's
    # phenomena. I 0.358 (first run: ar 0.268, en 0.281, mixed 0.438); J 1.000 (ar 0.750, en 1.000,
    # mixed 0.875). Six Arabic and ten mixed chats, few of them refusals or none, make a language's
    # macro-F1 coarse, so the language gate is loose.
    ("probes-j", (0.95, 0.70)),
    # Reader K's probes (scripts/chats/make_probes_k.py): 11 chats, other wording for round 11's
    # phenomena; one of them (a no to one part of the day, then "after lunch then, 2?") K does not
    # read yet. J 0.704 (first run), K 0.917 (ar 0.750, en 0.625, mixed 0.750); eleven chats make a
    # language's macro-F1 coarse, so the language gate is loose.
    ("probes-k", (0.88, 0.55)),
    # Reader L's probes (scripts/chats/make_probes_l.py): 40 chats, other wording for round 12's phenomena and a few
    # of round 11's. K 0.185 (first run: ar 0.129, en 0.207, mixed 0.167); L 1.000 (ar 1.000, en 1.000, mixed 0.750,
    # seven mixed chats with no refusal make that language's macro-F1 coarse).
    ("probes-l", (0.95, 0.70)),
]
# The binary runs the rules alone, the default. The status model (off by default; reader M's
# weights, see docs/extraction.md) is trained on dev, generalisation, dev2 and blind1-8, not on
# blind9 or the probes, so with it most gates catch a broken build or a rule that loses ground,
# not how well the reader generalises. That is the leave-one-set-out table in
# docs/extraction.md, and the first run on each new blind round.


def run_set(binary, name, gate):
    dataset = FIXTURES / f"{name}.jsonl"
    stripped = subprocess.run([sys.executable, SCORER, "--strip", dataset], check=True, capture_output=True).stdout
    predicted = subprocess.run([binary, "extract", "--jsonl"], input=stripped, check=True, capture_output=True, timeout=120)
    with tempfile.TemporaryDirectory() as folder:
        predictions = pathlib.Path(folder) / "predictions.jsonl"
        predictions.write_bytes(predicted.stdout)
        metrics = pathlib.Path(folder) / "metrics.json"
        report = subprocess.run([sys.executable, SCORER, dataset, predictions, "--slices", "--errors", "10", "--json", metrics],
                                check=True, capture_output=True, text=True).stdout
        result = json.loads(metrics.read_text())
    print(f"--- {name} ---")
    print(report)
    failures = []
    if gate:
        if result["jadwal_score"] < gate[0]:
            failures.append(f"{name}: jadwal_score {result['jadwal_score']:.3f} < {gate[0]}")
        for slice_name, values in result.get("slices", {}).items():
            if slice_name.startswith("lang=") and values["jadwal_score"] < gate[1]:
                failures.append(f"{name}: {slice_name} score {values['jadwal_score']:.3f} < {gate[1]}")
    return failures


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--min-score", type=float, default=0.90)
    parser.add_argument("--min-language", type=float, default=0.85)
    args = parser.parse_args()
    failures = run_set(args.binary, "dev", (args.min_score, args.min_language))
    failures += run_set(args.binary, "generalisation", (args.min_score, args.min_language))
    for name, gate in GATED:
        failures += run_set(args.binary, name, gate)
    if failures:
        print("\n".join(failures), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
