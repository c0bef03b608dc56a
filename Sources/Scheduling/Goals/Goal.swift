import Foundation

/// Something a person wants to do regularly: "exercise 3 times a week, 45 minutes, mornings",
/// "read 30 minutes every day", "study 2 hours on weekdays", "sleep 7.5 hours".
///
/// A goal says how long a session lasts, how many sessions a week or a day, the daily window a
/// session must lie in, on which days, and how long must pass between two sessions. The planner
/// (``TwoWeekPlan``) turns goals into proposed sessions; a goal itself never touches a calendar.
///
/// The window is ``WeeklyHours``: a window whose end is before its start crosses midnight
/// (sleep 21:30–07:00), and its days are the days it *starts* on. Every session lies wholly inside
/// one occurrence of the window.
public struct Goal: Sendable, Hashable {
    /// The caller's id (a stored goal's key); proposals and learned preferences refer to it.
    public let id: String
    public let title: String
    public let category: GoalCategory
    /// The length of one session, in minutes.
    public let minutesPerSession: Int
    public let target: GoalTarget
    /// The allowed daily window and the days it is open on.
    public let window: WeeklyHours
    /// The least time from the end of one session to the start of the next, in minutes
    /// ("not two exercise sessions within 20 h": 1200 minus the session).
    public let minimumGapMinutes: Int
    /// The part of the day the person asked for on this goal ("mornings"); nil leaves it to the
    /// questionnaire's preference for the category, if any.
    public let preferredTime: DayPart?

    /// Throws ``GoalError`` naming the field for a goal that could never be met: a blank id or
    /// title, a session of no time or longer than a day, a count below one, a window shorter
    /// than a session, more sessions a day than fit in the window (gaps included), more a week
    /// than fit in the week's windows, or a gap beyond a week.
    ///
    /// The capacity check counts clock minutes, so it ignores the hour a daylight-saving change
    /// adds or removes: a goal that fits a normal week is accepted, and the planner reports the
    /// odd week where it does not (``TwoWeekPlan/shortfalls``).
    public init(id: String, title: String, category: GoalCategory = .other, minutesPerSession: Int, target: GoalTarget,
                window: WeeklyHours, minimumGapMinutes: Int = 0, preferredTime: DayPart? = nil) throws(GoalError) {
        guard !id.allSatisfy(\.isWhitespace) else { throw .emptyID }
        guard !title.allSatisfy(\.isWhitespace) else { throw .emptyTitle }
        guard (1...1440).contains(minutesPerSession) else { throw .minutesOutOfRange(minutesPerSession) }
        guard (0...Self.longestGapMinutes).contains(minimumGapMinutes) else { throw .gapOutOfRange(minimumGapMinutes) }
        let windowMinutes = Int(window.clockLength / 60)
        guard windowMinutes >= minutesPerSession else {
            throw .windowShorterThanSession(windowMinutes: windowMinutes, sessionMinutes: minutesPerSession)
        }
        switch target {
        case .perDay(let count):
            guard count >= 1 else { throw .countOutOfRange(field: "perDay", count) }
            let fit = Self.sessionsPerDay(window: window, minutes: minutesPerSession, gap: minimumGapMinutes, wanted: count)
            guard count <= fit else { throw .tooManyPerDay(count, fit: fit) }
        case .perWeek(let count):
            guard count >= 1 else { throw .countOutOfRange(field: "perWeek", count) }
            let fit = Self.sessionsPerWeek(window: window, minutes: minutesPerSession, gap: minimumGapMinutes)
            guard count <= fit else { throw .tooManyPerWeek(count, fit: fit) }
        }
        self.id = id
        self.title = title
        self.category = category
        self.minutesPerSession = minutesPerSession
        self.target = target
        self.window = window
        self.minimumGapMinutes = minimumGapMinutes
        self.preferredTime = preferredTime
    }

    /// The same from the fields a form or the API sends: `from`/`to` as `HH:MM`, `days` as
    /// iCalendar codes (`["MO", "WE", "FR"]`, nil for every day), and exactly one of `perWeek` and
    /// `perDay`. Also throws for a malformed time (field `from` or `to`), a window that ends when
    /// it starts (`to`), an unknown or empty day list (`days`), and a missing or doubled target.
    public init(id: String, title: String, category: GoalCategory = .other, minutesPerSession: Int,
                perWeek: Int? = nil, perDay: Int? = nil, from: String, to: String, days: [String]? = nil,
                minimumGapMinutes: Int = 0, preferredTime: DayPart? = nil) throws(GoalError) {
        let target: GoalTarget
        switch (perWeek, perDay) {
        case (let week?, nil): target = .perWeek(week)
        case (nil, let day?): target = .perDay(day)
        case (nil, nil): throw .noTarget
        case (_?, _?): throw .twoTargets
        }
        let start: TimeOfDay, end: TimeOfDay
        do { start = try TimeOfDay(parsing: from, field: "from") } catch { throw .invalidTime(field: "from", text: from) }
        do { end = try TimeOfDay(parsing: to, field: "to") } catch { throw .invalidTime(field: "to", text: to) }
        guard start != end else { throw .emptyWindow(start) }
        var dayNumbers = DaysOfWeek.daily
        if let days {
            for code in days where !DaysOfWeek.codes.contains(code.uppercased()) { throw .unknownDay(code) }
            guard let parsed = try? DaysOfWeek(iCalendarCodes: days) else { throw .noDays }
            dayNumbers = parsed
        }
        let window: WeeklyHours
        do { window = try WeeklyHours(start: start, end: end, days: dayNumbers) } catch { throw .emptyWindow(start) }
        try self.init(id: id, title: title, category: category, minutesPerSession: minutesPerSession, target: target,
                      window: window, minimumGapMinutes: minimumGapMinutes, preferredTime: preferredTime)
    }

