import Foundation
import ICalendar

/// An event's own colour, RFC 7986 §5.9 `COLOR`: a CSS3 colour name (`turquoise`), shown on the
/// event beside its calendar's colour.
public enum EventColor {
    /// The CSS3 colour names (CSS Color Module Level 3 §4.3), the only values COLOR may take.
    public static let names: Set<String> = [
        "aliceblue", "antiquewhite", "aqua", "aquamarine", "azure", "beige", "bisque", "black", "blanchedalmond", "blue", "blueviolet",
        "brown", "burlywood", "cadetblue", "chartreuse", "chocolate", "coral", "cornflowerblue", "cornsilk", "crimson", "cyan", "darkblue",
        "darkcyan", "darkgoldenrod", "darkgray", "darkgreen", "darkgrey", "darkkhaki", "darkmagenta", "darkolivegreen", "darkorange",
        "darkorchid", "darkred", "darksalmon", "darkseagreen", "darkslateblue", "darkslategray", "darkslategrey", "darkturquoise",
        "darkviolet", "deeppink", "deepskyblue", "dimgray", "dimgrey", "dodgerblue", "firebrick", "floralwhite", "forestgreen", "fuchsia",
        "gainsboro", "ghostwhite", "gold", "goldenrod", "gray", "green", "greenyellow", "grey", "honeydew", "hotpink", "indianred",
        "indigo", "ivory", "khaki", "lavender", "lavenderblush", "lawngreen", "lemonchiffon", "lightblue", "lightcoral", "lightcyan",
        "lightgoldenrodyellow", "lightgray", "lightgreen", "lightgrey", "lightpink", "lightsalmon", "lightseagreen", "lightskyblue",
        "lightslategray", "lightslategrey", "lightsteelblue", "lightyellow", "lime", "limegreen", "linen", "magenta", "maroon",
        "mediumaquamarine", "mediumblue", "mediumorchid", "mediumpurple", "mediumseagreen", "mediumslateblue", "mediumspringgreen",
        "mediumturquoise", "mediumvioletred", "midnightblue", "mintcream", "mistyrose", "moccasin", "navajowhite", "navy", "oldlace",
        "olive", "olivedrab", "orange", "orangered", "orchid", "palegoldenrod", "palegreen", "paleturquoise", "palevioletred",
        "papayawhip", "peachpuff", "peru", "pink", "plum", "powderblue", "purple", "rebeccapurple", "red", "rosybrown", "royalblue",
        "saddlebrown", "salmon", "sandybrown", "seagreen", "seashell", "sienna", "silver", "skyblue", "slateblue", "slategray",
        "slategrey", "snow", "springgreen", "steelblue", "tan", "teal", "thistle", "tomato", "turquoise", "violet", "wheat", "white",
        "whitesmoke", "yellow", "yellowgreen",
    ]

    /// The few a person picks from in the web form; any other name a phone wrote is kept.
    public static let palette = ["tomato", "orange", "gold", "seagreen", "teal", "dodgerblue", "slateblue", "orchid", "sienna", "slategray"]

    /// The name in its lower-case form, or nil when it is not a CSS3 colour name.
    public static func canonical(_ text: String) -> String? {
        let lower = text.trimmingCharacters(in: .whitespaces).lowercased()
        return names.contains(lower) ? lower : nil
    }

    /// A component's COLOR, when it is one Jadwal can show.
    public static func of(_ component: Component) -> String? {
        component.first("COLOR").flatMap { canonical($0.text) }
    }
}

/// Categories (tags) of an event or a to-do, RFC 5545 §3.8.1.2 `CATEGORIES`: one rule for
/// reading, checking and filtering them, whichever front door asks.
public enum ItemCategories {
    public static let maxCount = 20
    public static let maxLength = 100

    /// Every category of a component, from all its CATEGORIES properties, without repeats.
    public static func of(_ component: Component) -> [String] {
        var seen = Set<String>()
        return component.all("CATEGORIES").flatMap(\.textList)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && seen.insert($0.lowercased()).inserted }
    }

    /// Whether a component carries `category` (compared without case, as people type tags).
    public static func matches(_ component: Component, _ category: String) -> Bool {
        let wanted = category.trimmingCharacters(in: .whitespaces).lowercased()
        return of(component).contains { $0.lowercased() == wanted }
    }

    /// The categories as given, trimmed and without repeats; nil when one is empty after
    /// trimming, too long, holds control characters, or there are too many.
    public static func checked(_ categories: [String]) -> [String]? {
        var seen = Set<String>()
        var kept: [String] = []
        for category in categories {
            let trimmed = category.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty, trimmed.count <= maxLength, !trimmed.containsControlCharacters else { return nil }
            if seen.insert(trimmed.lowercased()).inserted { kept.append(trimmed) }
        }
        return kept.count <= maxCount ? kept : nil
    }

    /// Writes `categories` as one CATEGORIES property (none when empty).
    public static func set(_ categories: [String], on component: inout Component) {
        component.setAll("CATEGORIES", categories.isEmpty ? [] : [Property(name: "CATEGORIES", value: categories.map(TextCoding.escape).joined(separator: ","))])
    }

    /// The problem's words, shared by events and to-dos.
    public static var rule: String {
        "'categories' must be at most \(maxCount) names of 1 to \(maxLength) characters without control characters"
    }
}
