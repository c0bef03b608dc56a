import Foundation
import HTTPTypes
import Hummingbird
import ICalendar
import JadwalCore
import JadwalHTTP
import PrayerTimes

/// The invitations screen: meetings the person is invited to, each with what it runs into in
/// their calendar, answered with one button (accept, maybe, decline) or with another time
/// proposed to the organizer; and the times proposed for the person's own meetings, accepted or
/// declined. Also the page an invitation email's answer links open, for people without an
/// account. Everything goes through `Invitations`, the service the JSON API uses.
package enum InvitationPages {
    package static let path = "/invitations"

    package struct ChoiceForm: Decodable {
        package var answer: String?
    }

    package struct ProposalForm: Decodable {
        package var date: String?
        package var startTime: String?
        package var endTime: String?
        package var comment: String?
    }

    package struct DecisionForm: Decodable {
        package var choice: String?
        package var comment: String?
    }

    /// An instant from a form's date and wall time, read in `zone`.
    package static func instant(date: String?, time: String?, zone: TimeZone) -> Date? {
        guard let day = date.flatMap({ LocalDate(iso8601Day: $0.trimmingCharacters(in: .whitespaces)) }) else { return nil }
        let parts = (time ?? "").trimmingCharacters(in: .whitespaces).split(separator: ":").compactMap { Int($0) }
        guard parts.count == 2, (0...23).contains(parts[0]), (0...59).contains(parts[1]) else { return nil }
        var calendar = Foundation.Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day, hour: parts[0], minute: parts[1]))
    }

    /// The words for an answer (`accepted`, …), as a label and as a CSS class.
    package static func answerWord(_ status: ParticipationStatus, texts: [String: String]) -> String {
        texts.text("invitationAnswer_\(status.rawValue.lowercased())")
    }
}

private extension LocalDate {
    init?(iso8601Day text: String) {
        guard let parsed = try? LocalDate(iso8601: text) else { return nil }
        self = parsed
    }
}

extension WebRoutes {
    /// The invitations service over this server's store, with the busy time conflicts read.
    var invitations: Invitations {
        Invitations(store: store, clock: clock, random: random, busyTime: AccountBusyTime(parse: { integrated.parse($0) }))
    }

