/// The order of the numbers in an export's dates. WhatsApp writes it in the phone's locale and
/// never says which one it is.
public enum DateOrder: String, Sendable, Hashable, CaseIterable {
    /// 21/11/2026 (most of the world).
    case dayMonthYear
    /// 11/21/26 (en-US).
    case monthDayYear
    /// 2026-11-21, 2026/11/21.
    case yearMonthDay
}

/// Picks the day/month order of a file from all its headers (FORMATS.md §3, rule 2): a value
/// above 12 rules out the month in its position; when both orders remain, the one that keeps
/// the messages in order wins, then the one that keeps them closest together in time (a chat
/// from December 1st to 4th, not from 12 January to 12 April), then `preferred`.
enum DateOrderInference {
    struct Header {
        var line: Int
        var raw: RawHeader
    }

    /// The order for the headers that do not start with a 4-digit year.
    static func infer(
        _ headers: [Header], preferred: DateOrder
    ) throws(WhatsAppExportError) -> DateOrder {
        var firstBreakingDayFirst: Header?
        var firstBreakingMonthFirst: Header?
        for header in headers where !header.raw.yearFirst {
            let dayFirstFits = fits(header.raw, .dayMonthYear)
            let monthFirstFits = fits(header.raw, .monthDayYear)
            if !dayFirstFits, !monthFirstFits {
                throw WhatsAppExportError(line: header.line, reason: .impossibleDate(date: header.raw.dateText))
            }
            if !dayFirstFits, firstBreakingDayFirst == nil { firstBreakingDayFirst = header }
            if !monthFirstFits, firstBreakingMonthFirst == nil { firstBreakingMonthFirst = header }
        }
        switch (firstBreakingDayFirst, firstBreakingMonthFirst) {
        case (nil, .some):
            return .dayMonthYear
        case (.some, nil):
            return .monthDayYear
        case (.some(let a), .some(let b)):
            let (earlier, later) = a.line < b.line ? (a, b) : (b, a)
            throw WhatsAppExportError(
                line: later.line,
                reason: .inconsistentDateOrder(
                    date: later.raw.dateText, otherLine: earlier.line, otherDate: earlier.raw.dateText))
        case (nil, nil):
            break
        }
        if !headers.contains(where: { !$0.raw.yearFirst }) {
            return headers.isEmpty ? preferred : .yearMonthDay
        }
        let dayFirst = disorder(headers, .dayMonthYear)
        let monthFirst = disorder(headers, .monthDayYear)
        if dayFirst < monthFirst { return .dayMonthYear }
        if monthFirst < dayFirst { return .monthDayYear }
        return preferred == .monthDayYear ? .monthDayYear : .dayMonthYear
    }

    /// The year, month and day of a header in a given order (the order is ignored for a year-first date).
    static func date(_ raw: RawHeader, _ order: DateOrder) -> (year: Int, month: Int, day: Int) {
        if raw.yearFirst { return (raw.year, raw.field2, raw.field3) }
        switch order {
        case .monthDayYear: return (raw.year, raw.field1, raw.field2)
        case .dayMonthYear, .yearMonthDay: return (raw.year, raw.field2, raw.field1)
        }
    }

    static func fits(_ raw: RawHeader, _ order: DateOrder) -> Bool {
        let (year, month, day) = date(raw, order)
        return (1...12).contains(month) && (1...LocalDateTime.daysInMonth(year: year, month: month)).contains(day)
    }

    /// (steps back in time, total days between consecutive messages) with this order.
    private static func disorder(_ headers: [Header], _ order: DateOrder) -> (Int, Int) {
        var backwards = 0
        var spread = 0
        var previous: Int?
        for header in headers where !header.raw.yearFirst {
            let (year, month, day) = date(header.raw, order)
            let days = LocalDateTime.daysSinceEpoch(year: year, month: month, day: day)
            if let previous {
                if days < previous { backwards += 1 }
                spread += abs(days - previous)
            }
            previous = days
        }
        return (backwards, spread)
    }
}
