import JadwalHTTP
/// The calendar's repeated markup — a month's day cells and every event chip — written here
/// rather than through Mustache. A month page holds hundreds of them, and Mustache's per-key
/// lookups (a dynamic cast at each level) and character-by-character escaping were most of the
/// page's server time. The page's frame stays in `calendar.mustache`; this writes the parts the
/// template inserts unescaped (`{{{…}}}`), escaping every value itself.
package struct CalendarHTML {
    private(set) var text = ""

    package init(capacity: Int = 0) {
        text.reserveCapacity(capacity)
    }

    /// Markup written as is.
    package mutating func raw(_ markup: String) {
        text += markup
    }

    /// A value escaped for text and for quoted attributes (the five characters Mustache escapes).
    package mutating func value(_ value: String) {
        let needsEscaping = value.utf8.contains { byte in
            byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "&") || byte == UInt8(ascii: "\"")
                || byte == UInt8(ascii: "'")
        }
        guard needsEscaping else {
            text += value
            return
        }
        for scalar in value.unicodeScalars {
            switch scalar {
            case "<": text += "&lt;"
            case ">": text += "&gt;"
            case "&": text += "&amp;"
            case "\"": text += "&quot;"
            case "'": text += "&#39;"
            default: text.unicodeScalars.append(scalar)
            }
        }
    }

    /// One event as a chip: a link to its form when it can be edited, its time when asked for,
    /// its title, and a "cancelled" tag.
    package struct Chip {
        package var title: String
        package var classes: String
        package var time: String?
        package var href: String?
        package var cancelled: String?
        /// The word for a deadline's marker, read by screen readers beside the drawn diamond.
        package var deadline: String? = nil
        /// The calendar's name: its colour is never the only cue (a tooltip, read by screen
        /// readers, shown in the agenda).
        package var calendar: String? = nil
        /// The words for an invitation's marker (someone else's meeting, and the person's answer).
        package var invited: String? = nil
        /// A to-do: the words screen readers get for its drawn box ("To-do", "To-do, done").
        package var todo: String? = nil
        package var todoDone = false
        /// Its open conflict: a badge beside the chip linking to it.
        package var conflict: ConflictBadge? = nil
    }

    /// A conflict's badge: where it leads, what it says to screen readers on the link, and the
    /// words the chip itself carries for them (its colour and sign are not the only cue).
    package struct ConflictBadge {
        package var href: String
        package var label: String
        package var note: String
    }

    package mutating func chip(_ chip: Chip) {
        raw(chip.href == nil ? "<span class=\"" : "<a class=\"")
        value(chip.classes)
        if let href = chip.href {
            raw("\" href=\"")
            value(href)
        }
        if let calendar = chip.calendar {
            raw("\" title=\"")
            value(calendar)
        }
        raw("\">")
        if let todo = chip.todo {
            raw(chip.todoDone ? "<span class=\"todo-box\" aria-hidden=\"true\">☑</span><span class=\"visually-hidden\">"
                : "<span class=\"todo-box\" aria-hidden=\"true\">☐</span><span class=\"visually-hidden\">")
            value(todo)
            raw("</span> ")
        }
        if let invited = chip.invited {
            raw("<span class=\"marker invited-mark\" aria-hidden=\"true\">✉</span><span class=\"visually-hidden\">")
            value(invited)
            raw("</span> ")
        }
        if let deadline = chip.deadline {
            raw("<span class=\"marker\" aria-hidden=\"true\">◆</span><span class=\"visually-hidden\">")
            value(deadline)
            raw("</span> ")
        }
        if let time = chip.time {
            raw("<span class=\"time\">")
            value(time)
            raw("</span> ")
        }
        raw("<span class=\"title\">")
        value(chip.title)
        raw("</span>")
        if let calendar = chip.calendar {
            raw("<span class=\"cal-name\"> · ")
            value(calendar)
            raw("</span>")
        }
        if let cancelled = chip.cancelled {
            raw(" <span class=\"tag\">")
            value(cancelled)
            raw("</span>")
        }
        if let conflict = chip.conflict {
            raw("<span class=\"visually-hidden\">, ")
            value(conflict.note)
            raw("</span>")
        }
        raw(chip.href == nil ? "</span>" : "</a>")
        if let conflict = chip.conflict { badge(conflict, classes: "conflict-badge") }
    }

    /// A conflict's badge: a link of its own beside the chip (a link inside a link is not allowed).
    package mutating func badge(_ badge: ConflictBadge, classes: String) {
        raw("<a class=\"")
        value(classes)
        raw("\" href=\"")
        value(badge.href)
        raw("\" aria-label=\"")
        value(badge.label)
        raw("\" title=\"")
        value(badge.label)
        raw("\"><span aria-hidden=\"true\">⚠</span></a>")
    }

    /// Chips as the items of a list.
    package mutating func chipItems(_ chips: [Chip]) {
        for chip in chips {
            raw(chip.conflict == nil ? "<li>" : "<li class=\"has-conflict\">")
            self.chip(chip)
            raw("</li>")
        }
    }

    /// One day of the month grid: its number (a link to the day), "+" to add an event on it, its
    /// first chips, and "+N more" leading to the day.
    package struct MonthCell {
        package var iso: String
        package var number: String
        package var label: String
        package var dayHref: String
        package var addHref: String
        package var addLabel: String
        package var inMonth: Bool
        package var isToday: Bool
        package var chips: [Chip]
        package var more: String?
    }

    package mutating func monthWeek(_ cells: [MonthCell]) {
        raw("<tr>")
        for cell in cells {
            raw("\n      <td class=\"day")
            if !cell.inMonth { raw(" other-month") }
            if cell.isToday { raw(" today\" aria-current=\"date") }
            raw("\" data-date=\"")
            value(cell.iso)
            raw("\">\n        <div class=\"day-head\">\n          <a class=\"day-number\" href=\"")
            value(cell.dayHref)
            raw("\" aria-label=\"")
            value(cell.label)
            raw("\">")
            value(cell.number)
            raw("</a>\n          <a class=\"day-add\" href=\"")
            value(cell.addHref)
            raw("\" aria-label=\"")
            value(cell.addLabel)
            raw("\">+</a>\n        </div>\n        <ul class=\"chips\">")
            chipItems(cell.chips)
            raw("</ul>")
            if let more = cell.more {
                raw("\n        <a class=\"more\" href=\"")
                value(cell.dayHref)
                raw("\">")
                value(more)
                raw("</a>")
            }
            raw("\n      </td>")
        }
        raw("\n    </tr>")
    }
}
