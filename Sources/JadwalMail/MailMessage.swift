import Foundation
import JadwalCore

/// A mailbox: an address with an optional display name ("فاطمة الزهراء <fatima@example.com>").
public struct MailAddress: Sendable, Codable, Hashable {
    public var name: String?
    public var email: String

    public init(_ email: String, name: String? = nil) {
        self.email = email
        self.name = name
    }
}

/// An email with a plain-text body, an optional HTML alternative, and optionally a meeting
/// (iMIP, RFC 6047).
public struct MailMessage: Sendable, Codable, Hashable {
    public var from: MailAddress
    public var to: [MailAddress]
    public var subject: String
    public var textBody: String
    public var htmlBody: String?
    /// Where answers by email go, when not to `from` (an invitation sent for its organizer).
    public var replyTo: MailAddress?
    /// An iTIP message: a `text/calendar; method=…` alternative that mail apps show as an
    /// invitation, and the same file attached as `invite.ics`.
    public var calendar: CalendarPart?

    /// The calendar of an iMIP email.
    public struct CalendarPart: Sendable, Codable, Hashable {
        /// The iTIP method (REQUEST, REPLY, CANCEL, …), repeated in the Content-Type (RFC 6047 §2.4).
        public var method: String
        /// The METHOD calendar, as iCalendar text.
        public var text: String

        public init(method: String, text: String) {
            self.method = method
            self.text = text
        }
    }

    public init(
        from: MailAddress, to: [MailAddress], subject: String, textBody: String, htmlBody: String? = nil, replyTo: MailAddress? = nil,
        calendar: CalendarPart? = nil
    ) {
        self.from = from
        self.to = to
        self.subject = subject
        self.textBody = textBody
        self.htmlBody = htmlBody
        self.replyTo = replyTo
        self.calendar = calendar
    }

    /// The RFC 5322 message with MIME parts (CRLF line ends, dot-stuffing NOT applied here).
    ///
    /// Non-ASCII subjects and display names become RFC 2047 encoded-words, folded so that no
    /// header line is longer than 76 characters. Bodies are sent as 7bit when they are plain
    /// short-lined ASCII, otherwise as quoted-printable (mostly-ASCII text) or base64 (mostly
    /// non-ASCII text, e.g. Arabic). With an HTML body the message is `multipart/alternative`.
    public func rendered(date: Date, messageID: String) -> String {
        let text = MIMEBody(MIMEEncoding.normalizeLineEndings(textBody))
        let html = htmlBody.map { MIMEBody(MIMEEncoding.normalizeLineEndings($0)) }

        var headers: [String] = []
        headers.append("Date: " + MIMEEncoding.rfc5322Date(date))
        headers.append(MIMEEncoding.addressHeader(name: "From", addresses: [from]))
        headers.append(MIMEEncoding.addressHeader(name: "To", addresses: to))
        if let replyTo { headers.append(MIMEEncoding.addressHeader(name: "Reply-To", addresses: [replyTo])) }
        headers.append(MIMEEncoding.unstructuredHeader(name: "Subject", value: subject))
        headers.append("Message-ID: " + MIMEEncoding.messageIDHeaderValue(messageID))
        headers.append("MIME-Version: 1.0")

        var out = ""
        if let calendar {
            out = headers.joined(separator: "\r\n") + "\r\n"
            out += Self.invitationParts(calendar, text: text, html: html, seed: messageID + "\u{0}" + subject)
        } else if let html {
            let boundary = MIMEEncoding.boundary(
                seed: messageID + "\u{0}" + subject,
                avoiding: [text.encoded, html.encoded]
            )
            headers.append("Content-Type: multipart/alternative; boundary=\"\(boundary)\"")
            out += headers.joined(separator: "\r\n") + "\r\n\r\n"
            out += "This is a multi-part message in MIME format.\r\n"
            for (part, subtype) in [(text, "plain"), (html, "html")] {
                out += "\r\n--\(boundary)\r\n"
                out += "Content-Type: text/\(subtype); charset=utf-8\r\n"
                out += "Content-Transfer-Encoding: \(part.transferEncoding.rawValue)\r\n\r\n"
                out += part.encoded
            }
            out += "\r\n--\(boundary)--\r\n"
        } else {
            headers.append("Content-Type: text/plain; charset=utf-8")
            headers.append("Content-Transfer-Encoding: \(text.transferEncoding.rawValue)")
            out += headers.joined(separator: "\r\n") + "\r\n\r\n"
            out += text.encoded
            if !out.hasSuffix("\r\n") { out += "\r\n" }
        }
        return out
    }

