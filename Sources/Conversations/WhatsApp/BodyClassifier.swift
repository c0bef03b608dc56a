/// Reads the placeholders and markers WhatsApp writes into a message body (FORMATS.md §4):
/// media left out or attached, deleted messages, the "edited" marker, view-once media and the
/// system notices iOS attributes to a person. Works on the body's UTF-8 (exact byte matches:
/// WhatsApp writes these strings verbatim), so a 100,000-message export costs no String work.
enum BodyClassifier {
    struct Result: Equatable {
        var kind: ChatMessage.Kind
        var media: ChatMessage.Media?
        /// The part of the body that is the message's text (all of it, a caption, or nothing).
        var text: Range<Int>
        var edited: Bool
    }

    /// - Parameters:
    ///   - body: the body with marks dropped, lines joined by "\n", trimmed (`ExportBytes.text`).
    ///   - android: the header had the Android layout.
    static func classify(_ body: ArraySlice<UInt8>, android: Bool) -> Result {
        var end = body.endIndex
        var edited = false
        for marker in editedMarkers where hasSuffix(body[..<end], marker) {
            end -= marker.count
            while end > body.startIndex, body[end - 1] == 0x20 || body[end - 1] == 0x0A || body[end - 1] == 0x09 {
                end -= 1
            }
            edited = true
            break
        }
        let whole = body.startIndex..<end
        let newline = body[whole].firstIndex(of: 0x0A)
        let firstLine = body[body.startIndex..<(newline ?? end)]
        var captionStart = newline ?? end
        while captionStart < end, body[captionStart] == 0x0A || body[captionStart] == 0x20 { captionStart += 1 }
        let caption = captionStart..<end
        let empty = end..<end

        // Placeholders are short; a long first line is text, whatever it ends with.
        guard firstLine.count <= 160 else { return Result(kind: .text, media: nil, text: whole, edited: edited) }

        if newline == nil, deleted.contains(where: { $0.elementsEqual(firstLine) }) {
            return Result(kind: .deleted, media: nil, text: empty, edited: edited)
        }
        if let (_, media) = omitted.first(where: { $0.0.elementsEqual(firstLine) }) {
            return Result(kind: .media, media: media, text: caption, edited: edited)
        }
        if android, newline == nil, firstLine.elementsEqual(nullBody) {
            return Result(kind: .media, media: .viewOnce, text: empty, edited: edited)
        }
        if hasPrefix(firstLine, attachedPrefix), firstLine.last == 0x3E { // <attached: NAME>
            let name = firstLine.dropFirst(attachedPrefix.count).dropLast()
            return Result(kind: .media, media: mediaType(fileName: name), text: caption, edited: edited)
        }
        for suffix in attachedSuffixes where hasSuffix(firstLine, suffix) {
            let name = firstLine.dropLast(suffix.count)
            if name.contains(0x2E) { // a file name has an extension
                return Result(kind: .media, media: mediaType(fileName: name), text: caption, edited: edited)
            }
        }
        for suffix in documentOmittedSuffixes where hasSuffix(firstLine, suffix) {
            return Result(kind: .media, media: .document, text: caption, edited: edited)
        }
        return Result(kind: .text, media: nil, text: whole, edited: edited)
    }

    /// A body that is a WhatsApp notice although iOS puts a sender before it. The encryption
    /// notice is recognised by its words alone; the others only after an invisible mark, so a
    /// person typing "Missed voice call" is still a person.
    static func isSystemNotice(_ body: ArraySlice<UInt8>, markedStart: Bool) -> Bool {
        if encryptionNoticePrefixes.contains(where: { hasPrefix(body, $0) }) { return true }
        return markedStart && markedSystemPrefixes.contains(where: { hasPrefix(body, $0) })
    }

    /// The kind of a media file from its name: WhatsApp's naming (IMG-, VID-, PTT-, -PHOTO-, ...),
    /// else the extension.
    static func mediaType(fileName: ArraySlice<UInt8>) -> ChatMessage.Media {
        let upper = String(decoding: fileName, as: UTF8.self).uppercased()
        for (marker, media) in fileNameMarkers where upper.contains(marker) { return media }
        let fileExtension = upper.split(separator: ".").last.map(String.init) ?? ""
        switch fileExtension {
        case "JPG", "JPEG", "PNG", "HEIC", "HEIF": return .image
        case "MP4", "MOV", "3GP", "MKV": return .video
        case "OPUS", "M4A", "MP3", "AAC", "OGG", "AMR", "WAV": return .audio
        case "WEBP": return .sticker
        case "GIF": return .gif
        case "VCF": return .contact
        default: return .document
        }
    }

