import Foundation
import Hummingbird
import ICalendar
import JadwalCore
import JadwalHTTP
import PrayerTimes
import Scheduling

/// Adding, editing and deleting an event from the browser. The form becomes an `EventDraft`,
/// the JSON API's description of an event, and is written through the path CalDAV PUT takes,
/// so phones see it on their next sync. A problem is shown beside its field, never as an error page.
package enum EventPages {
    /// An event's page; with `occurrence` (an instance's original start, as the expander gives
    /// it), the page of that instance of a repeating event.
    package static func editPath(calendarID: UUID, objectName: String, occurrence: String? = nil) -> String {
        "/events/\(calendarID.uuidString.lowercased())/" + WebPage.pathSegment(objectName) + (occurrence.map { "?occurrence=" + $0 } ?? "")
    }

    /// The form's fields, as posted.
    package struct Form: Decodable {
        package var title: String?
        package var location: String?
        package var allDay: String?
        package var startDate: String?
        package var startTime: String?
        package var endDate: String?
        package var endTime: String?
        package var zone: String?
        package var calendar: String?
        package var `repeat`: String?
        package var reminder: String?
        package var notes: String?
        /// A CSS3 colour name, or empty for the calendar's colour.
        package var color: String?
        /// Categories separated by commas.
        package var categories: String?
        /// The people invited, one a line (`Sara <sara@example.com>` or an address); absent on
        /// the page of a meeting someone else organises, which keeps its attendees.
        package var attendees: String?
        package var etag: String?
        /// The instance of a repeating event the page shows, and which instances a change reaches.
        package var occurrence: String?
        package var scope: String?
        /// `find-time`: the "Find a time" button, which looks for times and saves nothing.
        package var intent: String?
        /// A suggested time chosen (`2026-12-08T10:00/2026-12-08T11:00`, wall clock in `zone`):
        /// the form comes back with it, unsaved.
        package var slot: String?
    }

    /// The repeat choices a person picks from; any other rule a phone wrote is kept as "custom".
    package static let repeats: [(value: String, rule: String?)] = [
        ("none", nil), ("daily", "FREQ=DAILY"), ("weekdays-mon", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"),
        ("weekdays-sun", "FREQ=WEEKLY;BYDAY=SU,MO,TU,WE,TH"), ("weekly", "FREQ=WEEKLY"), ("monthly", "FREQ=MONTHLY"), ("yearly", "FREQ=YEARLY"),
    ]
    package static let reminders = [0, 5, 10, 15, 30, 60, 1440]

    /// The form's values for a draft (a new event or a stored one), in the wall time of `zone`.
    package static func form(_ draft: EventDraft, zone: String, calendar: UUID?, etag: String?) -> Form {
        func split(_ text: String?) -> (String, String) {
            guard let text else { return ("", "") }
            let date = String(text.prefix(10))
            let time = text.count >= 16 ? String(text.dropFirst(11).prefix(5)) : ""
            return (date, time)
        }
        var (startDate, startTime) = split(draft.start)
        var (endDate, endTime) = split(draft.end)
        if draft.allDay == true, let end = try? LocalDate(iso8601: endDate) {
            endDate = end.adding(days: -1).description  // the form shows the last day; iCalendar stores the day after
        }
        if draft.allDay == true { (startTime, endTime) = ("09:00", "10:00") }
        return Form(
            title: draft.title, location: draft.location, allDay: draft.allDay == true ? "on" : nil, startDate: startDate, startTime: startTime,
            endDate: endDate, endTime: endTime, zone: zone, calendar: calendar?.uuidString.lowercased(),
            repeat: draft.rrule.map { rule in repeats.first { $0.rule == rule }?.value ?? "custom" } ?? "none",
            reminder: draft.alarmMinutesBefore.map(String.init) ?? "", notes: draft.description, color: draft.color ?? "",
            categories: (draft.categories ?? []).joined(separator: ", "),
            attendees: (draft.attendees ?? []).map { person in person.name.map { "\($0) <\(person.email)>" } ?? person.email }.joined(separator: "\n"),
            etag: etag)
    }

    /// The people in the attendees field: a line each, `Name <address>` or an address; lines
    /// without a name may hold several addresses separated by commas.
    package static func attendees(_ text: String) -> [EventAttendee] {
        var people: [EventAttendee] = []
        for line in text.split(whereSeparator: \.isNewline) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty else { continue }
            if let open = trimmed.lastIndex(of: "<"), trimmed.hasSuffix(">") {
                let name = trimmed[..<open].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                let email = String(trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)])
                people.append(EventAttendee(email: email, name: name.isEmpty ? nil : name))
            } else {
                for part in trimmed.split(whereSeparator: { $0 == "," || $0 == ";" || $0 == " " }) {
                    people.append(EventAttendee(email: String(part)))
                }
            }
        }
        return people
    }

}

