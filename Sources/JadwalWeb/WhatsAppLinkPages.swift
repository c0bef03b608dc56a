import Foundation
import Hummingbird
import JadwalCore
import JadwalHTTP

/// Settings → Connect WhatsApp → Link with phone number: ask for a code, see it with the steps
/// to enter it, and follow the link's state (the page's script asks `link/state` while waiting).
package enum WhatsAppLinkPages {
    package struct LinkForm: Decodable {
        package var phone: String?
        /// `qr` to link by scanning a QR code; else a pairing code for `phone`.
        package var method: String?
    }

    /// How long asking for a code waits for WhatsApp's answer before showing the page without it.
    static let codeWait: Duration = .seconds(20)

    /// The section's values for the template.
    static func section(
        _ link: WhatsAppLink?, bridgeRunning: Bool, historyDays: Int, texts: [String: String], form: LinkForm?, error: String?, time: (Date) -> String
    ) -> [String: Any] {
        var section: [String: Any] = [
            "bridgeRunning": bridgeRunning, "state": link?.state.rawValue ?? "none",
            "phone": form?.phone ?? link.flatMap { $0.usesQR ? nil : "+" + $0.phone } ?? "",
            "historyHint": texts.text("whatsappLinkHistoryHint", ["days": String(historyDays)]),
        ]
        if let error { section["phoneError"] = error }
        guard let link else {
            section["showForm"] = true
            return section
        }
        switch link.state {
        case .waiting:
            section["waiting"] = true
            if let qr = link.qr, let svg = QRCode.svg(qr, title: texts.text("whatsappLinkQRTitle")) {
                section["qrSVG"] = svg
                section["qrStamp"] = qrStamp(qr)
            }
            if let code = link.code {
                section["code"] = code.count == 8 && !code.contains("-") ? code.prefix(4) + "-" + code.suffix(4) : code
                section["expiresAt"] = ISO8601DateFormatter().string(from: link.expiresAt)
                section["expiresAtShown"] = time(link.expiresAt)
            }
        case .linked:
            section["linked"] = true
            section["linkedAs"] = texts.text("whatsappLinkLinkedAs", ["number": "+" + (link.jid.map { String($0.prefix { $0 != "@" }) } ?? link.phone)])
        case .failed, .expired, .cancelled:
            section["showForm"] = true
            let reason = link.reason ?? ""
            let message: String? = switch link.state {
            case .expired: texts.text(link.usesQR ? "whatsappLinkQRExpired" : "whatsappLinkExpired")
            case .failed where reason == "logged_out": texts.text("whatsappLinkLoggedOut")
            case .failed where reason.lowercased().contains("phone") || reason.lowercased().contains("number"):
                texts.text("whatsappLinkWrongNumber", ["reason": reason])
            case .failed: texts.text("whatsappLinkFailed", ["reason": reason])
            default: nil
            }
            if let message { section["ended"] = message }
        }
        return section
    }

    /// A short name for the QR code shown, so the page's script sees when WhatsApp turned it.
    static func qrStamp(_ payload: String) -> String {
        String(payload.sha256Hex.prefix(12))
    }
}

extension WebRoutes {
    package func addWhatsAppLinkRoutes(to group: RouterGroup<JadwalRequestContext>) {
        group.post("settings/whatsapp/link") { request, context -> Response in
            let account = try context.requireIdentity().account
            guard let whatsAppLinks, bridgeRunning else { throw HTTPError(.notFound, message: "This server does not run the WhatsApp bridge.") }
            let form = try context.form(WhatsAppLinkPages.LinkForm.self)
            let texts = assets.texts(account.language)
            let method: WhatsAppLinks.Method = form.method == "qr" ? .qr : .pairingCode(phone: form.phone ?? "")
            do {
                // The days of history read are the chat setting's.
                let started = try await whatsAppLinks.start(method, historyDays: nil, accountID: account.id)
                _ = try await whatsAppLinks.awaitCode(attempt: started.attempt, accountID: account.id, timeout: WhatsAppLinkPages.codeWait)
            } catch WhatsAppLinks.Problem.invalidPhone {
                return try await whatsAppPage(request, context, status: .unprocessableContent, linkForm: form, linkError: texts.text("whatsappLinkErrorPhone"))
            } catch WhatsAppLinks.Problem.alreadyLinked {
                // Linked in another tab meanwhile: the page shows it.
            }
            return WebPage.redirect(WhatsAppPages.path + "#link")
        }
        group.post("settings/whatsapp/link/cancel") { _, context -> Response in
            let account = try context.requireIdentity().account
            guard let whatsAppLinks else { throw HTTPError(.notFound, message: "This server does not run the WhatsApp bridge.") }
            do {
                _ = try await whatsAppLinks.cancel(accountID: account.id)
            } catch WhatsAppLinks.Problem.noLink {
                // Already ended (expired, logged out): nothing to cancel.
            }
            return WebPage.redirect(WhatsAppPages.path + "#link")
        }
        // What the page's script follows while a code waits: only the state, so it knows when to reload.
        group.get("settings/whatsapp/link/state") { _, context -> Response in
            let account = try context.requireIdentity().account
            guard let whatsAppLinks else { throw HTTPError(.notFound, message: "This server does not run the WhatsApp bridge.") }
            let state: String
            do {
                let link = try await whatsAppLinks.status(accountID: account.id)
                // A QR code that turned is a new state to show.
                state = switch (link.state, link.code, link.qr) {
                case (.waiting, nil, nil): "asking"
                case (.waiting, _, let qr?): "qr-" + WhatsAppLinkPages.qrStamp(qr)
                default: link.state.rawValue
                }
            } catch WhatsAppLinks.Problem.noLink {
                state = "none"
            }
            var headers = HTTPFields()
            headers[.contentType] = "application/json"
            headers[.cacheControl] = "no-store"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: #"{"state":"\#(state)"}"#)))
        }
    }

    func whatsAppLinkSection(
        accountID: UUID, historyDays: Int, texts: [String: String], form: WhatsAppLinkPages.LinkForm?, error: String?, time: (Date) -> String
    ) async throws -> [String: Any] {
        guard let whatsAppLinks else {
            return WhatsAppLinkPages.section(nil, bridgeRunning: false, historyDays: historyDays, texts: texts, form: form, error: error, time: time)
        }
        let link: WhatsAppLink?
        do {
            link = try await whatsAppLinks.status(accountID: accountID)
        } catch WhatsAppLinks.Problem.noLink {
            link = nil
        }
        return WhatsAppLinkPages.section(link, bridgeRunning: bridgeRunning, historyDays: historyDays, texts: texts, form: form, error: error, time: time)
    }
}
