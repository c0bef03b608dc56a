import Foundation
import JadwalCore
import JadwalHTTP
import JadwalMail
import JadwalPush

/// The `notification.email` job: one notification as an email, in the person's language
/// (Arabic right to left). The delivery is claimed before sending, so a retried or repeated job
/// never mails the same notification twice; a failed send gives the claim back for the retry.
package enum NotificationEmail {
    package static let channel = "email"

    package static func handler(notifications: Notifications, transport: any MailTransport, from: MailAddress, publicURL: String) -> JobHandlers.Handler {
        { job in
            let request = try NotificationChannel.request(of: job)
            guard let (notification, account) = try await notifications.claim(request, channel: channel) else { return }
            do {
                try await transport.send(message(notification, account: account, from: from, publicURL: publicURL))
            } catch {
                try? await notifications.release(notification, channel: channel)
                if let smtp = error as? SMTPError, smtp.isPermanent { throw PermanentJobFailure(description: smtp.description) }
                throw error
            }
        }
    }

    package static func message(_ notification: AccountNotification, account: Account, from: MailAddress, publicURL: String) -> MailMessage {
        let arabic = account.language == .arabic
        let to = MailAddress(account.email.value, name: account.name.isEmpty ? nil : account.name)
        let link = notification.links["url"] ?? publicURL + "/"
        let footer = arabic
            ? "تصلك هذه الرسالة لأنك اخترت البريد لهذا النوع من التنبيهات في إعدادات جدول."
            : "You get this email because you chose email for this kind of notification in Jadwal's settings."
        let open = arabic ? "افتح جدول" : "Open Jadwal"
        return MailMessage(
            from: from, to: [to], subject: notification.title,
            textBody: "\(notification.title)\n\n\(notification.body)\n\n\(link)\n\n\(footer)\n",
            htmlBody: MailLayout.html(
                rtl: arabic, lang: arabic ? "ar" : "en", paragraphs: [notification.title, notification.body], link: link, linkText: open, footer: footer))
    }
}

/// What the channel jobs share: reading their payload.
package enum NotificationChannel {
    package static func request(of job: Job) throws -> NotificationDispatch.ChannelRequest {
        do {
            return try JSONDecoder().decode(NotificationDispatch.ChannelRequest.self, from: Data(job.payload.utf8))
        } catch {
            throw PermanentJobFailure(description: "\(job.kind) payload cannot be read: \(error)")
        }
    }
}
