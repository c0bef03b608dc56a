/// A non-empty set of days of the week, numbered as ISO 8601 does: 1 = Monday … 7 = Sunday.
///
/// ISO numbering rather than Foundation's (1 = Sunday) because it is what people and APIs write
/// ("days": [1, 2, 3, 4, 5] for a working week) and what `DTSTART`/`BYDAY` readers expect of a week
/// that starts on Monday. ``weekends`` is Saturday and Sunday; where the weekend is Friday and
/// Saturday, use ``init(_:)`` with `[5, 6]`.
public struct DaysOfWeek: Sendable, Hashable, CustomStringConvertible {
    /// Bit `n` is set for ISO day `n` (bit 0 unused).
    private let mask: UInt8

    /// Throws ``SchedulingError/dayOutOfRange(_:)`` for a number outside 1…7 and
    /// ``SchedulingError/noDays`` for an empty list. Repeated days count once.
    public init(_ isoNumbers: some Sequence<Int>) throws(SchedulingError) {
        var mask: UInt8 = 0
        for day in isoNumbers {
            guard (1...7).contains(day) else { throw .dayOutOfRange(day) }
            mask |= 1 << UInt8(day)
        }
        guard mask != 0 else { throw .noDays }
        self.mask = mask
    }

    private init(mask: UInt8) { self.mask = mask }

    /// Every day.
    public static let daily = DaysOfWeek(mask: 0b1111_1110)
    /// Monday to Friday.
    public static let weekdays = DaysOfWeek(mask: 0b0011_1110)
    /// Saturday and Sunday.
    public static let weekends = DaysOfWeek(mask: 0b1100_0000)

    /// Any choice of days, as ``init(_:)``.
    public static func custom(_ isoNumbers: [Int]) throws(SchedulingError) -> DaysOfWeek {
        try DaysOfWeek(isoNumbers)
    }

    /// Reads the names an API or a form uses: `daily`, `weekdays` or `weekends` (any case).
    /// Throws ``SchedulingError/unknownDayName(_:)`` for anything else.
    public init(named name: String) throws(SchedulingError) {
        switch name.lowercased() {
        case "daily": self = .daily
        case "weekdays": self = .weekdays
        case "weekends": self = .weekends
        default: throw .unknownDayName(name)
        }
    }

    /// True for ISO day `isoWeekday` (1 = Monday … 7 = Sunday).
    public func contains(_ isoWeekday: Int) -> Bool {
        (1...7).contains(isoWeekday) && mask & (1 << UInt8(isoWeekday)) != 0
    }

    /// The days in order, Monday first.
    public var numbers: [Int] { (1...7).filter(contains) }

    // MARK: iCalendar

    /// RFC 5545 `BYDAY` codes, index 0 = Monday (ISO day 1).
    static let codes = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]

    /// The `BYDAY` codes of these days, Monday first: `["MO", "WE", "FR"]`.
    public var iCalendarCodes: [String] { numbers.map { Self.codes[$0 - 1] } }

    /// Reads `BYDAY` codes back (as JadwalCore does when a phone edits a routine's event).
    /// Throws ``SchedulingError/unknownDayCode(_:)`` for anything but the seven plain codes
    /// (ordinal forms such as `1MO` belong to monthly rules, never to a routine).
    public init(iCalendarCodes: some Sequence<String>) throws(SchedulingError) {
        var numbers: [Int] = []
        for code in iCalendarCodes {
            guard let index = Self.codes.firstIndex(of: code.uppercased()) else { throw .unknownDayCode(code) }
            numbers.append(index + 1)
        }
        try self.init(numbers)
    }

    public var description: String { iCalendarCodes.joined(separator: ",") }
}
