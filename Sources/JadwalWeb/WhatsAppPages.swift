import Conversations
import Foundation
import Hummingbird
import JadwalCore
import JadwalHTTP
import PrayerTimes

/// Settings → Connect WhatsApp: import an export (the script sends it to the JSON API with a
/// progress bar; without the script the form posts here and the same import runs), the chats
/// Jadwal follows, chat settings, connector tokens and the Cloud API webhook's address.
package enum WhatsAppPages {
    package static let path = "/settings/whatsapp"

    package struct SettingsForm: Decodable {
        package var extractionPaused: String?
        package var allowGroups: String?
        package var retentionDays: String?
        package var meName: String?
        package var cloudAPIPhoneNumberID: String?
        package var eventMinutes: String?
        package var whatsAppHistoryDays: String?
    }

    package struct TokenForm: Decodable {
        package var name: String?
    }

    /// The text that explains an import error code to a person; nil when the API's own message is
    /// the best there is.
    package static func errorKey(code: String) -> String? {
        switch code {
        case "me_required": "whatsappErrorWhoIsMe"
        case "me_not_a_participant": "whatsappErrorNotParticipant"
        case "no_other_participant": "whatsappErrorNobodyElse"
        case "invalid_utf8", "empty_export", "not_a_whatsapp_export", "impossible_date", "inconsistent_date_order": "whatsappErrorNotExport"
        case "incomplete_zip", "zip64_not_supported", "damaged_zip", "unsupported_zip_compression", "no_chat_in_zip", "ambiguous_chat_in_zip":
            "whatsappErrorZip"
        case "file_too_large", "chat_too_large": "whatsappErrorTooLarge"
        case "missing_file", "invalid_multipart": "whatsappErrorNoFile"
        default: nil
        }
    }

    package static let errorCodes = [
        "me_required", "me_not_a_participant", "no_other_participant", "not_a_whatsapp_export", "no_chat_in_zip", "file_too_large", "missing_file",
    ]

    /// The calendar week an event is in: where to look for it.
    package static func calendarLink(start: String?) -> String? {
        guard let start, start.count >= 10 else { return nil }
        return "/calendar?view=week&date=" + start.prefix(10)
    }

    /// An import's report as the summary template shows it.
    package static func summary(_ view: ImportView, texts: [String: String]) -> [String: Any] {
        [
            "fileName": view.file.name ?? "",
            "me": view.file.me,
            "read": texts.text("whatsappSummaryMessages", [
                "count": String(view.file.messages), "new": String(view.messages.new), "duplicates": String(view.messages.duplicates),
                "skipped": String(view.messages.skipped),
            ]),
            "conversations": view.conversations.map { conversation -> [String: Any] in
                ["partner": conversation.partner, "state": texts.text("whatsappState_\(conversation.state.rawValue)"),
                 "paused": conversation.awaitingExtraction]
            },
            "events": view.events.map { event -> [String: Any] in
                ["title": event.title ?? texts.text("untitled"), "change": texts.text("whatsappChange_\(event.change.rawValue)"),
                 "start": event.start ?? "", "href": calendarLink(start: event.start) ?? "/calendar"]
            },
            "noEvents": view.events.isEmpty,
        ]
    }
}

