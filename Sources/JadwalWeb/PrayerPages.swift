import Foundation
import Hummingbird
import JadwalCore
import JadwalHTTP
import PrayerTimes

/// Settings → Prayer times: where and how the person prays, a preview of today's and this week's
/// times, and the subscription link. The form becomes a `PrayerSettingsChange` and is saved by the
/// function the JSON API's PUT uses; a problem is shown beside its field.
package enum PrayerPages {
    package static let path = "/settings/prayer"
    /// How many cities a search lists.
    package static let searchLimit = 12
    /// The preview's week: today and the six days after it.
    package static let previewDays = 7

    /// The form's fields, as posted.
    package struct Form: Decodable {
        /// "city" or "coordinates": which of the two ways of saying where is meant.
        package var place: String?
        package var city: String?
        package var latitude: String?
        package var longitude: String?
        package var timeZone: String?
        package var method: String?
        package var madhab: String?
        package var highLatitudeRule: String?
        package var blockFajr: String?
        package var blockDhuhr: String?
        package var blockAsr: String?
        package var blockMaghrib: String?
        package var blockIsha: String?
        package var blockJumuah: String?
    }

    /// The form showing saved settings (or an empty one, before there are any).
    package static func form(_ settings: PrayerSettings?, language: Language) -> Form {
        guard let settings else {
            let blocks = PrayerBlocks()
            return Form(
                place: "city", city: "", latitude: "", longitude: "", timeZone: "", method: "", madhab: Madhab.shafi.rawValue,
                highLatitudeRule: HighLatitudeRule.middleOfTheNight.rawValue, blockFajr: String(blocks.fajr), blockDhuhr: String(blocks.dhuhr),
                blockAsr: String(blocks.asr), blockMaghrib: String(blocks.maghrib), blockIsha: String(blocks.isha), blockJumuah: String(blocks.jumuah))
        }
        // "Riyadh / الرياض": the name in the person's language is what they would type.
        let names = settings.placeName?.components(separatedBy: " / ") ?? []
        let city = names.count == 2 ? (language == .arabic ? names[1] : names[0]) : (settings.placeName ?? "")
        return Form(
            place: settings.placeName == nil ? "coordinates" : "city", city: city, latitude: String(settings.latitude),
            longitude: String(settings.longitude), timeZone: settings.timeZone, method: settings.method.rawValue, madhab: settings.madhab.rawValue,
            highLatitudeRule: settings.highLatitudeRule.rawValue, blockFajr: String(settings.blocks.fajr), blockDhuhr: String(settings.blocks.dhuhr),
            blockAsr: String(settings.blocks.asr), blockMaghrib: String(settings.blocks.maghrib), blockIsha: String(settings.blocks.isha),
            blockJumuah: String(settings.blocks.jumuah))
    }

    /// The names of the block fields, with the prayer each is for.
    package static let blockFields: [(field: String, key: String)] = [
        ("blockFajr", "fajr"), ("blockDhuhr", "dhuhr"), ("blockAsr", "asr"), ("blockMaghrib", "maghrib"), ("blockIsha", "isha"),
        ("blockJumuah", "jumuah"),
    ]

}

