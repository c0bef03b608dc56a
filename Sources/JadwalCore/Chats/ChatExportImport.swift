import Conversations
import Foundation

/// Why an export cannot be imported, in words a person can act on.
public enum ChatImportProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file is not a readable WhatsApp export (with the line, when there is one).
    case unreadable(WhatsAppExportError)
    /// The file is a `.zip` whose chat text cannot be found or read.
    case archive(WhatsAppExportArchiveError)
    /// Nobody in the chat matches the account's name: which participant is the account's owner?
    case whoIsMe(participants: [String])
    /// The name given as `me` is not among the chat's participants.
    case notAParticipant(String, participants: [String])
    /// Only the account's owner wrote in this chat: there is nobody to agree with.
    case nobodyElse(me: String)

    public var description: String {
        switch self {
        case .unreadable(let error):
            return error.description
        case .archive(let error):
            return error.description
        case .whoIsMe(let participants):
            return "which participant are you? None of \(Self.list(participants)) matches your account's name; "
                + "say which one with the `me` parameter (or set `meName` in the chat settings)"
        case .notAParticipant(let name, let participants):
            return "\"\(name)\" did not write in this chat; the participants are \(Self.list(participants))"
        case .nobodyElse(let me):
            return "only \(me) wrote in this chat, so there is no one to agree with; export a chat with replies"
        }
    }

    /// The participants to choose from, when the problem is about who is who.
    public var participants: [String]? {
        switch self {
        case .whoIsMe(let participants), .notAParticipant(_, let participants): participants
        default: nil
        }
    }

    static func list(_ names: [String]) -> String { names.map { "\"\($0)\"" }.joined(separator: ", ") }

    /// A short stable code for the problem, the same in the API's answers and the web's texts.
    public var code: String {
        switch self {
        case .unreadable(let error), .archive(.export(_, let error)):
            switch error.reason {
            case .invalidUTF8: "invalid_utf8"
            case .empty: "empty_export"
            case .notAnExport: "not_a_whatsapp_export"
            case .impossibleDate: "impossible_date"
            case .inconsistentDateOrder: "inconsistent_date_order"
            }
        case .archive(.notACompleteZip): "incomplete_zip"
        case .archive(.zip64): "zip64_not_supported"
        case .archive(.damagedEntry): "damaged_zip"
        case .archive(.unsupportedCompression): "unsupported_zip_compression"
        case .archive(.noChatText): "no_chat_in_zip"
        case .archive(.ambiguousChatText): "ambiguous_chat_in_zip"
        case .archive(.chatTextTooLarge): "chat_too_large"
        case .whoIsMe: "me_required"
        case .notAParticipant: "me_not_a_participant"
        case .nobodyElse: "no_other_participant"
        }
    }

    /// The export's line the problem is on, when there is one.
    public var line: Int? {
        switch self {
        case .unreadable(let error), .archive(.export(_, let error)): error.line
        default: nil
        }
    }

    /// The chat's text is larger than an import takes.
    public var isTooLarge: Bool {
        if case .archive(.chatTextTooLarge) = self { return true }
        return false
    }

    /// The person must say which participant they are (a question, not a fault of the file).
    public var isWhoIsMe: Bool {
        if case .whoIsMe = self { return true }
        return false
    }

    /// The description as a sentence a person reads: capitalised, with a full stop.
    public var sentence: String {
        switch self {
        case .whoIsMe:
            "Which participant are you? None matches your account's name. Send ?me=<name> (or the form field 'me') with one of the participants."
        case .notAParticipant(let name, _):
            "\"\(name)\" did not write in this chat. Send ?me=<name> with one of the participants."
        default:
            description.asSentence
        }
    }
}

/// A WhatsApp export turned into incoming messages: which participant is the account's owner,
/// who the chat is with, and a stable id for every message so importing the same (or a longer)
/// export again finds the messages it already has.
public struct ChatExportImport: Sendable {
    public let export: WhatsAppExport
    /// The participant who is the account's owner, as the file writes the name.
    public let me: String

