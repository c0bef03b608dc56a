import Foundation
import Scheduling

/// How a person's time is judged: which conflicts to be told about, the working hours suggestions
/// and planned tasks keep to, and which events of each calendar count as busy.
public struct ConflictSettings: Sendable, Hashable {
    /// Conflicts of events written by these are notified. By default only what Jadwal added by
    /// itself (from a chat): the person did not put it there, so may not know it clashes.
    public var notifySources: Set<WriteSource>
    /// Conflicts with a prayer are notified whatever wrote the event.
    public var notifyPrayerOverlaps: Bool
    /// When set, suggested slots and planned tasks stay within these hours.
    public var workingHours: WeeklyHours?
    /// A calendar's own rule for transparent, cancelled and all-day events; calendars not named
    /// here use ``BusyPolicy/standard`` (none of the three is busy).
    public var busyPolicies: [UUID: BusyPolicy]

    public init(
        notifySources: Set<WriteSource> = Set(WriteSource.allCases.filter(\.addedByJadwal)), notifyPrayerOverlaps: Bool = true,
        workingHours: WeeklyHours? = nil, busyPolicies: [UUID: BusyPolicy] = [:]
    ) {
        self.notifySources = notifySources
        self.notifyPrayerOverlaps = notifyPrayerOverlaps
        self.workingHours = workingHours
        self.busyPolicies = busyPolicies
    }

    public func notifies(source: WriteSource, overlapsPrayer: Bool) -> Bool {
        notifySources.contains(source) || (notifyPrayerOverlaps && overlapsPrayer)
    }

    public func busyPolicy(calendarID: UUID) -> BusyPolicy {
        busyPolicies[calendarID] ?? .standard
    }
}

/// A calendar's busy rule as JSON carries it: `{"transparent": true}`; a trait not given is free.
/// `{"free": true}` makes everything in the calendar free.
public struct BusyPolicyDraft: Sendable, Codable, Equatable {
    public var transparent: Bool?
    public var cancelled: Bool?
    public var allDay: Bool?
    public var free: Bool?

    public init(transparent: Bool? = nil, cancelled: Bool? = nil, allDay: Bool? = nil, free: Bool? = nil) {
        self.transparent = transparent
        self.cancelled = cancelled
        self.allDay = allDay
        self.free = free
    }

    public init(_ policy: BusyPolicy) {
        self.init(transparent: policy.transparentIsBusy, cancelled: policy.cancelledIsBusy, allDay: policy.allDayIsBusy,
                  free: policy.allFree ? true : nil)
    }

    public var policy: BusyPolicy {
        BusyPolicy(transparentIsBusy: transparent ?? false, cancelledIsBusy: cancelled ?? false, allDayIsBusy: allDay ?? false, allFree: free ?? false)
    }
}

/// A change to conflict settings; anything not given keeps its value. `workingHours: null`
/// removes the working hours; a calendar's policy given as `null` returns it to the standard.
public struct ConflictSettingsChange: Sendable, Decodable {
    public var notifySources: Set<WriteSource>?
    public var notifyPrayerOverlaps: Bool?
    /// nil: unchanged; `.some(nil)`: removed.
    public var workingHours: HoursDraft??
    /// Calendar id → its new rule, or nil to return it to the standard.
    public var busyPolicies: [String: BusyPolicyDraft?]?

    public init(
        notifySources: Set<WriteSource>? = nil, notifyPrayerOverlaps: Bool? = nil, workingHours: HoursDraft?? = nil,
        busyPolicies: [String: BusyPolicyDraft?]? = nil
    ) {
        self.notifySources = notifySources
        self.notifyPrayerOverlaps = notifyPrayerOverlaps
        self.workingHours = workingHours
        self.busyPolicies = busyPolicies
    }

    enum CodingKeys: String, CodingKey {
        case notifySources, notifyPrayerOverlaps, workingHours, busyPolicies
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        notifySources = try container.decodeIfPresent(Set<WriteSource>.self, forKey: .notifySources)
        notifyPrayerOverlaps = try container.decodeIfPresent(Bool.self, forKey: .notifyPrayerOverlaps)
        if container.contains(.workingHours) {
            workingHours = .some(try container.decodeNil(forKey: .workingHours) ? nil : try container.decode(HoursDraft.self, forKey: .workingHours))
        }
        busyPolicies = try container.decodeIfPresent([String: BusyPolicyDraft?].self, forKey: .busyPolicies)
    }

    /// Why a change is refused; each message names its field.
    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        case workingHours(SchedulingError)
        /// A busy policy for a calendar that is not one of the person's event calendars.
        case unknownCalendar(String)

        public var description: String {
            switch self {
            case .workingHours(let error): "workingHours.\(error.description)"
            case .unknownCalendar(let id): "busyPolicies: \"\(id)\" is not one of your event calendars' ids"
            }
        }
    }

    /// The settings with this change made; `calendarIDs` are the person's event calendars.
    public func applied(to settings: ConflictSettings, calendarIDs: Set<UUID>) throws(Problem) -> ConflictSettings {
        var updated = settings
        if let notifySources { updated.notifySources = notifySources }
        if let notifyPrayerOverlaps { updated.notifyPrayerOverlaps = notifyPrayerOverlaps }
        if let workingHours {
            do throws(SchedulingError) {
                updated.workingHours = try workingHours?.hours()
            } catch {
                throw .workingHours(error)
            }
        }
        for (key, draft) in busyPolicies ?? [:] {
            guard let id = UUID(uuidString: key), calendarIDs.contains(id) else { throw .unknownCalendar(key) }
            updated.busyPolicies[id] = draft?.policy
        }
        // Policies of calendars since deleted are dropped on the next change.
        updated.busyPolicies = updated.busyPolicies.filter { calendarIDs.contains($0.key) && $0.value != .standard }
        return updated
    }
}
