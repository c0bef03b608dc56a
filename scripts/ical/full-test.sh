#!/bin/sh
# The full ICalendar test: unit tests (fixtures, no Python needed), then the live
# differential comparison of `jadwal ics expand` with icalendar + recurring-ical-events.
#   scripts/ical/full-test.sh
# PYTHON: interpreter with the reference installed (default /var/tmp/jadwal-venv/bin/python)
# JADWAL: command to compare (default: the debug build's `jadwal ics`)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
python=${PYTHON:-/var/tmp/jadwal-venv/bin/python}
if [ -z "${JADWAL:-}" ]; then
    swift build --product jadwal
    JADWAL="$(swift build --show-bin-path)/jadwal ics"
fi
swift test --filter ICalendarTests
# shellcheck disable=SC2086 # JADWAL is a command with arguments
"$python" scripts/ical/recurrence_cases.py compare --binary $JADWAL
