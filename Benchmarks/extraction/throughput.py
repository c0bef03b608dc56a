#!/usr/bin/env python3
"""Rule extractor throughput: `jadwal extract --jsonl` on one core, end to end (JSON in and out).

  Benchmarks/extraction/throughput.py --binary /var/tmp/jadwal-build/release/jadwal [--copies 200] [--runs 3]

The input is the labelled dev, generalisation and dev2 conversations, repeated `--copies` times with
fresh ids. Prints the median wall time of `--runs` runs pinned to CPU 0 (taskset), and
conversations and messages per second. Issue 6's goal: >= 10,000 messages/s on one core.
"""
import argparse
import json
import pathlib
import shutil
import statistics
import subprocess
import tempfile
import time

FIXTURES = pathlib.Path(__file__).resolve().parents[2] / "Tests" / "ConversationsTests" / "Fixtures" / "extraction"
LABELS = ("expected", "tags", "note", "lang")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--copies", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()

    items = []
    for name in ("dev", "generalisation", "dev2-en-mixed", "dev2-ar"):
        for line in (FIXTURES / f"{name}.jsonl").read_text(encoding="utf-8").splitlines():
            if line.strip():
                item = json.loads(line)
                items.append({k: v for k, v in item.items() if k not in LABELS})
    conversations = messages = 0
    with tempfile.TemporaryDirectory() as folder:
        source = pathlib.Path(folder) / "input.jsonl"
        with source.open("w", encoding="utf-8") as out:
            for copy in range(args.copies):
                for item in items:
                    out.write(json.dumps(dict(item, id=f"{item['id']}-{copy}"), ensure_ascii=False) + "\n")
                    conversations += 1
                    messages += len(item["messages"])
        pin = ["taskset", "-c", "0"] if shutil.which("taskset") else []
        times = []
        for _ in range(args.runs):
            with source.open("rb") as stdin:
                start = time.perf_counter()
                result = subprocess.run(pin + [args.binary, "extract", "--jsonl"], stdin=stdin, stdout=subprocess.PIPE, check=True)
                times.append(time.perf_counter() - start)
            lines = result.stdout.count(b"\n")
            assert lines == conversations, f"{lines} predictions for {conversations} conversations"
    median = statistics.median(times)
    print(f"conversations: {conversations}  messages: {messages}  runs: {args.runs}  cpu: {'0 (taskset)' if pin else 'any'}")
    print(f"median wall time: {median:.3f} s  (all: {', '.join(f'{t:.3f}' for t in times)})")
    print(f"throughput: {conversations / median:,.0f} conversations/s, {messages / median:,.0f} messages/s")


if __name__ == "__main__":
    main()