extension PrayerPages.Form {
    /// The change this form asks for, or the field that cannot be read and why.
    package func change() -> Result<PrayerSettingsChange, FieldProblem> {
        func text(_ value: String?) -> String? {
            let trimmed = (value ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            return trimmed.isEmpty ? nil : trimmed
        }
        var change = PrayerSettingsChange(method: text(method), madhab: text(madhab), highLatitudeRule: text(highLatitudeRule))
        if place == "coordinates" {
            // Commas are what some keyboards type for the decimal point.
            func number(_ value: String?) -> Double?? {
                guard let value = text(value) else { return .some(nil) }
                return Double(value.replacingOccurrences(of: ",", with: ".")).map { .some($0) }
            }
            guard let latitude = number(self.latitude) else { return .failure(.init(field: "latitude", key: "prayerErrorLatitude")) }
            guard let longitude = number(self.longitude) else { return .failure(.init(field: "longitude", key: "prayerErrorLongitude")) }
            change.latitude = latitude
            change.longitude = longitude
            change.timeZone = text(timeZone)
            if change.latitude == nil, change.longitude == nil, change.timeZone == nil {
                return .failure(.init(field: "latitude", key: "prayerErrorCoordinates"))
            }
        } else {
            guard let city = text(city) else { return .failure(.init(field: "city", key: "prayerErrorNoPlace")) }
            change.city = city
        }
        var blocks = PrayerBlocks()
        let values = [blockFajr, blockDhuhr, blockAsr, blockMaghrib, blockIsha, blockJumuah]
        var minutes: [Int] = []
        for value in values {
            guard let number = Int(text(value) ?? "") else { return .failure(.init(field: "blocks", key: "prayerErrorBlocks")) }
            minutes.append(number)
        }
        (blocks.fajr, blocks.dhuhr, blocks.asr, blocks.maghrib, blocks.isha, blocks.jumuah) = (minutes[0], minutes[1], minutes[2], minutes[3], minutes[4], minutes[5])
        change.blocks = blocks
        return .success(change)
    }
}

extension WebRoutes {
    package func addPrayerRoutes(to group: RouterGroup<JadwalRequestContext>) {
        group.get("settings/prayer") { request, context -> Response in
            let account = try context.requireIdentity().account
            let settings = try await prayer.settings(accountID: account.id)
            var form = PrayerPages.form(settings, language: account.language)
            if let picked = request.uri.queryParameters.get("pick") {
                form.place = "city"
                form.city = picked
            }
            let notice = request.uri.queryParameters.get("saved") != nil ? "prayerSaved" : nil
            return try await prayerPage(request, context, form: form, settings: settings, notice: notice)
        }
        group.post("settings/prayer") { request, context -> Response in
            let account = try context.requireIdentity().account
            let form = try context.form(PrayerPages.Form.self)
            let texts = assets.texts(account.language)
            let current = try await prayer.settings(accountID: account.id)
            switch form.change() {
            case .failure(let problem):
                return try await prayerPage(request, context, form: form, settings: current, errors: [problem.field: texts.text(problem.key)])
            case .success(let change):
                do {
                    _ = try await prayer.save(change, accountID: account.id)
                } catch let problem as PrayerSettingsChange.Problem {
                    let shown = FieldProblem(problem)
                    return try await prayerPage(request, context, form: form, settings: current, errors: [shown.field: texts.text(shown.key)])
                }
                return WebPage.redirect(PrayerPages.path + "?saved=1")
            }
        }
        group.post("settings/prayer/feed") { request, context -> Response in
            let account = try context.requireIdentity().account
            let settings = try await prayer.settings(accountID: account.id)
            let form = PrayerPages.form(settings, language: account.language)
            guard settings != nil else {
                let texts = assets.texts(account.language)
                return try await prayerPage(request, context, form: form, settings: nil, errors: ["feed": texts.text("prayerFeedNeedsPlace")])
            }
            // Shown on this answer only: the address is the key to the feed, so it goes in no URL.
            let feed = try await prayer.newFeed(accountID: account.id, alarmMinutesBefore: nil)
            return try await prayerPage(request, context, form: form, settings: settings, feed: feed)
        }
    }

