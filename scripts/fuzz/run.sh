#!/usr/bin/env bash
# Builds Jadwal's libFuzzer + AddressSanitizer fuzzers (Benchmarks/Fuzz, issue 22) and runs them.
#
#   scripts/fuzz/run.sh OUT_DIR [dav|whatsapp|chat-json|all] [SECONDS]
#
# OUT_DIR receives the binaries (bin/), the modules and objects they are linked from, the corpora
# (corpus-<target>/, seeded from the test fixtures the first time), crashes (artifacts/<target>/)
# and logs (logs/). SECONDS (default 600) is the run length of each fuzzer; 0 builds only.
# Each fuzzer uses one core; PARALLEL=2 runs two at a time (the default is one after another).
#
# No SwiftPM: each pure module is compiled by swiftc with -sanitize=fuzzer,address, the target
# module together with its entry file. ZIPFoundation is compiled from its checkout the same way.
# swift-crypto (for CloudAPISignature) is not compiled here: its objects and module are taken
# from a SwiftPM debug build (JADWAL_BUILD, default /var/tmp/jadwal-build/debug), copied first,
# so they are uninstrumented (no coverage or ASan inside swift-crypto itself).
set -euo pipefail

usage() { sed -n '2,14p' "$0" >&2; exit 2; }
[[ $# -ge 1 ]] || usage
OUT=$(mkdir -p "$1" && cd "$1" && pwd)
WHICH=${2:-all}
SECONDS_EACH=${3:-600}
PARALLEL=${PARALLEL:-1}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
FUZZ=$ROOT/Benchmarks/Fuzz
BUILD=${JADWAL_BUILD:-/var/tmp/jadwal-build/debug}
CHECKOUTS=${JADWAL_CHECKOUTS:-/var/tmp/jadwal-build/checkouts}
SWIFTC=${SWIFTC:-swiftc}
FLAGS=(-O -wmo -parse-as-library -sanitize=fuzzer,address)

case $WHICH in dav|whatsapp|chat-json) TARGETS=("$WHICH") ;; all) TARGETS=(dav whatsapp chat-json) ;; *) usage ;; esac
mkdir -p "$OUT"/{bin,mods,obj,logs,crypto/mods,crypto/obj}
cd "$ROOT"

swift_files() { find "$@" -name '*.swift' | sort; }
# ld.gold warns about every ASan helper it cannot export; only the rest is worth reading.
quiet_link() { "$@" 2> >(grep -v "Cannot export local symbol" >&2); }

# --- building ---------------------------------------------------------------------------------

# CivilTime (the wall-clock calendar arithmetic) is a module of its own that ICalendar and
# Conversations import; rebuilt with them.
build_civiltime() {
    echo "== CivilTime module (sanitized)"
    "$SWIFTC" "${FLAGS[@]}" -module-name CivilTime -emit-module -emit-module-path "$OUT/mods/CivilTime.swiftmodule" \
        -c $(swift_files Sources/CivilTime) -o "$OUT/obj/CivilTime.o"
}

build_icalendar() {
    build_civiltime
    echo "== ICalendar module (sanitized)"
    "$SWIFTC" "${FLAGS[@]}" -module-name ICalendar -I "$OUT/mods" -emit-module -emit-module-path "$OUT/mods/ICalendar.swiftmodule" \
        -c $(swift_files Sources/ICalendar) -o "$OUT/obj/ICalendar.o"
}

build_zipfoundation() {
    local zip=$CHECKOUTS/ZIPFoundation
    [[ -d $zip/Sources/ZIPFoundation ]] || { echo "ZIPFoundation checkout not found at $zip (set JADWAL_CHECKOUTS)" >&2; exit 1; }
    echo "== ZIPFoundation module (sanitized, from $zip)"
    "$SWIFTC" "${FLAGS[@]}" -module-name ZIPFoundation -Xcc -D_GNU_SOURCE=1 -I "$zip/Sources/CZLib" \
        -emit-module -emit-module-path "$OUT/mods/ZIPFoundation.swiftmodule" \
        -c $(swift_files "$zip/Sources/ZIPFoundation") -o "$OUT/obj/ZIPFoundation.o"
}

