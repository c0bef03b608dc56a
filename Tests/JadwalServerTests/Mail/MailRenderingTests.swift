import Foundation
import Logging
import Testing

#if canImport(JadwalMail)
@testable import JadwalMail
#else
@testable import JadwalServer
import JadwalCore
@testable import JadwalHTTP
@testable import JadwalAPI
@testable import JadwalWeb
@testable import JadwalCalDAV
@testable import JadwalPush
@testable import JadwalLLM
@testable import JadwalJobs
#endif
import JadwalTestSupport

@Suite("Mail rendering (RFC 5322, MIME, RFC 2047)")
struct MailRenderingTests {
    static let date = Date(timeIntervalSince1970: 1_795_000_000)
    static let arabicSubject = "تذكير: اجتماع العائلة يوم الجمعة بعد صلاة العصر في بيت الجدة 👨‍👩‍👧‍👦 — لا تنسوا الحلويات والقهوة العربية"

    static func arabicMessage(html: String? = "<p dir=\"rtl\">مرحبا <b>فاطمة</b></p>") -> MailMessage {
        MailMessage(
            from: MailAddress("jadwal@example.com", name: "جدول — التقويم"),
            to: [
                MailAddress("fatima@example.org", name: "فاطمة الزهراء بنت محمد"),
                MailAddress("bob@example.org", name: "Bob \"The Builder\" O'Neil"),
                MailAddress("carol@example.org"),
            ],
            subject: arabicSubject,
            textBody: "مرحبا فاطمة،\nرابط الدخول: https://jadwal.example/login?token=abc\n",
            htmlBody: html
        )
    }

