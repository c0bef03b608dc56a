import Foundation

/// What the status model sees of a conversation: the rules' own reading (their status, the plans
/// they kept, the acts of the last messages) and the letters of the messages (character 3- and
/// 4-grams of the last two messages and of the whole chat, robust to dialect spellings and Arabizi).
/// Every feature is a bucket of a hashed space; a conversation is the sorted set of its buckets.
struct StatusFeatures {
    static let bucketBits = 18
    static let bucketCount = 1 << bucketBits

    private(set) var buckets: [Int32] = []
    /// The buckets that came from the rules' reading (the rest are letters), for the training script.
    private var fromRules: [Int32] = []
    var ruleBuckets: [Int32] { Array(Set(fromRules)).sorted() }

    init(readings: [(sender: String, reading: MessageReading)], plans: [ConversationTracker.Plan], ruleState: ConversationState) {
        add("bias")
        add("rule=" + ruleState.rawValue)
        let count = readings.count
        add("messages=" + (count <= 2 ? "2" : count <= 4 ? "4" : count <= 8 ? "8" : "many"))
        add("plans=\(min(plans.count, 3))")
        for status in [ConversationTracker.Plan.Status.open, .agreed, .refused, .cancelled] {
            let number = plans.filter { $0.status == status }.count
            if number > 0 { add("plans.\(status)=\(min(number, 2))") }
        }
        let latest = plans.max { $0.touched < $1.touched }
        if let latest {
            add("latest.status=\(latest.status)")
            if latest.day != nil { add("latest.day") }
            if !latest.details.days.isEmpty { add("latest.days") }
            if latest.details.clock != nil || latest.details.anchor != nil { add("latest.time") }
            if latest.details.isVague { add("latest.vague") }
            if latest.timeAsked { add("latest.timeAsked") }
            if latest.hedged { add("latest.hedged") }
            if latest.details.activity != nil { add("latest.activity") }
        }
        // The acts of the last two messages, and of any message; the last ones also by whether
        // their sender proposed the latest plan.
        let proposer = latest?.proposer
        var position = 0
        for (sender, reading) in readings.reversed() {
            if position < 2 {
                let role = proposer == nil ? "none" : sender == proposer ? "proposer" : "other"
                add(acts: reading, prefix: "L\(position).")
                add(acts: reading, prefix: "L\(position).\(role).")
            }
            position += 1
        }
        for (_, reading) in readings {
            add(acts: reading, prefix: "any.")
        }
        fromRules = buckets
        for (position, (_, reading)) in readings.reversed().prefix(2).enumerated() {
            add(letters: reading.folded, group: position == 0 ? 1 : 2)
        }
        for (_, reading) in readings {
            add(letters: reading.folded, group: 3)
        }
        buckets.sort()
        var unique: [Int32] = []
        unique.reserveCapacity(buckets.count)
        for bucket in buckets where unique.last != bucket { unique.append(bucket) }
        buckets = unique
    }

    private static let actNames = [
        "accepts", "denies", "tentative", "conditional", "cancels", "asksTime", "asksWhen", "invites", "question", "othersOnly",
        "asksKnows", "requestAside", "forwarded", "noTimeFrame", "excuseDay", "day", "time", "vague", "short",
    ]

    private mutating func add(acts reading: MessageReading, prefix: String) {
        let flags = [
            reading.accepts, reading.denies, reading.isTentative, reading.isConditional, reading.cancels, reading.asksTime,
            reading.asksWhen, reading.invites, reading.isQuestion, reading.isAboutOthersOnly, reading.asksWhatOtherKnows,
            reading.requestsAside, reading.isForwarded, reading.hasNoTimeFrame, !reading.excuseDays.isEmpty,
            reading.fragments.contains(where: \.hasDay), reading.fragments.contains(where: \.hasTime),
            reading.fragments.contains(where: \.isVague), reading.wordCount <= 3,
        ]
        // The hash of prefix + name, with the prefix hashed once.
        let seed = Self.hash(prefix, from: Self.offsetBasis)
        for (index, isSet) in flags.enumerated() where isSet { insert(Self.hash(Self.actNames[index], from: seed)) }
    }

    private static let offsetBasis: UInt32 = 2_166_136_261

    /// FNV-1a over the name's UTF-8, continuing from `hash`.
    private static func hash(_ name: String, from hash: UInt32) -> UInt32 {
        var hash = hash
        for byte in name.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return hash
    }

    private mutating func add(_ name: String) {
        insert(Self.hash(name, from: Self.offsetBasis))
    }

    private mutating func insert(_ hash: UInt32) {
        // A final mix so that near names spread over the buckets.
        var value = hash
        value ^= value >> 16
        value = value &* 0x7feb_352d
        value ^= value >> 15
        buckets.append(Int32(value & UInt32(Self.bucketCount - 1)))
    }

    /// What a character counts as in the n-grams: "0" for a digit, itself for a letter, "?" or an
    /// emoji, else a space; nil for a character with no scalar.
    private static func unit(of char: Character) -> UInt32? {
        guard let scalar = char.unicodeScalars.first else { return nil }
        if char.isNumber { return 48 }
        if char.isLetter || char == "?" || scalar.properties.isEmojiPresentation || scalar.value >= 0x1F300 { return scalar.value }
        return 32
    }

