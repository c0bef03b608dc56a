import Hummingbird

/// What the server knows of the browser's screen: app.js marks a phone-width window with a
/// cookie (no personal data: one word), so a phone lands on Today and opens the calendar at the
/// day view. A browser that has not run the script yet is taken for a wide screen.
package enum WebScreen {
    package static let cookie = "jadwal_screen"

    package static func isNarrow(_ request: Request) -> Bool {
        request.cookies[cookie]?.value == "narrow"
    }

    /// Where a signed-in person lands: Today on a phone, the calendar elsewhere.
    package static func landing(_ request: Request) -> String {
        isNarrow(request) ? "/today" : "/calendar"
    }
}
