/// The common calculation conventions, with the parameters documented in
/// `Tests/PrayerTimesTests/Fixtures/README.md` (adhan semantics).
public enum CalculationMethod: String, Sendable, Hashable, CaseIterable, Codable {
    case muslimWorldLeague = "MuslimWorldLeague"
    case egyptian = "Egyptian"
    case karachi = "Karachi"
    case ummAlQura = "UmmAlQura"
    case dubai = "Dubai"
    case qatar = "Qatar"
    case kuwait = "Kuwait"
    case moonsightingCommittee = "MoonsightingCommittee"
    case singapore = "Singapore"
    case turkey = "Turkey"
    case tehran = "Tehran"
    case northAmerica = "NorthAmerica"
    /// JAKIM (proposed preset; fits the 2026 JAKIM timetable).
    case malaysia = "Malaysia"
    /// Kemenag (proposed preset; fits the 2026 Kemenag timetable).
    case indonesia = "Indonesia"

    /// Accepts the names above, case-insensitively.
    public init(name: String) throws(PrayerTimesError) {
        guard let value = CalculationMethod.allCases.first(where: { $0.rawValue.caseInsensitiveEquals(name) })
        else { throw .unknownMethod(name) }
        self = value
    }

    /// A readable name for tables and calendars.
    public var displayName: String {
        switch self {
        case .muslimWorldLeague: return "Muslim World League"
        case .egyptian: return "Egyptian General Authority of Survey"
        case .karachi: return "University of Islamic Sciences, Karachi"
        case .ummAlQura: return "Umm al-Qura, Makkah"
        case .dubai: return "Dubai (UAE)"
        case .qatar: return "Qatar"
        case .kuwait: return "Kuwait"
        case .moonsightingCommittee: return "Moonsighting Committee Worldwide"
        case .singapore: return "MUIS, Singapore"
        case .turkey: return "Diyanet, Turkey (approximation)"
        case .tehran: return "Institute of Geophysics, University of Tehran"
        case .northAmerica: return "ISNA, North America"
        case .malaysia: return "JAKIM, Malaysia"
        case .indonesia: return "Kemenag, Indonesia"
        }
    }

    /// The method's parameters with the given madhab, high-latitude rule and user offsets.
    public func parameters(
        madhab: Madhab = .shafi,
        highLatitudeRule: HighLatitudeRule = .middleOfTheNight,
        adjustments: PrayerAdjustments = .none
    ) -> CalculationParameters {
        let definition = self.definition
        // The presets are valid by construction; the throwing initialiser guards custom values.
        var parameters = CalculationParameters(presetFajrAngle: definition.fajrAngle, isha: definition.isha)
        parameters.maghribAngle = definition.maghribAngle
        parameters.methodAdjustments = definition.offsets
        parameters.rounding = definition.rounding
        parameters.twilightLimit = definition.twilightLimit
        parameters.madhab = madhab
        parameters.highLatitudeRule = highLatitudeRule
        parameters.adjustments = adjustments
        return parameters
    }

    private struct Definition {
        var fajrAngle: Double
        var isha: IshaRule
        var maghribAngle: Double? = nil
        var offsets: PrayerAdjustments = .none
        var rounding: Rounding = .nearest
        var twilightLimit: TwilightLimit = .highLatitudeRule
    }

    private var definition: Definition {
        switch self {
        case .muslimWorldLeague:
            return Definition(fajrAngle: 18, isha: .twilightAngle(17), offsets: PrayerAdjustments(dhuhr: 1))
        case .egyptian:
            return Definition(fajrAngle: 19.5, isha: .twilightAngle(17.5), offsets: PrayerAdjustments(dhuhr: 1))
        case .karachi:
            return Definition(fajrAngle: 18, isha: .twilightAngle(18), offsets: PrayerAdjustments(dhuhr: 1))
        case .ummAlQura:
            return Definition(fajrAngle: 18.5, isha: .afterMaghrib(minutes: 90, ramadanMinutes: 120))
        case .dubai:
            return Definition(fajrAngle: 18.2, isha: .twilightAngle(18.2),
                              offsets: PrayerAdjustments(sunrise: -3, dhuhr: 3, asr: 3, maghrib: 3))
        case .qatar:
            return Definition(fajrAngle: 18, isha: .afterMaghrib(minutes: 90, ramadanMinutes: nil))
        case .kuwait:
            return Definition(fajrAngle: 18, isha: .twilightAngle(17.5))
        case .moonsightingCommittee:
            return Definition(fajrAngle: 18, isha: .twilightAngle(18), offsets: PrayerAdjustments(dhuhr: 5, maghrib: 3),
                              twilightLimit: .moonsightingCommitteeSeasons)
        case .singapore:
            return Definition(fajrAngle: 20, isha: .twilightAngle(18), offsets: PrayerAdjustments(dhuhr: 1),
                              rounding: .up)
        case .turkey:
            return Definition(fajrAngle: 18, isha: .twilightAngle(17),
                              offsets: PrayerAdjustments(sunrise: -7, dhuhr: 5, asr: 4, maghrib: 7))
        case .tehran:
            return Definition(fajrAngle: 17.7, isha: .twilightAngle(14), maghribAngle: 4.5)
        case .northAmerica:
            return Definition(fajrAngle: 15, isha: .twilightAngle(15), offsets: PrayerAdjustments(dhuhr: 1))
        case .malaysia:
            return Definition(fajrAngle: 18, isha: .twilightAngle(18), offsets: PrayerAdjustments(sunrise: -1, dhuhr: 1),
                              rounding: .up)
        case .indonesia:
            return Definition(fajrAngle: 20, isha: .twilightAngle(18), maghribAngle: 1,
                              offsets: PrayerAdjustments(fajr: 2, sunrise: -4, dhuhr: 3, asr: 2, maghrib: 2, isha: 2),
                              rounding: .up)
        }
    }
}

extension CalculationParameters {
    /// For the built-in presets only, whose values are known to be valid.
    fileprivate init(presetFajrAngle fajrAngle: Double, isha: IshaRule) {
        self.fajrAngle = fajrAngle
        self.isha = isha
        maghribAngle = nil
        methodAdjustments = .none
        adjustments = .none
        rounding = .nearest
        twilightLimit = .highLatitudeRule
        madhab = .shafi
        highLatitudeRule = .middleOfTheNight
        imsakMinutesBeforeFajr = 10
    }
}
