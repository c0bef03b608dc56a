import Foundation
import JadwalCore
import JadwalHTTP
import JadwalMail

/// The `invitation.email` job: an invitation, update, cancellation or answer emailed to someone
/// outside the server (iMIP, RFC 6047), in their language, with the meeting attached and — for
/// an invitation — answer links that work once. What became of it is recorded on the
/// organizer's copy (SCHEDULE-STATUS 1.1 sent, 5.1 refused for good).
package enum InvitationEmail {
    package static func handler(invitations: Invitations, transport: any MailTransport, from: MailAddress, publicURL: String) -> JobHandlers.Handler {
        { job in
            guard let request = InvitationMail.request(of: job) else {
                throw PermanentJobFailure(description: "invitation email job payload cannot be read")
            }
            guard let content = try await invitations.mail(for: request, publicURL: publicURL) else { return }
            do {
                try await transport.send(message(content, from: from))
            } catch let error as SMTPError where error.isPermanent {
                try? await invitations.recordMail(request, sent: false)
                throw PermanentJobFailure(description: error.description)
            }
            try await invitations.recordMail(request, sent: true)
        }
    }

    /// The email: from the server's address under the sender's name, answers by email to the
    /// sender; the text, the HTML with one button per answer, and the calendar.
    package static func message(_ content: InvitationMailContent, from: MailAddress) -> MailMessage {
        let arabic = content.language == .arabic
        let via = arabic ? "\(content.senderName) عبر جدول" : "\(content.senderName) via Jadwal"
        var text = content.paragraphs.joined(separator: "\n\n")
        var buttons: [(link: String, text: String)] = []
        if let links = content.links {
            let words = arabic ? ("أقبل", "ربما", "أعتذر") : ("Accept", "Maybe", "Decline")
            buttons = [(links.accept, words.0), (links.tentative, words.1), (links.decline, words.2)]
            text += "\n\n" + buttons.map { "\($0.text): \($0.link)" }.joined(separator: "\n")
        }
        text += "\n\n" + content.footer + "\n"
        return MailMessage(
            from: MailAddress(from.email, name: via), to: [MailAddress(content.to, name: content.toName)], subject: content.subject, textBody: text,
            htmlBody: MailLayout.html(rtl: arabic, lang: arabic ? "ar" : "en", paragraphs: content.paragraphs, buttons: buttons, footer: content.footer),
            replyTo: MailAddress(content.senderEmail, name: content.senderName),
            calendar: MailMessage.CalendarPart(method: content.method.rawValue, text: content.icalendar))
    }
}

extension MailLayout {
    /// The layout with a row of buttons (none for a message that asks nothing).
    package static func html(rtl: Bool, lang: String, paragraphs: [String], buttons: [(link: String, text: String)], footer: String) -> String {
        let body = paragraphs.map { "<p>\(escape($0))</p>" }.joined(separator: "\n")
        let row = buttons.map { button in
            "<a href=\"\(escape(button.link))\" style=\"display:inline-block;margin:4px;padding:10px 16px;background:#0b6e4f;color:#fff;text-decoration:none;border-radius:6px\">\(escape(button.text))</a>"
        }.joined(separator: "\n")
        return """
            <!doctype html>
            <html lang="\(lang)" dir="\(rtl ? "rtl" : "ltr")"><head><meta charset="utf-8"></head>
            <body style="font-family: sans-serif; line-height: 1.5">
            \(body)
            \(row.isEmpty ? "" : "<p>\(row)</p>")
            <p style="font-size: 90%; color: #555">\(escape(footer))</p>
            </body></html>
            """
    }
}
