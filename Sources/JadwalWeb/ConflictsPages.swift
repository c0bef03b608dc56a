import Foundation
import HTTPTypes
import Hummingbird
import JadwalCore
import JadwalHTTP
import PrayerTimes
import Scheduling

/// The conflicts screen: each open conflict with the hours around it drawn, what it runs into,
/// and the person's choice — keep both, move to a suggested free time, or cancel the event.
/// Resolving goes through `ConflictResolution`, the JSON API's path, so the same refusals apply
/// (a stale conflict, a slot taken since, an all-day event that cannot take a time slot).
package enum ConflictsPage {
    /// The fields the keep, move and cancel forms post.
    package struct Form: Decodable {
        package var action: String?
        /// A suggested slot as `start/end` (ISO 8601 instants, an interval as ISO writes it).
        package var slot: String?
    }

    /// Conflicts drawn in full on one page; each costs a suggestion search.
    package static let limit = 10
    package static let suggestionCount = 5

    /// What the page says about a refused resolution, and on which conflict's card.
    package struct Problem {
        package var status: HTTPResponse.Status
        package var message: String
        package var conflictID: UUID?
    }

    /// The refusals of `ConflictResolution`, in the person's words.
    package static func problem(_ refusal: ConflictResolution.Refusal, id: UUID, texts: [String: String], language: Language) -> Problem {
        switch refusal {
        case .notFound:
            return Problem(status: .notFound, message: texts.text("conflictsErrorNotFound"), conflictID: nil)
        case .alreadyResolved:
            return Problem(status: .conflict, message: texts.text("conflictsErrorAlreadyResolved"), conflictID: nil)
        case .eventChanged:
            return Problem(status: .conflict, message: texts.text("conflictsErrorChanged"), conflictID: id)
        case .slotTaken(let overlaps):
            let titles = overlaps.map { "“\(title(of: $0, language: language))”" }.joined(separator: ", ")
            return Problem(status: .conflict, message: texts.text("conflictsErrorSlotTaken", ["titles": titles]), conflictID: id)
        case .cannotMove:
            return Problem(status: .unprocessableContent, message: texts.text("conflictsErrorCannotMove"), conflictID: id)
        case .notYourMeeting, .notAnInvitation:
            return Problem(status: .unprocessableContent, message: texts.text("conflictsErrorInvitation"), conflictID: id)
        }
    }

    /// An overlap's name as the person reads it: prayers are stored by their English names.
    package static func title(of overlap: EventConflict.Overlap, language: Language) -> String {
        guard overlap.kind == .prayer, language == .arabic, let prayer = overlap.prayer.flatMap(PrayerName.init(rawValue:)) else { return overlap.title }
        return prayer.arabicName
    }

    package static func block(_ block: BusyBlock, language: Language) -> ConflictsTimeline.Block {
        switch block.kind {
        case .event(_, let title): .init(kind: .event, title: title, range: block.range)
        case .prayer(let prayer): .init(kind: .prayer, title: language == .arabic ? prayer.arabicName : prayer.englishName, range: block.range)
        case .routine(_, let name): .init(kind: .routine, title: name, range: block.range)
        case .plannedTask(_, let title): .init(kind: .task, title: title, range: block.range)
        }
    }

    /// `start/end` of a slot, as the move form's radio button carries it.
    package static func slotValue(_ range: TimeRange) -> String {
        let iso = Date.ISO8601FormatStyle()
        return iso.format(range.start) + "/" + iso.format(range.end)
    }

    /// The action a form asks for; a move's slot is read as the JSON API reads `start` and `end`
    /// (`Date(iso8601Instant:)`).
    package static func action(_ form: Form) -> (action: ConflictResolution.Action?, errorKey: String?) {
        switch form.action {
        case "keep": return (.keep, nil)
        case "cancel": return (.cancel, nil)
        case "decline": return (.decline, nil)
        case "move", "propose":
            let parts = (form.slot ?? "").split(separator: "/").map(String.init)
            guard parts.count == 2 else { return (nil, "conflictsErrorChooseSlot") }
            guard let start = Date(iso8601Instant: parts[0]), let end = Date(iso8601Instant: parts[1]),
                  let slot = try? TimeRange(start: start, end: end)
            else { return (nil, "conflictsErrorSlot") }
            return (form.action == "move" ? .move(slot) : .propose(slot), nil)
        default: return (nil, "conflictsErrorAction")
        }
    }
}

