/// Reads one message: its dialogue acts, its vetoes, and the days, times, prayers, activities and
/// places it names, resolved against the moment it was sent.
struct MessageReader: Sendable {
    /// Month/day order of numeric dates ("2/20"): true where the zone writes the month first.
    var monthFirst: Bool
    /// Whether a local date falls in Ramadan ("بعد الفطور" then means after iftar).
    var isRamadan: @Sendable (LocalDateTime) -> Bool
    /// The conversation's zone is in the Maghreb, where bare "غدا" is "tomorrow" (in the Gulf it is lunch).
    var maghrebi = false

    /// A token or a lexicon phrase, with its meanings.
    private struct Item {
        var first: Int
        var last: Int
        var cues: [Cue]
        var token: ChatText.Token
        /// "don't forget": the no of a reminder, which forbids nothing and asks nobody along.
        var isReminder = false

        func has(_ cue: Cue) -> Bool { cues.contains(cue) }
        var isNumber: Bool { cues.isEmpty && token.kind == .number }
        var isPunctuation: Bool { token.kind == .punctuation && cues.isEmpty }
        var text: String { token.text }
    }

    private static let prayerWords: Set<String> = ["الصلاه", "صلاه", "salah", "salat", "prayer", "prayers", "el salah", "el sala", "salla", "الصلا"]
    private static let obligations: Set<String> = ["لازم", "lazem", "lazim", "laazim", "we need to", "need", "must", "تذكير", "reminder", "don't", "dont", "لا"]
    private static let negations: Set<String> = ["ما", "مو", "مب", "مش", "ma", "mo", "mob", "msh", "mesh", "not", "don't", "dont", "never"]
    /// Words that sit between a weekday and its day of the month ("Saturday the 12th", "el sabt yom 12").
    private static let fillers: Set<String> = ["el", "al", "il", "yom", "yoom", "يوم", "on", "the", "of", "this"]
    private static let ordinalSuffixes: Set<String> = ["th", "st", "nd", "rd"]
    /// "2nd", "23rd", "11th": the suffix the number takes. Arabizi "3nd", "3and" (عند) is "at", not "the 3rd".
    static func isOrdinal(_ number: Int, _ suffix: String) -> Bool {
        guard ordinalSuffixes.contains(suffix) else { return false }
        if (11...13).contains(number % 100) { return suffix == "th" }
        switch number % 10 {
        case 1: return suffix == "st"
        case 2: return suffix == "nd"
        case 3: return suffix == "rd"
        default: return suffix == "th"
        }
    }
    private static let ordinalNouns: Set<String> = [
        "floor", "st", "street", "ave", "avenue", "road", "blvd", "time", "times", "place", "round", "year", "grade", "semester", "term", "attempt", "try", "one", "row", "level", "anniversary", "birthday", "child", "kid",
    ]
    private static let meridiemWords: [String: Bool] = [
        "am": false, "a": false, "a.m": false, "ص": false, "صباحا": false, "pm": true, "p": true, "p.m": true, "م": true, "مساء": true, "مساءا": true,
    ]
    private static let ramadanOnlyIftar: Set<String> = ["الفطور", "فطور", "نفطر", "فطورنا", "ftoor", "fitoor", "el fitoor", "el ftoor", "الفطار", "فطار", "el fetar", "fetar"]
    /// After a negation these say no: "مش هينفع", "ما بقدر", "not free".
    private static let negatableYes: Set<String> = [
        "ينفع", "هينفع", "حينفع", "بينفع", "يناسب", "يناسبني", "يناسبنا", "يصير", "بصير", "اقدر", "بقدر", "هقدر", "حقدر", "نقدر", "فاضي",
        "فاضيه", "مناسب", "ينفعني", "يزبط", "بيزبط", "بزبط", "يمديني", "able", "free", "possible", "available", "going", "coming",
    ]

    private static let openingWords: Set<String> = ["open", "opens", "يفتح", "بيفتح", "يفتحون", "يفتحوا"]
    /// The words of a reply that only takes note of news.
    private static let noteWords: Set<String> = ["ok", "okay", "k", "got", "it", "noted", "thx", "thanks", "for", "the", "heads", "up", "ugh", "cool"]

    /// Running late, in the few words after an "if".
    private static let latenessWords: Set<String> = [
        "late", "delayed", "اتاخر", "اتاخرت", "اتأخر", "اتأخرت", "تاخرت", "تأخرت", "تاخر", "تأخر", "اتاخرنا", "تاخرنا", "t2akhart", "t2akhar",
        "et2akhart", "it2akhart", "ta2akhart", "retard",
    ]
    private static func isAboutRunningLate(after position: Int, _ items: [Item]) -> Bool {
        items[(position + 1)..<min(items.count, position + 5)].contains { latenessWords.contains($0.text) }
    }

    /// The weather and its forecast, in the words the lexicon marks as no meeting.
    private static let weatherWords: Set<String> = ["rain", "raining", "rainy", "sunny", "weather", "forecast", "storm", "snow", "windy", "مطر", "الجو", "غبار", "matar", "el jaw"]
    /// When a thing itself begins ("starts", "kicks off", "doors", "يبدأ", "commence").
    private static let startWords: Set<String> = ["starts", "start", "kicks", "kickoff", "doors", "begins", "يبدا", "يبدأ", "بيبدا", "تبدا", "تبدأ", "بتبدا", "يبلش", "بيبلش", "ybda", "yebda", "tebda", "commence", "débute"]

    /// Word beginnings that call a plan off whatever the suffix: نأجلها, تأجيل, نلغيه, postponing.
    private static let cancelStems = ["ناجل", "تاجيل", "اجلنا", "نلغي", "الغي", "الغاء", "انلغ", "ينلغ", "ملغي", "ملغا", "لغيت", "لغينا", "لغيناه", "لغيتها", "malgh", "malghi", "lghit", "lgheit", "cancel", "postpon", "reschedul"]
    /// A first-person plural verb ("we'll go") in Levantine (منروح), Egyptian (هنروح) or Gulf (بنروح) form.
    private static let pluralPrefixes: Set<Character> = ["م", "ه", "ب", "ح"]

    func read(_ raw: String, sentAt: LocalDateTime) -> MessageReading {
        let text = ChatText(raw)
        var reading = MessageReading(sentAt: sentAt)
        reading.folded = text.folded
        var allItems = Self.items(of: text)
        if maghrebi {
            for index in allItems.indices {
                if allItems[index].text == "غدا" { allItems[index].cues = [.relativeDay(1)] }
                // In the Maghreb a verb in ن is "I" ("غادي نتفرج", I'll watch); "we" ends in و
                // (نتلاقاو, نمشوا), and "I want you" (نبيك) asks the other along.
                let word = allItems[index].text
                let addressed = word.hasSuffix("و") || word.hasSuffix("وا") || word.hasSuffix("ك") || word.hasSuffix("كم")
                if allItems[index].first == allItems[index].last, word.hasPrefix("ن"), !addressed, allItems[index].has(.invite) {
                    allItems[index].cues.removeAll { $0 == .invite }
                }
                // "ila jat el voiture, ok", "واخا، ولكن إلا ما كانتش الشتا": the Maghrebi "ila" before a word is "if"
                // (before an hour it is "to", and after one "٧ الا ربع" is a quarter to).
                if Self.maghrebiIf.contains(word), index + 1 < allItems.count, allItems[index + 1].token.kind == .word, allItems[index].cues.isEmpty,
                   index == 0 || !allItems[index - 1].isNumber {
                    allItems[index].cues = [.conditional]
                }
                // So "lazem nqra", "لازم نراجع" is "I must study": one's own obligation, no invitation.
                if Self.isObligation(word), index + 1 < allItems.count {
                    let verb = allItems[index + 1].text
                    let ownVerb = (verb.hasPrefix("ن") || verb.hasPrefix("n")) && verb.count > 3
                        && !(verb.hasSuffix("و") || verb.hasSuffix("وا") || verb.hasSuffix("ou") || verb.hasSuffix("o") || verb.hasSuffix("w"))
                    if ownVerb, allItems[index + 1].cues.isEmpty || allItems[index + 1].has(.invite) {
                        allItems[index].cues.removeAll { $0 == .invite }
                        allItems[index + 1].cues.removeAll { $0 == .invite }
                    }
                }
            }
        }
        Self.readSameDay(&allItems)
        Self.readWhereOneIs(&allItems, in: text)
        Self.readVocatives(&allItems)
        Self.readUniversity(&allItems, in: text)
        // "احنا الاثنين", "انتو الاثنين": after a plural pronoun الاثنين is "the two of us", not Monday.
        for index in allItems.indices.dropFirst() where Self.pluralPronouns.contains(allItems[index - 1].text)
            && allItems[index].cues.contains(.weekday(2)) && allItems[index].text.hasPrefix("ال") {
            allItems[index].cues = []
        }
        readActs(allItems, into: &reading)
        // "if I'm alive, yes. actually no, yes regardless": a yes whatever happens takes back the condition.
        if reading.isConditional, reading.accepts, let waiver = allItems.indices.last(where: { index in
            Self.regardlessWords.contains(allItems[index].text) || index > 0 && Self.regardlessWords.contains(allItems[index - 1].text + " " + allItems[index].text)
        }),
           !allItems[waiver...].contains(where: { $0.has(.conditional) }) {
            reading.isConditional = false
        }
        // "what if Sunday 7pm instead?", "ولو الخميس؟": an "if" whose whole condition is a when asks for it.
        if reading.isConditional, reading.isQuestion, Self.conditionsAreWhens(allItems) { reading.isConditional = false }
        // "Course it will", "yes it is": a yes to a statement ("Forecast says it'll turn") agrees with it, not to a plan.
        // "Did you get the car sorted?": a yes-word inside a question is asked, not said.
        if reading.accepts, Self.noYesIsSaid(allItems) { reading.accepts = false }
        reading.opensWithContrast = allItems.first?.has(.contrast) == true
        reading.opensWithAddition = text.tokens.first(where: { $0.kind == .word }).map { Self.opensAddition($0.text) } == true
        // A phrase may hold the "?" ("same time?"): ask the tokens.
        if text.tokens.contains(where: { $0.text == "?" }) { reading.isQuestion = true }
        reading.isArabic = Self.isMostlyArabic(text)
        reading.asksOnlyAboutTheOther = Self.asksOnlyAboutTheOther(text.tokens)
        readInvolvement(text, into: &reading)
        // "خلاص تمام؟", "deal?", "we good?": a question made only of yes-words asks the other to confirm what is on the table.
        if reading.isQuestion, Self.onlyConfirms(allItems) { reading.asksToJoin = true }
        // "What are you doing NYE?", "وين راس السنة؟": asking what the other does on a day asks about their own day.
        if reading.isQuestion, !reading.invites, Self.asksTheOthersDoings(text.tokens) { reading.asksOnlyAboutTheOther = true }
        let items = planItems(allItems, text: text, sentAt: sentAt, reading: &reading)
        for segment in Self.segments(items) {
            var fragment = readFragment(Array(items[segment]), text: text, sentAt: sentAt)
            fragment.followsOn = segment.lowerBound > 0 && items[segment.lowerBound].has(.sequence)
            if fragment.hasWhen || fragment.activity != nil || fragment.location != nil {
                reading.fragments.append(fragment)
            }
        }
        if !reading.fragments.contains(where: \.hasTime) { reading.closingHour = Self.closingHour(items) }
        // "maybe Friday instead?", "mumkin 11:30?": a hedged word in front of a new time asks, it does not hedge.
        if reading.isTentative, reading.isQuestion, reading.fragments.contains(where: \.hasWhen) { reading.isTentative = false }
        return reading
    }

    private static let firstPersonWords: Set<String> = [
        "i", "i'm", "im", "i'll", "ill", "i've", "ive", "i'd", "me", "my", "myself", "انا", "اني", "عندي", "لي", "ana", "3andi", "3andy", "3ndi", "3indi",
        "je", "j'ai", "moi", "mon", "mes", "sorry", "آسف", "اسف", "معليش", "désolé",
    ]
    /// Being free or able: "free", "فاضي", "نقدر", "fadi".
    private static let freeWords: Set<String> = [
        "free", "available", "fine", "فاضي", "فاضيه", "فاضية", "فاضين", "نقدر", "اقدر", "بقدر", "نقدرو", "يمديني", "يمدينا", "fadi", "fadye", "fadya", "fa9y",
        "fadiya", "a8dar", "a2dar", "ne9der", "nqder", "libre", "dispo",
    ]
    private static let regardlessWords: Set<String> = ["regardless", "anyway", "anyways", "either way", "any case", "كل الاحوال", "كل حال", "el a7wal", "quand même", "quand meme"]
    private static let pluralPronouns: Set<String> = ["احنا", "نحن", "انتو", "انتم", "هم", "كلنا", "حنا", "احنا"]
    private static let statementSubjects: Set<String> = ["it", "that", "he", "she", "they"]
    private static let auxiliaries: Set<String> = ["will", "is", "does", "did", "was", "would", "can", "has", "had", "could", "might", "be", "must"]

    private static let questionOpeners: Set<String> = ["did", "do", "does", "have", "has", "are", "is", "was", "were", "can", "could", "will", "would"]

    /// Every yes in the message is followed by a pronoun and its verb ("of course it will", "yeah it
    /// is"), or sits in a question that opens with its verb ("did you get the car sorted?").
    private static func noYesIsSaid(_ items: [Item]) -> Bool {
        let yeses = items.indices.filter { items[$0].has(.accept) || items[$0].has(.acceptAlone) }
        return !yeses.isEmpty && yeses.allSatisfy { index in
            // Only the bare echo that closes its clause ("course it will.", "yeah it is!"): "ok that's
            // perfect", "yes it's a date" say yes.
            if index + 2 < items.count, statementSubjects.contains(items[index + 1].text), auxiliaries.contains(items[index + 2].text),
               index + 3 == items.count || items[index + 3].isPunctuation {
                return true
            }
            var start = index
            while start > 0, !items[start - 1].isPunctuation { start -= 1 }
            var end = index
            while end + 1 < items.count, !items[end + 1].isPunctuation { end += 1 }
            return start < index && questionOpeners.contains(items[start].text) && end + 1 < items.count && items[end + 1].text == "?"
        }
    }

    /// "same", "نفس": "the same day" names a day already said, not today.
    private static let sameWords: Set<String> = ["same", "نفس", "nafs", "nfs", "nefs", "meme", "même"]