    /// The body of an iMIP email (RFC 6047 §2.4, as the big mail services write it): a mixed
    /// message holding the alternatives — text, HTML, and the calendar with its method, which
    /// mail apps offer to add — then the same calendar attached as `invite.ics`.
    static func invitationParts(_ calendar: CalendarPart, text: MIMEBody, html: MIMEBody?, seed: String) -> String {
        let ics = MIMEBody(MIMEEncoding.normalizeLineEndings(calendar.text))
        let attachment = MIMEEncoding.base64Lines(Array(calendar.text.utf8))
        let method = calendar.method.uppercased().filter { $0.isLetter }
        let alternative = MIMEEncoding.boundary(seed: seed + "\u{1}", avoiding: [text.encoded, html?.encoded ?? "", ics.encoded])
        let mixed = MIMEEncoding.boundary(seed: seed + "\u{2}", avoiding: [text.encoded, html?.encoded ?? "", ics.encoded, attachment, alternative])
        var out = "Content-Type: multipart/mixed; boundary=\"\(mixed)\"\r\n\r\n"
        out += "This is a multi-part message in MIME format.\r\n"
        out += "\r\n--\(mixed)\r\nContent-Type: multipart/alternative; boundary=\"\(alternative)\"\r\n\r\n"
        var parts: [(MIMEBody, String)] = [(text, "text/plain; charset=utf-8")]
        if let html { parts.append((html, "text/html; charset=utf-8")) }
        parts.append((ics, "text/calendar; charset=utf-8; method=\(method)"))
        for (part, type) in parts {
            out += "--\(alternative)\r\n"
            out += "Content-Type: \(type)\r\n"
            out += "Content-Transfer-Encoding: \(part.transferEncoding.rawValue)\r\n\r\n"
            out += part.encoded + "\r\n"
        }
        out += "--\(alternative)--\r\n"
        out += "\r\n--\(mixed)\r\n"
        out += "Content-Type: application/ics; name=\"invite.ics\"\r\n"
        out += "Content-Disposition: attachment; filename=\"invite.ics\"\r\n"
        out += "Content-Transfer-Encoding: base64\r\n\r\n"
        out += attachment + "\r\n"
        out += "--\(mixed)--\r\n"
        return out
    }
}

/// Something that delivers mail: SMTP in production, the log when no mail server is configured.
public protocol MailTransport: Sendable {
    func send(_ message: MailMessage) async throws
}

/// One text part, encoded for transport. `encoded` has CRLF line ends and no trailing CRLF.
package struct MIMEBody {
    package enum TransferEncoding: String {
        case sevenBit = "7bit"
        case quotedPrintable = "quoted-printable"
        case base64 = "base64"
    }

    package var transferEncoding: TransferEncoding
    package var encoded: String

    /// `text` must already have CRLF line ends.
    package init(_ text: String) {
        let bytes = Array(text.utf8)
        let nonASCII = bytes.filter { $0 >= 0x80 }.count
        if MIMEEncoding.isSevenBitSafe(text) {
            transferEncoding = .sevenBit
            encoded = text
        } else if nonASCII * 3 > bytes.count {
            transferEncoding = .base64
            encoded = MIMEEncoding.base64Lines(bytes)
        } else {
            transferEncoding = .quotedPrintable
            encoded = MIMEEncoding.quotedPrintable(text)
        }
    }
}
