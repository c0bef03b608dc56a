import Foundation
import Testing
@testable import PrayerTimes

private func calculator(
    _ latitude: Double, _ longitude: Double, _ zone: String, _ method: CalculationMethod,
    madhab: Madhab = .shafi, rule: HighLatitudeRule = .middleOfTheNight, adjustments: PrayerAdjustments = .none
) throws -> PrayerCalculator {
    try PrayerCalculator(
        coordinates: Coordinates(latitude: latitude, longitude: longitude), timeZoneIdentifier: zone,
        parameters: method.parameters(madhab: madhab, highLatitudeRule: rule, adjustments: adjustments))
}

private func minutes(_ from: PrayerTime, _ to: PrayerTime) throws -> Double {
    let start = try #require(from.date)
    let end = try #require(to.date)
    return end.timeIntervalSince(start) / 60
}

private func localClock(_ time: PrayerTime, _ zone: TimeZone) throws -> String {
    LocalTimeFormat.iso8601(try #require(time.date), in: zone)
}

@Suite struct RamadanRuleTests {
    let makkah: PrayerCalculator

    init() throws { makkah = try calculator(21.4225, 39.8262, "Asia/Riyadh", .ummAlQura) }

    @Test(arguments: [
        ("2026-02-17", 90.0), ("2026-02-18", 120.0), ("2026-03-05", 120.0), ("2026-03-19", 120.0),
        ("2026-03-20", 90.0), ("2027-02-07", 90.0), ("2027-02-08", 120.0), ("2027-03-08", 120.0), ("2027-03-09", 90.0),
    ])
    func ishaIsNinetyMinutesAfterMaghribOrOneHundredTwentyInRamadan(date: String, expected: Double) throws {
        let schedule = makkah.schedule(for: try LocalDate(iso8601: date))
        #expect(try minutes(schedule.maghrib, schedule.isha) == expected)
    }

    @Test func seriesAppliesTheSameRuleAsSingleDays() throws {
        let start = try LocalDate(iso8601: "2026-01-01")
        let series = makkah.schedules(from: start, through: try LocalDate(iso8601: "2027-12-31"))
        var ramadanDays = 0
        for schedule in series {
            let interval = try minutes(schedule.maghrib, schedule.isha)
            let inRamadan = try #require(schedule.hijriDate).isRamadan
            #expect(interval == (inRamadan ? 120 : 90), "\(schedule.date)")
            if inRamadan { ramadanDays += 1 }
        }
        // Ramadan 1447 (30 days in Umm al-Qura) and 1448 (29 days).
        #expect(ramadanDays == 30 + 29)
    }

    @Test func qatarHasNoRamadanExtension() throws {
        let doha = try calculator(25.2854, 51.531, "Asia/Qatar", .qatar)
        let schedule = doha.schedule(for: try LocalDate(iso8601: "2026-03-05"))
        #expect(try minutes(schedule.maghrib, schedule.isha) == 90)
    }

    @Test func hijriDatesFollowUmmAlQura() throws {
        // Published Umm al-Qura dates: 1 Ramadan 1447 = 2026-02-18, 1 Shawwal 1447 = 2026-03-20,
        // 1 Ramadan 1448 = 2027-02-08, 1 Ramadan 1446 = 2025-03-01, 1 Ramadan 1437 = 2016-06-06.
        let cases: [(String, Int, Int, Int)] = [
            ("2026-02-18", 1447, 9, 1), ("2026-03-19", 1447, 9, 30), ("2026-03-20", 1447, 10, 1),
            ("2027-02-08", 1448, 9, 1), ("2025-03-01", 1446, 9, 1), ("2016-06-06", 1437, 9, 1),
        ]
        for (gregorian, year, month, day) in cases {
            let hijri = try #require(HijriDate(gregorian: try LocalDate(iso8601: gregorian)))
            #expect(hijri.year == year && hijri.month == month && hijri.day == day, "\(gregorian) → \(hijri)")
        }
        let ramadan = try #require(HijriDate(gregorian: try LocalDate(iso8601: "2026-03-05")))
        #expect(ramadan.description == "16 Ramadan 1447 AH")
        #expect(ramadan.arabicDescription == "16 رمضان 1447 هـ")
    }
}

@Suite struct DaylightSavingTests {
    /// On a switch day the instants move smoothly (about a minute a day) while the printed
    /// offset changes by an hour between the times before and after the switch.
    @Test(arguments: [
        ("Europe/London", 51.5074, -0.1278, "2026-03-29", 0, 3600),
        ("Europe/London", 51.5074, -0.1278, "2026-10-25", 3600, 0),
        ("America/New_York", 40.7128, -74.006, "2026-03-08", -18000, -14400),
        ("America/New_York", 40.7128, -74.006, "2026-11-01", -14400, -18000),
        ("Australia/Sydney", -33.8688, 151.2093, "2026-04-05", 39600, 36000),
        ("Australia/Sydney", -33.8688, 151.2093, "2026-10-04", 36000, 39600),
    ])
    func switchDays(zone: String, latitude: Double, longitude: Double, date: String, before: Int, after: Int) throws {
        let calc = try calculator(latitude, longitude, zone, .muslimWorldLeague)
        let day = try LocalDate(iso8601: date)
        let previous = calc.schedule(for: day.adding(days: -1))
        let current = calc.schedule(for: day)
        let next = calc.schedule(for: day.adding(days: 1))
        for prayer in Prayer.allCases {
            let drift = try minutes(previous[prayer], current[prayer]) - 24 * 60
            #expect(abs(drift) < 5, "\(prayer) moved \(drift) min beyond 24 h")
            let drift2 = try minutes(current[prayer], next[prayer]) - 24 * 60
            #expect(abs(drift2) < 5)
            // Every time of the day is after the 02:00-03:00 switch and carries the new offset,
            // and Dhuhr stays on the local date.
            let instant = try #require(current[prayer].date)
            #expect(calc.timeZone.secondsFromGMT(for: instant) == after)
            #expect(try localClock(current[prayer], calc.timeZone).hasPrefix(date))
        }
        #expect(calc.timeZone.secondsFromGMT(for: try #require(previous.dhuhr.date)) == before)
    }
}

@Suite struct DateLineTests {
    /// Apia (UTC+13) and Pago Pago (UTC−11) are 1° apart on either side of the date line:
    /// Apia's date D is the same solar day as Pago Pago's D − 1.
    @Test func samoaAndAmericanSamoa() throws {
        let apia = try calculator(-13.8333, -171.7667, "Pacific/Apia", .muslimWorldLeague)
        let pagoPago = try calculator(-14.2781, -170.7025, "Pacific/Pago_Pago", .muslimWorldLeague)
        let date = try LocalDate(iso8601: "2026-07-15")
        let apiaDay = apia.schedule(for: date)
        let pagoDay = pagoPago.schedule(for: date.adding(days: -1))
        // Apia is 1.06° west: its transit is about 4.3 minutes later in the same solar day.
        let difference = try minutes(pagoDay.dhuhr, apiaDay.dhuhr)
        #expect(difference > 3 && difference < 6)
        #expect(try localClock(apiaDay.dhuhr, apia.timeZone).hasPrefix("2026-07-15"))
        #expect(try localClock(pagoDay.dhuhr, pagoPago.timeZone).hasPrefix("2026-07-14"))
    }

    /// Places whose zone is about 12 h or more from their longitude: the UT day of local noon is
    /// the day before (Kiritimati, 157° W at UTC+14; Tonga and Samoa, about 172–175° W at UTC+13),
    /// or local noon falls near 0h UT and the equation of time moves it across (Tuvalu, Fiji).
    @Test(arguments: [
        ("Pacific/Kiritimati", 1.8721, -157.4278), ("Pacific/Tongatapu", -21.1368, -175.2018),
        ("Pacific/Apia", -13.8333, -171.7667), ("Pacific/Funafuti", -8.5243, 179.1942), ("Pacific/Fiji", -18.1368, 178.4253),
    ])
    func everyTimeStaysOnItsLocalDate(zone: String, latitude: Double, longitude: Double) throws {
        let calc = try calculator(latitude, longitude, zone, .muslimWorldLeague)
        let start = try LocalDate(iso8601: "2026-01-01")
        var previousDhuhr: Date?
        for schedule in calc.schedules(from: start, through: start.adding(days: 364)) {
            for prayer in Prayer.allCases {
                #expect(try localClock(schedule[prayer], calc.timeZone).hasPrefix(schedule.date.description),
                        "\(schedule.date) \(prayer)")
            }
            let dhuhr = try #require(schedule.dhuhr.date)
            if let previousDhuhr {
                // Consecutive days: a day apart, give or take the equation of time and DST.
                let hours = dhuhr.timeIntervalSince(previousDhuhr) / 3600
                #expect(hours > 22.9 && hours < 25.1, "\(schedule.date)")
            }
            previousDhuhr = dhuhr
        }
    }

    @Test func aucklandEastOfGreenwichNearTheLine() throws {
        let calc = try calculator(-36.8485, 174.7633, "Pacific/Auckland", .muslimWorldLeague)
        let date = try LocalDate(iso8601: "2026-01-05")
        let schedule = calc.schedule(for: date)
        for prayer in Prayer.allCases {
            #expect(try localClock(schedule[prayer], calc.timeZone).hasPrefix("2026-01-05"))
        }
        #expect(try localClock(schedule.dhuhr, calc.timeZone).hasPrefix("2026-01-05T13:"))
    }
}

