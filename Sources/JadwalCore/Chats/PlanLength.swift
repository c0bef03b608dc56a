import Conversations
import Foundation

/// How long a plan agreed in a chat lasts on the calendar when the chat stated no end.
///
/// The extraction contract keeps `end: null` (the chat said none), but an event with no end is an
/// instant: busy time is half-open, so a dinner at 20:00 with no DTEND overlaps nothing and the
/// person is never told it clashes with the family visit from 19:30 to 21:30. The event gets the
/// person's default length instead (`ChatSettings.eventMinutes`), refined by the kind of plan the
/// title names: a call is short, a meal or a match longer, a trip longer still. Prayer-anchored
/// plans with no named kind are gatherings ("after Isha at Abu Fahad's"). The table is
/// `docs/chats.md`'s; keep them together.
public struct PlanLength: Sendable {
    /// A kind of plan and how long it usually takes.
    public struct Kind: Sendable, Hashable {
        public let name: String
        public let minutes: Int
        /// Words of a title that name this kind: English, Arabic (normalised: no diacritics,
        /// أ/إ/آ as ا, ة as ه, ى as ي, without a leading ال) and Arabizi.
        let words: Set<String>
    }

    public static let kinds: [Kind] = [
        Kind(name: "call", minutes: 30, words: [
            "call", "calls", "phone", "phonecall", "facetime", "zoom", "skype", "teams", "videocall",
            "مكالمه", "اتصال", "كول", "زوم", "mukalama", "ittisal",
        ]),
        Kind(name: "pickup", minutes: 30, words: [
            "pickup", "pick-up", "lift", "ride", "drop", "dropoff", "airport",
            "توصيله", "توصيل", "مشوار", "مطار", "tawseel", "tawseela", "mishwar",
        ]),
        Kind(name: "coffee", minutes: 45, words: [
            "coffee", "coffees", "cafe", "café", "tea", "chai", "latte", "karak",
            "قهوه", "كوفي", "كافيه", "شاي", "كرك", "مقهي", "gahwa", "ahwa", "2ahwa", "qahwa", "kahwa",
        ]),
        Kind(name: "meeting", minutes: 60, words: [
            "meeting", "interview", "appointment", "sync", "standup", "review", "lesson", "class", "tutoring", "study", "session",
            "اجتماع", "ميتنق", "ميتينج", "مقابله", "درس", "محاضره", "مذاكره", "حصه", "ijtima3", "dars",
        ]),
        Kind(name: "meal", minutes: 90, words: [
            "breakfast", "brunch", "lunch", "dinner", "supper", "iftar", "suhoor", "sahoor", "suhur", "bbq", "barbecue", "meal", "roast",
            "feast", "kabsa", "mandi", "shawarma", "pizza", "burger", "sushi", "restaurant",
            "فطور", "افطار", "غداء", "غدا", "عشاء", "عشا", "سحور", "مطعم", "كبسه", "مندي", "شاورما", "برجر", "بيتزا", "مشويات", "عزيمه", "وليمه",
            "ghada", "ghadaa", "gada", "3asha", "3ashaa", "fatoor", "fotor", "ftoor", "fu6oor", "iftaar", "so7oor", "s7oor", "3azeema",
        ]),
        Kind(name: "sport", minutes: 90, words: [
            "match", "game", "football", "soccer", "futsal", "padel", "tennis", "squash", "basketball", "volleyball", "badminton", "run",
            "running", "jog", "gym", "workout", "training", "swim", "swimming", "climbing", "yoga", "bowling", "golf", "cycling",
            "مباراه", "ماتش", "كوره", "بادل", "تنس", "نادي", "جيم", "تمرين", "سباحه", "مشي", "بولينج", "بلوت",
            "kora", "koora", "matsh", "tamreen",
        ]),
        Kind(name: "gathering", minutes: 120, words: [
            "visit", "gathering", "hangout", "get-together", "majlis", "diwaniya", "diwaniyah", "shisha", "games", "boardgames", "catchup",
            "زياره", "قعده", "سهره", "ديوانيه", "جلسه", "شيشه", "معسل", "لمه", "تجمع",
            "jalsa", "jalsah", "sahra", "sahrah", "ga3da", "2a3de", "zyara", "ziyara",
        ]),
        Kind(name: "shopping", minutes: 120, words: [
            "shopping", "mall", "market", "souq", "souk", "تسوق", "مول", "سوق", "mool",
        ]),
        Kind(name: "film", minutes: 150, words: [
            "movie", "movies", "film", "cinema", "theatre", "theater", "concert",
            "فيلم", "سينما", "مسرح", "sinama",
        ]),
        Kind(name: "party", minutes: 180, words: [
            "party", "wedding", "reception", "engagement", "birthday", "celebration", "graduation", "eid",
            "حفله", "عرس", "زواج", "ملكه", "خطوبه", "عيد", "تخرج", "زفاف", "7aflah", "7afla", "3ors", "3irs", "zawaj",
        ]),
        Kind(name: "trip", minutes: 240, words: [
            "trip", "hike", "hiking", "picnic", "camping", "beach", "desert", "roadtrip", "excursion", "umrah", "outing",
            "رحله", "كشته", "طلعه", "بر", "مخيم", "بحر", "شاليه", "استراحه", "عمره", "نزهه", "rehla", "re7la", "kashta", "ta3la", "umra",
        ]),
    ]

