/// The words and phrases the extractor knows, in English, Arabic (MSA and Gulf, Levantine and
/// Egyptian everyday forms) and Arabizi. Entries are folded like message text, so one spelling
/// per folded form is enough; Arabic entries also match with the clitics و ب ل ف ال in front.
struct Lexicon: Sendable {
    struct Entry: Sendable {
        var words: [String]
        var cues: [Cue]
    }

    struct Match: Equatable {
        /// Every meaning of the phrase ("at" leads a clock time or a place); the reader picks.
        var cues: [Cue]
        /// Token indices covered, first...last.
        var first: Int
        var last: Int
    }

    /// First word -> entries starting with it, longest first.
    private let entries: [String: [Entry]]

    static let shared = Lexicon()

    private init() {
        var table: [String: [Entry]] = [:]
        for (phrases, cue) in Lexicon.source {
            for phrase in phrases {
                let words = ChatText.tokenize(ChatText.fold(phrase).folded).map(\.text)
                guard let first = words.first else { continue }
                var bucket = table[first, default: []]
                if let same = bucket.firstIndex(where: { $0.words == words }) {
                    if !bucket[same].cues.contains(cue) { bucket[same].cues.append(cue) }
                } else {
                    bucket.append(Entry(words: words, cues: [cue]))
                }
                table[first] = bucket
            }
        }
        for key in table.keys {
            table[key]?.sort { $0.words.count > $1.words.count }
        }
        entries = table
    }

    /// Every cue in the text, longest phrase first at each position; a token is covered by at
    /// most one phrase.
    func matches(in text: ChatText) -> [Match] {
        let tokens = text.tokens
        // Each token's clitic-free forms, worked out once: phrases starting nearby look at them again.
        let forms = tokens.map { Lexicon.variants(of: $0.text) }
        var result: [Match] = []
        var index = 0
        while index < tokens.count {
            var matched: Match?
            for variant in forms[index] {
                guard let candidates = entries[variant] else { continue }
                for entry in candidates where matches(entry.words, forms, at: index) {
                    matched = Match(cues: entry.cues, first: index, last: index + entry.words.count - 1)
                    break
                }
                if matched != nil { break }
            }
            if let matched {
                result.append(matched)
                index = matched.last + 1
            } else {
                index += 1
            }
        }
        return result
    }

    /// Whether a single word is an invitation ("نروح"), for verb forms with dialect prefixes.
    func isInvitation(_ word: String) -> Bool {
        entries[word]?.contains { $0.words.count == 1 && $0.cues.contains(.invite) } ?? false
    }

    private func matches(_ words: [String], _ forms: [[String]], at start: Int) -> Bool {
        guard start + words.count <= forms.count else { return false }
        for offset in 1..<max(words.count, 1) where offset < words.count {
            // forms[i][0] is the token itself.
            if !forms[start + offset].contains(words[offset]) { return false }
        }
        return true
    }

    /// The word itself, then without Arabic clitics: و, then ال بال لل وال فال كال, then ب ل ف.
    /// In Arabizi the article is often written glued on ("ba3d el3asr", "elmaghrib", "elsob7"):
    /// the word after "el"/"il" is tried too when at least four letters are left, so "ella" or
    /// "elbow" do not become "la" or "bow".
    static func variants(of word: String) -> [String] {
        var result = [word]
        guard let first = word.unicodeScalars.first else { return result }
        if first.isASCII {
            if word.count >= 6, word.hasPrefix("el") || word.hasPrefix("il") { result.append(String(word.dropFirst(2))) }
            return result
        }
        guard (0x0600...0x06FF).contains(first.value) else { return result }
        var base = word
        if base.hasPrefix("و"), base.count > 3 {
            base = String(base.dropFirst())
            result.append(base)
        }
        // هال is "this" glued on (هالسبت, هالاسبوع).
        for prefix in ["ال", "بال", "لل", "فال", "كال", "وال", "هال"] where base.hasPrefix(prefix) && base.count > prefix.count + 1 {
            result.append(String(base.dropFirst(prefix.count)))
        }
        for prefix in ["ب", "ل", "ف"] where base.hasPrefix(prefix) && base.count > 3 {
            let rest = String(base.dropFirst())
            result.append(rest)
            if rest.hasPrefix("ال"), rest.count > 3 { result.append(String(rest.dropFirst(2))) }
        }
        return result
    }

    // MARK: the words

