import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ZIPFoundation

/// Calendars as downloads, the same from the JSON API and the web app: one calendar as an
/// `.ics` file, or every calendar as a zip of them (`CalendarTransfer` writes the documents).
package enum CalendarDownload {
    /// `fileName` must be safe inside a quoted header value (calendar slugs are).
    package static func ics(_ text: String, fileName: String) -> Response {
        let bytes = ByteBuffer(string: text)
        return Response(
            status: .ok,
            headers: [
                .contentType: "text/calendar; charset=utf-8", .contentDisposition: "attachment; filename=\"\(fileName)\"",
                .contentLength: String(bytes.readableBytes), .cacheControl: "no-store",
            ],
            body: .init(byteBuffer: bytes))
    }

    package static func zip(_ files: [(fileName: String, text: String)], named name: String = "jadwal-calendars.zip") throws -> Response {
        zipResponse(try archive(files.map { (path: $0.fileName, data: Data($0.text.utf8)) }), named: name)
    }

    /// Files as one zip archive (deflated), in the order given: what the exports download and
    /// what `jadwal export` writes.
    package static func archive(_ files: [(path: String, data: Data)]) throws -> Data {
        let archive = try Archive(accessMode: .create)
        for file in files {
            let data = file.data
            try archive.addEntry(with: file.path, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        return archive.data ?? Data()
    }

    /// `name` must be safe inside a quoted header value (ASCII, no quotes).
    package static func zipResponse(_ zipped: Data, named name: String) -> Response {
        Response(
            status: .ok,
            headers: [
                .contentType: "application/zip", .contentDisposition: "attachment; filename=\"\(name)\"", .contentLength: String(zipped.count),
                .cacheControl: "no-store",
            ],
            body: .init(byteBuffer: ByteBuffer(bytes: zipped)))
    }
}