    /// Plans anchored to a prayer ("after Maghrib") that name no kind are gatherings.
    static let anchoredGathering = "gathering"

    public static let defaultMinutes = 60

    /// The kind the plan's title names, if any; the longest when it names several ("dinner and a movie").
    public static func kind(of plan: ExtractedEvent) -> Kind? {
        let words = Self.words(plan.title ?? "")
        var found: Kind?
        for kind in kinds where !kind.words.isDisjoint(with: words) {
            if found.map({ kind.minutes > $0.minutes }) ?? true { found = kind }
        }
        if found == nil, plan.startRelativeTo != nil { found = kinds.first { $0.name == anchoredGathering } }
        return found
    }

    /// Minutes the event lasts: the kind's length, else the person's default.
    public static func minutes(for plan: ExtractedEvent, defaultMinutes: Int) -> Int {
        kind(of: plan)?.minutes ?? defaultMinutes
    }

    /// The title's words, folded so that spelling variants meet the table's: lower case, no
    /// diacritics, Arabic letters that are written either way made one, a leading ال dropped.
    static func words(_ text: String) -> Set<String> {
        var folded = ""
        folded.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.lowercased().unicodeScalars {
            switch scalar.value {
            case 0x0610...0x061A, 0x064B...0x065F, 0x0670, 0x0640: continue  // harakat, tatweel
            case 0x0623, 0x0625, 0x0622, 0x0671: folded.unicodeScalars.append("\u{0627}")  // أ إ آ ٱ → ا
            case 0x0629: folded.unicodeScalars.append("\u{0647}")  // ة → ه
            case 0x0649: folded.unicodeScalars.append("\u{064A}")  // ى → ي
            default: folded.unicodeScalars.append(scalar)
            }
        }
        folded = folded.folding(options: [.diacriticInsensitive], locale: nil)
        var words: Set<String> = []
        for token in folded.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "-") }) {
            var word = String(token)
            words.insert(word)
            if word.hasPrefix("ال"), word.count > 3 { word.removeFirst(2) }
            // و and ب join the next word in Arabic script ("والعشاء", "بالمطعم").
            for prefix in ["و", "ب", "وال", "بال", "لل"] where word.hasPrefix(prefix) && word.count > prefix.count + 2 {
                words.insert(String(word.dropFirst(prefix.count)))
            }
            words.insert(word)
        }
        return words
    }
}
