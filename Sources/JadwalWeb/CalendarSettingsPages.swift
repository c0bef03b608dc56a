import Foundation
import HTTPTypes
import Hummingbird
import ICalendar
import JadwalCore
import JadwalHTTP
import NIOCore
import PrayerTimes

/// Settings → Calendars: every calendar with its colour, source and counts; rename, recolour,
/// reorder, show or hide in the calendar views, delete (after a page that names what goes);
/// subscribe to a feed and look after it (status, problems, refresh, pause, busy or free);
/// connect another CalDAV account and choose which of its calendars are mirrored (refresh,
/// disconnect); import an `.ics` file into a calendar; download one calendar or all of them. Each form posts
/// back here and goes through the Core services the JSON API uses.
package enum CalendarSettingsPages {
    package static let path = "/settings/calendars"

    package struct CalendarForm: Decodable {
        package var name: String?
        package var color: String?
        /// `events` or `todos` (a new calendar only).
        package var holds: String?
    }

    package struct ChoiceForm: Decodable {
        /// `up`/`down` (move), `hide`/`show` (views), `pause`/`resume`, `free`/`busy` (a subscription).
        package var choice: String?
    }

    package struct SubscribeForm: Decodable {
        package var url: String?
        package var name: String?
        /// Minutes between refreshes; empty or absent: what the feed asks for, else hourly.
        package var refresh: String?
        /// `on`: the feed's dated items become to-dos (a course site's assignments).
        package var asTasks: String?
    }

    /// The refresh intervals offered, in minutes (the API takes any from 15 minutes to a week).
    package static let refreshChoices = [15, 30, 60, 180, 360, 720, 1440, 10080]

    package struct ConnectForm: Decodable {
        package var url: String?
        package var username: String?
        package var password: String?
    }

    package struct MirrorForm: Decodable {
        /// The remote calendars to mirror (checkboxes `mirror[]`); none unmirrors them all.
        package var mirror: [String]?
    }

    /// The notices a redirect back here may carry (`?done=`), each a text `calendarsDone_<key>`.
    package static let notices = [
        "created", "saved", "moved", "shown", "hidden", "deleted", "subscribed", "refreshing", "paused", "resumed", "free", "busy",
        "shared", "accessChanged", "unshared", "accepted", "declined", "busyTime", "connected", "mirrorSaved", "syncing", "disconnected",
    ]

    /// A colour as an `<input type="color">` takes it: `#rrggbb`, lower case.
    package static func colorValue(_ color: String?) -> String {
        CalendarColors.validated(color).lowercased()
    }

    /// A feed's or a file's problems as the page lists them: what was left out or mended, and where.
    package static func problems(_ problems: some Sequence<ICalendarFeed.Problem>, texts: [String: String]) -> [[String: Any]] {
        problems.map { problem in
            [
                "component": problem.component, "reason": problem.reason,
                "what": texts.text(problem.skipped ? "calendarsProblemSkipped" : "calendarsProblemMended"),
                // Line 0: found after reading (a component that did not make an object).
                "line": problem.line > 0 ? texts.text("calendarsProblemLine", ["line": String(problem.line)]) : "",
            ]
        }
    }

    /// "12 events · 3 to-dos": the kinds the calendar holds.
    package static func counts(_ listed: Calendars.Listed, texts: [String: String]) -> String {
        var parts: [String] = []
        if listed.calendar.components.contains(.event) || listed.events > 0 { parts.append(texts.text("calendarsEvents", ["count": String(listed.events)])) }
        if listed.calendar.components.contains(.todo) || listed.todos > 0 { parts.append(texts.text("calendarsTodos", ["count": String(listed.todos)])) }
        return parts.joined(separator: " · ")
    }
}

extension WebRoutes {
    /// What a POST that did not succeed adds to the page it renders again.
    package struct CalendarSettingsExtras {
        package var errors: [String: String] = [:]
        /// The calendar whose row the errors belong to (rename and recolour).
        package var calendarID: UUID?
        package var calendarForm: CalendarSettingsPages.CalendarForm?
        package var newCalendar: CalendarSettingsPages.CalendarForm?
        package var subscribe: CalendarSettingsPages.SubscribeForm?
        package var connect: CalendarSettingsPages.ConnectForm?
        /// The connected account whose row the errors belong to (its mirror choice).
        package var accountID: UUID?
        package var report: [String: Any]?
        package var importCalendarID: String?
        package var share: ShareSettingsPages.ShareForm?
        package var busyTime: ShareSettingsPages.BusyTimeForm?
        package var status: HTTPResponse.Status = .ok
    }

