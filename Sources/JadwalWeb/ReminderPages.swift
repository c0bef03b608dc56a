import Foundation
import HTTPTypes
import Hummingbird
import JadwalCore
import JadwalHTTP
import PrayerTimes

/// The upcoming reminders screen: every reminder that fires in the next two weeks, by day, each
/// with snooze (10 minutes, an hour, tomorrow), a new "minutes before", and remove. Each form
/// goes through `UpcomingReminders`, which writes the change into the event or to-do itself.
package enum RemindersPage {
    package struct Form: Decodable {
        package var id: String?
        package var etag: String?
        /// Snooze: `10m`, `1h` or `tomorrow`.
        package var by: String?
        /// Change: minutes before.
        package var minutes: String?
    }

    package static func snooze(_ word: String?) -> UpcomingReminders.Snooze? {
        switch word {
        case "10m": .minutes(10)
        case "1h": .minutes(60)
        case "tomorrow": .tomorrow
        default: nil
        }
    }

    /// The key of a Core problem's sentence in the page's texts.
    package static func key(_ problem: UpcomingReminders.Problem) -> String {
        switch problem {
        case .notFound: "remindersErrorGone"
        case .invalidSnooze: "remindersErrorSnooze"
        case .invalidMinutes: "remindersErrorMinutes"
        case .snoozeHasNoOffset: "remindersErrorSnoozed"
        case .noStart: "remindersErrorNoStart"
        case .repeatingTodo: "remindersErrorRepeatingTodo"
        }
    }
}

extension WebRoutes {
    package func addReminderRoutes(to group: RouterGroup<JadwalRequestContext>) {
        group.get("reminders") { request, context -> Response in
            let account = try context.requireIdentity().account
            let texts = assets.texts(account.language)
            let query = request.uri.queryParameters
            let notice = query.get("done").flatMap { ["snoozed", "changed", "removed"].contains($0) ? texts.text("remindersDone_\($0)") : nil }
                ?? (query.get("changed") != nil ? texts.text("remindersErrorChangedElsewhere") : nil)
            return try await remindersPage(request, context, notice: notice)
        }
        for action in ["snooze", "change", "remove"] {
            group.post("reminders/\(action)") { request, context -> Response in
                try await reminderAction(action, request, context)
            }
        }
    }

    private func reminderAction(_ action: String, _ request: Request, _ context: JadwalRequestContext) async throws -> Response {
        let account = try context.requireIdentity().account
        let texts = assets.texts(account.language)
        let form = try context.form(RemindersPage.Form.self)
        guard let text = form.id, let id = UpcomingReminders.ReminderID(text) else {
            return try await remindersPage(request, context, pageError: texts.text("remindersErrorGone"), status: .notFound)
        }
        let etag = form.etag.flatMap { $0.isEmpty ? nil : $0 }
        do {
            switch action {
            case "snooze":
                guard let snooze = RemindersPage.snooze(form.by) else {
                    return try await remindersPage(request, context, errors: [text: texts.text("remindersErrorSnooze")], status: .unprocessableContent)
                }
                _ = try await reminders.snooze(id, by: snooze, account: account, ifMatch: etag)
                return WebPage.redirect("/reminders?done=snoozed")
            case "change":
                guard let minutes = Int((form.minutes ?? "").trimmingCharacters(in: .whitespaces)) else {
                    return try await remindersPage(request, context, errors: [text: texts.text("remindersErrorMinutes")], status: .unprocessableContent)
                }
                _ = try await reminders.change(id, minutesBefore: minutes, account: account, ifMatch: etag)
                return WebPage.redirect("/reminders?done=changed")
            default:
                _ = try await reminders.remove(id, account: account, ifMatch: etag)
                return WebPage.redirect("/reminders?done=removed")
            }
        } catch let problem as UpcomingReminders.Problem {
            let status: HTTPResponse.Status = problem == .notFound ? .notFound : .unprocessableContent
            if problem == .notFound { return try await remindersPage(request, context, pageError: texts.text(RemindersPage.key(problem)), status: status) }
            return try await remindersPage(request, context, errors: [text: texts.text(RemindersPage.key(problem))], status: status)
        } catch CalendarWrites.Refusal.preconditionFailed {
            return WebPage.redirect("/reminders?changed=1")
        }
    }