    private static let source: [([String], Cue)] = [
        // Acceptance.
        ([
            "ok", "okay", "okey", "okk", "okkk", "k", "kk", "oki", "okie", "sure", "sure thing", "deal", "done", "yes", "yess", "yesss", "yep", "yeah",
            "yup", "ya", "yea", "sounds good", "sounds great", "sounds perfect", "sounds like a plan", "perfect", "great", "cool", "works",
            "that works", "works for me", "good for me", "fine by me", "see you", "see you at", "see ya", "see u", "cya", "count me in",
            "wouldn't miss it", "wouldnt miss it", "of course", "ofc", "absolutely", "definitely",
            "for sure", "let's do it", "lets do it", "let's", "alright", "all right", "i'll be there", "ill be there", "will be there",
            "i'll come", "i will come", "will do", "agreed", "confirmed", "i'll call", "i will call", "yes please", "why not",
            "with pleasure", "happy to", "love to", "i'd love to", "id love to", "i can do that", "noted", "on it", "👍", "👌", "✅",
            "🙌", "💯", "🤝", "👍🏻", "👍🏼", "👍🏽", "👍🏾", "is good", "is perfect", "is fine", "suits me", "booked", "i'm down",
            "im down", "say less", "got it", "settled", "it's a date", "its a date", "certainly", "no problem",
            "no prob", "np", "not a problem", "good idea", "great idea", "yalla", "yallah",
            "i'm game", "im game", "game on", "lovely", "brilliant", "sounds fab", "fab", "count on me", "i'll make it", "i can make it",
            "100%", "defo", "deffo", "totally", "amazing", "awesome", "that'd be amazing", "that'd be great", "that would be great", "would be great", "would love", "love that", "sweet", "nice one", "good shout", "both work", "both good", "both are fine", "both sound good", "that would work", "would work", "all good", "go on then", "def", "you bet", "i'm there", "im there", "be there", "sounds lovely",
            "sounds ace", "let's go", "lets go", "i can", "sure why not", "absolutely yes",
            "تمام", "تمم", "اوكي", "اوك", "اوكيه", "اوكاي", "اتفقنا", "متفقين", "تم", "ابشر", "ابشري", "ابشروا", "حاضر", "حاضرين", "ماشي",
            "يصير", "ان شاء الله", "انشاء الله", "انشالله", "ان شالله", "باذن الله", "اكيد", "طيب", "زين", "مناسب", "يناسبني",
            "يناسب", "موافق", "موافقه", "ما فيه مشكله", "مافيه مشكله", "ما في مشكله", "مافي مشكله", "ما عندي مشكله", "جاي",
            "جايه", "جايين", "جايتك", "معك", "معاك", "امرك", "على راسي", "من عيوني", "ولا يهمك", "حلو", "فكره حلوه", "يلا", "يالله",
            "خلاص", "ايه", "ايوه", "ايوا", "اي", "نعم", "اجل", "ما عليه", "ماعليه", "على خير", "اشوفك", "نشوفك", "اكون موجود",
            "بكون موجود", "موجود", "يا هلا", "حياك", "حياك الله", "تمام التمام", "ممتاز", "اوكي تمام", "يمشي", "مشينا",
            "انزين", "زين", "اوكيه", "يس", "منيح", "ماشي الحال", "تمام عليي", "اكيد جاي", "بكل سرور", "على الموعد", "اتفقنا خلاص",
            "ok habibi", "tayeb", "tayyib", "mashy", "7ader", "akeed ya", "yalla bina", "inzain", "enzain",
            "tamam", "tmam", "tamaam", "tamem", "akeed", "akid", "akeed habibi", "mashi", "ma4i", "5alas", "khalas", "5ales", "inshallah",
            "insha'allah", "insha allah", "inshalla", "in sha allah", "inshaallah", "isa", "abshir", "absher", "7ader", "7adir",
            "ysir", "yseer", "y9eer", "ittafagna", "etfagna", "zain", "zein", "mnasib", "mnaseb", "ee", "eh", "ih", "aywa",
            "aiwa", "na3am", "ma3ak", "jay", "jaay", "wala yhemak", "7elo", "helw",
        ], .accept),
        // Denial.
        ([
            "can't", "cant", "cannot", "can not", "won't make it", "wont make it", "can't make it", "cant make it",
            "couldn't", "couldnt", "not able", "unable", "busy", "no good", "not good for me", "doesn't work", "does not work",
            "won't work", "wont work", "i'll pass", "ill pass", "pass this time", "not this time", "next time", "another time",
            // "not this time" as the Levant, Egypt and the Maghreb say it.
            "مش هالمرة", "مش هالمره", "مش المرة دي", "مش المره دي", "mish hal marra", "msh hal marra", "mesh hal mara", "pas cette fois",
            "some other time", "rain check", "raincheck", "unfortunately", "i'm out", "im out", "count me out", "no thanks",
            "no thank you", "nope", "nah", "not really", "leave it", "let's leave it", "skip", "i don't think so", "packed",
            "is bad", "bad for me", "not free", "won't be able", "wont be able", "not going to make it", "have plans",
            "got plans", "another day", "another weekend", "another week", "other weekend", "not possible", "impossible", "sorry", "can't do", "cant do", "no can do", "something came up", "something's come up", "can't anymore", "اسف", "اسفه", "اسفين",
            "ما اقدر", "مااقدر", "ما بقدر", "مابقدر", "ما راح اقدر", "ما اكدر", "ماقدر", "ما قدر", "ما ينفع", "ماينفع", "ما يناسبني",
            "مايناسبني", "ما يمديني", "مايمديني", "ما يمدي", "مشغول", "مشغوله", "مرتبط", "مرتبطه", "اعتذر", "اعذرني", "اعذريني",
            // Formal (MSA) refusals.
            "نعتذر", "لا يمكنني", "لا يمكننا", "لا استطيع", "لا نستطيع", "يتعذر", "يتعذر علي", "يتعذر علينا",
            "اعذروني", "معذره", "معليش", "المعذره", "خلها مره ثانيه", "خليها مره ثانيه", "خلها لبعدين", "خليها لبعدين", "مره ثانيه",
            "وقت ثاني", "يوم ثاني", "للاسف", "ما اتوقع", "صعب", "مستحيل", "ما اظن", "ما راح اقدر", "ما راح اجي", "ما اجي", "ماني جاي",
            "ما نقدر", "مو فاضي", "مو فاضيه", "ما اني فاضي", "مب فاضي", "مب فاضيه", "ما بقدر", "مش هقدر", "مش قادر", "مش فاضي",
            "مقدرش", "معلش", "خيرها بغيرها", "لا", "لا والله", "تعبان", "تعبانه", "ما اقدر اجي", "sorry",
            "مش هينفع", "مش حينفع", "مش هعرف", "مش حقدر", "ما رح اقدر", "ما رح قدر", "ما بصير", "ما بيزبط", "ما بزبط", "مش مناسب",
            "مو مناسب", "ما يناسب", "مو فاضي", "مانيب فاضي", "ماني فاضي", "swamped", "tied up", "not gonna work", "not going to work",
            "won't be around", "can't come", "not coming", "i'll skip", "gonna pass", "have to pass", "not up for it",
            "ma a8dar", "ma agdar", "ma a2dar", "ma 8dar", "maa8dar", "ma8dar", "ma y9eer", "ma ysir", "ma yseer",
            "5aleha mara thanya", "khaleha mara thanya", "5alliha mara thanya", "mara thanya", "mara thanyeh", "la wallah",
            "mashghool", "mashghoul", "mash8ool", "ma ynfa3", "ma yinfa3", "ma ynf3", "ma yimdeeni", "ma yemdeeni", "mb fadi", "msh fadi",
            "laa",
        ], .deny),
        // Tentative.
        ([
            "maybe", "perhaps", "might", "let me check", "i'll check", "ill check", "will check", "let me see", "i'll see",
            "ill see", "i'll try", "ill try", "i will try", "not sure", "depends", "we'll see", "well see", "i'll let you know",
            "ill let you know", "will let you know", "let you know", "get back to you", "will reply later", "reply later",
            "possibly", "tbc", "tentatively", "i think so", "probably", "hopefully", "if i can", "i'll see if", "not sure yet",
            "let me confirm", "i'll confirm", "will confirm", "have to check", "need to check", "i'll ask", "let me ask",
            "يمكن", "ممكن", "بشوف", "بشوف واقولك", "اشوف", "خليني اشوف", "خلني اشوف", "بشيك", "اشيك", "بتاكد", "اتاكد", "ما اوعدك",
            "مااوعدك", "ما ادري", "مدري", "ما اعرف", "بعدين اقولك", "برد عليك", "ارد عليك", "بقولك", "اقولك", "الله كريم", "نشوف",
            "بحاول", "احاول", "بشوف ظروفي", "على حسب", "حسب", "يمكن اجي", "ربما", "لسه مش عارف", "مش عارف", "هشوف",
            "bashoof", "bshoof", "ashoof", "ma a3ref", "ma adri", "madri", "yimkin", "mumkin", "ba2olak", "bagolk", "bagolak",
            "i'll think about it", "let me think", "not sure i can", "tbd", "no promises", "might not", "we'll see", "بفكر", "خليني افكر",
            "بفكر فيها", "ان قدرت", "اذا قدرت", "اذا فضيت", "لو فضيت",
            "inshallah bas",
        ], .tentative),
        (["if", "unless", "as long as", "اذا", "لو", "ان كان", "بشرط", "iza", "eza", "law"], .conditional),
        // Calling off.
        ([
            "cancel", "cancelled", "canceled", "cancelling", "call off", "called off", "call it off", "postpone", "postponed",
            "bail", "bail on", "have to bail", "drop out", "pull out", "can't come anymore", "not coming anymore", "won't be coming",
            "push it", "push back", "pushed", "push our", "push the", "reschedule", "rescheduled", "can't make it anymore", "not happening", "scrap",
            "something came up", "something's come up", "something has come up", "sth came up", "smth came up", "rain check", "raincheck",
            "صار عندي ظرف", "طرا ظرف", "طرا لي ظرف", "جاني ظرف", "طلعلي ظرف", "طلع لي ظرف",
            "ألغي", "الغي", "نلغي", "ملغي", "ملغيه", "ينلغي", "انلغى", "انلغت", "الغاء", "الغيت", "نأجل", "ناجل", "نأجله", "ناجله", "تأجيل",
            "تاجيل", "تأجل", "تاجل", "اجلنا", "اجلوا", "نغير الموعد", "اضطريت الغي", "nelghi", "ta2jeel", "n2ajel",
        ], .cancel),
        ([
            "what time", "which time", "what time?", "when exactly", "time?", "الساعه كم", "الساعة كم", "اي ساعه", "كم الساعه",
            "اي وقت", "وش الوقت", "ايش الوقت", "متى بالضبط", "el sa3a kam", "sa3a kam", "ay sa3a", "kam el sa3a", "what time exactly",
            // The same question in every dialect: Egyptian كام, Levantine قديش/اديش, Maghrebi وقتاش and "ach men sa3a", French.
            "الساعه كام", "الساعة كام", "كام الساعه", "الساعه كم", "قديش الساعه", "اديش الساعه", "ع اي ساعه", "على اي ساعه", "باي ساعه",
            "وقتاش", "اش من ساعه", "شمن ساعه", "اشمن ساعه", "wa9tach", "wa9tech", "wa9tash", "waqtach", "ach men sa3a", "achmen sa3a",
            "chmen sa3a", "sa3a kaam", "el sa3a kaam", "aya sa3a", "ayy sa3a", "2adesh el sa3a", "adesh el sa3a", "2aday el sa3a",
            "à quelle heure", "a quelle heure", "quelle heure", "wat time", "wot time", "wht time", "what tym", "wetin time",
        ], .askTime),
        (["when", "when?", "which day", "what day", "متى", "اي يوم", "emta", "meta", "mata"], .askWhen),
        // Invitations.
        ([
            "let's", "lets", "let us", "shall we", "should we", "want to", "wanna", "do you want", "fancy", "how about", "what about",
            "are you free", "are you around", "you free", "u free", "free on", "can you", "could you", "can we", "could we",
            "would you like", "would you", "come over", "come to", "come with", "come", "join", "join us", "are you coming",
            "coming to", "you coming", "up for", "down for", "are we still on", "still on for", "reminder", "don't forget",
            "dont forget", "see you at", "call me", "pick me up", "meet", "meet up", "catch up", "grab", "we should", "we need to",
            "we could", "let me take you", "i'll pick you up", "i can pick you up", "you in", "you in?", "how's", "hows",
            "وش رايك", "ايش رايك", "شو رايك", "شرايك", "ما رايك", "وش رايكم", "شو رايكم", "ايش رايكم", "تعال", "تعالي", "تعالوا",
            "تجي", "تجين", "تجون", "تجي معي", "تقدر", "تقدرين", "ودي", "ودك", "نبي", "نبغى", "نبغي", "بدنا", "يلا نروح", "خلنا", "خلينا",
            "عندك شي", "فاضي", "فاضيه", "يناسبك", "يناسبكم", "تناسبك", "كلمني", "اتصل علي", "اتصلي علي", "دق علي", "توديني", "توصلني",
            "نذكرك", "تذكير", "لا تنسى", "لا تنسي", "لا تتأخر", "لا تتاخر", "ننتظرك", "بنتظرك", "ابيك", "ابغاك", "تبي", "تبغى",
            "تحب", "تحبي", "ايش قولك", "وش قولك", "تيجي", "ينفع", "نتقابل", "نتلاقى", "نلتقي", "نشوفك", "عزمتك", "معزوم",
            "عندنا", "نروح", "نطلع", "نتعشى", "نتغدى", "نتريق", "نتسحر", "نشوف", "نلعب", "نسوي", "نجتمع", "نمشي", "نتمشى", "نجي", "نزور", "نسافر",
            "نحضر", "نشرب", "ناكل", "نمر", "نجرب", "نتسوق", "نسهر", "نكشت", "ننزل", "نقعد", "نتقهوى", "نتفرج", "نذاكر", "نتمرن", "نركب",
            "nrou7", "nroo7", "ntla3", "nshoof", "nel3ab", "nitla3", "nit3asha", "nitghada", "ngabel", "ntgabal", "لازم", "لازم نطلع", "lazem", "lazim", "لسا قايم", "لسه قايم", "still on",
            "shu ra2yak", "sho ra2yak", "shu ra2yik", "wesh ra2yak", "wsh ra2yak", "sh ra2yak", "shoo ra2yak", "ta3al", "ta3ali",
            "tiji", "tegi", "t8dar", "tgdar", "t2dar", "5alna", "khalna", "5alina", "yalla nrou7", "call me", "kalimni", "kallimni",
            "نقترح", "اقترح",
        ], .invite),
        ([
            "no worries", "no worry", "can't wait", "cant wait", "don't remind me", "dont remind me", "no way", "no idea",
            "not bad", "no rush", "الله يعينك", "سلامتك",
            "الله يسلمك", "لا تشيل هم", "ما عليك", "على اليوم", "نحدد اليوم", "اليوم المناسب", "نتفق على اليوم", "نحدد الموعد",
            "نحدد موعد", "the day", "a day", "pick a day", "pick a date", "set a date",
        ], .neutral),

        // Not a plan between the two.
        ([
            "yesterday", "last night", "last week", "last weekend", "ago", "remember", "was so", "was great", "was fun", "went well",
            "went", "had a", "was epic", "was amazing", "it was", "امس", "البارحه", "البارح", "اللي فات", "الماضي", "الماضيه", "قبل يومين",
            "كان يوم", "كانت", "رحنا", "emes", "ams", "embare7", "elbare7", "yesterday's", "kant", "kan",
            "how was", "how wis", "how did", "how'd", "how was the",
        ], .past),
        ([
            "i have a", "i have an", "i've got", "ive got", "i got a", "my appointment", "i'm flying", "im flying", "i'm going to",
            "im going to", "i'm travelling", "im travelling", "i'm traveling", "my flight", "my exam", "i have my",
            "عندي موعد", "عندي اختبار", "عندي امتحان", "عندي دوام", "عندي شغل", "موعدي", "رحلتي", "3indi exam", "3indi maw3ed",
            "3indi shoghol", "3indi dawam", "3andi", "dawam online", "3indi online", "3ndi dawam", "3andi dawam",
            "wish me luck", "pray for me", "ادعيلي", "ادعولي", "دعواتك", "عندي حفله", "عندي مقابله", "عندي اجتماع", "عندي درس",
            "عندي محاضره", "عندي رحله", "عندي طياره", "عندي سفر", "my graduation", "my interview",
            "i finish at", "i finish work", "i get off", "i'm off at", "we have our",
            // At work, in a lecture, on a shift: "Saturday I'm at work till 4".
            "i'm at work", "im at work", "i am at work", "i'm working", "im working", "i am working", "i'll be at work", "ill be at work",
            "i have office", "i've office", "office till", "at the office till", "in office till",
            "لدي", "لديّ", "لدي موعد", "لدي اجتماع", "لوحدي", "لحالي", "بروحي", "وحدي", "lwa7di", "lwahdi", "la7ali", "b ro7i", "bro7i", "by myself", "on my own",
            // One's own obligation: "I have to be in Brooklyn by 3 for Jake's thing", "I gotta bounce by 2".
            "i have to be", "i have to go", "i have to leave", "i've got to be", "ive got to be", "i gotta be", "i gotta go", "i gotta leave",
            "i need to be", "i need to leave", "i must be",
        ], .ownPlan),
        ([
            "my sister's", "my brother's", "my mom's", "my mum's", "my dad's", "my wife's", "my husband's", "my friend's",
            "my cousin's", "my band", "my son's", "my daughter's", "his", "her", "he's going", "she's going", "they're going",
            "he is going", "she is going", "gal he's", "said he's", "اخوي", "اختي", "زوجتي", "بنتي", "ولدي", "ابني", "امي", "ابوي", "زوجي", "خالي", "عمي", "my mom", "my mum", "my dad", "my boss", "خالتي", "عمتي", "جدتي", "جدي", "صديقي", "صاحبي", "صديقتي", "صاحبتي", "my cousin", "my grandma", "my grandpa", "my uncle", "my aunt", "my colleague", "بيسوي", "بيروح", "بيسافر", "بتسافر",
            "بيجي", "قال انه", "يقولون",
        ], .thirdParty),
        ([
            "what time does", "what time is", "when does", "open", "opens", "close", "closes", "how much", "price", "what time's",
            "يفتح", "يسكر", "يقفل", "يأذن", "ياذن", "الاذان", "كم سعر", "بكم", "سعر", "price", "ta8reeban", "taqreeban",
        ], .inquiry),
        ([
            "due", "deadline", "last date", "last day to", "submit", "submission", "episode", "drops", "airs", "season", "parcel", "package", "delivery",
            "arrive", "arrives", "courier", "rain", "raining", "sunny", "weather", "forecast", "التسليم", "تسليم", "الحلقه", "مطر",
            "الجو", "غبار", "شحنه", "الطلب",
        ], .notAMeeting),
        (["if i had", "i wish", "i'd go", "id go", "would have", "لو عندي", "لو كان عندي", "ياليت", "يا ليت"], .hypothetical),
        // The card's label as phones and people write it ("Fwd:", German "Weitergeleitet", French "Transféré").
        (["forwarded", "[forwarded]", "معاد توجيهها", "معاد توجيهه", "تمت اعاده توجيهها", "↪", "fwd", "weitergeleitet", "transféré", "transfere"], .forwarded),
        ([
            "soon", "someday", "some day", "sometime", "one day", "one of these days", "at some point", "again", "مره", "يوم من الايام",
            "قريب", "قريبا", "someday when",
        ], .noTimeFrame),

        // Days.
        (["today", "this afternoon", "this evening", "this morning", "اليوم", "النهارده", "النهاردة", "انهارده", "el naharda", "naharda", "el yom", "elyoum", "el youm", "alyoum", "el yoom", "ilyom"], .relativeDay(0)),
        (["tonight", "tonite", "2nite", "الليله", "الليلة", "el lela", "el leila", "ellela", "el leileh", "el lelah", "lela", "el layla"], .tonight),
        ([
            "tomorrow", "tmrw", "tmr", "tomoz", "tomorow", "tommorow", "بكره", "بكرا", "بكرة", "باجر", "باكر", "غدوه",
            "bokra", "bukra", "bukhra", "bokrah", "bokra", "baachir", "bachir", "bacher", "bachr", "baker", "bukrah",
        ], .relativeDay(1)),
        ([
            "day after tomorrow", "the day after tomorrow", "overmorrow", "بعد بكره", "بعد بكرا", "بعد باجر", "بعد باكر", "بعد غد",
            "ba3d bokra", "ba3d bukra", "ba3ad bokra", "ba3d baachir", "ba3d bachir",
        ], .relativeDay(2)),
        ([
            "a week from today", "a week from now", "in a week", "بعد اسبوع", "ba3d esbo3", "من اليوم لاسبوع", "من اليوم للاسبوع",
            "من اليوم ل اسبوع", "mn el youm l usbu3", "mn el yom l esbo3", "men el youm l osbo3", "min el yom l usbu3", "زي النهارده",
            "zay el naharda",
        ], .relativeDay(7)),
        (["بعد يومين", "in two days", "in 2 days", "ba3d yomain"], .relativeDay(2)),
        (["in three days", "in 3 days", "بعد ثلاث ايام", "بعد ٣ ايام"], .relativeDay(3)),
        (["sunday", "sun", "الاحد", "احد", "el a7ad", "a7ad", "al a7ad", "ahad", "el ahad"], .weekday(1)),
        (["monday", "mon", "الاثنين", "اثنين", "الاتنين", "اتنين", "الثنين", "el ithnain", "ithnain", "el etneen", "etneen", "el ethnen", "ethnain", "el itnein", "itnein", "el ithnein", "ithnein", "el tnein", "il tnein", "el tneen", "il tneen", "l tnein"], .weekday(2)),
        (["tuesday", "tue", "tues", "الثلاثاء", "ثلاثاء", "الثلاثا", "الثلوث", "el thalatha", "thalatha", "talat", "el tlata", "tlata", "el thulatha", "thulatha", "el talata"], .weekday(3)),
        (["wednesday", "wed", "weds", "الاربعاء", "اربعاء", "الاربعا", "اربعا", "الربوع", "el arba3a", "arba3a", "arb3a", "el arb3a", "el arbe3a", "arbe3a"], .weekday(4)),
        (["thursday", "thu", "thur", "thurs", "الخميس", "خميس", "el 5amees", "5amees", "khamees", "el khamees", "5ames", "el 5ames", "khamis", "el khamis", "5amis"], .weekday(5)),
        (["friday", "fri", "الجمعه", "جمعه", "el jum3a", "jum3a", "jom3a", "el jom3a", "jum3ah", "jumaa", "el gom3a", "gom3a"], .weekday(6)),
        (["saturday", "sat", "السبت", "سبت", "el sabt", "sabt", "es sabt"], .weekday(7)),
        (["january", "jan", "يناير", "كانون الثاني", "جنوري"], .month(1)),
        (["february", "feb", "فبراير", "شباط", "فبرابر"], .month(2)),
        (["march", "mar", "مارس", "اذار"], .month(3)),
        (["april", "apr", "ابريل", "نيسان", "ابرايل"], .month(4)),
        (["may", "مايو", "ايار"], .month(5)),
        (["june", "jun", "يونيو", "يونيه", "حزيران"], .month(6)),
        (["july", "jul", "يوليو", "يوليه", "تموز"], .month(7)),
        (["august", "aug", "اغسطس", "اب", "اوغست"], .month(8)),
        (["september", "sep", "sept", "سبتمبر", "ايلول"], .month(9)),
        (["october", "oct", "اكتوبر", "تشرين الاول"], .month(10)),
        (["november", "nov", "نوفمبر", "تشرين الثاني"], .month(11)),
        (["december", "dec", "ديسمبر", "كانون الاول"], .month(12)),
        (["next", "coming", "الجاي", "الجايه", "الياي", "اليايه", "القادم", "القادمه", "الجاية", "الياية", "اللي جاي", "el jay", "jay", "el jaye", "el yay", "el qadem", "الجاي"], .next),
        (["this", "هذا", "هذي", "ذا", "el 7ali"], .this),
        (["last", "previous", "اللي راح", "الفايت"], .last),
        (["week", "الاسبوع", "اسبوع", "الأسبوع", "esbo3", "el esbo3", "isbu3", "el isbo3", "usbu3", "el osbo3"], .week),
        (["weekend", "the weekend", "الويكند", "ويكند", "الويك اند", "نهايه الاسبوع", "el weekend", "wiikend"], .weekend),
        ([
            "next week", "this week", "later this week", "next month", "this month", "end of the month", "early next week",
            "later in the week", "after my exams", "after exams", "late jan", "late feb", "late march", "early feb", "early march",
            "mid feb", "الشهر الجاي", "الشهر القادم", "هالاسبوع", "هالشهر", "اخر الشهر", "بعد الاختبارات", "بعد الامتحانات", "next few days",
            "in the coming days", "الايام الجايه", "the holidays", "the break", "الاجازه", "في الاجازه",
        ], .vagueFrame),
        (["whole day", "all day", "full day", "the whole day", "طول اليوم", "اليوم كامل", "يوم كامل", "من الصبح", "طول النهار", "kol el yom"], .wholeDay),
        (["in", "بعد", "ba3d"], .dayUnit(0)),

        // Parts of the day and prayers.
        ([
            "morning", "in the morning", "mornings", "before work", "الصبح", "صباحا", "الصباح", "صباح", "بدري", "الضحى",
            "el sob7", "sob7", "elsob7", "el subu7", "sabah", "el sabah", "el so7",
        ], .partOfDay(.morning)),
        (["noon", "midday", "ظهرا", "الظهريه", "el dhuhr time"], .partOfDay(.noon)),
        (["afternoon", "in the afternoon", "عصرا", "العصريه", "العصاري"], .partOfDay(.afternoon)),
        (["evening", "in the evening", "المسا", "مساء", "مساءا", "المساء", "مسا", "عشيه", "after work", "بعد الدوام", "el masa", "masa", "bel masa"], .partOfDay(.evening)),
        (["night", "at night", "بالليل", "الليل", "ليلا", "بليل", "bel lail", "bil lail", "el lail", "bellail", "bel leil"], .partOfDay(.night)),
        (["fajr", "الفجر", "el fajr", "fajer"], .prayer(.fajr)),
        (["dhuhr", "duhr", "zuhr", "thuhr", "الظهر", "الضهر", "el dhuhr", "el duhr", "el zuhr", "el thuhr", "dohr", "el dohr", "ظهر"], .prayer(.dhuhr)),
        (["asr", "العصر", "el asr", "el 3asr", "3asr", "3sr", "العصريه", "3a9er", "el 3a9er", "3a9r"], .prayer(.asr)),
        (["maghrib", "maghreb", "المغرب", "el maghrib", "el maghreb", "magrib", "el magrib"], .prayer(.maghrib)),
        (["isha", "ishaa", "el isha", "el 3isha", "3isha", "el ishaa"], .prayer(.isha)),
        (["العشاء", "العشا", "عشاء", "عشا"], .ishaOrDinner),
        (["iftar", "ftoor", "fitoor", "فطور رمضان", "الافطار", "افطار", "الفطور", "فطور", "نفطر", "فطورنا", "el fitoor", "el ftoor", "el iftar", "الفطار", "فطار", "el fetar", "fetar"], .iftar),
        (["friday prayer", "friday prayers", "jummah", "jumuah", "jumu'ah", "jumu'a", "jumah", "jumma prayer", "jumaah", "jummaah", "صلاه الجمعه", "el jum3a prayer", "salat el jum3a"], .fridayPrayer),
        (["after", "بعد", "ba3d", "ba3ad", "ba3d el", "post"], .after),
        (["before", "قبل", "gabl", "qabl", "abl"], .before),
        (["at", "@", "around", "by", "الساعه", "ساعه", "el sa3a", "sa3a", "al sa3a", "الساعة", "حوالي", "على الساعه", "3al sa3a", "like", "say", "about", "approx", "مع"], .clockLead),
        (["pm", "p.m", "مساء", "مساءا"], .meridiem(isPM: true)),
        (["am", "a.m", "صباحا"], .meridiem(isPM: false)),
        (["o'clock", "oclock", "o clock", "sharp", "بالضبط", "تماما"], .oClock),
        (["half past", "ونص", "و نص", "u nos", "w nos", "wnos", "w nus", "and a half", "ونصف", "و نصف"], .halfPast),
        (["quarter past", "وربع", "و ربع", "w rob3", "w rub3"], .quarterPast),
        (["quarter to", "الا ربع", "إلا ربع", "الاربع", "illa rob3", "ela rob3", "ila rub3", "la rob3"], .quarterTo),
        (["وثلث", "و ثلث", "w thilth", "w tholth"], .thirdPast),
        (["الا ثلث", "إلا ثلث", "illa thilth", "ela tholth"], .thirdTo),
        (["half"], .halfBefore),
        (["ish", "-ish", "تقريبا", "taqreeban"], .approximately),
        (["from", "between", "من", "بين", "min", "men"], .rangeFrom),
        (["to", "till", "til", "until", "'til", "and", "-", "الى", "الي", "لين", "الين", "لحد", "حتى", "للساعه", "le", "lain", "la7ad", "ela"], .rangeTo),
        (["hours", "hour", "hrs", "hr", "h", "ساعات", "ساعه", "sa3at"], .durationUnit(minutes: 60)),
        (["minutes", "minute", "mins", "min", "دقيقه", "دقايق", "دقائق"], .durationUnit(minutes: 1)),
        (["ساعتين", "sa3ten", "sa3teen"], .duration(minutes: 120)),
        (["an hour", "one hour", "ساعه وحده", "ساعه وحدة"], .duration(minutes: 60)),
        (["half an hour", "نص ساعه", "نصف ساعه", "nos sa3a"], .duration(minutes: 30)),
        (["an hour and a half", "ساعه ونص", "sa3a w nos"], .duration(minutes: 90)),
        (["one", "وحده", "واحده", "وحدة", "wa7da", "واحد", "wa7ed"], .numberWord(1)),
        (["two", "ثنتين", "اثنين", "اتنين", "thintain"], .numberWord(2)),
        (["three", "ثلاث", "ثلاثه", "تلاته", "تلاتة", "thalath"], .numberWord(3)),
        (["four", "اربع", "اربعه", "arba3"], .numberWord(4)),
        (["five", "خمس", "خمسه", "5ams"], .numberWord(5)),
        (["six", "ست", "سته", "sit"], .numberWord(6)),
        (["seven", "سبع", "سبعه", "sab3", "saba3"], .numberWord(7)),
        (["eight", "ثمان", "ثمانيه", "ثمنيه", "ثمن", "تمانيه", "تمنيه", "tamanya", "thaman"], .numberWord(8)),
        (["nine", "تسع", "تسعه", "tis3"], .numberWord(9)),
        (["ten", "عشر", "عشره", "3ashr", "3ashra"], .numberWord(10)),
        // The hour as an ordinal ("الساعة العاشرة صباحًا", "الساعة الثالثة"): formal and written Arabic.
        (["ثالثه"], .numberWord(3)),
        (["رابعه"], .numberWord(4)),
        (["خامسه"], .numberWord(5)),
        (["سادسه"], .numberWord(6)),
        (["ثامنه"], .numberWord(8)),
        (["تاسعه"], .numberWord(9)),
        (["عاشره"], .numberWord(10)),
        (["حاديه عشر", "حاديه عشره"], .numberWord(11)),
        (["ثانيه عشر", "ثانيه عشره"], .numberWord(12)),
        (["eleven", "احدعش", "حداش", "احدعشر", "احد عشر"], .numberWord(11)),
        (["twelve", "اثنعش", "ثنعش", "اطنعش", "اثنا عشر", "اثني عشر"], .numberWord(12)),
        (["same time", "same place", "same time?", "نفس الوقت", "بنفس الوقت", "نفس الموعد", "nafs el wa8t", "nafs el wagt", "nafs el sa3a"], .sameTime),
        (["or", "او", "ولا", "aw", "wala"], .or),
        (["either", "any", "اي واحد", "ايهم", "either one"], .either),

        // Where.
        (["at", "in", "@", "fe", "fel", "fi", "fil", "في", "عند", "بمطعم", "at the", "3ind", "3and", "in the"], .locationLead),
        (["court", "terminal", "gate", "room", "no", "no.", "number", "#", "platform", "seat", "table", "floor", "building", "بوابه", "صاله", "ملعب رقم", "رقم", "الدور", "الطابق"], .numberLabel),
        ([
            "people", "persons", "guests", "riyal", "riyals", "sar", "aed", "dirham", "dollars", "pounds", "km", "kms", "%", "percent",
            "years", "kg", "ريال", "درهم", "دولار", "كيلو", "شخص", "اشخاص", "نفر", "سنه", "سنين", "days", "ايام", "يوم",
        ], .quantityUnit),
    ] + Lexicon.dialects + Lexicon.replies + Lexicon.activities.map { ($0.words, Cue.activity($0.activity)) }

