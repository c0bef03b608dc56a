import Foundation

/// Computes prayer times for one place, time zone and set of parameters.
///
/// For a local date D the Sun's positions at 0h UT of the surrounding days feed Meeus' rising,
/// transit and setting method (``SolarDay``). The UT day is normally D itself; where the zone's
/// offset is far from the longitude (near the date line) the neighbouring UT day is used, so
/// that Dhuhr always falls on the local date D.
public struct PrayerCalculator: Sendable {
    public let coordinates: Coordinates
    public let timeZone: TimeZone
    public let parameters: CalculationParameters

    /// Sunrise and sunset: the Sun's centre 50′ below the horizon (refraction and semidiameter).
    static let horizonAltitude = -50.0 / 60.0

    public init(coordinates: Coordinates, timeZone: TimeZone, parameters: CalculationParameters) {
        self.coordinates = coordinates
        self.timeZone = timeZone
        self.parameters = parameters
    }

    /// Looks up the zone by IANA name; throws ``PrayerTimesError/unknownTimeZone(_:)``.
    public init(coordinates: Coordinates, timeZoneIdentifier: String, parameters: CalculationParameters)
        throws(PrayerTimesError)
    {
        guard let zone = TimeZone(identifier: timeZoneIdentifier) else { throw .unknownTimeZone(timeZoneIdentifier) }
        self.init(coordinates: coordinates, timeZone: zone, parameters: parameters)
    }

    /// The schedule of one local date.
    public func schedule(for date: LocalDate) -> PrayerSchedule {
        var positions = SolarPositionTable(firstDay: date.daysSinceEpoch - 3, lastDay: date.daysSinceEpoch + 4)
        var ramadan = RamadanDays(cachesYears: false)
        return schedule(for: date, positions: &positions, ramadan: &ramadan)
    }

    /// The schedules of every local date from `start` through `end`, sharing the solar positions
    /// between consecutive days.
    public func schedules(from start: LocalDate, through end: LocalDate) -> [PrayerSchedule] {
        guard start <= end else { return [] }
        var positions = SolarPositionTable(firstDay: start.daysSinceEpoch - 3, lastDay: end.daysSinceEpoch + 4)
        var ramadan = RamadanDays(cachesYears: true)
        var result: [PrayerSchedule] = []
        result.reserveCapacity(end.daysSinceEpoch - start.daysSinceEpoch + 1)
        var day = start
        while day <= end {
            result.append(schedule(for: day, positions: &positions, ramadan: &ramadan))
            day = day.adding(days: 1)
        }
        return result
    }

