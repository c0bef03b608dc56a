import Foundation
import Hummingbird
import JadwalCore
import Scheduling

/// `/api/v1/conflicts`: the events that run into other busy time, with the day around them,
/// suggested free slots, and the person's choice (keep, move, cancel).
struct ConflictRoutes: Sendable {
    let store: any Store
    let resolution: ConflictResolution
    let busyTime: AccountBusyTime

    func addRoutes(to group: RouterGroup<JadwalRequestContext>) {
        group.get("conflicts") { request, context in
            let account = try context.requireIdentity().account
            let status = request.uri.queryParameters.get("status")
            guard status == nil || status == "open" || status == "all" else {
                throw APIError.badRequest("invalid_query", "'status' is 'open' (the default) or 'all'.")
            }
            let zone = TimeZone(identifier: account.timeZone) ?? .gmt
            let views = try await store.read { tx in
                let conflicts = try await tx.conflicts(accountID: account.id, includeResolved: status == "all")
                let days = try await dayTimelines(of: conflicts, account: account, zone: zone, tx: tx)
                return conflicts.map { ConflictView($0, day: days[$0.id]) }
            }
            return JSONResponse(ConflictList(conflicts: views))
        }

        group.get("conflicts/settings") { _, context in
            let accountID = try context.requireIdentity().account.id
            return JSONResponse(SettingsView(try await store.read { tx in try await tx.conflictSettings(accountID: accountID) }))
        }
        group.put("conflicts/settings") { request, context in
            let accountID = try context.requireIdentity().account.id
            let change = try await request.decodeJSON(as: ConflictSettingsChange.self)
            let now = resolution.clock.now
            let updated = try await store.transaction { tx in
                let calendars = try await tx.calendars(accountID: accountID).filter { $0.components.contains(.event) }
                let current = try await tx.conflictSettings(accountID: accountID)
                let updated: ConflictSettings
                do throws(ConflictSettingsChange.Problem) {
                    updated = try change.applied(to: current, calendarIDs: Set(calendars.map(\.id)))
                } catch {
                    throw APIError.badRequest("invalid_field", "Field \(error.description).")
                }
                try await tx.saveConflictSettings(updated, accountID: accountID, at: now)
                return updated
            }
            return JSONResponse(SettingsView(updated))
        }

        group.get("conflicts/{id}/suggestions") { request, context in
            let account = try context.requireIdentity().account
            let id = try Self.conflictID(context)
            let countText = request.uri.queryParameters.get("count") ?? "5"
            guard let count = Int(countText), (1...20).contains(count) else {
                throw APIError.badRequest("invalid_query", "'count' is a number of suggestions from 1 to 20.")
            }
            do {
                let (conflict, slots) = try await resolution.suggestions(id: id, accountID: account.id, count: count)
                return JSONResponse(SuggestionList(
                    conflictId: conflict.id.uuidString.lowercased(),
                    suggestions: slots.map { SuggestionView($0, language: account.language) }))
            } catch let refusal as ConflictResolution.Refusal {
                throw APIError(refusal)
            }
        }

        group.post("conflicts/{id}/resolve") { request, context in
            let account = try context.requireIdentity().account
            let id = try Self.conflictID(context)
            let body = try await request.decodeJSON(as: ResolveRequest.self)
            let action = try body.resolution()
            do {
                let resolved = try await resolution.resolve(id: id, accountID: account.id, action: action)
                let zone = TimeZone(identifier: account.timeZone) ?? .gmt
                let days = try await store.read { tx in try await dayTimelines(of: [resolved], account: account, zone: zone, tx: tx) }
                return JSONResponse(ConflictView(resolved, day: days[resolved.id]))
            } catch let refusal as ConflictResolution.Refusal {
                throw APIError(refusal)
            } catch let refusal as CalendarWrites.Refusal {
                throw APIError(refusal, name: "the event")
            }
        }
    }

    /// Each conflict's day as the API shows it (see ``AccountBusyTime/conflictDays``).
    func dayTimelines(of conflicts: [EventConflict], account: Account, zone: TimeZone, tx: any StoreTransaction) async throws -> [UUID: DayView] {
        try await busyTime.conflictDays(of: conflicts, account: account, zone: zone, tx: tx).mapValues { day in
            DayView(date: day.date, timeZone: zone.identifier, blocks: day.blocks.map { BlockView($0, isThisEvent: $0.referenceID == day.eventReference) })
        }
    }

    static func conflictID(_ context: JadwalRequestContext) throws -> UUID {
        guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)) else {
            throw APIError.notFound("No conflict with that ID.")
        }
        return id
    }
}

