/// The Moonsighting Committee's seasonal twilight limits (Khalid Shaukat): minutes before
/// sunrise for Fajr and after sunset for Isha ("general" shafaq), linear in |latitude| and
/// piecewise linear over the days since the winter solstice.
enum MoonsightingSeasons {
    /// Day counts where the segments start, and the segment values a, b, c, d, c, b (back to a).
    private static let segmentStarts: [Double] = [0, 91, 137, 183, 229, 275, 366]

    static func fajrMinutesBeforeSunrise(latitude: Double, date: LocalDate) -> Double {
        let scale = abs(latitude) / 55
        return interpolate(
            a: 75 + 28.65 * scale, b: 75 + 19.44 * scale, c: 75 + 32.74 * scale, d: 75 + 48.10 * scale,
            day: daysSinceSolstice(latitude: latitude, date: date))
    }

    static func ishaMinutesAfterSunset(latitude: Double, date: LocalDate) -> Double {
        let scale = abs(latitude) / 55
        return interpolate(
            a: 75 + 25.60 * scale, b: 75 + 2.05 * scale, c: 75 - 9.21 * scale, d: 75 + 6.14 * scale,
            day: daysSinceSolstice(latitude: latitude, date: date))
    }

    /// Days since the winter solstice of the hemisphere: day-of-year + 10 in the north,
    /// day-of-year − 172 (173 in leap years) in the south, wrapped into the year.
    static func daysSinceSolstice(latitude: Double, date: LocalDate) -> Int {
        let daysInYear = date.isLeapYear ? 366 : 365
        if latitude >= 0 {
            let days = date.dayOfYear + 10
            return days >= daysInYear ? days - daysInYear : days
        }
        let days = date.dayOfYear - (date.isLeapYear ? 173 : 172)
        return days < 0 ? days + daysInYear : days
    }

    private static func interpolate(a: Double, b: Double, c: Double, d: Double, day: Int) -> Double {
        let values = [a, b, c, d, c, b, a]
        let x = Double(day)
        var segment = 0
        while segment < 5, x >= segmentStarts[segment + 1] { segment += 1 }
        let start = segmentStarts[segment]
        // The last segment runs 91 days from day 275, as the published formula does.
        let length = segment == 5 ? 91 : segmentStarts[segment + 1] - start
        return values[segment] + (values[segment + 1] - values[segment]) / length * (x - start)
    }
}
