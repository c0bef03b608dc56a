/// A message's text made comparable: lower case, Arabic letter variants folded (أ إ آ -> ا,
/// ى -> ي, ة -> ه), diacritics, tatweel and direction marks dropped, Arabic-Indic digits made
/// ASCII, then cut into tokens. Lexicon entries go through the same folding, so spelling
/// variants meet in one form.
struct ChatText {
    enum Kind: Equatable {
        case word
        /// Digits, with an optional ":MM" or ".MM" ("9:30"); `number` and `minute` hold them.
        case number
        /// "2/20", "20/2"; `number` is the first part, `second` the other.
        case slashed
        /// ? ! , . ; - and the like.
        case punctuation
        /// Any other symbol, emoji among them.
        case symbol
    }

    struct Token: Equatable {
        var text: String
        var kind: Kind
        var number: Int = 0
        var minute: Int?
        var second: Int = 0
        /// Offset of the token in `folded`, for cutting titles and places out of the text.
        var start: Int
        var end: Int
    }

    /// The folded text, as characters (the unit of `Token.start`/`end`).
    let folded: [Character]
    /// The text as written (case kept, marks dropped), aligned with `folded` character by character.
    let original: [Character]
    let tokens: [Token]

    init(_ raw: String) {
        let (folded, original) = ChatText.fold(raw)
        self.folded = folded
        self.original = original
        self.tokens = ChatText.tokenize(folded)
    }

    /// The text as written between two token indices (inclusive).
    func originalSpan(_ first: Int, _ last: Int) -> String {
        guard first <= last, first >= 0, last < tokens.count else { return "" }
        return String(original[tokens[first].start..<tokens[last].end])
    }

    // MARK: folding

    static func fold(_ raw: String) -> (folded: [Character], original: [Character]) {
        var out: [Character] = []
        var kept: [Character] = []
        out.reserveCapacity(raw.count)
        kept.reserveCapacity(raw.count)
        // "غداً" with tanween is "tomorrow"; bare "غدا" is lunch in the Gulf. Decide before the marks go.
        // Both spellings hold the tanween (U+064B): looking for it first spares almost every
        // message Foundation's substring search, which was a sixth of reading a conversation.
        var source = raw
        if source.unicodeScalars.contains("\u{064B}"), source.contains("غداً") || source.contains("غدًا") {
            source = source.replacingOccurrences(of: "غداً", with: "بكرة").replacingOccurrences(of: "غدًا", with: "بكرة")
        }
        // "yesss", "pleaseee", "تمااام": a letter typed three times or more counts once, so the
        // lexicon meets stretched words in their plain spelling.
        var last: Character = " ", run = 0
        func emit(_ char: Character, _ scalar: Unicode.Scalar) {
            if char == last, char.isLetter {
                run += 1
                if run == 3 {
                    out.removeLast()
                    kept.removeLast()
                    return
                }
                if run > 3 { return }
            } else {
                last = char
                run = 1
            }
            out.append(char)
            kept.append(Character(scalar))
        }
        for scalar in source.unicodeScalars {
            switch scalar.value {
            case 0x41...0x5A: emit(Character(Unicode.Scalar(UInt8(scalar.value + 0x20))), scalar)
            case 0x0623, 0x0625, 0x0622, 0x0671: emit("ا", scalar)
            case 0x0649: emit("ي", scalar)
            case 0x0629: emit("ه", scalar)
            case 0x0624: emit("و", scalar)
            case 0x0626: emit("ي", scalar)
            case 0x06A9: emit("ك", scalar) // Persian kaf
            case 0x06CC: emit("ي", scalar) // Persian yeh
            case 0x0686: emit("ج", scalar) // چ in Gulf spellings (باچر)
            case 0x06AF: emit("ك", scalar) // گ: the Gulf and Iraqi g (ما اگدر = ما اكدر)
            case 0x06A8, 0x06A7: emit("ق", scalar) // ڨ ڧ: the Maghrebi g and q
            case 0x06A4, 0x06A5: emit("ف", scalar) // ڤ
            case 0x067E: emit("ب", scalar) // پ
            case 0x0660...0x0669: emit(Character(Unicode.Scalar(UInt8(scalar.value - 0x0660 + 0x30))), scalar)
            case 0x06F0...0x06F9: emit(Character(Unicode.Scalar(UInt8(scalar.value - 0x06F0 + 0x30))), scalar)
            case 0x060C: emit(",", scalar)
            case 0x061F: emit("?", scalar)
            case 0x061B: emit(";", scalar)
            case 0x066B: emit(".", scalar) // Arabic decimal separator
            case 0x2019, 0x2018, 0x02BC: emit("'", scalar)
            case 0x0610...0x061A, 0x064B...0x065F, 0x0670, 0x06D6...0x06ED, 0x0640:
                continue // diacritics and tatweel
            case 0x200B...0x200F, 0x202A...0x202E, 0x2066...0x2069, 0xFEFF, 0xFE0F, 0x1F3FB...0x1F3FF:
                continue // invisible marks, emoji variation selectors and skin tones
            case 0x00A0, 0x202F, 0x2009, 0x2007: emit(" ", scalar)
            case 0x2013, 0x2014: emit("-", scalar)
            case 0...0x7F: emit(Character(scalar), scalar)
            default:
                let lower = Character(scalar).lowercased()
                if lower.count == 1, let char = lower.first { emit(char, scalar) } else { emit(Character(scalar), scalar) }
            }
        }
        return (out, kept)
    }

    /// Folds a lexicon entry the way message text is folded.
    static func foldWord(_ word: String) -> String {
        String(fold(word).folded)
    }