    /// `unit(of:)` for every scalar below U+0800, worked out once.
    private static let shortUnits: [UInt32] = (0..<0x800).map { value in
        Unicode.Scalar(UInt32(value)).flatMap { unit(of: Character($0)) } ?? 32
    }

    /// Character 3- and 4-grams of the folded text: letters kept, digits as "0", "?" kept,
    /// anything else a space (runs of spaces as one), padded with a space at both ends.
    private mutating func add(letters: [Character], group: UInt32) {
        var units: [UInt32] = [32]
        units.reserveCapacity(letters.count + 2)
        for char in letters {
            // One scalar below U+0800 (one or two UTF-8 bytes): Latin and Arabic, from the table.
            let unit: UInt32
            if char.utf8.count <= 2, let scalar = char.unicodeScalars.first {
                unit = Self.shortUnits[Int(scalar.value)]
            } else if let found = Self.unit(of: char) {
                unit = found
            } else {
                continue
            }
            if unit == 32, units.last == 32 { continue }
            units.append(unit)
        }
        if units.last != 32 { units.append(32) }
        guard units.count >= 3 else { return }
        for length in 3...4 where units.count >= length {
            for start in 0...(units.count - length) {
                var hash: UInt32 = 2_166_136_261 ^ (group &* 0x9E37_79B9) ^ UInt32(length)
                for offset in 0..<length { hash = (hash ^ units[start + offset]) &* 16_777_619 }
                insert(hash)
            }
        }
    }
}

/// A linear model over `StatusFeatures`: one weight a bucket and state, the highest total wins.
public struct StatusModel: Sendable {
    /// The order of the weights of a bucket.
    static let states: [ConversationState] = [.noEvent, .proposed, .agreed, .denied]

    /// `bucketCount * 4` weights, by bucket then state; shared, never copied.
    let weights: [Float]

    init(weights: [Float]) {
        self.weights = weights
    }

    /// The model trained on every public labelled set (StatusWeights.swift), decoded once.
    public static let shipped: StatusModel? = StatusModel(encoded: shippedWeights, scale: shippedScale)

    /// The generated form: per bucket the gap from the previous one (7 bits a byte, high bit set
    /// when more follow), then four signed bytes, times `scale`; base64, line breaks ignored.
    init?(encoded: String, scale: Float) {
        guard let data = Data(base64Encoded: encoded, options: .ignoreUnknownCharacters) else { return nil }
        let bytes = [UInt8](data)
        var weights = [Float](repeating: 0, count: StatusFeatures.bucketCount * 4)
        var bucket = 0, index = 0
        while index < bytes.count {
            var gap = 0, shift = 0
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                gap |= Int(byte & 0x7F) << shift
                shift += 7
                if byte & 0x80 == 0 { break }
            }
            bucket += gap
            guard bucket < StatusFeatures.bucketCount, index + 4 <= bytes.count else { return nil }
            for state in 0..<4 { weights[bucket * 4 + state] = Float(Int8(bitPattern: bytes[index + state])) * scale }
            index += 4
        }
        self.weights = weights
    }

    /// A weights file as the training script writes it: "bucket w0 w1 w2 w3" lines.
    public init?(contentsOfFile path: String) {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        var weights = [Float](repeating: 0, count: StatusFeatures.bucketCount * 4)
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ")
            guard parts.count == 5, let bucket = Int(parts[0]), bucket >= 0, bucket < StatusFeatures.bucketCount else { continue }
            for state in 0..<4 { weights[bucket * 4 + state] = Float(parts[state + 1]) ?? 0 }
        }
        self.weights = weights
    }

    /// The model's state, unless it favours it over the rules' state by no more than `margin`.
    static func decide(_ scores: [Float], rules: ConversationState, margin: Float) -> ConversationState {
        var best = 0
        for index in 1..<4 where scores[index] > scores[best] { best = index }
        guard let ruled = states.firstIndex(of: rules) else { return states[best] }
        return scores[best] - scores[ruled] > margin ? states[best] : rules
    }

    /// The totals by state (in `states` order).
    func scores(_ features: StatusFeatures) -> [Float] {
        var totals: [Float] = [0, 0, 0, 0]
        weights.withUnsafeBufferPointer { table in
            for bucket in features.buckets {
                let base = Int(bucket) * 4
                totals[0] += table[base]
                totals[1] += table[base + 1]
                totals[2] += table[base + 2]
                totals[3] += table[base + 3]
            }
        }
        return totals
    }
}

extension ExtractionJSONLines {
    /// The status model's input for one input line, as a JSON line {"id", "rules", "f"}; nil for a line that cannot be read.
    public func statusFeatures(line: String) -> String? {
        guard case .conversation(let item) = read(line: line) else { return nil }
        let (rules, features) = extractor.statusFeatures(of: item.messages, context: item.context)
        let buckets = features.buckets, ruleBuckets = features.ruleBuckets
        let id = item.idText.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return "{\"id\":\"\(id)\",\"rules\":\"\(rules.rawValue)\",\"f\":[" + buckets.map(String.init).joined(separator: ",") + "],\"r\":["
            + ruleBuckets.map(String.init).joined(separator: ",") + "]}"
    }
}
