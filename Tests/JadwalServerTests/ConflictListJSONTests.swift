import Foundation
@testable import JadwalAPI
@testable import JadwalCore
import JadwalHTTP
import Scheduling
import Testing

/// The conflict list is pieced together from each day's blocks written once (issue 22: a list of a
/// thousand conflicts spent most of its time writing the same days again). It must be the bytes
/// the JSON encoder writes for the whole list.
@Suite("Conflict list JSON")
struct ConflictListJSONTests {
    static let t0 = Date(timeIntervalSince1970: 1_796_000_000)

    static func range(_ from: Double, _ to: Double) throws -> TimeRange {
        try TimeRange(start: t0 + from * 3600, end: t0 + to * 3600)
    }

    @Test("pieced together it is byte for byte what the encoder writes: shared days, marks, no day, titles that need escaping")
    func sameBytes() throws {
        let calendar = UUID()
        let titles = [#"Dinner "at" Sara's"#, "اجتماع / فريق", "Line\nbreak\tand \\ back\u{1}slash", "🎉 party", "plain"]
        var listed: [(EventConflict, ConflictDay?)] = []
        for (index, title) in titles.enumerated() {
            let name = "event-\(index).ics"
            let reference = EventOccurrence.reference(calendarID: calendar, objectName: name)
            let event = EventConflict.Occurrence(
                calendarID: calendar, objectName: name, uid: "uid-\(index)", title: index == 3 ? nil : title,
                start: Self.t0 + Double(index) * 1800, end: Self.t0 + Double(index) * 1800 + 3600, recurrenceID: index == 1 ? "20261201T100000Z" : nil,
                etag: "\"etag-\(index)\"")
            let overlap = EventConflict.Overlap(
                kind: index.isMultiple(of: 2) ? .event : .prayer, title: titles[(index + 1) % titles.count], start: Self.t0, end: Self.t0 + 3600,
                overlapStart: Self.t0 + 600, overlapEnd: Self.t0 + 1800, calendarID: index.isMultiple(of: 2) ? calendar : nil,
                objectName: index.isMultiple(of: 2) ? "other.ics" : nil, prayer: index.isMultiple(of: 2) ? nil : "dhuhr")
            let conflict = EventConflict(
                id: UUID(), accountID: UUID(), event: event, overlaps: [overlap], source: .caldav, status: index == 4 ? .kept : .open,
                notify: index != 2, detectedAt: Self.t0 - 60, resolvedAt: index == 4 ? Self.t0 : nil)
            // Two days shared by several conflicts; one conflict without a day.
            let date = index < 3 ? "2026-11-30" : "2026-12-01"
            let blocks = [
                BusyBlock(try Self.range(0, 1), .event(id: EventOccurrence.reference(calendarID: calendar, objectName: "event-0.ics"), title: titles[0])),
                BusyBlock(try Self.range(0.5, 1.5), .event(id: EventOccurrence.reference(calendarID: calendar, objectName: "event-1.ics"), title: titles[1])),
                BusyBlock(try Self.range(2, 2.5), .prayer(.dhuhr)),
                BusyBlock(try Self.range(3, 4), .routine(id: EventOccurrence.reference(calendarID: calendar, objectName: "event-3.ics"), name: titles[2])),
                BusyBlock(try Self.range(5, 6), .plannedTask(taskID: EventOccurrence.reference(calendarID: calendar, objectName: "event-4.ics"), title: titles[3])),
            ]
            let day = ConflictDay(date: date, range: try Self.range(-12, 12), blocks: blocks, eventReference: reference)
            listed.append((conflict, index == 2 ? nil : day))
        }
        for zone in ["Asia/Riyadh", "America/Argentina/Buenos_Aires"] {
            let expected = try APIJSON.encoder().encode(ConflictList(conflicts: listed.map { conflict, day in
                ConflictView(conflict, day: day.map { ConflictRoutes.dayView($0, zone: zone) })
            }))
            let pieced = ConflictList.written(listed, zone: zone).data
            #expect(pieced == expected, "\(String(decoding: pieced, as: UTF8.self))\n\(String(decoding: expected, as: UTF8.self))")
        }
        #expect(try ConflictList.written([], zone: "UTC").data == APIJSON.encoder().encode(ConflictList(conflicts: [])))
    }

    struct Sample: Encodable {
        let date: Date
        let text: String
        let count: Int
        let flag: Bool
    }

    @Test("the hand writer matches the encoder on every control character, non-ASCII text, and dates across eras and fractions of a second")
    func writerMatchesEncoder() throws {
        var texts = (0..<0x20).map { String(UnicodeScalar(UInt8($0))) + "x" }
        texts += ["\u{7f}", "\u{2028}\u{2029}", "a/b\\c\"d", "جدول 📅", "", "\r\n"]
        var dates = [0.0, -1, -0.5, 0.999, 59.999, 86_399.5, -86_400, 951_782_400, 4_102_444_800, -2_208_988_800, 1_796_000_000.25]
        var generator = SystemRandomNumberGenerator()
        dates += (0..<500).map { _ in Double.random(in: -5_000_000_000...10_000_000_000, using: &generator) }
        for (index, date) in dates.enumerated() {
            let sample = Sample(date: Date(timeIntervalSince1970: date), text: texts[index % texts.count], count: index - 250, flag: index.isMultiple(of: 2))
            var json = JSONText()
            json.object { json in
                json.member("count", sample.count)
                json.member("date", sample.date)
                json.member("flag", sample.flag)
                json.member("text", sample.text)
            }
            let expected = try APIJSON.encoder().encode(sample)
            #expect(json.data == expected, "\(date): \(String(decoding: json.bytes, as: UTF8.self)) vs \(String(decoding: expected, as: UTF8.self))")
        }
    }
}
