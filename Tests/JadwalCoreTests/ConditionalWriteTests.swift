import JadwalCore
import Testing

@Suite("If-Match as RFC 9110 reads it")
struct ConditionalWriteTests {
    @Test("a list of strong ETags, or *, against the current ETag")
    func ifMatch() {
        let current = #""abc""#
        #expect(CalendarWrites.ifMatch(#""abc""#, holdsFor: current))
        #expect(CalendarWrites.ifMatch(#""x", "abc""#, holdsFor: current))
        #expect(CalendarWrites.ifMatch("*", holdsFor: current))
        #expect(!CalendarWrites.ifMatch("*", holdsFor: nil), "* needs the resource to exist")
        #expect(!CalendarWrites.ifMatch(#"W/"abc""#, holdsFor: current), "weak tags never match a strong comparison")
        #expect(!CalendarWrites.ifMatch(#""x", "y""#, holdsFor: current))
        #expect(!CalendarWrites.ifMatch(#""abc""#, holdsFor: nil))
    }
}
