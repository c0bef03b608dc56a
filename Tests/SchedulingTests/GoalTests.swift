import Foundation
import Testing
@testable import Scheduling

/// Goals refuse what could never be met, naming the field; learned preferences move, stay
/// bounded, explain themselves and survive storage; reasons read in English and Arabic.
@Suite struct GoalTests {
    func goal(minutes: Int = 45, perWeek: Int? = 3, perDay: Int? = nil, from: String = "06:00", to: String = "09:00",
              days: [String]? = nil, gap: Int = 0) throws(GoalError) -> Goal {
        try Goal(id: "g", title: "Exercise", category: .exercise, minutesPerSession: minutes, perWeek: perWeek, perDay: perDay,
                 from: from, to: to, days: days, minimumGapMinutes: gap)
    }

    func refusal(_ make: () throws -> Goal) -> GoalError? {
        do { _ = try make(); return nil } catch { return error as? GoalError }
    }

    @Test func theIssuesExamplesAreAccepted() throws {
        let exercise = try goal(minutes: 45, perWeek: 3, from: "05:00", to: "09:00", gap: 20 * 60 - 45)
        #expect(exercise.target == .perWeek(3) && exercise.window.days == .daily && exercise.minimumGap == 1155 * 60)
        let read = try goal(minutes: 30, perWeek: nil, perDay: 1, from: "06:00", to: "23:00")
        #expect(read.target == .perDay(1))
        let study = try goal(minutes: 120, perWeek: nil, perDay: 1, from: "16:00", to: "22:00", days: ["MO", "TU", "we", "TH", "FR"])
        #expect(study.window.days == .weekdays)
        let sleep = try goal(minutes: 450, perWeek: nil, perDay: 1, from: "21:30", to: "07:00")
        #expect(sleep.window.crossesMidnight && sleep.window.clockLength == 9.5 * 3600)
    }

    @Test func impossibleGoalsAreRefusedNamingTheField() {
        let cases: [(GoalError?, GoalError, String)] = [
            (refusal { try goal(minutes: 0) }, .minutesOutOfRange(0), "minutesPerSession"),
            (refusal { try goal(minutes: -5) }, .minutesOutOfRange(-5), "minutesPerSession"),
            (refusal { try goal(minutes: 200) }, .windowShorterThanSession(windowMinutes: 180, sessionMinutes: 200), "to"),
            (refusal { try goal(perWeek: 0) }, .countOutOfRange(field: "perWeek", 0), "perWeek"),
            (refusal { try goal(perWeek: nil, perDay: 0) }, .countOutOfRange(field: "perDay", 0), "perDay"),
            (refusal { try goal(perWeek: nil) }, .noTarget, "perWeek"),
            (refusal { try goal(perWeek: 2, perDay: 1) }, .twoTargets, "perWeek"),
            // 4 sessions of 45 minutes fit in 06:00–09:00; 7 days of that is 28.
            (refusal { try goal(perWeek: 29) }, .tooManyPerWeek(29, fit: 28), "perWeek"),
            (refusal { try goal(perWeek: nil, perDay: 5) }, .tooManyPerDay(5, fit: 4), "perDay"),
            // A 20-hour gap allows one a day; 3 days allow 3 a week.
            (refusal { try goal(perWeek: 4, days: ["MO", "WE", "FR"], gap: 20 * 60) }, .tooManyPerWeek(4, fit: 3), "perWeek"),
            (refusal { try goal(perWeek: nil, perDay: 2, gap: 20 * 60) }, .tooManyPerDay(2, fit: 1), "perDay"),
            // A 30-hour gap cannot give a session every day.
            (refusal { try goal(perWeek: nil, perDay: 1, gap: 30 * 60) }, .tooManyPerDay(1, fit: 0), "perDay"),
            (refusal { try goal(days: ["MO", "XX"]) }, .unknownDay("XX"), "days"),
            (refusal { try goal(days: []) }, .noDays, "days"),
            (refusal { try goal(from: "7:60") }, .invalidTime(field: "from", text: "7:60"), "from"),
            (refusal { try goal(to: "noon") }, .invalidTime(field: "to", text: "noon"), "to"),
            (refusal { try goal(from: "08:00", to: "08:00") }, .emptyWindow(try! TimeOfDay(hour: 8)), "to"),
            (refusal { try goal(gap: -1) }, .gapOutOfRange(-1), "minimumGapMinutes"),
            (refusal { try goal(gap: 7 * 1440 + 1) }, .gapOutOfRange(7 * 1440 + 1), "minimumGapMinutes"),
            (refusal { try Goal(id: "g", title: "  ", minutesPerSession: 30, perDay: 1, from: "06:00", to: "07:00") }, .emptyTitle, "title"),
            (refusal { try Goal(id: "", title: "Read", minutesPerSession: 30, perDay: 1, from: "06:00", to: "07:00") }, .emptyID, "id"),
        ]
        for (got, expected, field) in cases {
            #expect(got == expected)
            #expect(got?.field == field, "\(expected)")
            #expect(got?.description.hasPrefix(field + ":") == true, "\(got.map(String.init(describing:)) ?? "nil")")
        }
    }

