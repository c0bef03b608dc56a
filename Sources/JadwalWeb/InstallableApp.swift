import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import JadwalCore
import JadwalHTTP

/// What makes the web app installable on a phone's home screen and readable offline: the web
/// app manifest, the icons (static/icon*.png, rendered from static/icon.svg), and the service
/// worker at the root (its scope is the whole app). The worker keeps the shell (the versioned
/// scripts, styles and icons) and the last day view, for one session only: every signed-in page
/// carries a tag of its session, and a page of another session, or of none, empties what was kept.
package enum InstallableApp {
    /// The header a signed-in page carries: a digest of its session (not a credential).
    package static let sessionTagHeader = HTTPField.Name("X-Jadwal-Session-Tag")!

    package static func sessionTag(_ sessionID: UUID) -> String {
        SHA256.hash(data: Data("jadwal page cache \(sessionID.uuidString.lowercased())".utf8)).prefix(8).map { String(format: "%02x", $0) }.joined()
    }

    /// The files every page needs, kept by the worker at install.
    static let shell = ["app.css", "app.js", "install.js", "icon.svg", "icon-192.png", "icon-512.png"]

    static let icons: [(name: String, size: String, purpose: String)] = [
        ("icon.svg", "any", "any"), ("icon-192.png", "192x192", "any"), ("icon-512.png", "512x512", "any"),
        ("icon-maskable-512.png", "512x512", "maskable"),
    ]

    /// The manifest, in the language the browser asks for (it is fetched without cookies).
    static func manifest(assets: WebAssets, language: Language) -> [String: Any] {
        let texts = assets.texts(language)
        return [
            "id": "/",
            "name": texts.text("appName"),
            "short_name": texts.text("appName"),
            "description": texts.text("installDescription"),
            "lang": language.rawValue,
            "dir": language == .arabic ? "rtl" : "ltr",
            "start_url": "/",
            "scope": "/",
            "display": "standalone",
            "background_color": "#ffffff",
            "theme_color": "#0b6e4f",
            "categories": ["productivity", "lifestyle"],
            "icons": icons.map { icon -> [String: String] in
                [
                    "src": assets.url(icon.name), "sizes": icon.size, "purpose": icon.purpose,
                    "type": icon.name.hasSuffix(".svg") ? "image/svg+xml" : "image/png",
                ]
            },
        ]
    }

    /// The worker's script: static/sw.js with this build's shell addresses and texts put in, so a
    /// new build is a new worker (browsers compare the bytes) and drops the old shell.
    static func worker(assets: WebAssets) -> String {
        guard let file = assets.files["sw.js"] else { return "" }
        let shellURLs = shell.map(assets.url)
        let version = SHA256.hash(data: Data(shellURLs.joined(separator: " ").utf8)).prefix(6).map { String(format: "%02x", $0) }.joined()
        let english = assets.texts(.english)
        let arabic = assets.texts(.arabic)
        let config: [String: Any] = [
            "version": version, "shell": shellURLs, "css": assets.url("app.css"), "header": sessionTagHeader.rawName,
            "offline": ["en": english.text("offlineNote"), "ar": arabic.text("offlineNote")],
            "offlineTitle": ["en": english.text("offlineTitle"), "ar": arabic.text("offlineTitle")],
            "offlineBody": ["en": english.text("offlineBody"), "ar": arabic.text("offlineBody")],
        ]
        let json = (try? JSONSerialization.data(withJSONObject: config, options: [.sortedKeys, .withoutEscapingSlashes]))
            .map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return String(decoding: file.bytes, as: UTF8.self).replacingOccurrences(of: "/*CONFIG*/{}", with: json)
    }
}

extension WebRoutes {
    package func addInstallRoutes(to router: Router<JadwalRequestContext>) {
        router.get("manifest.webmanifest") { request, _ -> Response in
            let manifest = InstallableApp.manifest(assets: assets, language: WebLanguage.of(request, account: nil))
            let body = try JSONSerialization.data(withJSONObject: manifest, options: [.sortedKeys, .withoutEscapingSlashes])
            return Response(
                status: .ok,
                headers: [
                    .contentType: "application/manifest+json", .cacheControl: "no-cache", .xContentTypeOptions: "nosniff", .vary: "Accept-Language, Cookie",
                ],
                body: .init(byteBuffer: ByteBuffer(bytes: body)))
        }
        router.get("sw.js") { _, _ -> Response in
            Response(
                status: .ok,
                headers: [
                    .contentType: "text/javascript; charset=utf-8", .xContentTypeOptions: "nosniff",
                    // Browsers check for a new worker on navigation; never from a stale copy.
                    .cacheControl: "no-cache",
                ],
                body: .init(byteBuffer: ByteBuffer(string: InstallableApp.worker(assets: assets))))
        }
    }
}
