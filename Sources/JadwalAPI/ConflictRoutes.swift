import Foundation
import Hummingbird
import JadwalCore
import JadwalHTTP
import Scheduling

/// `/api/v1/conflicts`: the events that run into other busy time, with the day around them,
/// suggested free slots, and the person's choice (keep, move, cancel).
package struct ConflictRoutes: Sendable {
    package let conflicts: Conflicts
    package let resolution: ConflictResolution

    package init(conflicts: Conflicts, resolution: ConflictResolution) {
        self.conflicts = conflicts
        self.resolution = resolution
    }

    package func addRoutes(to group: RouterGroup<JadwalRequestContext>) {
        group.get("conflicts") { request, context in
            let account = try context.requireIdentity().account
            let status = request.uri.queryParameters.get("status")
            guard status == nil || status == "open" || status == "all" else {
                throw APIError.badRequest("invalid_query", "'status' is 'open' (the default) or 'all'.")
            }
            let listed = try await conflicts.list(account: account, includeResolved: status == "all")
            return EncodedJSONResponse(ConflictList.written(listed, zone: account.timeZone))
        }

        group.get("conflicts/settings") { _, context in
            let accountID = try context.requireIdentity().account.id
            return JSONResponse(SettingsView(try await conflicts.settings(accountID: accountID)))
        }
        group.put("conflicts/settings") { request, context in
            let accountID = try context.requireIdentity().account.id
            let change = try await request.decodeJSON(as: ConflictSettingsChange.self)
            return JSONResponse(SettingsView(try await conflicts.updateSettings(change, accountID: accountID)))
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
                    conflictId: UUIDText.lowercased(conflict.id),
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
                let day = try await conflicts.day(of: resolved, account: account)
                return JSONResponse(ConflictView(resolved, day: day.map { Self.dayView($0, zone: account.timeZone) }))
            } catch let refusal as ConflictResolution.Refusal {
                throw APIError(refusal)
            } catch let refusal as CalendarWrites.Refusal {
                throw APIError(refusal, name: "the event")
            }
        }
    }

    /// Each conflict's day as the API shows it (see ``AccountBusyTime/conflictDays``).
    package static func dayView(_ day: ConflictDay, zone: String) -> DayView {
        DayView(date: day.date, timeZone: zone, blocks: day.blocks.map { BlockView($0, isThisEvent: $0.referenceID == day.eventReference) })
    }

    package static func conflictID(_ context: JadwalRequestContext) throws -> UUID {
        guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)) else {
            throw APIError.notFound("No conflict with that ID.")
        }
        return id
    }
}

package struct ResolveRequest: Decodable, Sendable {
    package let action: String
    package let start: String?
    package let end: String?

    package func resolution() throws -> ConflictResolution.Action {
        switch action {
        case "keep": return .keep
        case "cancel": return .cancel
        case "decline": return .decline
        case "move", "propose":
            guard let start, let end else {
                throw APIError.badRequest("invalid_field", "A \(action) needs 'start' and 'end' (ISO 8601 with an offset, e.g. 2026-11-25T18:30:00+03:00).")
            }
            guard let from = Self.instant(start), let to = Self.instant(end) else {
                throw APIError.badRequest("invalid_field", "'start' and 'end' must be ISO 8601 date-times with an offset, e.g. 2026-11-25T18:30:00+03:00.")
            }
            guard let slot = try? TimeRange(start: from, end: to) else {
                throw APIError.badRequest("invalid_field", "'end' must be after 'start'.")
            }
            return action == "move" ? .move(slot) : .propose(slot)
        default:
            throw APIError.badRequest(
                "invalid_field", "'action' is \"keep\", \"move\" or \"cancel\" (for an invitation: \"decline\" or \"propose\"), not \"\(action)\".")
        }
    }

    package static func instant(_ text: String) -> Date? {
        Date(iso8601Instant: text)
    }
}

