import Crypto
import Foundation
import JadwalCore
import JadwalHTTP
import Mustache

/// The web app's files, read once at start from the resources that travel with the binary:
/// Mustache templates, the static scripts and styles, and the English and Arabic texts.
package struct WebAssets: Sendable {
    /// A static file held in memory, served with a content hash as its version.
    package struct StaticFile: Sendable {
        package let bytes: [UInt8]
        package let contentType: String
        /// The first 16 hex digits of its SHA-256: the ETag and the `?v=` that lets browsers keep it a year.
        package let version: String
    }

    package let templates: MustacheLibrary
    package let files: [String: StaticFile]
    package let texts: [Language: [String: String]]

    package enum Problem: Error, CustomStringConvertible {
        case missing(String)
        case unreadable(String, String)

        package var description: String {
            switch self {
            case .missing(let path):
                "the web app's files are missing (\(path)); keep the jadwal_JadwalWeb.resources folder beside the jadwal binary"
            case .unreadable(let path, let reason): "cannot read the web app's file \(path): \(reason)"
            }
        }
    }

    /// The folder SwiftPM copies beside the binary.
    package static func bundled() async throws -> WebAssets {
        guard let root = bundledRoot else { throw Problem.missing("Assets") }
        return try await load(from: root)
    }

    package static var bundledRoot: URL? { Bundle.module.url(forResource: "Assets", withExtension: nil) }

    package static func load(from root: URL) async throws -> WebAssets {
        let templates: MustacheLibrary
        do {
            templates = try await MustacheLibrary(directory: root.appendingPathComponent("templates").path)
        } catch {
            throw Problem.unreadable("templates", "\(error)")
        }
        var files: [String: StaticFile] = [:]
        let staticFolder = root.appendingPathComponent("static")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: staticFolder.path)) ?? []
        for name in names.sorted() {
            guard let type = contentTypes[(name as NSString).pathExtension] else { continue }
            let data: Data
            do {
                data = try Data(contentsOf: staticFolder.appendingPathComponent(name))
            } catch {
                throw Problem.unreadable("static/\(name)", "\(error)")
            }
            let digest = SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
            files[name] = StaticFile(bytes: Array(data), contentType: type, version: String(digest.prefix(16)))
        }
        var texts: [Language: [String: String]] = [:]
        for language in Language.allCases {
            // One file per screen (`text/en/calendar.json`); a key may live in one file only.
            let folder = root.appendingPathComponent("text/\(language.rawValue)")
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
            guard !names.isEmpty else { throw Problem.missing("text/\(language.rawValue)") }
            var table: [String: String] = [:]
            for name in names {
                let path = "text/\(language.rawValue)/\(name)"
                let part: [String: String]
                do {
                    part = try JSONDecoder().decode([String: String].self, from: Data(contentsOf: folder.appendingPathComponent(name)))
                } catch {
                    throw Problem.unreadable(path, "\(error)")
                }
                if let repeated = part.keys.first(where: { table[$0] != nil }) { throw Problem.unreadable(path, "the text '\(repeated)' is also in another file") }
                table.merge(part) { first, _ in first }
            }
            texts[language] = table
        }
        return WebAssets(templates: templates, files: files, texts: texts)
    }

    package static let contentTypes = [
        "js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8", "svg": "image/svg+xml", "png": "image/png",
        "ico": "image/x-icon", "webmanifest": "application/manifest+json",
    ]

    /// `/static/<name>?v=<version>`, the address pages link to.
    package func url(_ name: String) -> String {
        "/static/\(name)" + (files[name].map { "?v=\($0.version)" } ?? "")
    }

    /// The texts of a language; a key missing in Arabic falls back to English rather than showing nothing.
    package func texts(_ language: Language) -> [String: String] {
        let english = texts[.english] ?? [:]
        guard language != .english, let own = texts[language] else { return english }
        return english.merging(own) { _, translated in translated }
    }
}
