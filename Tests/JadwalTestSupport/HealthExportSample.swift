import Foundation
import ZIPFoundation

/// A small Apple Health export in the Health app's own shape, shared by the storage, API, web and
/// CLI tests of the import (each target needs the same file, so it lives here).
public enum HealthExportSample {
    /// The instant the goal and tracker tests start at (Monday 21 September 2026, Riyadh).
    public static let t0 = Date(timeIntervalSince1970: 1_790_000_000)

    /// An export.xml with the given nights (Watch sleep samples) and workouts, local times in +0300.
    public static func export(nights: [(String, String)], workouts: [(String, String, String)] = []) -> String {
        var xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE HealthData [
            <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary)*)>
            ]>
            <HealthData locale="ar_SA">
             <ExportDate value="2026-09-21 17:00:00 +0300"/>

            """
        for (start, end) in nights {
            xml += " <Record type=\"HKCategoryTypeIdentifierSleepAnalysis\" sourceName=\"Watch\" startDate=\"\(start) +0300\" endDate=\"\(end) +0300\" value=\"HKCategoryValueSleepAnalysisAsleepCore\"/>\n"
        }
        for (type, start, end) in workouts {
            xml += " <Workout workoutActivityType=\"\(type)\" duration=\"30\" durationUnit=\"min\" sourceName=\"Watch\" startDate=\"\(start) +0300\" endDate=\"\(end) +0300\"/>\n"
        }
        return xml + "</HealthData>\n"
    }

    /// Writes the XML to a temporary file, as it is or as the Health app's export.zip.
    public static func write(_ text: String, zipped: Bool) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("export-\(UUID().uuidString).\(zipped ? "zip" : "xml")")
        let data = Data(text.utf8)
        if zipped {
            let archive = try Archive(url: url, accessMode: .create)
            try archive.addEntry(with: "apple_health_export/export.xml", type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate) {
                data.subdata(in: Int($0)..<Int($0) + $1)
            }
        } else {
            try data.write(to: url)
        }
        return url
    }
}