struct ResolveRequest: Decodable, Sendable {
    let action: String
    let start: String?
    let end: String?

    func resolution() throws -> ConflictResolution.Action {
        switch action {
        case "keep": return .keep
        case "cancel": return .cancel
        case "move":
            guard let start, let end else {
                throw APIError.badRequest("invalid_field", "A move needs 'start' and 'end' (ISO 8601 with an offset, e.g. 2026-11-25T18:30:00+03:00).")
            }
            guard let from = Self.instant(start), let to = Self.instant(end) else {
                throw APIError.badRequest("invalid_field", "'start' and 'end' must be ISO 8601 date-times with an offset, e.g. 2026-11-25T18:30:00+03:00.")
            }
            guard let slot = try? TimeRange(start: from, end: to) else {
                throw APIError.badRequest("invalid_field", "'end' must be after 'start'.")
            }
            return .move(slot)
        default:
            throw APIError.badRequest("invalid_field", "'action' is \"keep\", \"move\" or \"cancel\", not \"\(action)\".")
        }
    }

    static func instant(_ text: String) -> Date? {
        (try? Date.ISO8601FormatStyle().parse(text)) ?? (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text))
    }
}

extension APIError {
    /// The one place conflict refusals become HTTP answers; a 409 carries the conflict as it is now.
    init(_ refusal: ConflictResolution.Refusal) {
        switch refusal {
        case .notFound:
            self = .notFound("No conflict with that ID.")
        case .alreadyResolved(let conflict):
            self.init(
                .conflict, code: "already_resolved", message: "This conflict was already resolved (\(conflict.status.rawValue)).",
                details: ConflictDetails(conflict: ConflictView(conflict, day: nil), currentEtag: nil, overlaps: nil))
        case .eventChanged(let conflict, let etag):
            self.init(
                .conflict, code: "event_changed",
                message: etag == nil
                    ? "The event was deleted since this conflict was found."
                    : "The event was changed since this conflict was found (on a phone, say); it is checked again on its own.",
                details: ConflictDetails(conflict: ConflictView(conflict, day: nil), currentEtag: etag, overlaps: nil))
        case .slotTaken(let overlaps):
            self.init(
                .conflict, code: "slot_taken",
                message: "That time runs into \(overlaps.map { "\"\($0.title)\"" }.joined(separator: ", ")); choose another slot (see the suggestions).",
                details: ConflictDetails(conflict: nil, currentEtag: nil, overlaps: overlaps.map(OverlapView.init)))
        case .cannotMove(let reason):
            self.init(.unprocessableContent, code: "cannot_move", message: reason.prefix(1).uppercased() + reason.dropFirst() + ".")
        }
    }
}

/// Settings with their sources in a stable order.
struct SettingsView: Encodable, Sendable {
    let notifySources: [WriteSource]
    let notifyPrayerOverlaps: Bool
    /// Always present (null when unset), so a client sees the field it may set.
    let workingHours: HoursDraft?
    let busyPolicies: [String: BusyPolicyDraft]

    init(_ settings: ConflictSettings) {
        notifySources = WriteSource.allCases.filter(settings.notifySources.contains)
        notifyPrayerOverlaps = settings.notifyPrayerOverlaps
        workingHours = settings.workingHours.map(HoursDraft.init)
        busyPolicies = Dictionary(uniqueKeysWithValues: settings.busyPolicies.map { ($0.key.uuidString.lowercased(), BusyPolicyDraft($0.value)) })
    }

    enum CodingKeys: String, CodingKey { case notifySources, notifyPrayerOverlaps, workingHours, busyPolicies }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(notifySources, forKey: .notifySources)
        try container.encode(notifyPrayerOverlaps, forKey: .notifyPrayerOverlaps)
        try container.encode(workingHours, forKey: .workingHours)
        try container.encode(busyPolicies, forKey: .busyPolicies)
    }
}

struct ConflictDetails: Encodable, Sendable {
    let conflict: ConflictView?
    let currentEtag: String?
    let overlaps: [OverlapView]?
}

// MARK: - Views

struct ConflictList: Encodable, Sendable {
    let conflicts: [ConflictView]
}

struct ConflictView: Encodable, Sendable {
    struct Event: Encodable, Sendable {
        let calendarId: String
        let name: String
        let uid: String
        let title: String?
        let start: Date
        let end: Date
        let recurrenceId: String?
        let etag: String
    }

    let id: String
    let status: EventConflict.Status
    let source: WriteSource
    let notify: Bool
    let event: Event
    let overlaps: [OverlapView]
    let day: DayView?
    let detectedAt: Date
    let resolvedAt: Date?