/// Settings with their sources in a stable order.
package struct SettingsView: Encodable, Sendable {
    package let notifySources: [WriteSource]
    package let notifyPrayerOverlaps: Bool
    /// Always present (null when unset), so a client sees the field it may set.
    package let workingHours: HoursDraft?
    package let busyPolicies: [String: BusyPolicyDraft]

    package init(_ settings: ConflictSettings) {
        notifySources = WriteSource.allCases.filter(settings.notifySources.contains)
        notifyPrayerOverlaps = settings.notifyPrayerOverlaps
        workingHours = settings.workingHours.map(HoursDraft.init)
        busyPolicies = Dictionary(uniqueKeysWithValues: settings.busyPolicies.map { (UUIDText.lowercased($0.key), BusyPolicyDraft($0.value)) })
    }

    package enum CodingKeys: String, CodingKey { case notifySources, notifyPrayerOverlaps, workingHours, busyPolicies }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(notifySources, forKey: .notifySources)
        try container.encode(notifyPrayerOverlaps, forKey: .notifyPrayerOverlaps)
        try container.encode(workingHours, forKey: .workingHours)
        try container.encode(busyPolicies, forKey: .busyPolicies)
    }
}

package struct ConflictDetails: Encodable, Sendable {
    package let conflict: ConflictView?
    package let currentEtag: String?
    package let overlaps: [OverlapView]?
}

// MARK: - Views

package struct ConflictList: Encodable, Sendable {
    package let conflicts: [ConflictView]

    /// The list as `APIJSON.encoder()` writes it, byte for byte, written by hand (`JSONText`):
    /// the generic encoder spent most of a thousand-conflict list's time. Each day's blocks are
    /// written once (both ways a block can be marked), not once per conflict on that day: a
    /// person with a thousand conflicts in a month has a few dozen days.
    package static func written(_ listed: [(EventConflict, ConflictDay?)], zone: String) -> JSONText {
        var days: [String: WrittenDay] = [:]
        var size = 0
        for case (_, let day?) in listed {
            let written = days[day.date] ?? WrittenDay(day)
            days[day.date] = written
            size += written.joined.count + 64
        }
        // Reserved whole: a list of a thousand conflicts is megabytes, and growing it by doubling
        // copies it several times.
        var json = JSONText(capacity: size + listed.count * 1024)
        json.object { json in
            json.key("conflicts")
            json.array { json in
                for (conflict, day) in listed {
                    let view = ConflictView(conflict, day: nil)
                    json.object { json in
                        if let day, let written = days[day.date] {
                            json.key("day")
                            json.object { json in
                                json.key("blocks")
                                json.array { json in written.write(markingBlocksOf: day.eventReference, to: &json) }
                                json.member("date", day.date)
                                json.member("timeZone", zone)
                            }
                        }
                        view.writeMembers(to: &json)
                    }
                }
            }
        }
        return json
    }

    /// A day's blocks written once: all of them unmarked, joined, and each one marked as the
    /// conflicting event's own; a conflict's day is the joined run with its own blocks swapped.
    private struct WrittenDay {
        var joined: [UInt8] = []
        /// Where each block sits in `joined`, and the block written marked.
        var blocks: [(range: Range<Int>, marked: [UInt8])] = []
        var positions: [String: [Int]] = [:]

        init(_ day: ConflictDay) {
            for (index, block) in day.blocks.enumerated() {
                if index > 0 { joined.append(UInt8(ascii: ",")) }
                let start = joined.count
                joined += BlockView(block, isThisEvent: false).written
                blocks.append((start..<joined.count, BlockView(block, isThisEvent: true).written))
                if let reference = block.referenceID { positions[reference, default: []].append(index) }
            }
        }

        func write(markingBlocksOf reference: String, to json: inout JSONText) {
            guard !blocks.isEmpty else { return }
            var from = 0
            var pieces: [ArraySlice<UInt8>] = []
            for index in positions[reference] ?? [] {
                let range = blocks[index].range
                pieces.append(joined[from..<range.lowerBound])
                pieces.append(blocks[index].marked[...])
                from = range.upperBound
            }
            pieces.append(joined[from...])
            json.raw(pieces: pieces)
        }
    }
}