    /// "ونرجع نفس اليوم بالليل", "back the same day": "اليوم" after "نفس" is the day just named, not today.
    private static func readSameDay(_ items: inout [Item]) {
        for index in items.indices.dropFirst() where !items[index].cues.isEmpty && sameWords.contains(items[index - 1].text) && items[index].has(.relativeDay(0)) {
            items[index].cues = []
        }
    }

    private static let meWords: Set<String> = ["i'm", "im", "i"]

    /// "Saturday I'm in Qassim", "I'm in the office till 6": "I'm in" before a place (a name written with its capital, or
    /// "the") says where one is, one's own day; only alone is it "count me in".
    private static func readWhereOneIs(_ items: inout [Item], in text: ChatText) {
        for index in items.indices.dropLast() where !items[index].cues.isEmpty && meWords.contains(items[index].text) && items[index].has(.acceptAlone) {
            let next = items[index + 1]
            guard next.token.kind == .word, next.cues.isEmpty || next.text == "the" else { continue }
            let capitalised = text.original[next.token.start].isUppercase
            if capitalised || ["the", "a"].contains(next.text) { items[index].cues = [.ownPlan] }
        }
    }

    /// "خويا", "akhoya": "my brother", also said to the other as a friendly "bro".
    private static let kinVocatives: Set<String> = ["خويا", "خويي", "اخوي", "اخويا", "akhoya", "akhooy", "5ooy", "5oya", "khouya", "khoya"]

    /// "غدوة ما نقدرش خويا", "خويا، ...": a kin word right after a yes or a no, or alone before a comma, calls the
    /// other; it brings no one else into the message.
    private static func readVocatives(_ items: inout [Item]) {
        for index in items.indices where !items[index].cues.isEmpty && kinVocatives.contains(items[index].text) && items[index].has(.thirdParty) {
            let afterAnswer = index > 0 && items[index - 1].cues.contains { $0 == .accept || $0 == .acceptAlone || $0 == .deny }
            let alone = index == 0 && index + 1 < items.count && items[index + 1].isPunctuation
            if afterAnswer || alone { items[index].cues = [] }
        }
    }

    /// "of": "ta3", "taba3", "dyal", "mta3".
    private static let ofWords: Set<String> = ["ta3", "taba3", "tab3", "bta3", "btaa3", "dyal", "mta3", "ta3et", "بتاع", "تاع", "متاع", "ديال"]

    /// "bil mal3ab ta3 el jam3a": "jam3a" owned by a place is the university, not Friday.
    private static func readUniversity(_ items: inout [Item], in text: ChatText) {
        for index in items.indices.dropFirst() where !items[index].cues.isEmpty && ofWords.contains(items[index - 1].text) && text.tokens[items[index].last].text.contains("jam3a") {
            items[index].cues.removeAll { if case .weekday = $0 { true } else { false } }
        }
    }

    /// The Maghrebi "if": إلا, ila.
    private static let maghrebiIf: Set<String> = ["الا", "ila", "ilaa", "ila2"]

    /// Words that may stand between "if" and the when it asks about ("what if we do Sunday", "if on Friday").
    private static let conditionFillers: Set<String> = ["we", "it's", "its", "it", "is", "on", "at", "the", "do", "make", "say", "el", "يوم", "خليناها", "خليها", "خلها"]

    /// Every "if" in the message is followed, past a filler or two, by a day or an hour: the condition is only a when.
    private static func conditionsAreWhens(_ items: [Item]) -> Bool {
        let conditions = items.indices.filter { items[$0].has(.conditional) }
        return !conditions.isEmpty && conditions.allSatisfy { index in
            guard let next = items[(index + 1)...].prefix(3).first(where: { !conditionFillers.contains($0.text) }) else { return false }
            return isDayItem(next) || next.isNumber || next.cues.contains(where: isWhenCue)
        }
    }

    /// Words that may stand beside a yes in a request to confirm ("so we're good?", "خلاص تمام؟").
    private static let confirmFillers: Set<String> = ["so", "then", "we", "we're", "were", "are", "all", "good", "right", "خلاص", "يعني", "ya3ni", "ya3ny", "yani", "كذا", "كده", "keda", "kda", "3la", "alors", "donc"]

    /// A question whose every word is a yes-word or a filler beside one, with at least one yes-word.
    private static func onlyConfirms(_ items: [Item]) -> Bool {
        let words = items.filter { $0.token.kind == .word || $0.token.kind == .number }
        return words.contains { $0.has(.accept) || $0.has(.acceptAlone) }
            && words.allSatisfy { $0.has(.accept) || $0.has(.acceptAlone) || $0.cues.isEmpty && confirmFillers.contains($0.text) }
    }

    /// "what are you doing", "wyd", "any plans", "وش مسوي", "شو عامل": asking what the other does, by first word.
    private static let doingsPhrases: [String: [[String]]] = Dictionary(grouping: [[String]]([
        ["what", "are", "you", "doing"], ["what", "r", "u", "doing"], ["what", "you", "doing"], ["what", "u", "doing"], ["wyd"],
        ["what", "are", "you", "up", "to"], ["what", "you", "up", "to"], ["any", "plans"], ["your", "plans"], ["ur", "plans"],
        ["وش", "مسوي"], ["وش", "بتسوي"], ["ايش", "بتسوي"], ["ايش", "مسوي"], ["شو", "عامل"], ["شو", "عامله"], ["شو", "بتعمل"], ["شنو", "مسوي"],
        ["هتعمل", "ايه"], ["حتعمل", "ايه"], ["sho", "3amel"], ["shu", "3amel"], ["chou", "3amel"], ["wach", "dayer"], ["wesh", "dayer"],
        ["tu", "fais", "quoi"],
    ]), by: { $0.first ?? "" })
    /// "وين", "where": where the other is or spends a day.
    private static let whereWords: Set<String> = ["وين", "فين", "where", "wein", "wen", "fein", "fen", "win"]
    /// "we", "let's", "together": a question with these asks about a plan of the two, not the other's own day.
    private static let togetherWords: Set<String> = ["we", "us", "let's", "lets", "our", "together", "احنا", "نحن", "حنا", "سوا", "سوى", "معنا", "معانا", "e7na", "ehna", "sawa", "nous", "on"]

    /// "What are you doing NYE?", "any plans Saturday?", "وين راس السنة؟": a question about what the other does, or where,
    /// that names no plan of the two.
    private static func asksTheOthersDoings(_ tokens: [ChatText.Token]) -> Bool {
        let words = tokens.filter { $0.kind == .word }.map(\.text)
        guard !words.contains(where: togetherWords.contains) else { return false }
        // "خالد، كيف الحال؟ وين راس السنة؟": a where that opens its sentence.
        let opensWithWhere = tokens.indices.contains { index in
            tokens[index].kind == .word && whereWords.contains(tokens[index].text) && (index == 0 || tokens[index - 1].kind == .punctuation)
        }
        return opensWithWhere || words.indices.contains { start in
            doingsPhrases[words[start]]?.contains { phrase in words[start...].starts(with: phrase) } == true
        }
    }

    /// Coming back: "ونرجع", "back", "nerja3", "retour".
    private static let returnWords: Set<String> = ["back", "return", "returning", "نرجع", "نرجعو", "نرجعوا", "نرد", "نعود", "راجعين", "nerja3", "nirja3", "nerga3", "nirga3", "nrja3", "retour", "rentre", "rentrer"]

    /// "نطلع السبت الساعة ٦ الصبح، ونرجع نفس اليوم بالليل", "out Friday, back Sunday night": a clause that opens with
    /// coming back tells when the plan ends, not when it starts.
    private static func isWayBack(_ clause: [Item]) -> Bool {
        clause.lazy.filter { $0.token.kind == .word }.prefix(2).contains { returnWords.contains($0.text) || $0.text.hasPrefix("و") && returnWords.contains(String($0.text.dropFirst())) }
    }

    private static let aboutTheOther: Set<String> = [
        "you", "u", "and", "what", "about", "how", "yourself", "w", "wa", "enti", "enta", "inta", "inti", "ente", "anta", "anti", "انت", "انتي",
        "وانت", "وانتي", "وانتا", "انتا", "وياك", "et", "toi", "vous", "ikaw", "ikw", "ikaw?", "aap", "tum",
    ]

    /// "you??", "I'm renewing, u?", "w enti?": each clause ending in "?" holds only these words.
    private static func asksOnlyAboutTheOther(_ tokens: [ChatText.Token]) -> Bool {
        var clause: [String] = []
        var asked = false
        for token in tokens {
            if token.kind == .punctuation {
                if token.text == "?" {
                    if clause.isEmpty { continue }
                    guard clause.allSatisfy(aboutTheOther.contains) else { return false }
                    asked = true
                }
                clause = []
            } else {
                clause.append(token.text)
            }
        }
        return asked
    }

    // MARK: who is involved

    /// The sender alone ("I", "my", "انا", "عندي", "ana", "3andy") or someone else ("he", "her",
    /// "عندها", "اخوي"): words that make a statement a report of someone's schedule.
    private static let singlePersonWords: Set<String> = [
        "i", "i'm", "im", "i'll", "i've", "ive", "my", "me", "myself", "he", "she", "he's", "she's", "his", "her", "him", "they", "their",
        "they're", "them", "انا", "عندي", "عنده", "عندها", "عندهم", "لي", "اني", "ana", "3andy", "3andi", "3ndi", "3ande", "3ando", "3andaha",
        "3andha", "je", "j'ai", "mon", "mes", "moi", "il", "elle", "huwa", "hiya", "هو", "هي", "هم", "اخوي", "اختي", "ابوي", "امي", "mama", "baba",
    ]
    /// Words that bring the other person or both of them in: "we", "you", "let's", "together",
    /// "معك", "احنا", "سوا", "e7na", "m3ak".
    private static let sharedPersonWords: Set<String> = [
        "we", "we're", "we'll", "us", "our", "let's", "lets", "you", "you're", "you'll", "your", "u", "ur", "ya'll", "yall", "together",
        "احنا", "نحن", "انت", "انتي", "انتو", "انتم", "معك", "معاك", "معاكي", "معكم", "معاكم", "وياك", "وياكم", "معي", "معايا", "ويايا", "سوا",
        "سوى", "مع بعض", "e7na", "ehna", "enta", "enti", "inta", "inti", "m3ak", "ma3ak", "m3aki", "ma3aki", "m3aya", "ma3aya", "sawa", "ma3a ba3d", "nous", "toi", "tu", "vous",
    ]
    /// "did you see/hear", "have you heard", "سمعت", "شفتي", "3arfa": asks whether the other knows something.
    private static let knowingVerbs: Set<String> = [
        "see", "saw", "seen", "hear", "heard", "know", "سمعت", "سمعتي", "سمعتو", "شفت", "شفتي", "عرفت", "عرفتي", "دريت", "دريتي", "تدري", "تدرين",
        "تعرف", "تعرفي", "تعرفين", "3arfa", "3aref", "3aarfa", "sme3t", "sm3t", "sme3ti", "shoft", "shofti", "shufti", "3rfti",
        "shifti", "shifty", "shefte", "shefti", "chefti", "cheft", "sm3ti", "sme3te", "vu", "entendu", "su",
    ]

    /// Requests to the other aside from a plan: "let me know", "text me", "send pics", "خبريني", "طمنيني", "3ayetli".
    private static let requestWords: Set<String> = [
        "lmk", "send", "remind", "ping", "text", "call", "update", "خبرني", "خبريني", "خبرنى", "طمني", "طمنيني", "بلغني", "بلغيني", "قولي",
        "قوليلي", "قللي", "كلمني", "كلميني", "ارسل", "ارسلي", "ابعت", "ابعتي", "ابعتلي", "دزلي", "دزيلي", "صورلي", "صوريلي", "3ayetli",
        "3ayatli", "3ayetlia", "kalemni", "kallemni", "2olli", "2olly", "2oli", "5abarni", "5abrini", "5abirni", "khabarni", "khabbarni", "b3atli",
        "ib3atli", "ab3atli", "tell", "dis-moi", "appelle-moi", "envoie",
    ]

    private static let joiningWords: Set<String> = ["معنا", "معانا", "ويانا", "ويانا", "m3ana", "ma3ana", "m3ana", "coming", "joining", "avec nous"]

    private static let sendWords: Set<String> = [
        "send", "sending", "forward", "email", "ارسل", "ارسلي", "ابعت", "ابعتي", "ابعتلي", "دزلي", "دزيلي", "b3atli", "ib3atli", "ab3atli", "envoie",
    ]

    private struct WordRole: OptionSet {
        let rawValue: UInt8
        static let single = WordRole(rawValue: 1)
        static let shared = WordRole(rawValue: 2)
        static let knowing = WordRole(rawValue: 4)
        static let request = WordRole(rawValue: 8)
        static let send = WordRole(rawValue: 16)
    }

    /// All the word lists above in one table: a message costs one lookup a word.
    private static let wordRoles: [String: WordRole] = {
        var table: [String: WordRole] = [:]
        for (words, role) in [(singlePersonWords, WordRole.single), (sharedPersonWords, .shared), (knowingVerbs, .knowing), (requestWords, .request), (sendWords, .send)] {
            for word in words { table[word, default: []].insert(role) }
        }
        return table
    }()