    // MARK: tokens

    private static let numberSuffixes: Set<String> = [
        "am", "pm", "a", "p", "ish", "th", "st", "nd", "rd", "h", "hr", "hrs", "min", "mins", "m", "ص", "م",
    ]

    static func tokenize(_ chars: [Character]) -> [Token] {
        var tokens: [Token] = []
        var index = 0
        let count = chars.count
        while index < count {
            let char = chars[index]
            if char.isWhitespace {
                index += 1
                continue
            }
            if isWordCharacter(char) {
                let start = index
                while index < count, isWordCharacter(chars[index]) || isInnerJoiner(chars, index) {
                    index += 1
                }
                tokens.append(contentsOf: splitRun(chars, start, index))
                continue
            }
            let start = index
            index += 1
            let isPunctuation = "?!,.;:-()[]*\"/…".contains(char)
            tokens.append(Token(text: String(char), kind: isPunctuation ? .punctuation : .symbol, start: start, end: index))
        }
        return joinArabiziProgressive(tokens)
    }

    /// Levantine Arabizi "3am" before a verb ("3am bmoot", "3am b7ajez") is the word "am doing",
    /// not three in the morning.
    private static func joinArabiziProgressive(_ tokens: [Token]) -> [Token] {
        var result: [Token] = []
        var index = 0
        while index < tokens.count {
            if index + 2 < tokens.count, tokens[index].kind == .number, tokens[index].text == "3", tokens[index + 1].text == "am",
               tokens[index + 1].start == tokens[index].end, tokens[index + 2].kind == .word {
                let verb = Array(tokens[index + 2].text)
                // "3am bmoot", and "3am y2oul", "3am t3mel", "3am n7ke": a verb's person prefix
                // before a consonant written as a digit ("3am tmrw" stays three in the morning).
                let prefixed = verb.count > 2 && (verb[0] == "b" && !"aeiouy".contains(verb[1]) || "ytn".contains(verb[0]) && "235789".contains(verb[1]))
                if prefixed {
                    result.append(Token(text: "3am", kind: .word, start: tokens[index].start, end: tokens[index + 1].end))
                    index += 2
                    continue
                }
            }
            result.append(tokens[index])
            index += 1
        }
        return result
    }

    private static func isWordCharacter(_ char: Character) -> Bool {
        char.isLetter || char.isNumber
    }

    /// ' inside a word (can't, maya's), : or . between digits (9:30), / between digits (2/20).
    private static func isInnerJoiner(_ chars: [Character], _ index: Int) -> Bool {
        let char = chars[index]
        guard index > 0, index + 1 < chars.count else { return false }
        let before = chars[index - 1], after = chars[index + 1]
        switch char {
        case "'": return before.isLetter && after.isLetter
        case ":", "/": return before.isASCIIDigit && after.isASCIIDigit
        case ".": return before.isASCIIDigit && after.isASCIIDigit && index + 2 < chars.count
            && chars[index + 2].isASCIIDigit && !(index + 3 < chars.count && chars[index + 3].isASCIIDigit)
        default: return false
        }
    }

    /// A run of word characters: a plain word, a number ("7", "9:30", "2/20"), or a number with
    /// a unit glued on ("9pm", "7ish", "12th") that becomes two tokens.
    private static func splitRun(_ chars: [Character], _ start: Int, _ end: Int) -> [Token] {
        let run = String(chars[start..<end])
        var digitEnd = start
        while digitEnd < end, chars[digitEnd].isASCIIDigit || ((chars[digitEnd] == ":" || chars[digitEnd] == "." || chars[digitEnd] == "/") && digitEnd > start) {
            digitEnd += 1
        }
        if digitEnd == start {
            return [Token(text: run, kind: .word, start: start, end: end)]
        }
        let numberText = String(chars[start..<digitEnd])
        guard let numberToken = numberToken(numberText, start: start, end: digitEnd) else {
            return [Token(text: run, kind: .word, start: start, end: end)]
        }
        if digitEnd == end { return [numberToken] }
        let suffix = String(chars[digitEnd..<end])
        // "10h30": the French clock.
        if numberToken.kind == .number, numberToken.minute == nil, suffix.count == 3, suffix.first == "h",
           let minute = Int(suffix.dropFirst()), (0...59).contains(minute) {
            var clock = numberToken
            clock.minute = minute
            clock.end = end
            clock.text = run
            return [clock]
        }
        if numberToken.kind == .number, numberSuffixes.contains(suffix) {
            return [numberToken, Token(text: suffix, kind: .word, start: digitEnd, end: end)]
        }
        // Arabizi spells sounds with digits (5amees, sa3a, 3indi): a word, not a number.
        return [Token(text: run, kind: .word, start: start, end: end)]
    }

    private static func numberToken(_ text: String, start: Int, end: Int) -> Token? {
        if let slash = text.firstIndex(of: "/") {
            guard let first = Int(text[..<slash]), let second = Int(text[text.index(after: slash)...]) else { return nil }
            return Token(text: text, kind: .slashed, number: first, second: second, start: start, end: end)
        }
        if let separator = text.firstIndex(where: { $0 == ":" || $0 == "." }) {
            guard let hour = Int(text[..<separator]), let minute = Int(text[text.index(after: separator)...]),
                  text.distance(from: separator, to: text.endIndex) == 3 else { return nil }
            return Token(text: text, kind: .number, number: hour, minute: minute, start: start, end: end)
        }
        guard text.count <= 6, let value = Int(text) else { return nil }
        return Token(text: text, kind: .number, number: value, start: start, end: end)
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