extension WebRoutes {
    package func addWhatsAppRoutes(to group: RouterGroup<JadwalRequestContext>) {
        group.get("settings/whatsapp") { request, context -> Response in
            let query = request.uri.queryParameters
            let notice = ["saved": "whatsappSettingsSaved", "deleted": "whatsappChatDeleted", "revoked": "whatsappTokenRevoked"]
                .first { query.get($0.key) != nil }?.value
            return try await whatsAppPage(request, context, notice: notice)
        }
        // The form's way in when the script does not run: a multipart post (the middleware
        // checks the token in the action URL), imported by the API's own function.
        group.post("settings/whatsapp/import") { request, context -> Response in
            let account = try context.requireIdentity().account
            let texts = assets.texts(account.language)
            do {
                let view = try await ChatUpload.importing(request, limit: chatImportLimit, into: chats, accountID: account.id)
                return try await whatsAppPage(request, context, summary: WhatsAppPages.summary(view, texts: texts))
            } catch let problem as ChatImportProblem {
                return try await whatsAppPage(
                    request, context, status: problem.isTooLarge ? .contentTooLarge : problem.isWhoIsMe ? .conflict : .unprocessableContent,
                    importError: importError(
                        code: problem.code, message: problem.sentence, line: problem.line, participants: problem.participants, texts: texts))
            } catch let error as APIError {
                // The upload itself (too large, a malformed form): said by the shared upload reader.
                return try await whatsAppPage(
                    request, context, status: error.status,
                    importError: importError(code: error.code, message: error.message, line: nil, participants: nil, texts: texts))
            }
        }
        group.post("settings/whatsapp/settings") { request, context -> Response in
            let account = try context.requireIdentity().account
            let form = try context.form(WhatsAppPages.SettingsForm.self)
            let texts = assets.texts(account.language)
            let retention = (form.retentionDays ?? "").trimmingCharacters(in: .whitespaces)
            guard let days = Int(retention) else {
                return try await whatsAppPage(request, context, status: .unprocessableContent, settingsForm: form, errors: ["retentionDays": texts.text("whatsappErrorRetention")])
            }
            // Left out of the form (an older page): kept as it is.
            let minutesText = (form.eventMinutes ?? "").trimmingCharacters(in: .whitespaces)
            let minutes = Int(minutesText)
            guard minutesText.isEmpty || minutes != nil else {
                return try await whatsAppPage(request, context, status: .unprocessableContent, settingsForm: form, errors: ["eventMinutes": texts.text("whatsappError_eventMinutes")])
            }
            let historyText = (form.whatsAppHistoryDays ?? "").trimmingCharacters(in: .whitespaces)
            let historyDays = Int(historyText)
            guard historyText.isEmpty || historyDays != nil else {
                return try await whatsAppPage(
                    request, context, status: .unprocessableContent, settingsForm: form,
                    errors: ["whatsAppHistoryDays": texts.text("whatsappError_whatsAppHistoryDays")])
            }
            let change = ChatSettingsChange(
                extractionPaused: form.extractionPaused == "on", allowGroups: form.allowGroups == "on", retentionDays: days, meName: form.meName ?? "",
                cloudAPIPhoneNumberID: form.cloudAPIPhoneNumberID ?? "", eventMinutes: minutes, whatsAppHistoryDays: historyDays)
            do {
                _ = try await chats.updateSettings(change, accountID: account.id)
            } catch let problem as Chats.Problem {
                let shown = FieldProblem(problem)
                return try await whatsAppPage(request, context, status: .unprocessableContent, settingsForm: form, errors: [shown.field: texts.text(shown.key)])
            }
            return WebPage.redirect(WhatsAppPages.path + "?saved=1#chat-settings")
        }
        group.post("settings/whatsapp/chats/{id}/delete") { _, context -> Response in
            let accountID = try context.requireIdentity().account.id
            // Another person's chat is not found, exactly like one that never existed.
            guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)) else { throw HTTPError(.notFound, message: "No such chat.") }
            do {
                try await chats.forget(id: id, accountID: accountID)
            } catch Chats.Problem.noConversation {
                throw HTTPError(.notFound, message: "No such chat.")
            }
            return WebPage.redirect(WhatsAppPages.path + "?deleted=1#chats")
        }
        group.post("settings/whatsapp/tokens") { request, context -> Response in
            let account = try context.requireIdentity().account
            let form = try context.form(WhatsAppPages.TokenForm.self)
            do {
                let (token, secret) = try await chats.createConnectorToken(named: form.name ?? "", accountID: account.id)
                return try await whatsAppPage(request, context, newToken: (token.name, secret))
            } catch Chats.Problem.invalidTokenName {
                let texts = assets.texts(account.language)
                return try await whatsAppPage(request, context, status: .unprocessableContent, errors: ["tokenName": texts.text("whatsappErrorTokenName")])
            }
        }
        group.post("settings/whatsapp/tokens/{id}/revoke") { _, context -> Response in
            let accountID = try context.requireIdentity().account.id
            guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)) else { throw HTTPError(.notFound, message: "No such connector token.") }
            do {
                try await chats.revokeConnectorToken(id: id, accountID: accountID)
            } catch Chats.Problem.noConnectorToken {
                throw HTTPError(.notFound, message: "No such connector token.")
            }
            return WebPage.redirect(WhatsAppPages.path + "?revoked=1#connector")
        }
    }

    private func importError(code: String, message: String, line: Int?, participants: [String]?, texts: [String: String]) -> [String: Any] {
        var shown = WhatsAppPages.errorKey(code: code).map { texts.text($0) } ?? message
        if let line { shown += " " + texts.text("whatsappErrorLine", ["line": String(line)]) }
        var error: [String: Any] = ["code": code, "message": shown]
        if let participants, !participants.isEmpty {
            error["participants"] = participants.enumerated().map { ["name": $1, "id": "me-\($0)"] as [String: Any] }
            error["hasParticipants"] = true
        }
        return error
    }

    func whatsAppPage(
        _ request: Request, _ context: JadwalRequestContext, status: HTTPResponse.Status = .ok, notice: String? = nil, summary: [String: Any]? = nil,
        importError: [String: Any]? = nil, settingsForm: WhatsAppPages.SettingsForm? = nil, errors: [String: String] = [:],
        newToken: (name: String, secret: String)? = nil, linkForm: WhatsAppLinkPages.LinkForm? = nil, linkError: String? = nil
    ) async throws -> Response {
        let viewer = try await viewer(request, context)
        let account = try context.requireIdentity().account
        let texts = assets.texts(viewer.language)
        let conversations = try await chats.conversations(accountID: account.id)
        let settings = try await chats.settings(accountID: account.id)
        let tokens = try await chats.connectorTokens(accountID: account.id)
        let formats = WebFormats.shared(language: viewer.language, zone: TimeZone(identifier: account.timeZone) ?? .gmt)
        func when(_ date: Date) -> String {
            "\(formats.shortDay(LocalDate.today(in: formats.zone, now: date))) \(formats.time(date))"
        }
        let chats = conversations.map { conversation -> [String: Any] in
            let id = conversation.id.uuidString.lowercased()
            return [
                "id": id, "partner": conversation.partnerName, "state": texts.text("whatsappState_\(conversation.state.rawValue)"),
                "isGroup": conversation.isGroup, "source": texts.text("whatsappSource_\(conversation.source.rawValue)"),
                "last": when(conversation.lastActivityAt), "lastISO": ISO8601DateFormatter().string(from: conversation.lastActivityAt),
                "deleteAction": "\(WhatsAppPages.path)/chats/\(id)/delete",
                "confirm": texts.text("whatsappConfirmDelete", ["name": conversation.partnerName]),
                "events": conversation.events.map { link -> [String: Any] in
                    ["title": link.plan.title ?? texts.text("untitled"), "cancelled": link.status == .cancelled,
                     "href": EventPages.editPath(calendarID: link.calendarID, objectName: link.objectName)]
                },
            ]
        }
        let form = settingsForm ?? WhatsAppPages.SettingsForm(
            extractionPaused: settings.extractionPaused ? "on" : nil, allowGroups: settings.allowGroups ? "on" : nil,
            retentionDays: String(settings.retentionDays), meName: settings.meName ?? "", cloudAPIPhoneNumberID: settings.cloudAPIPhoneNumberID ?? "",
            eventMinutes: String(settings.eventMinutes), whatsAppHistoryDays: String(settings.whatsAppHistoryDays))
        let base = publicURL.hasSuffix("/") ? String(publicURL.dropLast()) : publicURL
        let connectorURL = base + "/api/v1/chats/messages"
        // Texts the script needs for what it shows after an upload through the API.
        var scriptTexts: [String: String] = [:]
        for code in WhatsAppPages.errorCodes { if let key = WhatsAppPages.errorKey(code: code) { scriptTexts["error_" + code] = texts.text(key) } }
        for state in ConversationState.allCases { scriptTexts["state_" + state.rawValue] = texts.text("whatsappState_\(state.rawValue)") }
        for change in ["created", "moved", "cancelled"] { scriptTexts["change_" + change] = texts.text("whatsappChange_\(change)") }
        for key in ["whatsappSummaryTitle", "whatsappYouAre", "whatsappSummaryMessages", "whatsappErrorLine", "whatsappUploadFailed", "untitled", "whatsappNoEvents", "whatsappSeeInCalendar"] {
            scriptTexts[key] = texts.text(key)
        }
        let scriptData = (try? JSONSerialization.data(withJSONObject: scriptTexts, options: [.sortedKeys])).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        var page: [String: Any] = [
            "importLimitMB": String(max(1, chatImportLimit >> 20)), "scriptTexts": scriptData,
            "chats": chats, "hasChats": !chats.isEmpty,
            "paused": form.extractionPaused == "on", "allowGroups": form.allowGroups == "on", "retentionDays": form.retentionDays ?? "",
            "retentionMin": ChatSettings.retentionLimit.lowerBound, "retentionMax": ChatSettings.retentionLimit.upperBound,
            "eventMinutes": form.eventMinutes ?? "", "eventMinutesMin": ChatSettings.eventMinutesLimit.lowerBound,
            "eventMinutesMax": ChatSettings.eventMinutesLimit.upperBound,
            "historyDays": form.whatsAppHistoryDays ?? "", "historyMin": ChatSettings.whatsAppHistoryDaysLimit.lowerBound,
            "historyMax": ChatSettings.whatsAppHistoryDaysLimit.upperBound,
            "meName": form.meName ?? "", "phoneNumberID": form.cloudAPIPhoneNumberID ?? "",
            "tokens": tokens.map { token -> [String: Any] in
                ["name": token.name, "created": when(token.createdAt), "lastUsed": token.lastUsedAt.map(when) ?? texts.text("whatsappTokenNeverUsed"),
                 "revokeAction": "\(WhatsAppPages.path)/tokens/\(token.id.uuidString.lowercased())/revoke",
                 "confirm": texts.text("whatsappConfirmRevoke", ["name": token.name])]
            },
            "hasTokens": !tokens.isEmpty,
            "connectorURL": connectorURL,
            "curl": "curl -X POST \(connectorURL) \\\n  -H 'Authorization: Bearer \(newToken?.secret ?? "jadwal_ct_…")' \\\n  -H 'Content-Type: application/json' \\\n"
                + "  -d '{\"messages\": [{\"chatId\": \"966500000001@c.us\", \"messageId\": \"3EB0A1\", \"sender\": \"Sara\", "
                + "\"fromMe\": false, \"timestamp\": \"2026-11-21T16:00:00+03:00\", \"text\": \"Dinner tomorrow at 8pm?\"}]}'",
            "webhookURL": base + "/" + HTTPPaths.whatsAppWebhook, "webhookConfigured": whatsAppWebhookConfigured,
            "errors": errors,
        ]
        page["link"] = try await whatsAppLinkSection(
            accountID: account.id, historyDays: settings.whatsAppHistoryDays, texts: texts, form: linkForm, error: linkError, time: { formats.time($0) })
        if let notice { page["notice"] = texts.text(notice) }
        if let summary { page["summary"] = summary }
        if let importError { page["importError"] = importError }
        if let newToken { page["newToken"] = ["name": newToken.name, "secret": newToken.secret] }
        return WebPage(
            template: "whatsapp", title: texts.text("whatsappTitle"), page: page, status: status, scripts: ["whatsapp.js"], stylesheets: ["connect.css"]
        ).response(assets, viewer: viewer)
    }
}