    package func addInvitationRoutes(to group: RouterGroup<JadwalRequestContext>) {
        group.get("invitations") { request, context -> Response in
            let account = try context.requireIdentity().account
            let done = request.uri.queryParameters.get("done").flatMap {
                ["accepted", "tentative", "declined", "proposed", "proposalAccepted", "proposalDeclined"].contains($0) ? $0 : nil
            }
            return try await invitationsPage(request, context, notice: done.map { assets.texts(account.language).text("invitationsDone_\($0)") })
        }
        group.post("invitations/{id}/reply") { request, context -> Response in
            let account = try context.requireIdentity().account
            let texts = assets.texts(account.language)
            guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)) else { throw HTTPError(.notFound, message: "No such invitation.") }
            let form = try context.form(InvitationPages.ChoiceForm.self)
            guard let status = try? Invitations.answer(form.answer ?? "") else {
                return try await invitationsPage(request, context, errors: [id: texts.text("invitationsErrorAnswer")], status: .unprocessableContent)
            }
            do {
                try await invitations.reply(id: id, by: account, status: status)
            } catch let problem as Invitations.Problem {
                return try await invitationsPage(request, context, errors: [id: Self.words(problem, texts)], status: Self.status(problem))
            }
            return WebPage.redirect(InvitationPages.path + "?done=\(status.rawValue.lowercased())#invitation-\(WebRoutes.segment(id))")
        }
        group.post("invitations/{id}/counter") { request, context -> Response in
            let account = try context.requireIdentity().account
            let texts = assets.texts(account.language)
            guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)) else { throw HTTPError(.notFound, message: "No such invitation.") }
            let form = try context.form(InvitationPages.ProposalForm.self)
            let zone = TimeZone(identifier: account.timeZone) ?? .gmt
            guard let start = InvitationPages.instant(date: form.date, time: form.startTime, zone: zone),
                  let end = InvitationPages.instant(date: form.date, time: form.endTime, zone: zone)
            else {
                return try await invitationsPage(
                    request, context, proposalErrors: [id: texts.text("invitationsErrorProposalTime")], proposal: (id, form), status: .unprocessableContent)
            }
            do {
                try await invitations.propose(id: id, by: account, start: start, end: end, comment: form.comment ?? "")
            } catch let problem as Invitations.Problem {
                return try await invitationsPage(
                    request, context, proposalErrors: [id: Self.words(problem, texts)], proposal: (id, form), status: Self.status(problem))
            }
            return WebPage.redirect(InvitationPages.path + "?done=proposed#invitation-\(WebRoutes.segment(id))")
        }
        group.post("invitations/proposals/{id}") { request, context -> Response in
            let account = try context.requireIdentity().account
            let texts = assets.texts(account.language)
            guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)) else { throw HTTPError(.notFound, message: "No such proposal.") }
            let form = try context.form(InvitationPages.DecisionForm.self)
            do {
                switch form.choice {
                case "accept":
                    try await invitations.acceptProposal(id: id, organizer: account)
                    return WebPage.redirect(InvitationPages.path + "?done=proposalAccepted#proposals")
                case "decline":
                    try await invitations.declineProposal(id: id, organizer: account, comment: form.comment ?? "")
                    return WebPage.redirect(InvitationPages.path + "?done=proposalDeclined#proposals")
                default:
                    return try await invitationsPage(request, context, errors: [id: texts.text("invitationsErrorChoice")], status: .unprocessableContent)
                }
            } catch let problem as Invitations.Problem {
                return try await invitationsPage(request, context, errors: [id: Self.words(problem, texts)], status: Self.status(problem))
            } catch is CalendarWrites.Refusal {
                return try await invitationsPage(request, context, errors: [id: texts.text("invitationsErrorChanged")], status: .conflict)
            }
        }
    }

    /// The answer links of invitation emails: outside the session, for people without an
    /// account. Opening one changes nothing (mail scanners open links); the answer is the
    /// button pressed on the page.
    package func addInvitationLinkRoutes(to router: Router<JadwalRequestContext>) {
        router.get("invitations/answer/{token}") { request, _ -> Response in
            let token = request.uri.path.split(separator: "/").last.map(String.init) ?? ""
            let language = Self.linkLanguage(request)
            let chosen = request.uri.queryParameters.get("answer").map { String($0) }
            return try await answerPage(token: token, language: language, chosen: chosen, done: nil)
        }
        router.post("invitations/answer/{token}") { request, _ -> Response in
            let token = request.uri.path.split(separator: "/").last.map(String.init) ?? ""
            let language = Self.linkLanguage(request)
            let texts = assets.texts(language)
            let form = try await decodeForm(InvitationPages.ChoiceForm.self, request)
            guard BrowserSession.isSameOrigin(request) else {
                return WebPage(template: "invitation-answer", title: texts.text("invitationLinkTitle"), page: ["error": texts.text("errorFormExpired")],
                               status: .forbidden).response(assets, viewer: .init(language: language, path: "/invitations/answer"))
            }
            guard let status = try? Invitations.answer(form.answer ?? "") else {
                return try await answerPage(token: token, language: language, chosen: nil, done: nil, error: texts.text("invitationsErrorAnswer"))
            }
            do {
                try await invitations.reply(link: token, status: status)
            } catch let problem as Invitations.Problem {
                return WebPage(template: "invitation-answer", title: texts.text("invitationLinkTitle"), page: ["error": Self.words(problem, texts)],
                               status: Self.status(problem)).response(assets, viewer: .init(language: language, path: "/invitations/answer"))
            }
            return try await answerPage(token: token, language: language, chosen: nil, done: status)
        }
    }

    static func linkLanguage(_ request: Request) -> Language {
        request.uri.queryParameters.get("lang").flatMap { Language(rawValue: String($0)) } ?? WebLanguage.of(request, account: nil)
    }

    private func answerPage(token: String, language: Language, chosen: String?, done: ParticipationStatus?, error: String? = nil) async throws -> Response {
        let texts = assets.texts(language)
        let viewer = WebPage.Viewer(language: language, path: "/invitations/answer")
        guard token.count <= 128 else {
            return WebPage(template: "invitation-answer", title: texts.text("invitationLinkTitle"), page: ["error": texts.text("invitationsLinkUnknown")],
                           status: .notFound).response(assets, viewer: viewer)
        }
        if let done {
            return WebPage(template: "invitation-answer", title: texts.text("invitationLinkTitle"), page: [
                "done": texts.text("invitationLinkDone", ["answer": InvitationPages.answerWord(done, texts: texts)]),
            ]).response(assets, viewer: viewer)
        }
        let view: Invitations.LinkView
        do {
            view = try await invitations.invitation(link: token)
        } catch let problem as Invitations.Problem {
            return WebPage(template: "invitation-answer", title: texts.text("invitationLinkTitle"), page: ["error": Self.words(problem, texts)],
                           status: Self.status(problem)).response(assets, viewer: viewer)
        }
        let invitation = view.invitation
        var when = ""
        if let start = invitation.start {
            let zone = TimeZone(identifier: view.organizerZone) ?? .gmt
            let shown = WebFormats.shared(language: language, zone: zone)
            when = invitation.allDay ? shown.fullDay(shown.localDay(start))
                : "\(shown.fullDay(shown.localDay(start))) · \(shown.timeRange(start, invitation.end ?? start)) (\(view.organizerZone))"
        }
        let page: [String: Any] = [
            "hasMeeting": true, "meetingTitle": invitation.summary.isEmpty ? texts.text("untitled") : invitation.summary, "when": when,
            "from": texts.text("invitationLinkFrom", ["name": view.organizerName, "email": view.organizerEmail.value]),
            "cancelled": invitation.state == .cancelled, "error": error ?? false,
            "action": "/invitations/answer/\(token)?lang=\(language.rawValue)",
            "answers": ParticipationStatus.answers.map { status -> [String: Any] in
                let value = status.rawValue.lowercased()
                return ["value": value, "label": texts.text("invitationButton_\(value)"), "chosen": value == chosen?.lowercased()]
            },
        ]
        return WebPage(template: "invitation-answer", title: texts.text("invitationLinkTitle"), page: page, status: error == nil ? .ok : .unprocessableContent)
            .response(assets, viewer: viewer)
    }

    static func words(_ problem: Invitations.Problem, _ texts: [String: String]) -> String {
        switch problem {
        case .notFound: texts.text("invitationsErrorNotFound")
        case .cancelled: texts.text("invitationsErrorCancelled")
        case .notAnAnswer: texts.text("invitationsErrorAnswer")
        case .meetingGone: texts.text("invitationsErrorGone")
        case .invalidProposal: texts.text("invitationsErrorProposalTime")
        case .recurring: texts.text("invitationsErrorRecurring")
        case .noProposal: texts.text("invitationsErrorNoProposal")
        case .linkUnknown: texts.text("invitationsLinkUnknown")
        case .linkUsed: texts.text("invitationsLinkUsed")
        case .linkExpired: texts.text("invitationsLinkExpired")
        }
    }

    static func status(_ problem: Invitations.Problem) -> HTTPResponse.Status {
        switch problem {
        case .notFound, .linkUnknown: .notFound
        case .cancelled, .noProposal, .linkUsed: .conflict
        case .meetingGone, .linkExpired: .gone
        case .notAnAnswer, .invalidProposal, .recurring: .unprocessableContent
        }
    }

    private func invitationsPage(
        _ request: Request, _ context: JadwalRequestContext, notice: String? = nil, errors: [UUID: String] = [:], proposalErrors: [UUID: String] = [:],
        proposal: (id: UUID, form: InvitationPages.ProposalForm)? = nil, status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        let viewer = try await viewer(request, context)
        let account = try context.requireIdentity().account
        let texts = assets.texts(account.language)
        let zone = TimeZone(identifier: account.timeZone) ?? .gmt
        let formats = WebFormats.shared(language: account.language, zone: zone)
        let received = try await invitations.received(by: account)
        let proposals = try await invitations.proposals(for: account)
        func when(_ start: Date?, _ end: Date?, allDay: Bool) -> String {
            guard let start else { return "" }
            let day = formats.fullDay(formats.localDay(start))
            return allDay ? day : "\(day) · \(formats.timeRange(start, end ?? start))"
        }
        let cards = received.map { item -> [String: Any] in
            let invitation = item.invitation
            let id = WebRoutes.segment(invitation.id)
            let title = invitation.summary.isEmpty ? texts.text("untitled") : invitation.summary
            var card: [String: Any] = [
                "id": id, "title": title, "when": when(invitation.start, invitation.end, allDay: invitation.allDay),
                "from": texts.text("invitationsFrom", ["name": item.organizerName, "email": item.organizerEmail.value]),
                "answer": InvitationPages.answerWord(invitation.partstat, texts: texts),
                "answerClass": "answer-\(invitation.partstat.rawValue.lowercased())",
                "cancelled": invitation.state == .cancelled, "active": invitation.state == .active,
                "recurring": invitation.recurring,
                "action": "/invitations/\(id)/reply", "counterAction": "/invitations/\(id)/counter",
                "answers": ParticipationStatus.answers.map { status -> [String: Any] in
                    let value = status.rawValue.lowercased()
                    return [
                        "value": value, "label": texts.text("invitationButton_\(value)"), "current": status == invitation.partstat,
                        "ariaLabel": texts.text("invitationButtonLabel_\(value)", ["title": title]),
                    ]
                },
                "clashes": item.clashes.map { clash -> [String: Any] in
                    ["title": clash.title, "time": "\(formats.shortDay(formats.localDay(clash.start))) · \(formats.timeRange(clash.start, clash.end))",
                     "prayer": clash.isPrayer]
                },
                "hasClashes": !item.clashes.isEmpty,
                "proposalLegend": texts.text("invitationsProposeLegend", ["title": title]),
            ]
            if let calendarID = item.calendarID, let name = item.objectName {
                card["href"] = EventPages.editPath(calendarID: calendarID, objectName: name)
            }
            if let proposed = invitation.proposal {
                card["proposed"] = texts.text("invitationsProposed", ["time": when(proposed.start, proposed.end, allDay: false)])
            }
            if let error = errors[invitation.id] { card["error"] = error }
            // The proposal form: what was typed when it was refused, else the meeting's own day and times.
            let typed = proposal?.id == invitation.id ? proposal?.form : nil
            card["date"] = typed?.date ?? invitation.start.map { formats.localDay($0).description } ?? ""
            card["startTime"] = typed?.startTime ?? invitation.start.map { WebRoutes.clockText($0, zone: zone) } ?? ""
            card["endTime"] = typed?.endTime ?? invitation.end.map { WebRoutes.clockText($0, zone: zone) } ?? ""
            card["comment"] = typed?.comment ?? ""
            if let error = proposalErrors[invitation.id] { card["proposalError"] = error; card["openProposal"] = true }
            return card
        }
        let proposalCards = proposals.map { found -> [String: Any] in
            let id = WebRoutes.segment(found.invitation.id)
            let title = found.invitation.summary.isEmpty ? texts.text("untitled") : found.invitation.summary
            var card: [String: Any] = [
                "id": id, "title": title,
                "who": texts.text("invitationsProposalBy", ["name": found.attendeeName]),
                "now": when(found.invitation.start, found.invitation.end, allDay: found.invitation.allDay),
                "proposed": when(found.proposal.start, found.proposal.end, allDay: false),
                "comment": found.proposal.comment, "hasComment": !found.proposal.comment.isEmpty,
                "action": "/invitations/proposals/\(id)",
                "acceptLabel": texts.text("invitationsProposalAcceptLabel", ["title": title]),
                "declineLabel": texts.text("invitationsProposalDeclineLabel", ["title": title]),
            ]
            if let error = errors[found.invitation.id] { card["error"] = error }
            return card
        }
        var page: [String: Any] = [
            "invitations": cards, "empty": cards.isEmpty, "proposals": proposalCards, "hasProposals": !proposalCards.isEmpty,
        ]
        if let notice { page["notice"] = notice }
        return WebPage(template: "invitations", title: texts.text("invitationsTitle"), page: page, status: status, stylesheets: ["invitations.css"])
            .response(assets, viewer: viewer)
    }

    /// `13:05` in `zone`, as a time input takes it.
    static func clockText(_ date: Date, zone: TimeZone) -> String {
        var calendar = Foundation.Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        return String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
    }
}