    @Test func theCapacityCheckIsExactAtItsEdge() throws {
        // 06:00–09:00 holds exactly 4 × 45 min; with a 15-minute gap only 3 (45 + 15 + 45 + 15 + 45 = 165).
        #expect(throws: Never.self) { try goal(perWeek: nil, perDay: 4) }
        #expect(refusal { try goal(perWeek: nil, perDay: 4, gap: 15) } == .tooManyPerDay(4, fit: 3))
        #expect(throws: Never.self) { try goal(perWeek: nil, perDay: 3, gap: 15) }
    }

    @Test func goalsRoundTripThroughJSONAndStoredNonsenseIsRefused() throws {
        let original = try Goal(id: "study", title: "Study", category: .focus, minutesPerSession: 120, perDay: 1, from: "16:00", to: "22:00",
                                days: ["MO", "TU"], minimumGapMinutes: 60, preferredTime: .evening)
        let data = try JSONEncoder().encode(original)
        #expect(try JSONDecoder().decode(Goal.self, from: data) == original)
        let broken = #"{"id":"x","title":"X","minutesPerSession":0,"perDay":1,"from":"06:00","to":"07:00"}"#
        #expect(throws: GoalError.minutesOutOfRange(0)) { try JSONDecoder().decode(Goal.self, from: Data(broken.utf8)) }
    }

    // MARK: Learning

    let london = TimeZone(identifier: "Europe/London")!

    @Test func acceptsRejectsMovesAndDeletesMoveTheWeights() throws {
        var learned = LearnedPreferences()
        let tuesday0630 = at("2026-03-10 06:30", london)
        learned.record(.accepted(tuesday0630), goalID: "g", timeZone: london)
        let tue6 = HourOfWeek(isoWeekday: 2, hour: 6)
        #expect(HourOfWeek(tuesday0630, timeZone: london) == tue6)
        #expect(learned.weight(goalID: "g", at: tue6) == 1)
        #expect(learned.weight(goalID: "g", at: HourOfWeek(isoWeekday: 2, hour: 5)) == 0.5)
        #expect(learned.weight(goalID: "g", at: HourOfWeek(isoWeekday: 2, hour: 7)) == 0.5)
        #expect(learned.weight(goalID: "other", at: tue6) == 0)
        #expect(learned.evidence(goalID: "g", at: tue6) == .accepted)

        learned.record(.rejected(at("2026-03-11 18:00", london)), goalID: "g", timeZone: london)
        #expect(learned.weight(goalID: "g", at: HourOfWeek(isoWeekday: 3, hour: 18)) == -1)
        #expect(learned.evidence(goalID: "g", at: HourOfWeek(isoWeekday: 3, hour: 18)) == nil)

        learned.record(.moved(from: tuesday0630, to: at("2026-03-12 19:00", london)), goalID: "g", timeZone: london)
        #expect(learned.weight(goalID: "g", at: tue6) == 0)
        #expect(learned.weight(goalID: "g", at: HourOfWeek(isoWeekday: 4, hour: 19)) == 1.5)
        #expect(learned.weight(goalID: "g", at: HourOfWeek(isoWeekday: 4, hour: 20)) == 0.75)
        #expect(learned.evidence(goalID: "g", at: HourOfWeek(isoWeekday: 4, hour: 19)) == .movedHere)

        learned.record(.deleted(at("2026-03-12 19:00", london)), goalID: "g", timeZone: london)
        #expect(learned.weight(goalID: "g", at: HourOfWeek(isoWeekday: 4, hour: 19)) == 0.5)
    }

    @Test func weightsStayBoundedAndResetForgets() {
        var learned = LearnedPreferences()
        for _ in 0..<50 {
            learned.record(.accepted(at("2026-03-10 06:30", london)), goalID: "g", timeZone: london)
            learned.record(.rejected(at("2026-03-13 20:10", london)), goalID: "g", timeZone: london)
        }
        #expect(learned.weight(goalID: "g", at: HourOfWeek(isoWeekday: 2, hour: 6)) == LearnedPreferences.bound)
        #expect(learned.weight(goalID: "g", at: HourOfWeek(isoWeekday: 5, hour: 20)) == -LearnedPreferences.bound)
        // A change of habit needs only a few contrary signals.
        for _ in 0..<6 { learned.record(.rejected(at("2026-03-10 06:30", london)), goalID: "g", timeZone: london) }
        #expect(learned.weight(goalID: "g", at: HourOfWeek(isoWeekday: 2, hour: 6)) < 0)
        learned.record(.accepted(at("2026-03-10 06:30", london)), goalID: "h", timeZone: london)
        learned.reset(goalID: "g")
        #expect(learned.weight(goalID: "g", at: HourOfWeek(isoWeekday: 5, hour: 20)) == 0)
        #expect(learned.weight(goalID: "h", at: HourOfWeek(isoWeekday: 2, hour: 6)) == 1)
        learned.resetAll()
        #expect(learned == LearnedPreferences())
    }

