/// Which conflicts a person wants to be told about. Every conflict is recorded and listed; this
/// only decides which are marked to notify.
public struct ConflictSettings: Sendable, Hashable, Codable {
    /// Conflicts of events written by these are notified. By default only what Jadwal added by
    /// itself (from a chat): the person did not put it there, so may not know it clashes.
    public var notifySources: Set<WriteSource>
    /// Conflicts with a prayer are notified whatever wrote the event.
    public var notifyPrayerOverlaps: Bool

    public init(notifySources: Set<WriteSource> = Set(WriteSource.allCases.filter(\.addedByJadwal)), notifyPrayerOverlaps: Bool = true) {
        self.notifySources = notifySources
        self.notifyPrayerOverlaps = notifyPrayerOverlaps
    }

    public func notifies(source: WriteSource, overlapsPrayer: Bool) -> Bool {
        notifySources.contains(source) || (notifyPrayerOverlaps && overlapsPrayer)
    }
}

/// A change to conflict settings; anything not given keeps its value.
public struct ConflictSettingsChange: Sendable, Codable {
    public var notifySources: Set<WriteSource>?
    public var notifyPrayerOverlaps: Bool?

    public init(notifySources: Set<WriteSource>? = nil, notifyPrayerOverlaps: Bool? = nil) {
        self.notifySources = notifySources
        self.notifyPrayerOverlaps = notifyPrayerOverlaps
    }

    public func applied(to settings: ConflictSettings) -> ConflictSettings {
        var updated = settings
        if let notifySources { updated.notifySources = notifySources }
        if let notifyPrayerOverlaps { updated.notifyPrayerOverlaps = notifyPrayerOverlaps }
        return updated
    }
}