extension EventPages.Form {
    package var isAllDay: Bool { allDay == "on" || allDay == "true" }

    /// The zone the form's dates and times are read in: its own, else the person's.
    package func wallZone(default personal: String) -> String {
        zone.flatMap { $0.isEmpty ? nil : $0 } ?? personal
    }

    /// The timed meeting the form describes, read on `zone`'s wall clock; nil when all day or
    /// when a date or time is missing or malformed.
    package func meetingRange(zone: String) -> TimeRange? {
        guard !isAllDay, let startDay = startDate, let startClock = startTime else { return nil }
        let wall = WebFormats.wallClockFormatter(zone: zone)
        let endDay = (endDate ?? "").isEmpty ? startDay : (endDate ?? startDay)
        guard let start = wall.date(from: "\(startDay)T\(startClock)"), let endClock = endTime,
              let end = wall.date(from: "\(endDay)T\(endClock)")
        else { return nil }
        return try? TimeRange(start: start, end: end)
    }

    /// The form with its start and end set to `slot` (`start/end`, wall clock); nil for a value
    /// that is not two wall-clock times.
    package func moved(to slot: String) -> EventPages.Form? {
        let parts = slot.split(separator: "/").map(String.init)
        guard parts.count == 2, parts.allSatisfy({ $0.count == 16 && $0.dropFirst(10).first == "T" }) else { return nil }
        var moved = self
        (moved.startDate, moved.startTime) = (String(parts[0].prefix(10)), String(parts[0].suffix(5)))
        (moved.endDate, moved.endTime) = (String(parts[1].prefix(10)), String(parts[1].suffix(5)))
        (moved.slot, moved.intent) = (nil, nil)
        return moved
    }