    package func addCalendarSettingsRoutes(to group: RouterGroup<JadwalRequestContext>) {
        let path = CalendarSettingsPages.path
        group.get("settings/calendars") { request, context in try await calendarsPage(request, context, CalendarSettingsExtras()) }
        group.post("settings/calendars") { request, context -> Response in
            let account = try context.requireIdentity().account
            let form = try context.form(CalendarSettingsPages.CalendarForm.self)
            let texts = assets.texts(account.language)
            let components: Set<ComponentKind> = form.holds == "todos" ? [.todo] : [.event]
            let properties = CalendarPropertiesChange(displayName: form.name ?? "", color: form.color ?? "")
            do {
                let draft = try calendars.validated(Calendars.Draft(properties: properties, components: components), account: account)
                do {
                    _ = try await calendars.create(draft)
                } catch Calendars.Problem.slugTaken {
                    // Two calendars may share a name; the slug is only seen in URLs.
                    var other = draft
                    other.slug = random.uuid().uuidString.lowercased()
                    _ = try await calendars.create(other)
                }
            } catch Calendars.Problem.invalidProperty(let problem) {
                let shown = FieldProblem(problem)
                return try await calendarsPage(request, context, .init(
                    errors: ["new" + shown.field.capitalized: texts.text(shown.key)], newCalendar: form, status: .unprocessableContent))
            }
            return WebPage.redirect(path + "?done=created#calendars")
        }
        group.post("settings/calendars/{id}") { request, context -> Response in
            let (account, listed) = try await ownListed(context)
            let form = try context.form(CalendarSettingsPages.CalendarForm.self)
            let texts = assets.texts(account.language)
            let calendar = listed.calendar
            do {
                if let subscriptionID = calendar.subscriptionID {
                    // Through the subscription, so the feed's own name and colour stop replacing the person's.
                    guard let subscribed = try await subscriptions.own(id: subscriptionID, accountID: account.id) else { throw Self.noCalendar }
                    // Only what the person changed: an untouched field keeps following the feed.
                    let name = form.name ?? "", color = form.color ?? ""
                    _ = try await subscriptions.update(subscribed, with: .init(
                        name: name == calendar.displayName ? nil : name, color: color == CalendarSettingsPages.colorValue(calendar.color) ? nil : color))
                } else {
                    _ = try await calendars.update(calendar, with: CalendarPropertiesChange(displayName: form.name ?? "", color: form.color ?? ""))
                }
            } catch Calendars.Problem.invalidProperty(let problem), CalendarSubscriptions.Problem.invalidProperty(let problem) {
                let shown = FieldProblem(problem)
                return try await calendarsPage(request, context, .init(
                    errors: [shown.field: texts.text(shown.key)], calendarID: calendar.id, calendarForm: form, status: .unprocessableContent))
            }
            return WebPage.redirect(path + "?done=saved#" + Self.anchor(calendar.id))
        }
        group.post("settings/calendars/{id}/move") { _, context -> Response in
            let (_, listed) = try await ownListed(context)
            let form = try context.form(CalendarSettingsPages.ChoiceForm.self)
            guard let offset = ["up": -1, "down": 1][form.choice ?? ""] else { throw HTTPError(.badRequest, message: "Move up or down.") }
            try await calendars.move(listed.calendar, by: offset)
            return WebPage.redirect(path + "?done=moved#" + Self.anchor(listed.calendar.id))
        }
        group.post("settings/calendars/{id}/visibility") { _, context -> Response in
            let (_, listed) = try await ownListed(context)
            let form = try context.form(CalendarSettingsPages.ChoiceForm.self)
            guard let hide = ["hide": true, "show": false][form.choice ?? ""] else { throw HTTPError(.badRequest, message: "Show or hide.") }
            try await calendars.setHidden(hide, calendar: listed.calendar)
            return WebPage.redirect(path + "?done=\(hide ? "hidden" : "shown")#" + Self.anchor(listed.calendar.id))
        }
        group.get("settings/calendars/{id}/delete") { request, context -> Response in
            let (account, listed) = try await ownListed(context)
            let viewer = try await viewer(request, context)
            let texts = assets.texts(account.language)
            let name = listed.calendar.displayName
            let question = texts.text(listed.calendar.isSubscribed ? "calendarsRemoveQuestion" : "calendarsDeleteQuestion", ["name": name])
            let consequence = listed.objects == 0
                ? texts.text("calendarsDeleteEmpty")
                : texts.text("calendarsDeleteGoes", ["counts": CalendarSettingsPages.counts(listed, texts: texts)])
            let page: [String: Any] = [
                "question": question, "consequence": consequence, "action": "\(path)/\(Self.segment(listed.calendar.id))/delete",
                "button": texts.text(listed.calendar.isSubscribed ? "calendarsRemoveConfirm" : "calendarsDeleteConfirm"),
                "back": path + "#" + Self.anchor(listed.calendar.id),
            ]
            return WebPage(template: "calendars-delete", title: question, page: page, stylesheets: ["settings.css"]).response(assets, viewer: viewer)
        }
        group.post("settings/calendars/{id}/delete") { _, context -> Response in
            let (account, listed) = try await ownListed(context)
            if let subscriptionID = listed.calendar.subscriptionID {
                guard let subscribed = try await subscriptions.own(id: subscriptionID, accountID: account.id) else { throw Self.noCalendar }
                try await subscriptions.delete(subscribed)
            } else {
                do {
                    try await calendars.delete(listed.calendar)
                } catch Calendars.Problem.computed {
                    throw HTTPError(.conflict, message: Calendars.Problem.computed.description)
                }
            }
            return WebPage.redirect(path + "?done=deleted#calendars")
        }
        group.get("settings/calendars/{id}/export") { _, context -> Response in
            let (_, listed) = try await ownListed(context)
            let file = try await transfer.export(listed.calendar)
            return CalendarDownload.ics(file.text, fileName: file.fileName)
        }
        group.get("settings/calendars/export") { _, context -> Response in
            let accountID = try context.requireIdentity().account.id
            return try CalendarDownload.zip(try await transfer.exportAll(accountID: accountID))
        }
        group.post("settings/calendars/subscriptions") { request, context -> Response in
            let account = try context.requireIdentity().account
            let form = try context.form(CalendarSettingsPages.SubscribeForm.self)
            let texts = assets.texts(account.language)
            let name = (form.name ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            let refreshText = (form.refresh ?? "").trimmingCharacters(in: .whitespaces)
            guard refreshText.isEmpty || Int(refreshText) != nil else {
                return try await calendarsPage(request, context, .init(
                    errors: ["refresh": texts.text("calendarsErrorRefresh")], subscribe: form, status: .unprocessableContent))
            }
            do {
                let added = try await subscriptions.add(
                    .init(url: form.url ?? "", name: name.isEmpty ? nil : name, refreshMinutes: Int(refreshText), asTasks: form.asTasks == "on"), account: account)
                return WebPage.redirect(path + "?done=subscribed#" + Self.anchor(added.calendar.id))
            } catch let problem as CalendarSubscriptions.Problem {
                let shown = FieldProblem(problem)
                let status: HTTPResponse.Status = switch problem { case .tooMany: .conflict; default: .unprocessableContent }
                return try await calendarsPage(request, context, .init(errors: [shown.field: texts.text(shown.key, shown.values)], subscribe: form, status: status))
            }
        }
        group.post("settings/calendars/accounts") { request, context -> Response in
            let account = try context.requireIdentity().account
            let form = try context.form(CalendarSettingsPages.ConnectForm.self)
            let texts = assets.texts(account.language)
            guard let caldavAccounts else { throw HTTPError(.notFound, message: "This server does not connect CalDAV accounts.") }
            let username = (form.username ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            do {
                // Every calendar of the account is mirrored at first; the list below changes that.
                let connected = try await caldavAccounts.connect(
                    url: form.url ?? "", username: username, password: form.password ?? "", mirror: nil, account: account)
                return WebPage.redirect(path + "?done=connected#" + Self.accountAnchor(connected.account.id))
            } catch let problem as CalDAVAccounts.Problem {
                let shown = FieldProblem(problem, username: username)
                let status: HTTPResponse.Status = switch problem { case .tooMany: .conflict; default: .unprocessableContent }
                return try await calendarsPage(request, context, .init(errors: [shown.field: texts.text(shown.key, shown.values)], connect: form, status: status))
            }
        }
        // Google Calendar: to Google's consent page, and back with a code.
        group.post("settings/calendars/google") { _, context -> Response in
            let account = try context.requireIdentity().account
            guard let googleCalendars else { throw HTTPError(.notFound, message: "This server does not connect Google Calendar.") }
            return WebPage.redirect(googleCalendars.start(for: account, redirectURI: googleCallbackURL))
        }
        group.get("settings/calendars/google/callback") { request, context -> Response in
            let account = try context.requireIdentity().account
            guard let googleCalendars else { throw HTTPError(.notFound, message: "This server does not connect Google Calendar.") }
            let query = request.uri.queryParameters
            do {
                let connected = try await googleCalendars.finish(
                    for: account, code: query.get("code"), state: query.get("state") ?? "", error: query.get("error"), redirectURI: googleCallbackURL)
                return WebPage.redirect(path + "?done=connected#" + Self.accountAnchor(connected.account.id))
            } catch where error is GoogleCalendars.Problem || error is CalDAVAccounts.Problem {
                // Said beside the button: a forged or late state, a "no" on Google's page, or the account refused.
                return try await calendarsPage(request, context, .init(errors: ["google": String(describing: error).asSentence], status: .unprocessableContent))
            }
        }
        group.post("settings/calendars/accounts/{id}/mirror") { request, context -> Response in
            let account = try context.requireIdentity().account
            let connected = try await ownAccount(context, accountID: account.id)
            let form = try context.form(CalendarSettingsPages.MirrorForm.self)
            do {
                _ = try await caldavAccounts?.mirror(form.mirror ?? [], of: connected, account: account)
            } catch let problem as CalDAVAccounts.Problem {
                let shown = FieldProblem(problem, username: "")
                return try await calendarsPage(request, context, .init(
                    errors: [shown.field: assets.texts(account.language).text(shown.key, shown.values)], accountID: connected.account.id,
                    status: .unprocessableContent))
            }
            return WebPage.redirect(path + "?done=mirrorSaved#" + Self.accountAnchor(connected.account.id))
        }
        group.post("settings/calendars/accounts/{id}") { _, context -> Response in
            let account = try context.requireIdentity().account
            let connected = try await ownAccount(context, accountID: account.id)
            let form = try context.form(CalendarSettingsPages.ChoiceForm.self)
            switch form.choice {
            case "refresh":
                try await caldavAccounts?.syncSoon(connected)
                return WebPage.redirect(path + "?done=syncing#" + Self.accountAnchor(connected.account.id))
            case "disconnect":
                try await caldavAccounts?.disconnect(connected)
                return WebPage.redirect(path + "?done=disconnected#connect")
            default:
                throw HTTPError(.badRequest, message: "Refresh or disconnect.")
            }
        }
        group.post("settings/calendars/subscriptions/{id}") { _, context -> Response in
            let accountID = try context.requireIdentity().account.id
            guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)),
                  let subscribed = try await subscriptions.own(id: id, accountID: accountID)
            else { throw HTTPError(.notFound, message: "No such subscription.") }
            let form = try context.form(CalendarSettingsPages.ChoiceForm.self)
            let done: String
            switch form.choice {
            case "refresh":
                try await subscriptions.refreshSoon(subscribed)
                done = "refreshing"
            case "pause", "resume":
                _ = try await subscriptions.update(subscribed, with: .init(paused: form.choice == "pause"))
                done = form.choice == "pause" ? "paused" : "resumed"
            case "free", "busy":
                _ = try await subscriptions.update(subscribed, with: .init(busy: form.choice == "busy"))
                done = form.choice ?? "busy"
            default:
                throw HTTPError(.badRequest, message: "Refresh, pause, resume, free or busy.")
            }
            return WebPage.redirect(path + "?done=\(done)#" + Self.anchor(subscribed.calendar.id))
        }
        // A multipart post: the middleware checks the token in the action URL and leaves the body
        // for the upload reader, which streams it against the import limit.
        group.post("settings/calendars/import") { request, context -> Response in
            let account = try context.requireIdentity().account
            let texts = assets.texts(account.language)
            let upload: ChatUpload
            do {
                upload = try await ChatUpload.read(request, limit: CalendarTransfer.uploadLimit)
            } catch let error as APIError {
                let key = error.status == .contentTooLarge ? "calendarsErrorFileTooLarge" : "calendarsErrorNoFile"
                return try await calendarsPage(request, context, .init(
                    errors: ["file": texts.text(key, ["limit": String(CalendarTransfer.uploadLimit >> 20)])], status: error.status))
            }
            let chosen = upload.fields["calendar"] ?? ""
            guard let id = UUID(uuidString: chosen), let calendar = try await calendars.own(id: id, accountID: account.id) else {
                return try await calendarsPage(request, context, .init(
                    errors: ["importCalendar": texts.text("calendarsErrorChooseCalendar")], status: .unprocessableContent))
            }
            let existing = CalendarTransfer.Existing(rawValue: upload.fields["existing"] ?? "") ?? .update
            do {
                let report = try await transfer.importDocument(Array(upload.file.readableBytesView), into: calendar, existing: existing)
                return try await calendarsPage(request, context, .init(
                    report: Self.importReport(report, file: upload.filename, calendar: calendar, texts: texts), importCalendarID: chosen))
            } catch let problem as CalendarTransfer.Problem {
                let message = switch problem {
                case .readOnly: texts.text("calendarsErrorReadOnly")
                case .notCalendar(let failure): texts.text("calendarsErrorNotCalendar", ["reason": failure.description])
                }
                return try await calendarsPage(request, context, .init(
                    errors: ["file": message], importCalendarID: chosen, status: .unprocessableContent))
            }
        }
    }

