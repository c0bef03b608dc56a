import Foundation
import HTTPTypes
import Hummingbird
import JadwalCore
import JadwalHTTP

/// A rendered page of the web app: one Mustache template inside the layout, with what every
/// page shares (language and direction, texts, navigation, the CSRF token) beside the page's own
/// values under `page`.
package struct WebPage {
    package var template: String
    package var title: String
    /// The page's own values, read by its template inside `{{#page}}`.
    package var page: Any
    package var status: HTTPResponse.Status = .ok
    /// CSS made for this page (calendar colours), from validated values only.
    package var style: String = ""
    /// The screen's own script modules and stylesheets in `static/`, beside `app.js` and `app.css`.
    package var scripts: [String] = []
    package var stylesheets: [String] = []

    /// Where the page is shown: who (if anyone) and in which language.
    package struct Viewer {
        package var language: Language
        package var identity: JadwalRequestContext.Identity?
        package var csrf: String?
        package var unread: Int = 0
        package var path: String
    }

    package static let sections: [(href: String, key: String)] = [
        ("/today", "navToday"), ("/calendar", "navCalendar"), ("/invitations", "navInvitations"), ("/conflicts", "navConflicts"), ("/tasks", "navTasks"), ("/plan", "navPlan"), ("/tracker", "navTracker"), ("/settings", "navSettings"),
    ]

    package func response(_ assets: WebAssets, viewer: Viewer, random: RandomSource = .system) -> Response {
        let texts = assets.texts(viewer.language)
        let nonce = Data(random.bytes(16)).base64EncodedString()
        var root: [String: Any] = [
            "lang": viewer.language.rawValue,
            "dir": viewer.language == .arabic ? "rtl" : "ltr",
            "title": title,
            "t": texts,
            "css": assets.url("app.css"),
            "js": assets.url("app.js"),
            "installJs": assets.url("install.js"),
            "icon": assets.url("icon.svg"),
            "touchIcon": assets.url("apple-touch-icon.png"),
            "nonce": nonce,
            "page": page,
            "otherLanguage": viewer.language == .arabic ? "en" : "ar",
            "otherLanguageName": viewer.language == .arabic ? "English" : "العربية",
        ]
        if !style.isEmpty { root["pageStyle"] = style }
        root["scripts"] = scripts.map(assets.url)
        root["stylesheets"] = stylesheets.map(assets.url)
        if let csrf = viewer.csrf { root["csrf"] = csrf }
        if let identity = viewer.identity {
            root["user"] = ["name": identity.account.displayName, "email": identity.account.email.value]
            root["nav"] = Self.sections.map { section -> [String: Any] in
                ["href": section.href, "label": texts[section.key] ?? section.key, "current": viewer.path.hasPrefix(section.href)]
            }
            root["unread"] = viewer.unread
            root["hasUnread"] = viewer.unread > 0
        }
        let html = assets.templates.render(root, withTemplate: template) ?? "template \(template) is missing"
        var headers: HTTPFields = [
            .contentType: "text/html; charset=utf-8",
            .contentSecurityPolicy: Self.contentSecurityPolicy(nonce: nonce),
            .cacheControl: "no-store",
            .xContentTypeOptions: "nosniff",
            .referrerPolicy: "same-origin",
        ]
        // The service worker keeps pages of this session only (InstallableApp).
        if let identity = viewer.identity { headers[InstallableApp.sessionTagHeader] = InstallableApp.sessionTag(identity.session.id) }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    /// Nothing from any other host, no inline script; styles only from our file and the page's
    /// nonce'd block.
    package static func contentSecurityPolicy(nonce: String) -> String {
        "default-src 'none'; script-src 'self'; style-src 'self' 'nonce-\(nonce)'; img-src 'self' data:; connect-src 'self'; "
            + "form-action 'self'; frame-ancestors 'none'; base-uri 'none'; manifest-src 'self'; worker-src 'self'"
    }

    /// A redirect after a form: 303, so the browser GETs the next page.
    package static func redirect(_ location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location, .cacheControl: "no-store"])
    }
}

extension HTTPField.Name {
    package static let xContentTypeOptions = Self("X-Content-Type-Options")!
    package static let referrerPolicy = Self("Referrer-Policy")!
}

/// The language of a page before sign-in: the `jadwal_lang` cookie (set by the language link),
/// else the browser's first choice among ours, else English. Signed in, the profile decides.
package enum WebLanguage {
    package static let cookie = "jadwal_lang"

    package static func of(_ request: Request, account: Account?) -> Language {
        if let account { return account.language }
        if let chosen = request.cookies[cookie].flatMap({ Language(rawValue: $0.value) }) { return chosen }
        for range in (request.headers[.acceptLanguage] ?? "").split(separator: ",") {
            let tag = range.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
            if tag.hasPrefix("ar") { return .arabic }
            if tag.hasPrefix("en") { return .english }
        }
        return .english
    }
}

extension WebPage {
    /// A name as one path segment. Almost every name is `<uuid>.ics`, which needs no escaping:
    /// checking the bytes first spares Foundation's percent-encoder (a tenth of a month page's time).
    package static func pathSegment(_ name: String) -> String {
        let plain = !name.isEmpty && name.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"): true
            default: false
            }
        }
        if plain { return name }
        return name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(.init(charactersIn: "/"))) ?? name
    }
}
