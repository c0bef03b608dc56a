import Foundation
import JadwalCore
import Testing

@Suite("Sync tokens and change sets")
struct SyncTokenTests {
    @Test("tokens round-trip; foreign or damaged tokens are not ours")
    func tokens() {
        let id = UUID()
        let token = SyncToken(calendarID: id, revision: 42)
        #expect(SyncToken(token.description) == token)
        #expect(token.description.hasPrefix("https://"))
        for bad in ["", "http://example.com/sync/1", SyncToken.prefix + "not-a-uuid/1", SyncToken.prefix + "\(id.uuidString)/-1",
                    SyncToken.prefix + "\(id.uuidString)/x", SyncToken.prefix + "\(id.uuidString)"] {
            #expect(SyncToken(bad) == nil, "\(bad)")
        }
    }

    @Test("a change set keeps each resource once, in its latest state")
    func changeSet() {
        let changes = [
            CalendarChange(name: "a.ics", kind: .written, revision: 5),
            CalendarChange(name: "b.ics", kind: .written, revision: 6),
            CalendarChange(name: "a.ics", kind: .deleted, revision: 7),
            CalendarChange(name: "c.ics", kind: .deleted, revision: 8),
            CalendarChange(name: "c.ics", kind: .written, revision: 9),
        ]
        let set = ChangeSet(changes: changes, currentRevision: 9)
        #expect(set.written == ["b.ics", "c.ics"])
        #expect(set.deleted == ["a.ics"])
        #expect(set.revision == 9)
    }
}

@Suite("Calendar slugs")
struct CalendarSlugTests {
    @Test("slugs from display names", arguments: [
        ("Family Trips", "family-trips"), ("  Work / Projects 2026 ", "work-projects-2026"), ("Ümlaut café", "mlaut-caf"),
    ])
    func slugs(name: String, slug: String) {
        #expect(CalendarSlug.make(from: name, random: .system) == slug)
        #expect(CalendarSlug.isValid(slug))
    }

    @Test("names without ASCII letters get a valid random slug")
    func arabicNames() {
        let slug = CalendarSlug.make(from: "العائلة", random: .system)
        #expect(CalendarSlug.isValid(slug) && slug != CalendarSlug.make(from: "العائلة", random: .system))
        #expect(!CalendarSlug.isValid("") && !CalendarSlug.isValid(String(repeating: "a", count: 129)))
        #expect(!CalendarSlug.isValid(".hidden") && !CalendarSlug.isValid("a/b") && !CalendarSlug.isValid("a b"))
        #expect(!CalendarSlug.isValid(CalendarSlug.prayerTimes), "reserved for the prayer calendar")
        #expect(CalendarSlug.isValid("6C0A37E2-5B1F-4E3A-9F5B-1D2C3B4A5E6F"), "iOS names its MKCALENDARs with upper-case UUIDs")
    }
}
