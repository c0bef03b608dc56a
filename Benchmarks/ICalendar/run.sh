#!/bin/sh
# Benchmark: Jadwal's ICalendar against Python icalendar + recurring-ical-events, one run.
#   Benchmarks/ICalendar/run.sh [EVENTS] [ROUNDS]
# Needs swiftc and the venv from scripts/ical (PYTHON overrides the interpreter).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
events=${1:-10000}
rounds=${2:-5}
python=${PYTHON:-/var/tmp/jadwal-venv/bin/python}
work=${WORK:-$(mktemp -d)}
mkdir -p "$work"

"$python" "$here/make_calendar.py" "$work/calendar.ics" "$events"

# Build ICalendar as its own optimised module, then the driver against it (as a
# library user would link it). Kept out of the main Package.swift on purpose.
swiftc -O -wmo -parse-as-library -module-name ICalendar -emit-module -emit-module-path "$work/ICalendar.swiftmodule" \
    -emit-library -static -o "$work/libICalendar.a" $(find "$root/Sources/ICalendar" -name '*.swift' | sort)
swiftc -O -I "$work" -L "$work" -lICalendar "$here/Bench/main.swift" -o "$work/bench-icalendar"

swift_json=$("$work/bench-icalendar" "$work/calendar.ics" "$rounds" "$work/instances-jadwal.txt")
python_json=$("$python" "$here/bench_reference.py" "$work/calendar.ics" "$(( rounds < 3 ? rounds : 3 ))" "$work/instances-reference.txt")

"$python" - "$swift_json" "$python_json" <<'PY'
import json, sys
s, p = json.loads(sys.argv[1]), json.loads(sys.argv[2])
print(f"file: {s['bytes']:,} bytes")
print(f"{'':28}{'Jadwal (Swift)':>16}{'Python':>12}{'ratio':>9}")
for key, label in (("parseSerialise", "parse + serialise"), ("expand", "expand one year")):
    print(f"{label:28}{s[key] * 1000:13.1f} ms{p[key] * 1000:9.1f} ms{p[key] / s[key]:8.1f}x")
print(f"instances in 2026: Jadwal {s['instances']:,}, recurring-ical-events {p['instances']:,}")
PY
if cmp -s "$work/instances-jadwal.txt" "$work/instances-reference.txt"; then
    echo "instance sets: identical"
else
    echo "instance sets: DIFFERENT (diff $work/instances-jadwal.txt $work/instances-reference.txt)"
    exit 1
fi
