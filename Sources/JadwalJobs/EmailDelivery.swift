import Foundation
import JadwalCore
import JadwalHTTP
import JadwalMail
import JadwalPush

/// The `email.send` job: one message, delivered through the configured transport. Messages that
/// carry a secret (a sign-in link) are sealed in the queue.
package enum EmailDelivery {
    package static let kind: JobKind = "email.send"

    package struct Payload: Codable {
        package var message: MailMessage?
        package var sealed: String?
    }

    package static func job(_ message: MailMessage, sealWith sealer: PayloadSealer?, now: Date, random: RandomSource, maxAttempts: Int = 8) throws -> Job {
        let encoded = try JSONEncoder().encode(message)
        let payload = try sealer.map { Payload(message: nil, sealed: try $0.seal(encoded)) } ?? Payload(message: message, sealed: nil)
        return Job.new(kind, payload: String(decoding: try JSONEncoder().encode(payload), as: UTF8.self), maxAttempts: maxAttempts, runAt: now, now: now, id: random.uuid())
    }

    package static func handler(transport: any MailTransport, sealer: PayloadSealer) -> JobHandlers.Handler {
        { job in
            let message: MailMessage
            do {
                let payload = try JSONDecoder().decode(Payload.self, from: Data(job.payload.utf8))
                if let sealed = payload.sealed {
                    message = try JSONDecoder().decode(MailMessage.self, from: try sealer.open(sealed))
                } else if let plain = payload.message {
                    message = plain
                } else {
                    throw PermanentJobFailure(description: "email job has no message")
                }
            } catch let failure as PermanentJobFailure {
                throw failure
            } catch {
                // A key change (new JADWAL_SECRET_KEY) makes old sealed jobs unreadable: no retry helps.
                throw PermanentJobFailure(description: "email job payload cannot be read: \(error)")
            }
            do {
                try await transport.send(message)
            } catch let error as SMTPError where error.isPermanent {
                throw PermanentJobFailure(description: error.description)
            }
        }
    }
}

/// The texts of sign-in emails, in the account's language.
package struct SignInEmails: Sendable {
    package let publicURL: String
    package let from: MailAddress

    package init(publicURL: String, from: MailAddress) {
        self.publicURL = publicURL
        self.from = from
    }

    package func magicLink(token: SecretToken, email: EmailAddress, account: Account?) -> MailMessage {
        let link = "\(publicURL)/auth/magic?token=\(token.value)"
        let to = MailAddress(email.value, name: account.flatMap { $0.name.isEmpty ? nil : $0.name })
        if account?.language == .arabic {
            return MailMessage(
                from: from, to: [to], subject: "رابط تسجيل الدخول إلى جدول",
                textBody: """
                    مرحباً،

                    لتسجيل الدخول إلى جدول افتح هذا الرابط (صالح لمدة 15 دقيقة ولمرة واحدة):

                    \(link)

                    إن لم تطلب هذا الرابط فتجاهل هذه الرسالة.
                    """,
                htmlBody: MailLayout.html(rtl: true, lang: "ar", paragraphs: [
                    "مرحباً،", "لتسجيل الدخول إلى جدول افتح هذا الرابط (صالح لمدة 15 دقيقة ولمرة واحدة):",
                ], link: link, linkText: "تسجيل الدخول", footer: "إن لم تطلب هذا الرابط فتجاهل هذه الرسالة.")
            )
        }
        return MailMessage(
            from: from, to: [to], subject: "Your Jadwal sign-in link",
            textBody: """
                Hello,

                Open this link to sign in to Jadwal (it works once, for 15 minutes):

                \(link)

                If you did not ask for it, ignore this email.
                """,
            htmlBody: MailLayout.html(rtl: false, lang: "en", paragraphs: [
                "Hello,", "Open this link to sign in to Jadwal (it works once, for 15 minutes):",
            ], link: link, linkText: "Sign in to Jadwal", footer: "If you did not ask for it, ignore this email.")
        )
    }

    package func welcome(account: Account) -> MailMessage {
        let to = MailAddress(account.email.value, name: account.name.isEmpty ? nil : account.name)
        return MailMessage(
            from: from, to: [to], subject: "Welcome to Jadwal — أهلاً بك في جدول",
            textBody: """
                Welcome to Jadwal, \(account.displayName)!

                Your calendar server is ready at \(publicURL)/.
                Next: set your time zone and connect your phone's calendar.

                أهلاً بك في جدول! خادم تقويمك جاهز على \(publicURL)/
                """,
            htmlBody: MailLayout.html(rtl: false, lang: "en", paragraphs: [
                "Welcome to Jadwal, \(account.displayName)!", "Your calendar server is ready. Next: set your time zone and connect your phone's calendar.",
            ], link: "\(publicURL)/", linkText: "Open Jadwal", footer: "أهلاً بك في جدول!")
        )
    }
}

/// The HTML around every email Jadwal sends: one column, a button, the link spelled out, a
/// footer; right-to-left for Arabic.
package enum MailLayout {
    package static func html(rtl: Bool, lang: String, paragraphs: [String], link: String, linkText: String, footer: String) -> String {
        let body = paragraphs.map { "<p>\(escape($0))</p>" }.joined(separator: "\n")
        return """
            <!doctype html>
            <html lang="\(lang)" dir="\(rtl ? "rtl" : "ltr")"><head><meta charset="utf-8"></head>
            <body style="font-family: sans-serif; line-height: 1.5">
            \(body)
            <p><a href="\(escape(link))" style="display:inline-block;padding:10px 16px;background:#0b6e4f;color:#fff;text-decoration:none;border-radius:6px">\(escape(linkText))</a></p>
            <p style="font-size: 90%; color: #555">\(escape(link))</p>
            <p style="font-size: 90%; color: #555">\(escape(footer))</p>
            </body></html>
            """
    }

    package static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}
