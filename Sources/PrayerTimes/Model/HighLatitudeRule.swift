/// How Fajr and Isha are limited where twilight lasts long or all night.
public enum HighLatitudeRule: String, Sendable, Hashable, CaseIterable, Codable {
    /// Fajr no earlier than sunrise − night/2, Isha no later than sunset + night/2.
    case middleOfTheNight = "MiddleOfTheNight"
    /// The same with a seventh of the night.
    case seventhOfTheNight = "SeventhOfTheNight"
    /// The same with angle/60 of the night (18° gives 0.3).
    case twilightAngle = "TwilightAngle"

    public init(name: String) throws(PrayerTimesError) {
        guard let value = HighLatitudeRule.allCases.first(where: { $0.rawValue.caseInsensitiveEquals(name) })
        else { throw .unknownHighLatitudeRule(name) }
        self = value
    }

    /// The fraction of the night that bounds a twilight of `angle` degrees.
    func nightFraction(forAngle angle: Double) -> Double {
        switch self {
        case .middleOfTheNight: return 1.0 / 2.0
        case .seventhOfTheNight: return 1.0 / 7.0
        case .twilightAngle: return angle / 60
        }
    }
}