    private func readInvolvement(_ text: ChatText, into reading: inout MessageReading) {
        var words: [Substring] = []
        var roles: [WordRole] = []
        for token in text.tokens where token.kind == .word {
            var role = Self.wordRoles[token.text] ?? []
            // "gym with me?", "viens avec moi": the other is asked along, as with "معي".
            if ["me", "moi"].contains(token.text), let previous = words.last, ["with", "avec", "wiz"].contains(previous) { role = [.shared] }
            // "وابعتلي": the joined "and".
            if role.isEmpty, token.text.first == "و", let joined = Self.wordRoles[String(token.text.dropFirst())] { role = joined.intersection([.request, .send]) }
            words.append(Substring(token.text))
            roles.append(role)
        }
        reading.asksToSend = roles.contains { $0.contains(.send) }
        // "let me know", "keep me posted", "call me", "send pics", "dis-moi", "خبريني".
        for index in words.indices {
            let word = words[index]
            let next = index + 1 < words.count ? words[index + 1] : ""
            switch word {
            case "send", "remind", "text", "call", "ping", "update", "tell":
                if ["me", "pics", "photos", "the", "us"].contains(next) { reading.requestsAside = true }
            case "dis", "appelle", "écris":
                if next == "moi" { reading.requestsAside = true }
            case "let", "keep":
                if next == "me", index + 2 < words.count, ["know", "posted"].contains(words[index + 2]) { reading.requestsAside = true }
            default:
                if roles[index].contains(.request) { reading.requestsAside = true }
            }
            if reading.requestsAside { break }
        }
        let single = roles.contains { $0.contains(.single) }
        let shared = roles.contains { $0.contains(.shared) }
        reading.isAboutOthersOnly = single && !shared
        reading.namesTheTwo = shared
        // "got it", "ok noted", "thx for the heads up": every word takes note, none says yes to going.
        reading.onlyTakesNote = !words.isEmpty && words.allSatisfy { Self.noteWords.contains(String($0)) } && words.contains { ["got", "noted", "heads"].contains(String($0)) }
        // "يعني معنا؟", "so you're coming?", "u in?": asks whether the other joins the plan on the table.
        if text.tokens.contains(where: { $0.text == "?" }) {
            // "ur in?" is chat spelling of "you're in?"; a bare "so?", "well?", "alors?" nudges for the answer to what is on the table.
            reading.asksToJoin = words.indices.contains { index in
                Self.joiningWords.contains(String(words[index]))
                    || words[index] == "in" && index > 0 && ["you", "u", "ya", "you're", "youre", "ur"].contains(words[index - 1]) && index == words.count - 1
            } || Self.endsWithNudge(text.tokens)
        }
        if let first = roles.firstIndex(where: { $0.contains(.knowing) }) {
            let englishAsk = first >= 2 && ["did", "have", "do", "you"].contains(words[first - 2]) && words[first - 1] == "you"
                || first >= 1 && words[first - 1] == "you"
                // French "t'as vu?", "tu as entendu", "vous avez vu".
                || first >= 1 && ["t'as", "as", "avez", "tas"].contains(words[first - 1])
            // The "you" of "did you see" is the one asked, not someone brought into a plan.
            let sharedElsewhere = roles.indices.contains { $0 != first - 1 && roles[$0].contains(.shared) }
            let verb = words[first]
            reading.asksWhatOtherKnows = !sharedElsewhere && (englishAsk || !verb.allSatisfy(\.isASCII) || verb.contains("3") || verb.hasPrefix("s"))
        }
    }

    // MARK: clauses

    /// The items that describe plans between the two people. A clause (cut at . ! ? ; , and
    /// "but") about something else — the sender's own shift or exam, someone else's plans, a
    /// deadline, the past, the TV — is left out, so its day and time cannot attach to the plan
    /// said beside it. Message-wide vetoes are recomputed from the clauses kept.
    private func planItems(_ items: [Item], text: ChatText, sentAt: LocalDateTime, reading: inout MessageReading) -> [Item] {
        let clauses = Self.clauses(items)
        guard clauses.count > 0 else { return items }
        var keptClauses: [[Item]] = []
        var thingClauses: Set<Int> = []
        // Clauses about someone else's doings kept because the message invites elsewhere ("my sister flies in wednesday").
        var othersClauses: Set<Int> = []
        var ownDays: [Item] = []
        var yesElsewhere = false
        var noElsewhere = false
        // "أمج سوت الكبة؟": a question about someone else's doings; the answer to it is news.
        var asksAboutOthers = false
        // "el matsh bokra el sa3a 7, hatetfarag?": asking whether the other watches, deadlines or
        // the weather make the whole message about that thing, unless something in it invites.
        var asksAboutOtherThing = false
        let hasQuestionMark = items.contains { $0.text == "?" }
        for clause in clauses {
            var clauseItems = Array(items[clause])
            if Self.isWayBack(clauseItems), keptClauses.contains(where: { $0.contains(where: Self.namesWhen) }) { continue }
            // "fine 7.30 dont bail": what is said before a "don't" stands; only the rest is the prohibition.
            if let forbidden = clauseItems.indices.first(where: { Self.isProhibition(at: $0, clauseItems) }), forbidden > 0,
               !clauseItems[forbidden...].contains(where: { $0.has(.invite) && !Self.isObligation($0.text) }) {
                clauseItems = Array(clauseItems[..<forbidden])
            }
            var veto = Vetoes(clauseItems)
            let asks = clauseItems.contains { $0.token.kind == .punctuation && $0.text == "?" } || clause.upperBound == items.count && reading.isQuestion
            // "10ish when it opens": a start tied to the opening, said and not asked, is the plan's.
            // (A closing time, "bey2fel 11", is never the start.)
            if veto.isInquiry, !clauseItems.contains(where: { $0.text.contains("?") }), clauseItems.filter({ $0.has(.inquiry) }).allSatisfy({ Self.openingWords.contains($0.text) }) {
                veto.isInquiry = false
            }
            let clauseInvites = clauseItems.indices.contains { clauseItems[$0].has(.invite) && !Self.isOwnObligation(at: $0, clauseItems) }
            // "lazem nsallim…", "we need to submit…": an obligation, not an invitation; nor is the verb of "لا تطلع".
            let clauseReallyInvites = clauseItems.indices.contains { position in
                clauseItems[position].has(.invite) && !Self.isObligation(clauseItems[position].text)
                    && !(position > 0 && Self.isProhibition(at: position - 1, clauseItems))
            }
            let isCondition = clauseItems.contains { $0.has(.conditional) }
            let forbids = clauseItems.indices.contains { Self.isProhibition(at: $0, clauseItems) } && !clauseReallyInvites
            let aboutOtherThings = forbids || veto.isPast || veto.isHypothetical || veto.isInquiry || veto.isNotAMeeting
            let dropped = forbids ||
                ((veto.isPast || veto.isHypothetical || veto.isInquiry) && !clauseInvites)
                // "I've got Friday 5.15?" offers a slot; "I have the board presentation" is an excuse.
                // "ودي والله، بس عندي امتحان الاثنين": after "but" one's own day is the excuse, whatever else invites.
                || (veto.isOwnPlan && !clauseInvites && !asks && (!reading.invites || clauseItems.first?.has(.contrast) == true))
                // "submit it Sunday at 12" stays a deadline even with "lazem"; "if the weather holds" is a condition.
                || (veto.isNotAMeeting && !clauseReallyInvites && !isCondition)
                // An invitation to someone else's event is an event between the two (labelling rule 1).
                || (veto.isThirdParty && !clauseInvites && !reading.invites)
            if dropped {
                if veto.isNotAMeeting, clauseItems.contains(where: { $0.text == "?" }), !clauseInvites { asksAboutOtherThing = true }
                if veto.isNotAMeeting { reading.speaksOfOtherThing = true }
                if veto.isThirdParty, !clauseInvites, clauseItems.contains(where: { $0.text == "?" }) { asksAboutOthers = true }
                if aboutOtherThings { yesElsewhere = yesElsewhere || clauseItems.contains { $0.has(.accept) || $0.has(.acceptAlone) } }
                // "they get packed at iftar": a no-word about someone else or about the news refuses nothing.
                // ("sorry I'm in Philly for my cousin's graduation" is one's own excuse: it says "I".)
                if (veto.isThirdParty || veto.isNotAMeeting) && !veto.isOwnPlan, !clauseItems.contains(where: { Self.firstPersonWords.contains($0.text) }) {
                    noElsewhere = noElsewhere || clauseItems.contains { $0.has(.deny) }
                }
                // "weather app says rain on Sunday": a forecast for the plan's day is a worry, not an excuse;
                // what the sender then says ("if it doesn't rain I'm in") decides.
                if veto.isOwnPlan || veto.isNotAMeeting && !clauseItems.contains(where: { Self.weatherWords.contains($0.text) }) {
                    let excuse = readFragment(clauseItems, text: text, sentAt: sentAt)
                    reading.excuseDays += excuse.days
                    reading.excuseClocks += [excuse.clock].compactMap { $0 } + excuse.laterClocks
                    if veto.isOwnPlan, Self.saysBusyUntil(clauseItems) { reading.busyUntil = true }
                }
                continue
            }
            if veto.isOwnPlan, reading.invites, !veto.isNotAMeeting {
                // "My train gets in at 6.10 tmrw, any chance of a lift?": the day is the plan's, the time is the train's.
                ownDays += clauseItems.filter { Self.isDayItem($0) }
                continue
            }
            clauseItems = Self.withoutDeadline(clauseItems)
            clauseItems = Self.withoutAnswerDay(clauseItems)
            // The clause's own "?" (or, when a phrase holds it, the message's).
            if asks, clauseItems.contains(where: { $0.text == "?" }) || !hasQuestionMark, clauseItems.contains(where: Self.namesWhen) {
                reading.asksAboutTheWhen = true
            }
            // "don't forget Jake's drinks on Thursday": a reminder tells a thing's day, like "the recital is Friday".
            if Self.tellsAThingsDay(clauseItems) || clauseItems.contains(where: \.isReminder) { thingClauses.insert(keptClauses.count) }
            if veto.isThirdParty, !clauseInvites { othersClauses.insert(keptClauses.count) }
            keptClauses.append(clauseItems)
        }
        // A thing's own day goes when nothing invites, or when the invitation names a day of its own
        // ("the new album is out Friday, fancy Saturday night at the Rio?"). "The match is at 7, wanna
        // come?" keeps it: an invitation to that thing.
        // So does a question about a deadline, the weather or a broadcast ("Bid deadline is the 30th right?" "Yep, 5pm").
        if asksAboutOthers || asksAboutOtherThing, !reading.invites, !reading.asksWhatOtherKnows { reading.tellsAThingsDay = true }
        // ("did you hear Mona's wedding is on the 20th?" is news already, kept as an announcement.)
        if !thingClauses.isEmpty, !reading.asksWhatOtherKnows {
            let othersNameDay = keptClauses.indices.contains { !thingClauses.contains($0) && keptClauses[$0].contains(where: Self.isDayItem) }
            // "Tolu's wedding is on Saturday the 12th. You're coming abi?": asked to attend, the thing is the plan.
            let asksToAttend = hasQuestionMark && items.contains { Self.attendWords.contains($0.text) }
                && items.contains { Self.wordRoles[$0.text]?.contains(.shared) == true }
            if !reading.invites && !asksToAttend || othersNameDay {
                let dropped = thingClauses.map { keptClauses[$0] }
                keptClauses = keptClauses.indices.filter { !thingClauses.contains($0) }.map { keptClauses[$0] }
                // "is out Friday" (released) says no to nothing, and "the match is cancelled" calls off no plan.
                func said(_ cue: Cue, _ clauses: [[Item]]) -> Bool { clauses.contains { $0.contains { $0.has(cue) } } }
                if reading.cancels, said(.cancel, dropped), !said(.cancel, keptClauses) { reading.cancels = false }
                if reading.denies, said(.deny, dropped), !said(.deny, keptClauses) { reading.denies = false }
                if !reading.invites { reading.tellsAThingsDay = true }
            }
        }
        // "you around this week? my sister flies in wednesday": an invitation with a when of its own
        // does not take the day of someone else's doings beside it ("Tolu's wedding is Saturday, you're
        // coming?" has none of its own, so it is asked to that day).
        if !othersClauses.isEmpty, othersClauses.count < keptClauses.count,
           keptClauses.indices.contains(where: { index in
               !othersClauses.contains(index) && keptClauses[index].contains { $0.has(.invite) }
                   && keptClauses[index].contains { Self.isDayItem($0) || $0.cues.contains(where: Self.isWhenCue) }
           }) {
            keptClauses = keptClauses.indices.map { index in
                othersClauses.contains(index) ? keptClauses[index].filter { !Self.isDayItem($0) && $0.token.kind != .number } : keptClauses[index]
            }
        }
        // "Starts half 7 but let's meet there at 7", "يبدأ ٨ بس خلنا نتلاقى ٧ ونص": the thing's own start,
        // said beside an invitation with an hour of its own, is not when the two meet.
        func hasHour(_ clause: [Item]) -> Bool { clause.contains { $0.token.kind == .number } }
        if keptClauses.count > 1,
           keptClauses.contains(where: { clause in hasHour(clause) && clause.contains { $0.has(.invite) } && !clause.contains { Self.startWords.contains($0.text) } }) {
            keptClauses = keptClauses.map { clause in
                guard clause.contains(where: { Self.startWords.contains($0.text) }), !clause.contains(where: { $0.has(.invite) }) else { return clause }
                return clause.filter { $0.token.kind != .number }
            }
        }
        if asksAboutOtherThing, !reading.invites {
            keptClauses = keptClauses.map { clause in clause.filter { !Self.isDayItem($0) && $0.token.kind != .number && !$0.cues.contains(where: Self.isWhenCue) } }
        }
        var kept = Array(Self.withoutAsides(keptClauses, denies: reading.denies).joined())
        if !ownDays.isEmpty, !kept.contains(where: { Self.isDayItem($0) }) { kept = ownDays + kept }
        // "اي شفت الخبر": a yes about the news, the weather or the past agrees to no plan.
        if yesElsewhere, !kept.contains(where: { $0.has(.accept) || $0.has(.acceptAlone) }) { reading.accepts = false }
        if noElsewhere, reading.excuseDays.isEmpty, !kept.contains(where: { $0.has(.deny) }) { reading.denies = false }
        // "Thursday I have a dentist at 10 but afternoon is free", "بس العصر نقدر": after an excuse, "but" and
        // being free says when one can; the excuse alone does not turn the plan down.
        // So does "then" ("baacher 3indi dentist el sa3a 11, ba3deen free", "التلاتا عندي صباح لحدي ٢، بعدها فاضية").
        if let contrast = items.firstIndex(where: { $0.has(.contrast) || Self.afterThatWords.contains($0.text) }),
           items[..<contrast].contains(where: { $0.has(.ownPlan) }) {
            let after = items[contrast...]
            reading.freeAfterExcuse = after.indices.contains { index in
                Self.freeWords.contains(after[index].text) && !(index > contrast && Self.negations.contains(after[index - 1].text))
            }
        }
        // What is left is about the two of them.
        reading.isPast = false
        reading.isOwnPlan = false
        reading.isThirdParty = false
        reading.isInquiry = false
        reading.isNotAMeeting = false
        reading.isHypothetical = false
        return kept
    }

    /// Why an answer comes late: asleep, only just seen ("السبت هكون نايم" is an excuse, said of the plan's day).
    private static let lateAnswerWords: Set<String> = ["asleep", "slept", "saw", "nayim", "nayem", "nayma", "نايم", "نايمه", "dormais"]
    /// "was", "just": the late answer is told of the moment before.
    private static let wasWords: Set<String> = ["was", "just", "kint", "kunt", "كنت", "j'étais", "j'etais"]

    private static let additionWords: Set<String> = ["also", "and", "plus", "btw", "w", "wa", "كمان", "aussi", "et"]

    /// "Also unrelated, …", "w ba3d bukra …", "وكمان يوم السبت …" (a joined و, but not "والله").
    private static func opensAddition(_ word: String) -> Bool {
        additionWords.contains(word) || word.hasPrefix("و") && word.count > 3 && word != "والله"
    }

