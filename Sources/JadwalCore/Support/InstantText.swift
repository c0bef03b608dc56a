import Foundation
import Scheduling

extension Date {
    /// An instant as clients and forms write it: ISO 8601 with an offset, with or without
    /// fractional seconds (`2026-11-25T18:30:00+03:00`). Nil for anything else.
    public init?(iso8601Instant text: String) {
        guard let date = (try? Date.ISO8601FormatStyle().parse(text))
            ?? (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text))
        else { return nil }
        self = date
    }
}

extension SlotExplanation {
    /// Why a free slot was suggested, in the account's language.
    public func worded(in language: Language) -> String {
        language == .arabic ? arabicDescription : description
    }
}
