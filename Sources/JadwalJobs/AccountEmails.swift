import Foundation
import JadwalCore
import JadwalMail

/// The emails about the account itself, in the account's language: confirming a new sign-in
/// address, the notice to the old one, confirming a deletion, and the last email after it.
package struct AccountEmails: Sendable {
    package let publicURL: String
    package let from: MailAddress

    package init(publicURL: String, from: MailAddress) {
        self.publicURL = publicURL
        self.from = from
    }

    private func message(
        to address: EmailAddress, account: Account, subject: (en: String, ar: String), paragraphs: (en: [String], ar: [String]),
        link: (url: String, en: String, ar: String)?, footer: (en: String, ar: String)
    ) -> MailMessage {
        let arabic = account.language == .arabic
        let lines = arabic ? paragraphs.ar : paragraphs.en
        let closing = arabic ? footer.ar : footer.en
        var text = lines.joined(separator: "\n\n")
        if let link { text += "\n\n\(link.url)" }
        text += "\n\n" + closing
        let to = MailAddress(address.value, name: account.name.isEmpty ? nil : account.name)
        let html: String
        if let link {
            html = MailLayout.html(
                rtl: arabic, lang: arabic ? "ar" : "en", paragraphs: lines, link: link.url, linkText: arabic ? link.ar : link.en, footer: closing)
        } else {
            html = MailLayout.html(rtl: arabic, lang: arabic ? "ar" : "en", paragraphs: lines, link: publicURL + "/", linkText: arabic ? "افتح جدول" : "Open Jadwal",
                                   footer: closing)
        }
        return MailMessage(from: from, to: [to], subject: arabic ? subject.ar : subject.en, textBody: text, htmlBody: html)
    }

    /// To the new address: the link that makes it the account's sign-in address.
    package func emailChangeLink(token: SecretToken, account: Account, newEmail: EmailAddress) -> MailMessage {
        message(
            to: newEmail, account: account,
            subject: ("Confirm your new Jadwal sign-in address", "أكّد عنوان الدخول الجديد إلى جدول"),
            paragraphs: (
                en: ["Hello,", "You asked to sign in to Jadwal as \(newEmail.value) from now on, instead of \(account.email.value). Open this link to confirm (it works once, for 15 minutes):"],
                ar: ["مرحباً،", "طلبتَ أن تسجّل الدخول إلى جدول بالعنوان \(newEmail.value) بدلاً من \(account.email.value). افتح هذا الرابط للتأكيد (صالح لمرة واحدة خلال 15 دقيقة):"]),
            link: ("\(publicURL)/account/email?token=\(token.value)", "Confirm the new address", "تأكيد العنوان الجديد"),
            footer: ("If you did not ask for this, ignore this email: nothing changes.", "إن لم تطلب هذا فتجاهل الرسالة: لن يتغير شيء."))
    }

    /// To the new address when another account signs in with it: nothing changed.
    package func emailAddressTaken(account: Account, newEmail: EmailAddress) -> MailMessage {
        message(
            to: newEmail, account: account,
            subject: ("Your Jadwal address was not changed", "لم يتغير عنوانك في جدول"),
            paragraphs: (
                en: ["Hello,", "Someone asked to move a Jadwal account to \(newEmail.value), but this address already signs in to a Jadwal account of its own. Nothing was changed."],
                ar: ["مرحباً،", "طلب أحدهم نقل حساب في جدول إلى العنوان \(newEmail.value)، لكن هذا العنوان يدخل إلى حساب آخر في جدول. لم يتغير شيء."]),
            link: nil,
            footer: ("To move that account here, delete or rename the other one first.", "لنقل ذلك الحساب إلى هذا العنوان، احذف الحساب الآخر أو غيّر عنوانه أولاً."))
    }

    /// To the old address, once the change is made.
    package func emailChanged(account: Account, oldEmail: EmailAddress) -> MailMessage {
        message(
            to: oldEmail, account: account,
            subject: ("Your Jadwal sign-in address was changed", "تغيّر عنوان الدخول إلى جدول"),
            paragraphs: (
                en: ["Hello,", "Your Jadwal account now signs in as \(account.email.value), no longer as \(oldEmail.value).",
                     "Calendar apps that sync with an app password use the new address as their user name from now on."],
                ar: ["مرحباً،", "صار حسابك في جدول يسجّل الدخول بالعنوان \(account.email.value) بدلاً من \(oldEmail.value).",
                     "تطبيقات التقويم التي تتزامن بكلمة مرور تطبيق تستخدم العنوان الجديد اسمَ مستخدم من الآن."]),
            link: nil,
            footer: ("If you did not make this change, tell the person who runs this Jadwal server at once.", "إن لم تكن أنت من غيّره فأخبر مدير خادم جدول هذا فوراً."))
    }

    /// To the account's address: the link that deletes the account once confirmed.
    package func deletionLink(token: SecretToken, account: Account) -> MailMessage {
        message(
            to: account.email, account: account,
            subject: ("Confirm deleting your Jadwal account", "أكّد حذف حسابك في جدول"),
            paragraphs: (
                en: ["Hello,", "You asked to delete your Jadwal account \(account.email.value) with all its calendars, tasks, chats and settings. Open this link to confirm (it works once, for 15 minutes):"],
                ar: ["مرحباً،", "طلبتَ حذف حسابك في جدول \(account.email.value) مع كل تقاويمه ومهامه ومحادثاته وإعداداته. افتح هذا الرابط للتأكيد (صالح لمرة واحدة خلال 15 دقيقة):"]),
            link: ("\(publicURL)/account/delete?token=\(token.value)", "Delete my account", "احذف حسابي"),
            footer: ("If you did not ask for this, ignore this email: nothing is deleted.", "إن لم تطلب هذا فتجاهل الرسالة: لن يُحذف شيء."))
    }

    /// The last email, after everything is gone.
    package func accountDeleted(account: Account) -> MailMessage {
        message(
            to: account.email, account: account,
            subject: ("Your Jadwal account was deleted", "حُذف حسابك في جدول"),
            paragraphs: (
                en: ["Hello,", "Your Jadwal account \(account.email.value) and everything in it were deleted: calendars, tasks, routines, goals, chats, devices and settings. Calendar apps still set up for it can no longer sign in.",
                     "This is the last email Jadwal sends you."],
                ar: ["مرحباً،", "حُذف حسابك في جدول \(account.email.value) وكل ما فيه: التقاويم والمهام والروتين والأهداف والمحادثات والأجهزة والإعدادات. تطبيقات التقويم التي ما زالت مضبوطة عليه لم تعد تستطيع الدخول.",
                     "هذه آخر رسالة يرسلها إليك جدول."]),
            link: nil,
            footer: ("You can make a new account at any time by signing in again.", "يمكنك إنشاء حساب جديد متى شئت بتسجيل الدخول من جديد."))
    }
}