    private func prayerPage(
        _ request: Request, _ context: JadwalRequestContext, form: PrayerPages.Form, settings: PrayerSettings?, errors: [String: String] = [:],
        notice: String? = nil, feed: PrayerPreferences.FeedLink? = nil
    ) async throws -> Response {
        let viewer = try await viewer(request, context)
        let language = viewer.language
        let texts = assets.texts(language)
        let methodChosen = form.method ?? ""
        var methods = CalculationMethod.allCases.map { method -> [String: Any] in
            ["value": method.rawValue, "label": texts.text("prayerMethod_\(method.rawValue)"), "selected": method.rawValue == methodChosen]
        }
        if settings == nil {
            methods.insert(["value": "", "label": texts.text("prayerMethodUsual"), "selected": methodChosen.isEmpty], at: 0)
        }
        let madhabs = Madhab.allCases.map { madhab -> [String: Any] in
            ["value": madhab.rawValue, "label": texts.text("prayerMadhab_\(madhab.rawValue)"), "selected": madhab.rawValue == form.madhab]
        }
        let rules = HighLatitudeRule.allCases.map { rule -> [String: Any] in
            ["value": rule.rawValue, "label": texts.text("prayerHighLatitude_\(rule.rawValue)"), "selected": rule.rawValue == form.highLatitudeRule]
        }
        let formValues: [String: String?] = [
            "blockFajr": form.blockFajr, "blockDhuhr": form.blockDhuhr, "blockAsr": form.blockAsr, "blockMaghrib": form.blockMaghrib,
            "blockIsha": form.blockIsha, "blockJumuah": form.blockJumuah,
        ]
        let blocks = PrayerPages.blockFields.map { block -> [String: Any] in
            ["name": block.field, "label": texts.text("prayerBlock_\(block.key)"), "value": (formValues[block.field] ?? nil) ?? ""]
        }
        var page: [String: Any] = [
            "byCity": form.place != "coordinates", "city": form.city ?? "", "latitude": form.latitude ?? "", "longitude": form.longitude ?? "",
            "timeZone": form.timeZone ?? "", "methods": methods, "madhabs": madhabs, "rules": rules, "blocks": blocks,
            "errors": errors, "hasErrors": !errors.isEmpty, "hasSettings": settings != nil,
            "blockMin": PrayerBlocks.limit.lowerBound, "blockMax": PrayerBlocks.limit.upperBound,
        ]
        if let notice { page["notice"] = texts.text(notice) }
        // The page opens at the top; the problem may be far below, so say so and link to it.
        if let field = errors.keys.sorted().first(where: { $0 != "form" }), errors["form"] == nil {
            page["errorSummary"] = ["text": texts.text("prayerErrorSummary"), "href": "#" + (field == "blocks" ? "blockFajr" : field == "feed" ? "make-feed" : field)]
        }
        if let query = request.uri.queryParameters.get("city") {
            let found = CityDirectory.search(query).prefix(PrayerPages.searchLimit)
            page["search"] = query
            page["searched"] = true
            page["matches"] = found.map { city -> [String: Any] in
                let value = "\(city.englishName), \(city.countryCode)"
                let query = value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? value
                let name = language == .arabic ? city.arabicName : city.englishName
                return ["name": name, "other": language == .arabic ? city.englishName : city.arabicName, "country": city.countryCode,
                        "zone": city.timeZoneIdentifier, "href": PrayerPages.path + "?pick=" + query]
            }
            page["noMatches"] = found.isEmpty
        }
        if let settings, let preview = prayerPreview(settings, language: language, texts: texts) { page["preview"] = preview }
        if let feed { page["feed"] = ["url": feed.url, "webcal": feed.webcalURL] }
        let title = texts.text("prayerTitle")
        return WebPage(
            template: "prayer", title: title, page: page, status: errors.isEmpty ? .ok : .unprocessableContent, scripts: ["prayer.js"],
            stylesheets: ["connect.css"]
        ).response(assets, viewer: viewer)
    }

    /// Today's times and the week's, in the place's zone and the person's language.
    private func prayerPreview(_ settings: PrayerSettings, language: Language, texts: [String: String]) -> [String: Any]? {
        guard let calculator = try? settings.calculator() else { return nil }
        let zone = calculator.timeZone
        let formats = WebFormats.shared(language: language, zone: zone)
        let machine = ISO8601DateFormatter()
        machine.timeZone = zone
        machine.formatOptions = [.withInternetDateTime]
        let today = LocalDate.today(in: zone, now: clock.now)
        let schedules = calculator.schedules(from: today, through: today.adding(days: PrayerPages.previewDays - 1))
        func name(_ prayer: Prayer, on day: LocalDate) -> String {
            // On Friday Dhuhr's time is Jumu'ah's.
            if prayer == .dhuhr, day.weekday == 5 { return texts.text("prayerJumuah") }
            return language == .arabic ? prayer.arabicName : prayer.englishName
        }
        func cell(_ time: PrayerTime) -> [String: Any] {
            guard let date = time.date else { return ["unavailable": true, "text": texts.text("prayerUnavailable")] }
            return ["datetime": machine.string(from: date), "text": formats.time(date)]
        }
        let days = schedules.map { schedule -> [String: Any] in
            [
                "date": schedule.date.description, "label": formats.shortDay(schedule.date), "hijri": formats.hijri(schedule.date) ?? "",
                "isToday": schedule.date == today, "isFriday": schedule.date.weekday == 5,
                "times": Prayer.allCases.map { cell(schedule[$0]) },
            ]
        }
        guard let first = schedules.first else { return nil }
        let todayTimes = Prayer.allCases.map { prayer -> [String: Any] in
            var entry = cell(first[prayer])
            entry["name"] = name(prayer, on: first.date)
            entry["isSunrise"] = prayer == .sunrise
            return entry
        }
        let placeName = settings.placeName.map { name -> String in
            let parts = name.components(separatedBy: " / ")
            return parts.count == 2 ? (language == .arabic ? parts[1] : parts[0]) : name
        }
        return [
            "place": placeName ?? "\(settings.latitude), \(settings.longitude)", "zone": settings.timeZone,
            "method": texts.text("prayerMethod_\(settings.method.rawValue)"), "madhab": texts.text("prayerMadhab_\(settings.madhab.rawValue)"),
            "today": formats.fullDay(first.date), "todayHijri": formats.hijri(first.date) ?? "", "todayTimes": todayTimes,
            "columns": Prayer.allCases.map { language == .arabic ? $0.arabicName : $0.englishName }, "days": days,
        ]
    }
}
