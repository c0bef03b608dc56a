import Foundation

/// The Sun's apparent equatorial position and the apparent sidereal time at one instant,
/// from the low-precision solar theory of Meeus chapter 25 with the nutation terms of chapter 22.
public struct SolarPosition: Sendable, Hashable {
    /// Apparent declination, degrees.
    public let declination: Double
    /// Apparent right ascension, degrees in [0, 360).
    public let rightAscension: Double
    /// Apparent sidereal time at Greenwich, degrees in [0, 360).
    public let apparentSiderealTime: Double
    /// Equation of time in minutes (apparent minus mean solar time).
    public let equationOfTime: Double

    public init(julianDay: Double) {
        let t = JulianDay.centuries(sinceJ2000: julianDay)
        let t2 = t * t
        let t3 = t2 * t

        // Geometric mean longitude and mean anomaly of the Sun (25.2, 25.3).
        let meanLongitude = AngleMath.normalized(280.4664567 + 36_000.76983 * t + 0.0003032 * t2)
        let meanAnomaly = AngleMath.normalized(357.52911 + 35_999.05029 * t - 0.0001537 * t2)
        // Equation of the centre (25.4) and the true longitude.
        let equationOfCentre = (1.914602 - 0.004817 * t - 0.000014 * t2) * AngleMath.sinDeg(meanAnomaly)
            + (0.019993 - 0.000101 * t) * AngleMath.sinDeg(2 * meanAnomaly)
            + 0.000289 * AngleMath.sinDeg(3 * meanAnomaly)
        let trueLongitude = meanLongitude + equationOfCentre

        // Longitude of the Moon's ascending node; apparent longitude (25.8 and the text after it).
        let node = AngleMath.normalized(125.04452 - 1934.136261 * t + 0.0020708 * t2 + t3 / 450_000)
        let apparentLongitude = trueLongitude - 0.00569 - 0.00478 * AngleMath.sinDeg(node)

        // Mean obliquity (22.2), nutation in longitude and obliquity (chapter 22, low precision).
        let meanObliquity = 23.439291 - 0.013004167 * t - 0.0000001639 * t2 + 0.0000005036 * t3
        let moonMeanLongitude = AngleMath.normalized(218.3165 + 481_267.8813 * t)
        let nutationInLongitude = (-17.20 * AngleMath.sinDeg(node) - 1.32 * AngleMath.sinDeg(2 * meanLongitude)
            - 0.23 * AngleMath.sinDeg(2 * moonMeanLongitude) + 0.21 * AngleMath.sinDeg(2 * node)) / 3600
        let nutationInObliquity = (9.20 * AngleMath.cosDeg(node) + 0.57 * AngleMath.cosDeg(2 * meanLongitude)
            + 0.10 * AngleMath.cosDeg(2 * moonMeanLongitude) - 0.09 * AngleMath.cosDeg(2 * node)) / 3600
        let trueObliquity = meanObliquity + nutationInObliquity
        // For the Sun's apparent place Meeus corrects the obliquity by 0.00256° cos Ω (25.8).
        let apparentObliquity = meanObliquity + 0.00256 * AngleMath.cosDeg(node)

        let sinLongitude = AngleMath.sinDeg(apparentLongitude)
        declination = AngleMath.degrees(asin(AngleMath.sinDeg(apparentObliquity) * sinLongitude))
        rightAscension = AngleMath.normalized(AngleMath.degrees(atan2(
            AngleMath.cosDeg(apparentObliquity) * sinLongitude, AngleMath.cosDeg(apparentLongitude))))

        // Mean sidereal time at Greenwich (12.4) plus the equation of the equinoxes.
        let meanSiderealTime = 280.46061837 + 360.98564736629 * (julianDay - 2_451_545.0)
            + 0.000387933 * t2 - t3 / 38_710_000
        apparentSiderealTime = AngleMath.normalized(
            meanSiderealTime + nutationInLongitude * AngleMath.cosDeg(trueObliquity))

        // Equation of time (Meeus 28.1): L0 - 0.0057183° - α + Δψ cos ε, in minutes (4 min per degree).
        equationOfTime = 4 * AngleMath.signedNormalized(
            meanLongitude - 0.0057183 - rightAscension + nutationInLongitude * AngleMath.cosDeg(trueObliquity))
    }
}
