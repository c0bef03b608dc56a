import ArgumentParser
import Foundation
import PrayerTimes

/// `jadwal prayer-times`: a day's prayer times as a table, or the JSON contract on stdin/stdout.
struct PrayerTimesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prayer-times",
        abstract: "Compute prayer times for a place and date.",
        discussion: """
            With --json, reads a JSON array of queries on stdin and writes a JSON array of answers \
            (see docs/prayer-times.md). Otherwise prints a table for --lat/--lon/--tz (or --city).
            """)

    @Option(name: .long, parsing: .unconditional, help: "Latitude in degrees, north positive.")
    var lat: Double?

    @Option(name: .long, parsing: .unconditional, help: "Longitude in degrees, east positive.")
    var lon: Double?

    @Option(name: .long, help: "IANA time zone, e.g. Asia/Riyadh.")
    var tz: String?

    @Option(name: .long, help: "A city from the built-in list, in English or Arabic (sets lat, lon, tz, and the country's method).")
    var city: String?

    @Option(name: .long, help: "Local date YYYY-MM-DD (default: today in the zone).")
    var date: String?

    @Option(name: .long, help: "How many days from --date.")
    var days: Int = 1

    @Option(name: .long, help: "Calculation method: \(CalculationMethod.allCases.map(\.rawValue).joined(separator: ", ")).")
    var method: String?

    @Option(name: .long, help: "Shafi or Hanafi.")
    var madhab: String = Madhab.shafi.rawValue

    @Option(name: .customLong("high-latitude-rule"), help: "MiddleOfTheNight, SeventhOfTheNight or TwilightAngle.")
    var highLatitudeRule: String = HighLatitudeRule.middleOfTheNight.rawValue

    @Option(name: .long, parsing: .unconditional, help: "Minute offsets, e.g. fajr=2,isha=-1.")
    var adjust: String?

    @Flag(name: .long, help: "Answer the JSON queries on stdin (the contract in the prayer README).")
    var json = false

    func run() async throws {
        if json {
            try answerJSON()
        } else {
            try printTable()
        }
    }

    private func answerJSON() throws {
        let input = FileHandle.standardInput.readDataToEndOfFile()
        do {
            var output = try PrayerTimesJSONContract.answer(input: input)
            output.append(0x0A)
            FileHandle.standardOutput.write(output)
        } catch {
            FileHandle.standardError.write(Data("error: \(error.description)\n".utf8))
            throw ExitCode.failure
        }
    }

    private func printTable() throws {
        let place = try resolvePlace()
        let methodValue: CalculationMethod
        do {
            methodValue = try method.map { name throws(PrayerTimesError) in try CalculationMethod(name: name) }
                ?? place.defaultMethod
        } catch {
            throw ValidationError(error.description)
        }
        let parameters: CalculationParameters
        let startDate: LocalDate
        do {
            parameters = methodValue.parameters(
                madhab: try Madhab(name: madhab),
                highLatitudeRule: try HighLatitudeRule(name: highLatitudeRule),
                adjustments: try parseAdjustments())
            startDate = try date.map { text throws(PrayerTimesError) in try LocalDate(iso8601: text) }
                ?? LocalDate.today(in: place.timeZone)
        } catch {
            throw ValidationError(error.description)
        }
        guard (1...366).contains(days) else { throw ValidationError("--days must be 1...366") }

        let calculator = PrayerCalculator(coordinates: place.coordinates, timeZone: place.timeZone, parameters: parameters)
        let schedules = calculator.schedules(from: startDate, through: startDate.adding(days: days - 1))
        print("\(place.name)  \(place.coordinates.latitude), \(place.coordinates.longitude)  \(place.timeZone.identifier)")
        print("\(methodValue.displayName), \(parameters.madhab.rawValue), \(parameters.highLatitudeRule.rawValue)")
        for schedule in schedules {
            print("")
            let hijri = schedule.hijriDate.map { "  (\($0), \($0.arabicDescription))" } ?? ""
            print("\(schedule.date)\(hijri)")
            let rows: [(String, String, PrayerTime)] = [
                ("Imsak", "الإمساك", schedule.imsak),
            ] + Prayer.allCases.map { ($0.englishName, $0.arabicName, schedule[$0]) } + [
                ("Midnight", "منتصف الليل", schedule.midnight),
                ("Last third", "الثلث الأخير", schedule.lastThirdOfNight),
            ]
            for (english, arabic, time) in rows {
                let value: String
                switch time {
                case .at(let instant):
                    let offset = schedule.timeZone.secondsFromGMT(for: instant)
                    value = LocalTimeFormat.clockTime(instant, in: schedule.timeZone) + "  (UTC" + LocalTimeFormat.offsetText(offset) + ")"
                case .unavailable(let reason):
                    value = "—  \(reason)"
                }
                print("  " + english.padding(toLength: 11, withPad: " ", startingAt: 0) + arabic.padding(toLength: 14, withPad: " ", startingAt: 0) + value)
            }
        }
    }

    private struct Place {
        var name: String
        var coordinates: Coordinates
        var timeZone: TimeZone
        var defaultMethod: CalculationMethod
    }

    private func resolvePlace() throws -> Place {
        if let city {
            guard lat == nil, lon == nil else { throw ValidationError("use either --city or --lat/--lon") }
            let matches = CityDirectory.search(city)
            guard let found = matches.first else {
                throw ValidationError(PrayerTimesError.unknownCity(city).description)
            }
            let key = city.split(separator: ",").first.map(String.init) ?? city
            let isExact = [found.englishName, found.arabicName].contains { $0.lowercased() == key.lowercased() }
                || found.alternateNames.contains { $0.lowercased() == key.lowercased() }
            let others = matches.dropFirst().prefix(5).map { "\($0.englishName), \($0.countryCode)" }
            if !isExact, !others.isEmpty {
                throw ValidationError("\"\(city)\" matches several cities: \(found.englishName), \(found.countryCode); "
                    + others.joined(separator: "; ") + ". Give the full name, or add the country code: --city \"<name>, <country code>\"")
            }
            if !others.isEmpty {
                print("(also: \(others.joined(separator: "; ")); add the country code to choose, e.g. \"\(found.englishName), XX\")")
            }
            let zoneName = tz ?? found.timeZoneIdentifier
            guard let zone = TimeZone(identifier: zoneName) else {
                throw ValidationError(PrayerTimesError.unknownTimeZone(zoneName).description)
            }
            return Place(
                name: "\(found.displayName) (\(found.countryCode))",
                coordinates: found.coordinates, timeZone: zone,
                defaultMethod: CalculationMethod.defaultMethod(forCountryCode: found.countryCode))
        }
        guard let lat, let lon else { throw ValidationError("give --lat and --lon (or --city), or use --json") }
        guard let tz else { throw ValidationError("give --tz, an IANA time zone such as Asia/Riyadh") }
        do {
            let coordinates = try Coordinates(latitude: lat, longitude: lon)
            guard let zone = TimeZone(identifier: tz) else { throw PrayerTimesError.unknownTimeZone(tz) }
            return Place(name: "Location", coordinates: coordinates, timeZone: zone, defaultMethod: .muslimWorldLeague)
        } catch let error as PrayerTimesError {
            throw ValidationError(error.description)
        }
    }

    private func parseAdjustments() throws(PrayerTimesError) -> PrayerAdjustments {
        var adjustments = PrayerAdjustments.none
        guard let adjust else { return adjustments }
        for item in adjust.split(separator: ",") {
            let parts = item.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, let prayer = Prayer(rawValue: parts[0].lowercased()), let minutes = Int(parts[1]),
                  abs(minutes) <= 180
            else { throw .invalidParameter("--adjust expects prayer=minutes pairs such as fajr=2,isha=-1, got \"\(item)\"") }
            adjustments[prayer] = minutes
        }
        return adjustments
    }
}
