import ArgumentParser
import Conversations
import Foundation
import JadwalCore
import JadwalLLM
import JadwalServer
import Logging
import Storage
import Synchronization

struct ImportChatCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-chat",
        abstract: "Import a WhatsApp \"Export chat\" .txt file for an account, and put what it agreed on their calendar.",
        discussion: """
            The times in the file are read in the account's time zone. The chat key is JADWAL_CHAT_KEY, \
            else the data directory's chat.key (the same one `jadwal serve` uses).
            """
    )

    @OptionGroup var storage: StorageOptions
    @Argument(help: "The export's .txt file.") var file: String
    @Option(help: "The account's email address.") var user: String
    @Option(help: "Which participant is the account's owner, as the file writes the name (default: the one matching the account's name).")
    var me: String?

    func run() async throws {
        let email = try parsedEmail(user)
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: file))
        } catch {
            throw OperatorError("cannot read \(file): \((error as NSError).localizedDescription)")
        }
        let environment = ProcessInfo.processInfo.environment
        var configuration = ServerConfiguration()
        storage.apply(to: &configuration, environment: environment)
        configuration.chatKey = environment["JADWAL_CHAT_KEY"].flatMap { $0.isEmpty ? nil : $0 }
        let cipher: MessageCipher
        do {
            cipher = try ChatKey.cipher(configuration)
        } catch {
            throw OperatorError("\(error)")
        }
        let progress = TerminalProgress()
        let file = self.file
        let me = self.me
        let publicURL = environment["JADWAL_PUBLIC_URL"] ?? ""
        // The same reader as the server's: the LLM in front of the rules when JADWAL_LLM_URL is set.
        let extractor = ChatExtractors.make(try ConfigurationValue.llm(environment: environment), logger: Logger(label: "jadwal"))
        let (chat, report) = try await storage.withStore { store in
            do {
                try await cipher.check(against: store)
                let account = try await Accounts(store: store, clock: .system, random: .system).account(email: email)
                let inbox = ChatInbox(store: store, clock: .system, random: .system, cipher: cipher, extractor: extractor, publicURL: publicURL)
                let result = try await inbox.importWhatsAppExport(data, accountID: account.id, me: me, progress: progress.show)
                progress.finish()
                return result
            } catch let problem as ChatImportProblem {
                progress.finish()
                throw OperatorError(problem, file: file)
            } catch let problem as MessageCipher.Problem {
                progress.finish()
                throw OperatorError(problem)
            }
        }

        let messages = report.messages
        print("\(file): \(chat.export.messages.count) messages in the file; \(messages.new) new, \(messages.duplicates) already imported, "
            + "\(messages.skipped) without text (media, deleted, notices)")
        print("you are \"\(chat.me)\"; the chat is with \(chat.others.map { "\"\($0)\"" }.joined(separator: ", "))")
        for conversation in report.conversations {
            var line = "conversation \(conversation.id.uuidString.lowercased()): \(conversation.state.rawValue)"
            if let plan = conversation.proposal { line += " — \(plan.title ?? "(no title)") \(plan.start ?? "(no time yet)")" }
            if conversation.awaitingExtraction { line += " (extraction is paused: it will be read when it resumes)" }
            print(line)
        }
        for event in report.events {
            print("event \(event.change.rawValue): \(event.title ?? "(no title)") \(event.start ?? "") (\(event.objectName))")
        }
        if report.conversations.isEmpty { print("nothing new to read") }
    }
}

/// A progress bar on standard error, drawn only when it is a terminal.
final class TerminalProgress: Sendable {
    private let enabled = isatty(STDERR_FILENO) == 1
    /// The last line drawn (phase and percent), to redraw only on change.
    private let drawn = Mutex<String?>(nil)

    var show: ChatInbox.ProgressHandler? {
        guard enabled else { return nil }
        return { [self] progress in draw(progress) }
    }

    /// A handler drawing (done, total) under one label.
    func counting(_ label: String) -> (@Sendable (Int, Int) -> Void)? {
        guard enabled else { return nil }
        return { [self] done, total in draw(label, done, total) }
    }

    private func draw(_ progress: ChatInbox.Progress) {
        switch progress {
        case .storing(let done, let total): draw("storing messages", done, total)
        case .reading(let done, let total): draw("reading conversations", done, total)
        }
    }

    private func draw(_ label: String, _ done: Int, _ total: Int) {
        guard total > 0 else { return }
        let percent = min(100, done * 100 / total)
        let key = "\(label) \(percent)"
        let changed = drawn.withLock { last in
            guard last != key else { return false }
            last = key
            return true
        }
        guard changed else { return }
        let width = 30
        let filled = percent * width / 100
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let line = "\r\u{1B}[2K\(label.padding(toLength: 22, withPad: " ", startingAt: 0)) [\(bar)] \(String(percent).leftPadded(3))%  \(done)/\(total)"
        FileHandle.standardError.write(Data(line.utf8))
    }

    /// Ends the bar's line, if one was drawn.
    func finish() {
        let hadLine = drawn.withLock { last in
            defer { last = nil }
            return last != nil
        }
        if enabled, hadLine { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
