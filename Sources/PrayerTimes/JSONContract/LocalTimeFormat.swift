import Foundation

/// ISO-8601 local wall-clock times with the zone's offset at that instant, e.g.
/// `2026-03-05T05:22:00+03:00`, as the JSON contract and the tables print them.
public enum LocalTimeFormat {
    public static func iso8601(_ date: Date, in timeZone: TimeZone) -> String {
        let offset = timeZone.secondsFromGMT(for: date)
        let local = Int((date.timeIntervalSince1970).rounded(.down)) + offset
        let day = Int((Double(local) / 86_400).rounded(.down))
        let secondOfDay = local - day * 86_400
        let civil = LocalDate(daysSinceEpoch: day)
        let offsetMinutes = abs(offset) / 60
        // "YYYY-MM-DDTHH:MM:SS+HH:MM", written digit by digit: this runs for every time printed.
        var bytes = [UInt8]()
        bytes.reserveCapacity(25)
        func digits(_ value: Int, _ count: Int) {
            var divisor = 1
            for _ in 1..<count { divisor *= 10 }
            var rest = value
            for _ in 0..<count {
                bytes.append(UInt8(ascii: "0") + UInt8(rest / divisor % 10))
                rest %= divisor
                divisor /= 10
            }
        }
        digits(civil.year, 4)
        bytes.append(UInt8(ascii: "-"))
        digits(civil.month, 2)
        bytes.append(UInt8(ascii: "-"))
        digits(civil.day, 2)
        bytes.append(UInt8(ascii: "T"))
        digits(secondOfDay / 3600, 2)
        bytes.append(UInt8(ascii: ":"))
        digits(secondOfDay / 60 % 60, 2)
        bytes.append(UInt8(ascii: ":"))
        digits(secondOfDay % 60, 2)
        bytes.append(UInt8(ascii: offset < 0 ? "-" : "+"))
        digits(offsetMinutes / 60, 2)
        bytes.append(UInt8(ascii: ":"))
        digits(offsetMinutes % 60, 2)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `HH:mm` in the zone.
    public static func clockTime(_ date: Date, in timeZone: TimeZone) -> String {
        let local = Int((date.timeIntervalSince1970).rounded(.down)) + timeZone.secondsFromGMT(for: date)
        let day = Int((Double(local) / 86_400).rounded(.down))
        return clock(local - day * 86_400, seconds: false)
    }

    /// `+03:00`, `-04:30`.
    public static func offsetText(_ seconds: Int) -> String {
        let sign = seconds < 0 ? "-" : "+"
        let minutes = abs(seconds) / 60
        return sign + DigitFormat.padded(minutes / 60, width: 2) + ":" + DigitFormat.padded(minutes % 60, width: 2)
    }

    private static func clock(_ secondOfDay: Int, seconds: Bool) -> String {
        let text = DigitFormat.padded(secondOfDay / 3600, width: 2) + ":" + DigitFormat.padded(secondOfDay / 60 % 60, width: 2)
        return seconds ? text + ":" + DigitFormat.padded(secondOfDay % 60, width: 2) : text
    }
}
