import Foundation
import JadwalCore

/// The JSON body APNs delivers to the app:
///
/// - alert: `{"aps":{"alert":{"title":…,"body":…},"sound":"default","thread-id":…},"jadwal":{…}}`
/// - background: `{"aps":{"content-available":1},"jadwal":{…}}`
///
/// where `jadwal` is `{"kind":…,"event":{"uid","title","start","end","calendar","allDay",…}}`.
public enum APNsPayload {
    /// APNs' limit for alert and background notifications.
    public static let maximumBytes = 4096

    /// The payload, with the event description shortened (then dropped) if that brings it under
    /// the limit; a payload still too large is refused here, before anything is sent.
    public static func encode(_ notification: PushNotification) throws(PushNotificationError) -> Data {
        var event = notification.event
        var data = body(notification, event: event)
        guard data.count > maximumBytes else { return data }

        if var shortened = event, let description = shortened.description, !description.isEmpty {
            // Each byte of the description is at least one byte of JSON, so cutting the excess
            // (plus room for the ellipsis) from it fits in one step; the loop covers escaping.
            var budget = description.utf8.count - (data.count - maximumBytes) - "…".utf8.count
            while budget > 0 {
                shortened.description = prefix(of: description, utf8Bytes: budget) + "…"
                data = body(notification, event: shortened)
                if data.count <= maximumBytes { return data }
                budget -= data.count - maximumBytes
            }
            shortened.description = nil
            event = shortened
            data = body(notification, event: event)
            if data.count <= maximumBytes { return data }
        }
        throw .payloadTooLarge(bytes: data.count, limit: maximumBytes)
    }

    /// The longest whole-character prefix of `text` within `utf8Bytes` bytes (Arabic letters are two).
    package static func prefix(of text: String, utf8Bytes: Int) -> String {
        var result = ""
        var used = 0
        for character in text {
            let size = character.utf8.count
            guard used + size <= utf8Bytes else { break }
            result.append(character)
            used += size
        }
        return result
    }

    package static func body(_ notification: PushNotification, event: PushEvent?) -> Data {
        let aps: APS
        switch notification.presentation {
        case .alert(let alert):
            aps = APS(alert: .init(title: alert.title, body: alert.body), sound: "default", threadID: alert.threadID, contentAvailable: nil)
        case .background:
            aps = APS(alert: nil, sound: nil, threadID: nil, contentAvailable: 1)
        }
        let body = Body(aps: aps, jadwal: Jadwal(kind: notification.kind, event: event.map(Event.init)))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        // Strings, numbers and dates only: encoding cannot fail.
        return (try? encoder.encode(body)) ?? Data()
    }

    package struct Body: Encodable {
        package var aps: APS
        package var jadwal: Jadwal
    }

    package struct APS: Encodable {
        package struct Alert: Encodable {
            package var title: String
            package var body: String
        }

        package var alert: Alert?
        package var sound: String?
        package var threadID: String?
        package var contentAvailable: Int?

        package enum CodingKeys: String, CodingKey {
            case alert, sound
            case threadID = "thread-id"
            case contentAvailable = "content-available"
        }
    }

    package struct Jadwal: Encodable {
        package var kind: String
        package var event: Event?
    }

    package struct Event: Encodable {
        package var uid: String
        package var title: String
        package var start: Date
        package var end: Date
        package var calendar: String
        package var allDay: Bool
        package var timeZone: String?
        package var recurrenceID: Date?
        package var location: String?
        package var description: String?

        package init(_ event: PushEvent) {
            uid = event.uid
            title = event.title
            start = event.start
            end = event.end
            calendar = event.calendar
            allDay = event.isAllDay
            timeZone = event.timeZone
            recurrenceID = event.recurrenceID
            location = event.location
            description = event.description
        }
    }
}
