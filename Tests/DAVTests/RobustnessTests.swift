import Foundation
import Testing
@testable import DAV

@Suite("Robustness: damaged bodies give 4xx DAVErrors, never a crash")
struct RobustnessTests {
    static let bodies: [String] = [
        RequestTests.iOSPrincipalPropfind,
        #"<?xml version="1.0" encoding="utf-8" ?><C:calendar-query xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:prop><D:getetag/><C:calendar-data><C:comp name="VCALENDAR"><C:prop name="VERSION"/><C:comp name="VEVENT"><C:allprop/></C:comp></C:comp><C:expand start="20060103T000000Z" end="20060105T000000Z"/></C:calendar-data></D:prop><C:filter><C:comp-filter name="VCALENDAR"><C:comp-filter name="VTODO"><C:prop-filter name="STATUS"><C:text-match negate-condition="yes" collation="i;unicode-casemap">CANCELLED</C:text-match><C:param-filter name="X"><C:is-not-defined/></C:param-filter></C:prop-filter><C:comp-filter name="VALARM"><C:time-range start="20060106T100000Z" end="20060107T100000Z"/></C:comp-filter></C:comp-filter></C:comp-filter></C:filter></C:calendar-query>"#,
        #"<D:sync-collection xmlns:D="DAV:"><D:sync-token>http://x/sync/1</D:sync-token><D:sync-level>1</D:sync-level><D:limit><D:nresults>5</D:nresults></D:limit><D:prop><D:getetag/></D:prop></D:sync-collection>"#,
        #"<C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:set><D:prop><D:displayname>A &amp; B</D:displayname><C:supported-calendar-component-set><C:comp name="VEVENT"/></C:supported-calendar-component-set></D:prop></D:set></C:mkcalendar>"#,
    ]

    /// Every request parser on the same bytes: each must succeed or throw a 4xx DAVError.
    static func parseEverything(_ data: Data) -> [Result<Void, Error>] {
        [
            Result { _ = try PropfindRequest(body: data) },
            Result { _ = try ProppatchRequest(body: data) },
            Result { _ = try CollectionCreationRequest(method: .mkcalendar, body: data) },
            Result { _ = try CollectionCreationRequest(method: .mkcol, body: data) },
            Result { _ = try Report(body: data) },
        ]
    }

    @Test("every truncation and every single-byte corruption of real bodies")
    func damagedBodies() {
        var checked = 0
        for body in Self.bodies {
            let bytes = Array(body.utf8)
            var variants: [Data] = []
            for length in stride(from: 0, to: bytes.count, by: 3) { variants.append(Data(bytes[..<length])) }
            for index in stride(from: 0, to: bytes.count, by: 5) {
                for replacement: UInt8 in [0x3C, 0x3E, 0x22, 0x26, 0x2F, 0x80, 0x00] {
                    var damaged = bytes
                    damaged[index] = replacement
                    variants.append(Data(damaged))
                }
            }
            for data in variants {
                for result in Self.parseEverything(data) {
                    checked += 1
                    guard case .failure(let error) = result else { continue }
                    guard let davError = error as? DAVError else {
                        Issue.record("non-DAV error \(error) for \(String(decoding: data, as: UTF8.self))")
                        continue
                    }
                    #expect((400..<500).contains(davError.status), "\(davError)")
                    #expect(!davError.message.isEmpty)
                }
            }
        }
        #expect(checked > 10_000)
    }
}
