/// Julian day numbers (Meeus, *Astronomical Algorithms*, chapter 7), Gregorian calendar only.
enum JulianDay {
    /// The Julian day of 0h UT on the given Gregorian date (Meeus 7.1).
    static func atMidnightUT(year: Int, month: Int, day: Int) -> Double {
        var y = year
        var m = month
        if m <= 2 {
            y -= 1
            m += 12
        }
        let a = floorDiv(y, 100)
        let b = 2 - a + floorDiv(a, 4)
        let yearTerm = (365.25 * Double(y + 4716)).rounded(.down)
        let monthTerm = (30.6001 * Double(m + 1)).rounded(.down)
        return yearTerm + monthTerm + Double(day + b) - 1524.5
    }

    /// Julian centuries since J2000.0.
    @inline(__always) static func centuries(sinceJ2000 julianDay: Double) -> Double {
        (julianDay - 2_451_545.0) / 36_525
    }

    private static func floorDiv(_ a: Int, _ b: Int) -> Int {
        let quotient = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? quotient - 1 : quotient
    }
}
