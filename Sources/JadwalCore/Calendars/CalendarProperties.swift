import Foundation

/// Changes to a calendar's own properties, validated in one place for every way in: the JSON
/// API now, PROPPATCH and MKCALENDAR later.
public struct CalendarPropertiesChange: Sendable {
    public var displayName: String?
    public var description: String?
    /// `#RRGGBB` or `#RRGGBBAA`; an empty string clears it.
    public var color: String?
    public var order: Int?
    /// An IANA zone; an empty string clears it.
    public var timeZone: String?

    public init(displayName: String? = nil, description: String? = nil, color: String? = nil, order: Int? = nil, timeZone: String? = nil) {
        self.displayName = displayName
        self.description = description
        self.color = color
        self.order = order
        self.timeZone = timeZone
    }

    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        case displayName, description, color, order, timeZone(String)

        public var description: String {
            switch self {
            case .displayName: "'displayName' must be 1 to 200 characters without control characters"
            case .description: "'description' must be at most 2000 characters"
            case .color: "'color' must look like #0B6E4F or #0B6E4FFF, or be a colour name such as blue"
            case .order: "'order' must be between 0 and 1000000"
            case .timeZone(let zone): "'timeZone' must be an IANA time zone such as Asia/Riyadh, not '\(zone)'"
            }
        }
    }

    /// CSS colour names some clients send instead of hex, stored as the hex they stand for.
    static let namedColors: [String: String] = [
        "black": "#000000", "silver": "#C0C0C0", "gray": "#808080", "grey": "#808080", "white": "#FFFFFF", "maroon": "#800000",
        "red": "#FF0000", "purple": "#800080", "fuchsia": "#FF00FF", "magenta": "#FF00FF", "green": "#008000", "lime": "#00FF00",
        "olive": "#808000", "yellow": "#FFFF00", "navy": "#000080", "blue": "#0000FF", "teal": "#008080", "aqua": "#00FFFF",
        "cyan": "#00FFFF", "orange": "#FFA500", "brown": "#A52A2A", "pink": "#FFC0CB", "gold": "#FFD700", "indigo": "#4B0082",
        "violet": "#EE82EE", "turquoise": "#40E0D0", "coral": "#FF7F50", "salmon": "#FA8072", "khaki": "#F0E68C", "crimson": "#DC143C",
    ]

    public func applied(to calendar: CalendarCollection) throws(Problem) -> CalendarCollection {
        var updated = calendar
        if let displayName {
            let trimmed = displayName.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty, trimmed.count <= 200,
                  !trimmed.containsControlCharacters
            else { throw .displayName }
            updated.displayName = trimmed
        }
        if let description {
            guard description.count <= 2000 else { throw .description }
            updated.description = description
        }
        if let color {
            if color.isEmpty {
                updated.color = nil
            } else if let named = Self.namedColors[color.lowercased()] {
                updated.color = named
            } else {
                let hex = color.dropFirst()
                guard color.hasPrefix("#"), hex.count == 6 || hex.count == 8, hex.allSatisfy(\.isHexDigit) else { throw .color }
                updated.color = color.uppercased()
            }
        }
        if let order {
            guard (0...1_000_000).contains(order) else { throw .order }
            updated.order = order
        }
        if let timeZone {
            if timeZone.isEmpty {
                updated.timeZone = nil
            } else {
                guard IANATimeZone.isKnown(timeZone) else { throw .timeZone(timeZone) }
                updated.timeZone = timeZone
            }
        }
        return updated
    }
}

/// The URL segment of a calendar: ASCII letters, digits, `-`, `_`, `.` and `@`, not starting with a
/// dot. Letters of both cases, because CalDAV clients choose it themselves in MKCALENDAR (iOS uses
/// upper-case UUIDs); the JSON API makes lower-case ones from the display name.
public enum CalendarSlug {
    /// Where the read-only prayer-times calendar lives in every calendar home.
    public static let prayerTimes = "prayer-times"

    public static func isValid(_ slug: String) -> Bool {
        !slug.isEmpty && slug.count <= 128 && !slug.hasPrefix(".") && slug != prayerTimes
            && slug.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." || $0 == "@") }
    }

    /// A slug from a display name ("Family Trips" → "family-trips"); names with no ASCII letters
    /// (Arabic ones) get a random one, since the slug is only seen in URLs.
    public static func make(from name: String, random: RandomSource) -> String {
        var slug = ""
        for character in name.lowercased() {
            if character.isASCII && (character.isLetter || character.isNumber) {
                slug.append(character)
            } else if !slug.isEmpty && slug.last != "-" {
                slug.append("-")
            }
        }
        while slug.hasSuffix("-") { slug.removeLast() }
        return slug.isEmpty ? random.uuid().uuidString.lowercased() : String(slug.prefix(64))
    }
}
