import Foundation
import JadwalHTTP
import Scheduling

/// The hours around a conflict drawn as an SVG: time runs down the page (as in the calendar's day
/// view), with three columns — the conflicting event, where a suggested move would put it, and
/// everything else busy (events, prayers, routines, planned task time). Only geometry and labels
/// are worked out here; the template draws them and `conflicts.js` moves the preview.
package struct ConflictsTimeline {
    package enum Kind: String { case this, event, prayer, routine, task }

    /// Something to draw, before placement.
    package struct Block {
        package var kind: Kind
        package var title: String
        package var range: TimeRange
    }

    /// A block placed on the drawing, with its label cut to the width it has.
    package struct Shape {
        package var kind: Kind
        package var x, y, width, height: Double
        package var textX: Double
        package var label: String?
        package var labelY: Double
        package var time: String?
        package var timeY: Double
    }

    package struct Hour {
        package var y: Double
        package var label: String
    }

    package static let width = 600.0
    package static let header = 28.0
    /// 48 points an hour: a 15-minute prayer block still has room for its name.
    package static let perMinute = 0.8
    package static let gutter = 64.0
    package static let columnWidth = 170.0
    package static let columnStarts = (event: 70.0, preview: 246.0, busy: 422.0)
    /// The hours shown around the overlap; suggestions further away are listed, not drawn.
    package static let minimumHours = 3.0
    package static let maximumHours = 12.0
    package static let padding: TimeInterval = 30 * 60

    package let window: TimeRange
    package let rightToLeft: Bool
    package let zone: TimeZone

    /// A window of whole hours (in `zone`) around the event and what it runs into, widened to take in
    /// the suggested slots that fit within ``maximumHours``, nearest first.
    package init(event: TimeRange, around: [TimeRange], suggestions: [TimeRange], zone: TimeZone, rightToLeft: Bool) {
        self.zone = zone
        self.rightToLeft = rightToLeft
        var calendar = Foundation.Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        func floorHour(_ date: Date) -> Date { calendar.dateInterval(of: .hour, for: date)?.start ?? date }
        func ceilHour(_ date: Date) -> Date {
            guard let hour = calendar.dateInterval(of: .hour, for: date) else { return date }
            return hour.start == date ? date : hour.end
        }
        var start = floorHour((around.map(\.start) + [event.start]).min().map { $0 - Self.padding } ?? event.start)
        var end = ceilHour((around.map(\.end) + [event.end]).max().map { $0 + Self.padding } ?? event.end)
        if end.timeIntervalSince(start) > Self.maximumHours * 3600 {
            // A long neighbour (a day-long routine) is cut: the event itself stays in view.
            start = floorHour(event.start - Self.padding)
            end = max(ceilHour(event.end + Self.padding), start + Self.minimumHours * 3600)
        }
        for slot in suggestions.sorted(by: { abs($0.start.timeIntervalSince(event.start)) < abs($1.start.timeIntervalSince(event.start)) }) {
            let wider = (floorHour(min(start, slot.start - Self.padding)), ceilHour(max(end, slot.end + Self.padding)))
            if wider.1.timeIntervalSince(wider.0) <= Self.maximumHours * 3600 { (start, end) = wider }
        }
        if end.timeIntervalSince(start) < Self.minimumHours * 3600 { end = start + Self.minimumHours * 3600 }
        window = (try? TimeRange(start: start, end: end)) ?? event
    }

    package var height: Double { (Self.header + y(window.end) + 8).rounded() }

    /// The vertical position of an instant, clamped to the window.
    package func y(_ date: Date) -> Double {
        let clamped = min(max(date, window.start), window.end)
        return Self.header + clamped.timeIntervalSince(window.start) / 60 * Self.perMinute
    }

    /// A column's left edge, mirrored for right-to-left pages.
    package func x(_ start: Double, width: Double) -> Double {
        rightToLeft ? Self.width - start - width : start
    }

    /// Where a block's text starts: its inline-start edge, inset.
    package func textX(_ x: Double, width: Double) -> Double {
        rightToLeft ? x + width - 6 : x + 6
    }

    /// Where the preview of a move to `slot` goes; nil when it falls outside the hours drawn.
    package func preview(_ slot: TimeRange) -> (y: Double, height: Double)? {
        guard slot.start >= window.start, slot.end <= window.end else { return nil }
        return (y(slot.start), y(slot.end) - y(slot.start))
    }

    package var previewX: Double { x(Self.columnStarts.preview, width: Self.columnWidth) }
    package var previewTextX: Double { textX(previewX, width: Self.columnWidth) }

    /// The hour lines and their labels (at the gutter's inner edge, read with `text-anchor="end"`).
    package func hours(_ label: (Date) -> String) -> [Hour] {
        var hours: [Hour] = []
        var hour = window.start
        while hour <= window.end {
            hours.append(Hour(y: y(hour), label: label(hour)))
            hour += 3600
        }
        return hours
    }

    package var hourLabelX: Double { rightToLeft ? Self.width - Self.gutter + 6 : Self.gutter - 6 }
    package var hourLineStart: Double { rightToLeft ? 0 : Self.gutter }
    package var hourLineEnd: Double { rightToLeft ? Self.width - Self.gutter : Self.width }

    /// The column headings' centres: event, preview, busy.
    package var columnCentres: [Double] {
        [Self.columnStarts.event, Self.columnStarts.preview, Self.columnStarts.busy].map { x($0, width: Self.columnWidth) + Self.columnWidth / 2 }
    }

    /// The event in its column, and the time it shares with others shaded over it.
    package func event(_ block: Block, time: String) -> Shape {
        shape(block, column: Self.columnStarts.event, lane: 0, lanes: 1, time: time)
    }

    package func overlapShades(_ shared: [TimeRange]) -> [(x: Double, y: Double, width: Double, height: Double)] {
        let x = x(Self.columnStarts.event, width: Self.columnWidth)
        return shared.compactMap { range in
            let top = y(range.start), bottom = y(range.end)
            return bottom > top ? (x, top, Self.columnWidth, bottom - top) : nil
        }
    }

    /// The other busy blocks within the window, side by side where they overlap one another.
    package func busy(_ blocks: [Block], time: (TimeRange) -> String) -> [Shape] {
        let shown = blocks.filter { $0.range.end > window.start && $0.range.start < window.end }.sorted { $0.range.start < $1.range.start }
        var laneEnds: [Date] = []
        var lanes: [Int] = []
        for block in shown {
            if let free = laneEnds.firstIndex(where: { $0 <= block.range.start }) {
                laneEnds[free] = block.range.end
                lanes.append(free)
            } else {
                laneEnds.append(block.range.end)
                lanes.append(laneEnds.count - 1)
            }
        }
        return zip(shown, lanes).map { block, lane in
            shape(block, column: Self.columnStarts.busy, lane: lane, lanes: max(laneEnds.count, 1), time: time(block.range))
        }
    }

    private func shape(_ block: Block, column: Double, lane: Int, lanes: Int, time: String) -> Shape {
        let width = (Self.columnWidth - Double(lanes - 1) * 2) / Double(lanes)
        let start = column + Double(lane) * (width + 2)
        let x = x(start, width: width)
        let top = y(block.range.start), height = max(y(block.range.end) - top, 2)
        // Two lines when there is room, one when there is little, none in a sliver.
        let label = height >= 11 ? Self.fitted(block.title, width: width - 12) : nil
        let twoLines = height >= 32
        return Shape(
            kind: block.kind, x: x, y: top, width: width, height: height, textX: textX(x, width: width), label: label,
            labelY: twoLines ? top + 15 : top + min(height, 16) / 2 + 4, time: twoLines ? time : nil, timeY: top + 29)
    }

    /// A title cut to about what fits in `width` points of 12-point text.
    package static func fitted(_ title: String, width: Double) -> String? {
        let room = Int(width / 6.8)
        guard room >= 2 else { return nil }
        return title.count <= room ? title : String(title.prefix(room - 1)) + "…"
    }

    /// An SVG coordinate: one decimal, a point as the separator whatever the locale.
    package static func number(_ value: Double) -> String { String(format: "%.1f", value) }
}
