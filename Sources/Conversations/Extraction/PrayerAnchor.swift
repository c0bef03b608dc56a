/// A prayer that a plan is timed against ("after Isha", بعد المغرب). The adhan time is the start.
public enum PrayerAnchor: String, Sendable, Hashable, CaseIterable, Codable {
    case fajr, dhuhr, asr, maghrib, isha
}

/// The user's prayer times, as the extractor needs them: the adhan of a prayer on a local date,
/// and whether that date falls in Ramadan ("after breakfast" then means after iftar).
public protocol PrayerTimetable: Sendable {
    /// Hour and minute of the adhan on a local date in the conversation's zone; nil if unknown.
    func adhan(_ prayer: PrayerAnchor, on day: LocalDateTime) -> (hour: Int, minute: Int)?
    func isRamadan(_ day: LocalDateTime) -> Bool
}
