// libFuzzer entry point for WhatsApp "Export chat" files, the .txt and the .zip (issue 22).
// Built together with Sources/Conversations (see README.md), so it reaches internal types
// (ZipLayout) directly; ZIPFoundation is compiled from its checkout with the same sanitizers.
//
// The first byte picks the reading: bit 0 the preferred date order, bits 1-2 the time zone
// (UTC, Asia/Riyadh, America/New_York, Australia/Lord_Howe). The rest is the upload, routed as
// the server routes it (`WhatsAppExportArchive.isZip`): a zip goes through ZipLayout and
// WhatsAppExportArchive (ZIPFoundation, bounded inflate, CRC check) into the text parser, anything
// else straight into WhatsAppExportParser (UTF-8 check, headers, date-order inference,
// multi-line messages). Whatever parses is walked: the messages are checked for the parser's
// promises and the last ones are read by the rule extractor, as an import does.
// Any crash, hang, sanitizer report or failed check is a finding.

import Foundation

private struct NoPrayerTimes: PrayerTimetable {
    func adhan(_ prayer: PrayerAnchor, on day: LocalDateTime) -> (hour: Int, minute: Int)? {
        switch prayer {
        case .fajr: (4, 30)
        case .dhuhr: (12, 5)
        case .asr: (15, 20)
        case .maghrib: (18, 10)
        case .isha: (19, 40)
        }
    }

    func isRamadan(_ day: LocalDateTime) -> Bool { day.month == 3 }
}

private let zones: [TimeZone] = ["UTC", "Asia/Riyadh", "America/New_York", "Australia/Lord_Howe"].map {
    guard let zone = TimeZone(identifier: $0) else { fatalError("no time zone \($0) on this machine") }
    return zone
}

private let extractor = RuleExtractor()
private let now = Date(timeIntervalSince1970: 1_795_266_000)

private func fail(_ message: String) -> Never {
    fatalError("fuzz check failed: \(message)")
}

private func walk(_ export: WhatsAppExport, zone: TimeZone) {
    var senders: [String] = []
    var seen = Set<String>()
    var lastLine = 0
    for message in export.messages {
        if let line = message.line {
            guard line > lastLine else { fail("message lines are not increasing: \(line) after \(lastLine)") }
            lastLine = line
        }
        if message.kind != .system, let sender = message.sender, seen.insert(sender).inserted {
            senders.append(sender)
        }
        _ = message.localTime
        _ = message.timestamp.timeIntervalSince1970
    }
    guard senders == export.participants else { fail("participants \(export.participants) are not the senders \(senders)") }
    _ = export.dateOrder
    let context = ExtractionContext(timeZone: zone, now: now, prayerTimes: NoPrayerTimes())
    _ = extractor.outcomeNow(of: Array(export.messages.suffix(40)), context: context)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWhatsAppExport(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 1 else { return 0 }
    let order: DateOrder = data[0] & 1 == 0 ? .dayMonthYear : .monthDayYear
    let zone = zones[Int(data[0] >> 1) % zones.count]
    let upload = Data(bytes: data + 1, count: size - 1)
    let parser = WhatsAppExportParser(timeZone: zone, preferredDateOrder: order)
    if WhatsAppExportArchive.isZip(upload) {
        // The layout check is what keeps ZIPFoundation's traps away; look at it on its own too.
        if let layout = try? ZipLayout(upload) {
            for item in layout.items {
                guard item.dataStart >= 0, item.dataStart + item.compressedSize <= upload.count else {
                    fail("ZipLayout accepted an entry outside the archive: \(item)")
                }
            }
        }
        // 4 MiB instead of the default 200 MB, so the run is not an out-of-memory test of the limit.
        guard let export = try? parser.parse(zip: upload, maximumChatTextSize: 4 << 20) else { return 0 }
        walk(export, zone: zone)
    } else {
        guard let export = try? parser.parse(upload) else { return 0 }
        // The three ways in must agree.
        if let text = String(validating: upload, as: UTF8.self) {
            guard let again = try? parser.parse(text: text), again == export else { fail("parse(text:) differs from parse(_ data:)") }
        }
        walk(export, zone: zone)
    }
    return 0
}