    private func schedule(
        for date: LocalDate, positions: inout SolarPositionTable, ramadan: inout RamadanDays
    ) -> PrayerSchedule {
        let localDay = date.daysSinceEpoch
        let isRamadan: Bool
        if case .afterMaghrib(_, .some) = parameters.isha {
            isRamadan = ramadan.contains(date)
        } else {
            isRamadan = false
        }
        // First guess of the UT day whose transit is local noon of `date`: from the zone's offset
        // near local noon and the longitude.
        let offset = Double(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(localDay) * 86_400 + 43_200)))
        let solarNoonLocalHours = 12 - coordinates.longitude / 15 + offset / 3600
        var referenceDay = localDay
        if solarNoonLocalHours < 0 { referenceDay += 1 } else if solarNoonLocalHours >= 24 { referenceDay -= 1 }

        // Local noon of `date` as a fraction of the reference UT day.
        func localNoon(_ referenceDay: Int) -> Double { Double(localDay - referenceDay) + 0.5 - offset / 86_400 }
        var raw = rawTimes(
            referenceDay: referenceDay, transitNear: localNoon(referenceDay), date: date, isRamadan: isRamadan,
            positions: &positions)
        // Verify against the zone at the computed transit (DST or an unusual offset may move it).
        for _ in 0..<2 {
            let transitOffset = Double(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: raw.transit)))
            let transitLocalDay = Int(((raw.transit + transitOffset) / 86_400).rounded(.down))
            if transitLocalDay == localDay { break }
            referenceDay += localDay - transitLocalDay
            raw = rawTimes(
                referenceDay: referenceDay, transitNear: localNoon(referenceDay), date: date, isRamadan: isRamadan,
                positions: &positions)
        }
        return finalSchedule(date: date, raw: raw)
    }

    /// Astronomical times (seconds since 1970, before offsets and rounding).
    private struct RawTimes {
        var transit: Double
        var fajr: Result<Double, PrayerTimeUnavailability>
        var sunrise: Result<Double, PrayerTimeUnavailability>
        var asr: Result<Double, PrayerTimeUnavailability>
        var sunset: Result<Double, PrayerTimeUnavailability>
        var maghrib: Result<Double, PrayerTimeUnavailability>
        var isha: Result<Double, PrayerTimeUnavailability>
        var midnight: Result<Double, PrayerTimeUnavailability>
        var lastThird: Result<Double, PrayerTimeUnavailability>
    }

    private func rawTimes(
        referenceDay: Int, transitNear target: Double, date: LocalDate, isRamadan: Bool,
        positions: inout SolarPositionTable
    ) -> RawTimes {
        let latitude = coordinates.latitude
        let today = SolarDay(
            latitude: latitude, longitude: coordinates.longitude,
            previous: positions[referenceDay - 1], current: positions[referenceDay], next: positions[referenceDay + 1],
            transitNear: target)
        let base = Double(referenceDay) * 86_400
        // Times are kept to whole seconds before offsets and rounding, as the reference does.
        func instant(_ hours: Double, dayOffset: Double = 0) -> Double {
            (base + dayOffset * 86_400 + hours * 3600).rounded(.down)
        }

        let transit = instant(today.transit)
        let asrAltitude = AngleMath.degrees(atan(
            1 / (parameters.madhab.shadowFactor + AngleMath.tanDeg(abs(latitude - today.declination)))))
        let asr: Result<Double, PrayerTimeUnavailability> = today.time(atAltitude: asrAltitude, afterTransit: true)
            .map { .success(instant($0)) } ?? .failure(today.staysAbove(altitude: Self.horizonAltitude) == false
                ? .polarNight : .sunDoesNotReachAltitude)

        guard let sunriseHours = today.time(atAltitude: Self.horizonAltitude, afterTransit: false),
              let sunsetHours = today.time(atAltitude: Self.horizonAltitude, afterTransit: true)
        else {
            let reason: PrayerTimeUnavailability =
                today.staysAbove(altitude: Self.horizonAltitude) == true ? .polarDay : .polarNight
            // Without a sunrise the Asr shadow is meaningless; in polar day it still is defined.
            return RawTimes(
                transit: transit, fajr: .failure(reason), sunrise: .failure(reason),
                asr: reason == .polarNight ? .failure(reason) : asr,
                sunset: .failure(reason), maghrib: .failure(reason), isha: .failure(reason),
                midnight: .failure(reason), lastThird: .failure(reason))
        }
        let sunrise = instant(sunriseHours)
        let sunset = instant(sunsetHours)

        let tomorrow = SolarDay(
            latitude: latitude, longitude: coordinates.longitude,
            previous: positions[referenceDay], current: positions[referenceDay + 1], next: positions[referenceDay + 2],
            transitNear: target)
        let night: Result<Double, PrayerTimeUnavailability> =
            tomorrow.time(atAltitude: Self.horizonAltitude, afterTransit: false)
            .map { .success(instant($0, dayOffset: 1) - sunset) }
            ?? .failure(tomorrow.staysAbove(altitude: Self.horizonAltitude) == true ? .polarDay : .polarNight)

        // Fajr.
        var fajr = today.time(atAltitude: -parameters.fajrAngle, afterTransit: false).map { instant($0) }
        let earliestFajr: Double?
        switch parameters.twilightLimit {
        case .highLatitudeRule:
            let fraction = parameters.highLatitudeRule.nightFraction(forAngle: parameters.fajrAngle)
            earliestFajr = night.value.map { sunrise - fraction * $0 }
        case .moonsightingCommitteeSeasons:
            if latitude >= 55, let nightLength = night.value { fajr = sunrise - nightLength / 7 }
            let minutes = MoonsightingSeasons.fajrMinutesBeforeSunrise(latitude: latitude, date: date)
            earliestFajr = sunrise - (minutes * 60).rounded()
        }
        if let earliestFajr, fajr.map({ $0 < earliestFajr }) ?? true { fajr = earliestFajr }

        // Isha.
        var isha: Result<Double, PrayerTimeUnavailability>
        switch parameters.isha {
        case .afterMaghrib(let minutes, let ramadanMinutes):
            let interval = isRamadan ? (ramadanMinutes ?? minutes) : minutes
            isha = .success(sunset + Double(interval) * 60)
        case .twilightAngle(let angle):
            var angleIsha = today.time(atAltitude: -angle, afterTransit: true).map { instant($0) }
            let latestIsha: Double?
            switch parameters.twilightLimit {
            case .highLatitudeRule:
                let fraction = parameters.highLatitudeRule.nightFraction(forAngle: angle)
                latestIsha = night.value.map { sunset + fraction * $0 }
            case .moonsightingCommitteeSeasons:
                if latitude >= 55, let nightLength = night.value { angleIsha = sunset + nightLength / 7 }
                let minutes = MoonsightingSeasons.ishaMinutesAfterSunset(latitude: latitude, date: date)
                latestIsha = sunset + (minutes * 60).rounded()
            }
            if let latestIsha, angleIsha.map({ $0 > latestIsha }) ?? true { angleIsha = latestIsha }
            isha = angleIsha.map { .success($0) } ?? .failure(night.failure ?? .sunDoesNotReachAltitude)
        }

        // Maghrib: sunset, or when the Sun reaches the method's Maghrib angle if that comes before Isha.
        var maghrib = sunset
        if let maghribAngle = parameters.maghribAngle,
           let hours = today.time(atAltitude: -maghribAngle, afterTransit: true) {
            let angleMaghrib = instant(hours)
            if angleMaghrib > sunset, let ishaTime = isha.value, ishaTime > angleMaghrib { maghrib = angleMaghrib }
        }

        return RawTimes(
            transit: transit,
            fajr: fajr.map { .success($0) } ?? .failure(night.failure ?? .sunDoesNotReachAltitude),
            sunrise: .success(sunrise), asr: asr, sunset: .success(sunset), maghrib: .success(maghrib), isha: isha,
            midnight: night.map { sunset + $0 / 2 }, lastThird: night.map { sunset + $0 * 2 / 3 })
    }

    private func finalSchedule(date: LocalDate, raw: RawTimes) -> PrayerSchedule {
        let adjustments = parameters.totalAdjustments
        let rounding = parameters.rounding
        func final(_ value: Result<Double, PrayerTimeUnavailability>, _ minutes: Int) -> PrayerTime {
            switch value {
            case .success(let seconds):
                return .at(Date(timeIntervalSince1970: Self.rounded(seconds.rounded(.down) + Double(minutes) * 60, rounding)))
            case .failure(let reason):
                return .unavailable(reason)
            }
        }
        let fajr = final(raw.fajr, adjustments.fajr)
        let imsak: PrayerTime
        if let fajrDate = fajr.date {
            imsak = .at(fajrDate.addingTimeInterval(Double(-parameters.imsakMinutesBeforeFajr * 60)))
        } else {
            imsak = fajr
        }
        return PrayerSchedule(
            date: date, timeZone: timeZone,
            fajr: fajr,
            sunrise: final(raw.sunrise, adjustments.sunrise),
            dhuhr: final(.success(raw.transit), adjustments.dhuhr),
            asr: final(raw.asr, adjustments.asr),
            maghrib: final(raw.maghrib, adjustments.maghrib),
            isha: final(raw.isha, adjustments.isha),
            imsak: imsak,
            midnight: final(raw.midnight, 0),
            lastThirdOfNight: final(raw.lastThird, 0))
    }

    /// Rounds whole seconds since 1970 to a minute: seconds ≥ 30 up for `.nearest`, any for `.up`.
    static func rounded(_ seconds: Double, _ rounding: Rounding) -> Double {
        let minuteStart = (seconds / 60).rounded(.down) * 60
        let remainder = seconds - minuteStart
        switch rounding {
        case .nearest: return remainder >= 30 ? minuteStart + 60 : minuteStart
        case .up: return remainder > 0 ? minuteStart + 60 : minuteStart
        case .none: return seconds
        }
    }
}

extension Result {
    var value: Success? {
        if case .success(let value) = self { return value }
        return nil
    }

    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

/// Solar positions at 0h UT of a run of consecutive days, computed on first use.
struct SolarPositionTable {
    private let firstDay: Int
    private var positions: [SolarPosition?]

    init(firstDay: Int, lastDay: Int) {
        self.firstDay = firstDay
        positions = Array(repeating: nil, count: max(0, lastDay - firstDay + 1))
    }

    subscript(day: Int) -> SolarPosition {
        mutating get {
            let index = day - firstDay
            if index >= 0, index < positions.count {
                if let position = positions[index] { return position }
                let position = Self.position(day: day)
                positions[index] = position
                return position
            }
            return Self.position(day: day)
        }
    }

    private static func position(day: Int) -> SolarPosition {
        // 2440587.5 is the Julian day of 1970-01-01 0h UT.
        SolarPosition(julianDay: 2_440_587.5 + Double(day))
    }
}