    /// "after that", "then": "ba3deen", "بعدها", "après".
    private static let afterThatWords: Set<String> = ["ba3deen", "ba3dein", "ba3den", "ba3dain", "ba3dayn", "بعدها", "بعدين", "وبعدها", "afterwards", "après", "apres"]

    /// Words that may follow an hour at the end of a clause: "8 keda", "٣ كده", "7 sharp", "4 bezabt".
    private static let hourClosers: Set<String> = ["keda", "kida", "kda", "كده", "كدا", "تقريبا", "sharp", "bezabt", "bezzabt", "بالضبط", "ish", "-ish", "or so", "inshallah", "ان شاء الله", "إن شاء الله", "insha'allah"]

    /// "bnmorr 3aleki 8", "pick you up 8", "اكون عندك ٤": a bare hour that closes a clause after
    /// words. Alone it is no time; said in answer to "what time?" it is the time (the tracker decides).
    private static func closingHour(_ items: [Item]) -> SpokenClock? {
        for index in items.indices.reversed() {
            let item = items[index]
            guard item.isNumber, item.token.minute == nil, (1...12).contains(item.token.number) else { continue }
            guard index > 0, items[index - 1].token.kind == .word, !items[index - 1].has(.numberLabel) else { return nil }
            var next = index + 1
            while next < items.count, hourClosers.contains(items[next].text) { next += 1 }
            guard next == items.count || items[next].isPunctuation || items[next].cues.contains(where: { if case .partOfDay = $0 { true } else { false } }) else { return nil }
            return SpokenClock(hour: item.token.number, minute: 0, isPM: nil)
        }
        return nil
    }

    /// Words that end a stretch of one's own day: "till 6", "لين ٢", "la7ad el 5", "jusqu'à 18h".
    private static let untilWords: Set<String> = ["till", "til", "until", "'til", "untill", "لين", "الين", "لحد", "لغاية", "لغايه", "حتى", "lain", "la7ad", "l7ad", "7atta", "hatta", "7ata", "jusqu'à", "jusqua", "jusqu'a", "ghaya"]

    /// "at work till 2", "عندي دوام لين ٢", "client meeting till 6": one's own day said with the
    /// hour it ends tells when one is free, not no. A range ("from 4 to 6") is a slot, not an end.
    private static func saysBusyUntil(_ clause: [Item]) -> Bool {
        for index in clause.indices where untilWords.contains(clause[index].text) {
            if index > 0, clause[index - 1].token.kind == .number { continue }
            var next = index + 1
            while next < clause.count, next <= index + 3, clause[next].token.kind == .word, clause[next].cues.contains(where: { $0 == .clockLead }) || ["el", "al", "the", "الساعه"].contains(clause[next].text) { next += 1 }
            // "till the 14th", "till 3 March" is a date: travel, not an hour.
            guard next < clause.count, clause[next].token.kind == .number && (1...24).contains(clause[next].token.number)
                || clause[next].cues.contains(where: { if case .numberWord = $0 { true } else { false } }) else { continue }
            if next + 1 < clause.count, ordinalSuffixes.contains(clause[next + 1].text) || clause[next + 1].cues.contains(where: { if case .month = $0 { true } else { false } }) { continue }
            return true
        }
        return false
    }

    /// A time binds to the day of its own clause. When a clause asks or invites and names a when,
    /// another clause that reports one person's own day ("I", "my", "she", no "we" or "you"), and
    /// neither asks, invites nor answers, tells of something else ("I'm on night duty Tuesday till
    /// 8am, so shall we do chai Wednesday at 5?").
    /// In a no, a clause beside the counter that only says the sender's own day gives no time
    /// either ("can't, at work till 6. Saturday?"). Alternatives ("Friday or Saturday?") stay whole.
    private static func withoutAsides(_ clauses: [[Item]], denies: Bool) -> [[Item]] {
        guard clauses.count > 1, !clauses.contains(where: { $0.contains { $0.has(.or) } }) else { return clauses }
        func asks(_ clause: [Item]) -> Bool { clause.contains { $0.text == "?" || $0.has(.invite) } }
        func answers(_ clause: [Item]) -> Bool { clause.contains { $0.has(.accept) || $0.has(.acceptAlone) || $0.has(.deny) || $0.has(.cancel) || $0.has(.tentative) } }
        func namesDay(_ clause: [Item]) -> Bool { clause.contains { isDayItem($0) } }
        func namesWhen(_ clause: [Item]) -> Bool { clause.contains(where: Self.namesWhen) }
        // "cinema Friday 8pm, and brunch Sunday at 11?": a clause naming an activity is a plan of its own.
        func namesActivity(_ clause: [Item]) -> Bool { clause.contains { $0.cues.contains { if case .activity = $0 { true } else { false } } } }
        let asking = clauses.filter { asks($0) && namesWhen($0) }
        guard !asking.isEmpty else { return clauses }
        let askedDay = asking.contains(where: namesDay)
        // "Real Sports at 7 then? I'll get there at 6:30 to grab a table": beside an hour asked, one person's own hour is theirs.
        let askedHour = asking.contains { clause in clause.contains { $0.isNumber } }
        func reportsOnePerson(_ clause: [Item]) -> Bool {
            let roles = clause.map { wordRoles[$0.text] ?? [] }
            return roles.contains { $0.contains(.single) } && !roles.contains { $0.contains(.shared) }
        }
        return clauses.filter { clause in
            // "بكرة الصبح ما اقدر … شرايك السبت الساعة ٥؟": in a no that asks another day, the when of the no is the
            // one refused; its part of the day does not go to the day asked.
            if denies, askedDay, !asks(clause), clause.contains(where: { $0.has(.deny) }), namesWhen(clause) { return false }
            guard !asks(clause), !answers(clause), !namesActivity(clause), namesWhen(clause) else { return true }
            let ownHour = askedHour && clause.contains(where: \.isNumber) && !namesDay(clause) && reportsOnePerson(clause)
            return !(askedDay && namesDay(clause) && reportsOnePerson(clause) || ownHour || denies)
        }
    }

    /// Why a clause is not about a plan between the two.
    private struct Vetoes {
        var isPast = false, isOwnPlan = false, isThirdParty = false, isInquiry = false, isNotAMeeting = false, isHypothetical = false

        /// "عندي" alone is "I have" at the head of a clause ("عندي دوام") but "at mine" after a
        /// gathering ("عزيمة عندي في البيت").
        static let atMine: Set<String> = ["عندي", "3andi", "3indi", "3ndi", "3ande", "3andy", "3ndy", "3nde"]

        init(_ items: [Item]) {
            var sawActivity = false
            for item in items {
                // "3azimtk 3indi bil beit", "تعال عندي": after an invitation too it is "at mine".
                if item.cues.contains(where: { if case .activity = $0 { true } else { $0 == .invite } }) { sawActivity = true }
                for cue in item.cues {
                    switch cue {
                    case .past: isPast = true
                    case .ownPlan: if !(sawActivity && Self.atMine.contains(item.text)) { isOwnPlan = true }
                    case .thirdParty: isThirdParty = true
                    case .inquiry: isInquiry = true
                    case .notAMeeting: isNotAMeeting = true
                    case .hypothetical: isHypothetical = true
                    default: break
                    }
                }
            }
        }

    }

    /// A day, a number or another word of when.
    private static func namesWhen(_ item: Item) -> Bool {
        isDayItem(item) || item.token.kind == .number || item.cues.contains(where: isWhenCue)
    }

    private static func isWhenCue(_ cue: Cue) -> Bool {
        switch cue {
        case .prayer, .month, .vagueFrame, .weekend, .week, .tonight, .relativeDay, .weekday, .partOfDay, .hijriMonth, .fixedDate: true
        default: false
        }
    }

    /// "Saturday I'm in Qassim 😅 Sunday after Asr?": an emoji closes what was said before it, as a full stop does.
    private static func isEmoji(_ item: Item) -> Bool {
        item.token.kind == .symbol && item.cues.isEmpty && item.text.unicodeScalars.first?.properties.isEmojiPresentation == true
    }

    private static func clauses(_ items: [Item]) -> [Range<Int>] {
        var result: [Range<Int>] = []
        var start = 0
        for (index, item) in items.enumerated() {
            let ends = item.token.kind == .punctuation && [".", "!", "?", ";", ","].contains(item.text) || isEmoji(item)
            // "بس خلها ٩ عندي اجتماع يطول": the excuse after a counter is a clause of its own.
            // ("تعالي نتسحر عندي الليلة" is at mine, no excuse.)
            // (An obligation is no counter: "ولازم انام" keeps its verb.)
            // So is one's own day after a yes in one breath ("Saturday works and 11 is fine I have to be in Brooklyn by 3").
            // (Not a marker that closes its clause: "…الساعة ١٠ وانا بحضره لحالي" is all one's own.)
            func opensWords() -> Bool {
                items[(index + 1)...].prefix(while: { !($0.token.kind == .punctuation && [".", "!", "?", ";", ","].contains($0.text)) }).prefix(2).count >= 2
            }
            let excuseAfterCounter = item.has(.ownPlan) && !Vetoes.atMine.contains(item.text) && index > start
                && items[start..<index].contains { $0.has(.invite) && !isObligation($0.text) || $0.has(.accept) && opensWords() }
            if item.has(.contrast) || excuseAfterCounter, index > start {
                result.append(start..<index)
                start = index
            } else if ends {
                result.append(start..<(index + 1))
                start = index + 1
            }
        }
        if start < items.count { result.append(start..<items.count) }
        return result
    }

    /// Subjects that are the plan itself or a pronoun: "it's Friday", "the plan is 8", "that is Sunday".
    private static let planSubjects: Set<String> = [
        "it", "that", "this", "which", "what", "when", "where", "there", "here", "who", "plan", "booking", "reservation", "table", "time", "day",
        "date", "meeting", "meetup", "slot", "one", "everything", "all", "best", "better", "fine", "ok", "okay",
    ]
    private static let attendWords: Set<String> = ["coming", "come", "going", "go", "join", "joining", "attend", "attending", "there"]
    private static let copulas: Set<String> = ["is", "are", "was", "isn't", "is'nt"]
    private static let afterCopula: Set<String> = ["out", "on", "in", "at", "this", "next", "the", "till", "until", "from", "due", "back", "open", "closed", "off", "still", "now", "only", "not"]

    /// "the recital is friday", "the new Almodóvar is out Friday", "Gaz's stag is in Newcastle on the
    /// 24th": a clause that says what day a named thing is on. Its subject is a noun, not a person,
    /// the plan ("it", "the plan") or an activity; a day or hour follows the "is" within a few words.
    private static func tellsAThingsDay(_ clause: [Item]) -> Bool {
        guard let copula = clause.indices.first(where: { copulas.contains(clause[$0].text) }), copula > 0 else { return false }
        // "Massar Egbari are playing Cairo Jazz Club Friday": someone holds an event, which the other may be asked to.
        if copula + 1 < clause.count, clause[copula + 1].text.hasSuffix("ing") { return false }
        // The subject is the noun phrase before "is": from its last "the", "a" or owner's name on.
        let head = clause[..<copula].lastIndex { ["the", "a", "an"].contains($0.text) || $0.text.hasSuffix("'s") } ?? 0
        let subject = clause[head..<copula]
        guard subject.contains(where: { $0.token.kind == .word }) else { return false }
        // "Bilal's walima": an activity that is someone's own is still a thing of theirs.
        var possessed = false
        for (offset, item) in subject.enumerated() {
            // "the parents evening", "games night": a part of the day inside a name.
            if offset > 0, item.cues.allSatisfy({ if case .partOfDay = $0 { true } else { false } }) { continue }
            if item.text.hasSuffix("'s"), wordRoles[item.text] == nil, !planSubjects.contains(String(item.text.dropLast(2))), !["let's", "lets"].contains(item.text) {
                possessed = true
                continue
            }
            let activity = item.cues.contains { if case .activity = $0 { true } else { false } }
            if !item.cues.isEmpty && !(possessed && activity) || item.token.kind == .number || item.token.kind == .slashed { return false }
            if wordRoles[item.text] != nil || planSubjects.contains(item.text) { return false }
        }
        var index = copula + 1
        while index < clause.count, index <= copula + 5 {
            let item = clause[index]
            if isDayItem(item) || item.token.kind == .number && index > copula + 1 || item.token.kind == .number && item.token.minute != nil { return true }
            if item.cues.contains(where: isWhenCue) { return true }
            guard item.token.kind == .word, item.cues.isEmpty || afterCopula.contains(item.text) else { return false }
            if item.token.kind == .word, wordRoles[item.text] != nil { return false }
            index += 1
        }
        return false
    }

    /// Verbs that ask the other for their answer: "message me", "tell me", "قوليلي", "ردّيلي", "9olli".
    /// (A call is itself a plan between the two, so "call me", "كلمني" are not among them.)
    private static let answerVerbs: Set<String> = [
        "tell", "text", "message", "msg", "dm", "whatsapp", "lmk", "قولي", "قوليلي", "قللي", "قلي", "قلّي", "رد", "ردي", "رديلي", "ردلي", "ردولي",
        "خبرني", "خبريني", "خبرنى", "طمني", "طمنيني", "بلغني", "بلغيني", "2olli", "2olly", "2oli", "2ollī", "9olli", "9oli", "9oulli", "9ouli",
        "golli", "goulli", "goulia", "gouli", "qolli", "qouli", "5abarni", "5abrini", "5abirni", "khabarni", "khabbarni", "3ayetli", "3ayatli",
        "raddili", "roddili", "reddli", "dis-moi", "dites-moi",
    ]
    private static let answerObjects: Set<String> = ["me", "us", "moi"]

    /// "message me Saturday about it", "قوليلي بكرة", "9olli ghodwa": a request for the other's
    /// answer names when the answer comes, not when the plan is, so the days and hours after it
    /// are left out. "let me know if Friday works" keeps the plan's day after its "if".
    private static func withoutAnswerDay(_ items: [Item]) -> [Item] {
        guard let request = items.indices.first(where: { index in
            let word = items[index].text
            let next = index + 1 < items.count ? items[index + 1].text : ""
            if ["tell", "text", "message", "msg", "dm", "whatsapp"].contains(word) { return answerObjects.contains(next) }
            if word == "let", next == "me", index + 2 < items.count, items[index + 2].text == "know" { return true }
            return answerVerbs.contains(word)
        }) else { return items }
        var result = Array(items[..<request])
        for item in items[request...] {
            // "…if Friday works", "…whether 7 is ok", "…when you're free Saturday": the plan's when.
            if item.has(.conditional) || ["if", "whether", "for", "when", "which", "law", "لو", "اذا", "eza", "iza", "si", "امتى", "متى", "emta"].contains(item.text) {
                return items
            }
            if isDayItem(item) || item.token.kind == .number || item.cues.contains(where: isWhenCue) { continue }
            result.append(item)
        }
        return result
    }