copy_crypto() {
    [[ -f $BUILD/Modules/Crypto.swiftmodule ]] || {
        echo "no swift-crypto build at $BUILD (Modules/Crypto.swiftmodule): run a SwiftPM build of Jadwal first, or set JADWAL_BUILD" >&2
        exit 1
    }
    echo "== swift-crypto: copying the debug build's module and objects from $BUILD"
    rm -rf "$OUT/crypto/obj" && mkdir -p "$OUT/crypto/obj"
    cp "$BUILD/Modules/Crypto.swiftmodule" "$BUILD/Modules/CryptoBoringWrapper.swiftmodule" "$OUT/crypto/mods/"
    local module file
    for module in Crypto CryptoBoringWrapper CCryptoBoringSSL CCryptoBoringSSLShims CXKCP CXKCPShims; do
        [[ -d $BUILD/$module.build ]] || continue
        # Object names repeat across modules (CryptoKitErrors_boring.swift.o): keep the module in the name.
        while IFS= read -r file; do
            cp "$file" "$OUT/crypto/obj/$(echo "${file#"$BUILD"/}" | tr '/ ' '__')"
        done < <(find "$BUILD/$module.build" -name '*.o')
    done
}

build_dav() {
    # Rebuilt when any ICalendar source is newer than the object (the lead edits Sources/ while fuzzing).
    if [[ ! -f $OUT/obj/ICalendar.o || -n $(find Sources/ICalendar Sources/CivilTime -name '*.swift' -newer "$OUT/obj/ICalendar.o" | head -1) ]]; then
        build_icalendar
    fi
    echo "== fuzz-dav-request"
    quiet_link "$SWIFTC" "${FLAGS[@]}" -module-name DAVFuzz -I "$OUT/mods" $(swift_files Sources/DAV) "$FUZZ/FuzzDAVRequest.swift" \
        "$OUT/obj/ICalendar.o" "$OUT/obj/CivilTime.o" -o "$OUT/bin/fuzz-dav-request"
}

build_conversations() {  # $1 = entry file, $2 = binary name
    [[ -f $OUT/obj/ZIPFoundation.o ]] || build_zipfoundation
    if [[ ! -f $OUT/obj/CivilTime.o || -n $(find Sources/CivilTime -name '*.swift' -newer "$OUT/obj/CivilTime.o" | head -1) ]]; then
        build_civiltime
    fi
    if [[ -z $(ls "$OUT/crypto/obj" 2>/dev/null) || $BUILD/Modules/Crypto.swiftmodule -nt $OUT/crypto/mods/Crypto.swiftmodule ]]; then
        copy_crypto
    fi
    echo "== $2"
    quiet_link "$SWIFTC" "${FLAGS[@]}" -module-name ConversationsFuzz -I "$OUT/mods" -I "$OUT/crypto/mods" \
        -I "$CHECKOUTS/ZIPFoundation/Sources/CZLib" \
        -Xcc -I"$CHECKOUTS/swift-crypto/Sources/CCryptoBoringSSL/include" \
        -Xcc -I"$CHECKOUTS/swift-crypto/Sources/CCryptoBoringSSLShims/include" \
        $(swift_files Sources/Conversations) "$FUZZ/$1" "$OUT/obj/ZIPFoundation.o" "$OUT/obj/CivilTime.o" "$OUT"/crypto/obj/*.o -lz \
        -o "$OUT/bin/$2"
}

# --- seed corpora -----------------------------------------------------------------------------

seed() {  # $1 = target
    local corpus=$OUT/corpus-$1
    if [[ -n $(ls "$corpus" 2>/dev/null) ]]; then return; fi
    mkdir -p "$corpus"
    echo "== seeding $corpus"
    python3 - "$1" "$corpus" "$ROOT" <<'PY'
import glob, hashlib, hmac, io, json, os, re, sys, zipfile
target, out, root = sys.argv[1:4]
def emit(selector, data):
    d = bytes([selector]) + data
    open(os.path.join(out, hashlib.sha1(d).hexdigest()[:16]), 'wb').write(d)
literal = re.compile(r'(#*)"""\n(.*?)\n([ \t]*)"""\1', re.S)
single = re.compile(r'(?<![#"\\])"((?:<|BEGIN:VCALENDAR|\{)(?:[^"\\\n]|\\.)*)"')
def literals(files):
    """Multi-line and single-line string literals of Swift test files, indentation removed."""
    for f in files:
        src = open(f, encoding='utf-8').read()
        found = [(m.group(1), m.group(2), m.group(3)) for m in literal.finditer(src)]
        found += [('', m.group(1), '') for m in single.finditer(src)]
        for hashes, body, indent in found:
            text = '\n'.join(l[len(indent):] if l.startswith(indent) else l.lstrip() for l in body.split('\n'))
            if not hashes:
                text = re.sub(r'\\\([^)]*\)', 'x', text)
                text = re.sub(r'\\(.)', lambda m: {'n': '\n', 't': '\t', 'r': '\r', '0': '\0'}.get(m.group(1), m.group(1)), text)
            yield text
def tests(*dirs):
    return sorted(f for d in dirs for f in glob.glob(os.path.join(root, 'Tests', d, '**', '*.swift'), recursive=True))
if target == 'dav':
    selectors = {'propfind': [0], 'propertyupdate': [1], 'mkcalendar': [2], 'mkcol': [3], 'calendar-query': [4],
                 'calendar-multiget': [4], 'sync-collection': [4], 'free-busy-query': [4],
                 'principal-property-search': [4], 'share': [5], 'share-resource': [5], 'invite-reply': [5]}
    for text in literals(tests('DAVTests', 'JadwalServerTests')):
        t = text.lstrip()
        if t.startswith('<'):
            m = re.search(r'\?>\s*<(?:\w+:)?([\w-]+)', t) if t.startswith('<?xml') else re.match(r'<(?:\w+:)?([\w-]+)', t)
            for s in selectors.get(m.group(1) if m else '', [0, 1, 4, 5]):
                emit(s, text.encode())
        elif t.startswith('BEGIN:VCALENDAR') and 'VFREEBUSY' in t:
            emit(6, text.replace('\n', '\r\n').encode())
    user = '0f8fad5b-d9cb-469f-a165-70867728950e'
    emit(7, f'1\n/dav/calendars/{user}/home/event%201.ics\nhttps://cal.example.com/dav/principals/{user.upper()}/inbox/'.encode())
    emit(7, f'infinity\n/dav/\n/dav/calendars/{user}/'.encode())
elif target == 'whatsapp':
    files = sorted(set(glob.glob(os.path.join(root, 'Tests/ConversationsTests/Fixtures/exports/*.txt'))
                       + glob.glob('/work/shared/testdata/chats/exports/*.txt')))
    texts = []
    for i, f in enumerate(files):
        data = open(f, 'rb').read()
        texts.append(data)
        selector = (1 if 'en-US' in f else 0) | ((i % 4) << 1)
        emit(selector, data)
        if i % 3 == 0:
            emit(selector, b'\xef\xbb\xbf' + data.replace(b'\n', b'\r\n'))
    def archive(entries, method=zipfile.ZIP_DEFLATED):
        b = io.BytesIO()
        with zipfile.ZipFile(b, 'w') as zf:
            for name, data in entries:
                zf.writestr(zipfile.ZipInfo(name, (2026, 11, 21, 14, 5, 0)), data, compress_type=method)
        return b.getvalue()
    if texts:
        t = lambda i: texts[i % len(texts)]
        emit(0, archive([('_chat.txt', t(0))]))
        emit(2, archive([('_chat.txt', t(1)), ('IMG-0001.jpg', bytes(range(256)) * 2)], zipfile.ZIP_STORED))
        emit(1, archive([('WhatsApp Chat with Sara.txt', t(2)), ('__MACOSX/._WhatsApp Chat with Sara.txt', b'x' * 40)]))
        emit(4, archive([('محادثة واتساب مع سارة.txt', t(3))]))
        emit(6, archive([('chat/notes.txt', t(4)), ('PTT-0001.opus', b'OggS' + bytes(60))]))
    emit(0, archive([('a.txt', b'x'), ('b/a.txt', b'y')]))
    emit(0, archive([]))
    emit(0, archive([('dir/', b'')]))
elif target == 'chat-json':
    for text in literals(tests('ConversationsTests', 'JadwalServerTests')):
        data = text.encode()
        if b'"messages"' in data and b'whatsapp_business_account' not in data:
            emit(0, data); emit(1, data)
        elif b'"entry"' in data or b'whatsapp_business_account' in data:
            emit(2, data)
    m = {"chatId": "966500000001@s.whatsapp.net", "messageId": "3EB0C431D1", "sender": "Sara", "fromMe": False,
         "timestamp": 1795266000, "text": "let's meet tomorrow after isha?", "isGroup": False}
    batches = [json.dumps({"messages": [m]}),
               json.dumps({"messages": [dict(m, timestamp="2026-11-21T14:05:00+03:00"),
                                        dict(m, messageId="2", timestamp="2026-11-21T11:05:00.250Z", text=None, replaces="3EB0C431D1")]}),
               json.dumps({"messages": [{"chatId": "a", "messageId": "b", "deleted": True}, dict(m, text="تمام، بكرة الساعة ٧")]}, ensure_ascii=False),
               '{"connector":"baileys","messages":[{"quoted":{"id":"x"},"chatId":" ","messageId":"m","sender":"s","fromMe":"no","timestamp":1795266000000,"isGroup":true}, null, 3]}',
               '{"messages":[]}']
    for b in batches:
        emit(0, b.encode()); emit(1, b.encode())
    for f in glob.glob(os.path.join(root, 'Tests/ConversationsTests/Fixtures/cloud-api/*.json')):
        if f.endswith('signatures.json'): continue
        data = open(f, 'rb').read()
        emit(2, data)
        sig = 'sha256=' + hmac.new(b'fuzz-app-secret', data, 'sha256').hexdigest()
        emit(3, (sig + '\n').encode() + data)
        emit(3, (' sha256=' + sig[7:].upper() + '\t\n').encode() + data)
    emit(3, b'sha256=00\n{}')
    emit(4, b'hub.mode=subscribe&hub.challenge=1158201444&hub.verify_token=fuzz-verify-token')
    emit(4, b'hub_mode=subscribe&hub_challenge=abc&hub_verify_token=x&hub.mode=unsubscribe')
print(len(os.listdir(out)), 'seeds', file=sys.stderr)
PY
}

# --- running ----------------------------------------------------------------------------------

binary() { case $1 in dav) echo fuzz-dav-request ;; whatsapp) echo fuzz-whatsapp-export ;; chat-json) echo fuzz-chat-json ;; esac; }
dict() { case $1 in dav) echo "$FUZZ/dav.dict" ;; whatsapp) echo "$FUZZ/whatsapp.dict" ;; chat-json) echo "$FUZZ/chat-json.dict" ;; esac; }
maxlen() { case $1 in dav) echo 8192 ;; whatsapp) echo 16384 ;; chat-json) echo 16384 ;; esac; }

run() {  # $1 = target; one core, bounded by -max_total_time
    local target=$1 log
    log=$OUT/logs/$target-$(date -u +%Y%m%dT%H%M%SZ).log
    mkdir -p "$OUT/artifacts/$target"
    echo "== running $(binary "$target") for $SECONDS_EACH s, log $log"
    # Finding F1 (README): FoundationXML leaks a CFString per XML error; suppressed, other leaks still count.
    SWIFT_BACKTRACE=enable=no \
    LSAN_OPTIONS="suppressions=$FUZZ/lsan.supp:print_suppressions=0" \
    timeout --signal=INT --kill-after=60 $((SECONDS_EACH + 120)) \
        "$OUT/bin/$(binary "$target")" -max_total_time="$SECONDS_EACH" -max_len="$(maxlen "$target")" \
        -timeout=10 -rss_limit_mb=2048 -dict="$(dict "$target")" \
        -artifact_prefix="$OUT/artifacts/$target/" -print_final_stats=1 "$OUT/corpus-$target" > "$log" 2>&1 || true
    local last
    last=$(grep -E '^#[0-9]+' "$log" | tail -1 || true)
    echo "   $target: ${last:-no progress line}"
    grep -E 'stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)' "$log" | sed 's/^/   /' || true
    if grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|Fatal error|SUMMARY: ' "$log"; then
        echo "   FINDING in $target: see $log and $OUT/artifacts/$target/"
    fi
}

for target in "${TARGETS[@]}"; do
    case $target in
        dav) build_dav ;;
        whatsapp) build_conversations FuzzWhatsAppExport.swift fuzz-whatsapp-export ;;
        chat-json) build_conversations FuzzChatJSON.swift fuzz-chat-json ;;
    esac
    seed "$target"
done
[[ $SECONDS_EACH -gt 0 ]] || exit 0

pids=()
for target in "${TARGETS[@]}"; do
    run "$target" &
    pids+=($!)
    if [[ ${#pids[@]} -ge $PARALLEL ]]; then wait "${pids[0]}"; pids=("${pids[@]:1}"); fi
done
for pid in "${pids[@]}"; do wait "$pid"; done
