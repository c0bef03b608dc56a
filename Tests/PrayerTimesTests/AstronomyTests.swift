import Foundation
import Testing
@testable import PrayerTimes

/// Worked examples from Meeus, *Astronomical Algorithms* (2nd ed.).
@Suite struct AstronomyTests {
    @Test func julianDayOfKnownDates() {
        // Meeus example 7.a gives 1957 October 4.81 = JD 2436116.31.
        #expect(abs(JulianDay.atMidnightUT(year: 1957, month: 10, day: 4) + 0.81 - 2_436_116.31) < 1e-9)
        #expect(JulianDay.atMidnightUT(year: 2000, month: 1, day: 1) == 2_451_544.5)
        // Example 7.b and its table: 1987 January 27.0 = 2446822.5, 1988 June 19.5 = 2447332.0.
        #expect(JulianDay.atMidnightUT(year: 1987, month: 1, day: 27) == 2_446_822.5)
        #expect(JulianDay.atMidnightUT(year: 1988, month: 6, day: 19) + 0.5 == 2_447_332.0)
        #expect(JulianDay.atMidnightUT(year: 1600, month: 1, day: 1) == 2_305_447.5)
        // 1970-01-01 is the epoch the calculator counts days from.
        #expect(JulianDay.atMidnightUT(year: 1970, month: 1, day: 1) == 2_440_587.5)
    }

    @Test func solarPositionMatchesMeeusExample25a() {
        // 1992 October 13.0 TD: α = 198.38083°, δ = −7.78507° (low-precision method, example 25.a).
        let position = SolarPosition(julianDay: 2_448_908.5)
        #expect(abs(position.rightAscension - 198.38083) < 0.0005)
        #expect(abs(position.declination - (-7.78507)) < 0.0005)
        // Example 28.a: equation of time on that date is 13m 42.6s.
        #expect(abs(position.equationOfTime - 13.71) < 0.05)
    }

    @Test func siderealTimeMatchesMeeusExample12a() {
        // 1987 April 10, 0h UT: apparent sidereal time 13h 10m 46.1351s = 197.692230°.
        let position = SolarPosition(julianDay: 2_446_895.5)
        #expect(abs(position.apparentSiderealTime - 197.692230) < 0.0002)
    }

    @Test func declinationAtSolsticesAndEquinoxes() throws {
        let june = SolarPosition(julianDay: JulianDay.atMidnightUT(year: 2026, month: 6, day: 21))
        let december = SolarPosition(julianDay: JulianDay.atMidnightUT(year: 2026, month: 12, day: 21))
        let march = SolarPosition(julianDay: JulianDay.atMidnightUT(year: 2026, month: 3, day: 20) + 0.6)
        #expect(abs(june.declination - 23.44) < 0.01)
        #expect(abs(december.declination + 23.44) < 0.01)
        #expect(abs(march.declination) < 0.05)
    }

    @Test func angleInterpolationAcrossZeroRightAscension() {
        // Right ascension passes 360° → 0° at the March equinox.
        let value = AngleMath.interpolateAngle(previous: 359.1, current: 0.0, next: 0.9, at: 0.5)
        #expect(abs(value - 0.45) < 1e-9)
        #expect(AngleMath.signedNormalized(190) == -170)
        #expect(AngleMath.normalized(-30) == 330)
    }

    @Test func localDateArithmetic() throws {
        let date = try LocalDate(iso8601: "2024-02-29")
        #expect(date.dayOfYear == 60)
        #expect(date.isLeapYear)
        #expect(date.adding(days: 1).description == "2024-03-01")
        #expect(LocalDate(daysSinceEpoch: 0).description == "1970-01-01")
        #expect(try LocalDate(iso8601: "2026-03-05").weekday == 4)
        #expect(try LocalDate(iso8601: "1969-12-31").daysSinceEpoch == -1)
        for text in ["2026-02-29", "2026-13-01", "2026-3-5", "", "2026-03-05T00:00", "２０２６-03-05"] {
            #expect(throws: PrayerTimesError.invalidDate(text)) { try LocalDate(iso8601: text) }
        }
    }
}