    private func remindersPage(
        _ request: Request, _ context: JadwalRequestContext, notice: String? = nil, pageError: String? = nil, errors: [String: String] = [:],
        status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        let account = try context.requireIdentity().account
        let viewer = try await viewer(request, context)
        let texts = assets.texts(account.language)
        let formats = WebFormats.shared(language: account.language, zone: TimeZone(identifier: account.timeZone) ?? .gmt)
        let items = try await reminders.list(account: account)
        var days: [(LocalDate, [[String: Any]])] = []
        for item in items {
            let day = formats.localDay(item.reminder.fireAt)
            let values = ReminderItemView(item: item, formats: formats, texts: texts, error: errors[item.id.description]).values
            if days.last?.0 == day { days[days.count - 1].1.append(values) } else { days.append((day, [values])) }
        }
        var page: [String: Any] = [
            "days": days.map { ["label": formats.fullDay($0.0), "iso": $0.0.description, "reminders": $0.1] as [String: Any] },
            "empty": items.isEmpty, "intro": texts.text("remindersIntro", ["days": String(UpcomingReminders.days)]),
        ]
        if let notice { page["notice"] = notice }
        if let pageError { page["pageError"] = pageError }
        return WebPage(template: "reminders", title: texts.text("remindersTitle"), page: page, status: status, stylesheets: ["today.css"])
            .response(assets, viewer: viewer)
    }
}

/// One reminder's card values.
private struct ReminderItemView {
    let values: [String: Any]

    init(item: UpcomingReminders.Item, formats: WebFormats, texts: [String: String], error: String?) {
        let reminder = item.reminder
        let title = (reminder.title ?? "").isEmpty ? texts.text("untitled") : reminder.title ?? ""
        let id = item.id.description
        // An id made of letters, digits, '-' and '_' (base64url): safe in an element id.
        let anchor = "reminder-" + String(id.prefix(120))
        var what = ""
        if let start = reminder.instanceStart {
            what = reminder.isAllDay ? formats.shortDay(formats.localDay(start))
                : texts.text("remindersStarts", ["day": formats.shortDay(formats.localDay(start)), "time": formats.time(start)])
        }
        let offset: String = if item.isSnooze {
            texts.text("remindersSnoozed")
        } else if let minutes = item.minutesBefore {
            texts.text(item.relatedToEnd ? (reminder.isTodo ? "remindersBeforeDue" : "remindersBeforeEnd") : "remindersBefore", ["minutes": String(minutes)])
        } else {
            texts.text("remindersAtTime")
        }
        var values: [String: Any] = [
            "id": id, "anchor": anchor, "etag": item.etag, "title": title, "fireAt": formats.time(reminder.fireAt), "what": what,
            "kind": texts.text(reminder.isTodo ? "todayKind_todo" : "todayKind_event"), "calendar": item.calendar.displayName, "offset": offset,
            "snoozed": item.isSnooze, "canChange": !item.isSnooze, "minutes": item.minutesBefore.map { String(max(0, $0)) } ?? "",
            "snoozeLabel": texts.text("remindersSnoozeLabel", ["title": title]),
            "changeLabel": texts.text("remindersChangeLabel", ["title": title]),
            "removeLabel": texts.text("remindersRemoveLabel", ["title": title]),
            "confirmRemove": texts.text(item.isRepeating ? "remindersConfirmRemoveSeries" : "remindersConfirmRemove", ["title": title]),
            "error": error ?? false, "seriesNote": false,
        ]
        if item.isRepeating && !item.isSnooze { values["seriesNote"] = texts.text("remindersSeriesNote") }
        self.values = values
    }
}