    private static func hasPrefix(_ body: ArraySlice<UInt8>, _ prefix: [UInt8]) -> Bool {
        body.count >= prefix.count && body.prefix(prefix.count).elementsEqual(prefix)
    }

    private static func hasSuffix(_ body: ArraySlice<UInt8>, _ suffix: [UInt8]) -> Bool {
        body.count >= suffix.count && body.suffix(suffix.count).elementsEqual(suffix)
    }

    // MARK: the words, per platform and language

    private static func utf8(_ strings: [String]) -> [[UInt8]] { strings.map { Array($0.utf8) } }

    private static let editedMarkers = utf8(["<This message was edited>", "<تم تعديل هذه الرسالة>"])

    private static let deleted = utf8([
        "This message was deleted", "This message was deleted.",
        "You deleted this message", "You deleted this message.",
        "تم حذف هذه الرسالة", "تم حذف هذه الرسالة.",
        "أنت حذفت هذه الرسالة", "أنت حذفت هذه الرسالة.",
        "لقد حذَفت هذه الرسالة", "لقد حذَفت هذه الرسالة.",
        "لقد حذفت هذه الرسالة", "لقد حذفت هذه الرسالة.",
    ])

    private static let omitted: [([UInt8], ChatMessage.Media)] = ([
        ("image omitted", .image),
        ("video omitted", .video),
        ("audio omitted", .audio),
        ("sticker omitted", .sticker),
        ("GIF omitted", .gif),
        ("Contact card omitted", .contact),
        ("<Media omitted>", .unknown),
        ("<تم استبعاد الوسائط>", .unknown),
        ("لم يتم إدراج الصورة", .image),
        ("لم يتم إدراج الصور", .image),
        ("لم يتم إدراج الفيديو", .video),
        ("لم يتم إدراج الفيديوهات", .video),
        ("لم يتم إدراج المقطع الصوتي", .audio),
        ("لم يتم إدراج المقاطع الصوتية", .audio),
        ("لم يتم إدراج صورة GIF", .gif),
        ("لم يتم إدراج بطاقة جهة اتصال", .contact),
        ("لم يتم إدراج الملصق", .sticker),
        ("تم حذف الملصقات", .sticker),
    ] as [(String, ChatMessage.Media)]).map { (Array($0.0.utf8), $0.1) }

    private static let nullBody = Array("null".utf8)
    private static let attachedPrefix = Array("<attached: ".utf8)
    private static let attachedSuffixes = utf8([" (file attached)", " (الملف مرفق)"])
    private static let documentOmittedSuffixes = utf8(["document omitted", "لم يتم إدراج المستند"])

    private static let fileNameMarkers: [(String, ChatMessage.Media)] = [
        ("-PHOTO-", .image), ("IMG-", .image),
        ("-VIDEO-", .video), ("VID-", .video),
        ("-AUDIO-", .audio), ("AUD-", .audio), ("PTT-", .audio),
        ("-STICKER-", .sticker), ("STK-", .sticker),
        ("-GIF-", .gif),
        ("-CONTACT-", .contact),
        ("DOC-", .document),
    ]

    private static let encryptionNoticePrefixes = utf8([
        "Messages and calls are end-to-end encrypted.",
        "Messages to this chat and calls are now secured with end-to-end encryption.",
        "Messages to this group are now secured with end-to-end encryption.",
        "الرسائل والمكالمات مشفرة تمامًا بين الطرفين",
    ])

    private static let markedSystemPrefixes = utf8([
        "Your security code with ", "Missed voice call", "Missed video call",
        "You blocked this contact", "You unblocked this contact", "Disappearing messages",
        "This chat is with a business account", "You created group", "You were added",
        "تم تغيير رمز الأمان", "مكالمة صوتية فائتة", "مكالمة فيديو فائتة",
        "لقد حظرت جهة الاتصال", "لقد ألغيت حظر جهة الاتصال",
    ])
}