    /// "by Thursday", "قبل الخميس", "till next week": a deadline's day is not the plan's, so the
    /// rest of the clause from the deadline word on is left out. "before Isha" stays: a prayer is a time.
    private static func withoutDeadline(_ items: [Item]) -> [Item] {
        for (index, item) in items.enumerated() where item.has(.deadline) {
            guard !items[..<index].contains(where: { $0.has(.rangeFrom) }) else { continue }
            var cursor = index + 1
            while cursor < items.count, ["the", "on", "el", "al", "يوم"].contains(items[cursor].text) { cursor += 1 }
            guard cursor < items.count else { continue }
            let next = items[cursor]
            if isDayItem(next) || next.has(.vagueFrame) || next.has(.weekend) || next.cues.contains(where: { if case .month = $0 { true } else { false } }) {
                return Array(items[..<index])
            }
        }
        return items
    }

    // MARK: items

    private static func items(of text: ChatText) -> [Item] {
        let matches = Lexicon.shared.matches(in: text)
        var items: [Item] = []
        items.reserveCapacity(text.tokens.count)
        var next = 0
        var index = 0
        while index < text.tokens.count {
            if next < matches.count, matches[next].first == index {
                let match = matches[next]
                items.append(Item(first: match.first, last: match.last, cues: match.cues, token: text.tokens[index]))
                index = match.last + 1
                next += 1
            } else {
                items.append(Item(first: index, last: index, cues: [], token: text.tokens[index]))
                index += 1
            }
        }
        for index in items.indices where ["don't", "dont"].contains(items[index].text) && items[index].first + 1 < text.tokens.count {
            items[index].isReminder = text.tokens[items[index].first + 1].text == "forget"
        }
        return items
    }

    private static func isMostlyArabic(_ text: ChatText) -> Bool {
        var arabic = 0, latin = 0
        for char in text.folded {
            guard let scalar = char.unicodeScalars.first else { continue }
            if (0x0600...0x06FF).contains(scalar.value) { arabic += 1 } else if char.isLetter, char.isASCII { latin += 1 }
        }
        return arabic > latin
    }

    // MARK: acts

    private func readActs(_ items: [Item], into reading: inout MessageReading) {
        // "ما تيجي ننزل نتمشى؟", "why don't we grab lunch?", "mat3ali m3ana?": a negated
        // invitation asked as a question invites; only said flat ("ما نروح") does it refuse.
        let asks = items.contains { $0.text.contains("?") || $0.text.contains("؟") }
        var waived = false
        for (position, item) in items.enumerated() {
            // "ما نوعدكش", "مش وعد", "mesh wa3d": not promising hedges.
            if item.cues.isEmpty, position > 0 {
                let previous = items[position - 1]
                let negates = previous.cues.isEmpty ? Self.negations.contains(Self.withoutAnd(previous.text)) : previous.has(.deny)
                if negates, Self.isPromise(item.text) { reading.isTentative = true }
            }
            if item.text == "?" { reading.isQuestion = true }
            let negated = position > 0 && items[position - 1].cues.isEmpty && Self.negations.contains(items[position - 1].text)
            if item.cues.isEmpty, position > 0, Self.negations.contains(items[position - 1].text), Self.negatableYes.contains(item.text) {
                reading.denies = true
            }
            // "ما نلحقش", "مانقدرش", "مجيش": the Egyptian and Maghrebi negation around a verb of coming.
            if item.cues.isEmpty, item.token.kind == .word, Self.isCircumfixNegation(item.text, after: position > 0 ? Self.withoutAnd(items[position - 1].text) : "") {
                reading.denies = true
            }
            if item.cues.isEmpty, item.token.kind == .word {
                // "منأجلها", "هنلغيها", "بنأجل": the first-person plural prefix before the stem.
                let unprefixed = item.text.first.map { Self.pluralPrefixes.contains($0) } == true ? String(item.text.dropFirst()) : item.text
                if Self.cancelStems.contains(where: { item.text.hasPrefix($0) || unprefixed.hasPrefix($0) }) { reading.cancels = true }
                if let first = item.text.first, Self.pluralPrefixes.contains(first), item.text.count >= 5,
                   Lexicon.shared.isInvitation(String(item.text.dropFirst())) || Self.withoutObject(String(item.text.dropFirst())).map(Lexicon.shared.isInvitation) == true {
                    reading.invites = true
                }
            }
            for cue in item.cues {
                switch cue {
                case .accept:
                    // "ya reit", "ya 3am", "ya basha": the Arabizi vocative, not "yeah".
                    let vocative = item.text == "ya" && position + 1 < items.count && items[position + 1].token.kind == .word
                    if negated { reading.denies = true } else if !vocative { reading.accepts = true }
                case .invite:
                    // "you don't need to join": waived, it invites nobody; nor does "don't forget …", a reminder, nor
                    // "he wants me to come", someone else asking the sender along.
                    if waived || item.isReminder || Self.isOwnObligation(at: position, items) || Self.isAskedBySomeoneElse(at: position, items) { break }
                    if negated, !asks { reading.denies = true } else { reading.invites = true }
                case .deny:
                    let forbidden = position > 0 && Self.isProhibition(at: position - 1, items)
                    // "I'm not busy", "مش مشغول": a no denied is no refusal.
                    if negated { break }
                    // "can't promise", "ما اقدر اوعدك": the no is about promising; it hedges.
                    if position + 1 < items.count, Self.isPromise(items[position + 1].text) {
                        reading.isTentative = true
                        break
                    }
                    if !Self.isProhibition(at: position, items), !forbidden { reading.denies = true }
                case .tentative: reading.isTentative = true
                case .regret: reading.regrets = true
                case .waiver: waived = true
                // "sure, but if I'm a bit late don't be mad", "ماشي، بس لو اتأخرت": an "if" about running late
                // asks leave, it holds no condition on the plan.
                case .conditional: if !Self.isAboutRunningLate(after: position, items) { reading.isConditional = true }
                case .cancel: if !(position > 0 && Self.isProhibition(at: position - 1, items)) { reading.cancels = true }
                case .askTime: reading.asksTime = true
                case .askWhen: if Self.asksInItsClause(position, items) { reading.asksWhen = true }
                case .either: reading.leavesChoiceOpen = true
                case .past: reading.isPast = true
                case .ownPlan: reading.isOwnPlan = true
                case .thirdParty: reading.isThirdParty = true
                case .inquiry: reading.isInquiry = true
                case .notAMeeting: reading.isNotAMeeting = true
                case .hypothetical: reading.isHypothetical = true
                case .forwarded: reading.isForwarded = true
                case .noTimeFrame: reading.hasNoTimeFrame = true
                default: break
                }
            }
        }
        // "أكيد طبعا، مقدرش أفوتها": a no in front of missing it is no refusal (the yes beside it
        // decides; "I'm not missing it" about a match says nothing of the plan).
        for position in items.indices.dropFirst() where Self.isMissing(items[position].text) {
            let lower = max(0, position - 2)
            if items[lower..<position].contains(where: { $0.has(.deny) || $0.cues.isEmpty && Self.negations.contains($0.text) }),
               !items.indices.contains(where: { ($0 < lower || $0 > position) && items[$0].has(.deny) }) {
                reading.denies = false
            }
        }
        // "sorry… I might have my niece, so let me see and I'll let you know": a no and a maybe in one
        // message, the one said last is where the sender ends up.
        // "we can't come Tuesday, I'll let you know when he's better": word promised for when something
        // has passed puts the plan off with no time, so the no stands.
        if reading.denies, reading.isTentative, !reading.cancels,
           let lastNo = items.indices.last(where: { items[$0].has(.deny) && !Self.isProhibition(at: $0, items) }),
           let lastMaybe = items.indices.last(where: { items[$0].has(.tentative) }), lastMaybe > lastNo,
           !(lastMaybe + 1 < items.count && Self.putOffOpeners.contains(items[lastMaybe + 1].text)) {
            reading.denies = false
        }
        // A plain "أجل"/"yes" inside a longer refusal is politeness, not acceptance.
        if reading.denies, reading.accepts, reading.cancels { reading.accepts = false }
        // "sorry for the late reply! yes count me in", "آسف على التأخير، أكيد جاي": an apology
        // before a yes is politeness ("oh ya sorry" after a yes is still sorry).
        if reading.denies, reading.accepts, !reading.cancels,
           let firstNo = items.firstIndex(where: { $0.has(.deny) }),
           items.allSatisfy({ !$0.has(.deny) || Lexicon.apologies.contains($0.text) }),
           items[(firstNo + 1)...].contains(where: { $0.has(.accept) }), !items[..<firstNo].contains(where: { $0.has(.accept) }) {
            reading.denies = false
        }
        // "sorry kint nayim 😴", "sorry, just saw this": an apology for answering late refuses nothing.
        if reading.denies, !reading.cancels, items.allSatisfy({ !$0.has(.deny) || Lexicon.apologies.contains($0.text) }),
           items.contains(where: { Self.lateAnswerWords.contains($0.text) }), items.contains(where: { Self.wasWords.contains($0.text) }) {
            reading.denies = false
        }
        let words = items.filter { $0.token.kind == .word || $0.token.kind == .number }.count
        reading.wordCount = words
        // "صار", "ih", "can": yes only as the whole reply.
        if words <= 3, items.contains(where: { $0.has(.acceptAlone) }), !reading.denies { reading.accepts = true }
        // ... or as a whole sentence of its own ("ugh fine. see you at the gates").
        if !reading.accepts, !reading.denies {
            let breaks = [".", "!", "?", ",", ";", "…"]
            for position in items.indices where items[position].has(.acceptAlone) {
                var lower = position, upper = position
                while lower > 0, !breaks.contains(items[lower - 1].text) { lower -= 1 }
                while upper + 1 < items.count, !breaks.contains(items[upper + 1].text) { upper += 1 }
                let sentenceWords = items[lower...upper].filter { $0.token.kind == .word || $0.token.kind == .number }.count
                if sentenceWords <= 3, upper + 1 < items.count || lower > 0 { reading.accepts = true }
            }
        }
        // "Quarter past 6 it is", "Friday it is": taking up what was offered.
        for position in items.indices.dropFirst() where position + 1 < items.count
            && items[position].text == "it" && items[position + 1].text == "is"
            && (position + 2 == items.count || items[position + 2].token.kind != .word) {
            let previous = items[position - 1]
            if previous.token.kind == .number || !previous.cues.isEmpty { reading.accepts = true }
        }
        // "I'd love to but…", "ok bas…": a yes before "but" gives way to a no or a maybe after it.
        if let contrast = items.firstIndex(where: { $0.has(.contrast) }), reading.accepts {
            let before = items[..<contrast], after = items[contrast...]
            let yesBefore = before.contains { $0.has(.accept) }
            let yesAfter = after.contains { $0.has(.accept) }
            let noAfter = after.indices.contains { position in
                let item = items[position]
                return (item.has(.deny) && !Self.isProhibition(at: position, items)) || item.has(.tentative)
                    || item.has(.conditional) && !Self.isAboutRunningLate(after: position, items)
            }
            // "we'd love to but we're away till Sunday": one's own absence after "but", with nothing else offered
            // or asked ("yes, but what time? I have a class till 11" still says yes), is the no.
            let awayAfter = after.contains { $0.has(.ownPlan) } && !after.contains { $0.has(.invite) || $0.has(.accept) || $0.text == "?" }
            if yesBefore, !yesAfter, noAfter || awayAfter { reading.accepts = false }
            // "اوكي، بس خلها ٩", "ok but make it 8:30": a yes with another time after "but" counters.
            let counterAfter = after.contains { $0.has(.invite) } && after.contains { $0.token.kind == .number || $0.cues.contains(where: Self.isWhenCue) }
            if yesBefore, !yesAfter, counterAfter { reading.accepts = false }
        }
        // "ممكن بس خليها ١٠ وربع", "maybe, but make it 8": a maybe before "but" and a new time after it counters.
        if let contrast = items.firstIndex(where: { $0.has(.contrast) }), reading.isTentative,
           !items[contrast...].contains(where: { $0.has(.tentative) }), items[..<contrast].contains(where: { $0.has(.tentative) }),
           items[contrast...].contains(where: { $0.has(.invite) }), items[contrast...].contains(where: { $0.token.kind == .number || $0.cues.contains(where: Self.isWhenCue) }) {
            reading.isTentative = false
        }
        // "dont bail" … "wont", "لا تتأخر" … "لا": a no that answers a "don't" is a promise (the tracker decides).
        reading.forbidsSomething = items.indices.contains { Self.isProhibition(at: $0, items) }
    }

    private static let thirdPersons: Set<String> = ["he", "she", "they", "mum", "mom", "dad", "boss"]

    /// "he wants me to come", "she asked me to join": within the few words before the invitation someone else asks "me".
    private static func isAskedBySomeoneElse(at position: Int, _ items: [Item]) -> Bool {
        let before = items[max(0, position - 4)..<position]
        guard let me = before.lastIndex(where: { $0.text == "me" }) else { return false }
        return items[max(0, me - 3)..<me].contains { thirdPersons.contains($0.text) }
    }

    /// "لازم أدرس", "lazem a5alas", "I must study": an obligation in the first person singular is
    /// one's own, not an invitation ("لازم نطلع" is "we must go out").
    private static func isOwnObligation(at position: Int, _ items: [Item]) -> Bool {
        guard items[position].first == items[position].last, isObligation(items[position].text), position + 1 < items.count else { return false }
        let next = items[position + 1].text
        if next == "i" || next == "ana" || next == "انا" { return true }
        return next.count > 2 && (next.hasPrefix("ا") || next.hasPrefix("a") && items[position].text.hasPrefix("laz"))
    }

    /// "لازم", and "ولازم" with the joined "and" ("عندي امتحان ولازم اذاكر").
    static func isObligation(_ word: String) -> Bool {
        obligations.contains(word) || word.hasPrefix("و") && obligations.contains(String(word.dropFirst()))
    }

    /// "وما", "ومش": the joined "and" before a negation.
    private static func withoutAnd(_ word: String) -> String {
        guard word.hasPrefix("و") else { return word }
        let rest = String(word.dropFirst())
        return negations.contains(rest) ? rest : word
    }

