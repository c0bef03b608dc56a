/// The school whose Asr rule is used: the shadow of an object equals its length (Shafi, also
/// Maliki and Hanbali) or twice its length (Hanafi), plus its length at noon.
public enum Madhab: String, Sendable, Hashable, CaseIterable, Codable {
    case shafi = "Shafi"
    case hanafi = "Hanafi"

    public var shadowFactor: Double {
        switch self {
        case .shafi: return 1
        case .hanafi: return 2
        }
    }

    public init(name: String) throws(PrayerTimesError) {
        guard let value = Madhab.allCases.first(where: { $0.rawValue.caseInsensitiveEquals(name) })
        else { throw .unknownMadhab(name) }
        self = value
    }
}

extension String {
    func caseInsensitiveEquals(_ other: String) -> Bool {
        lowercased() == other.lowercased()
    }
}
