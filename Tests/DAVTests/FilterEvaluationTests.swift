import Foundation
import Synchronization
import Testing
@testable import DAV

// A minimal component tree for the evaluator; the server conforms ICalendar's model instead.
struct TestProperty: FilterableProperty {
    var name: String
    var value: String
    var parameters: [String: [String]] = [:]

    var filterText: String { value }
    func filterParameterValues(named name: String) -> [String]? { parameters[name] }
}

struct TestComponent: FilterableComponent {
    var name: String
    var properties: [TestProperty] = []
    var components: [TestComponent] = []

    var filterName: String { name }
    func filterSubcomponents(named name: String) -> [TestComponent] { components.filter { $0.name == name } }
    func filterProperties(named name: String) -> [TestProperty] { properties.filter { $0.name == name } }

    func value(_ property: String) -> String? { properties.first { $0.name == property }?.value }
}

/// Time-range test for non-recurring components with UTC DTSTART/DTEND and absolute alarm
/// triggers only: enough to check *where* the evaluator applies time ranges. It records the
/// ancestor paths it is given so tests can check the seam's contract.
final class RecordingMatcher: TimeRangeMatching, Sendable {
    let calls = Mutex<[[String]]>([])

    func component(_ component: TestComponent, ancestors: [TestComponent], overlaps range: TimeRange) -> Bool {
        calls.withLock { $0.append(ancestors.map(\.name) + [component.name]) }
        if component.name == "VALARM" {
            guard let trigger = component.value("TRIGGER").flatMap(UTCDateTime.parse) else { return false }
            return range.contains(trigger)
        }
        guard let start = component.value("DTSTART").flatMap(UTCDateTime.parse) else { return false }
        let end = component.value("DTEND").flatMap(UTCDateTime.parse) ?? start
        return range.overlaps(start: start, end: end)
    }

    func property(_ property: TestProperty, of component: TestComponent, ancestors: [TestComponent], overlaps range: TimeRange) -> Bool {
        guard let instant = UTCDateTime.parse(property.value) else { return false }
        return range.contains(instant)
    }
}

@Suite("Filter evaluation")
struct FilterEvaluationTests {
    static func calendar(_ components: TestComponent...) -> TestComponent {
        TestComponent(name: "VCALENDAR", properties: [TestProperty(name: "VERSION", value: "2.0")], components: components)
    }

    static let meeting = TestComponent(name: "VEVENT", properties: [
        TestProperty(name: "UID", value: "DC6C50A017428C5216A2F1CD@example.com"),
        TestProperty(name: "SUMMARY", value: "Weekly Déjeuner"),
        TestProperty(name: "DTSTART", value: "20060104T140000Z"),
        TestProperty(name: "DTEND", value: "20060104T150000Z"),
        TestProperty(name: "ATTENDEE", value: "mailto:cyrus@example.com", parameters: ["PARTSTAT": ["ACCEPTED"]]),
        TestProperty(name: "ATTENDEE", value: "mailto:lisa@example.com", parameters: ["PARTSTAT": ["NEEDS-ACTION"], "ROLE": ["REQ-PARTICIPANT"]]),
    ], components: [
        TestComponent(name: "VALARM", properties: [TestProperty(name: "TRIGGER", value: "20060104T134500Z")]),
    ])

    static let openTodo = TestComponent(name: "VTODO", properties: [
        TestProperty(name: "UID", value: "todo-1"), TestProperty(name: "STATUS", value: "NEEDS-ACTION"),
    ])
    static let cancelledTodo = TestComponent(name: "VTODO", properties: [
        TestProperty(name: "UID", value: "todo-2"), TestProperty(name: "STATUS", value: "CANCELLED"),
    ])
    static let doneTodo = TestComponent(name: "VTODO", properties: [
        TestProperty(name: "UID", value: "todo-3"), TestProperty(name: "COMPLETED", value: "20060105T100000Z"),
    ])

    func matches(_ xml: String, _ object: TestComponent, matcher: RecordingMatcher = RecordingMatcher()) throws -> Bool {
        guard case .calendarQuery(let query) = try report(xml) else { throw DAVError.unexpected("not a query") }
        return CalendarFilterEvaluator(timeRanges: matcher).matches(query.filter, object: object)
    }