    private static func isPromise(_ word: String) -> Bool {
        Lexicon.promiseStems.contains { word.hasPrefix($0) }
    }

    /// "ما نلحقش", "مانقدرش", "منقدرش", "مجيش": ما (apart or joined) before a verb of coming, ش after it.
    private static func isCircumfixNegation(_ word: String, after previous: String) -> Bool {
        guard word.hasSuffix("ش"), word.count >= 4 else { return false }
        var stem = String(word.dropLast())
        if previous == "ما" || previous == "م" {
            if Lexicon.comingVerbs.contains(stem) { return true }
        }
        for prefix in ["ما", "م"] where stem.hasPrefix(prefix) {
            stem = String(stem.dropFirst(prefix.count))
            if Lexicon.comingVerbs.contains(stem) || Lexicon.comingVerbs.contains("ا" + stem) { return true }
        }
        return false
    }

    /// "نحضره", "نشوفها": a first-person plural verb with its object, without the object.
    private static func withoutObject(_ word: String) -> String? {
        guard word.hasPrefix("ن") else { return nil }
        for suffix in ["ها", "هم", "كم", "ه"] where word.hasSuffix(suffix) && word.count > suffix.count + 2 {
            return String(word.dropLast(suffix.count))
        }
        return nil
    }

    /// "افوتها", "يفوتني", "miss": missing a plan, which a no in front of turns into a yes.
    private static func isMissing(_ word: String) -> Bool {
        word == "miss" || word == "missing" || word.hasPrefix("افوت") || word.hasPrefix("يفوت") || word.hasPrefix("نفوت") || word.hasPrefix("تفوت")
    }

    /// "when?", "when are you free": a question; "10ish when it opens", "call me when you land"
    /// only tie a time to something.
    private static func asksInItsClause(_ position: Int, _ items: [Item]) -> Bool {
        let breaks: Set<String> = [".", "!", "?", ",", ";", "…"]
        var start = position
        while start > 0, !breaks.contains(items[start - 1].text) { start -= 1 }
        var end = position
        while end + 1 < items.count, !breaks.contains(items[end + 1].text) { end += 1 }
        let endsAsking = end + 1 < items.count && items[end + 1].text == "?" || items[position].text.hasSuffix("?")
        return endsAsking || position - start <= 1
    }

    /// "لا تتأخر", "la tnsa", "don't be late": a bare no in front of a second-person verb tells
    /// the other what not to do; it refuses nothing.
    private static let prohibitionWords: Set<String> = ["لا", "la", "laa", "don't", "dont"]

    private static func isProhibition(at position: Int, _ items: [Item]) -> Bool {
        guard prohibitionWords.contains(items[position].text), !items[position].isReminder, position + 1 < items.count else { return false }
        let next = items[position + 1]
        // "don't bail on me", "la tlghiha": telling the other not to call it off holds the plan.
        guard next.token.kind == .word, next.cues.isEmpty || next.has(.invite) || next.has(.cancel) || next.has(.deny) else { return false }
        if items[position].text.hasPrefix("d") { return true }
        return next.text.hasPrefix("ت") || (next.text.hasPrefix("t") && next.text.count > 2)
    }

    // MARK: segments

    /// Splits a message that proposes several plans ("cinema Friday 8pm, and brunch Sunday at 11?")
    /// into one range of items per plan. A single plan, or alternatives of one plan, stay whole.
    private static func segments(_ items: [Item]) -> [Range<Int>] {
        let whole = [0..<items.count]
        let activities = items.indices.filter { items[$0].cues.contains { if case .activity = $0 { true } else { false } } }
        // "تم الخميس. وبعدها بعد العشا نتعشى عند ابو نواف؟": after "and then", an activity with a
        // when of its own is a second plan.
        if let lastActivity = activities.last, let then = items.indices.first(where: { $0 > 0 && items[$0].has(.sequence) }), lastActivity > then,
           items[then...].contains(where: { item in isDayItem(item) || item.token.kind == .number || item.cues.contains { isWhenCue($0) || $0 == .after } }),
           !items.contains(where: { $0.has(.or) }) {
            return [0..<then, then..<items.count]
        }
        let days = items.indices.filter { isDayItem(items[$0]) }
        guard activities.count >= 2, days.count >= 2,
              !items.contains(where: { $0.has(.or) }) else { return whole }
        let firstGroupEnd = max(days[0], activities[0])
        guard let secondStart = (days.dropFirst() + activities.dropFirst()).filter({ $0 > firstGroupEnd }).min() else { return whole }
        var split: Int?
        for index in stride(from: secondStart, to: firstGroupEnd, by: -1) where isSeparator(items[index]) {
            split = index
            break
        }
        guard let split, split > 0 else { return whole }
        return [0..<split, split..<items.count]
    }

    private static func isDayItem(_ item: Item) -> Bool {
        item.cues.contains {
            switch $0 {
            case .relativeDay, .tonight, .weekday, .fixedDate: true
            default: false
            }
        } || item.token.kind == .slashed
    }

    private static func isSeparator(_ item: Item) -> Bool {
        if item.token.kind == .punctuation, [",", ";", "."].contains(item.text) { return true }
        if ["and", "then", "also", "plus", "وبعدها", "وبعدين", "بعدها", "w", "wba3dain"].contains(item.text) { return true }
        return item.has(.rangeTo) && item.text == "and"
    }

    // MARK: one plan

    private func readFragment(_ items: [Item], text: ChatText, sentAt: LocalDateTime) -> PlanFragment {
        var fragment = PlanFragment()
        let today = sentAt.midnight
        var usedAsDayOfMonth = Set<Int>()
        var past = false
        // Holidays name a day only when nothing else does ("NYE is going to be carnage, but
        // brunch Fri 1st?" is on the 1st).
        var holidays: [LocalDateTime] = []

        // Days, with the item each came from.
        var dayPositions: [(position: Int, plainWeekday: Bool)] = []
        for (index, item) in items.enumerated() {
            let daysBefore = fragment.days.count, datesBefore = usedAsDayOfMonth.count
            defer {
                let plain = item.cues.contains { if case .weekday = $0 { true } else { false } } && usedAsDayOfMonth.count == datesBefore
                for _ in daysBefore..<max(daysBefore, fragment.days.count) { dayPositions.append((index, plain)) }
            }
            for cue in item.cues {
                switch cue {
                case .relativeDay(let offset):
                    fragment.days.append(today.adding(days: offset))
                case .tonight:
                    fragment.days.append(today)
                    fragment.partOfDay = fragment.partOfDay ?? .night
                case .weekday(let weekday):
                    if let date = resolveWeekday(weekday, at: index, in: items, sentAt: sentAt, usedAsDayOfMonth: &usedAsDayOfMonth, past: &past) {
                        fragment.days.append(date)
                    }
                case .hijriMonth(let month):
                    if let date = resolveHijri(month, at: index, in: items, today: today, usedAsDayOfMonth: &usedAsDayOfMonth) {
                        fragment.days.append(date)
                    }
                case .fixedDate(let month, let day):
                    // The next one from today: "Boxing Day" said on 20 December is the 26th.
                    if var date = LocalDateTime(year: today.year, month: month, day: day) {
                        if date < today, let next = LocalDateTime(year: today.year + 1, month: month, day: day) { date = next }
                        holidays.append(date)
                    }
                case .quarterTo where item.text == "الاربع" && !(index > 0 && clockValue(items[index - 1]) != nil):
                    // Egyptian "الاربع" with no hour before it is Wednesday, not "quarter to".
                    if let date = resolveWeekday(4, at: index, in: items, sentAt: sentAt, usedAsDayOfMonth: &usedAsDayOfMonth, past: &past) {
                        fragment.days.append(date)
                    }
                case .month(let month):
                    if let (first, last) = resolveMonthDate(month, at: index, in: items, today: today, usedAsDayOfMonth: &usedAsDayOfMonth) {
                        fragment.days.append(first)
                        fragment.lastDay = last
                    } else if isMonthWordContext(index, items) {
                        fragment.isVague = true
                    }
                case .weekend, .vagueFrame:
                    fragment.isVague = true
                case .week:
                    if Self.neighbours(index, items, within: 2).contains(where: { $0.has(.next) || $0.has(.this) }) {
                        fragment.isVague = true
                    }
                case .dayUnit:
                    if index + 2 < items.count, items[index + 1].isNumber,
                       ["days", "day", "ايام", "يوم"].contains(items[index + 2].text) {
                        fragment.days.append(today.adding(days: items[index + 1].token.number))
                        usedAsDayOfMonth.insert(index + 1)
                    }
                case .wholeDay:
                    fragment.wholeDay = true
                case .sameTime:
                    fragment.sameTime = true
                default:
                    break
                }
            }
            if item.token.kind == .slashed, item.cues.isEmpty, let date = resolveSlashed(item.token, today: today) {
                fragment.days.append(date)
            }
            // "the 2nd floor", "my 3rd time": an ordinal that counts something else is no date.
            let countsOther = index + 2 < items.count && Self.ordinalNouns.contains(items[index + 2].text)
            if item.isNumber, item.token.minute == nil, (1...31).contains(item.token.number), !usedAsDayOfMonth.contains(index), !countsOther,
               index + 1 < items.count, Self.isOrdinal(item.token.number, items[index + 1].text),
               let date = nextDayOfMonth(item.token.number, after: today) {
                fragment.days.append(date)
                usedAsDayOfMonth.insert(index)
            }
        }
        if fragment.days.isEmpty, let holiday = holidays.last { fragment.days = [holiday] }
        if past { fragment.days.removeAll() }
        if fragment.days.count == dayPositions.count, fragment.days.count > 1 { joinDayRange(items, dayPositions, into: &fragment) }
        if fragment.days.count > 1, items.contains(where: { $0.has(.or) }) {
            fragment.daysAreAlternatives = Set(fragment.days).count > 1
        }
        // Keep distinct days in order of mention.
        var seen = Set<LocalDateTime>()
        fragment.days = fragment.days.filter { seen.insert($0).inserted }
        if !fragment.days.isEmpty { fragment.isVague = false }
        fragment.dayIsPlainWeekday = fragment.days.count == 1 && !dayPositions.isEmpty && dayPositions.allSatisfy(\.plainWeekday)

        let place = readLocation(items, text: text)
        readTimes(items, usedAsDayOfMonth: usedAsDayOfMonth, after: place?.items, into: &fragment)
        readPrayers(items, today: today, into: &fragment)
        fragment.location = place?.text
        readActivity(items, skipping: place?.items ?? 0..<0, into: &fragment)
        return fragment
    }

    /// "the Thursday" beside "Thu 14th" is that same day; "Thu 14th to Sat 16th", "14th-16th",
    /// "من الخميس الى السبت" are one stay from the first day to the last.
    private func joinDayRange(_ items: [Item], _ positions: [(position: Int, plainWeekday: Bool)], into fragment: inout PlanFragment) {
        var days: [(day: LocalDateTime, position: Int)] = []
        for (day, place) in zip(fragment.days, positions) {
            if place.plainWeekday, zip(fragment.days, positions).contains(where: { !$0.1.plainWeekday && $0.0.weekday == day.weekday && $0.0 != day }) {
                continue
            }
            if !days.contains(where: { $0.day == day }) { days.append((day, place.position)) }
        }
        fragment.days = days.map(\.day)
        guard days.count == 2, fragment.lastDay == nil, !items.contains(where: { $0.has(.or) }) else { return }
        let (first, second) = (days[0], days[1])
        guard second.day > first.day, second.day.daysSinceEpoch - first.day.daysSinceEpoch <= 14, first.position < second.position,
              items[(first.position + 1)..<second.position].contains(where: { $0.has(.rangeTo) && $0.text != "and" }) else { return }
        fragment.days = [first.day]
        fragment.lastDay = second.day
    }

    /// Items within `distance` of `index` on either side.
    private static func neighbours(_ index: Int, _ items: [Item], within distance: Int) -> [Item] {
        let lower = max(0, index - distance), upper = min(items.count - 1, index + distance)
        guard lower <= upper else { return [] }
        return (lower...upper).filter { $0 != index }.map { items[$0] }
    }

    /// Until this hour a night is still the evening before it.
    private static let smallHoursEnd = 5

    private func resolveWeekday(
        _ weekday: Int, at index: Int, in items: [Item], sentAt: LocalDateTime, usedAsDayOfMonth: inout Set<Int>, past: inout Bool
    ) -> LocalDateTime? {
        let today = sentAt.midnight
        let before = items[max(0, index - 2)..<index]
        if before.contains(where: { $0.has(.last) }) {
            past = true
            return nil
        }
        // "Saturday the 12th", "الثلاثاء 22": the number is the day of the month. "Tuesday 6" is a time.
        var cursor = index + 1
        var sawThe = false
        while cursor < items.count, Self.fillers.contains(items[cursor].text) {
            if items[cursor].text == "the" { sawThe = true }
            cursor += 1
        }
        let hasOrdinal = cursor + 1 < items.count && Self.isOrdinal(items[cursor].token.number, items[cursor + 1].text)
        let hijriFollows = cursor + 1 < items.count && items[cursor + 1].cues.contains { if case .hijriMonth = $0 { true } else { false } }
        if cursor < items.count, items[cursor].isNumber, items[cursor].token.minute == nil, !hijriFollows,
           (1...31).contains(items[cursor].token.number), !looksLikeClock(cursor, items),
           sawThe || hasOrdinal || items[cursor].token.number > 12,
           let date = dayOfMonth(items[cursor].token.number, weekday: weekday, after: today) {
            usedAsDayOfMonth.insert(cursor)
            return date
        }
        // "next week Monday", "الاسبوع الجاي يوم الاثنين": that day of the following calendar week.
        let around = Self.neighbours(index, items, within: 4)
        if around.contains(where: { $0.has(.week) }), around.contains(where: { $0.has(.next) }) {
            let mondayOffset = (today.weekday + 5) % 7 // days since this week's Monday
            let nextMonday = today.adding(days: 7 - mondayOffset)
            return nextMonday.adding(days: (weekday + 5) % 7)
        }
        // A weekday is the first such day strictly after the message's day; "Sunday week",
        // "a week on Sunday", "الخميس اللي بعده" the one after that.
        // Said in the small hours ("Tomorrow as in Saturday?" at 00:20 on Saturday), the message's own weekday is the
        // day just begun: whoever is still up calls it by its name.
        var delta = (weekday - today.weekday + 7) % 7
        if delta == 0, sentAt.hour >= Self.smallHoursEnd || around.contains(where: { $0.has(.next) }) { delta = 7 }
        if isWeekLater(index, items) { delta += 7 }
        return today.adding(days: delta)
    }