@Suite struct PolarTests {
    @Test func polarDayHasNoSunriseSunsetFajrOrIsha() throws {
        let tromso = try calculator(69.6492, 18.9553, "Europe/Oslo", .muslimWorldLeague)
        let schedule = tromso.schedule(for: try LocalDate(iso8601: "2026-06-21"))
        #expect(schedule.polarCondition == .polarDay)
        for prayer in [Prayer.fajr, .sunrise, .maghrib, .isha] {
            #expect(schedule[prayer] == .unavailable(.polarDay))
        }
        #expect(schedule.midnight == .unavailable(.polarDay))
        #expect(schedule.imsak == .unavailable(.polarDay))
        // The Sun still culminates and casts the Asr shadow.
        #expect(try localClock(schedule.dhuhr, tromso.timeZone).hasPrefix("2026-06-21T12:"))
        #expect(schedule.asr.date != nil)
    }

    @Test func polarNightLeavesOnlyDhuhr() throws {
        let longyearbyen = try calculator(78.2232, 15.6267, "Arctic/Longyearbyen", .muslimWorldLeague)
        let schedule = longyearbyen.schedule(for: try LocalDate(iso8601: "2026-12-21"))
        #expect(schedule.polarCondition == .polarNight)
        for prayer in [Prayer.fajr, .sunrise, .asr, .maghrib, .isha] {
            #expect(schedule[prayer] == .unavailable(.polarNight))
        }
        #expect(schedule.dhuhr.date != nil)
    }

