import Foundation

/// A WhatsApp "Export chat" text file, read.
public struct WhatsAppExport: Sendable, Hashable {
    /// Every message in file order (never sorted: exports are not strictly chronological).
    public var messages: [ChatMessage]
    /// The senders of non-system messages, in order of first appearance.
    public var participants: [String]
    /// The date order the file was read with.
    public var dateOrder: DateOrder

    public init(messages: [ChatMessage], participants: [String], dateOrder: DateOrder) {
        self.messages = messages
        self.participants = participants
        self.dateOrder = dateOrder
    }
}

/// Reads the `.txt` of WhatsApp's "Export chat" (iOS `_chat.txt` or Android
/// `WhatsApp Chat with X.txt`) in every layout of `FORMATS.md`: iOS and Android headers,
/// 12/24-hour clocks, Arabic-Indic digits, invisible direction marks, multi-line messages,
/// placeholders and system lines; the day/month order is inferred once per file.
///
/// Exports carry no time zone: the times are the exporting phone's wall clock, read here in
/// `timeZone` (the user's profile zone).
public struct WhatsAppExportParser: Sendable {
    public var timeZone: TimeZone
    /// The order used when a file's dates fit both day/month and month/day equally well
    /// (every day and month ≤ 12, as in a one-day chat on 9/12). FORMATS.md: day/month/year.
    public var preferredDateOrder: DateOrder

    public init(timeZone: TimeZone, preferredDateOrder: DateOrder = .dayMonthYear) {
        self.timeZone = timeZone
        self.preferredDateOrder = preferredDateOrder
    }

    /// Parses the file's bytes: UTF-8, a byte order mark allowed.
    public func parse(_ data: Data) throws(WhatsAppExportError) -> WhatsAppExport {
        guard let text = String(validating: data, as: UTF8.self) else {
            throw Self.invalidUTF8Error(data)
        }
        return try parse(text: text)
    }

    /// Parses the file's bytes: UTF-8, a byte order mark allowed.
    public func parse(bytes: [UInt8]) throws(WhatsAppExportError) -> WhatsAppExport {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw Self.invalidUTF8Error(bytes)
        }
        return try parse(text: text)
    }

    /// Parses the file's text.
    public func parse(text: String) throws(WhatsAppExportError) -> WhatsAppExport {
        var text = text
        let result: Result<WhatsAppExport, WhatsAppExportError> = text.withUTF8 { buffer in
            Result { () throws(WhatsAppExportError) -> WhatsAppExport in try parse(buffer) }
        }
        return try result.get()
    }

    // MARK: the work

    private struct Pending {
        var header: DateOrderInference.Header
        /// End of the header line (where the sender split is searched).
        var headerLineEnd: Int
        /// End of the message's last line (its line break excluded).
        var end: Int
    }

    private func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(WhatsAppExportError) -> WhatsAppExport {
        let count = bytes.count
        var pending: [Pending] = []
        pending.reserveCapacity(count / 64)
        var lineNumber = 0
        var index = 0
        var sawText = false
        while index < count {
            lineNumber += 1
            let start = index
            var end = start
            while end < count, bytes[end] != 0x0A, bytes[end] != 0x0D { end += 1 }
            if end < count {
                index = (bytes[end] == 0x0D && end + 1 < count && bytes[end + 1] == 0x0A) ? end + 2 : end + 1
            } else {
                index = count
            }
            if let raw = HeaderScanner.scan(bytes, from: start, to: end) {
                pending.append(Pending(
                    header: DateOrderInference.Header(line: lineNumber, raw: raw), headerLineEnd: end, end: end))
                sawText = true
            } else if !pending.isEmpty {
                pending[pending.count - 1].end = end
            } else if !ExportBytes.isBlank(bytes, start, end) {
                throw WhatsAppExportError(line: lineNumber, reason: .notAnExport(excerpt: Self.excerpt(bytes, start, end)))
            }
        }
        guard sawText else { throw WhatsAppExportError(line: nil, reason: .empty) }

        let order = try DateOrderInference.infer(pending.map(\.header), preferred: preferredDateOrder)
        var resolver = WallClockResolver(zone: timeZone)
        var scratch: [UInt8] = []
        scratch.reserveCapacity(1024)
        var messages: [ChatMessage] = []
        messages.reserveCapacity(pending.count)
        var participants: [String] = []
        var seenParticipants: Set<String> = []

        for item in pending {
            let raw = item.header.raw
            let (year, month, day) = DateOrderInference.date(raw, order)
            guard let local = LocalDateTime(
                year: year, month: month, day: day, hour: raw.hour, minute: raw.minute, second: raw.second)
            else {
                throw WhatsAppExportError(line: item.header.line, reason: .impossibleDate(date: raw.dateText))
            }
            let timestamp = Date(timeIntervalSince1970: TimeInterval(resolver.instant(for: local)))

            // "sender: body" splits at the first ": " of the header line; no ": " is a system line.
            var sender: String?
            var bodyStart = raw.restStart
            if let colon = Self.firstColonSpace(bytes, raw.restStart, item.headerLineEnd) {
                let name = ExportBytes.sender(bytes, raw.restStart, colon, scratch: &scratch)
                if !name.isEmpty {
                    sender = name
                    bodyStart = colon + 2
                }
            }
            let markedStart = ExportBytes.ignorableLength(bytes, bodyStart, item.end) > 0
            let body = ExportBytes.text(bytes, bodyStart, item.end, into: &scratch)

            let message: ChatMessage
            if sender == nil || BodyClassifier.isSystemNotice(scratch[body], markedStart: markedStart) {
                message = ChatMessage(
                    sender: nil, localTime: local, timestamp: timestamp, kind: .system,
                    text: String(decoding: scratch[body], as: UTF8.self), line: item.header.line)
            } else {
                let found = BodyClassifier.classify(scratch[body], android: !raw.bracketed)
                message = ChatMessage(
                    sender: sender, localTime: local, timestamp: timestamp, kind: found.kind,
                    text: String(decoding: scratch[found.text], as: UTF8.self),
                    edited: found.edited, media: found.media, line: item.header.line)
                if let sender, seenParticipants.insert(sender).inserted { participants.append(sender) }
            }
            messages.append(message)
        }
        let fileOrder = pending.contains(where: { !$0.header.raw.yearFirst }) ? order : .yearMonthDay
        return WhatsAppExport(messages: messages, participants: participants, dateOrder: fileOrder)
    }

    private static func firstColonSpace(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int? {
        var index = start
        while index + 1 < end {
            if bytes[index] == 0x3A, bytes[index + 1] == 0x20 { return index }
            index += 1
        }
        return nil
    }

    /// The start of a line for an error message: at most 60 characters, marks dropped.
    private static func excerpt(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> String {
        var scratch: [UInt8] = []
        let range = ExportBytes.text(bytes, start, end, into: &scratch)
        let line = String(decoding: scratch[range], as: UTF8.self)
        return line.count > 60 ? String(line.prefix(60)) + "…" : line
    }

    private static func invalidUTF8Error(_ bytes: some Collection<UInt8>) -> WhatsAppExportError {
        let offset = ExportBytes.firstInvalidUTF8Offset(bytes) ?? 0
        var line = 1
        var previousWasCR = false
        for byte in bytes.prefix(offset) {
            if byte == 0x0A {
                if !previousWasCR { line += 1 }
                previousWasCR = false
            } else if byte == 0x0D {
                line += 1
                previousWasCR = true
            } else {
                previousWasCR = false
            }
        }
        return WhatsAppExportError(line: line, reason: .invalidUTF8(byteOffset: offset))
    }
}