package struct ConflictView: Encodable, Sendable {
    package struct Event: Encodable, Sendable {
        package let calendarId: String
        package let name: String
        package let uid: String
        package let title: String?
        package let start: Date
        package let end: Date
        package let recurrenceId: String?
        package let etag: String
    }

    package let id: String
    package let status: EventConflict.Status
    package let source: WriteSource
    package let notify: Bool
    package let event: Event
    package let overlaps: [OverlapView]
    package let day: DayView?
    package let detectedAt: Date
    package let resolvedAt: Date?

    package init(_ conflict: EventConflict, day: DayView?) {
        id = UUIDText.lowercased(conflict.id)
        status = conflict.status
        source = conflict.source
        notify = conflict.notify
        let e = conflict.event
        event = Event(
            calendarId: UUIDText.lowercased(e.calendarID), name: e.objectName, uid: e.uid, title: e.title, start: e.start, end: e.end,
            recurrenceId: e.recurrenceID, etag: e.etag)
        overlaps = conflict.overlaps.map(OverlapView.init)
        self.day = day
        detectedAt = conflict.detectedAt
        resolvedAt = conflict.resolvedAt
    }

    /// The members after `day`, in the encoder's (sorted) order.
    func writeMembers(to json: inout JSONText) {
        json.member("detectedAt", detectedAt)
        json.key("event")
        json.object { json in
            json.member("calendarId", event.calendarId)
            json.member("end", event.end)
            json.member("etag", event.etag)
            json.member("name", event.name)
            json.member("recurrenceId", event.recurrenceId)
            json.member("start", event.start)
            json.member("title", event.title)
            json.member("uid", event.uid)
        }
        json.member("id", id)
        json.member("notify", notify)
        json.key("overlaps")
        json.array { json in
            for overlap in overlaps {
                json.object { json in
                    json.member("calendarId", overlap.calendarId)
                    json.member("end", overlap.end)
                    json.member("kind", overlap.kind.rawValue)
                    json.member("name", overlap.name)
                    json.member("overlapEnd", overlap.overlapEnd)
                    json.member("overlapMinutes", overlap.overlapMinutes)
                    json.member("overlapStart", overlap.overlapStart)
                    json.member("prayer", overlap.prayer)
                    json.member("start", overlap.start)
                    json.member("title", overlap.title)
                }
            }
        }
        json.member("resolvedAt", resolvedAt)
        json.member("source", source.rawValue)
        json.member("status", status.rawValue)
    }
}

package struct OverlapView: Encodable, Sendable {
    package let kind: EventConflict.Overlap.Kind
    package let title: String
    package let start: Date
    package let end: Date
    package let overlapStart: Date
    package let overlapEnd: Date
    package let overlapMinutes: Int
    package let calendarId: String?
    package let name: String?
    package let prayer: String?

    package init(_ overlap: EventConflict.Overlap) {
        kind = overlap.kind
        title = overlap.title
        start = overlap.start
        end = overlap.end
        overlapStart = overlap.overlapStart
        overlapEnd = overlap.overlapEnd
        overlapMinutes = Int((overlap.overlapEnd.timeIntervalSince(overlap.overlapStart) / 60).rounded())
        calendarId = overlap.calendarID.map(UUIDText.lowercased)
        name = overlap.objectName
        prayer = overlap.prayer
    }
}

package struct DayView: Encodable, Sendable {
    package let date: String
    package let timeZone: String
    package let blocks: [BlockView]
}

package struct BlockView: Encodable, Sendable {
    package let kind: String
    package let title: String
    package let start: Date
    package let end: Date
    package let calendarId: String?
    package let name: String?
    package let isThisEvent: Bool

    package init(_ block: BusyBlock, isThisEvent: Bool) {
        let overlap = ConflictCheck.overlap(BusyOverlap(block: block, overlap: block.range))
        kind = overlap.kind.rawValue
        title = overlap.title
        start = block.range.start
        end = block.range.end
        calendarId = overlap.calendarID.map(UUIDText.lowercased)
        name = overlap.objectName
        self.isThisEvent = isThisEvent
    }

    /// The block as the encoder writes it.
    var written: [UInt8] {
        var json = JSONText(capacity: 160)
        json.object { json in
            json.member("calendarId", calendarId)
            json.member("end", end)
            json.member("isThisEvent", isThisEvent)
            json.member("kind", kind)
            json.member("name", name)
            json.member("start", start)
            json.member("title", title)
        }
        return json.bytes
    }
}

package struct SuggestionList: Encodable, Sendable {
    package let conflictId: String
    package let suggestions: [SuggestionView]
}

package struct SuggestionView: Encodable, Sendable {
    package let start: Date
    package let end: Date
    /// Why this slot, in the person's language.
    package let explanation: String
    package let minutesFromOriginal: Int

    package init(_ slot: FreeSlot, language: Language) {
        start = slot.range.start
        end = slot.range.end
        explanation = slot.explanation.worded(in: language)
        minutesFromOriginal = Int((slot.explanation.offset / 60).rounded())
    }
}
