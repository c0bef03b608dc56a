import Foundation

/// A bar chart drawn on the server as SVG: no script, no chart library, nothing from another
/// host. It is an image with a title and a description for screen readers (`role="img"`), and
/// the page shows the same numbers as a table beside it, so the chart is never the only way to
/// read them. In a right-to-left page time runs right to left: the oldest bar is on the right
/// and the axis labels stand on the right.
///
/// Colours come from `app.css` classes (the page's Content-Security-Policy allows no inline
/// styles); only geometry is written here.
struct TrackerChart {
    struct Bar {
        /// Under the bar: "Mon 21", "Sep", "2026".
        let label: String
        /// The full label the table and the description use: "Monday 21 September".
        let longLabel: String
        let value: Double
        /// The value as the person reads it: "7 h 30", "3".
        let text: String
        /// The bar that holds now, drawn a little stronger.
        let current: Bool
    }

    let id: String
    let title: String
    let description: String
    let bars: [Bar]
    let rightToLeft: Bool
    /// Writes a value on the axis ("8 h").
    let axisText: (Double) -> String

    static let width = 640.0, height = 240.0
    /// The side with the axis values, and the other side.
    static let axisMargin = 64.0, otherMargin = 12.0, top = 16.0, bottom = 40.0

    /// The SVG, ready to be put in the page as it is (every text escaped).
    var svg: String {
        let plotWidth = Self.width - Self.axisMargin - Self.otherMargin
        let plotHeight = Self.height - Self.top - Self.bottom
        let scale = Self.niceCeiling(bars.map(\.value).max() ?? 0)
        let count = max(bars.count, 1)
        let slot = plotWidth / Double(count)
        let barWidth = max(2, slot * 0.7)
        // The axis stands on the reading side: left in English, right in Arabic. Geometry is
        // laid out left to right (`direction="ltr"`), so text-anchor means the same in both.
        let plotStart = rightToLeft ? Self.otherMargin : Self.axisMargin
        let axisLabelX = rightToLeft ? Self.width - Self.axisMargin + 6 : Self.axisMargin - 6
        let id = Self.escape(self.id)
        var out = """
            <svg xmlns="http://www.w3.org/2000/svg" class="chart" id="\(id)" viewBox="0 0 \(Int(Self.width)) \(Int(Self.height))" \
            direction="ltr" role="img" aria-labelledby="\(id)-title \(id)-desc" preserveAspectRatio="xMidYMid meet">
            <title id="\(id)-title">\(Self.escape(title))</title>
            <desc id="\(id)-desc">\(Self.escape(description))</desc>

            """
        // Grid lines and their values: 0, half and the top.
        for fraction in [0.0, 0.5, 1.0] {
            let y = Self.top + plotHeight * (1 - fraction)
            out += "<line class=\"chart-grid\" x1=\"\(Self.number(plotStart))\" y1=\"\(Self.number(y))\" "
                + "x2=\"\(Self.number(plotStart + plotWidth))\" y2=\"\(Self.number(y))\"/>\n"
            out += "<text class=\"chart-axis\" x=\"\(Self.number(axisLabelX))\" y=\"\(Self.number(y + 4))\" "
                + "text-anchor=\"\(rightToLeft ? "start" : "end")\">\(Self.escape(axisText(scale * fraction)))</text>\n"
        }
        // Every label when they fit, else every second or third, always the newest.
        let labelEvery = max(1, Int((Double(count) * 52 / plotWidth).rounded(.up)))
        for (index, bar) in bars.enumerated() {
            let position = rightToLeft ? count - 1 - index : index
            let x = plotStart + slot * Double(position) + (slot - barWidth) / 2
            let barHeight = scale > 0 ? plotHeight * max(0, bar.value) / scale : 0
            let y = Self.top + plotHeight - barHeight
            out += "<rect class=\"chart-bar\(bar.current ? " current" : "")\" x=\"\(Self.number(x))\" y=\"\(Self.number(y))\" "
                + "width=\"\(Self.number(barWidth))\" height=\"\(Self.number(barHeight))\"><title>\(Self.escape(bar.longLabel + ": " + bar.text))</title></rect>\n"
            if (count - 1 - index) % labelEvery == 0 {
                out += "<text class=\"chart-label\" x=\"\(Self.number(x + barWidth / 2))\" y=\"\(Self.number(Self.height - Self.bottom + 18))\" "
                    + "text-anchor=\"middle\">\(Self.escape(bar.label))</text>\n"
            }
        }
        out += "<line class=\"chart-axis-line\" x1=\"\(Self.number(plotStart))\" y1=\"\(Self.number(Self.top + plotHeight))\" "
            + "x2=\"\(Self.number(plotStart + plotWidth))\" y2=\"\(Self.number(Self.top + plotHeight))\"/>\n"
        out += "</svg>"
        return out
    }

    /// The smallest of 1, 2, 2.5 or 5 times a power of ten at or above `value` (at least 1).
    static func niceCeiling(_ value: Double) -> Double {
        guard value > 0, value.isFinite else { return 1 }
        let power = pow(10, floor(log10(value)))
        for step in [1.0, 2.0, 2.5, 5.0, 10.0] where step * power >= value { return step * power }
        return 10 * power
    }

    static func number(_ value: Double) -> String {
        String(format: "%.1f", value)
    }

    /// Escaped as every value the web app writes by hand (`CalendarHTML.value`).
    static func escape(_ text: String) -> String {
        var html = CalendarHTML(capacity: text.utf8.count)
        html.value(text)
        return html.text
    }
}