    /// A session's length in seconds.
    public var sessionLength: TimeInterval { TimeInterval(minutesPerSession * 60) }
    /// The least time between sessions, in seconds.
    public var minimumGap: TimeInterval { TimeInterval(minimumGapMinutes * 60) }

    /// Gaps longer than a week would make a weekly target meaningless.
    static let longestGapMinutes = 7 * 1440

    /// How many sessions fit in one window, up to `wanted`, placed as early as they go, with the
    /// gap to the previous window's sessions counted (so a 30-hour gap fits no daily session on
    /// every day). The least over a fortnight of windows, which covers the week's wrap-around.
    static func sessionsPerDay(window: WeeklyHours, minutes: Int, gap: Int, wanted: Int) -> Int {
        var fewest = Int.max
        var lastEnd = Int.min / 2
        for day in 0..<14 where window.days.contains(day % 7 + 1) {
            let (open, close) = windowMinutes(window, day: day)
            var start = max(open, lastEnd + gap)
            var count = 0
            while count < wanted, start + minutes <= close {
                count += 1
                lastEnd = start + minutes
                start = lastEnd + gap
            }
            fewest = min(fewest, count)
        }
        return fewest == .max ? 0 : fewest
    }

    /// How many sessions one Monday-to-Sunday week holds at most: as many as fit, each as early
    /// as it can go (earliest-first is optimal for equal sessions with a minimum gap).
    static func sessionsPerWeek(window: WeeklyHours, minutes: Int, gap: Int) -> Int {
        var count = 0
        var lastEnd = Int.min / 2
        for day in 0..<7 where window.days.contains(day + 1) {
            let (open, close) = windowMinutes(window, day: day)
            var start = max(open, lastEnd + gap)
            while start + minutes <= close {
                count += 1
                lastEnd = start + minutes
                start = lastEnd + gap
            }
        }
        return count
    }

    /// The window on day `day` (0 = the first Monday) as clock minutes from that Monday.
    private static func windowMinutes(_ window: WeeklyHours, day: Int) -> (Int, Int) {
        let open = day * 1440 + window.start.minutesSinceMidnight
        return (open, open + Int(window.clockLength / 60))
    }
}

/// How often a goal wants a session.
public enum GoalTarget: Sendable, Hashable, Codable {
    /// So many sessions in each Monday-to-Sunday week (local).
    case perWeek(Int)
    /// So many sessions on each allowed local day.
    case perDay(Int)

    public var count: Int {
        switch self {
        case .perWeek(let count), .perDay(let count): count
        }
    }
}

/// What a goal is about: decides which of the questionnaire's preferred times apply to it and
/// which closed hours it may use.
public enum GoalCategory: String, Sendable, Hashable, Codable, CaseIterable {
    /// Sport, walks: the questionnaire's exercise time applies; kept out of work hours.
    case exercise
    /// Study, reading, deep work: the questionnaire's focus time applies; may use work hours.
    case focus
    /// Sleep itself: placed in the night, so the questionnaire's sleep hours do not close it.
    case sleep
    /// Anything else: kept out of work and sleep hours.
    case other
}

/// A coarse part of the day, as people say "mornings": the preference a reason names.
public enum DayPart: String, Sendable, Hashable, Codable, CaseIterable {
    /// 05:00–12:00.
    case morning
    /// 12:00–17:00.
    case afternoon
    /// 17:00–21:00.
    case evening
    /// 21:00–05:00.
    case night

    /// The part a clock hour (0–23) falls in.
    public static func containing(hour: Int) -> DayPart {
        switch hour {
        case 5..<12: .morning
        case 12..<17: .afternoon
        case 17..<21: .evening
        default: .night
        }
    }
}

