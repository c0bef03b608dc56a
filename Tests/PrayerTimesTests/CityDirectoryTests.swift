import Foundation
import Testing
@testable import PrayerTimes

@Suite struct CityDirectoryTests {
    @Test func listHoldsCapitalsAndLargeCitiesWithValidData() throws {
        let cities = CityDirectory.all
        #expect(cities.count > 1200)
        #expect(cities.filter(\.isCapital).count > 190)
        var zones: [String: Bool] = [:]
        for city in cities {
            let valid = zones[city.timeZoneIdentifier] ?? (TimeZone(identifier: city.timeZoneIdentifier) != nil)
            zones[city.timeZoneIdentifier] = valid
            #expect(valid, "\(city.englishName): \(city.timeZoneIdentifier)")
            #expect(city.countryCode.count == 2 && city.countryCode == city.countryCode.uppercased())
            #expect(!city.englishName.isEmpty)
            #expect(!city.arabicName.isEmpty)
        }
        #expect(cities.count == CityData.table.split(separator: "\n").count, "every row of the table parses")
        // Every capital of a Muslim-majority country is in the list.
        for code in ["SA", "AE", "QA", "KW", "BH", "OM", "YE", "IQ", "SY", "JO", "LB", "EG", "SD", "LY", "TN", "DZ", "MA",
                     "MR", "SO", "DJ", "KM", "TR", "IR", "AF", "PK", "BD", "MY", "ID", "BN", "MV", "SN", "ML", "NE",
                     "TD", "UZ", "KZ", "TJ", "KG", "TM", "AZ", "AL", "BA", "XK"] {
            let capital = cities.first { $0.countryCode == code && $0.isCapital }
            #expect(capital != nil, "capital of \(code)")
        }
    }

    @Test func searchByEnglishAndArabic() throws {
        let riyadh = try #require(CityDirectory.search("Riyadh").first)
        #expect(riyadh.countryCode == "SA" && riyadh.arabicName == "الرياض")
        #expect(abs(riyadh.coordinates.latitude - 24.69) < 0.1 && abs(riyadh.coordinates.longitude - 46.72) < 0.1)
        #expect(riyadh.timeZoneIdentifier == "Asia/Riyadh")
        #expect(CityDirectory.search("الرياض").first == riyadh)
        #expect(CityDirectory.search("رياض").first == riyadh)
        #expect(CityDirectory.search("riyadh").first == riyadh)

        let makkah = try #require(CityDirectory.search("Makkah").first)
        #expect(CityDirectory.search("Mecca").first == makkah)
        #expect(CityDirectory.search("مكة المكرمة").first == makkah)
        #expect(CityDirectory.search("مكه المكرمه").first == makkah)
        #expect(abs(makkah.coordinates.latitude - 21.42) < 0.05 && abs(makkah.coordinates.longitude - 39.83) < 0.05)

        #expect(CityDirectory.search("القاهرة").first?.englishName == "Cairo")
        #expect(CityDirectory.search("İstanbul").first?.englishName == "Istanbul")
        #expect(CityDirectory.search("Sao Paulo").first?.englishName == "São Paulo")
        #expect(CityDirectory.search("Kuala Lumpur").first?.timeZoneIdentifier == "Asia/Kuala_Lumpur")
        #expect(CityDirectory.search("").isEmpty)
        #expect(CityDirectory.search("Atlantis on the Moon").isEmpty)
    }

    @Test func countryCodeNarrowsAmbiguousNames() throws {
        let all = CityDirectory.search("Hyderabad")
        #expect(Set(all.prefix(2).map(\.countryCode)) == ["IN", "PK"])
        #expect(CityDirectory.search("Hyderabad, PK").first?.timeZoneIdentifier == "Asia/Karachi")
        #expect(CityDirectory.search("Tripoli, LB").first?.timeZoneIdentifier == "Asia/Beirut")
        #expect(CityDirectory.search("Tripoli, LY").first?.timeZoneIdentifier == "Africa/Tripoli")
    }

    @Test func defaultMethodsFollowTheCountry() {
        #expect(CalculationMethod.defaultMethod(forCountryCode: "SA") == .ummAlQura)
        #expect(CalculationMethod.defaultMethod(forCountryCode: "eg") == .egyptian)
        #expect(CalculationMethod.defaultMethod(forCountryCode: "PK") == .karachi)
        #expect(CalculationMethod.defaultMethod(forCountryCode: "US") == .northAmerica)
        #expect(CalculationMethod.defaultMethod(forCountryCode: "TR") == .turkey)
        #expect(CalculationMethod.defaultMethod(forCountryCode: "FR") == .muslimWorldLeague)
        #expect(CityDirectory.search("Jakarta").first?.defaultMethod == .indonesia)
    }

    /// The list's coordinates for the dev set's cities give the dev reference times (±1 min).
    @Test(arguments: [("Riyadh", "SA"), ("Cairo", "EG"), ("Karachi", "PK"), ("Istanbul", "TR"), ("London", "GB"),
                      ("Oslo", "NO"), ("Sydney", "AU"), ("Tehran", "IR"), ("Singapore", "SG"), ("Kuala Lumpur", "MY")])
    func cityCoordinatesGiveReferenceTimes(name: String, country: String) throws {
        let city = try #require(CityDirectory.search("\(name), \(country)").first)
        let records = try ReferenceFile.load("dev").records.filter { $0.city == name }
        #expect(records.count >= 19)
        var report = AccuracyReport()
        for record in records {
            let method = try CalculationMethod(name: record.method)
            let calculator = try PrayerCalculator(
                coordinates: city.coordinates, timeZoneIdentifier: city.timeZoneIdentifier,
                parameters: method.parameters(madhab: try Madhab(name: record.madhab),
                                              highLatitudeRule: try HighLatitudeRule(name: record.highLatitudeRule)))
            report.compare(record, with: calculator.schedule(for: try LocalDate(iso8601: record.date)))
        }
        #expect(report.overTolerance.isEmpty, "\(name): \(report.overTolerance.prefix(5))")
        #expect(report.wrongOffsets.isEmpty)
    }
}
