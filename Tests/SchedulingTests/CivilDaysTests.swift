import CivilTime
import Foundation
import Testing

/// The one copy of day arithmetic, against Foundation's Gregorian calendar.
@Suite("Civil days")
struct CivilDaysTests {
    static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    // Foundation's Gregorian calendar is Julian before October 1582; ours is proleptic (as
    // iCalendar's dates are), so the two are compared from 1583, and earlier days by known values.
    @Test("day numbers and dates agree with Foundation from 1583 to 9999, both ways; earlier days are proleptic Gregorian")
    func againstFoundation() {
        // Every 7th day over the whole range, and every day around the leap-rule edges.
        let first = CivilDays.since1970(year: 1583, month: 1, day: 1), last = CivilDays.since1970(year: 9999, month: 12, day: 31)
        let edges = [(1900, 2), (2000, 2), (2100, 2), (1970, 1), (1969, 12), (2024, 2), (2400, 2)].flatMap { year, month in
            let start = CivilDays.since1970(year: year, month: month, day: 1)
            return Array((start - 40)...(start + 40))
        }
        for days in Array(stride(from: first, through: last, by: 7)) + edges {
            let (year, month, day) = CivilDays.date(since1970: days)
            let parts = Self.utc.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: TimeInterval(days) * 86_400))
            #expect(parts.year == year && parts.month == month && parts.day == day, "day \(days)")
            #expect(CivilDays.since1970(year: year, month: month, day: day) == days)
        }
        // 0001-01-01 is 719,162 days before 1970 in the proleptic Gregorian calendar (Python's
        // date(1, 1, 1).toordinal() is 1 and date(1970, 1, 1).toordinal() is 719,163).
        #expect(CivilDays.since1970(year: 1, month: 1, day: 1) == -719_162)
        #expect(CivilDays.date(since1970: -719_162) == (1, 1, 1))
        #expect(CivilDays.date(since1970: CivilDays.since1970(year: 1500, month: 2, day: 29)) == (1500, 3, 1), "1500 is no leap year here")
    }

    @Test("month lengths and leap years agree with Foundation; a month that does not exist has no days")
    func monthLengths() throws {
        for year in [1600, 1700, 1900, 1999, 2000, 2023, 2024, 2100, 2400, 9999] {
            for month in 1...12 {
                let date = try #require(Self.utc.date(from: DateComponents(year: year, month: month, day: 1)))
                #expect(CivilDays.inMonth(month, of: year) == Self.utc.range(of: .day, in: .month, for: date)?.count, "\(year)-\(month)")
            }
            #expect(CivilDays.isLeap(year) == (CivilDays.inMonth(2, of: year) == 29))
        }
        #expect(CivilDays.inMonth(0, of: 2024) == 0 && CivilDays.inMonth(13, of: 2024) == 0)
    }
}
