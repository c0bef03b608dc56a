/// Why a prayer-time request cannot be answered.
public enum PrayerTimesError: Error, Sendable, Hashable, CustomStringConvertible {
    case invalidLatitude(Double)
    case invalidLongitude(Double)
    case unknownTimeZone(String)
    case unknownMethod(String)
    case unknownMadhab(String)
    case unknownHighLatitudeRule(String)
    case invalidDate(String)
    case invalidParameter(String)
    case missingField(String)
    case unknownCity(String)

    public var description: String {
        switch self {
        case .invalidLatitude(let value):
            return "latitude \(value) is out of range (-90...90)"
        case .invalidLongitude(let value):
            return "longitude \(value) is out of range (-180...180)"
        case .unknownTimeZone(let name):
            return "unknown time zone \"\(name)\" (expected an IANA name such as Asia/Riyadh)"
        case .unknownMethod(let name):
            let known = CalculationMethod.allCases.map(\.rawValue).joined(separator: ", ")
            return "unknown method \"\(name)\" (expected one of \(known))"
        case .unknownMadhab(let name):
            return "unknown madhab \"\(name)\" (expected Shafi or Hanafi)"
        case .unknownHighLatitudeRule(let name):
            let known = HighLatitudeRule.allCases.map(\.rawValue).joined(separator: ", ")
            return "unknown high-latitude rule \"\(name)\" (expected one of \(known))"
        case .invalidDate(let text):
            return "invalid date \"\(text)\" (expected YYYY-MM-DD)"
        case .invalidParameter(let text):
            return "invalid parameter: \(text)"
        case .missingField(let name):
            return "missing field \"\(name)\""
        case .unknownCity(let name):
            return "unknown city \"\(name)\""
        }
    }
}
