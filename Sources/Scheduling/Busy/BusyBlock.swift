import Foundation

/// A stretch of time that is taken, and by what.
public struct BusyBlock: Sendable, Hashable, CustomStringConvertible {
    public let range: TimeRange
    public let kind: BusyKind

    public init(_ range: TimeRange, _ kind: BusyKind) {
        self.range = range
        self.kind = kind
    }

    /// The opaque id the caller gave the event, routine or task; nil for prayers.
    public var referenceID: String? { kind.referenceID }

    public var isPrayer: Bool {
        if case .prayer = kind { return true }
        return false
    }

    public var description: String { "\(kind) \(range)" }
}

/// What keeps a ``BusyBlock`` busy.
///
/// Reference ids are opaque to this module and only compared for equality: a conflict check
/// leaves out blocks with the same id as the block being checked, so an edited event never
/// conflicts with its old self. The caller picks the granularity: with an event's UID, a recurring
/// series never conflicts with its own other occurrences; with UID plus RECURRENCE-ID, it can.
public enum BusyKind: Sendable, Hashable, CustomStringConvertible {
    /// A calendar event (any source: phone, API, chat extraction, subscription).
    case event(id: String, title: String)
    /// A prayer block (Jumu'ah on Fridays in place of Dhuhr, when the caller says so).
    case prayer(PrayerName)
    /// An occurrence of a daily routine.
    case routine(id: String, name: String)
    /// Time planned for a to-do by ``TaskPlan``.
    case plannedTask(taskID: String, title: String)

    public var referenceID: String? {
        switch self {
        case .event(let id, _): id
        case .prayer: nil
        case .routine(let id, _): id
        case .plannedTask(let id, _): id
        }
    }

    public var description: String {
        switch self {
        case .event(let id, let title): "event \(id) \"\(title)\""
        case .prayer(let prayer): "prayer \(prayer.englishName)"
        case .routine(let id, let name): "routine \(id) \"\(name)\""
        case .plannedTask(let id, let title): "task \(id) \"\(title)\""
        }
    }
}

/// The prayers that block time. Separate from PrayerTimes' `Prayer` because this module depends
/// on no other Jadwal module, and because Jumu'ah is a block of its own here (longer than Dhuhr,
/// and named in explanations: "after Jumu'ah").
public enum PrayerName: String, Sendable, Hashable, CaseIterable {
    case fajr, dhuhr, asr, maghrib, isha, jumuah

    public var englishName: String {
        switch self {
        case .fajr: "Fajr"
        case .dhuhr: "Dhuhr"
        case .asr: "Asr"
        case .maghrib: "Maghrib"
        case .isha: "Isha"
        case .jumuah: "Jumu'ah"
        }
    }

    /// The name as an Arabic sentence uses it after "صلاة" (prayer): "صلاة العصر".
    public var arabicName: String {
        switch self {
        case .fajr: "الفجر"
        case .dhuhr: "الظهر"
        case .asr: "العصر"
        case .maghrib: "المغرب"
        case .isha: "العشاء"
        case .jumuah: "الجمعة"
        }
    }
}