    private func isWeekLater(_ index: Int, _ items: [Item]) -> Bool {
        if index + 1 < items.count, items[index + 1].has(.weekLater) {
            // "Sunday week", not "Sunday next week" / "Friday this week" (those read "week" with next/this).
            let following = index + 2 < items.count ? items[index + 2] : nil
            if items[index + 1].has(.week), following.map({ $0.has(.next) || $0.has(.this) || $0.has(.last) }) == true { return false }
            return true
        }
        // "a week on Sunday", "a week from Friday": a phrase, not the bare "week" of "next week Monday".
        if index > 0, items[index - 1].has(.weekLater), !items[index - 1].has(.week) { return true }
        return false
    }

    /// "١٦ رمضان", "Ramadan 3rd", "٢ شوال": a day of a Hijri month, found from the Ramadan the
    /// calendar reports (Shawwal follows it; Dhu al-Hijjah begins 59 days after Shawwal in the tabular calendar).
    private func resolveHijri(_ month: Int, at index: Int, in items: [Item], today: LocalDateTime, usedAsDayOfMonth: inout Set<Int>) -> LocalDateTime? {
        var position: Int?
        for candidate in [index - 1, index + 1, index - 2, index + 2] where candidate >= 0 && candidate < items.count {
            let item = items[candidate]
            if item.isNumber, item.token.minute == nil, (1...30).contains(item.token.number) {
                position = candidate
                break
            }
            if candidate == index - 2 || candidate == index + 2 { continue }
            if !(Self.ordinalSuffixes.contains(item.text) || item.text == "of") { break }
        }
        guard let position, let start = ramadanStart(from: today.adding(days: -40)) else { return nil }
        let day = items[position].token.number
        func date(from ramadan: LocalDateTime) -> LocalDateTime? {
            switch month {
            case 9: return ramadan.adding(days: day - 1)
            case 10, 12:
                var end = ramadan
                while isRamadan(end.adding(days: 1)), end.daysSinceEpoch - ramadan.daysSinceEpoch < 31 { end = end.adding(days: 1) }
                return end.adding(days: (month == 12 ? 60 : 1) + day - 1)
            default: return nil
            }
        }
        guard var result = date(from: start) else { return nil }
        if result < today, let next = ramadanStart(from: start.adding(days: 300)), let later = date(from: next) { result = later }
        usedAsDayOfMonth.insert(position)
        return result
    }

    /// The first day of the first Ramadan on or after `day`, within about a year.
    private func ramadanStart(from day: LocalDateTime) -> LocalDateTime? {
        var previous = isRamadan(day.adding(days: -1))
        for offset in 0..<420 {
            let current = isRamadan(day.adding(days: offset))
            if current, !previous { return day.adding(days: offset) }
            previous = current
        }
        return nil
    }

    /// The next date with this day of the month (and, if given, weekday), from today on.
    private func dayOfMonth(_ day: Int, weekday: Int?, after today: LocalDateTime) -> LocalDateTime? {
        var candidate: LocalDateTime?
        for monthOffset in 0..<14 {
            var year = today.year, month = today.month + monthOffset
            while month > 12 { month -= 12; year += 1 }
            guard let date = LocalDateTime(year: year, month: month, day: day), date >= today else { continue }
            if weekday == nil || date.weekday == weekday { return date }
            if candidate == nil { candidate = date }
        }
        return candidate
    }

    private func nextDayOfMonth(_ day: Int, after today: LocalDateTime) -> LocalDateTime? {
        dayOfMonth(day, weekday: nil, after: today)
    }

    /// "Jan 1", "1st of January", "١٠ ديسمبر", "Feb 26 to 28", "من ٢٦ الى ٢٨ فبراير".
    private func resolveMonthDate(
        _ month: Int, at index: Int, in items: [Item], today: LocalDateTime, usedAsDayOfMonth: inout Set<Int>
    ) -> (LocalDateTime, LocalDateTime?)? {
        func dayNumber(_ position: Int) -> Int? {
            guard position >= 0, position < items.count, items[position].isNumber, items[position].token.minute == nil,
                  (1...31).contains(items[position].token.number) else { return nil }
            return items[position].token.number
        }
        var firstDay: Int?, lastDay: Int?
        // After the month: "Jan 1", "January 1st", "Feb 26 to 28".
        var cursor = index + 1
        if cursor < items.count, items[cursor].text == "the" { cursor += 1 }
        if let day = dayNumber(cursor), !looksLikeClock(cursor, items) {
            firstDay = day
            usedAsDayOfMonth.insert(cursor)
            var after = cursor + 1
            if after < items.count, Self.ordinalSuffixes.contains(items[after].text) { after += 1 }
            if after + 1 < items.count, items[after].has(.rangeTo), let end = dayNumber(after + 1) {
                lastDay = end
                usedAsDayOfMonth.insert(after + 1)
            }
        } else {
            // Before the month: "10 ديسمبر", "1st of January", "26 to 28 Feb".
            var back = index - 1
            if back >= 0, items[back].text == "of" { back -= 1 }
            if back >= 0, Self.ordinalSuffixes.contains(items[back].text) { back -= 1 }
            if let day = dayNumber(back) {
                firstDay = day
                usedAsDayOfMonth.insert(back)
                if back >= 2, items[back - 1].has(.rangeTo), let start = dayNumber(back - 2) {
                    firstDay = start
                    lastDay = day
                    usedAsDayOfMonth.insert(back - 2)
                }
            }
        }
        guard let firstDay else { return nil }
        var year = today.year
        guard var start = LocalDateTime(year: year, month: month, day: firstDay) else { return nil }
        // A date well in the past means next year ("Friday Jan 1" said on Dec 30).
        if start.daysSinceEpoch < today.daysSinceEpoch - 31 {
            year += 1
            guard let next = LocalDateTime(year: year, month: month, day: firstDay) else { return nil }
            start = next
        }
        var end: LocalDateTime?
        if let lastDay, lastDay > firstDay { end = LocalDateTime(year: year, month: month, day: lastDay) }
        return (start, end)
    }

    /// A month name standing alone ("late Feb", "in March") is a vague frame; "may" rarely is.
    private func isMonthWordContext(_ index: Int, _ items: [Item]) -> Bool {
        guard items[index].text != "may", items[index].text != "mar", items[index].text != "sat" else { return false }
        return index > 0 && ["late", "early", "mid", "in", "end", "اخر", "بدايه", "نص", "في"].contains(items[index - 1].text)
    }

    private func resolveSlashed(_ token: ChatText.Token, today: LocalDateTime) -> LocalDateTime? {
        var (month, day) = monthFirst ? (token.number, token.second) : (token.second, token.number)
        if month > 12, day <= 12 { swap(&month, &day) }
        guard (1...12).contains(month), (1...31).contains(day) else { return nil }
        guard var date = LocalDateTime(year: today.year, month: month, day: day) else { return nil }
        if date.daysSinceEpoch < today.daysSinceEpoch - 31, let next = LocalDateTime(year: today.year + 1, month: month, day: day) {
            date = next
        }
        return date
    }

    // MARK: times

    /// Whether the number at `index` is read as a time of day by its own neighbours.
    private func looksLikeClock(_ index: Int, _ items: [Item]) -> Bool {
        if items[index].token.minute != nil { return true }
        if index + 1 < items.count {
            let next = items[index + 1]
            // "samedi 19h": the French hour mark.
            if next.text == "h", next.token.start == items[index].token.end { return true }
            if Self.meridiemWords[next.text] != nil || next.has(.oClock) || next.has(.approximately)
                || next.has(.halfPast) || next.has(.quarterPast) || next.has(.quarterTo) || next.has(.thirdPast) || next.has(.thirdTo) {
                return true
            }
        }
        if index > 0 {
            let previous = items[index - 1]
            if previous.has(.clockLead) && previous.text != "at" && previous.text != "@" && previous.text != "by" { return true }
            // "خلها ٩", "make it 8": a number the plan is moved to.
            if previous.has(.invite), Self.makeItWords.contains(previous.text) { return true }
            // "can we do 8", "let's do 7:30": the number a plan is done at.
            // ("let's do 5-a-side" names a game.)
            if previous.text == "do", index >= 2, ["we", "let's", "lets"].contains(items[index - 2].text) || items[index - 2].has(.invite),
               index + 1 == items.count || items[index + 1].text != "-" && (items[index + 1].isPunctuation || !items[index + 1].cues.isEmpty) {
                return true
            }
        }
        // "10 till 11", "٤ الى ٦": two numbers joined as a range ("5 to 7 people" counts people).
        if index + 2 < items.count, items[index + 1].has(.rangeTo), items[index + 1].text != "and", items[index + 1].text != "-",
           items[index + 2].isNumber, items[index + 2].token.number <= 24,
           !(index + 3 < items.count && items[index + 3].has(.quantityUnit)) {
            return true
        }
        return false
    }

    private static let makeItWords: Set<String> = ["خلها", "خليها", "خليه", "خله", "خلوها", "نخليها", "نخليه", "make", "5aliha", "5alliha", "khalliha", "5leha"]

    /// "men 3 l 5": the Arabizi "to" of a range, read so only between "from" and an hour.
    private static let arabiziTo: Set<String> = ["l", "lel", "lil", "ll"]

    /// `place`: the items of the place named, if any; a bare hour right after it is a clock ("بكرة في كافيه بارنز ٨؟").
    private func readTimes(_ items: [Item], usedAsDayOfMonth: Set<Int>, after place: Range<Int>?, into fragment: inout PlanFragment) {
        let wordCount = items.filter { $0.token.kind == .word || $0.token.kind == .number }.count
        let hasDayMention = fragment.hasDay
        var index = 0
        while index < items.count {
            let item = items[index]
            if let duration = durationAt(index, items) {
                fragment.durationMinutes = fragment.durationMinutes ?? duration.minutes
                index = duration.next
                continue
            }
            guard !usedAsDayOfMonth.contains(index), let value = clockValue(item) else {
                index += 1
                continue
            }
            let isTime = isClock(at: index, items, hasDayMention: hasDayMention, wordCount: wordCount)
                || hasDayMention && Self.isHourAfterPlace(index, items, place: place)
            guard isTime, var clock = spokenClock(at: index, value: value, items) else {
                index += 1
                continue
            }
            if clock.hour > 24 { index += 1; continue }
            if clock.hour == 24 { clock.hour = 0 }
            if fragment.clock != nil { fragment.laterClocks.append(clock) }
            if fragment.clock == nil {
                fragment.clock = clock
                // A range: "from 5 to 7", "٤ الى ٦", "between 10 and 12", "9 till 1".
                var cursor = index + 1
                while cursor < items.count, items[cursor].token.kind == .word, !items[cursor].has(.rangeTo),
                      Self.meridiemWords[items[cursor].text] != nil || items[cursor].has(.halfPast) || items[cursor].has(.quarterPast)
                      || items[cursor].has(.approximately) || items[cursor].has(.oClock) {
                    cursor += 1
                }
                if cursor + 1 < items.count, items[cursor].has(.rangeTo) || index > 0 && items[index - 1].has(.rangeFrom) && Self.arabiziTo.contains(items[cursor].text) {
                    var endIndex = cursor + 1
                    if endIndex < items.count, items[endIndex].has(.clockLead) { endIndex += 1 }
                    if endIndex < items.count, let endValue = clockValue(items[endIndex]),
                       let end = spokenClock(at: endIndex, value: endValue, items), end.hour <= 24 {
                        fragment.endClock = end
                        index = endIndex + 1
                        continue
                    }
                }
            }
            index += 1
        }
        if fragment.clock == nil, items.contains(where: { $0.has(.partOfDay(.noon)) && ["noon", "midday"].contains($0.text) }) {
            fragment.clock = SpokenClock(hour: 12, minute: 0, isPM: true)
        }
        for item in items {
            for cue in item.cues {
                if case .partOfDay(let part) = cue, fragment.partOfDay == nil || part != .noon { fragment.partOfDay = part }
            }
        }
    }

    /// "1830", "0900": four digits as a 24-hour clock.
    private static func militaryClock(_ item: Item) -> (hour: Int, minute: Int)? {
        guard item.isNumber, item.token.minute == nil, item.token.text.count == 4 else { return nil }
        let hour = item.token.number / 100, minute = item.token.number % 100
        guard hour <= 23, minute <= 59 else { return nil }
        return (hour, minute)
    }

    /// The hour (and minute) a number or number word stands for, if it can be a time.
    private func clockValue(_ item: Item) -> (hour: Int, minute: Int)? {
        if let military = Self.militaryClock(item) { return military }
        if item.isNumber {
            return (item.token.number, item.token.minute ?? 0)
        }
        for cue in item.cues {
            if case .numberWord(let value) = cue { return (value, 0) }
        }
        return nil
    }

    /// Ordinal hours ("الساعة العاشرة"): a time only after the word for the hour; elsewhere "the fifth", "the third".
    private static let ordinalHours: Set<String> = ["ثالثه", "رابعه", "خامسه", "سادسه", "ثامنه", "تاسعه", "عاشره", "حاديه", "ثانيه"]

    /// "one", "واحد": a pronoun or a count ("there's one on Wednesday", "ناقصنا واحد") unless led as a time ("at one", "one pm").
    private static let countingOnes: Set<String> = ["one", "واحد", "wa7ed"]

