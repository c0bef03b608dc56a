import DAV
import Foundation
import ICalendar
import JadwalCore
import JadwalHTTP
import Synchronization

/// What is derived from calendar objects' texts, by ETag. Queries read the same objects again and
/// again (every sync client asks for the coming week), and parsing is most of a query's cost. The
/// ETag is a hash of the bytes, so an entry can never be stale.
///
/// Both tables are bounded in bytes of the objects' text and emptied when full. Entries (where
/// the events happen, responses asked for again: a few times the text) are kept up to
/// `entryBytes`. Parsed calendars are about ten times their text, and once an entry's instances
/// are indexed nearly nothing asks for them again, so only the most recently parsed are kept, up
/// to `parsedBytes`: keeping every one was most of the server's memory (about 100 MB for a
/// 20,000-event calendar).
package final class ParsedCalendarCache: Sendable {
    private struct Table<Value> {
        var values: [String: Value] = [:]
        var bytes = 0
    }

    private let entryBytes: Int
    private let parsedBytes: Int
    private let entries = Mutex(Table<ParsedCalendarObject>())
    private let parsed = Mutex(Table<Component?>())

    package init(entryBytes: Int, parsedBytes: Int) {
        self.entryBytes = entryBytes
        self.parsedBytes = parsedBytes
    }

    /// The server's: 24 MB of entries and 1 MB of parsed calendars. One is made where the server
    /// is assembled and handed to everything that parses stored objects.
    package convenience init() {
        self.init(entryBytes: 24 << 20, parsedBytes: 1 << 20)
    }

    /// The parsed object, or nil when the stored text no longer parses.
    package func calendar(for object: CalendarObject) -> Component? {
        entry(for: object).calendar
    }

    /// The object's entry, made (unparsed) on first use: what is derived from the text is
    /// computed when first asked for.
    package func entry(for object: CalendarObject) -> ParsedCalendarObject {
        entries.withLock { table in
            if let hit = table.values[object.etag] { return hit }
            let size = object.icalendar.utf8.count
            let entry = ParsedCalendarObject(text: object.icalendar, etag: object.etag, cache: self)
            guard size <= entryBytes else { return entry }
            if table.bytes + size > entryBytes { table = Table() }
            table.values[object.etag] = entry
            table.bytes += size
            return entry
        }
    }

    /// `text` parsed, from the table of recently parsed calendars or parsed now and kept there.
    func parsedCalendar(etag: String, text: String) -> Component? {
        if let hit = parsed.withLock({ $0.values[etag] }) { return hit }
        let calendar = try? ICalendarParser().parseCalendar(text)
        let size = text.utf8.count
        guard size <= parsedBytes else { return calendar }
        parsed.withLock { table in
            if table.bytes + size > parsedBytes { table = Table() }
            if table.values.updateValue(calendar, forKey: etag) == nil { table.bytes += size }
        }
        return calendar
    }

    /// Bytes of text behind the entries and the parsed calendars held now (for tests and figures).
    package var heldBytes: (entries: Int, parsed: Int) {
        (entries.withLock { $0.bytes }, parsed.withLock { $0.bytes })
    }
}

/// What the server derives from one version of a calendar object's text, each part made once:
/// the parsed calendar, where its events happen (`EventInstanceIndex`, per floating zone), and
/// the multistatus responses clients ask for again.
package final class ParsedCalendarObject: Sendable {
    private struct Derived {
        /// One per floating zone asked for (nearly always one: the calendar's), with the day
        /// (seconds since 1970) it was built on; a list, as comparing a zone name or two costs
        /// less than hashing it on every query.
        package var events: [(zone: String, index: EventInstanceIndex, day: Int64)] = []
        /// Written responses, a handful: one per way clients ask for the object again.
        package var responses: [KeptResponse] = []
        /// The last two places and shapes asked for without a kept response (`ResponsePlace`'s
        /// hash, 0 for none): inline, so that noting them allocates nothing.
        package var asked: (Int, Int) = (0, 0)
    }

    /// A written response and where and how it was asked for.
    private struct KeptResponse {
        package var place: ResponsePlace
        package var response: Multistatus.Response
    }

    /// The object's text and ETag; the mirror keeps these copies rather than the ones its row brought.
    package let text: String
    package let etag: String
    private let cache: ParsedCalendarCache
    private let derived = Mutex(Derived())

    package init(text: String, etag: String, cache: ParsedCalendarCache) {
        self.text = text
        self.etag = etag
        self.cache = cache
    }

    /// The parsed calendar; nil when the stored text no longer parses (it was validated on the way
    /// in, so only a parser change could do that, and such an object then matches no query).
    /// Kept by the cache only while it is among the most recently parsed.
    package var calendar: Component? {
        cache.parsedCalendar(etag: etag, text: text)
    }

    /// The whole text as `calendar-data`, escaped (a response kept for a second ask holds it
    /// written; nothing else needs it twice).
    package var calendarData: EscapedText {
        EscapedText(text)
    }

    /// The events' instances from two years before `now` to two years after, floating times read
    /// in `floatingZone` (a zone known by its identifier: rules a query brings along may differ).
    /// Built once per zone and again after a month, so the window moves with time; a query
    /// reaching outside it is evaluated in full instead (`EventInstanceIndex.overlaps` is nil).
    package func events(floatingZone: ZoneRules, now: Date) -> EventInstanceIndex? {
        let today = Int64(now.timeIntervalSince1970.rounded(.down)) / 86_400 * 86_400
        let zone = floatingZone.identifier
        let found = derived.withLock { derived in
            derived.events.first { $0.zone == zone && today - $0.day <= 30 * 86_400 }?.index
        }
        if let found { return found }
        guard let calendar else { return nil }
        let twoYears: Int64 = 731 * 86_400
        let index = EventInstanceIndex(calendar: calendar, floatingZone: floatingZone, window: (today - twoYears)...(today + twoYears))
        derived.withLock { derived in
            derived.events.removeAll { $0.zone == zone }
            derived.events.append((zone, index, today))
        }
        return index
    }

    /// Where and how a response is asked for: the properties asked for (`ObjectResponses`' shape),
    /// the object's calendar's href and its name.
    package struct ResponsePlace: Hashable {
        package var shape: String
        package var calendarHref: String
        package var name: String
    }

    /// What is kept for a response asked for at `place`.
    package enum KeptAnswer {
        case kept(Multistatus.Response)
        /// Asked for before and not kept: keep the one written now.
        case askedAgain
        /// Not asked for lately: a response asked for once (a sync from scratch, a phone's first
        /// fetch of every object) is written and let go, not held for each of thousands.
        case firstAsk
    }

    /// The response kept for `place`, or whether it was asked for before; notes the ask.
    package func response(at place: ResponsePlace) -> KeptAnswer {
        derived.withLock { derived in
            if let kept = derived.responses.first(where: { $0.place == place }) {
                return .kept(kept.response)
            }
            let mark = place.hashValue | 1
            if derived.asked.0 == mark || derived.asked.1 == mark { return .askedAgain }
            derived.asked = (mark, derived.asked.0)
            return .firstAsk
        }
    }

    /// Keeps `response` for `place`; at most four are kept, the oldest leaving first.
    package func keep(_ response: Multistatus.Response, at place: ResponsePlace) {
        derived.withLock { derived in
            if derived.responses.count >= 4 { derived.responses.removeFirst() }
            derived.responses.append(KeptResponse(place: place, response: response))
        }
    }
}