    /// Get-togethers, most specific first.
    private static let activities: [(words: [String], activity: Activity)] = [
        (["dinner", "supper", "نتعشى", "تتعشى", "تتعشون", "نتعشا", "nt3asha", "net3asha", "3asha", "el 3asha"], Activity("Dinner", "عشاء", .evening, weight: 3)),
        (["lunch", "الغدا", "الغداء", "غداء", "غدا", "نتغدى", "نتغدا", "nt8ada", "ntghada", "ghada", "8ada"], Activity("Lunch", "غداء", .none, weight: 3)),
        (["breakfast", "ريوق", "الريوق", "نفطر", "نتريق", "fetoor", "ftoor", "ريوقنا"], Activity("Breakfast", "فطور", .morning, weight: 3)),
        (["brunch", "برنش"], Activity("Brunch", "برنش", .morning, weight: 3)),
        (["coffee", "قهوه", "قهوة", "نتقهوى", "كوفي", "كافيه", "مقهى", "gahwa", "8ahwa", "qahwa", "kofi", "starbucks"], Activity("Coffee", "قهوة", .none, weight: 3)),
        (["tea", "شاي", "chai"], Activity("Tea", "شاي", .none, weight: 2)),
        (["drinks", "drink", "beers", "beer", "pint", "pints"], Activity("Drinks", "مشروبات", .evening, weight: 3)),
        (["iftar", "افطار", "الافطار"], Activity("Iftar", "إفطار", .evening, weight: 3)),
        (["suhoor", "sahoor", "سحور", "السحور", "نتسحر"], Activity("Suhoor", "سحور", .smallHours, weight: 3)),
        (["bbq", "barbecue", "barbeque", "شواء", "مشاوي"], Activity("BBQ", "شواء", .evening, weight: 3)),
        (["shawarma", "شاورما", "shawerma"], Activity("Shawarma", "شاورما", .evening, weight: 3)),
        (["pizza", "burger", "burgers", "sushi", "steak", "kabsa", "كبسه", "مندي", "mandi"], Activity("Meal", "وجبة", .evening, weight: 2)),
        (["meeting", "meetings", "اجتماع", "اجتماعنا", "الاجتماع", "نجتمع", "ejtima3", "meeting?"], Activity("Meeting", "اجتماع", .none, weight: 3)),
        (["review", "standup", "stand-up", "sync", "presentation", "demo", "workshop"], Activity("Meeting", "اجتماع", .none, weight: 3)),
        (["interview", "مقابله", "المقابله"], Activity("Interview", "مقابلة", .none, weight: 3)),
        (["call", "phone call", "ring", "facetime", "zoom", "مكالمه", "اتصال", "اتصل", "اكلمك", "كلمني", "ادق عليك", "call me", "kalimni", "atsel"], Activity("Call", "مكالمة", .none, weight: 2)),
        (["study", "study session", "revision", "homework", "نذاكر", "مذاكره"], Activity("Study session", "مذاكرة", .none, weight: 3)),
        (["class", "lesson", "lecture", "course", "tutoring", "درس", "حصه", "محاضره", "كلاس"], Activity("Class", "درس", .none, weight: 3)),
        (["training", "practice", "workout", "تمرين", "نتمرن", "تدريب", "tamreen"], Activity("Training", "تمرين", .none, weight: 3)),
        (["gym", "جيم", "النادي", "نادي", "el gym", "جم"], Activity("Gym", "النادي", .none, weight: 3)),
        (["yoga", "pilates", "spin class"], Activity("Yoga class", "يوغا", .morning, weight: 3)),
        (["tennis", "golf", "swim", "swimming", "hike", "hiking", "walk up", "hillwalk", "hill walk", "trek", "run", "running", "jog", "cycling", "bike ride"], Activity("Sport", "رياضة", .morning, weight: 3)),
        (["padel", "بادل", "badel"], Activity("Padel", "بادل", .none, weight: 3)),
        (["squash", "basketball", "volleyball", "bowling", "billiards", "snooker", "بولينج", "بلياردو"], Activity("Game", "لعب", .evening, weight: 3)),
        (["football", "soccer", "كوره", "كورة", "الكوره", "مباراه", "مباراة", "ماتش", "المباراه", "match", "game", "el mubarah", "mubarah", "kora", "koora", "el kora"], Activity("Football", "كورة", .evening, weight: 3)),
        (["baloot", "بلوت", "البلوت", "balot", "cards", "كوتشينه", "uno"], Activity("Baloot", "بلوت", .evening, weight: 3)),
        (["playstation", "ps5", "fifa", "بلايستيشن", "بلاستيشن", "سوني", "فيفا", "gaming"], Activity("PlayStation", "بلايستيشن", .evening, weight: 3)),
        (["cinema", "movie", "movies", "film", "سينما", "السينما", "فلم", "فيلم", "cinema?", "el cinema", "sinama"], Activity("Cinema", "سينما", .evening, weight: 3)),
        (["concert", "gig", "show", "play", "theatre", "theater", "حفله", "حفل", "مسرحيه", "الحفله"], Activity("Show", "حفلة", .evening, weight: 3)),
        (["party", "birthday", "drinks party", "celebration", "عيد ميلاد", "حفله عيد ميلاد", "party?"], Activity("Party", "حفلة", .evening, weight: 3)),
        (["wedding", "زواج", "عرس", "ملكه"], Activity("Wedding", "زواج", .evening, weight: 3)),
        (["baby shower", "shower", "housewarming", "graduation", "تخرج"], Activity("Celebration", "مناسبة", .none, weight: 3)),
        (["عزيمه", "عزيمة", "العزيمه", "عزومه", "3azeema", "3azima"], Activity("Dinner invitation", "عزيمة", .evening, weight: 3)),
        (["gathering", "get together", "get-together", "hang out", "hangout", "chill", "jalsa", "جلسه", "قعده", "سهره", "دوريه", "الدوريه", "istiraha", "استراحه", "الاستراحه", "majlis", "مجلس"], Activity("Gathering", "جلسة", .evening, weight: 2)),
        // Trips start in the morning: "beach at 9" is 09:00.
        (["trip", "road trip", "drive", "desert", "beach", "camping", "kashta", "رحله", "الرحله", "كشته", "كشتة", "بر", "البر", "شاليه", "البحر", "مخيم", "طلعه بر", "hatta"], Activity("Trip", "رحلة", .morning, weight: 2)),
        (["outing", "طلعه", "طلعة", "نطلع", "ntla3", "netla3", "نتمشى", "نمشي", "مشي", "walk", "stroll", "نتمشا"], Activity("Outing", "طلعة", .evening, weight: 1)),
        (["shopping", "mall", "market", "souq", "تسوق", "نتسوق", "سوق", "السوق", "مول", "المول", "el mall"], Activity("Shopping", "تسوق", .evening, weight: 2)),
        (["exhibition", "museum", "expo", "fair", "معرض", "المعرض", "متحف"], Activity("Exhibition", "معرض", .none, weight: 2)),
        (["boulevard", "البوليفارد", "بوليفارد", "global village", "جلوبال فيليج", "القريه العالميه", "riyadh park", "الرياض بارك"], Activity("Outing", "طلعة", .evening, weight: 1)),
        (["pick up", "pickup", "pick you up", "pick me up", "lift", "ride", "drop off", "airport", "توصيل", "توديني", "توصلني", "اوصلك", "اوديك", "امرك", "المطار"], Activity("Pickup", "توصيل", .none, weight: 2)),
        (["help", "move", "moving", "furniture", "تعزيل", "التعزيل", "نعزل", "تساعدني", "مساعده"], Activity("Help", "مساعدة", .none, weight: 2)),
        (["visit", "come over", "زياره", "نزور", "نزوركم", "zyara"], Activity("Visit", "زيارة", .evening, weight: 2)),
        (["appointment", "inspection", "checkup", "فحص", "الفحص", "موعد"], Activity("Appointment", "موعد", .none, weight: 2)),
        (["restaurant", "مطعم", "المطعم", "restaurant?"], Activity("Dinner", "عشاء", .evening, weight: 1)),
        (["meet", "meet up", "meetup", "catch up", "see you", "نتقابل", "نلتقي", "نتلاقى", "لقاء", "nshoof ba3d", "netgabal", "ntgabal"], Activity("Meetup", "لقاء", .none, weight: 1)),
    ]
}