    private func isClock(at index: Int, _ items: [Item], hasDayMention: Bool, wordCount: Int) -> Bool {
        let item = items[index]
        // "1) Wednesday after isha…", "2) Saturday 9:30 breakfast": a number opening the message with
        // ")" glued on numbers a list; it is no hour.
        if item.token.start == 0, item.isNumber, item.token.minute == nil, index + 1 < items.count,
           items[index + 1].text == ")", items[index + 1].token.start == item.token.end { return false }
        // "court 3", "Trail 5"; a time written with its minutes ("first pitch 7:05") is still a time.
        if index > 0, items[index - 1].has(.numberLabel), item.token.minute == nil { return false }
        if item.token.kind == .word, Self.countingOnes.contains(item.text) {
            let previous = index > 0 ? items[index - 1] : nil
            return looksLikeClock(index, items) || previous.map { $0.has(.clockLead) || $0.has(.after) || $0.has(.before) || $0.has(.rangeFrom) || $0.has(.rangeTo) } == true
        }
        if item.token.kind == .word, Lexicon.variants(of: item.text).contains(where: Self.ordinalHours.contains) {
            return index > 0 && items[index - 1].has(.clockLead)
        }
        if Self.militaryClock(item) != nil {
            let previous = index > 0 ? items[index - 1] : nil
            let next = index + 1 < items.count ? items[index + 1] : nil
            let strong = ["hrs", "hr", "h", "hours"].contains(next?.text ?? "")
                || previous.map { $0.has(.clockLead) || $0.has(.rangeFrom) || $0.has(.rangeTo) } == true
                || (next?.has(.rangeTo) == true && index + 2 < items.count && Self.militaryClock(items[index + 2]) != nil)
            let nearDay = Self.neighbours(index, items, within: 2).contains { Self.isDayItem($0) }
            let yearLike = (1900...2100).contains(item.token.number)
            return strong || (nearDay && !yearLike)
        }
        if index + 1 < items.count {
            let next = items[index + 1]
            if next.has(.quantityUnit) || Self.ordinalSuffixes.contains(next.text) { return false }
            if case .durationUnit = next.cues.first, !Self.isFrenchHour(index, items) { return false }
            // "3-1": a score.
            let meridiemAfter = index + 3 < items.count && Self.meridiemWords[items[index + 3].text] != nil
            if next.text == "-", index + 2 < items.count, items[index + 2].isNumber, item.isNumber, items[index + 2].token.minute == nil, !meridiemAfter,
               !(index > 0 && (items[index - 1].has(.rangeFrom) || items[index - 1].has(.clockLead))) {
                return false
            }
        }
        if item.isNumber, item.token.number > 24 { return false }
        // Maghrebi "مع 8", "مع الأربعة" is "at about"; "مع 3 من الشباب" counts people.
        if index > 0, items[index - 1].text == "مع", index + 1 < items.count, ["من", "اشخاص", "ناس", "شباب", "بنات"].contains(items[index + 1].text) {
            return false
        }
        if looksLikeClock(index, items) { return true }
        // "٤ العصر", "3 el fagr", "7 el maghrib": an hour said with a prayer is a time of that part of the day.
        if (1...12).contains(clockValue(item)?.hour ?? 0), item.token.kind == .number || !item.cues.isEmpty {
            // So is one said with a part of the day after its article: "7 el sob7", "8 el sobo7".
            func isPrayer(_ at: Int) -> Bool { at < items.count && items[at].cues.contains { if case .prayer = $0 { true } else { false } } }
            func isPartOfDay(_ at: Int) -> Bool { at < items.count && items[at].cues.contains { if case .partOfDay = $0 { true } else { false } } }
            let article = index + 1 < items.count && ["el", "al", "il", "l"].contains(items[index + 1].text)
            if isPrayer(index + 1) || article && isPartOfDay(index + 1)
                || index + 2 < items.count && ["el", "al", "il", "l"].contains(items[index + 1].text) && (isPrayer(index + 2) || isPartOfDay(index + 2)) {
                return true
            }
        }
        if index > 0 {
            let previous = items[index - 1]
            if previous.has(.clockLead) || previous.has(.after) || previous.has(.before) || previous.has(.rangeFrom)
                || previous.has(.halfBefore) || previous.has(.halfPast) || previous.has(.quarterTo) || previous.has(.quarterPast) {
                return !item.cues.isEmpty || item.token.number <= 24
            }
            if previous.text == "el" || previous.text == "al" { return true }
        }
        // "el talat bel leil? 9": an hour standing alone after the question, in a message with a day.
        if hasDayMention, item.isNumber, (1...12).contains(item.token.number), index > 0,
           items[index - 1].token.kind == .punctuation, index + 1 == items.count || items[index + 1].token.kind != .word && items[index + 1].token.kind != .number {
            return true
        }
        // "Tuesday 6 works", "الجمعة ٩", "بكرة ٣": a small number beside a day.
        let numberValue = clockValue(item)?.hour ?? 0
        if hasDayMention, (1...12).contains(numberValue) {
            let near = Self.neighbours(index, items, within: 2)
            if near.contains(where: { Self.isDayItem($0) }) { return true }
        }
        // "9 at Warren?", "7 outside the cinema", "٨ عند البوابة": a short message that opens with a bare
        // hour and then says where is when and where to meet.
        if item.isNumber, (1...12).contains(item.token.number), index == 0 || items[index - 1].isPunctuation,
           index + 1 < items.count, Self.meetingPlaceWords.contains(items[index + 1].text),
           (items[(index + 1)...].firstIndex(where: \.isPunctuation) ?? items.count) - index <= 5 {
            return true
        }
        // A short reply that is mostly a number: "8?", "سبع", "اوكي ٥", "8 is good".
        if wordCount <= 4, (1...12).contains(numberValue) {
            let others = items.enumerated().filter { $0.offset != index && ($0.element.token.kind == .word || $0.element.token.kind == .number) }
            if others.allSatisfy({ $0.element.has(.accept) || $0.element.has(.acceptAlone) || $0.element.has(.clockLead) || $0.element.has(.sameTime) || $0.element.has(.preference)
                || ["is", "it", "works", "then", "ok", "good", "بس", "اذا", "el"].contains($0.element.text) || Self.isDayItem($0.element) }) {
                return true
            }
        }
        return false
    }

    /// "So?", "It is. So?", "well?", "alors?": a last sentence of one nudging word asks for the answer to what is on the table.
    private static func endsWithNudge(_ tokens: [ChatText.Token]) -> Bool {
        guard let last = tokens.lastIndex(where: { $0.kind == .word }), ["so", "well", "alors", "donc", "ها", "هاه"].contains(tokens[last].text),
              tokens[(last + 1)...].contains(where: { $0.text == "?" || $0.text == "؟" }) else { return false }
        return last == 0 || tokens[last - 1].kind == .punctuation
    }

    /// "… when he's better", "… once it's fixed", "لما يخف": after a promise to tell, a time that is not a day.
    private static let putOffOpeners: Set<String> = ["when", "once", "لما", "لين", "lama", "quand", "dès"]

    private static let meetingPlaceWords: Set<String> = ["at", "@", "outside", "in front", "by the", "near", "عند", "قدام", "جنب", "3and", "3nd", "3ind", "fel", "devant", "chez"]

    /// "Saturday, Carmine's on 44th, 7?", "bokra fel mall 6?": a bare hour said right after the place,
    /// closing the clause, is when to be there.
    private static func isHourAfterPlace(_ index: Int, _ items: [Item], place: Range<Int>?) -> Bool {
        guard let place, index == place.upperBound || index == place.upperBound + 1 && items[place.upperBound].text == ",",
              items[index].isNumber, items[index].token.minute == nil, (1...12).contains(items[index].token.number) else { return false }
        guard index + 1 < items.count else { return true }
        let next = items[index + 1]
        return next.token.kind == .punctuation || isDayItem(next)
    }

    private func spokenClock(at index: Int, value: (hour: Int, minute: Int), _ items: [Item]) -> SpokenClock? {
        var hour = value.hour, minute = value.minute
        var isPM: Bool?
        if index > 0 {
            let previous = items[index - 1]
            if previous.has(.halfBefore) || previous.has(.halfPast) { minute = 30 }
            if previous.has(.quarterPast) { minute = 15 }
            if previous.has(.quarterTo) { hour -= 1; minute = 45 }
        }
        if index + 1 < items.count {
            let next = items[index + 1]
            if next.has(.halfPast) { minute = 30 }
            if next.has(.quarterPast) { minute = 15 }
            if next.has(.thirdPast) { minute = 20 }
            if next.has(.quarterTo) { hour -= 1; minute = 45 }
            if next.has(.thirdTo) { hour -= 1; minute = 40 }
            for offset in 1...2 where index + offset < items.count {
                if let pm = Self.meridiemWords[items[index + offset].text] {
                    isPM = pm
                    break
                }
            }
        }
        // "quarter to 1" is 12:45, not a quarter to one in the morning written as 00:45.
        if hour <= 0, hour != value.hour { hour += 12 }
        guard (0...59).contains(minute) else { return nil }
        if let pm = isPM, hour > 12 { _ = pm; isPM = nil }
        return SpokenClock(hour: hour, minute: minute, isPM: isPM)
    }

    /// "à 10h", "vers 9h", "samedi 15h": the French hour mark glued to the hour. After "à"/"vers",
    /// beside a day, or past noon it is a time; "2h" alone is still two hours.
    private static func isFrenchHour(_ index: Int, _ items: [Item]) -> Bool {
        guard index + 1 < items.count, items[index + 1].text == "h", items[index].isNumber,
              items[index + 1].token.start == items[index].token.end else { return false }
        let hour = items[index].token.number
        if index > 0, items[index - 1].has(.clockLead) { return true }
        // "11h ça marche": seven hours and more are a time of day, not how long ("8h de route" is).
        if (7...23).contains(hour) { return !(index + 2 < items.count && ["de", "d'"].contains(items[index + 2].text)) }
        return index > 0 && isDayItem(items[index - 1]) && (1...12).contains(hour)
    }

    private func durationAt(_ index: Int, _ items: [Item]) -> (minutes: Int, next: Int)? {
        for cue in items[index].cues {
            if case .duration(let minutes) = cue { return (minutes, index + 1) }
        }
        if Self.militaryClock(items[index]) != nil { return nil }
        // "à 10h", "vers 9h": the French hour mark.
        if Self.isFrenchHour(index, items) { return nil }
        guard index + 1 < items.count, let value = clockValue(items[index]), value.minute == 0 else { return nil }
        for cue in items[index + 1].cues {
            if case .durationUnit(let unit) = cue {
                return (value.hour * unit, index + 2)
            }
        }
        return nil
    }

    // MARK: prayers

    private func readPrayers(_ items: [Item], today: LocalDateTime, into fragment: inout PlanFragment) {
        for (index, item) in items.enumerated() {
            let previous = index > 0 ? items[index - 1] : nil
            let beforePrevious = index > 1 ? items[index - 2] : nil
            let afterOrBefore = previous.map { $0.has(.after) || $0.has(.before) } ?? false
            let prayerWordBefore = ["صلاه", "salat", "salah", "prayer"].contains(previous?.text ?? "")
            let afterPrayerWord = prayerWordBefore && (beforePrevious.map { $0.has(.after) || $0.has(.before) } ?? false)
            var anchor: PrayerAnchor?
            for cue in item.cues {
                switch cue {
                case .prayer(let prayer):
                    anchor = prayer
                case .ishaOrDinner where afterOrBefore || prayerWordBefore || afterPrayerWord:
                    anchor = .isha
                case .iftar:
                    if Self.ramadanOnlyIftar.contains(item.text) {
                        let day = fragment.days.first ?? today
                        if isRamadan(day) || items.contains(where: { $0.text == "رمضان" || $0.text == "ramadan" }) { anchor = .maghrib }
                    } else {
                        anchor = .maghrib
                    }
                case .fridayPrayer:
                    anchor = .dhuhr
                default:
                    break
                }
            }
            // "الجمعة بعد الصلاة", "Friday after prayers": the Friday prayer, at Dhuhr.
            // ("بعد صلاة الفجر" names its prayer.)
            let namedNext = index + 1 < items.count && items[index + 1].cues.contains { if case .prayer = $0 { true } else { false } }
            if anchor == nil, afterOrBefore, !namedNext, Self.prayerWords.contains(item.text),
               fragment.days.contains(where: { $0.weekday == 6 }) || items.contains(where: { $0.has(.weekday(6)) }) {
                anchor = .dhuhr
            }
            guard let anchor else { continue }
            if fragment.clock != nil {
                fragment.prayerAsPartOfDay = fragment.prayerAsPartOfDay ?? anchor
            } else if fragment.anchor == nil {
                fragment.anchor = anchor
            }
            if item.has(.fridayPrayer), fragment.days.isEmpty {
                // "After Friday prayer" names the day too: today if it is Friday, else the next one.
                fragment.days = [today.adding(days: (6 - today.weekday + 7) % 7)]
            }
        }
    }

    // MARK: what and where

    /// The main activity; words inside the place's name ("Borough Market") are not one.
    private func readActivity(_ items: [Item], skipping place: Range<Int>, into fragment: inout PlanFragment) {
        var best: Activity?
        for (position, item) in items.enumerated() where !place.contains(position) {
            for cue in item.cues {
                guard case .activity(let activity) = cue else { continue }
                if item.has(.ishaOrDinner), fragment.anchor == .isha, best == nil { continue }
                if best == nil || activity.weight > (best?.weight ?? 0) { best = activity }
            }
            if item.has(.ishaOrDinner), !(fragment.anchor == .isha && fragment.activity == nil), best == nil,
               !(items.firstIndex(where: { $0.first == item.first }).map { $0 > 0 && (items[$0 - 1].has(.after) || items[$0 - 1].has(.before)) } ?? false) {
                best = Activity("Dinner", "عشاء", .evening, weight: 3)
            }
            if item.has(.iftar), fragment.anchor == .maghrib, best == nil || (best?.weight ?? 0) < 3 {
                best = Activity("Iftar", "إفطار", .evening, weight: 3)
            }
        }
        fragment.activity = best
    }

    private func readLocation(_ items: [Item], text: ChatText) -> (text: String, items: Range<Int>)? {
        for (index, item) in items.enumerated() where item.has(.locationLead) {
            var cursor = index + 1
            while cursor < items.count, ["the", "ال", "el", "al", "il"].contains(items[cursor].text) { cursor += 1 }
            guard cursor < items.count, isLocationWord(items[cursor]) else { continue }
            let start = cursor
            var end = cursor
            while end + 1 < items.count, end - start < 6, isLocationWord(items[end + 1]) || isLocationJoiner(items, end + 1) {
                end += 1
            }
            while end > start, isLocationJoiner(items, end) { end -= 1 }
            let first = index + 1 < start && items[index + 1].text == "the" ? index + 1 : start
            let place = text.originalSpan(items[first].first, items[end].last)
            // A lone activity word after "at" ("at dinner") is not a place.
            if place.count >= 2, !(first == end && items[first].cues.contains(where: { if case .activity = $0 { true } else { false } }) && items[first].token.text.count < 4) {
                return (place, first..<(end + 1))
            }
        }
        return nil
    }

    private func isLocationWord(_ item: Item) -> Bool {
        guard item.token.kind == .word else { return false }
        for cue in item.cues {
            switch cue {
            case .activity, .locationLead: continue
            default: return false
            }
        }
        return !["ours", "me", "you", "him", "her", "them", "us", "it", "all", "least", "first", "once", "work", "then", "there", "for", "with", "to", "from", "by", "so", "if", "when", "because", "cos"].contains(item.text)
    }

    private func isLocationJoiner(_ items: [Item], _ index: Int) -> Bool {
        let item = items[index]
        return ["&", "'", "in", "on", "of", "-", "ال"].contains(item.text) || item.text == "," && index + 1 < items.count && isLocationWord(items[index + 1])
    }
}