    @Test func southernPolarNightInJune() throws {
        let mcmurdo = try calculator(-77.846, 166.676, "Antarctica/McMurdo", .karachi)
        let schedule = mcmurdo.schedule(for: try LocalDate(iso8601: "2026-06-21"))
        #expect(schedule.polarCondition == .polarNight)
    }

    @Test func polarQueryIsAnsweredWithAnErrorInTheContract() throws {
        let answers = PrayerTimesJSONContract.answer(queries: [
            .object(["id": .string("tromso"), "latitude": .number(69.6492), "longitude": .number(18.9553),
                     "timezone": .string("Europe/Oslo"), "date": .string("2026-06-21"),
                     "method": .string("MuslimWorldLeague")]),
        ])
        #expect(answers[0].times == nil)
        #expect(answers[0].error?.contains("no sunrise or sunset") == true)
    }

    /// Above the Arctic circle but outside polar day, the night rules bound Fajr and Isha.
    @Test func highLatitudeRulesBoundFajrAndIsha() throws {
        let date = try LocalDate(iso8601: "2026-06-10")
        for rule in HighLatitudeRule.allCases {
            let oslo = try calculator(59.9139, 10.7522, "Europe/Oslo", .muslimWorldLeague, rule: rule)
            let today = oslo.schedule(for: date)
            let tomorrow = oslo.schedule(for: date.adding(days: 1))
            let night = try minutes(today.maghrib, tomorrow.sunrise)
            let fraction: Double = switch rule {
            case .middleOfTheNight: 0.5
            case .seventhOfTheNight: 1.0 / 7
            case .twilightAngle: 17.0 / 60
            }
            // The Sun does not reach 17° or 18° below the horizon in Oslo in June.
            #expect(abs(try minutes(today.maghrib, today.isha) - fraction * night) <= 1)
            #expect(try minutes(today.isha, tomorrow.sunrise) > 0)
        }
    }
}

