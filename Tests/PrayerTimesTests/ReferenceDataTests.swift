import Foundation
import Testing
@testable import PrayerTimes

/// The dev reference sets of shared/testdata/prayer, copied into Fixtures.
@Suite struct ReferenceDataTests {
    @Test func everyComputedRecordIsWithinOneMinute() throws {
        let file = try ReferenceFile.load("dev")
        #expect(file.records.count == 1494)
        var report = AccuracyReport()
        var edgeReport = AccuracyReport()
        for record in file.records {
            #expect(record.kind == "computed")
            let schedule = try record.calculator().schedule(for: LocalDate(iso8601: record.date))
            if record.edge == true {
                edgeReport.compare(record, with: schedule)
            } else {
                report.compare(record, with: schedule)
            }
        }
        print("dev (computed, not edge): \(report)")
        print("dev edge records: \(edgeReport)")
        #expect(report.compared == (1494 - 8) * 6)
        #expect(report.overTolerance.isEmpty, "\(report.overTolerance.prefix(20))")
        #expect(report.wrongOffsets.isEmpty, "\(report.wrongOffsets.prefix(20))")
        #expect(report.missing.isEmpty, "\(report.missing.prefix(20))")
        // Edge records are reported separately; with the reference's algorithm they also hold.
        #expect(edgeReport.compared == 8 * 6)
        #expect(edgeReport.overTolerance.isEmpty, "\(edgeReport.overTolerance)")
    }

    @Test func everyPublishedTimetableRecordIsWithinItsTolerance() throws {
        let file = try ReferenceFile.load("official")
        #expect(file.records.count == 1204)
        var byKind: [String: AccuracyReport] = [:]
        for record in file.records {
            let schedule = try record.calculator().schedule(for: LocalDate(iso8601: record.date))
            byKind[record.kind, default: AccuracyReport()].compare(record, with: schedule)
        }
        #expect(Set(byKind.keys) == ["official", "official-unmerged", "third-party-computed"])
        for (kind, report) in byKind.sorted(by: { $0.key < $1.key }) {
            print("official.json \(kind): \(report)")
            #expect(report.overTolerance.isEmpty, "\(kind): \(report.overTolerance.prefix(20))")
            #expect(report.wrongOffsets.isEmpty, "\(kind): \(report.wrongOffsets.prefix(20))")
            #expect(report.missing.isEmpty, "\(kind): \(report.missing.prefix(20))")
            #expect(report.maxAbsoluteMinutes <= 2)
        }
    }

    /// The daily series (Makkah, London, Oslo through 2026) computed with `schedules(from:through:)`,
    /// which shares solar positions between days, must agree with the per-day records.
    @Test func seriesComputationAgreesWithSingleDays() throws {
        let file = try ReferenceFile.load("dev")
        let groups = Dictionary(grouping: file.records) {
            "\($0.city)|\($0.method)|\($0.madhab)|\($0.highLatitudeRule)"
        }
        var checked = 0
        for (_, records) in groups where records.count > 300 {
            let sorted = records.sorted { $0.date < $1.date }
            let calculator = try sorted[0].calculator()
            let start = try LocalDate(iso8601: sorted[0].date)
            let end = try LocalDate(iso8601: sorted[sorted.count - 1].date)
            let series = calculator.schedules(from: start, through: end)
            let byDate = Dictionary(uniqueKeysWithValues: series.map { ($0.date, $0) })
            var report = AccuracyReport()
            for record in sorted {
                let date = try LocalDate(iso8601: record.date)
                let schedule = try #require(byDate[date])
                #expect(schedule == calculator.schedule(for: date))
                report.compare(record, with: schedule)
            }
            #expect(report.overTolerance.isEmpty, "\(report.overTolerance.prefix(10))")
            checked += sorted.count
        }
        #expect(checked >= 3 * 365)
    }
}