    init(_ conflict: EventConflict, day: DayView?) {
        id = conflict.id.uuidString.lowercased()
        status = conflict.status
        source = conflict.source
        notify = conflict.notify
        let e = conflict.event
        event = Event(
            calendarId: e.calendarID.uuidString.lowercased(), name: e.objectName, uid: e.uid, title: e.title, start: e.start, end: e.end,
            recurrenceId: e.recurrenceID, etag: e.etag)
        overlaps = conflict.overlaps.map(OverlapView.init)
        self.day = day
        detectedAt = conflict.detectedAt
        resolvedAt = conflict.resolvedAt
    }
}

struct OverlapView: Encodable, Sendable {
    let kind: EventConflict.Overlap.Kind
    let title: String
    let start: Date
    let end: Date
    let overlapStart: Date
    let overlapEnd: Date
    let overlapMinutes: Int
    let calendarId: String?
    let name: String?
    let prayer: String?

    init(_ overlap: EventConflict.Overlap) {
        kind = overlap.kind
        title = overlap.title
        start = overlap.start
        end = overlap.end
        overlapStart = overlap.overlapStart
        overlapEnd = overlap.overlapEnd
        overlapMinutes = Int((overlap.overlapEnd.timeIntervalSince(overlap.overlapStart) / 60).rounded())
        calendarId = overlap.calendarID?.uuidString.lowercased()
        name = overlap.objectName
        prayer = overlap.prayer
    }
}

/// The local day a conflicting occurrence starts on, with everything busy in it: what the API's
/// `day` and the web page's timeline draw.
struct ConflictDay: Sendable {
    /// `2026-11-23`, in the person's zone.
    let date: String
    let range: TimeRange
    /// Sorted by start; the conflicting event's own blocks are named by `eventReference`.
    let blocks: [BusyBlock]
    let eventReference: String
}

extension AccountBusyTime {
    /// Everything busy on the local day each conflicting occurrence starts on. Busy time is read
    /// once for all the days together: a list of hundreds of conflicts costs one read, not one
    /// per conflict.
    func conflictDays(of conflicts: [EventConflict], account: Account, zone: TimeZone, tx: any StoreTransaction) async throws -> [UUID: ConflictDay] {
        var calendar = Foundation.Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let days: [(EventConflict, TimeRange)] = conflicts.compactMap { conflict in
            let start = calendar.startOfDay(for: conflict.event.start)
            guard let end = calendar.date(byAdding: .day, value: 1, to: start), let day = try? TimeRange(start: start, end: end) else { return nil }
            return (conflict, day)
        }
        guard let first = days.map(\.1.start).min(), let last = days.map(\.1.end).max(), let window = try? TimeRange(start: first, end: last)
        else { return [:] }
        let blocks = try await self.blocks(account: account, in: window, tx: tx).sorted { $0.range.start < $1.range.start }
        let formatter = DateFormatter()
        formatter.calendar = calendar
        formatter.timeZone = zone
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd"
        var views: [UUID: ConflictDay] = [:]
        for (conflict, day) in days {
            views[conflict.id] = ConflictDay(
                date: formatter.string(from: day.start), range: day, blocks: blocks.filter { $0.range.overlaps(day) },
                eventReference: EventOccurrence.reference(calendarID: conflict.event.calendarID, objectName: conflict.event.objectName))
        }
        return views
    }
}

struct DayView: Encodable, Sendable {
    let date: String
    let timeZone: String
    let blocks: [BlockView]
}

struct BlockView: Encodable, Sendable {
    let kind: String
    let title: String
    let start: Date
    let end: Date
    let calendarId: String?
    let name: String?
    let isThisEvent: Bool

    init(_ block: BusyBlock, isThisEvent: Bool) {
        let overlap = ConflictCheck.overlap(BusyOverlap(block: block, overlap: block.range))
        kind = overlap.kind.rawValue
        title = overlap.title
        start = block.range.start
        end = block.range.end
        calendarId = overlap.calendarID?.uuidString.lowercased()
        name = overlap.objectName
        self.isThisEvent = isThisEvent
    }
}

struct SuggestionList: Encodable, Sendable {
    let conflictId: String
    let suggestions: [SuggestionView]
}

struct SuggestionView: Encodable, Sendable {
    let start: Date
    let end: Date
    /// Why this slot, in the person's language.
    let explanation: String
    let minutesFromOriginal: Int

    init(_ slot: FreeSlot, language: Language) {
        start = slot.range.start
        end = slot.range.end
        explanation = language == .arabic ? slot.explanation.arabicDescription : slot.explanation.description
        minutesFromOriginal = Int((slot.explanation.offset / 60).rounded())
    }
}
