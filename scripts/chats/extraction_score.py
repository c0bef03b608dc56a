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
# Issue 19: English varieties and Arabizi, and Arabic dialects, written by other authors.
DEV2_SETS = ("dev2-en-mixed", "dev2-ar")
# Reader G: 0.972 and 0.948 (lowest language 0.948).
DEV2_GATE = (0.92, 0.90)
# Round 1 of the blind sets: 120 long chats written blind by another author, many dialects. The
# rules reach 0.785 overall (ar 0.698, en 0.841, mixed 0.855; half of it was tuned on); gated a margin below, so a change
# that loses ground on unseen-style chats fails.
BLIND_SETS = ("blind1",)
# Reader G reaches 0.923 (ar 0.853, en 0.953, mixed 1.000).
BLIND_GATE = (0.82, 0.76)
# Round 2: 100 long chats (en 35, ar 40, mixed 25), first run 0.519 blind. With answers bound to
# what they answer and plans only between the two, the rules reach 0.674 (ar 0.696, en 0.714,
# mixed 0.588); gated a margin below.
BLIND2_SETS = ("blind2",)
# Reader G reaches 0.836 (ar 0.785, en 0.872, mixed 0.865).
BLIND2_GATE = (0.75, 0.70)
# Round 6: 150 chats (2-12 messages; ar 60, en 60, mixed 30) written blind by an author who never
# saw the reader; first run with reader E 0.808 (ar 0.754, en 0.872, mixed 0.783), recorded before
# anyone read it. Gated a margin below what the rules reach on it now.
BLIND3_SETS = ("blind3",)
BLIND3_GATE = (0.85, 0.80)
# Reader G's probes: 73 short chats, one phenomenon each (a time beside another day, an excuse's
# times, short counters, venues with a bare hour, dialect weekdays, hedges, dialect yes and no,
# negations inside a yes, side requests, hard negatives, relative dates, several numbers, several
# events); written by scripts/chats/make_probes_g.py. First run with reader F 0.803; G reaches 1.000.
PROBES_SETS = ("probes-g",)
PROBES_GATE = (0.90, 0.85)
# Round 8: 120 chats (ar 40 in 16 dialects, en 40 in seven Englishes, mixed 40; 23 zones) written
# blind by an author who never saw the reader; first runs recorded before anyone read it: reader F
# 0.667 (ar 0.759, en 0.676, mixed 0.557), reader G 0.680 (ar 0.759, en 0.676, mixed 0.596).
# Reader H was tuned on it (0.751: ar 0.835, en 0.705, mixed 0.716), so that is no first run any
# more; gated a margin below H, so a change that loses ground on it fails.
BLIND4_SETS = ("blind4",)
BLIND4_GATE = (0.71, 0.66)
# Round 9: 100 long chats (76 of them 10-18 messages; ar 35, en 35, mixed 30; 28 zones) written blind
# after reader G; first runs recorded before anyone read it: F 0.664, G 0.661, H 0.661 (ar 0.718,
# en 0.563, mixed 0.681). Gated a margin below H's first run.
BLIND5_SETS = ("blind5",)
BLIND5_GATE = (0.64, 0.53)
# Reader H's probes (scripts/chats/make_probes_h.py): 8 chats, other wording for round 8's
# phenomena (the hour that answers "what time?", busy until an hour). Eight chats make a per-language
# figure coarse, so the language gate is loose; G 0.250 (first run), H 0.660 (ar 0.625, en 0.750, mixed 0.417).
PROBES_H_SETS = ("probes-h",)
PROBES_H_GATE = (0.60, 0.33)
# The binary runs the rules alone, the default. Reader D's status model (off by default; see
# docs/extraction.md) is trained on every set gated here (blind2 0.843, blind1 0.905 with it), so
# with it the gates catch a broken build or a rule that loses ground, not how well the reader
# generalises. That is the leave-one-set-out table in
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
    for name in DEV2_SETS:
        failures += run_set(args.binary, name, DEV2_GATE)
    for name in BLIND_SETS:
        failures += run_set(args.binary, name, BLIND_GATE)
    for name in BLIND2_SETS:
        failures += run_set(args.binary, name, BLIND2_GATE)
    for name in BLIND3_SETS:
        failures += run_set(args.binary, name, BLIND3_GATE)
    for name in PROBES_SETS:
        failures += run_set(args.binary, name, PROBES_GATE)
    for name in BLIND4_SETS:
        failures += run_set(args.binary, name, BLIND4_GATE)
    for name in BLIND5_SETS:
        failures += run_set(args.binary, name, BLIND5_GATE)
    for name in PROBES_H_SETS:
        failures += run_set(args.binary, name, PROBES_H_GATE)
    if failures:
        print("\n".join(failures), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
