/// How a computed time becomes a whole minute.
public enum Rounding: String, Sendable, Hashable, CaseIterable, Codable {
    /// Seconds ≥ 30 round up, below 30 down.
    case nearest
    /// Any seconds round up to the next minute (Singapore, Malaysia, Indonesia).
    case up
    /// Whole seconds, no rounding to minutes.
    case none
}

/// Minutes added to each prayer after its astronomical time (negative means earlier).
public struct PrayerAdjustments: Sendable, Hashable, Codable {
    public var fajr: Int
    public var sunrise: Int
    public var dhuhr: Int
    public var asr: Int
    public var maghrib: Int
    public var isha: Int

    public init(fajr: Int = 0, sunrise: Int = 0, dhuhr: Int = 0, asr: Int = 0, maghrib: Int = 0, isha: Int = 0) {
        self.fajr = fajr
        self.sunrise = sunrise
        self.dhuhr = dhuhr
        self.asr = asr
        self.maghrib = maghrib
        self.isha = isha
    }

    public static let none = PrayerAdjustments()

    public subscript(prayer: Prayer) -> Int {
        get {
            switch prayer {
            case .fajr: return fajr
            case .sunrise: return sunrise
            case .dhuhr: return dhuhr
            case .asr: return asr
            case .maghrib: return maghrib
            case .isha: return isha
            }
        }
        set {
            switch prayer {
            case .fajr: fajr = newValue
            case .sunrise: sunrise = newValue
            case .dhuhr: dhuhr = newValue
            case .asr: asr = newValue
            case .maghrib: maghrib = newValue
            case .isha: isha = newValue
            }
        }
    }

    static func + (lhs: PrayerAdjustments, rhs: PrayerAdjustments) -> PrayerAdjustments {
        PrayerAdjustments(fajr: lhs.fajr + rhs.fajr, sunrise: lhs.sunrise + rhs.sunrise, dhuhr: lhs.dhuhr + rhs.dhuhr,
                          asr: lhs.asr + rhs.asr, maghrib: lhs.maghrib + rhs.maghrib, isha: lhs.isha + rhs.isha)
    }
}

/// How Isha is found.
public enum IshaRule: Sendable, Hashable {
    /// When the Sun is this many degrees below the horizon after sunset.
    case twilightAngle(Double)
    /// A fixed interval after Maghrib (sunset), with a longer one during Ramadan of the
    /// Umm al-Qura calendar when `ramadanMinutes` is set.
    case afterMaghrib(minutes: Int, ramadanMinutes: Int?)
}

/// What bounds Fajr and Isha when the twilight angle is reached late, early, or never.
public enum TwilightLimit: Sendable, Hashable {
    /// The user's ``HighLatitudeRule``.
    case highLatitudeRule
    /// The Moonsighting Committee's seasonal limits (minutes before sunrise and after sunset,
    /// linear in latitude and piecewise over the days since the winter solstice), and from
    /// 55° N a seventh of the night in place of the angles. The high-latitude rule is ignored.
    case moonsightingCommitteeSeasons
}

/// Everything that determines a day's prayer times apart from place and date.
/// Start from ``CalculationMethod/parameters`` or build custom angles and intervals.
public struct CalculationParameters: Sendable, Hashable {
    public var fajrAngle: Double
    public var isha: IshaRule
    /// Maghrib when the Sun is this many degrees below the horizon, if later than sunset
    /// and earlier than Isha (Tehran 4.5°, Indonesia 1°); nil means sunset.
    public var maghribAngle: Double?
    /// Offsets that are part of the method's definition.
    public var methodAdjustments: PrayerAdjustments
    /// The user's own offsets, added to the method's.
    public var adjustments: PrayerAdjustments
    public var rounding: Rounding
    public var twilightLimit: TwilightLimit
    public var madhab: Madhab
    public var highLatitudeRule: HighLatitudeRule
    /// Imsak is this many minutes before Fajr.
    public var imsakMinutesBeforeFajr: Int

    public init(
        fajrAngle: Double,
        isha: IshaRule,
        maghribAngle: Double? = nil,
        methodAdjustments: PrayerAdjustments = .none,
        adjustments: PrayerAdjustments = .none,
        rounding: Rounding = .nearest,
        twilightLimit: TwilightLimit = .highLatitudeRule,
        madhab: Madhab = .shafi,
        highLatitudeRule: HighLatitudeRule = .middleOfTheNight,
        imsakMinutesBeforeFajr: Int = 10
    ) throws(PrayerTimesError) {
        guard fajrAngle.isFinite, fajrAngle > 0, fajrAngle < 90 else {
            throw .invalidParameter("Fajr angle \(fajrAngle) must be between 0 and 90 degrees")
        }
        switch isha {
        case .twilightAngle(let angle):
            guard angle.isFinite, angle > 0, angle < 90 else {
                throw .invalidParameter("Isha angle \(angle) must be between 0 and 90 degrees")
            }
        case .afterMaghrib(let minutes, let ramadanMinutes):
            guard (0...600).contains(minutes), (0...600).contains(ramadanMinutes ?? 0) else {
                throw .invalidParameter("Isha interval must be between 0 and 600 minutes")
            }
        }
        if let maghribAngle {
            guard maghribAngle.isFinite, maghribAngle >= 0, maghribAngle < 90 else {
                throw .invalidParameter("Maghrib angle \(maghribAngle) must be between 0 and 90 degrees")
            }
        }
        guard (0...180).contains(imsakMinutesBeforeFajr) else {
            throw .invalidParameter("Imsak must be 0 to 180 minutes before Fajr")
        }
        for prayer in Prayer.allCases where abs(adjustments[prayer]) > 180 || abs(methodAdjustments[prayer]) > 180 {
            throw .invalidParameter("adjustment for \(prayer.rawValue) must be within ±180 minutes")
        }
        self.fajrAngle = fajrAngle
        self.isha = isha
        self.maghribAngle = maghribAngle
        self.methodAdjustments = methodAdjustments
        self.adjustments = adjustments
        self.rounding = rounding
        self.twilightLimit = twilightLimit
        self.madhab = madhab
        self.highLatitudeRule = highLatitudeRule
        self.imsakMinutesBeforeFajr = imsakMinutesBeforeFajr
    }

    /// Method offsets plus the user's.
    var totalAdjustments: PrayerAdjustments { methodAdjustments + adjustments }
}
