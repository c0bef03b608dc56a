import Foundation
import JadwalCore
import JadwalTestSupport
import Storage
import Testing

/// `jadwal import-chat` as an operator runs it: the real binary, its own process.
@Suite("jadwal import-chat", .serialized)
struct ChatCommandTests {
    /// The CLI runs on the real clock: the chat is from today (in Riyadh), so "tomorrow" is ahead.
    static let riyadh: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Asia/Riyadh")!
        return calendar
    }()

    static func day(_ offset: Int, _ format: String) -> String {
        let date = riyadh.date(byAdding: .day, value: offset, to: Date())!
        let parts = riyadh.dateComponents([.year, .month, .day], from: date)
        let (y, m, d) = (parts.year!, parts.month!, parts.day!)
        func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return format == "export" ? "\(pad(d))/\(pad(m))/\(y)" : "\(y)\(pad(m))\(pad(d))"
    }

    static var export: String {
        """
        \(day(0, "export")), 00:01 - Sara Ahmed: Dinner tomorrow at 8pm at Nando's?
        \(day(0, "export")), 00:02 - Omar: Deal 👍
        """
    }

    func run(_ arguments: [String], in dir: URL, expectSuccess: Bool = true) async throws -> String {
        let child = try ProcessTests.Child(ProcessTests.binary, arguments + ["--data-dir", dir.path])
        child.process.waitUntilExit()
        try await Task.sleep(for: .milliseconds(50))
        if expectSuccess {
            try #require(child.process.terminationStatus == 0, "\(arguments): \(child.text)")
        } else {
            #expect(child.process.terminationStatus != 0, "\(arguments): \(child.text)")
        }
        return child.text
    }

    @Test("imports an export for an account through the same inbox as the server; errors name the file and line")
    func importChat() async throws {
        let dir = try TestEnvironment.temporaryDirectory("jadwal-import-chat")
        let file = dir.appendingPathComponent("WhatsApp Chat with Sara Ahmed.txt")
        try Data(Self.export.utf8).write(to: file)
        _ = try await run(["user", "create", "omar@example.com", "--name", "Omar", "--time-zone", "Asia/Riyadh"], in: dir)

        let first = try await run(["import-chat", file.path, "--user", "omar@example.com"], in: dir)
        #expect(first.contains("2 new") && first.contains("you are \"Omar\"") && first.contains("HAS_EVENT_AGREED"), "\(first)")
        #expect(first.contains("event created: Dinner"), "\(first)")
        #expect(!first.contains("\u{1B}["), "no progress bar when stderr is not a terminal")
        let again = try await run(["import-chat", file.path, "--user", "omar@example.com"], in: dir)
        #expect(again.contains("0 new, 2 already imported") && again.contains("nothing new to read"), "\(again)")

        let key = dir.appendingPathComponent("chat.key")
        #expect((try FileManager.default.attributesOfItem(atPath: key.path)[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let store = try SQLStore(location: .sqlite(path: dir.appendingPathComponent("jadwal.sqlite").path), logger: TestEnvironment.logger)
        let account = try #require(try await store.read { tx in try await tx.account(email: try EmailAddress("omar@example.com")) })
        let events = try await store.read { tx -> [CalendarObject] in
            guard let calendar = try await tx.calendar(accountID: account.id, slug: DefaultCalendars.chatEventsSlug) else { return [] }
            return try await tx.calendarObjects(calendarID: calendar.id)
        }
        #expect(events.count == 1 && events.first?.icalendar.contains("DTSTART;TZID=Asia/Riyadh:\(Self.day(1, "ical"))T200000") == true)
        try await store.shutdown()

        // On a terminal (util-linux `script` gives the command one), a progress bar on standard error.
        let longer = dir.appendingPathComponent("longer.txt")
        try Data((Self.export + "\n\(Self.day(0, "export")), 00:05 - Sara Ahmed: Sorry, I have to cancel dinner tomorrow").utf8).write(to: longer)
        let command = [ProcessTests.binary.path, "import-chat", longer.path, "--user", "omar@example.com", "--data-dir", dir.path]
            .map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let terminal = try ProcessTests.Child(URL(fileURLWithPath: "/usr/bin/script"), ["-qec", command, "/dev/null"])
        terminal.process.waitUntilExit()
        try await Task.sleep(for: .milliseconds(50))
        #expect(terminal.process.terminationStatus == 0, "\(terminal.text)")
        #expect(terminal.text.contains("storing messages") && terminal.text.contains("[##############################] 100%"), "\(terminal.text)")
        #expect(terminal.text.contains("1 new, 2 already imported") && terminal.text.contains("event cancelled: Dinner"), "\(terminal.text)")

        let bad = dir.appendingPathComponent("notes.txt")
        try Data("Shopping list\n- milk\n".utf8).write(to: bad)
        let refused = try await run(["import-chat", bad.path, "--user", "omar@example.com"], in: dir, expectSuccess: false)
        #expect(refused.contains("\(bad.path):1: this does not look like a WhatsApp export"), "\(refused)")
        let cutZip = dir.appendingPathComponent("WhatsApp Chat - Sara.zip")
        try Data([0x50, 0x4B, 0x03, 0x04, 0x14, 0x00]).write(to: cutZip)
        let damaged = try await run(["import-chat", cutZip.path, "--user", "omar@example.com"], in: dir, expectSuccess: false)
        #expect(damaged.contains("\(cutZip.path): the file is not a complete zip archive"), "\(damaged)")
        let who = try await run(["import-chat", file.path, "--user", "omar@example.com", "--me", "Layla"], in: dir, expectSuccess: false)
        #expect(who.contains("\"Layla\" did not write in this chat") && who.contains("--me"), "\(who)")
        let nobody = try await run(["import-chat", file.path, "--user", "nobody@example.com"], in: dir, expectSuccess: false)
        #expect(nobody.contains("no account for nobody@example.com"), "\(nobody)")
        let missing = try await run(["import-chat", dir.appendingPathComponent("missing.txt").path, "--user", "omar@example.com"], in: dir, expectSuccess: false)
        #expect(missing.contains("cannot read"), "\(missing)")
    }
}