    @Test func crlfEverywhere() {
        for message in [Self.arabicMessage(), Self.arabicMessage(html: nil)] {
            let text = message.rendered(date: Self.date, messageID: "<m1@example.com>")
            let bytes = Array(text.utf8)
            for (i, byte) in bytes.enumerated() {
                if byte == 0x0A { #expect(i > 0 && bytes[i - 1] == 0x0D, "bare LF at \(i)") }
                if byte == 0x0D { #expect(i + 1 < bytes.count && bytes[i + 1] == 0x0A, "bare CR at \(i)") }
            }
            #expect(text.hasSuffix("\r\n"))
            for line in text.components(separatedBy: "\r\n") {
                #expect(line.utf8.count <= 998)
            }
        }
    }

    @Test func encodedSubjectIsFoldedWithinLimitsAndDecodesBack() throws {
        let text = Self.arabicMessage().rendered(date: Self.date, messageID: "m1@example.com")
        let headers = MailTestText.headerLines(text)
        let subjectStart = try #require(headers.firstIndex { $0.hasPrefix("Subject: ") })
        var subjectLines = [headers[subjectStart]]
        for line in headers[(subjectStart + 1)...] {
            guard line.hasPrefix(" ") else { break }
            subjectLines.append(line)
        }
        #expect(subjectLines.count > 2, "a long Arabic subject needs several encoded-words")
        for line in subjectLines {
            #expect(line.count <= 76, "line too long: \(line)")
            #expect(line.allSatisfy { $0.isASCII })
            let words = line.split(separator: " ").filter { $0.hasPrefix("=?") }
            #expect(words.count == 1)
            for word in words { #expect(word.count <= 75) }
        }
        let value = try #require(MailTestText.header("Subject", in: text))
        #expect(MailTestText.decodeEncodedWords(value) == Self.arabicSubject)
        // Every header line carrying an encoded-word stays within 76 characters.
        for line in headers where line.contains("=?") {
            #expect(line.count <= 76, "line too long: \(line)")
        }
    }

    @Test func displayNamesAreEncodedOrQuoted() throws {
        let text = Self.arabicMessage().rendered(date: Self.date, messageID: "m1@example.com")
        let from = try #require(MailTestText.header("From", in: text))
        #expect(from.hasSuffix("<jadwal@example.com>"))
        #expect(MailTestText.decodeEncodedWords(from) == "جدول — التقويم <jadwal@example.com>")
        let to = try #require(MailTestText.header("To", in: text))
        #expect(to.contains(#""Bob \"The Builder\" O'Neil" <bob@example.org>,"#))
        #expect(to.hasSuffix(", carol@example.org"))
        let decoded = try #require(MailTestText.decodeEncodedWords(to))
        #expect(decoded.hasPrefix("فاطمة الزهراء بنت محمد <fatima@example.org>, "))
    }

    @Test func longDisplayNamesAreSplitAtSpaces() throws {
        let name = "فاطمة الزهراء بنت محمد عبد الله الأنصاري من مدينة الرياض"
        var message = Self.arabicMessage(html: nil)
        message.to = [MailAddress("fatima@example.org", name: name), MailAddress("x@example.org", name: name)]
        let text = message.rendered(date: Self.date, messageID: "m1@example.com")
        let headers = MailTestText.headerLines(text)
        let start = try #require(headers.firstIndex { $0.hasPrefix("To:") })
        var lines = [headers[start]]
        for line in headers[(start + 1)...] {
            guard line.hasPrefix(" ") else { break }
            lines.append(line)
        }
        var words: [Substring] = []
        for line in lines {
            #expect(line.count <= 76, "\(line)")
            words += line.split(separator: " ").filter { $0.hasPrefix("=?") }
        }
        #expect(words.count >= 4)
        for word in words {
            #expect(word.count <= 75)
            // Each piece is whole words: it ends with a space unless it ends the name.
            let piece = try #require(MailTestText.decodeEncodedWords(String(word)))
            #expect(piece.hasSuffix(" ") || name.hasSuffix(piece), "\(piece)")
        }
        let to = try #require(MailTestText.header("To", in: text))
        #expect(MailTestText.decodeEncodedWords(to) == "\(name) <fatima@example.org>, \(name) <x@example.org>")
    }

    @Test func plainASCIISubjectStaysReadable() {
        var message = Self.arabicMessage(html: nil)
        message.subject = "Your Jadwal login link"
        message.from = MailAddress("jadwal@example.com", name: "Jadwal")
        let text = message.rendered(date: Self.date, messageID: "m1@example.com")
        let headers = MailTestText.headerLines(text)
        #expect(headers.contains("Subject: Your Jadwal login link"))
        #expect(headers.contains("From: Jadwal <jadwal@example.com>"))
        #expect(headers.contains("Date: Wed, 18 Nov 2026 11:06:40 +0000"))
        #expect(headers.contains("Message-ID: <m1@example.com>"))
        #expect(headers.contains("MIME-Version: 1.0"))
        #expect(headers.contains("Content-Type: text/plain; charset=utf-8"))
    }

    @Test func longASCIISubjectIsFoldedAtSpaces() throws {
        var message = Self.arabicMessage(html: nil)
        message.subject = (1...20).map { "word\($0)" }.joined(separator: " ") + " https://jadwal.example/a/very/long/path/that/cannot/be/broken"
        let text = message.rendered(date: Self.date, messageID: "m@x")
        let headers = MailTestText.headerLines(text)
        let start = try #require(headers.firstIndex { $0.hasPrefix("Subject: word1 ") })
        #expect(headers[start + 1].hasPrefix(" "), "a subject this long is folded")
        for line in headers[start...] where line == headers[start] || line.hasPrefix(" ") {
            #expect(line.count <= 78 || !line.dropFirst().contains(" "), "\(line)")
        }
        #expect(MailTestText.header("Subject", in: text) == message.subject)
    }

    @Test func newlinesInHeadersCannotInjectHeaders() {
        var message = Self.arabicMessage(html: nil)
        message.subject = "Hello\r\nBcc: victim@example.net"
        message.to = [MailAddress("a@example.org", name: "Eve\nX-Evil: 1")]
        let headers = MailTestText.headerLines(message.rendered(date: Self.date, messageID: "m@x"))
        #expect(!headers.contains { $0.hasPrefix("Bcc:") || $0.hasPrefix("X-Evil:") })
        #expect(headers.allSatisfy { !$0.isEmpty })
    }

    @Test func multipartBoundaryNeverOccursInContent() throws {
        let first = Self.arabicMessage().rendered(date: Self.date, messageID: "m1@example.com")
        let contentType = try #require(MailTestText.header("Content-Type", in: first))
        #expect(contentType.hasPrefix("multipart/alternative; boundary=\""))
        let boundary = try #require(contentType.split(separator: "\"").dropFirst().first.map(String.init))

        // The same message (same seed) whose body contains that boundary must choose another one.
        var tricky = Self.arabicMessage(html: "<p>--\(boundary)</p>")
        tricky.textBody = "--\(boundary)\n--\(boundary)--\n"
        let second = tricky.rendered(date: Self.date, messageID: "m1@example.com")
        let secondType = try #require(MailTestText.header("Content-Type", in: second))
        let secondBoundary = try #require(secondType.split(separator: "\"").dropFirst().first.map(String.init))
        #expect(secondBoundary != boundary)
        let delimiterLines = second.components(separatedBy: "\r\n").filter { $0.hasPrefix("--" + secondBoundary) }
        #expect(delimiterLines == ["--" + secondBoundary, "--" + secondBoundary, "--" + secondBoundary + "--"])
        for body in [tricky.textBody, tricky.htmlBody ?? ""] { #expect(!body.contains(secondBoundary)) }
    }

    @Test func bodyEncodingsStayWithinLineLimits() {
        let long = String(repeating: "Prayer times for the week — مواقيت الصلاة ", count: 8) + "end with space "
        let qp = MIMEEncoding.quotedPrintable(MIMEEncoding.normalizeLineEndings("plain = sign\n" + long))
        for line in qp.components(separatedBy: "\r\n") {
            #expect(line.count <= 76, "\(line)")
            #expect(line.allSatisfy { $0.isASCII })
        }
        #expect(qp.hasPrefix("plain =3D sign\r\n"))
        #expect(qp.hasSuffix("=20"), "trailing whitespace must be encoded")
        #expect(MailTestText.decodeQuotedPrintable(qp) == "plain = sign\r\n" + long)

        let body = MIMEBody(MIMEEncoding.normalizeLineEndings("نص عربي بالكامل تقريبا\n"))
        #expect(body.transferEncoding == .base64)
        #expect(body.encoded.components(separatedBy: "\r\n").allSatisfy { $0.count <= 76 })
        #expect(MIMEBody("ascii only\r\n.dot line\r\n").transferEncoding == .sevenBit)
    }

    @Test func dotStuffing() {
        let stuffed = String(decoding: MIMEEncoding.dotStuffed(".first\r\nmiddle\r\n.\r\n..two\r\nlast"), as: UTF8.self)
        #expect(stuffed == "..first\r\nmiddle\r\n..\r\n...two\r\nlast\r\n")
        #expect(String(decoding: MIMEEncoding.dotStuffed("ends\r\n"), as: UTF8.self) == "ends\r\n")
    }

    @Test func lineEndingsAreNormalized() {
        #expect(MIMEEncoding.normalizeLineEndings("a\nb\r\nc\rd\n\ne") == "a\r\nb\r\nc\r\nd\r\n\r\ne")
    }

    @Test func replyParserAssemblesMultilineReplies() throws {
        var parser = SMTPReplyParser()
        #expect(try parser.feed("250-mail.example.org") == nil)
        #expect(try parser.feed("250-AUTH PLAIN LOGIN") == nil)
        let reply = try #require(try parser.feed("250 STARTTLS"))
        #expect(reply.code == 250)
        #expect(reply.lines == ["mail.example.org", "AUTH PLAIN LOGIN", "STARTTLS"])
        let bare = try #require(try parser.feed("221"))
        #expect(bare.code == 221 && bare.lines == [""])
    }

    @Test func replyParserRejectsGarbage() {
        var parser = SMTPReplyParser()
        #expect(throws: SMTPError.self) { try parser.feed("hello") }
        var mixed = SMTPReplyParser()
        _ = try? mixed.feed("250-first")
        #expect(throws: SMTPError.self) { try mixed.feed("354 second") }
        var badSeparator = SMTPReplyParser()
        #expect(throws: SMTPError.self) { try badSeparator.feed("250xyz") }
    }

    @Test func addressesThatCouldInjectCommandsAreRefused() {
        for bad in ["a@b.c>\r\nRCPT TO:<x@y.z", "a b@c.d", "a@b.c> SIZE=1", "nobody", "@x.y", "a@"] {
            #expect(throws: SMTPError.self, "\(bad.debugDescription)") { try SMTPClient.validateAddress(bad) }
        }
        #expect(throws: Never.self) { try SMTPClient.validateAddress("fatima.al-ansari+cal@example.org") }
    }

    @Test func logTransportPrintsTheLinkAtNotice() async throws {
        let store = CapturingLogHandler.Store()
        let logger = Logger(label: "mail-test") { _ in CapturingLogHandler(store: store) }
        try await LogMailTransport(logger: logger).send(MailMessage(
            from: MailAddress("jadwal@example.com"),
            to: [MailAddress("fatima@example.org", name: "فاطمة")],
            subject: "رابط الدخول",
            textBody: "Open https://jadwal.example/login/abc123 within 15 minutes."
        ))
        let records = store.records
        #expect(records.count == 1)
        let record = try #require(records.first)
        #expect(record.level == .notice)
        #expect(record.message.contains("https://jadwal.example/login/abc123"))
        #expect(record.message.contains("فاطمة <fatima@example.org>"))
        #expect(record.message.contains("رابط الدخول"))
    }
}