    static func filter(_ inner: String) -> String {
        #"<C:calendar-query xmlns:C="urn:ietf:params:xml:ns:caldav"><C:filter><C:comp-filter name="VCALENDAR">"# + inner + "</C:comp-filter></C:filter></C:calendar-query>"
    }

    @Test("component presence and is-not-defined")
    func componentPresence() throws {
        let events = Self.filter(#"<C:comp-filter name="VEVENT"/>"#)
        #expect(try matches(events, Self.calendar(Self.meeting)))
        #expect(try !matches(events, Self.calendar(Self.openTodo)))
        let noTodos = Self.filter(#"<C:comp-filter name="VTODO"><C:is-not-defined/></C:comp-filter>"#)
        #expect(try matches(noTodos, Self.calendar(Self.meeting)))
        #expect(try !matches(noTodos, Self.calendar(Self.meeting, Self.openTodo)))
        // A filter for VCALENDAR does not match some other root.
        #expect(try !matches(Self.filter(""), TestComponent(name: "VCARD")))
    }

    @Test("RFC 4791 §7.8.9: open to-dos are neither completed nor cancelled")
    func openTodos() throws {
        let xml = Self.filter(#"<C:comp-filter name="VTODO"><C:prop-filter name="COMPLETED"><C:is-not-defined/></C:prop-filter><C:prop-filter name="STATUS"><C:text-match negate-condition="yes">CANCELLED</C:text-match></C:prop-filter></C:comp-filter>"#)
        #expect(try matches(xml, Self.calendar(Self.openTodo)))
        #expect(try !matches(xml, Self.calendar(Self.cancelledTodo)))
        #expect(try !matches(xml, Self.calendar(Self.doneTodo)))
        // A prop-filter needs the property to exist, so a to-do with no STATUS fails the negated test.
        let noStatus = TestComponent(name: "VTODO", properties: [TestProperty(name: "UID", value: "x")])
        #expect(try !matches(xml, Self.calendar(noStatus)))
    }

    @Test("RFC 4791 §7.8.7: the same ATTENDEE instance must pass text-match and param-filter")
    func attendeePartstat() throws {
        let lisaNeedsAction = Self.filter(#"<C:comp-filter name="VEVENT"><C:prop-filter name="ATTENDEE"><C:text-match collation="i;ascii-casemap">mailto:LISA@example.com</C:text-match><C:param-filter name="PARTSTAT"><C:text-match collation="i;ascii-casemap">needs-action</C:text-match></C:param-filter></C:prop-filter></C:comp-filter>"#)
        #expect(try matches(lisaNeedsAction, Self.calendar(Self.meeting)))
        let cyrusNeedsAction = lisaNeedsAction.replacingOccurrences(of: "LISA", with: "cyrus")
        #expect(try !matches(cyrusNeedsAction, Self.calendar(Self.meeting)))
        let noRole = Self.filter(#"<C:comp-filter name="VEVENT"><C:prop-filter name="ATTENDEE"><C:param-filter name="ROLE"><C:is-not-defined/></C:param-filter></C:prop-filter></C:comp-filter>"#)
        #expect(try matches(noRole, Self.calendar(Self.meeting)))  // Cyrus has no ROLE
        let onlyLisa = TestComponent(name: "VEVENT", properties: [Self.meeting.properties[5]])
        #expect(try !matches(noRole, Self.calendar(onlyLisa)))
    }

    @Test("UID with i;octet is exact")
    func uidOctet() throws {
        let xml = Self.filter(#"<C:comp-filter name="VEVENT"><C:prop-filter name="UID"><C:text-match collation="i;octet" match-type="equals">DC6C50A017428C5216A2F1CD@example.com</C:text-match></C:prop-filter></C:comp-filter>"#)
        #expect(try matches(xml, Self.calendar(Self.meeting)))
        #expect(try !matches(xml.replacingOccurrences(of: "DC6C", with: "dc6c"), Self.calendar(Self.meeting)))
    }

    @Test("time ranges go to the matcher with the ancestor path; alarms see their event")
    func timeRangeSeam() throws {
        let matcher = RecordingMatcher()
        let alarm = Self.filter(#"<C:comp-filter name="VEVENT"><C:comp-filter name="VALARM"><C:time-range start="20060104T130000Z" end="20060104T140000Z"/></C:comp-filter></C:comp-filter>"#)
        #expect(try matches(alarm, Self.calendar(Self.meeting), matcher: matcher))
        #expect(matcher.calls.withLock { $0 } == [["VCALENDAR", "VEVENT", "VALARM"]])
        let later = alarm.replacingOccurrences(of: "20060104T130000Z", with: "20060104T135000Z")
        #expect(try !matches(later, Self.calendar(Self.meeting)))

        let week = Self.filter(#"<C:comp-filter name="VEVENT"><C:time-range start="20060102T000000Z" end="20060109T000000Z"/></C:comp-filter>"#)
        #expect(try matches(week, Self.calendar(Self.meeting)))
        let nextWeek = week.replacingOccurrences(of: "20060102", with: "20060109").replacingOccurrences(of: "20060109T000000Z\"/>", with: "20060116T000000Z\"/>")
        #expect(try !matches(nextWeek, Self.calendar(Self.meeting)))

        let completedThatDay = Self.filter(#"<C:comp-filter name="VTODO"><C:prop-filter name="COMPLETED"><C:time-range start="20060105T000000Z" end="20060106T000000Z"/></C:prop-filter></C:comp-filter>"#)
        #expect(try matches(completedThatDay, Self.calendar(Self.openTodo, Self.doneTodo)))
        #expect(try !matches(completedThatDay, Self.calendar(Self.openTodo)))
    }

    @Test("a negated parameter text-match means no value of the parameter matches")
    func negatedMultiValueParameter() {
        let property = TestProperty(name: "ATTENDEE", value: "mailto:a@example.com", parameters: ["MEMBER": ["mailto:x@example.com", "mailto:team@example.com"]])
        let notTeam = ParamFilter(name: "MEMBER", textMatch: TextMatch(text: "team@", negated: true))
        #expect(!CalendarFilterEvaluator<RecordingMatcher>.matches(notTeam, property))
        let notOther = ParamFilter(name: "MEMBER", textMatch: TextMatch(text: "other@", negated: true))
        #expect(CalendarFilterEvaluator<RecordingMatcher>.matches(notOther, property))
    }
}

@Suite("Collations and text-match")
struct CollationTests {
    @Test("i;ascii-casemap folds only ASCII letters")
    func asciiCasemap() {
        let c = Collation.asciiCasemap
        #expect(c.matches("Weekly Meeting", "weekly MEETING", matchType: .equals))
        #expect(c.matches("Weekly Déjeuner", "DÉJEUNER") == false)  // É is not ASCII
        #expect(c.matches("Weekly Déjeuner", "déJEUNER"))
        #expect(c.key("aZ[é]") == Array("AZ[é]".utf8))
    }

    @Test("i;octet compares bytes exactly")
    func octet() {
        #expect(Collation.octet.matches("Lunch", "Lunch", matchType: .equals))
        #expect(!Collation.octet.matches("Lunch", "lunch", matchType: .equals))
        // Precomposed é and e + combining acute differ as octets.
        #expect(!Collation.octet.matches("caf\u{E9}", "cafe\u{301}", matchType: .equals))
    }

    @Test("i;unicode-casemap: titlecase then NFKD (RFC 5051)")
    func unicodeCasemap() {
        let c = Collation.unicodeCasemap
        #expect(c.matches("Weekly Déjeuner", "DÉJEUNER"))
        #expect(c.matches("caf\u{E9}", "CAFE\u{301}", matchType: .equals))
        #expect(c.matches("ΟΔΟΣ", "οδος", matchType: .equals))  // σ and final ς both title-case to Σ
        #expect(c.matches("\u{FF41}\u{FF42}\u{FF43}", "ABC", matchType: .equals))  // full-width ａ → Ａ → A
        #expect(c.matches("Room \u{2460}", "room 1", matchType: .equals))  // ① decomposes to 1
        // Ligatures decompose to lower case; the second titlecase pass makes them fold too.
        #expect(c.matches("\u{FB01}le", "FILE", matchType: .equals))
        #expect(c.matches("اجتماع الفريق", "الفريق"))  // Arabic has no case; substring still works
        #expect(c.matches("ǆungla", "ǅUNGLA", matchType: .equals))  // dž, Dž titlecase together
        // ß's simple titlecase is itself: RFC 5051 does not equate it with "SS".
        #expect(!c.matches("Straße", "STRASSE", matchType: .equals))
    }

    @Test("match types", arguments: [
        (MatchType.equals, "lunch", true), (.equals, "lunch with", false),
        (.contains, "with", true), (.contains, "dinner", false),
        (.startsWith, "LUNCH", true), (.startsWith, "sara", false),
        (.endsWith, "sara", true), (.endsWith, "lunch", false),
    ])
    func matchTypes(type: MatchType, pattern: String, expected: Bool) {
        let value = type == .equals && expected ? "Lunch" : "Lunch with Sara"
        #expect(Collation.asciiCasemap.matches(value, pattern, matchType: type) == expected)
    }

    @Test("text-match parsing: defaults, negation and match-type")
    func textMatchElement() throws {
        let plain = try TextMatch(element: DAVElement(.textMatch, text: " Lunch "))
        #expect(plain == TextMatch(text: " Lunch ", collation: .asciiCasemap, matchType: .contains, negated: false))
        let negated = try TextMatch(element: DAVElement(.textMatch, attributes: [
            QualifiedName("", "negate-condition"): "yes", QualifiedName("", "match-type"): "starts-with",
            QualifiedName("", "collation"): "i;unicode-casemap",
        ], text: "é"))
        #expect(negated.matches("Ébauche") == false)
        #expect(negated.matches("Une ébauche") == true)
        let badType = capture { try TextMatch(element: DAVElement(.textMatch, attributes: [QualifiedName("", "match-type"): "regex"], text: "x")) }
        #expect(badType?.condition == .validFilter)
    }
}

@Suite("UTC date-times and ranges")
struct TimeRangeTests {
    @Test("UTC date-times parse and format back", arguments: [
        "19700101T000000Z", "20060104T140000Z", "20240229T235959Z", "19000101T000000Z", "99991231T235959Z",
    ])
    func roundTrip(text: String) throws {
        let parsed = try #require(UTCDateTime.parse(text))
        #expect(UTCDateTime.format(parsed) == text)
    }

    @Test("known instants")
    func instants() {
        #expect(UTCDateTime.parse("19700101T000000Z")?.timeIntervalSince1970 == 0)
        #expect(UTCDateTime.parse("20060104T140000Z")?.timeIntervalSince1970 == 1_136_383_200)
        #expect(UTCDateTime.parse("19691231T235959Z")?.timeIntervalSince1970 == -1)
    }

    @Test("malformed values are rejected", arguments: [
        "", "20060104", "20060104T140000", "2006-01-04T14:00:00Z", "20060104T140000z", "20061304T140000Z",
        "20230229T000000Z", "20060104T240000Z", "20060104T146000Z", "2006010AT140000Z", "20060104T140000Z ",
    ])
    func rejected(text: String) {
        #expect(UTCDateTime.parse(text) == nil)
    }

    @Test("overlap follows RFC 4791 §9.9: half-open, zero-length spans at the start count")
    func overlap() throws {
        let start = try #require(UTCDateTime.parse("20060104T000000Z"))
        let end = try #require(UTCDateTime.parse("20060105T000000Z"))
        let range = TimeRange(start: start, end: end)
        let hour: TimeInterval = 3600
        #expect(range.overlaps(start: start - hour, end: start + hour))
        #expect(!range.overlaps(start: start - hour, end: start))  // ends exactly at range start
        #expect(!range.overlaps(start: end, end: end + hour))  // starts exactly at range end
        #expect(range.overlaps(start: start, end: start))  // zero-length at start
        #expect(!range.overlaps(start: end, end: end))
        #expect(TimeRange(start: nil, end: end).overlaps(start: .distantPast, end: start))
        #expect(TimeRange(start: start, end: nil).contains(.distantFuture))
    }
}
