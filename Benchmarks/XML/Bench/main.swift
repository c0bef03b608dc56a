// Reading DAV bodies: Jadwal's XMLReader (its own parser since 2026-12-05) beside the reader it
// replaced (FoundationXML's XMLParser, libxml2, with the delegate that built the same tree:
// FoundationTreeReader.swift) and beside XMLParser with a delegate that only counts elements (a
// lower bound for any reader built on it), on the same documents, in one run. Then the memory each
// keeps after 200,000 malformed bodies (finding F1).
//
//   Benchmarks/XML/run.sh        (builds Sources/DAV with swiftc -O and runs this)

import DAV
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

final class CountingDelegate: NSObject, XMLParserDelegate {
    var elements = 0
    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        elements += 1
    }
}

func foundationParse(_ data: Data) -> Bool {
    let parser = XMLParser(data: data)
    parser.shouldProcessNamespaces = true
    parser.shouldReportNamespacePrefixes = true
    let delegate = CountingDelegate()
    parser.delegate = delegate
    return parser.parse() && delegate.elements > 0
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
}

/// Median seconds of one call, over rounds of `repeats` calls each.
func time(rounds: Int, repeats: Int, _ body: () -> Bool) -> Double {
    var samples: [Double] = []
    for _ in 0..<rounds {
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<repeats { precondition(body()) }
        samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 / Double(repeats))
    }
    return median(samples)
}

func residentMiB() -> Double {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
          let kib = Double(line.split(separator: " ").dropFirst().first ?? "")
    else { return .nan }
    return kib / 1024
}

let query = Data("""
    <?xml version="1.0" encoding="utf-8" ?>
    <C:calendar-query xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">
      <D:prop><D:getetag/><C:calendar-data/></D:prop>
      <C:filter><C:comp-filter name="VCALENDAR"><C:comp-filter name="VEVENT">
        <C:time-range start="20261130T000000Z" end="20261207T000000Z"/>
      </C:comp-filter></C:comp-filter></C:filter>
    </C:calendar-query>
    """.utf8)

var multiget = #"<?xml version="1.0" encoding="utf-8"?><C:calendar-multiget xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:prop><D:getetag/><C:calendar-data/></D:prop>"#
for i in 0..<500 { multiget += "<D:href>/dav/calendars/dana/home/event-\(i).ics</D:href>" }
multiget += "</C:calendar-multiget>"

// Another server's answer to a full calendar-query: what Jadwal reads when it mirrors a calendar.
var answer = #"<?xml version="1.0" encoding="utf-8"?><multistatus xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">"#
for i in 0..<5_000 {
    answer += "<response><href>/cal/user/work/event-\(i).ics</href><propstat><prop><getetag>\"\(i)-a1b2c3\"</getetag>"
    answer += "<C:calendar-data>BEGIN:VCALENDAR&#13;\nVERSION:2.0&#13;\nPRODID:-//Peer//EN&#13;\nBEGIN:VEVENT&#13;\n"
    answer += "UID:event-\(i)@example.com&#13;\nDTSTAMP:20260101T000000Z&#13;\nDTSTART;TZID=Asia/Riyadh:20261201T0900\(i % 6)0&#13;\n"
    answer += "DURATION:PT1H&#13;\nSUMMARY:Meeting \(i) &amp; review&#13;\nLOCATION:Room \(i % 40)&#13;\nEND:VEVENT&#13;\nEND:VCALENDAR&#13;\n"
    answer += "</C:calendar-data></prop><status>HTTP/1.1 200 OK</status></propstat></response>"
}
answer += "</multistatus>"

setvbuf(stdout, nil, _IOLBF, 0)
let reader = XMLReader()

// `bench-xml --compare DIR`: read every file in DIR (a fuzzer's corpus, say; the first byte is the
// fuzzer's selector and is dropped) with both readers and print where they disagree.
if CommandLine.arguments.count == 3, CommandLine.arguments[1] == "--compare" {
    let folder = URL(fileURLWithPath: CommandLine.arguments[2])
    let files = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? []
    var same = 0, onlyOurs = 0, onlyBefore = 0, different = 0
    for file in files.sorted(by: { $0.path < $1.path }) {
        guard let bytes = try? Data(contentsOf: file), bytes.count > 1 else { continue }
        let body = bytes.dropFirst()
        let ours = try? reader.read(Data(body))
        // The old reader ran the same refusals first (DTDs, processing instructions, encodings).
        var refused = false
        do { try XMLReader.refuseUnsafeContent(Data(body)) } catch { refused = true }
        let before = refused ? nil : foundationTree(Data(body))
        switch (ours, before) {
        case (nil, nil): same += 1
        case let (a?, b?) where a == b: same += 1
        case (_?, nil): onlyOurs += 1; print("only XMLReader reads \(file.lastPathComponent): \(String(decoding: body.prefix(120), as: UTF8.self).debugDescription)")
        case (nil, _?): onlyBefore += 1; print("only the old reader reads \(file.lastPathComponent): \(String(decoding: body.prefix(120), as: UTF8.self).debugDescription)")
        default: different += 1; print("different trees for \(file.lastPathComponent): \(String(decoding: body.prefix(120), as: UTF8.self).debugDescription)")
        }
    }
    print("\(files.count) files: \(same) alike, \(onlyOurs) read only by XMLReader, \(onlyBefore) only by the old reader, \(different) read differently")
    exit(0)
}
let large = XMLReader(limits: .init(maxBytes: 64 << 20, maxDepth: 64))
let documents: [(name: String, data: Data, reader: XMLReader, rounds: Int, repeats: Int)] = [
    ("calendar-query REPORT", query, reader, 15, 2_000),
    ("calendar-multiget, 500 hrefs", Data(multiget.utf8), reader, 15, 50),
    ("a peer's 5,000-event answer", Data(answer.utf8), large, 7, 1),
]
print("document                          bytes   XMLReader now   before (FoundationXML tree)   FoundationXML count only")
for document in documents {
    precondition(foundationTree(document.data) == (try? document.reader.read(document.data)), "the readers disagree on \(document.name)")
    let ours = time(rounds: document.rounds, repeats: document.repeats) { (try? document.reader.read(document.data)) != nil }
    let before = time(rounds: document.rounds, repeats: document.repeats) { foundationTree(document.data) != nil }
    let counting = time(rounds: document.rounds, repeats: document.repeats) { foundationParse(document.data) }
    func shown(_ seconds: Double) -> String {
        seconds < 1e-3 ? String(format: "%8.1f µs", seconds * 1e6) : String(format: "%8.2f ms", seconds * 1e3)
    }
    print(document.name.padding(toLength: 32, withPad: " ", startingAt: 0), String(format: "%9d", document.data.count),
          "  ", shown(ours), "    ", shown(before), String(format: " (%.1f×)", before / ours),
          "         ", shown(counting), String(format: " (%.1f×)", counting / ours))
}

let malformed = Data("<svg".utf8)
let before = residentMiB()
var refused = 0
for _ in 0..<200_000 where (try? reader.read(malformed)) == nil { refused += 1 }
precondition(refused == 200_000, "XMLReader accepted <svg")
let afterOurs = residentMiB()
for _ in 0..<200_000 { _ = foundationParse(malformed) }
let afterTheirs = residentMiB()
print(String(format: "200,000 malformed bodies (<svg): resident set +%.1f MiB with XMLReader, +%.1f MiB with FoundationXML's XMLParser",
             afterOurs - before, afterTheirs - afterOurs))