    @Test func hoursOfTheWeekFollowTheLocalClockAcrossDaylightSaving() {
        // 2026-03-29: London springs from 01:00 GMT to 02:00 BST. 07:00 is 07:00 either side.
        #expect(HourOfWeek(at("2026-03-28 07:00", london), timeZone: london) == HourOfWeek(isoWeekday: 6, hour: 7))
        #expect(HourOfWeek(at("2026-03-30 07:00", london), timeZone: london) == HourOfWeek(isoWeekday: 1, hour: 7))
        #expect(HourOfWeek(utc("2026-03-29 01:30"), timeZone: london) == HourOfWeek(isoWeekday: 7, hour: 2))
        #expect(HourOfWeek(utc("2026-10-25 00:30"), timeZone: london) == HourOfWeek(isoWeekday: 7, hour: 1))
        #expect(HourOfWeek(utc("2026-10-25 01:30"), timeZone: london) == HourOfWeek(isoWeekday: 7, hour: 1))
        #expect(HourOfWeek(utc("1969-12-31 23:30"), timeZone: Zones.utc) == HourOfWeek(isoWeekday: 3, hour: 23))
    }

    @Test func learnedPreferencesRoundTripAndRefuseCorruptData() throws {
        var learned = LearnedPreferences()
        learned.record(.moved(from: at("2026-03-10 06:30", london), to: at("2026-03-12 19:00", london)), goalID: "g", timeZone: london)
        let data = try JSONEncoder().encode(learned)
        #expect(try JSONDecoder().decode(LearnedPreferences.self, from: data) == learned)
        let short = #"{"goals":{"g":{"weights":[1],"accepted":[0],"movedHere":[0]}}}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(LearnedPreferences.self, from: Data(short.utf8)) }
        let zeros = Array(repeating: "0", count: 168).joined(separator: ",")
        let huge = #"{"goals":{"g":{"weights":[99,"# + Array(repeating: "0", count: 167).joined(separator: ",") + #"],"accepted":["# + zeros + #"],"movedHere":["# + zeros + "]}}}"
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(LearnedPreferences.self, from: Data(huge.utf8)) }
    }

    // MARK: Reasons

    @Test func reasonsReadInEnglishAndArabic() throws {
        let reason = ProposalReason(isoWeekday: 2, start: try time("06:30"), factors: [
            .learned(.accepted, isoWeekday: 2, part: .morning), .preferredTime(.morning, source: .questionnaire),
            .prayer(.fajr, at: try time("05:02")), .freeUntil(try time("08:00")),
        ])
        #expect(reason.sentence(in: .english)
            == "Tuesday 06:30 — you accepted Tuesday mornings before; you prefer mornings; Fajr is at 05:02; free until 08:00")
        #expect(reason.sentence(in: .arabic)
            == "الثلاثاء 06:30 — قبلت مواعيد صباح الثلاثاء من قبل؛ وقتك المفضّل: الصباح؛ صلاة الفجر الساعة 05:02؛ متاح حتى 08:00")
        let task = ProposalReason(isoWeekday: 5, start: try time("21:15"), factors: [
            .part(2, of: 3), .due(isoWeekday: 6, at: try time("17:00")), .earliestFreeTime, .daysSinceLastSession(2),
            .learned(.movedHere, isoWeekday: 5, part: .night), .preferredTime(.evening, source: .goal), .noDueDate,
        ])
        #expect(task.sentence(in: .english) == "Friday 21:15 — part 2 of 3; due Saturday 17:00; the earliest free time; "
            + "2 days after the last session; you moved sessions to Friday nights before; you chose evenings for this goal; no due date")
        #expect(task.sentence(in: .arabic) == "الجمعة 21:15 — الجزء 2 من 3؛ موعده النهائي السبت 17:00؛ أقرب وقت متاح؛ "
            + "بعد يومين من الجلسة السابقة؛ نقلت جلسات إلى الجمعة ليلًا من قبل؛ اخترت المساء لهذا الهدف؛ بلا موعد نهائي")
        #expect(ProposalReason(isoWeekday: 7, start: try time("10:00"), factors: []).sentence(in: .arabic) == "الأحد 10:00")
        #expect([1, 2, 3, 10, 11].map(ReasonFactor.arabicDays) == ["يوم", "يومين", "3 أيام", "10 أيام", "11 يومًا"])
        let data = try JSONEncoder().encode(task)
        #expect(try JSONDecoder().decode(ProposalReason.self, from: data) == task)
    }
}
