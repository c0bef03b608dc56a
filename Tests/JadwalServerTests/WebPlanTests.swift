import Foundation
import HTTPTypes
import HummingbirdTesting
import JadwalCore
import Testing

@testable import JadwalServer
@testable import JadwalHTTP
@testable import JadwalAPI
@testable import JadwalWeb
@testable import JadwalCalDAV
@testable import JadwalMail
@testable import JadwalPush
@testable import JadwalLLM
@testable import JadwalJobs

/// Goals and the two-week plan through their page, against a live server.
@Suite("Web app: goals and the two-week plan")
struct WebPlanTests {
    static let exercise: [(String, String)] = [("title", "Exercise"), ("minutes", "45"), ("count", "3"), ("per", "week"), ("from", "06:00"), ("to", "09:00")]

    static func replacing(_ fields: [(String, String)], _ changes: [String: String]) -> [(String, String)] {
        fields.map { field in (field.0, changes[field.0] ?? field.1) }
    }

    @Test("add a goal with bad input said beside the field, plan, accept and reject; the page reads in Arabic too")
    func plan() async throws {
        try await ServerHarness.run { harness, client in
            var (browser, token, csrf, _) = try await WebTasksTests.person("plan@example.com", harness: harness, client: client)
            let empty = try await browser.get(client, "/plan")
            #expect(empty.status == .ok && empty.text.contains(#"href="/plan" aria-current="page""#), "\(empty.text)")
            #expect(empty.text.contains(#"id="goals-empty""#) && empty.text.contains(#"id="proposals-empty""#))

            for (changes, field, message) in [
                (["minutes": "many"], "minutes", "whole number"),
                (["minutes": "0"], "minutes", "from 1 to 1440"),
                (["count": "40"], "count", "at most 28 do"),
                (["from": "6am"], "from", "time such as"),
                (["to": "06:30"], "to", "longer than one session"),
                (["title": " "], "title", "at most 200 characters"),
            ] {
                let refused = try await browser.post(client, "/plan/goals", Self.replacing(Self.exercise, changes), csrf: csrf)
                #expect(refused.status == .unprocessableContent, "\(changes)")
                let note = WebTasksTests.note(beside: field, in: refused)
                #expect(note.contains(message), "\(changes): \(note)")
            }
            let added = try await browser.post(client, "/plan/goals", Self.exercise + [("day1", "on"), ("day3", "on"), ("day5", "on")], csrf: csrf)
            #expect(added.status == .seeOther && added.headers[.location] == "/plan")
            let goals = try await client.send(.get, "/api/v1/goals", token: token).json(GoalAPITests.GoalList.self).goals
            #expect(goals.map(\.days) == [["MO", "WE", "FR"]] && goals.first?.perWeek == 3)

            #expect(try await browser.post(client, "/plan/propose", [], csrf: csrf).status == .seeOther)
            let planned = try await browser.get(client, "/plan")
            #expect(planned.text.contains(#"id="accept-all""#) && planned.text.contains("Wednesday 07:00"), "\(planned.text)")
            let accept = try #require(TestBrowser.first(#"action="(/plan/proposals/[^"]+/accept)""#, in: planned.text))
            #expect(try await browser.post(client, accept, [], csrf: csrf).status == .seeOther)
            let reject = try #require(TestBrowser.first(#"action="(/plan/proposals/[^"]+/reject)""#, in: try await browser.get(client, "/plan").text))
            #expect(try await browser.post(client, reject, [], csrf: csrf).status == .seeOther)
            let items = try await client.send(.get, "/api/v1/plan/proposals?state=all", token: token).json(GoalAPITests.ItemStates.self).items
            #expect(items.map(\.state).filter { $0 != "proposed" }.sorted() == ["accepted", "rejected"])
            let after = try await browser.get(client, "/plan")
            #expect(after.text.contains(#"id="accepted-list""#))
            #expect(try await browser.post(client, "/plan/proposals/goal:nope@1/accept", [], csrf: csrf).status == .seeOther, "gone: the page as it is")
            #expect(try await browser.post(client, "/plan/propose", []).status == .forbidden, "no CSRF token, no plan")

            let arabic = try await client.send(.patch, "/api/v1/me", json: #"{"language": "ar"}"#, token: token)
            #expect(arabic.status == .ok)
            let page = try await browser.get(client, "/plan")
            #expect(page.text.contains("الأهداف والخطة") && page.text.contains(#"dir="rtl""#) && page.text.contains("الأربعاء"), "\(page.text)")

            let delete = try #require(TestBrowser.first(#"action="(/plan/goals/[^"]+/delete)""#, in: page.text))
            #expect(try await browser.post(client, delete, [], csrf: csrf).status == .seeOther)
            #expect(try await client.send(.get, "/api/v1/goals", token: token).json(GoalAPITests.GoalList.self).goals.isEmpty)
        }
    }

    struct LastPlan: Decodable {
        struct Unplaced: Decodable { let task: String; let title: String; let reason: String; let message: String }
        let plannedAt: Date?; let trigger: String?; let unplacedTasks: [Unplaced]
    }

    @Test("change a goal and its kind (then the questionnaire's exercise time applies); to-dos the plan found no time for, with why")
    func changeAndUnplaced() async throws {
        try await ServerHarness.run { harness, client in
            var (browser, token, csrf, _) = try await WebTasksTests.person("change@example.com", harness: harness, client: client)
            let none = try await client.send(.get, "/api/v1/plan", token: token)
            #expect(none.status == .ok && none.text.contains(#""plannedAt":null"#) && none.text.contains(#""unplacedTasks":[]"#), "\(none.text)")
            #expect(try await client.send(.put, "/api/v1/plan/questionnaire", json: #"{"exerciseTime": "evening"}"#, token: token).status == .ok)
            let fields = Self.replacing(Self.exercise, ["to": "21:00"])
            let form = try await browser.get(client, "/plan")
            #expect(form.text.contains(#"<option value="other" selected>General</option>"#), "a new goal is General unless chosen")
            #expect(try await browser.post(client, "/plan/goals", fields, csrf: csrf).status == .seeOther)
            let goal = try #require(try await client.send(.get, "/api/v1/goals", token: token).json(GoalAPITests.GoalList.self).goals.first)
            #expect(goal.category == "other")

            // The form shows the goal, to change it.
            let editing = try await browser.get(client, "/plan?edit=\(goal.id)")
            #expect(editing.text.contains(#"action="/plan/goals/\#(goal.id)""#) && editing.text.contains("Change the goal"), "\(editing.text)")
            #expect(editing.text.contains(#"id="title" name="title" value="Exercise""#) && editing.text.contains(#"value="21:00""#))
            #expect(editing.text.contains(#"id="cancel-edit""#))
            #expect(!(try await browser.get(client, "/plan?edit=nope")).text.contains("Change the goal"), "a goal gone: the add form")

            let refused = try await browser.post(client, "/plan/goals/\(goal.id)", Self.replacing(fields, [:]) + [("category", "napping")], csrf: csrf)
            #expect(refused.status == .unprocessableContent && WebTasksTests.note(beside: "category", in: refused).contains("Choose one of the kinds"))
            #expect(refused.text.contains(#"action="/plan/goals/\#(goal.id)""#), "still changing the same goal")
            let tooLong = try await browser.post(client, "/plan/goals/\(goal.id)", Self.replacing(fields, ["minutes": "2000"]) + [("category", "exercise")], csrf: csrf)
            #expect(tooLong.status == .unprocessableContent && WebTasksTests.note(beside: "minutes", in: tooLong).contains("from 1 to 1440"))
            let saved = try await browser.post(client, "/plan/goals/\(goal.id)", Self.replacing(fields, ["minutes": "60"]) + [("category", "exercise")], csrf: csrf)
            #expect(saved.status == .seeOther && saved.headers[.location] == "/plan")
            let changed = try #require(try await client.send(.get, "/api/v1/goals", token: token).json(GoalAPITests.GoalList.self).goals.first)
            #expect(changed.id == goal.id && changed.category == "exercise" && changed.minutes == 60 && changed.perWeek == 3 && changed.days.count == 7)
            #expect(try await browser.post(client, "/plan/goals/nope", fields, csrf: csrf).headers[.location] == "/plan", "gone: the page as it is")

            // Four hours of work due in under an hour find no time.
            let task = try await client.send(.post, "/api/v1/tasks", json: #"{"title": "Tax return", "due": "2026-09-21T18:00", "estimateMinutes": 240}"#, token: token)
            #expect(task.status == .created, "\(task.text)")
            #expect(try await browser.post(client, "/plan/propose", [], csrf: csrf).status == .seeOther)
            let planned = try await browser.get(client, "/plan")
            #expect(planned.text.contains("you prefer evenings"), "an exercise goal takes the questionnaire's time: \(planned.text)")
            let unplaced = try #require(TestBrowser.first(#"<ul class="routine-list" id="unplaced-list"[^>]*>(.*?)</ul>"#, in: planned.text.replacingOccurrences(of: "\n", with: " ")))
            #expect(unplaced.contains("Tax return") && unplaced.contains("needs 4 h before it is due"), "\(unplaced)")
            #expect(planned.text.contains(#"id="plan-made""#))
            let last = try GoalAPITests.json(try await client.send(.get, "/api/v1/plan", token: token), LastPlan.self)
            #expect(last.trigger == "asked" && last.plannedAt != nil)
            #expect(last.unplacedTasks.map(\.title) == ["Tax return"] && last.unplacedTasks.first?.reason == "no-room-before-due")

            #expect(try await client.send(.patch, "/api/v1/me", json: #"{"language": "ar"}"#, token: token).status == .ok)
            let arabic = try await browser.get(client, "/plan")
            #expect(arabic.text.contains("مهام بلا وقت") && arabic.text.contains("رياضة") && arabic.text.contains("تعديل"), "\(arabic.text)")
        }
    }

    @Test("the first-run guide offers the questionnaire as a step that can be skipped, and answering it comes back to the guide")
    func firstRunQuestionnaire() async throws {
        try await ServerHarness.run { harness, client in
            var (browser, _, csrf, _) = try await WebTasksTests.person("guide@example.com", harness: harness, client: client)
            let chats = try await browser.get(client, "/welcome?step=chats")
            #expect(chats.text.contains(#"href="/welcome?step=planner""#) && chats.text.contains("Step 5 of 7"))
            let step = try await browser.get(client, "/welcome?step=planner")
            #expect(step.status == .ok && step.text.contains("Step 6 of 7") && !step.text.contains(#"id="planner-answered""#))
            let link = try #require(TestBrowser.first(#"id="open-questionnaire" href="([^"]+)""#, in: step.text))
            #expect(link.hasPrefix("/settings/questionnaire?next=%2Fwelcome%3Fstep"), "\(link)")
            #expect(step.text.contains(#"id="skip-step""#) && step.text.contains(#"href="/welcome?step=notifications""#), "skippable")
            let questionnaire = try await browser.get(client, link)
            #expect(questionnaire.text.contains(#"value="/welcome?step=notifications""#), "the questionnaire knows where to return")
            let answered = try await browser.post(client, "/settings/questionnaire", [("wake", "06:00"), ("sleep", "22:30"), ("next", "/welcome?step=notifications")],
                                                  csrf: csrf)
            #expect(answered.headers[.location] == "/welcome?step=notifications")
            #expect(try await browser.get(client, "/welcome?step=planner").text.contains(#"id="planner-answered""#))
        }
    }
}
