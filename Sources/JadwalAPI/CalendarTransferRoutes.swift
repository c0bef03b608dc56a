import Foundation
import HTTPTypes
import Hummingbird
import JadwalCore
import JadwalHTTP
import NIOCore
import ZIPFoundation

/// `.ics` in and out: `POST /api/v1/calendars/{id}/import` (a `text/calendar` body, e.g. a
/// Google, Apple or Outlook export) and `GET /api/v1/export` (a zip of one `.ics` per calendar).
/// The rules are `CalendarTransfer`'s.
package struct CalendarTransferRoutes: Sendable {
    package let transfer: CalendarTransfer
    package let calendars: Calendars
    /// The largest file an import takes.
    package let importLimit: Int

    package init(transfer: CalendarTransfer, calendars: Calendars, importLimit: Int = 64 << 20) {
        self.transfer = transfer
        self.calendars = calendars
        self.importLimit = importLimit
    }

    package struct ReportView: Encodable, Sendable {
        struct Problem: Encodable, Sendable {
            let line: Int
            let component: String
            let reason: String
            let skipped: Bool
        }

        let components: Int
        let created: Int
        let updated: Int
        let unchanged: Int
        let skippedExisting: Int
        let problemCount: Int
        /// The first 200.
        let problems: [Problem]

        package init(_ report: CalendarTransfer.Report) {
            components = report.components
            created = report.created
            updated = report.updated
            unchanged = report.unchanged
            skippedExisting = report.skippedExisting
            problemCount = report.problems.count
            problems = report.problems.prefix(200).map { Problem(line: $0.line, component: $0.component, reason: $0.reason, skipped: $0.skipped) }
        }
    }

    package func addRoutes(to group: RouterGroup<JadwalRequestContext>) {
        group.post("calendars/{id}/import") { request, context in
            let calendar = try await CalendarRoutes.ownCalendar(context, calendars: calendars)
            let existing: CalendarTransfer.Existing
            if let text = request.uri.queryParameters["existing"].map(String.init) {
                guard let value = CalendarTransfer.Existing(rawValue: text) else {
                    throw APIError.badRequest("invalid_field", "Query 'existing' must be update or skip, not \(text).")
                }
                existing = value
            } else {
                existing = .update
            }
            if let type = request.headers[.contentType], !type.lowercased().hasPrefix("text/calendar"), !type.lowercased().hasPrefix("text/plain"),
               !type.lowercased().hasPrefix("application/octet-stream") {
                throw APIError(.unsupportedMediaType, code: "unsupported_media_type", message: "Send the file as text/calendar (an .ics file), not \(type).")
            }
            let body: ByteBuffer
            do {
                body = try await request.body.collect(upTo: importLimit)
            } catch is NIOTooManyBytesError {
                throw APIError(.contentTooLarge, code: "too_large", message: "The file is larger than \(importLimit >> 20) MiB.")
            }
            let report = try await transfer.importDocument(Array(body.readableBytesView), into: calendar, existing: existing)
            return JSONResponse(ReportView(report))
        }
        group.get("export") { _, context -> Response in
            let accountID = try context.requireIdentity().account.id
            let files = try await transfer.exportAll(accountID: accountID)
            let archive = try Archive(accessMode: .create)
            for file in files {
                let data = Data(file.text.utf8)
                try archive.addEntry(with: file.fileName, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate) { position, size in
                    data.subdata(in: Int(position)..<Int(position) + size)
                }
            }
            let zipped = archive.data ?? Data()
            return Response(
                status: .ok,
                headers: [.contentType: "application/zip", .contentDisposition: "attachment; filename=\"jadwal-calendars.zip\""],
                body: .init(byteBuffer: ByteBuffer(bytes: zipped)))
        }
    }
}
