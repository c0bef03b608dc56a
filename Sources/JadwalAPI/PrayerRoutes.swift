import Foundation
import Hummingbird
import ICalendar
import JadwalCore
import JadwalHTTP
import PrayerTimes

/// `/api/v1/prayer-settings` and `/api/v1/prayer-times`: where the person prays, and the times.
package struct PrayerRoutes: Sendable {
    package let prayer: PrayerPreferences
    package let clock: Clock

    package init(prayer: PrayerPreferences, clock: Clock) {
        self.prayer = prayer
        self.clock = clock
    }

    package struct FeedRequest: Decodable { let alarmMinutesBefore: Int? }

    package static let maxDays = 366
    /// By `LocalDate.weekday` (0 = Sunday); fixed English names, not the server's locale.
    package static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

    package struct SettingsRequest: Decodable {
        package struct Adjustments: Decodable { var fajr, sunrise, dhuhr, asr, maghrib, isha: Int? }
        package struct Blocks: Decodable { var fajr, dhuhr, asr, maghrib, isha, jumuah: Int? }
        package var city: String?
        package var latitude: Double?
        package var longitude: Double?
        package var timeZone: String?
        package var method: String?
        package var madhab: String?
        package var highLatitudeRule: String?
        package var adjustments: Adjustments?
        package var blockMinutes: Blocks?
    }

    package struct SettingsView: Encodable, Sendable {
        package let latitude: Double
        package let longitude: Double
        package let timeZone: String
        package let placeName: String?
        package let method: String
        package let methodName: String
        package let madhab: String
        package let highLatitudeRule: String
        package let adjustments: PrayerAdjustments
        package let blockMinutes: PrayerBlocks

        package init(_ settings: PrayerSettings) {
            latitude = settings.latitude
            longitude = settings.longitude
            timeZone = settings.timeZone
            placeName = settings.placeName
            method = settings.method.rawValue
            methodName = settings.method.displayName
            madhab = settings.madhab.rawValue
            highLatitudeRule = settings.highLatitudeRule.rawValue
            adjustments = settings.adjustments
            blockMinutes = settings.blocks
        }
    }

    package struct DayView: Encodable, Sendable {
        package let date: String
        package let weekday: String
        package let hijri: [String: String]?
        /// ISO 8601 with the place's UTC offset.
        package let times: [String: String]
        /// Prayers without a time that day (polar day or night), with the reason.
        package let unavailable: [String: String]
        package let isFriday: Bool
    }

    package struct TimesView: Encodable, Sendable {
        package let placeName: String?
        package let timeZone: String
        package let method: String
        package let days: [DayView]
    }

    package func addRoutes(to group: RouterGroup<JadwalRequestContext>) {
        group.get("prayer-settings") { _, context in
            let accountID = try context.requireIdentity().account.id
            return JSONResponse(SettingsView(try await currentSettings(accountID)))
        }
        group.put("prayer-settings") { request, context in
            let accountID = try context.requireIdentity().account.id
            let change = try Self.change(from: try await request.decodeJSON(as: SettingsRequest.self))
            return JSONResponse(SettingsView(try await prayer.save(change, accountID: accountID)))
        }
        group.get("prayer-times") { request, context in
            let accountID = try context.requireIdentity().account.id
            return JSONResponse(try await times(accountID: accountID, query: request.uri.queryParameters))
        }
        group.post("prayer-times/feed") { request, context in
            let accountID = try context.requireIdentity().account.id
            let alarm = try await Self.hasBody(request) ? request.decodeJSON(as: FeedRequest.self).alarmMinutesBefore : nil
            let link = try await prayer.newFeed(accountID: accountID, alarmMinutesBefore: alarm)
            return JSONResponse(link, status: .created)
        }
        group.delete("prayer-times/feed") { _, context -> Response in
            let accountID = try context.requireIdentity().account.id
            try await prayer.revokeFeed(accountID: accountID)
            return Response(status: .noContent)
        }
    }

    /// `GET /feeds/{token}.ics`: no sign-in, the token is the key.
    package func addFeedRoute(to router: RouterGroup<JadwalRequestContext>) {
        router.get("feeds/{file}") { _, context -> Response in
            let notFound = APIError.notFound("No calendar feed at this address (it may have been revoked).")
            guard let file = context.parameters.get("file"), file.hasSuffix(".ics"), file.count <= 100 else { throw notFound }
            guard let calendar = try await prayer.feedCalendar(token: String(file.dropLast(4))) else { throw notFound }
            let settings = calendar.settings
            let today = LocalDate.today(in: TimeZone(identifier: settings.timeZone) ?? .gmt, now: clock.now)
            let body: String
            do {
                body = try calendar.calendar(
                    from: today.adding(days: -PrayerPreferences.feedDaysBack), through: today.adding(days: PrayerPreferences.feedDaysAhead), now: clock.now
                ).serialized
            } catch {
                throw APIError.badRequest("invalid_prayer_settings", "The saved prayer settings are not usable: \(error). Save them again.")
            }
            return Response(
                status: .ok,
                headers: [.contentType: "text/calendar; charset=utf-8", .cacheControl: "private, max-age=3600"],
                body: .init(byteBuffer: ByteBuffer(string: body))
            )
        }
    }

    package static func hasBody(_ request: Request) -> Bool {
        if let length = request.headers[.contentLength] { return length != "0" }
        return request.headers[.contentType] != nil
    }


    private func currentSettings(_ accountID: UUID) async throws -> PrayerSettings {
        try await prayer.requiredSettings(accountID: accountID)
    }

    private func times(accountID: UUID, query: Parameters) async throws -> TimesView {
        let settings = try await currentSettings(accountID)
        let calculator: PrayerCalculator
        do {
            calculator = try settings.calculator()
        } catch {
            throw APIError.badRequest("invalid_prayer_settings", "The saved prayer settings are not usable: \(error). Save them again.")
        }
        let zone = calculator.timeZone
        let (first, last) = try dateRange(query: query, zone: zone)
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = zone
        formatter.formatOptions = [.withInternetDateTime]
        let days = calculator.schedules(from: first, through: last).map { schedule in
            var times: [String: String] = [:]
            var unavailable: [String: String] = [:]
            let named: [(String, PrayerTime)] = [
                ("imsak", schedule.imsak), ("fajr", schedule.fajr), ("sunrise", schedule.sunrise), ("dhuhr", schedule.dhuhr),
                ("asr", schedule.asr), ("maghrib", schedule.maghrib), ("isha", schedule.isha), ("midnight", schedule.midnight),
                ("lastThirdOfNight", schedule.lastThirdOfNight),
            ]
            for (name, time) in named {
                switch time {
                case .at(let date): times[name] = formatter.string(from: date)
                case .unavailable(let reason): unavailable[name] = reason.description
                }
            }
            let weekday = Self.weekdays[schedule.date.weekday]
            return DayView(
                date: schedule.date.description, weekday: weekday,
                hijri: schedule.hijriDate.map { ["en": $0.description, "ar": $0.arabicDescription] },
                times: times, unavailable: unavailable, isFriday: schedule.date.weekday == 5
            )
        }
        return TimesView(placeName: settings.placeName, timeZone: settings.timeZone, method: settings.method.rawValue, days: days)
    }

    /// `?date=`, or `?start=&end=` (inclusive, at most a year), or today in the place's zone.
    private func dateRange(query: Parameters, zone: TimeZone) throws -> (LocalDate, LocalDate) {
        func parse(_ name: String) throws -> LocalDate? {
            guard let text = query.get(name) else { return nil }
            do {
                return try LocalDate(iso8601: text)
            } catch {
                throw APIError.badRequest("invalid_query", "'\(name)' must be a date like 2026-03-05, not '\(text)'.")
            }
        }
        if let date = try parse("date") { return (date, date) }
        let start = try parse("start")
        let end = try parse("end")
        switch (start, end) {
        case (nil, nil):
            let today = LocalDate.today(in: zone, now: clock.now)
            return (today, today)
        case (let start?, let end?):
            guard start <= end else { throw APIError.badRequest("invalid_query", "'start' must not be after 'end'.") }
            guard end.daysSinceEpoch - start.daysSinceEpoch < Self.maxDays else {
                throw APIError.badRequest("invalid_query", "Ask for at most \(Self.maxDays) days at a time.")
            }
            return (start, end)
        default:
            throw APIError.badRequest("invalid_query", "Give both 'start' and 'end', or 'date'.")
        }
    }

    package static func change(from request: SettingsRequest) throws -> PrayerSettingsChange {
        var change = PrayerSettingsChange(
            city: request.city, latitude: request.latitude, longitude: request.longitude, timeZone: request.timeZone,
            method: request.method, madhab: request.madhab, highLatitudeRule: request.highLatitudeRule
        )
        if let a = request.adjustments {
            change.adjustments = PrayerAdjustments(
                fajr: a.fajr ?? 0, sunrise: a.sunrise ?? 0, dhuhr: a.dhuhr ?? 0, asr: a.asr ?? 0, maghrib: a.maghrib ?? 0, isha: a.isha ?? 0)
        }
        if let b = request.blockMinutes {
            var blocks = PrayerBlocks()
            blocks.fajr = b.fajr ?? blocks.fajr
            blocks.dhuhr = b.dhuhr ?? blocks.dhuhr
            blocks.asr = b.asr ?? blocks.asr
            blocks.maghrib = b.maghrib ?? blocks.maghrib
            blocks.isha = b.isha ?? blocks.isha
            blocks.jumuah = b.jumuah ?? blocks.jumuah
            change.blocks = blocks
        }
        return change
    }
}

