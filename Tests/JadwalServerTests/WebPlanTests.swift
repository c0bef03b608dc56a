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
}
