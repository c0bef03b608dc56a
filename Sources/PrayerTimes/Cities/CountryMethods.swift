extension CalculationMethod {
    /// The method usually followed in a country (ISO 3166-1 alpha-2), MuslimWorldLeague otherwise.
    public static func defaultMethod(forCountryCode code: String) -> CalculationMethod {
        switch code.uppercased() {
        case "SA", "YE", "BH", "OM": return .ummAlQura
        case "AE": return .dubai
        case "QA": return .qatar
        case "KW": return .kuwait
        case "EG", "SD", "LY", "SY", "LB", "IQ", "JO", "PS", "DZ", "TN": return .egyptian
        case "PK", "AF", "BD", "IN": return .karachi
        case "SG": return .singapore
        case "MY", "BN": return .malaysia
        case "ID": return .indonesia
        case "TR": return .turkey
        case "IR": return .tehran
        case "US", "CA": return .northAmerica
        case "GB", "IE": return .moonsightingCommittee
        default: return .muslimWorldLeague
        }
    }
}
