import Foundation

/// Transit and the times the Sun crosses given altitudes on one UT day at one place,
/// by Meeus chapter 15 ("Rising, Transit and Setting"): an approximate time from the
/// positions at 0h UT, then one correction with the positions interpolated from the day
/// before, the day and the day after. ΔT is neglected.
///
/// Times are hours after 0h UT of `referenceDay` (they may be negative or exceed 24).
struct SolarDay: Sendable {
    let latitude: Double
    let longitude: Double
    let previous: SolarPosition
    let current: SolarPosition
    let next: SolarPosition
    /// Approximate transit as a fraction of the day (Meeus m0): in [0, 1), or one day earlier or
    /// later when that is nearer to `transitNear`.
    let approximateTransit: Double
    /// Corrected transit, hours after 0h UT.
    let transit: Double

    /// `transitNear` is where the wanted transit is expected, as a fraction of the reference day
    /// (local noon of the schedule's date). Meeus reduces m0 to [0, 1); where local noon is near
    /// 0h UT (zones about 12 h from their longitude) that picks the transit of the neighbouring
    /// local day, so m0 is taken within half a day of `transitNear` instead.
    init(
        latitude: Double, longitude: Double, previous: SolarPosition, current: SolarPosition, next: SolarPosition,
        transitNear target: Double
    ) {
        self.latitude = latitude
        self.longitude = longitude
        self.previous = previous
        self.current = current
        self.next = next
        // Meeus 15.2 with longitude measured positive east.
        var m0 = AngleMath.normalized(current.rightAscension - longitude - current.apparentSiderealTime) / 360
        if m0 - target > 0.5 { m0 -= 1 } else if target - m0 > 0.5 { m0 += 1 }
        approximateTransit = m0
        let siderealTime = current.apparentSiderealTime + 360.985647 * m0
        let rightAscension = AngleMath.interpolateAngle(
            previous: previous.rightAscension, current: current.rightAscension, next: next.rightAscension, at: m0)
        let localHourAngle = AngleMath.signedNormalized(siderealTime + longitude - rightAscension)
        transit = (m0 - localHourAngle / 360) * 24
    }

    /// The Sun's declination at 0h UT of the day, degrees.
    var declination: Double { current.declination }

    /// Hours after 0h UT when the Sun's centre is at `altitude` degrees, before or after
    /// transit; nil when the Sun does not reach that altitude on this day.
    func time(atAltitude altitude: Double, afterTransit: Bool) -> Double? {
        let sinLatitude = AngleMath.sinDeg(latitude)
        let cosLatitude = AngleMath.cosDeg(latitude)
        let cosH0 = (AngleMath.sinDeg(altitude) - sinLatitude * AngleMath.sinDeg(current.declination))
            / (cosLatitude * AngleMath.cosDeg(current.declination))
        guard cosH0 >= -1, cosH0 <= 1 else { return nil }
        let h0 = AngleMath.degrees(acos(cosH0))
        let m = afterTransit ? approximateTransit + h0 / 360 : approximateTransit - h0 / 360
        let siderealTime = current.apparentSiderealTime + 360.985647 * m
        let rightAscension = AngleMath.interpolateAngle(
            previous: previous.rightAscension, current: current.rightAscension, next: next.rightAscension, at: m)
        let declination = AngleMath.interpolate(
            previous: previous.declination, current: current.declination, next: next.declination, at: m)
        let hourAngle = siderealTime + longitude - rightAscension
        let sinDeclination = AngleMath.sinDeg(declination)
        let cosDeclination = AngleMath.cosDeg(declination)
        let sinHourAngle = AngleMath.sinDeg(hourAngle)
        let actualAltitude = AngleMath.degrees(asin(
            sinLatitude * sinDeclination + cosLatitude * cosDeclination * AngleMath.cosDeg(hourAngle)))
        let correction = (actualAltitude - altitude) / (360 * cosDeclination * cosLatitude * sinHourAngle)
        return (m + correction) * 24
    }

    /// Whether the Sun stays above (`true`) or below (`false`) `altitude` all day; nil if it crosses it.
    func staysAbove(altitude: Double) -> Bool? {
        let cosH0 = (AngleMath.sinDeg(altitude) - AngleMath.sinDeg(latitude) * AngleMath.sinDeg(current.declination))
            / (AngleMath.cosDeg(latitude) * AngleMath.cosDeg(current.declination))
        if cosH0 < -1 { return true }
        if cosH0 > 1 { return false }
        return nil
    }
}
