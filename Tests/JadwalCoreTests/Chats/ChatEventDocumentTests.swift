import Conversations
import Foundation
import ICalendar
@testable import JadwalCore
import PrayerTimes
import Testing

@Suite("The iCalendar of events agreed in chats")
struct ChatEventDocumentTests {
    static let now = Date(timeIntervalSince1970: 1_790_000_000)
    static let document = ChatEventDocument(timeZone: "Asia/Riyadh", language: .english, now: now, eventMinutes: 60)
    static let conversation = UUID()

    static func local(_ day: Int, _ hour: Int, _ minute: Int = 0) -> Conversations.LocalDateTime {
        Conversations.LocalDateTime(year: 2026, month: 9, day: day, hour: hour, minute: minute)!
    }

    static func event(_ text: String) throws -> Event {
        let calendar = try ICalendarParser().parseCalendar(text)
        return try Event(component: try #require(calendar.components.first { $0.name == "VEVENT" }))
    }

    @Test("a timed plan: summary, start in the account's zone, an end from the kind of plan, place, note and link")
    func timed() throws {
        let plan = ExtractedEvent(title: "Dinner", start: Self.local(22, 20), location: "Nando's")
        let text = try #require(Self.document.created(
            uid: "chat-1@jadwal", plan: plan, partner: "Sara", conversationID: Self.conversation,
            link: "https://jadwal.example/api/v1/chats/\(Self.conversation.uuidString.lowercased())"))
        // A dinner with no stated end lasts a meal's 90 minutes, so it is busy time.
        #expect(text.contains("DTSTART;TZID=Asia/Riyadh:20260922T200000") && text.contains("DTEND;TZID=Asia/Riyadh:20260922T213000"))
        #expect(text.contains("BEGIN:VTIMEZONE") && text.contains("STATUS:CONFIRMED") && text.contains("URL:https://jadwal.example/api/v1/chats/"))
        let event = try Self.event(text)
        #expect(event.title == "Dinner" && event.location == "Nando's" && event.uid == "chat-1@jadwal")
        let note = try #require(event.description)
        #expect(note.contains("Managed by Jadwal") && note.contains("Sara") && note.contains("/api/v1/chats/\(Self.conversation.uuidString.lowercased())"))
        _ = try CalendarObjectContent(text: text)

