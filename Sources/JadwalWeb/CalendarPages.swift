import Foundation
import Hummingbird
import JadwalCore
import JadwalHTTP
import PrayerTimes

/// The calendar screen: month, week, day and agenda views of all the person's calendars
/// together, with prayer times and routines drawn apart from events.
extension WebRoutes {
    package func addCalendarRoutes(to group: RouterGroup<JadwalRequestContext>) {
        group.get("calendar") { request, context -> Response in
            try await calendarPage(request, context)
        }
    }

    private func calendarPage(_ request: Request, _ context: JadwalRequestContext) async throws -> Response {
        let account = try context.requireIdentity().account
        let viewer = try await viewer(request, context)
        let texts = assets.texts(account.language)
        let zone = TimeZone(identifier: account.timeZone) ?? .gmt
        let query = request.uri.queryParameters
        // A phone's first view is the day (the script marks a narrow screen with a cookie).
        let view = query.get("view").flatMap(CalendarLayout.View.init(rawValue:)) ?? (WebScreen.isNarrow(request) ? .day : .month)
        let formats = WebFormats.shared(language: account.language, zone: zone)
        let today = formats.localDay(clock.now)
        var notice: String?
        var anchor = today
        if let text = query.get("date"), !text.isEmpty {
            if let parsed = Self.day(text) { anchor = parsed } else { notice = texts.text("errorBadDate", ["value": text]) }
        }
        let layout = CalendarLayout(view: view, anchor: anchor, today: today, zone: zone, weekStart: account.language == .arabic ? 0 : 1)
        let window = layout.window
        // `?category=` narrows the view to one tag; the menu offers the tags in the window.
        let category = query.get("category").map { String($0).trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
        // To-dos with a due date, on the day, week and agenda views (a month has no room for them).
        let todoDays = view == .month ? nil : LocalDate(daysSinceEpoch: layout.days.lowerBound)...LocalDate(daysSinceEpoch: layout.days.upperBound)
        let shown = try await windows.window(
            account: account, from: window.start, to: window.end, shownOnly: true, category: category, todosDue: todoDays)
        let (instances, truncated, windowCategories, marks) = (shown.instances, shown.truncated, shown.categories, shown.marks)
        // Prayers are drawn on the week and day grids only.
        let prayerSettings = view == .week || view == .day ? try await prayer.settings(accountID: account.id) : nil

        var colors = CalendarColors()
        var items = instances.map { instance -> CalendarLayout.Item in
            let kind: CalendarLayout.Item.Kind = switch instance.calendar.slug {
            case DefaultCalendars.routinesSlug: .routine
            case DefaultCalendars.plannedTasksSlug: .task
            default: .event
            }
            return CalendarLayout.Item(
                title: instance.occurrence.summary ?? texts.text("untitled"), start: instance.start, end: instance.end,
                isAllDay: instance.occurrence.isAllDay, kind: kind, colorClass: colors.cssClass(for: instance.calendar),
                href: EventPages.editPath(calendarID: instance.calendar.id, objectName: instance.objectName, occurrence: instance.occurrence.recurrenceId?.iso8601),
                isCancelled: instance.occurrence.isCancelled, eventColor: EventColor.of(instance.occurrence.component).flatMap { colors.eventColor($0) },
                isDeadline: !instance.occurrence.isAllDay && instance.start == instance.end,
                conflictHref: marks.conflicts(of: instance).first.map(TodayPage.conflictHref),
                calendar: texts.calendarLabel(instance.calendar),
                invitation: CalendarUsers.invitationAnswer(of: account, in: instance.occurrence.component))
        }
        for todo in shown.todos {
            let at = todo.dueIsDate ? layout.midnight(todo.dueDay) : todo.due ?? layout.midnight(todo.dueDay)
            let title = todo.task.todo.title.flatMap { $0.isEmpty ? nil : $0 } ?? texts.text("untitled")
            let inTaskList = todo.calendar.slug == DefaultCalendars.tasksSlug && todo.calendar.sharing == nil
            items.append(CalendarLayout.Item(
                title: title, start: at, end: at, isAllDay: true, kind: .todo, colorClass: colors.cssClass(for: todo.calendar),
                href: inTaskList ? TaskPages.path(todo.task.object.name) : nil, isDone: todo.isDone, hasDueTime: !todo.dueIsDate))
        }
        if let prayerSettings {
            let prayers = PrayerCalendar(settings: prayerSettings, language: account.language)
            let first = LocalDate(daysSinceEpoch: layout.days.lowerBound - 1), last = LocalDate(daysSinceEpoch: layout.days.upperBound + 1)
            for block in (try? prayers.blocks(from: first, through: last)) ?? [] {
                items.append(CalendarLayout.Item(
                    title: prayers.title(block.prayer, jumuah: block.isJumuah), start: block.start, end: block.end, isAllDay: false, kind: .prayer,
                    colorClass: "prayer", href: nil))
            }
        }

        var model = CalendarPageModel(layout: layout, formats: formats, texts: texts, items: items, showHijri: account.showHijri)
        model.category = category
        var page: [String: Any] = model.header()
        let chosen = category?.lowercased()
        var categoryOptions = windowCategories
        if let category, !categoryOptions.contains(where: { $0.lowercased() == chosen }) { categoryOptions.append(category) }
        if !categoryOptions.isEmpty {
            page["hasCategories"] = true
            page["categories"] = [["value": "", "label": texts.text("categoryAll"), "selected": category == nil] as [String: Any]]
                + categoryOptions.map { ["value": $0, "label": $0, "selected": $0.lowercased() == chosen] }
        }
        switch view {
        case .month: page["month"] = model.month()
        case .week, .day:
            var grid = model.grid()
            let workingStart = try await conflicts.settings(accountID: account.id).workingHours?.start.hour
            grid["openingHour"] = layout.openingHour(now: clock.now, workingStart: workingStart)
            page["grid"] = grid
        case .agenda: page["agenda"] = model.agenda()
        }
        if query.get("view") == nil { page["defaultView"] = true }
        if let notice { page["notice"] = notice }
        if truncated { page["notice"] = texts.text("calendarTruncated") }
        // Said on the view, so events of a hidden calendar are not taken for lost.
        let hidden = try await calendars.hiddenIDs(accountID: account.id).count
        if hidden > 0 { page["hiddenNote"] = texts.text("calendarHiddenNote", ["count": String(hidden)]) }
        return WebPage(template: "calendar", title: model.title, page: page, style: colors.css).response(assets, viewer: viewer)
    }

    /// `2026-11-21`, or `2026-11` (the month picker) for its first day.
    package static func day(_ text: String) -> LocalDate? {
        if let date = try? LocalDate(iso8601: text) { return date }
        let parts = text.split(separator: "-")
        guard text.count == 7, parts.count == 2, let year = Int(parts[0]), let month = Int(parts[1]) else { return nil }
        return try? LocalDate(year: year, month: month, day: 1)
    }
}

/// Each calendar's colour as a CSS class, for the page's own style block. Colours come from
/// CalDAV clients, so only `#rrggbb` passes; anything else gets the default.
package struct CalendarColors {
    private var classes: [UUID: String] = [:]
    private var rules: [String] = []
    package static let fallback = "#2f6f9f"
    private var eventClasses: [String: String] = [:]

    /// The class for an event's own colour (`evc-turquoise`); nil for a name CSS would not read.
    package mutating func eventColor(_ name: String) -> String? {
        guard let name = EventColor.canonical(name) else { return nil }
        if let known = eventClasses[name] { return known }
        let cssClass = "evc-\(name)"
        eventClasses[name] = cssClass
        rules.append(".\(cssClass){--ev:\(name)}")
        return cssClass
    }

    package mutating func cssClass(for calendar: CalendarCollection) -> String {
        if let known = classes[calendar.id] { return known }
        let name = "cal-\(classes.count)"
        classes[calendar.id] = name
        rules.append(".\(name){--cal:\(Self.validated(calendar.color))}")
        return name
    }

    package var css: String { rules.joined() }

    package static func validated(_ color: String?) -> String {
        guard let color, color.count == 7 || color.count == 9, color.hasPrefix("#"),
              color.dropFirst().allSatisfy(\.isHexDigit) else { return fallback }
        return String(color.prefix(7))
    }
}

/// The calendar page's values for the template.
package struct CalendarPageModel {
    package let layout: CalendarLayout
    package let formats: WebFormats
    package let texts: [String: String]
    package let items: [CalendarLayout.Item]
    /// The person asked to see the Hijri date beside the Gregorian one (settings).
    package var showHijri = false
    /// The one category the view is narrowed to, kept by every link.
    package var category: String?

    package var title: String {
        switch layout.view {
        case .month: return formats.monthYear(layout.anchor)
        case .day: return formats.fullDay(layout.anchor)
        case .week, .agenda:
            let days = layout.days
            return "\(formats.shortDay(LocalDate(daysSinceEpoch: days.lowerBound))) – \(formats.shortDay(LocalDate(daysSinceEpoch: days.upperBound)))"
        }
    }

    package func link(_ view: CalendarLayout.View, _ day: LocalDate) -> String {
        "/calendar?view=\(view.rawValue)&date=\(day)"
            + (category.map { "&category=" + ($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "") } ?? "")
    }

    package func header() -> [String: Any] {
        let views = CalendarLayout.View.allCases.map { view -> [String: Any] in
            ["href": link(view, layout.anchor), "label": texts.text("view_\(view.rawValue)"), "current": view == layout.view]
        }
        var header: [String: Any] = [
            "heading": title, "views": views, "view": layout.view.rawValue,
            "previousHref": link(layout.view, layout.previous), "nextHref": link(layout.view, layout.next),
            "todayHref": link(layout.view, layout.today), "monthValue": String(format: "%04d-%02d", layout.anchor.year, layout.anchor.month),
            "dateValue": layout.anchor.description, "addHref": addHref(layout.anchor), "category": category ?? "",
        ]
        if let hijri = hijri { header["hijri"] = hijri }
        return header
    }

    /// The Hijri dates of what the view shows: the day, the week's or agenda's days, or the
    /// month's own days (not the neighbouring days that fill its first and last weeks).
    package var hijri: String? {
        guard showHijri else { return nil }
        switch layout.view {
        case .day: return formats.hijri(layout.anchor)
        case .week, .agenda:
            return formats.hijri(from: LocalDate(daysSinceEpoch: layout.days.lowerBound), through: LocalDate(daysSinceEpoch: layout.days.upperBound))
        case .month:
            guard let first = try? LocalDate(year: layout.anchor.year, month: layout.anchor.month, day: 1) else { return nil }
            let last = (try? LocalDate(year: first.year + (first.month == 12 ? 1 : 0), month: first.month % 12 + 1, day: 1))?.adding(days: -1) ?? first
            return formats.hijri(from: first, through: last)
        }
    }

    private func chip(_ item: CalendarLayout.Item, showTime: Bool) -> CalendarHTML.Chip {
        let time: String? = if item.kind == .todo {
            item.hasDueTime ? formats.time(item.start) : nil
        } else if showTime && !item.isAllDay {
            item.isDeadline ? formats.time(item.start) : formats.timeRange(item.start, item.end)
        } else {
            nil
        }
        return CalendarHTML.Chip(
            title: item.title, classes: classes(item), time: time,
            href: item.href, cancelled: item.isCancelled ? texts.text("cancelled") : nil, deadline: item.isDeadline ? texts.text("deadline") : nil, calendar: item.calendar,
            invited: item.invitation.map { texts.text("invited_\($0.rawValue.lowercased())") },
            todo: item.kind == .todo ? texts.text("todoChipLabel") + (item.isDone ? ", " + texts.text("todoChipDone") : "") : nil,
            todoDone: item.isDone, conflict: badge(item))
    }

    /// The conflict badge of an item in a conflict, with its words for screen readers.
    private func badge(_ item: CalendarLayout.Item) -> CalendarHTML.ConflictBadge? {
        item.conflictHref.map {
            CalendarHTML.ConflictBadge(href: $0, label: texts.text("conflictBadgeLabel", ["title": item.title]), note: texts.text("conflictBadgeNote"))
        }
    }

    private func chipList(_ items: [CalendarLayout.Item], showTime: Bool) -> String {
        var html = CalendarHTML(capacity: items.count * 160)
        html.chipItems(items.map { chip($0, showTime: showTime) })
        return html.text
    }

    private func classes(_ item: CalendarLayout.Item) -> String {
        var classes = "item kind-\(item.kind.rawValue) \(item.colorClass)" + (item.isCancelled ? " cancelled" : "") + (item.isAllDay ? " all-day" : "")
        classes += (item.eventColor.map { " ev-color \($0)" } ?? "") + (item.isDeadline ? " deadline" : "") + (item.isDone ? " done" : "")
        classes += item.conflictHref == nil ? "" : " in-conflict"
        if let answer = item.invitation { classes += " invited answer-" + answer.rawValue.lowercased() }
        return classes
    }

    /// A day's heading and links, as every view shows them.
    private func dayCell(_ day: LocalDate) -> CalendarHTML.MonthCell {
        let label = formats.fullDay(day)
        return CalendarHTML.MonthCell(
            iso: day.description, number: formats.dayNumber(day), label: label, dayHref: link(.day, day), addHref: addHref(day),
            addLabel: texts.text("addOn", ["day": label]), inMonth: day.month == layout.anchor.month, isToday: day == layout.today, chips: [],
            more: nil)
    }

    private func addHref(_ day: LocalDate) -> String { "/events/new?date=\(day)" }

    private func dayValues(_ day: LocalDate) -> [String: Any] {
        let cell = dayCell(day)
        return [
            "iso": cell.iso, "number": cell.number, "label": cell.label, "isToday": cell.isToday, "dayHref": cell.dayHref,
            "addHref": cell.addHref, "addLabel": cell.addLabel,
        ]
    }

    /// The weekday names, and the weeks' rows as markup (`CalendarHTML`).
    package func month() -> [String: Any] {
        let byDay = layout.itemsByDay(items.filter { $0.kind != .prayer && $0.kind != .todo })
        let days = Array(layout.days)
        let weekdays = days.prefix(7).map { ["name": formats.weekday(LocalDate(daysSinceEpoch: $0))] }
        var html = CalendarHTML(capacity: days.count * 700)
        for start in stride(from: 0, to: days.count, by: 7) {
            html.monthWeek(days[start..<min(start + 7, days.count)].map { number in
                let dayItems = byDay[number] ?? []
                var cell = dayCell(LocalDate(daysSinceEpoch: number))
                cell.chips = dayItems.prefix(CalendarLayout.monthChips).map { chip($0, showTime: true) }
                if dayItems.count > CalendarLayout.monthChips {
                    cell.more = texts.text("moreCount", ["count": String(dayItems.count - CalendarLayout.monthChips)])
                }
                return cell
            })
        }
        return ["weekdays": weekdays, "weeks": html.text]
    }

    package func grid() -> [String: Any] {
        let byDay = layout.itemsByDay(items)
        let columns = layout.days.map { number -> [String: Any] in
            let day = LocalDate(daysSinceEpoch: number)
            var column = dayValues(day)
            column["weekday"] = formats.weekday(day)
            let dayItems = byDay[number] ?? []
            column["allDay"] = chipList(dayItems.filter(\.isAllDay), showTime: false)
            let (placements, lanes) = layout.placements(dayItems, on: number)
            column["lanesClass"] = "lanes-\(lanes)"
            column["events"] = placements.map { placement -> [String: Any] in
                // Absent keys are false: Mustache would otherwise search every enclosing section.
                [
                    "title": placement.item.title,
                    "time": placement.item.isDeadline ? formats.time(placement.item.start) : formats.timeRange(placement.item.start, placement.item.end),
                    "deadline": placement.item.isDeadline ? texts.text("deadline") as Any : false,
                    "invited": placement.item.invitation.map { texts.text("invited_\($0.rawValue.lowercased())") as Any } ?? false,
                    "classes": classes(placement.item) + " r-\(placement.row) n-\(placement.span) l-\(placement.lane)",
                    "href": placement.item.href.map { $0 as Any } ?? false,
                    "cancelled": placement.item.isCancelled ? texts.text("cancelled") as Any : false,
                    "conflict": badge(placement.item).map { badge -> Any in
                        ["href": badge.href, "label": badge.label, "note": badge.note,
                         "classes": "conflict-badge r-\(placement.row) n-1 l-\(placement.lane)"]
                    } ?? false,
                    "calendar": placement.item.calendar.map { $0 as Any } ?? false,
                ]
            }
            column["prayers"] = layout.prayerPlacements(items, on: number).map { placement -> [String: Any] in
                ["title": placement.item.title, "time": formats.time(placement.item.start), "classes": "prayer-band r-\(placement.row) n-\(placement.span)"]
            }
            return column
        }
        let hours = (0..<24).map { hour -> [String: Any] in
            let instant = layout.midnight(layout.anchor).addingTimeInterval(Double(hour) * 3600)
            return ["label": formats.time(instant), "rowClass": "r-\(hour * 4) n-4", "hour": hour]
        }
        return ["columns": columns, "hours": hours, "single": layout.view == .day]
    }

    package func agenda() -> [String: Any] {
        let byDay = layout.itemsByDay(items.filter { $0.kind != .prayer })
        let days = layout.days.compactMap { number -> [String: Any]? in
            guard let dayItems = byDay[number], !dayItems.isEmpty else { return nil }
            var values = dayValues(LocalDate(daysSinceEpoch: number))
            values["items"] = chipList(dayItems, showTime: true)
            return values
        }
        return ["days": days, "empty": days.isEmpty]
    }
}

extension WebRoutes {
    /// The calendar views' reads, over the services the web was given.
    var windows: CalendarWindows { CalendarWindows(integrated: integrated, conflicts: conflicts, tasks: tasks) }
}