    /// The draft this form describes; `keptRule` is a stored rule the repeat menu cannot show.
    package func draft(keptRule: String?) -> EventDraft {
        let all = isAllDay
        let startDay = (startDate ?? "").trimmingCharacters(in: .whitespaces)
        let endDay = (endDate ?? "").trimmingCharacters(in: .whitespaces)
        let start = all ? startDay : "\(startDay)T\(startTime ?? "")"
        var end: String?
        if all {
            // The form's end is the last day; iCalendar's is the day after.
            end = endDay.isEmpty ? nil : ((try? LocalDate(iso8601: endDay)).map { $0.adding(days: 1).description } ?? endDay)
        } else if !endDay.isEmpty || !(endTime ?? "").isEmpty {
            end = "\(endDay.isEmpty ? startDay : endDay)T\(endTime ?? "")"
        }
        let choice = self.repeat ?? "none"
        let rule = choice == "custom" ? keptRule : EventPages.repeats.first { $0.value == choice }?.rule
        let notes = (self.notes ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        let place = (location ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        let labels = (categories ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return EventDraft(
            title: title ?? "", start: start, end: end, allDay: all, timeZone: zone.flatMap { $0.isEmpty ? nil : $0 },
            location: place.isEmpty ? nil : place, description: notes.isEmpty ? nil : notes, rrule: rule,
            alarmMinutesBefore: reminder.flatMap { Int($0) }, color: (color ?? "").isEmpty ? nil : color, categories: labels,
            attendees: attendees.map(EventPages.attendees))
    }
}

extension WebRoutes {
    package func addEventRoutes(to group: RouterGroup<JadwalRequestContext>) {
        group.get("events/new") { request, context -> Response in
            let account = try context.requireIdentity().account
            let day = request.uri.queryParameters.get("date").flatMap { Self.day($0) }
                ?? WebFormats.shared(language: account.language, zone: TimeZone(identifier: account.timeZone) ?? .gmt).localDay(clock.now)
            let draft = EventDraft(title: "", start: "\(day)T09:00", end: "\(day)T10:00")
            let calendars = try await eventCalendars(account)
            let form = EventPages.form(draft, zone: account.timeZone, calendar: calendars.first?.id, etag: nil)
            return try await eventPage(request, context, form: form, calendars: calendars, editing: nil)
        }
        group.post("events/new") { request, context -> Response in
            let account = try context.requireIdentity().account
            let form = try context.form(EventPages.Form.self)
            let calendars = try await eventCalendars(account)
            guard let calendar = calendars.first(where: { $0.id.uuidString.lowercased() == form.calendar?.lowercased() }) ?? calendars.first else {
                throw HTTPError(.conflict, message: "You have no calendar for events.")
            }
            let identity = ObjectIdentity.new(random: random)
            let (uid, name) = (identity.uid, identity.name)
            return try await save(request, context, form: form, calendar: calendar, name: name, uid: uid, existing: nil, calendars: calendars)
        }
        group.get("events/{calendar}/{name}") { request, context -> Response in
            let (calendar, object, parsed) = try await storedEvent(context)
            guard let master = parsed.master("VEVENT"),
                  let seriesDraft = EventDraft(event: master)
            else { throw HTTPError(.notFound, message: "This is not an event Jadwal can edit here.") }
            let account = try context.requireIdentity().account
            // Opened from one instance of a repeating event: the form shows that instance.
            let occurrence = request.uri.queryParameters.get("occurrence").map { String($0) }
            let instanceDraft = occurrence.flatMap { EventSeriesChanges.draft(of: parsed, occurrence: $0) }
            let draft = instanceDraft ?? seriesDraft
            var form = EventPages.form(shownInZone(draft, account: account), zone: shownZone(draft, account: account), calendar: calendar.id, etag: object.etag)
            if instanceDraft != nil { (form.occurrence, form.scope) = (occurrence, SeriesScope.this.rawValue) }
            return try await eventPage(
                request, context, form: form, calendars: [calendar], editing: (calendar, object.name, seriesDraft.rrule), meeting: seriesDraft)
        }
        group.post("events/{calendar}/{name}") { request, context -> Response in
            let (calendar, object, parsed) = try await storedEvent(context)
            let form = try context.form(EventPages.Form.self)
            let kept = parsed.master("VEVENT").flatMap { EventDraft(event: $0) }?.rrule
            return try await save(
                request, context, form: form, calendar: calendar, name: object.name, uid: object.uid, existing: (object, parsed, kept),
                calendars: [calendar])
        }
        group.post("events/{calendar}/{name}/duplicate") { _, context -> Response in
            let (calendar, object, _) = try await storedEvent(context)
            let copy = try await EventCopies(store: store, clock: clock, random: random).duplicate(name: object.name, in: calendar, source: .api)
            // The copy opens for editing: a duplicate is usually the start of a similar event.
            return WebPage.redirect(EventPages.editPath(calendarID: calendar.id, objectName: copy.name) + "?duplicated=1")
        }
        group.post("events/{calendar}/{name}/delete") { request, context -> Response in
            let (calendar, object, _) = try await storedEvent(context)
            let form = try context.form(EventPages.Form.self)
            let scope = form.scope.flatMap(SeriesScope.init(rawValue:)) ?? .all
            do {
                _ = try await seriesChanges.delete(
                    name: object.name, in: calendar, scope: scope, occurrence: form.occurrence.flatMap { $0.isEmpty ? nil : $0 }, ifMatch: form.etag,
                    source: .api)
            } catch CalendarWrites.Refusal.preconditionFailed {
                let occurrence = form.occurrence.flatMap { $0.isEmpty ? nil : $0 }
                let page = EventPages.editPath(calendarID: calendar.id, objectName: object.name, occurrence: occurrence)
                return WebPage.redirect(page + (occurrence == nil ? "?" : "&") + "changed=1")
            } catch is EventSeriesChanges.Problem {
                // The instance is gone (removed on another device): the calendar shows what is left.
                return WebPage.redirect("/calendar")
            }
            return WebPage.redirect("/calendar")
        }
    }

    /// Scoped edits and deletions of repeating events (one instance, it and the following, all).
    var seriesChanges: EventSeriesChanges { EventSeriesChanges(store: store, clock: clock, random: random) }

    private func eventCalendars(_ account: Account) async throws -> [CalendarCollection] {
        try await calendars.all(accountID: account.id).filter { $0.components.contains(.event) }
    }

    private func storedEvent(_ context: JadwalRequestContext) async throws -> (CalendarCollection, CalendarObject, Component) {
        let account = try context.requireIdentity().account
        guard let id = context.parameters.get("calendar").flatMap(UUID.init(uuidString:)),
              let name = context.parameters.get("name")?.removingPercentEncoding
        else { throw HTTPError(.notFound, message: "No such event.") }
        let found = try await calendars.object(named: name, calendarID: id, accountID: account.id)
        guard let (calendar, object) = found, object.component == .event, let parsed = integrated.parse(object) else {
            throw HTTPError(.notFound, message: "No such event: it may have been deleted on another device.")
        }
        return (calendar, object, parsed)
    }

    /// Events stored in UTC are shown on the person's own clock.
    private func shownZone(_ draft: EventDraft, account: Account) -> String {
        draft.start.hasSuffix("Z") ? account.timeZone : (draft.timeZone ?? account.timeZone)
    }

    private func shownInZone(_ draft: EventDraft, account: Account) -> EventDraft {
        guard draft.start.hasSuffix("Z") else { return draft }
        var shown = draft
        shown.start = WebFormats.wallClock(utc: draft.start, zone: account.timeZone) ?? draft.start
        shown.end = draft.end.map { WebFormats.wallClock(utc: $0, zone: account.timeZone) ?? $0 }
        return shown
    }

    private func save(
        _ request: Request, _ context: JadwalRequestContext, form: EventPages.Form, calendar: CalendarCollection, name: String, uid: String,
        existing: (object: CalendarObject, parsed: Component, rule: String?)?, calendars: [CalendarCollection]
    ) async throws -> Response {
        let account = try context.requireIdentity().account
        let texts = assets.texts(account.language)
        let editing = existing.map { (calendar, $0.object.name, $0.rule) }
        let meeting = existing?.parsed.master("VEVENT").flatMap { EventDraft(event: $0) }
        // "Find a time" and a time chosen from its answer come back to the form, saving nothing.
        if let slot = form.slot, !slot.isEmpty, let moved = form.moved(to: slot) {
            let zone = form.wallZone(default: account.timeZone)
            let chosen = moved.meetingRange(zone: zone).map { range in
                WebFormats.shared(language: account.language, zone: TimeZone(identifier: zone) ?? .gmt).timeRange(range.start, range.end)
            }
            return try await eventPage(
                request, context, form: moved, calendars: calendars, editing: editing, meeting: meeting,
                notice: chosen.map { texts.text("findTimeChosen", ["time": "\(moved.startDate ?? "") \($0)"]) })
        }
        if form.intent == "find-time" {
            let found = try await foundTimes(form, account: account, uid: existing == nil ? nil : uid)
            return try await eventPage(request, context, form: form, calendars: calendars, editing: editing, meeting: meeting, findTime: found)
        }
        let draft = form.draft(keptRule: existing?.rule)
        if let existing {
            // An edit goes through the series rules: the scope the person chose, or the whole event.
            let scope = form.scope.flatMap(SeriesScope.init(rawValue:)) ?? .all
            do {
                _ = try await seriesChanges.edit(
                    draft, name: existing.object.name, in: calendar, scope: scope, occurrence: form.occurrence.flatMap { $0.isEmpty ? nil : $0 },
                    ifMatch: form.etag ?? existing.object.etag, defaultTimeZone: account.timeZone, source: .api)
            } catch EventSeriesChanges.Problem.draft(let problem) {
                let shown = FieldProblem(problem)
                return try await eventPage(request, context, form: form, calendars: calendars, editing: editing, errors: [shown.field: texts.text(shown.key)], meeting: meeting)
            } catch let refusal as CalendarWrites.Refusal {
                let key = if case .preconditionFailed = refusal { "errorChangedElsewhere" } else { "errorNotSaved" }
                return try await eventPage(request, context, form: form, calendars: calendars, editing: editing, errors: ["form": texts.text(key)], meeting: meeting)
            } catch is EventSeriesChanges.Problem {
                return try await eventPage(request, context, form: form, calendars: calendars, editing: editing, errors: ["form": texts.text("errorNotSaved")], meeting: meeting)
            }
            return WebPage.redirect("/calendar?view=week&date=\(String((form.startDate ?? "").prefix(10)))")
        }
        let text: String
        do {
            text = try draft.icalendar(
                uid: uid, existing: nil, defaultTimeZone: account.timeZone, now: clock.now,
                organizer: EventAttendee(email: account.email.value, name: account.displayName))
        } catch {
            let shown = FieldProblem(error)
            return try await eventPage(request, context, form: form, calendars: calendars, editing: editing, errors: [shown.field: texts.text(shown.key)], meeting: meeting)
        }
        do {
            let content = try CalendarObjectContent(text: text)
            _ = try await writes.put(content, name: name, in: calendar, ifNoneMatch: true, source: .api)
        } catch let refusal as CalendarWrites.Refusal {
            let key = if case .preconditionFailed = refusal { "errorChangedElsewhere" } else { "errorNotSaved" }
            return try await eventPage(request, context, form: form, calendars: calendars, editing: editing, errors: ["form": texts.text(key)], meeting: meeting)
        } catch let problem as CalendarObjectContent.Problem {
            return try await eventPage(request, context, form: form, calendars: calendars, editing: editing, errors: ["form": "\(problem)"], meeting: meeting)
        }
        return WebPage.redirect("/calendar?view=week&date=\(String((form.startDate ?? "").prefix(10)))")
    }

    /// The answer of "Find a time" for the form's people and time, as the page shows it: each
    /// person with whether their busy time counted, and the times that suit everyone, each a
    /// button that puts it in the form.
    private func foundTimes(_ form: EventPages.Form, account: Account, uid: String?) async throws -> [String: Any] {
        let texts = assets.texts(account.language)
        let zone = form.wallZone(default: account.timeZone)
        let formats = WebFormats.shared(language: account.language, zone: TimeZone(identifier: zone) ?? .gmt)
        let people = EventPages.attendees(form.attendees ?? "")
        guard !people.isEmpty else { return ["findProblem": texts.text("findTimeNeedPeople")] }
        guard let meeting = form.meetingRange(zone: zone) else { return ["findProblem": texts.text("findTimeNeedTime")] }
        let answer: MeetingTimes.Answer
        do {
            answer = try await meetingTimes.find(organizer: account, attendees: people.map(\.email), meeting: meeting, uid: uid)
        } catch let problem as MeetingTimes.Problem {
            return ["findProblem": problem.description.asSentence]
        }
        let meetingDay = formats.localDay(meeting.start)
        func when(_ range: TimeRange) -> String {
            let time = formats.timeRange(range.start, range.end)
            let day = formats.localDay(range.start)
            return day == meetingDay ? time : "\(formats.shortDay(day)) · \(time)"
        }
        let wall = WebFormats.wallClockFormatter(zone: zone)
        return [
            "findPeople": answer.people.map { person -> [String: Any] in
                var status = texts.text(person.busyShown ? "findTimeShown" : "findTimeHidden")
                if !person.busy.isEmpty { status += "; " + texts.text("findTimeBusy", ["times": person.busy.map(when).joined(separator: ", ")]) }
                return ["email": person.email, "status": status, "shown": person.busyShown]
            },
            "findSlots": answer.slots.enumerated().map { index, slot -> [String: Any] in
                let label = "\(formats.shortDay(formats.localDay(slot.range.start))) · \(formats.timeRange(slot.range.start, slot.range.end))"
                return ["id": "find-slot-\(index)", "value": wall.string(from: slot.range.start) + "/" + wall.string(from: slot.range.end),
                        "label": texts.text("findTimeUse", ["time": label]), "explanation": slot.explanation.worded(in: account.language)]
            },
            "findNone": answer.slots.isEmpty, "hasFindPeople": !answer.people.isEmpty, "hasFindSlots": !answer.slots.isEmpty,
        ]
    }

    private func eventPage(
        _ request: Request, _ context: JadwalRequestContext, form: EventPages.Form, calendars: [CalendarCollection],
        editing: (calendar: CalendarCollection, name: String, rule: String?)?, errors: [String: String] = [:], meeting: EventDraft? = nil,
        notice: String? = nil, findTime: [String: Any]? = nil
    ) async throws -> Response {
        let viewer = try await viewer(request, context)
        let texts = assets.texts(viewer.language)
        let selectedRepeat = form.repeat ?? "none"
        var repeats = EventPages.repeats.map { choice -> [String: Any] in
            ["value": choice.value, "label": texts.text("repeat_\(choice.value)"), "selected": choice.value == selectedRepeat]
        }
        if let rule = editing?.rule, !EventPages.repeats.contains(where: { $0.rule == rule }) {
            repeats.append(["value": "custom", "label": texts.text("repeat_custom", ["rule": rule]), "selected": selectedRepeat == "custom"])
        }
        var reminderValues = EventPages.reminders
        if let chosen = form.reminder.flatMap({ Int($0) }), !reminderValues.contains(chosen) { reminderValues.append(chosen) }
        let reminders = [["value": "", "label": texts.text("reminder_none"), "selected": (form.reminder ?? "").isEmpty] as [String: Any]]
            + reminderValues.map { minutes -> [String: Any] in
                let label = minutes == 0 ? texts.text("reminder_atStart")
                    : minutes % 1440 == 0 ? texts.text("reminder_days", ["count": String(minutes / 1440)])
                    : minutes % 60 == 0 ? texts.text("reminder_hours", ["count": String(minutes / 60)])
                    : texts.text("reminder_minutes", ["count": String(minutes)])
                return ["value": String(minutes), "label": label, "selected": form.reminder == String(minutes)]
            }
        let chosenColor = form.color ?? ""
        var colorChoices = EventColor.palette
        if !chosenColor.isEmpty, !colorChoices.contains(chosenColor) { colorChoices.append(chosenColor) }
        let colorOptions = [["value": "", "label": texts.text("color_calendar"), "selected": chosenColor.isEmpty] as [String: Any]]
            + colorChoices.map { name -> [String: Any] in
                let label = texts.text("color_\(name)")
                return ["value": name, "label": label == "color_\(name)" ? name : label, "selected": name == chosenColor]
            }
        var colors = CalendarColors()
        let calendarOptions = calendars.map { calendar -> [String: Any] in
            ["value": calendar.id.uuidString.lowercased(), "label": calendar.displayName, "selected": calendar.id.uuidString.lowercased() == form.calendar,
             "colorClass": colors.cssClass(for: calendar)]
        }
        var page: [String: Any] = [
            "title": form.title ?? "", "location": form.location ?? "", "allDay": form.isAllDay, "startDate": form.startDate ?? "",
            "startTime": form.startTime ?? "", "endDate": form.endDate ?? "", "endTime": form.endTime ?? "", "zone": form.zone ?? "",
            "notes": form.notes ?? "", "etag": form.etag ?? "", "colors": colorOptions, "categories": form.categories ?? "", "repeats": repeats, "reminders": reminders, "calendars": calendarOptions,
            "errors": errors, "hasErrors": !errors.isEmpty,
            "action": editing.map { EventPages.editPath(calendarID: $0.calendar.id, objectName: $0.name) } ?? "/events/new",
            "isNew": editing == nil, "notice": notice ?? false, "findTime": findTime ?? false,
        ]
        if let occurrence = form.occurrence, !occurrence.isEmpty, editing != nil {
            // A repeating event opened at one instance asks which instances a change reaches.
            let chosen = form.scope ?? SeriesScope.this.rawValue
            page["occurrence"] = occurrence
            page["hasScopes"] = true
            page["scopes"] = SeriesScope.allCases.map { scope -> [String: Any] in
                ["value": scope.rawValue, "label": texts.text("scope_\(scope.rawValue)"), "checked": scope.rawValue == chosen]
            }
        }
        if let editing {
            page["deleteAction"] = EventPages.editPath(calendarID: editing.calendar.id, objectName: editing.name) + "/delete"
            page["duplicateAction"] = EventPages.editPath(calendarID: editing.calendar.id, objectName: editing.name) + "/duplicate"
            if request.uri.queryParameters.get("duplicated") != nil { page["notice"] = texts.text("duplicatedNote") }
            page["calendarName"] = editing.calendar.displayName
        }
        // A meeting: who is invited and their answers; someone else's meeting is answered, not edited here.
        let account = viewer.identity?.account
        let invitedBy = meeting?.organizer.flatMap { organizer in organizer.email == account?.email.value ? nil : organizer }
        page["attendees"] = form.attendees ?? ""
        page["invitation"] = invitedBy != nil
        if let invitedBy { page["invitationFrom"] = texts.text("invitationFrom", ["name": invitedBy.name ?? invitedBy.email]) }
        let people = (meeting?.attendees ?? []).map { person -> [String: Any] in
            let answer = (person.partstat ?? "needs-action").lowercased()
            return ["name": person.name.map { "\($0) <\(person.email)>" } ?? person.email, "answer": texts.text("invitationAnswer_\(answer)"), "value": answer]
        }
        page["people"] = people
        page["hasPeople"] = !people.isEmpty
        if request.uri.queryParameters.get("changed") != nil { page["errors"] = ["form": texts.text("errorChangedElsewhere")] }
        if let zone = form.zone, zone != viewer.identity?.account.timeZone { page["zoneNote"] = texts.text("zoneNote", ["zone": zone]) }
        let title = texts.text(editing == nil ? "addEventTitle" : "editEventTitle")
        return WebPage(template: "event-form", title: title, page: page, status: errors.isEmpty ? .ok : .unprocessableContent, style: colors.css)
            .response(assets, viewer: viewer)
    }
}