    /// Picks `me`: the name asked for, else the settings' name, else the account's name; a name
    /// matches a participant when they are equal ignoring case and spacing.
    public init(export: WhatsAppExport, requestedMe: String?, settingsName: String?, accountName: String) throws(ChatImportProblem) {
        self.export = export
        let participants = export.participants
        if let requested = requestedMe?.trimmingCharacters(in: .whitespacesAndNewlines), !requested.isEmpty {
            guard let found = Self.participant(named: requested, in: participants) else {
                throw .notAParticipant(requested, participants: participants)
            }
            me = found
        } else if let found = [settingsName, accountName].lazy.compactMap({ $0 }).compactMap({ Self.participant(named: $0, in: participants) }).first {
            me = found
        } else {
            throw .whoIsMe(participants: participants)
        }
        guard participants.contains(where: { $0 != me }) else { throw .nobodyElse(me: me) }
    }

    /// The other participants: the person the chat is with, or a group's members.
    public var others: [String] { export.participants.filter { $0 != me } }

    /// The export's messages with words in them, as a batch for `ChatInbox`.
    public var messages: [IncomingChatMessage] {
        let others = self.others
        let key = others.sorted().joined(separator: ", ")
        let isGroup = others.count > 1
        var occurrences: [String: Int] = [:]
        var result: [IncomingChatMessage] = []
        result.reserveCapacity(export.messages.count)
        for message in export.messages {
            guard let sender = message.sender, message.kind == .text || message.kind == .media else { continue }
            guard !message.text.isBlank else { continue }
            // Exports carry no message ids: the sender, the wall time and the text make one. The
            // n-th identical message of a minute ("ok", "ok") gets its number, which a longer
            // export of the same chat reproduces.
            let digest = [sender, message.localTime.description, message.kind.rawValue, message.text].joined(separator: "\u{1F}").sha256Hex
            let base = "wa-export:" + digest.prefix(40)
            let seen = occurrences[base, default: 0] + 1
            occurrences[base] = seen
            result.append(IncomingChatMessage(
                chatKey: key, chatName: key, isGroup: isGroup, externalID: seen == 1 ? base : "\(base)#\(seen)", sender: sender,
                fromMe: sender == me, sentAt: message.timestamp, kind: message.kind, text: message.text))
        }
        return result
    }

    static func participant(named name: String, in participants: [String]) -> String? {
        let wanted = fold(name)
        return participants.first { fold($0) == wanted }
    }

    static func fold(_ name: String) -> String {
        name.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            .folding(options: [.caseInsensitive, .widthInsensitive], locale: nil)
    }
}

extension ChatInbox {
    /// Reads a WhatsApp export, the `.txt` or the `.zip` WhatsApp makes with media (its times in
    /// the account's zone), works out which participant is the account's owner, and receives its
    /// messages.
    public func importWhatsAppExport(
        _ data: Data, accountID: UUID, me requestedMe: String?, progress: ProgressHandler? = nil
    ) async throws -> (import: ChatExportImport, report: Report) {
        guard let (account, settings) = try await store.read({ tx -> (Account, ChatSettings)? in
            guard let account = try await tx.account(id: accountID) else { return nil }
            return (account, try await tx.chatSettings(accountID: accountID))
        }) else { throw Failure.unknownAccount }
        // The export is read in the exporter's zone, which is the account's.
        let parser = WhatsAppExportParser(timeZone: TimeZone(identifier: account.timeZone) ?? .gmt)
        let export: WhatsAppExport
        if WhatsAppExportArchive.isZip(data) {
            do throws(WhatsAppExportArchiveError) {
                export = try parser.parse(zip: data)
            } catch {
                throw ChatImportProblem.archive(error)
            }
        } else {
            do throws(WhatsAppExportError) {
                export = try parser.parse(data)
            } catch {
                throw ChatImportProblem.unreadable(error)
            }
        }
        let chat = try ChatExportImport(export: export, requestedMe: requestedMe, settingsName: settings.meName, accountName: account.displayName)
        let report = try await receive(chat.messages, source: .export, accountID: accountID, progress: progress)
        return (chat, report)
    }
}