        let ranged = ExtractedEvent(start: Self.local(22, 17), end: Self.local(22, 19))
        let rangedText = try #require(Self.document.created(uid: "chat-2@jadwal", plan: ranged, partner: "Sara", conversationID: Self.conversation, link: "/api/v1/chats/x"))
        #expect(rangedText.contains("DTEND;TZID=Asia/Riyadh:20260922T190000") && rangedText.contains("SUMMARY:Plan with Sara"))
        #expect(!rangedText.contains("URL:"), "a relative link is no URI for the URL property")
    }

    @Test("all-day plans are dates; the inclusive last day becomes the exclusive DTEND")
    func allDay() throws {
        let one = ExtractedEvent(title: "Camping", start: Self.local(25, 0), allDay: true)
        let text = try #require(Self.document.created(uid: "u@jadwal", plan: one, partner: "Sara", conversationID: Self.conversation, link: ""))
        #expect(text.contains("DTSTART;VALUE=DATE:20260925") && !text.contains("DTEND"))
        let three = ExtractedEvent(title: "Trip", start: Self.local(25, 0), end: Self.local(27, 0), allDay: true)
        let trip = try #require(Self.document.created(uid: "v@jadwal", plan: three, partner: "Sara", conversationID: Self.conversation, link: ""))
        #expect(trip.contains("DTEND;VALUE=DATE:20260928"))
        let arabic = ChatEventDocument(timeZone: "Asia/Riyadh", language: .arabic, now: Self.now, eventMinutes: 60)
        let untitled = try #require(arabic.created(uid: "w@jadwal", plan: ExtractedEvent(start: Self.local(25, 0), allDay: true), partner: "سارة",
                                                   conversationID: Self.conversation, link: ""))
        #expect(try Self.event(untitled).title == "موعد مع سارة")
        #expect(try Self.event(untitled).description?.contains("Managed by Jadwal") == true)
    }

    @Test("moved and cancelled versions keep what the person edited on their phone")
    func laterVersions() throws {
        let plan = ExtractedEvent(title: "Dinner", start: Self.local(22, 20), location: "Nando's")
        let original = try #require(Self.document.created(uid: "chat-1@jadwal", plan: plan, partner: "Sara", conversationID: Self.conversation, link: ""))
        let edited = original.replacingOccurrences(of: "SUMMARY:Dinner", with: "SUMMARY:Dinner with Sara (bring gift)")
        let moved = try #require(Self.document.moved(edited, from: ChatPlan(plan), to: ExtractedEvent(title: "Supper", start: Self.local(23, 21)), partner: "Sara"))
        let event = try Self.event(moved)
        #expect(event.title == "Dinner with Sara (bring gift)" && event.sequence == 1 && event.location == "Nando's")
        #expect(moved.contains("DTSTART;TZID=Asia/Riyadh:20260923T210000"))
        let renamed = try Self.event(try #require(Self.document.moved(original, from: ChatPlan(plan), to: ExtractedEvent(title: "Supper", start: Self.local(23, 21)), partner: "Sara")))
        #expect(renamed.title == "Supper", "a title the person left as the chat had it follows the chat")

        let cancelled = try #require(Self.document.cancelled(moved))
        #expect(try Self.event(cancelled).status == .cancelled && (try Self.event(cancelled)).sequence == 2)
        #expect(Self.document.cancelled(cancelled) == cancelled, "cancelling twice changes nothing")
    }

    @Test("a plan with no stated end: the kind's length, else the person's default; prayer-anchored gatherings; across midnight")
    func lengths() throws {
        func end(_ plan: ExtractedEvent, minutes: Int = 60, language: Language = .english) throws -> String {
            let document = ChatEventDocument(timeZone: "Asia/Riyadh", language: language, now: Self.now, eventMinutes: minutes)
            let text = try #require(document.created(uid: "u@jadwal", plan: plan, partner: "Sara", conversationID: Self.conversation, link: ""))
            let line = try #require(text.split(separator: "\r\n").first { $0.hasPrefix("DTEND") })
            return String(line)
        }
        #expect(try end(ExtractedEvent(title: "Quick call", start: Self.local(22, 20))) == "DTEND;TZID=Asia/Riyadh:20260922T203000")
        #expect(try end(ExtractedEvent(title: "Coffee at Brew92", start: Self.local(22, 20))) == "DTEND;TZID=Asia/Riyadh:20260922T204500")
        #expect(try end(ExtractedEvent(title: "Padel", start: Self.local(22, 20))) == "DTEND;TZID=Asia/Riyadh:20260922T213000")
        #expect(try end(ExtractedEvent(title: "Dinner and a movie", start: Self.local(22, 20))) == "DTEND;TZID=Asia/Riyadh:20260922T223000",
                "the longest kind named wins")
        // Arabic titles, with the article, attached و/ب, diacritics and ة/ه spelt either way.
        #expect(try end(ExtractedEvent(title: "العَشاء", start: Self.local(22, 20)), language: .arabic) == "DTEND;TZID=Asia/Riyadh:20260922T213000")
        #expect(try end(ExtractedEvent(title: "كشتة البر", start: Self.local(22, 8)), language: .arabic) == "DTEND;TZID=Asia/Riyadh:20260922T120000")
        #expect(try end(ExtractedEvent(title: "مكالمة", start: Self.local(22, 8)), language: .arabic) == "DTEND;TZID=Asia/Riyadh:20260922T083000")
        #expect(try end(ExtractedEvent(title: "3asha", start: Self.local(22, 8))) == "DTEND;TZID=Asia/Riyadh:20260922T093000")
        // No kind named: the person's default; a prayer-anchored plan is a gathering.
        #expect(try end(ExtractedEvent(title: "Catch up with Sara", start: Self.local(22, 20)), minutes: 45) == "DTEND;TZID=Asia/Riyadh:20260922T204500")
        #expect(try end(ExtractedEvent(start: Self.local(22, 20)), minutes: 75) == "DTEND;TZID=Asia/Riyadh:20260922T211500")
        #expect(try end(ExtractedEvent(start: Self.local(22, 19, 4), startRelativeTo: .isha)) == "DTEND;TZID=Asia/Riyadh:20260922T210400")
        // Late plans end on the next day.
        #expect(try end(ExtractedEvent(title: "Shisha", start: Self.local(22, 23, 30))) == "DTEND;TZID=Asia/Riyadh:20260923T013000")
        // A stated end is kept as stated.
        #expect(try end(ExtractedEvent(title: "Dinner", start: Self.local(22, 20), end: Self.local(22, 20, 30))) == "DTEND;TZID=Asia/Riyadh:20260922T203000")
    }

    @Test("a chat moving an event keeps the length the person gave it; a stated end replaces it")
    func movedLength() throws {
        let plan = ExtractedEvent(title: "Dinner", start: Self.local(22, 20))
        let original = try #require(Self.document.created(uid: "chat-1@jadwal", plan: plan, partner: "Sara", conversationID: Self.conversation, link: ""))
        let lengthened = original.replacingOccurrences(of: "DTEND;TZID=Asia/Riyadh:20260922T213000", with: "DTEND;TZID=Asia/Riyadh:20260922T230000")
        #expect(lengthened != original)
        let moved = try #require(Self.document.moved(lengthened, from: ChatPlan(plan), to: ExtractedEvent(title: "Dinner", start: Self.local(23, 19)), partner: "Sara"))
        #expect(moved.contains("DTSTART;TZID=Asia/Riyadh:20260923T190000") && moved.contains("DTEND;TZID=Asia/Riyadh:20260923T220000"), "\(moved)")
        let stated = try #require(Self.document.moved(lengthened, from: ChatPlan(plan), to: ExtractedEvent(title: "Dinner", start: Self.local(23, 19), end: Self.local(23, 20)), partner: "Sara"))
        #expect(stated.contains("DTEND;TZID=Asia/Riyadh:20260923T200000"))
    }

    @Test("prayer times for the extractor come from the account's prayer settings, on the conversation's clock")
    func prayerTimetable() throws {
        let riyadh = TimeZone(identifier: "Asia/Riyadh")!
        let day = Self.local(22, 0)
        #expect(AccountPrayerTimetable(settings: nil, conversationZone: riyadh).adhan(.isha, on: day) == nil)
        let settings = PrayerSettings(latitude: 24.6877, longitude: 46.7219, timeZone: "Asia/Riyadh", method: .ummAlQura)
        let timetable = AccountPrayerTimetable(settings: settings, conversationZone: riyadh)
        let isha = try #require(timetable.adhan(.isha, on: day))
        let maghrib = try #require(timetable.adhan(.maghrib, on: day))
        // Umm al-Qura: Isha is 90 minutes after Maghrib outside Ramadan.
        #expect((isha.hour * 60 + isha.minute) - (maghrib.hour * 60 + maghrib.minute) == 90)
        #expect((17...18).contains(maghrib.hour))
        let london = AccountPrayerTimetable(settings: settings, conversationZone: TimeZone(identifier: "Europe/London")!)
        #expect(try #require(london.adhan(.maghrib, on: day)).hour == maghrib.hour - 2, "the same instant on a London clock")
        #expect(timetable.isRamadan(Conversations.LocalDateTime(year: 2026, month: 3, day: 1)!))
        #expect(!timetable.isRamadan(day))
    }
}
