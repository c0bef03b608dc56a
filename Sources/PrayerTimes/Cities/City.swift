import Foundation

/// A city of the built-in list: every capital and every city of about 500,000 people or more.
public struct City: Sendable, Hashable {
    public let englishName: String
    public let arabicName: String
    /// Other English spellings ("Mecca" for Makkah, "Bombay" for Mumbai).
    public let alternateNames: [String]
    /// ISO 3166-1 alpha-2.
    public let countryCode: String
    public let coordinates: Coordinates
    public let timeZoneIdentifier: String
    public let population: Int
    public let isCapital: Bool

    /// The method usually followed in the city's country.
    public var defaultMethod: CalculationMethod { CalculationMethod.defaultMethod(forCountryCode: countryCode) }

    /// "Riyadh / الرياض".
    public var displayName: String { "\(englishName) / \(arabicName)" }
}

/// Searches the built-in cities by English or Arabic name.
public enum CityDirectory {
    public static var all: [City] { index.map(\.city) }

    private struct Entry: Sendable {
        let city: City
        let keys: [String]
    }

    private static let index: [Entry] = CityData.parse(CityData.table).map { city in
        Entry(city: city, keys: ([city.englishName] + city.alternateNames + [city.arabicName])
            .map(normalized))
    }

    /// Cities whose name matches `query` (English case- and accent-insensitive; Arabic ignoring
    /// tashkeel, hamza and teh marbuta forms and the article "ال"): exact matches first, then names
    /// that start with the query, then names that contain it; larger cities first within each group.
    /// A country code after a comma narrows the search: "Hyderabad, PK".
    public static func search(_ query: String) -> [City] {
        var text = query
        var country: String?
        if let comma = query.lastIndex(of: ",") {
            let code = query[query.index(after: comma)...].trimmingCharacters(in: .whitespaces).uppercased()
            if code.count == 2 {
                country = code
                text = String(query[..<comma])
            }
        }
        let key = normalized(text)
        guard !key.isEmpty else { return [] }
        var exact: [City] = []
        var prefix: [City] = []
        var contains: [City] = []
        for entry in index where country == nil || entry.city.countryCode == country {
            if entry.keys.contains(key) {
                exact.append(entry.city)
            } else if entry.keys.contains(where: { $0.hasPrefix(key) }) {
                prefix.append(entry.city)
            } else if key.count >= 3, entry.keys.contains(where: { $0.contains(key) }) {
                contains.append(entry.city)
            }
        }
        let byPopulation: (City, City) -> Bool = { $0.population > $1.population }
        return exact.sorted(by: byPopulation) + prefix.sorted(by: byPopulation) + contains.sorted(by: byPopulation)
    }

    static func normalized(_ name: String) -> String {
        let folded = name.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        var result = ""
        for character in folded {
            switch character {
            case "أ", "إ", "آ", "ٱ": result.append("ا")
            case "ى": result.append("ي")
            case "ة": result.append("ه")
            case "ـ": continue
            case "-", "‘", "’", "'", "`": result.append(" ")
            default:
                // Arabic tashkeel (fathatan ... sukun) and the superscript alef.
                if let scalar = character.unicodeScalars.first,
                   (0x064B...0x0652).contains(scalar.value) || scalar.value == 0x0670 {
                    continue
                }
                result.append(character)
            }
        }
        var words = result.split(separator: " ").map(String.init)
        // The Arabic article: "الرياض" and "رياض" are the same key.
        words = words.map { $0.hasPrefix("ال") && $0.count > 3 ? String($0.dropFirst(2)) : $0 }
        return words.joined(separator: " ")
    }
}

extension CityDirectory {
    /// The city a person in `timeZone` most likely prays in, to propose before they say: the
    /// zone's capital when it has one, else its largest city; nil for a zone with none of ours
    /// (UTC, or a zone of only small towns).
    public static func likelyCity(inTimeZone timeZone: String) -> City? {
        let candidates = all.filter { $0.timeZoneIdentifier == timeZone }
        return candidates.filter(\.isCapital).max { $0.population < $1.population }
            ?? candidates.max { $0.population < $1.population }
    }
}
