import Foundation
import JadwalCore
@testable import Storage
import Testing

/// The conflict list reads each conflict's stored JSON without `JSONDecoder` (issue 22). It must
/// read exactly what the decoder reads, and leave to the decoder anything it does not expect.
@Suite("Stored conflict JSON")
struct StoredConflictJSONTests {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        return decoder
    }()

    static let texts = [
        "plain", #"Dinner "at" Sara's"#, "اجتماع / فريق", "Line\nbreak\tand \\ back\u{1}slash\u{1f}", "🎉 party \u{2028}", "", "a/b/c", "\u{7f}\r\u{8}\u{c}",
    ]

    @Test("reads every occurrence and overlap as the decoder does: escapes, slashes, emoji, absent optionals, fractions of a millisecond")
    func readsWhatTheDecoderReads() throws {
        var generator = SystemRandomNumberGenerator()
        for index in 0..<400 {
            func text(_ offset: Int) -> String { Self.texts[(index + offset) % Self.texts.count] }
            func date() -> Date {
                let seconds = Double(Int.random(in: -2_000_000_000...4_000_000_000, using: &generator))
                return Date(timeIntervalSince1970: index.isMultiple(of: 3) ? seconds + Double.random(in: 0..<1, using: &generator) : seconds)
            }
            let occurrence = EventConflict.Occurrence(
                calendarID: UUID(), objectName: "\(text(1)).ics", uid: text(2), title: index.isMultiple(of: 4) ? nil : text(3), start: date(), end: date(),
                recurrenceID: index.isMultiple(of: 2) ? "20261201T100000Z" : nil, etag: "\"\(text(4))\"")
            let overlaps = (0..<(index % 4)).map { position in
                EventConflict.Overlap(
                    kind: [.event, .prayer, .routine, .task][position % 4], title: text(position), start: date(), end: date(), overlapStart: date(),
                    overlapEnd: date(), calendarID: position.isMultiple(of: 2) ? UUID() : nil, objectName: position.isMultiple(of: 2) ? text(5) : nil,
                    prayer: position == 1 ? "dhuhr" : nil)
            }
            let occurrenceText = String(decoding: try Self.encoder.encode(occurrence), as: UTF8.self)
            let overlapsText = String(decoding: try Self.encoder.encode(overlaps), as: UTF8.self)
            let fastOccurrence = try #require(StoredConflictJSON.occurrence(occurrenceText), "\(occurrenceText)")
            let fastOverlaps = try #require(StoredConflictJSON.overlaps(overlapsText), "\(overlapsText)")
            #expect(fastOccurrence == (try Self.decoder.decode(EventConflict.Occurrence.self, from: Data(occurrenceText.utf8))))
            #expect(fastOverlaps == (try Self.decoder.decode([EventConflict.Overlap].self, from: Data(overlapsText.utf8))))
            #expect(fastOccurrence == occurrence || index.isMultiple(of: 3), "whole milliseconds round-trip exactly")
        }
    }

    @Test("leaves to the decoder what it does not expect: unknown keys, nulls, whitespace, other shapes, broken text")
    func declinesTheUnexpected() {
        let id = UUID().uuidString
        for text in [
            #"{"calendarID":"\#(id)","end":1,"etag":"e","extra":1,"objectName":"o","start":0,"uid":"u"}"#,
            #"{"calendarID":"\#(id)","end":1,"etag":"e","objectName":"o","start":0,"title":null,"uid":"u"}"#,
            #"{ "calendarID":"\#(id)","end":1,"etag":"e","objectName":"o","start":0,"uid":"u"}"#,
            #"{"calendarID":"not-a-uuid","end":1,"etag":"e","objectName":"o","start":0,"uid":"u"}"#,
            #"{"calendarID":"\#(id)","end":1,"objectName":"o","start":0,"uid":"u"}"#,
            #"{"calendarID":"\#(id)","end":1,"etag":"e\u12","objectName":"o","start":0,"uid":"u"}"#,
            #"{"calendarID":"\#(id)","end":1,"etag":"e","objectName":"o","start":0,"uid":"u"}x"#,
            #"{"calendarID":"\#(id)","end":1,"etag":"e"#, "[]", "",
        ] {
            #expect(StoredConflictJSON.occurrence(text) == nil, "\(text)")
        }
        for text in [#"[{"kind":"meeting","title":"t","start":0,"end":1,"overlapStart":0,"overlapEnd":1}]"#, "{}", "[", #"[{}]"#] {
            #expect(StoredConflictJSON.overlaps(text) == nil, "\(text)")
        }
        #expect(StoredConflictJSON.overlaps("[]") == [])
    }

    @Test("UUIDs in Jadwal's form are read as UUID(uuidString:) reads them, in either case, and written as uuidString.lowercased(); anything else is refused")
    func uuids() {
        for _ in 0..<500 {
            let id = UUID()
            #expect(UUIDText.parse(id.uuidString) == id)
            #expect(UUIDText.parse(id.uuidString.lowercased()) == id)
            #expect(UUIDText.lowercased(id) == id.uuidString.lowercased())
        }
        let sample = UUID().uuidString
        var refused = ["", "not-a-uuid", String(sample.dropLast()), sample + "0", sample.replacingOccurrences(of: "-", with: ""),
                       "{\(sample)}", String(sample.prefix(8)) + "_" + String(sample.dropFirst(9)), "G" + String(sample.dropFirst()),
                       " " + String(sample.dropFirst())]
        refused.append(String(sample.prefix(35)) + "é".prefix(1))
        for text in refused {
            #expect(UUIDText.parse(text) == nil, "\(text)")
        }
    }
}