extension WebRoutes {
    /// The conflict API's busy time and resolution, over the same store and clock (and the
    /// server's cache of parsed objects).

    package func addConflictRoutes(to group: RouterGroup<JadwalRequestContext>) {
        group.get("conflicts") { request, context -> Response in
            let account = try context.requireIdentity().account
            let done = request.uri.queryParameters.get("done").flatMap { ["kept", "moved", "cancelled", "declined", "proposed"].contains($0) ? $0 : nil }
            let notice = done.map { assets.texts(account.language).text("conflictsDone_\($0)") }
            return try await conflictsPage(request, context, notice: notice, problem: nil)
        }
        group.post("conflicts/{id}/resolve") { request, context -> Response in
            let account = try context.requireIdentity().account
            let texts = assets.texts(account.language)
            guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)) else {
                return try await conflictsPage(request, context, problem: ConflictsPage.Problem(status: .notFound, message: texts.text("conflictsErrorNotFound")))
            }
            let form = try context.form(ConflictsPage.Form.self)
            let (action, errorKey) = ConflictsPage.action(form)
            guard let action else {
                return try await conflictsPage(
                    request, context, problem: ConflictsPage.Problem(status: .unprocessableContent, message: texts.text(errorKey ?? "conflictsErrorAction"), conflictID: id))
            }
            do {
                let resolved = try await conflictResolution.resolve(id: id, accountID: account.id, action: action)
                return WebPage.redirect("/conflicts?done=\(resolved.status.rawValue)")
            } catch let refusal as ConflictResolution.Refusal {
                let problem = ConflictsPage.problem(refusal, id: id, texts: texts, language: account.language)
                return try await conflictsPage(request, context, problem: problem)
            } catch is CalendarWrites.Refusal {
                return try await conflictsPage(request, context, problem: ConflictsPage.Problem(status: .conflict, message: texts.text("conflictsErrorNotSaved"), conflictID: id))
            }
        }
    }

    private func conflictsPage(_ request: Request, _ context: JadwalRequestContext, notice: String? = nil, problem: ConflictsPage.Problem?) async throws
        -> Response {
        let viewer = try await viewer(request, context)
        let account = try context.requireIdentity().account
        let texts = assets.texts(account.language)
        let zone = TimeZone(identifier: account.timeZone) ?? .gmt
        let formats = WebFormats.shared(language: account.language, zone: zone)
        // `from` pages through the list, `limit` at a time; past the end is the last page.
        var asked = max(0, request.uri.queryParameters.get("from").flatMap { Int($0) } ?? 0)
        // A badge on a calendar chip links to its conflict: the page that holds it opens.
        if let id = request.uri.queryParameters.get("conflict").flatMap(UUID.init(uuidString:)),
           let start = try await conflicts.pageStart(of: id, accountID: account.id, limit: ConflictsPage.limit) {
            asked = start
        }
        let (count, from, shown) = try await conflicts.page(account: account, from: asked, limit: ConflictsPage.limit)
        let invited = try await conflictResolution.invitations(among: shown.map(\.0), accountID: account.id)
        var cards: [[String: Any]] = []
        for (conflict, day) in shown {
            let slots: [FreeSlot]
            do {
                slots = try await conflictResolution.suggestions(id: conflict.id, accountID: account.id, count: ConflictsPage.suggestionCount).1
            } catch is ConflictResolution.Refusal {
                slots = []  // resolved in the meantime: its card says so when acted on
            }
            let model = ConflictsCard(
                conflict: conflict, day: day, slots: slots, formats: formats, texts: texts, rightToLeft: account.language == .arabic,
                invitation: invited.contains(conflict.id))
            var card = model.values()
            card["cardError"] = problem.flatMap { $0.conflictID == conflict.id ? $0.message : nil } ?? false
            cards.append(card)
        }
        var page: [String: Any] = ["conflicts": cards, "empty": count == 0]
        if count > 0 { page["count"] = texts.text("conflictsCount", ["count": String(count)]) }
        if count > shown.count {
            page["more"] = texts.text("conflictsShowing", ["first": String(from + 1), "last": String(from + shown.count), "count": String(count)])
            if from > 0 { page["previousHref"] = "/conflicts?from=\(from - ConflictsPage.limit)" }
            if from + shown.count < count { page["nextHref"] = "/conflicts?from=\(from + ConflictsPage.limit)" }
        }
        if let notice { page["notice"] = notice }
        // A problem with a conflict no longer listed (resolved, retired, someone else's) is said at the top.
        if let problem, !shown.contains(where: { $0.0.id == problem.conflictID }) { page["pageError"] = problem.message }
        return WebPage(
            template: "conflicts", title: texts.text("conflictsTitle"), page: page, status: problem?.status ?? .ok,
            scripts: ["conflicts.js"], stylesheets: ["conflicts.css"]
        ).response(assets, viewer: viewer)
    }
}