/// Why a goal is refused. ``field`` names the input, as the API would.
public enum GoalError: Error, Sendable, Hashable, CustomStringConvertible {
    case emptyID
    case emptyTitle
    /// Minutes per session outside 1 … 1440.
    case minutesOutOfRange(Int)
    /// A per-week or per-day count below one.
    case countOutOfRange(field: String, Int)
    /// Neither perWeek nor perDay given.
    case noTarget
    /// Both perWeek and perDay given.
    case twoTargets
    /// A `from` or `to` that is not `HH:MM`.
    case invalidTime(field: String, text: String)
    /// `to` equal to `from`: no window, or all day, and either reading surprises someone.
    case emptyWindow(TimeOfDay)
    /// The window is shorter than one session.
    case windowShorterThanSession(windowMinutes: Int, sessionMinutes: Int)
    /// A day code other than MO, TU, WE, TH, FR, SA, SU.
    case unknownDay(String)
    /// An empty list of days.
    case noDays
    /// A minimum gap below zero or beyond a week.
    case gapOutOfRange(Int)
    /// More sessions a day than fit in the window (with the gaps).
    case tooManyPerDay(Int, fit: Int)
    /// More sessions a week than fit in the week's windows (with the gaps).
    case tooManyPerWeek(Int, fit: Int)

    public var field: String {
        switch self {
        case .emptyID: "id"
        case .emptyTitle: "title"
        case .minutesOutOfRange: "minutesPerSession"
        case .countOutOfRange(let field, _): field
        case .noTarget, .twoTargets: "perWeek"
        case .invalidTime(let field, _): field
        case .emptyWindow: "to"
        case .windowShorterThanSession: "to"
        case .unknownDay, .noDays: "days"
        case .gapOutOfRange: "minimumGapMinutes"
        case .tooManyPerDay: "perDay"
        case .tooManyPerWeek: "perWeek"
        }
    }

    public var description: String {
        switch self {
        case .emptyID: "id: must not be empty"
        case .emptyTitle: "title: must not be empty"
        case .minutesOutOfRange(let minutes): "minutesPerSession: \(minutes) is out of range (expected 1 … 1440)"
        case .countOutOfRange(let field, let count): "\(field): \(count) must be at least 1"
        case .noTarget: "perWeek: give how many sessions a week (perWeek) or a day (perDay)"
        case .twoTargets: "perWeek: give perWeek or perDay, not both"
        case .invalidTime(let field, let text): "\(field): \"\(text)\" is not a time of day (expected HH:MM, 00:00 … 23:59)"
        case .emptyWindow(let time): "to: must differ from from (both \(time))"
        case .windowShorterThanSession(let window, let session):
            "to: the window lasts \(window) min, shorter than a \(session)-minute session"
        case .unknownDay(let code): "days: \"\(code)\" is not a day (expected MO, TU, WE, TH, FR, SA or SU)"
        case .noDays: "days: choose at least one day of the week"
        case .gapOutOfRange(let minutes): "minimumGapMinutes: \(minutes) is out of range (expected 0 … \(Goal.longestGapMinutes))"
        case .tooManyPerDay(let count, let fit): "perDay: \(count) sessions do not fit in the window; at most \(fit) do"
        case .tooManyPerWeek(let count, let fit): "perWeek: \(count) sessions do not fit in a week of windows; at most \(fit) do"
        }
    }
}

// Stored as the fields the API sends, and read back through the validating initialiser, so a
// stored goal that no longer validates is refused rather than planned.
extension Goal: Codable {
    private enum CodingKeys: String, CodingKey {
        case id, title, category, minutesPerSession, perWeek, perDay, from, to, days, minimumGapMinutes, preferredTime
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            id: c.decode(String.self, forKey: .id), title: c.decode(String.self, forKey: .title),
            category: c.decodeIfPresent(GoalCategory.self, forKey: .category) ?? .other,
            minutesPerSession: c.decode(Int.self, forKey: .minutesPerSession),
            perWeek: c.decodeIfPresent(Int.self, forKey: .perWeek), perDay: c.decodeIfPresent(Int.self, forKey: .perDay),
            from: c.decode(String.self, forKey: .from), to: c.decode(String.self, forKey: .to),
            days: c.decodeIfPresent([String].self, forKey: .days),
            minimumGapMinutes: c.decodeIfPresent(Int.self, forKey: .minimumGapMinutes) ?? 0,
            preferredTime: c.decodeIfPresent(DayPart.self, forKey: .preferredTime))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(title, forKey: .title)
        try c.encode(category, forKey: .category)
        try c.encode(minutesPerSession, forKey: .minutesPerSession)
        switch target {
        case .perWeek(let count): try c.encode(count, forKey: .perWeek)
        case .perDay(let count): try c.encode(count, forKey: .perDay)
        }
        try c.encode(window.start.description, forKey: .from)
        try c.encode(window.end.description, forKey: .to)
        try c.encode(window.days.iCalendarCodes, forKey: .days)
        try c.encode(minimumGapMinutes, forKey: .minimumGapMinutes)
        try c.encodeIfPresent(preferredTime, forKey: .preferredTime)
    }
}
