#!/bin/sh
# Benchmark: reading DAV bodies with Jadwal's XMLReader beside FoundationXML's XMLParser, one run.
#   Benchmarks/XML/run.sh
# Builds Sources/DAV (with ICalendar and CivilTime, which it imports) as optimised modules with
# swiftc, as a library user would link them, then the driver. Kept out of Package.swift on purpose.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=${WORK:-$(mktemp -d)}
mkdir -p "$work"
module() {  # $1 = module name
    swiftc -O -wmo -parse-as-library -module-name "$1" -I "$work" -emit-module -emit-module-path "$work/$1.swiftmodule" \
        -emit-library -static -o "$work/lib$1.a" $(find "$root/Sources/$1" -name '*.swift' | sort)
}
module CivilTime
module ICalendar
module DAV
swiftc -O -I "$work" -L "$work" -lDAV -lICalendar -lCivilTime $(find "$here/Bench" -name "*.swift" | sort) -o "$work/bench-xml"
"$work/bench-xml"