@Suite struct AdjustmentTests {
    @Test func userAdjustmentsShiftEachPrayerByWholeMinutes() throws {
        let date = try LocalDate(iso8601: "2026-03-05")
        let plain = try calculator(30.0444, 31.2357, "Africa/Cairo", .egyptian).schedule(for: date)
        let offsets = PrayerAdjustments(fajr: 2, sunrise: -3, dhuhr: 4, asr: -5, maghrib: 6, isha: -7)
        let adjusted = try calculator(30.0444, 31.2357, "Africa/Cairo", .egyptian, adjustments: offsets).schedule(for: date)
        for prayer in Prayer.allCases {
            #expect(try minutes(plain[prayer], adjusted[prayer]) == Double(offsets[prayer]))
        }
        #expect(try minutes(adjusted.imsak, adjusted.fajr) == 10)
    }

    @Test func customAnglesReproduceAPreset() throws {
        let date = try LocalDate(iso8601: "2026-09-22")
        let coordinates = try Coordinates(latitude: 24.8607, longitude: 67.0011)
        let custom = try CalculationParameters(
            fajrAngle: 18, isha: .twilightAngle(18), methodAdjustments: PrayerAdjustments(dhuhr: 1), madhab: .hanafi)
        let zone = try #require(TimeZone(identifier: "Asia/Karachi"))
        let fromCustom = PrayerCalculator(coordinates: coordinates, timeZone: zone, parameters: custom).schedule(for: date)
        let fromPreset = PrayerCalculator(
            coordinates: coordinates, timeZone: zone, parameters: CalculationMethod.karachi.parameters(madhab: .hanafi)
        ).schedule(for: date)
        #expect(fromCustom == fromPreset)
        // A custom interval-based Isha.
        var interval = custom
        interval.isha = .afterMaghrib(minutes: 75, ramadanMinutes: nil)
        let fromInterval = PrayerCalculator(coordinates: coordinates, timeZone: zone, parameters: interval).schedule(for: date)
        #expect(try minutes(fromInterval.maghrib, fromInterval.isha) == 75)
    }

    @Test func hanafiAsrIsLaterThanShafi() throws {
        let date = try LocalDate(iso8601: "2026-03-05")
        let shafi = try calculator(24.8607, 67.0011, "Asia/Karachi", .karachi).schedule(for: date)
        let hanafi = try calculator(24.8607, 67.0011, "Asia/Karachi", .karachi, madhab: .hanafi).schedule(for: date)
        let difference = try minutes(shafi.asr, hanafi.asr)
        #expect(difference > 30 && difference < 90)
        #expect(shafi.fajr == hanafi.fajr && shafi.isha == hanafi.isha)
    }

    @Test func roundingRules() {
        // 12:00:29 → 12:00 and 12:00:30 → 12:01 to the nearest; any second rounds up for `.up`.
        let noon = 1_767_268_800.0
        #expect(PrayerCalculator.rounded(noon + 29, .nearest) == noon)
        #expect(PrayerCalculator.rounded(noon + 30, .nearest) == noon + 60)
        #expect(PrayerCalculator.rounded(noon, .up) == noon)
        #expect(PrayerCalculator.rounded(noon + 1, .up) == noon + 60)
        #expect(PrayerCalculator.rounded(noon + 59, .none) == noon + 59)
    }

    @Test func nightTimesLieBetweenSunsetAndSunrise() throws {
        let calc = try calculator(21.4225, 39.8262, "Asia/Riyadh", .ummAlQura)
        let date = try LocalDate(iso8601: "2026-05-15")
        let today = calc.schedule(for: date)
        let tomorrow = calc.schedule(for: date.adding(days: 1))
        let night = try minutes(today.maghrib, tomorrow.sunrise)
        #expect(abs(try minutes(today.maghrib, today.midnight) - night / 2) <= 1)
        #expect(abs(try minutes(today.maghrib, today.lastThirdOfNight) - night * 2 / 3) <= 1)
    }