/// One conflict's card: the event, what it runs into, the timeline and the suggested times.
package struct ConflictsCard {
    package let conflict: EventConflict
    package let day: ConflictDay?
    package let slots: [FreeSlot]
    package let formats: WebFormats
    package let texts: [String: String]
    package let rightToLeft: Bool
    /// Someone else's meeting: declined or answered with another time, not cancelled or moved.
    package var invitation = false

    package var language: Language { formats.language }

    package func values() -> [String: Any] {
        let id = conflict.id.uuidString.lowercased()
        let title = conflict.event.title.flatMap { $0.isEmpty ? nil : $0 } ?? texts.text("untitled")
        let time = formats.timeRange(conflict.event.start, conflict.event.end)
        let eventRange = (try? TimeRange(start: conflict.event.start, end: conflict.event.end))
        let overlaps = conflict.overlaps.map { overlap -> [String: Any] in
            let minutes = Int((overlap.overlapEnd.timeIntervalSince(overlap.overlapStart) / 60).rounded())
            return [
                "kind": texts.text("conflictsKind_\(overlap.kind.rawValue)"), "kindClass": "kind-\(overlap.kind.rawValue)",
                "title": ConflictsPage.title(of: overlap, language: language), "time": formats.timeRange(overlap.start, overlap.end),
                "minutes": texts.text("conflictsOverlapMinutes", ["count": String(minutes)]),
            ]
        }
        var values: [String: Any] = [
            "id": id, "title": title, "time": time, "day": formats.fullDay(formats.localDay(conflict.event.start)), "overlaps": overlaps,
            "action": "/conflicts/\(id)/resolve",
            "confirmCancel": texts.text(conflict.event.recurrenceID == nil ? "conflictsConfirmCancel" : "conflictsConfirmCancelOne", ["title": title]),
            "cancelLabel": texts.text(conflict.event.recurrenceID == nil ? "conflictsCancel" : "conflictsCancelOne"),
            "moveAction": "move", "moveLabel": texts.text("conflictsMove"), "cancelAction": "cancel",
        ]
        if invitation {
            values["moveAction"] = "propose"
            values["moveLabel"] = texts.text("conflictsPropose")
            values["cancelAction"] = "decline"
            values["cancelLabel"] = texts.text("conflictsDecline")
            values["confirmCancel"] = texts.text("conflictsConfirmDecline", ["title": title])
            values["invitation"] = texts.text("conflictsInvitationNote")
        }
        if conflict.event.recurrenceID != nil { values["recurring"] = texts.text("conflictsRecurring") }
        values["canMove"] = !slots.isEmpty
        guard let eventRange else {
            values["suggestions"] = slots.enumerated().map { suggestion($0.element, index: $0.offset, id: id, timeline: nil) }
            return values
        }
        let timeline = ConflictsTimeline(
            event: eventRange, around: conflict.overlaps.compactMap { try? TimeRange(start: $0.start, end: $0.end) },
            suggestions: slots.map(\.range), zone: formats.zone, rightToLeft: rightToLeft)
        values["suggestions"] = slots.enumerated().map { suggestion($0.element, index: $0.offset, id: id, timeline: timeline) }
        values["timeline"] = drawing(timeline, title: title, time: time, event: eventRange)
        return values
    }

    private func suggestion(_ slot: FreeSlot, index: Int, id: String, timeline: ConflictsTimeline?) -> [String: Any] {
        let sameDay = formats.localDay(slot.range.start) == formats.localDay(conflict.event.start)
        let time = formats.timeRange(slot.range.start, slot.range.end)
        let label = sameDay ? time : "\(formats.shortDay(formats.localDay(slot.range.start))) · \(time)"
        var values: [String: Any] = [
            "id": "slot-\(id)-\(index)", "value": ConflictsPage.slotValue(slot.range), "label": label,
            "explanation": slot.explanation.worded(in: language),
        ]
        if let place = timeline?.preview(slot.range) {
            values["y"] = ConflictsTimeline.number(place.y)
            values["height"] = ConflictsTimeline.number(place.height)
            values["preview"] = texts.text("conflictsPreview", ["time": label])
        } else {
            values["y"] = false
            values["preview"] = texts.text("conflictsPreviewOutside", ["time": label])
        }
        return values
    }

    private func drawing(_ timeline: ConflictsTimeline, title: String, time: String, event: TimeRange) -> [String: Any] {
        let n = ConflictsTimeline.number
        func shape(_ shape: ConflictsTimeline.Shape) -> [String: Any] {
            var values: [String: Any] = [
                "classes": "tl-block tl-\(shape.kind.rawValue)", "x": n(shape.x), "y": n(shape.y), "width": n(shape.width), "height": n(shape.height),
                "textX": n(shape.textX), "labelY": n(shape.labelY), "timeY": n(shape.timeY),
            ]
            // Set even when absent: Mustache would otherwise find the card's own `time` above.
            values["label"] = shape.label.map { $0 as Any } ?? false
            values["time"] = shape.time.map { $0 as Any } ?? false
            return values
        }
        let others = (day?.blocks ?? []).filter { $0.referenceID != day?.eventReference }.map { ConflictsPage.block($0, language: language) }
        let shared = conflict.overlaps.compactMap { try? TimeRange(start: $0.overlapStart, end: $0.overlapEnd) }
        let headings = ["conflictsColumnEvent", "conflictsColumnPreview", "conflictsColumnBusy"]
        let description = texts.text("conflictsTimelineDesc", [
            "title": title, "time": time,
            "overlaps": conflict.overlaps.map { "\(ConflictsPage.title(of: $0, language: language)) (\(formats.timeRange($0.start, $0.end)))" }
                .joined(separator: ", "),
        ])
        return [
            "width": n(ConflictsTimeline.width), "height": n(timeline.height),
            "title": texts.text("conflictsTimelineTitle", ["title": title]), "desc": description,
            "hours": timeline.hours { formats.time($0) }.map { ["y": n($0.y), "labelY": n($0.y + 4), "label": $0.label] },
            "hourLabelX": n(timeline.hourLabelX), "lineStart": n(timeline.hourLineStart), "lineEnd": n(timeline.hourLineEnd),
            "columns": zip(headings, timeline.columnCentres).map { ["label": texts.text($0.0), "x": n($0.1)] },
            "event": shape(timeline.event(.init(kind: .this, title: title, range: event), time: time)),
            "shades": timeline.overlapShades(shared).map { ["x": n($0.x), "y": n($0.y), "width": n($0.width), "height": n($0.height)] },
            "busy": timeline.busy(others) { formats.timeRange($0.start, $0.end) }.map(shape),
            "previewX": n(timeline.previewX), "previewTextX": n(timeline.previewTextX), "previewWidth": n(ConflictsTimeline.columnWidth),
        ]
    }
}