    private static var noCalendar: HTTPError { HTTPError(.notFound, message: "No such calendar.") }

    /// The id as it appears in the page's URLs.
    package static func segment(_ id: UUID) -> String { id.uuidString.lowercased() }
    /// The id of a calendar's row on the page.
    package static func anchor(_ id: UUID) -> String { "calendar-" + segment(id) }
    /// The id of a connected account's row on the page.
    package static func accountAnchor(_ id: UUID) -> String { "account-" + segment(id) }

    /// The signed-in person's connected account named by the path; another's is not found.
    private func ownAccount(_ context: JadwalRequestContext, accountID: UUID) async throws -> CalDAVAccounts.Connected {
        guard let caldavAccounts, let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)),
              let connected = try await caldavAccounts.own(id: id, accountID: accountID)
        else { throw HTTPError(.notFound, message: "No such account.") }
        return connected
    }

    /// The signed-in person's calendar named by the path, with its counts; another's is not found,
    /// exactly like one that never existed.
    private func ownListed(_ context: JadwalRequestContext) async throws -> (Account, Calendars.Listed) {
        let account = try context.requireIdentity().account
        guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)),
              let listed = try await calendars.listed(accountID: account.id).first(where: { $0.calendar.id == id })
        else { throw Self.noCalendar }
        return (account, listed)
    }

    /// "Every 15 minutes", "Every 6 hours", "Every day", "Every week".
    static func interval(_ minutes: Int, texts: [String: String]) -> String {
        switch minutes {
        case let m where m % 10080 == 0: texts.text("calendarsEveryWeeks", ["count": String(m / 10080)])
        case let m where m % 1440 == 0: texts.text("calendarsEveryDays", ["count": String(m / 1440)])
        case let m where m % 60 == 0: texts.text("calendarsEveryHours", ["count": String(m / 60)])
        default: texts.text("calendarsEveryMinutes", ["count": String(minutes)])
        }
    }

    /// A connected account as its row shows it: where, who, its state, and its calendars to tick.
    private static func accountRow(
        _ connected: CalDAVAccounts.Connected, texts: [String: String], when: (Date) -> String, errors: [String: String]
    ) -> [String: Any] {
        let account = connected.account
        let id = segment(account.id)
        let host = URLComponents(string: account.url)?.host ?? account.url
        var row: [String: Any] = [
            "id": id, "anchor": accountAnchor(account.id), "url": account.url, "host": host, "username": account.username,
            "state": account.state.rawValue, "stateLabel": texts.text("calendarsState_\(account.state.rawValue)"),
            "error": account.lastError ?? "", "failing": account.state == .failing,
            "action": "\(CalendarSettingsPages.path)/accounts/\(id)", "mirrorAction": "\(CalendarSettingsPages.path)/accounts/\(id)/mirror",
            "refreshLabel": texts.text("calendarsRefreshAccount", ["host": host]),
            "disconnectLabel": texts.text("calendarsDisconnectAccount", ["host": host]),
            "confirm": texts.text("calendarsConfirmDisconnect", ["host": host]),
            "rowErrors": errors,
            "remotes": account.remoteCalendars.enumerated().map { index, remote -> [String: Any] in
                [
                    "field": "mirror-\(id)-\(index)", "url": remote.url, "mirrored": connected.mirrored[remote.url] != nil,
                    "name": remote.displayName ?? URLComponents(string: remote.url)?.path ?? remote.url,
                ]
            },
            "mirrorLegend": texts.text("calendarsMirrorLegend", ["host": host]),
        ]
        if let last = account.lastSuccessAt { row["lastSuccess"] = texts.text("calendarsLastSync", ["time": when(last)]) }
        return row
    }

    private static func importReport(_ report: CalendarTransfer.Report, file: String?, calendar: CalendarCollection, texts: [String: String]) -> [String: Any] {
        let shownProblems = 100
        var values: [String: Any] = [
            "title": texts.text("calendarsImported", ["file": file ?? "", "calendar": calendar.displayName]),
            "counts": texts.text("calendarsImportCounts", [
                "components": String(report.components), "created": String(report.created), "updated": String(report.updated),
                "unchanged": String(report.unchanged), "skipped": String(report.skippedExisting),
            ]),
            "problems": CalendarSettingsPages.problems(report.problems.prefix(shownProblems), texts: texts),
            "hasProblems": !report.problems.isEmpty,
            "problemCount": texts.text("calendarsFileProblemCount", ["count": String(report.problems.count)]),
        ]
        if report.problems.count > shownProblems {
            values["more"] = texts.text("calendarsProblemsMore", ["count": String(report.problems.count - shownProblems)])
        }
        return values
    }

    func calendarsPage(_ request: Request, _ context: JadwalRequestContext, _ extras: CalendarSettingsExtras) async throws -> Response {
        let account = try context.requireIdentity().account
        let viewer = try await viewer(request, context)
        let texts = assets.texts(viewer.language)
        let listed = try await calendars.listed(accountID: account.id)
        let subscribed = Dictionary(
            try await subscriptions.all(accountID: account.id).map { ($0.calendar.id, $0) }, uniquingKeysWith: { first, _ in first })
        let formats = WebFormats.shared(language: viewer.language, zone: TimeZone(identifier: account.timeZone) ?? .gmt)
        func when(_ date: Date) -> String { "\(formats.shortDay(LocalDate.today(in: formats.zone, now: date))) \(formats.time(date))" }
        let path = CalendarSettingsPages.path
        let errors = extras.errors
        var colors = CalendarColors()

        let sharing = try await sharingValues(account: account, texts: texts, extras: extras)
        let connectedAccounts = try await caldavAccounts?.all(accountID: account.id) ?? []
        var mirroredFrom: [UUID: String] = [:]
        for connected in connectedAccounts {
            for calendar in connected.mirrored.values { mirroredFrom[calendar.id] = URLComponents(string: connected.account.url)?.host ?? connected.account.url }
        }
        let rows = listed.enumerated().map { index, item -> [String: Any] in
            let calendar = item.calendar
            let id = Self.segment(calendar.id)
            let mine = extras.calendarID == calendar.id
            var row: [String: Any] = [
                "id": id, "anchor": Self.anchor(calendar.id), "action": "\(path)/\(id)", "name": calendar.displayName,
                "formName": mine ? extras.calendarForm?.name ?? calendar.displayName : calendar.displayName,
                "color": mine ? extras.calendarForm?.color ?? CalendarSettingsPages.colorValue(calendar.color) : CalendarSettingsPages.colorValue(calendar.color),
                "colorClass": colors.cssClass(for: calendar), "counts": CalendarSettingsPages.counts(item, texts: texts),
                "hidden": item.hidden, "first": index == 0, "last": index == listed.count - 1,
                // Only this row's problems: an empty string would still open a Mustache section.
                "rowErrors": mine ? errors : [:],
                "showLabel": texts.text(item.hidden ? "calendarsShowIn" : "calendarsHideFrom", ["name": calendar.displayName]),
                "upLabel": texts.text("calendarsMoveUp", ["name": calendar.displayName]),
                "downLabel": texts.text("calendarsMoveDown", ["name": calendar.displayName]),
                "exportLabel": texts.text("calendarsDownloadOne", ["name": calendar.displayName]),
                "deleteHref": "\(path)/\(id)/delete",
                "deleteLabel": texts.text(calendar.isSubscribed ? "calendarsRemoveOne" : "calendarsDeleteOne", ["name": calendar.displayName]),
            ]
            if let feed = subscribed[calendar.id] {
                let subscription = feed.subscription
                var status: [String: Any] = [
                    "url": subscription.url, "state": subscription.state.rawValue, "stateLabel": texts.text("calendarsState_\(subscription.state.rawValue)"),
                    "action": "\(path)/subscriptions/\(Self.segment(subscription.id))", "paused": subscription.pausedAt != nil, "busy": feed.busy,
                    "error": subscription.lastError ?? "", "failing": subscription.state == .failing,
                    "problems": CalendarSettingsPages.problems(subscription.problems, texts: texts),
                    "hasProblems": subscription.problemCount > 0,
                    "problemCount": texts.text("calendarsProblemCount", ["count": String(subscription.problemCount)]),
                    "refreshLabel": texts.text("calendarsRefreshOne", ["name": calendar.displayName]),
                    "pauseLabel": texts.text(subscription.pausedAt == nil ? "calendarsPauseOne" : "calendarsResumeOne", ["name": calendar.displayName]),
                    "busyLabel": texts.text(feed.busy ? "calendarsMarkFree" : "calendarsMarkBusy", ["name": calendar.displayName]),
                ]
                if let last = subscription.lastSuccessAt { status["lastSuccess"] = texts.text("calendarsLastRefresh", ["time": when(last)]) }
                if subscription.pausedAt == nil { status["next"] = texts.text("calendarsNextRefresh", ["time": when(subscription.nextRefreshAt)]) }
                row["feed"] = status
            } else if let host = mirroredFrom[calendar.id] {
                row["source"] = texts.text("calendarsSourceMirrored", ["host": host])
            } else {
                row["source"] = texts.text(calendar.isComputed ? "calendarsSourceComputed" : "calendarsSourceJadwal")
            }
            row["canDelete"] = !calendar.isComputed
            if !calendar.isComputed { row["sharing"] = sharing.row(calendar, mine ? errors : [:]) }
            return row
        }
        // Where a file can go: the person's own calendars that hold events or to-dos.
        let targets = listed.map(\.calendar).filter { !$0.isSubscribed && !$0.isComputed && !$0.components.isDisjoint(with: [.event, .todo]) }
        let chosen = extras.importCalendarID ?? targets.first.map { Self.segment($0.id) } ?? ""
        let newCalendar = extras.newCalendar
        var page: [String: Any] = [
            "calendars": rows, "hasCalendars": !rows.isEmpty,
            "errors": errors, "hasErrors": !errors.isEmpty,
            "newName": newCalendar?.name ?? "", "newColor": newCalendar?.color ?? CalendarColors.fallback, "newTodos": newCalendar?.holds == "todos",
            "subscribeURL": extras.subscribe?.url ?? "", "subscribeName": extras.subscribe?.name ?? "",
            "subscribeAsTasks": extras.subscribe?.asTasks == "on",
            "refreshChoices": CalendarSettingsPages.refreshChoices.map { minutes -> [String: Any] in
                ["minutes": String(minutes), "label": Self.interval(minutes, texts: texts), "selected": extras.subscribe?.refresh == String(minutes)]
            },
            "canConnect": caldavAccounts != nil, "canConnectGoogle": googleCalendars != nil,
            // The password is never put back in the page.
            "connectURL": extras.connect?.url ?? "", "connectUsername": extras.connect?.username ?? "",
            "accounts": connectedAccounts.map { connected in
                Self.accountRow(connected, texts: texts, when: when, errors: extras.accountID == connected.account.id ? errors : [:])
            },
            "hasAccounts": !connectedAccounts.isEmpty,
            "importTargets": targets.map { ["id": Self.segment($0.id), "name": $0.displayName, "selected": Self.segment($0.id) == chosen] as [String: Any] },
            "hasImportTargets": !targets.isEmpty, "importLimitMB": String(CalendarTransfer.uploadLimit >> 20),
            "subscriptionLimit": texts.text("calendarsSubscribeHint", ["limit": String(CalendarSubscriptions.perAccountLimit)]),
        ]
        if let done = request.uri.queryParameters.get("done"), CalendarSettingsPages.notices.contains(done) {
            page["notice"] = texts.text("calendarsDone_\(done)")
        }
        if let report = extras.report { page["report"] = report }
        page.merge(sharing.page) { _, new in new }
        return WebPage(
            template: "calendars", title: texts.text("calendarsTitle"), page: page, status: extras.status, style: colors.css, stylesheets: ["settings.css", "calendars.css"]
        ).response(assets, viewer: viewer)
    }
}