    @Test func moonsightingSeasonDayCount() throws {
        #expect(MoonsightingSeasons.daysSinceSolstice(latitude: 51, date: try LocalDate(iso8601: "2026-01-01")) == 11)
        #expect(MoonsightingSeasons.daysSinceSolstice(latitude: 51, date: try LocalDate(iso8601: "2026-12-31")) == 10)
        #expect(MoonsightingSeasons.daysSinceSolstice(latitude: -33, date: try LocalDate(iso8601: "2026-06-21")) == 0)
        #expect(MoonsightingSeasons.daysSinceSolstice(latitude: -33, date: try LocalDate(iso8601: "2026-01-01")) == 194)
        #expect(MoonsightingSeasons.daysSinceSolstice(latitude: -33, date: try LocalDate(iso8601: "2024-06-21")) == 0)
        // At the equator every limit is 75 minutes.
        #expect(MoonsightingSeasons.fajrMinutesBeforeSunrise(latitude: 0, date: try LocalDate(iso8601: "2026-05-01")) == 75)
        // At day 0 the Fajr limit is a, at day 183 it is d.
        let solstice = try LocalDate(iso8601: "2026-12-21")
        #expect(abs(MoonsightingSeasons.fajrMinutesBeforeSunrise(latitude: 55, date: solstice) - (75 + 28.65)) < 1e-9)
        let summer = try LocalDate(iso8601: "2026-06-22")  // day 173 + 10 = 183
        #expect(abs(MoonsightingSeasons.fajrMinutesBeforeSunrise(latitude: 55, date: summer) - (75 + 48.10)) < 1e-9)
    }
}

@Suite struct InvalidInputTests {
    @Test func latitudeOutOfRange() {
        #expect(throws: PrayerTimesError.invalidLatitude(91)) { try Coordinates(latitude: 91, longitude: 0) }
        #expect(throws: PrayerTimesError.invalidLatitude(-90.5)) { try Coordinates(latitude: -90.5, longitude: 0) }
        #expect(throws: PrayerTimesError.invalidLongitude(181)) { try Coordinates(latitude: 0, longitude: 181) }
        #expect(throws: (any Error).self) { try Coordinates(latitude: .nan, longitude: 0) }
    }

    @Test func unknownTimeZone() throws {
        let coordinates = try Coordinates(latitude: 21, longitude: 39)
        #expect(throws: PrayerTimesError.unknownTimeZone("Mars/Olympus_Mons")) {
            try PrayerCalculator(coordinates: coordinates, timeZoneIdentifier: "Mars/Olympus_Mons",
                                 parameters: CalculationMethod.ummAlQura.parameters())
        }
    }

    @Test func unknownNames() {
        #expect(throws: PrayerTimesError.unknownMethod("Jafari")) { try CalculationMethod(name: "Jafari") }
        #expect(throws: PrayerTimesError.unknownMadhab("Maliki")) { try Madhab(name: "Maliki") }
        #expect(throws: PrayerTimesError.unknownHighLatitudeRule("Nearest")) { try HighLatitudeRule(name: "Nearest") }
        #expect(PrayerTimesError.unknownMethod("Jafari").description.contains("MuslimWorldLeague"))
    }

    @Test func invalidCustomParameters() {
        #expect(throws: (any Error).self) { try CalculationParameters(fajrAngle: 95, isha: .twilightAngle(17)) }
        #expect(throws: (any Error).self) { try CalculationParameters(fajrAngle: 18, isha: .twilightAngle(-1)) }
        #expect(throws: (any Error).self) {
            try CalculationParameters(fajrAngle: 18, isha: .afterMaghrib(minutes: 900, ramadanMinutes: nil))
        }
        #expect(throws: (any Error).self) {
            try CalculationParameters(fajrAngle: 18, isha: .twilightAngle(17), adjustments: PrayerAdjustments(fajr: 500))
        }
    }

    @Test func everyMethodNameRoundTrips() throws {
        for method in CalculationMethod.allCases {
            #expect(try CalculationMethod(name: method.rawValue) == method)
        }
        #expect(CalculationMethod.allCases.count == 14)
    }
}

@Suite struct CodableValidationTests {
    @Test func decodingCoordinatesValidatesRanges() throws {
        let good = try JSONDecoder().decode(Coordinates.self, from: Data(#"{"latitude":21.4,"longitude":39.8}"#.utf8))
        #expect(good.latitude == 21.4)
        #expect(throws: PrayerTimesError.invalidLatitude(91)) {
            try JSONDecoder().decode(Coordinates.self, from: Data(#"{"latitude":91,"longitude":0}"#.utf8))
        }
        #expect(throws: PrayerTimesError.invalidDate("2026-02-30")) {
            try JSONDecoder().decode([LocalDate].self, from: Data(#"["2026-02-30"]"#.utf8))
        }
    }
}
