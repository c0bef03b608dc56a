import Foundation
import JadwalCore
import Testing
import ZIPFoundation

/// Apple Health's export read as it streams: a small sample written in the export's own format
/// (its DOCTYPE, entities, nested metadata, old and new sleep values, workouts with children),
/// chunk boundaries anywhere, the faults a cut or wrong file has, and the zip around it.
@Suite("Apple Health export")
struct HealthExportTests {
    /// The shape of `apple_health_export/export.xml` as iOS 17 writes it (HealthKit Export
    /// Version 13): the document type with its internal subset, the export date, `Me`, records
    /// with metadata children, sleep from a Watch (stages) and from the Clock app (in bed), an
    /// iOS 12 night with the old `Asleep` value, workouts with statistics, events and a route.
    static let sample = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE HealthData [
        <!-- HealthKit Export Version: 13 -->
        <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord|Audiogram|VisionPrescription)*)>
        <!ATTLIST HealthData
          locale CDATA #REQUIRED
        >
        <!ELEMENT ExportDate EMPTY>
        <!ATTLIST ExportDate
          value CDATA #REQUIRED
        >
        <!ELEMENT Me EMPTY>
        <!ATTLIST Me
          HKCharacteristicTypeIdentifierDateOfBirth         CDATA #REQUIRED
          HKCharacteristicTypeIdentifierBiologicalSex       CDATA #REQUIRED
        >
        <!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>
        <!ATTLIST Record
          type          CDATA #REQUIRED
          unit          CDATA #IMPLIED
          value         CDATA #IMPLIED
          sourceName    CDATA #REQUIRED
          startDate     CDATA #REQUIRED
          endDate       CDATA #REQUIRED
        >
        <!-- Note: Any Records that appear as children of a correlation also appear as top-level records in this document. -->
        <!ELEMENT Workout ((MetadataEntry|WorkoutEvent|WorkoutRoute|WorkoutStatistics)*)>
        <!ATTLIST Workout
          workoutActivityType   CDATA #REQUIRED
          duration              CDATA #IMPLIED
          durationUnit          CDATA #IMPLIED
          sourceName            CDATA #REQUIRED
          startDate             CDATA #REQUIRED
          endDate               CDATA #REQUIRED
        >
        <!ELEMENT FileReference EMPTY>
        <!ATTLIST FileReference
          path CDATA #REQUIRED
        >
        ]>
        <HealthData locale="en_SA">
         <ExportDate value="2024-01-10 09:15:22 +0300"/>
         <Me HKCharacteristicTypeIdentifierDateOfBirth="1990-04-02" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale"/>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Huda&apos;s iPhone" sourceVersion="17.2" device="&lt;&lt;HKDevice: 0x2820f8b40&gt;, name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:iPhone15,2, software:17.2&gt;" unit="count" creationDate="2024-01-08 08:31:10 +0300" startDate="2024-01-08 08:20:51 +0300" endDate="2024-01-08 08:29:48 +0300" value="412"/>
         <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Huda’s Apple Watch" sourceVersion="10.2" unit="count/min" creationDate="2024-01-08 09:01:02 +0300" startDate="2024-01-08 08:59:31 +0300" endDate="2024-01-08 08:59:31 +0300" value="72">
          <MetadataEntry key="HKMetadataKeyHeartRateMotionContext" value="0"/>
         </Record>
         <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Clock" sourceVersion="50" creationDate="2024-01-08 06:21:00 +0300" startDate="2024-01-07 23:10:00 +0300" endDate="2024-01-08 06:20:00 +0300" value="HKCategoryValueSleepAnalysisInBed"/>
         <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Huda’s Apple Watch" sourceVersion="10.2" creationDate="2024-01-08 07:02:11 +0300" startDate="2024-01-07 23:31:00 +0300" endDate="2024-01-08 00:02:30 +0300" value="HKCategoryValueSleepAnalysisAsleepCore">
          <MetadataEntry key="HKTimeZone" value="Asia/Riyadh"/>
         </Record>
         <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Huda’s Apple Watch" sourceVersion="10.2" creationDate="2024-01-08 07:02:11 +0300" startDate="2024-01-08 00:02:30 +0300" endDate="2024-01-08 00:40:00 +0300" value="HKCategoryValueSleepAnalysisAsleepDeep"/>
         <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Huda’s Apple Watch" sourceVersion="10.2" creationDate="2024-01-08 07:02:11 +0300" startDate="2024-01-08 00:40:00 +0300" endDate="2024-01-08 01:10:00 +0300" value="HKCategoryValueSleepAnalysisAsleepREM"/>
         <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Huda’s Apple Watch" sourceVersion="10.2" creationDate="2024-01-08 07:02:11 +0300" startDate="2024-01-08 01:10:00 +0300" endDate="2024-01-08 01:20:00 +0300" value="HKCategoryValueSleepAnalysisAwake"/>
         <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Huda’s Apple Watch" sourceVersion="10.2" creationDate="2024-01-08 07:02:11 +0300" startDate="2024-01-08 01:20:00 +0300" endDate="2024-01-08 06:05:00 +0300" value="HKCategoryValueSleepAnalysisAsleepCore"/>
         <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Sleep Cycle" sourceVersion="1" creationDate="2024-01-09 15:00:00 +0300" startDate="2024-01-09 14:00:00 +0300" endDate="2024-01-09 14:40:00 +0300" value="HKCategoryValueSleepAnalysisAsleepUnspecified"/>
         <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Huda’s iPhone" sourceVersion="12.1.4" creationDate="2019-03-02 07:16:00 +0300" startDate="2019-03-01 23:30:00 +0300" endDate="2019-03-02 07:30:00 +0300" value="HKCategoryValueSleepAnalysisInBed"/>
         <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="AutoSleep" sourceVersion="5.1" creationDate="2019-03-02 07:16:00 +0300" startDate="2019-03-01 23:45:00 +0300" endDate="2019-03-02 07:15:00 +0300" value="HKCategoryValueSleepAnalysisAsleep"/>
         <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Huda’s iPhone" sourceVersion="11.3" creationDate="2018-05-11 06:41:00 +0300" startDate="2018-05-10 22:50:00 +0300" endDate="2018-05-11 06:40:00 +0300" value="HKCategoryValueSleepAnalysisInBed"/>
         <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Broken" sourceVersion="1" startDate="yesterday" endDate="2018-05-12 06:40:00 +0300" value="HKCategoryValueSleepAnalysisAsleep"/>
         <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="32.18181818181818" durationUnit="min" sourceName="Huda’s Apple Watch" sourceVersion="10.2" creationDate="2024-01-09 07:05:40 +0300" startDate="2024-01-09 06:33:28 +0300" endDate="2024-01-09 07:05:39 +0300">
          <MetadataEntry key="HKIndoorWorkout" value="0"/>
          <MetadataEntry key="HKAverageMETs" value="10.2 kcal/hr·kg"/>
          <WorkoutEvent type="HKWorkoutEventTypeSegment" date="2024-01-09 06:33:28 +0300" duration="9.87" durationUnit="min"/>
          <WorkoutStatistics type="HKQuantityTypeIdentifierDistanceWalkingRunning" startDate="2024-01-09 06:33:28 +0300" endDate="2024-01-09 07:05:39 +0300" sum="5.0112" unit="km"/>
          <WorkoutRoute sourceName="Huda’s Apple Watch" sourceVersion="10.2" creationDate="2024-01-09 07:06:00 +0300" startDate="2024-01-09 06:33:28 +0300" endDate="2024-01-09 07:05:39 +0300">
           <MetadataEntry key="HKMetadataKeySyncVersion" value="2"/>
           <FileReference path="/workout-routes/route_2024-01-09_7.05am.gpx"/>
          </WorkoutRoute>
         </Workout>
         <Workout workoutActivityType="HKWorkoutActivityTypeTraditionalStrengthTraining" duration="2700" durationUnit="s" sourceName="Gym App" startDate="2024-01-08 18:00:00 +0300" endDate="2024-01-08 18:45:00 +0300"/>
         <Workout workoutActivityType="HKWorkoutActivityTypeSwimming" sourceName="Huda’s Apple Watch" startDate="2023-12-30 07:00:00 +0300" endDate="2023-12-30 07:40:00 +0300"></Workout>
         <ActivitySummary dateComponents="2024-01-09" activeEnergyBurned="512.3" activeEnergyBurnedGoal="500" activeEnergyBurnedUnit="Cal" appleExerciseTime="41" appleExerciseTimeGoal="30" appleStandHours="11" appleStandHoursGoal="12"/>
        </HealthData>

        """

    static func date(_ text: String) -> Date {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss Z"
        return formatter.date(from: text) ?? .distantPast
    }

    static func read(_ text: String, chunk: Int = .max) throws -> HealthExportReader {
        var reader = HealthExportReader()
        let bytes = Array(text.utf8)
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + chunk)
            try bytes[start..<end].withUnsafeBytes { try reader.read($0) }
            start = end
        }
        try reader.finish()
        return reader
    }

    @Test("the sample: every sleep sample and workout, old and new values, entities decoded, the bad record listed with its line")
    func sample() throws {
        let reader = try Self.read(Self.sample)
        #expect(reader.records == 13)
        #expect(reader.exportDate == Self.date("2024-01-10 09:15:22 +0300"))
        #expect(reader.sleep.count == 10)
        #expect(reader.sleep.filter { $0.stage == .asleep }.count == 6 && reader.sleep.filter { $0.stage == .inBed }.count == 3)
        #expect(reader.sleep.filter { $0.stage == .awake }.count == 1)
        #expect(reader.problems == [HealthExportReader.Problem(line: 60, reason: "startDate \"yesterday\" is not a date such as 2024-01-05 23:10:00 +0300")])
        #expect(reader.workouts.map(\.kind) == ["running", "traditional-strength-training", "swimming"])
        #expect(reader.workouts.map { $0.minutes.rounded() } == [32, 45, 40])
        #expect(reader.workouts[0].start == Self.date("2024-01-09 06:33:28 +0300") && reader.workouts[0].line == 61)

        let nights = HealthSleep.nights(from: reader.sleep)
        #expect(nights.map(\.start) == ["2018-05-10 22:50:00 +0300", "2019-03-01 23:45:00 +0300", "2024-01-07 23:31:00 +0300", "2024-01-09 14:00:00 +0300"].map(Self.date))
        #expect(nights.map(\.end) == ["2018-05-11 06:40:00 +0300", "2019-03-02 07:15:00 +0300", "2024-01-08 06:05:00 +0300", "2024-01-09 14:40:00 +0300"].map(Self.date))
        // The Watch's night: 23:31–01:10 and 01:20–06:05 asleep; the Clock's time in bed adds nothing.
        #expect(nights.map(\.minutes) == [470, 450, 99 + 285, 40])
        #expect(nights.map(\.inBedOnly) == [true, false, false, false])
    }

    @Test("chunk boundaries anywhere (inside a tag, an entity, the DOCTYPE, a line end) read the same")
    func chunks() throws {
        let whole = try Self.read(Self.sample)
        for size in [1, 2, 3, 7, 13, 64, 333, 4096] {
            let chunked = try Self.read(Self.sample, chunk: size)
            #expect(chunked.sleep == whole.sleep && chunked.workouts == whole.workouts, "chunks of \(size)")
            #expect(chunked.problems == whole.problems && chunked.records == whole.records, "chunks of \(size)")
        }
    }

    @Test("files that are not an export, or are cut short, are refused with their line")
    func faults() throws {
        func fault(_ text: String) -> HealthExportReader.Malformed? {
            do {
                _ = try Self.read(text)
                return nil
            } catch {
                return error as? HealthExportReader.Malformed
            }
        }
        let cut = String(Self.sample.prefix(Self.sample.utf8.count / 2))
        let cutFault = try #require(fault(cut))
        #expect(cutFault.reason.contains("cut short"))
        #expect(cutFault.line > 40)

        let broken = Self.sample.replacingOccurrences(of: "<Workout workoutActivityType=\"HKWorkoutActivityTypeSwimming\"",
                                                      with: "<Workout workoutActivityType=\"HKWorkoutActivityTypeSwimming <Record")
        #expect(fault(broken) == HealthExportReader.Malformed(line: 72, reason: "'<' inside a tag: the tag before it never ends"))

        #expect(fault("<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"/>")?.reason
            == "the first element is <svg>, not <HealthData>: this is not the export.xml of Apple Health")
        #expect(fault("Date,Steps\n2024-01-01,400\n")?.reason.contains("does not start with XML") == true)
        #expect(fault("")?.reason.contains("no <HealthData>") == true)
        var utf16 = HealthExportReader()
        #expect(throws: HealthExportReader.Malformed.self) {
            try [UInt8]([0xFF, 0xFE, 0x3C, 0x00]).withUnsafeBytes { try utf16.read($0) }
        }
        let noEnd = Self.sample.replacingOccurrences(of: "</HealthData>", with: "")
        #expect(fault(noEnd)?.reason.contains("</HealthData> is missing") == true)
        // A tag that never ends is refused once it passes the limit, not held without end.
        var endless = HealthExportReader()
        let head = Array("<HealthData><Record type=\"".utf8)
        try head.withUnsafeBytes { try endless.read($0) }
        let megabyte = [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 20)
        #expect(throws: HealthExportReader.Malformed.self) {
            for _ in 0..<2 { try megabyte.withUnsafeBytes { try endless.read($0) } }
        }
    }

    @Test("nights: sources overlaid, a waking inside a night, naps apart, in bed only where nothing was asleep")
    func nights() throws {
        func sample(_ start: String, _ end: String, _ stage: HealthExportReader.SleepSample.Stage) -> HealthExportReader.SleepSample {
            HealthExportReader.SleepSample(start: Self.date("2024-02-01 \(start):00 +0000"), end: Self.date("2024-02-01 \(end):00 +0000"), stage: stage, line: 1)
        }
        let nights = HealthSleep.nights(from: [
            sample("01:00", "03:00", .asleep), sample("02:00", "04:00", .asleep),  // two sources overlap: 01–04, 180 min
            sample("05:30", "07:00", .asleep),  // woke for 1 h 30: the same night, +90
            sample("10:00", "10:20", .asleep),  // 3 h later: a nap of its own
            sample("00:30", "07:30", .inBed),  // in bed around the night: adds nothing
            sample("20:00", "23:00", .inBed),  // in bed with nothing asleep: counted as it is
            sample("12:00", "12:30", .awake),
        ])
        #expect(nights.map(\.minutes) == [270, 20, 180])
        #expect(nights.map(\.inBedOnly) == [false, false, true])
        #expect(nights.first?.start == Self.date("2024-02-01 01:00:00 +0000") && nights.first?.end == Self.date("2024-02-01 07:00:00 +0000"))
    }

    static func zip(_ entries: [(String, Data)], method: CompressionMethod = .deflate) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("health-\(UUID().uuidString).zip")
        let archive = try Archive(url: url, accessMode: .create)
        for (path, data) in entries {
            try archive.addEntry(with: path, type: .file, uncompressedSize: Int64(data.count), compressionMethod: method) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        return url
    }

    @Test("the zip: export.xml found beside the other files, inflated in chunks; damaged and cut archives fail, never hang")
    func archive() throws {
        let xml = Data(Self.sample.utf8)
        for method in [CompressionMethod.deflate, .none] {
            let url = try Self.zip([
                ("apple_health_export/export_cda.xml", Data("<ClinicalDocument/>".utf8)),
                ("apple_health_export/workout-routes/route_2024-01-09_7.05am.gpx", Data("<gpx/>".utf8)),
                ("apple_health_export/export.xml", xml),
            ], method: method)
            defer { try? FileManager.default.removeItem(at: url) }
            let entry = try HealthExportArchive.exportEntry(in: url)
            #expect(entry.path == "apple_health_export/export.xml" && entry.uncompressedSize == Int64(xml.count))
            var read = Data()
            var chunks = 0
            try HealthExportArchive.read(entry, in: url, chunkSize: 1024) { chunk in
                read.append(contentsOf: chunk)
                chunks += 1
            }
            #expect(read == xml)
            #expect(chunks >= xml.count / 1024)
        }

        let noExport = try Self.zip([("notes.txt", Data("hello".utf8))])
        defer { try? FileManager.default.removeItem(at: noExport) }
        #expect(throws: HealthExportArchive.Problem.noExport(found: ["notes.txt"])) { try HealthExportArchive.exportEntry(in: noExport) }

        // Cut: the end of the archive is gone, so is its directory.
        let whole = try Self.zip([("apple_health_export/export.xml", xml)])
        defer { try? FileManager.default.removeItem(at: whole) }
        let bytes = try Data(contentsOf: whole)
        let cut = FileManager.default.temporaryDirectory.appendingPathComponent("cut-\(UUID().uuidString).zip")
        defer { try? FileManager.default.removeItem(at: cut) }
        try bytes.prefix(bytes.count / 2).write(to: cut)
        #expect(throws: HealthExportArchive.Problem.notAZip) { try HealthExportArchive.exportEntry(in: cut) }

        // Damaged: the compressed bytes changed under an intact directory. The inflater stops
        // with an error (or the checksum does not match); it never waits for more.
        let entry = try HealthExportArchive.exportEntry(in: whole)
        var damaged = bytes
        let middle = Int(entry.dataStart) + Int(entry.compressedSize) / 2
        for index in middle..<min(middle + 64, damaged.count) { damaged[index] ^= 0x5A }
        let damagedURL = FileManager.default.temporaryDirectory.appendingPathComponent("damaged-\(UUID().uuidString).zip")
        defer { try? FileManager.default.removeItem(at: damagedURL) }
        try damaged.write(to: damagedURL)
        let damagedEntry = try HealthExportArchive.exportEntry(in: damagedURL)
        #expect(throws: HealthExportArchive.Problem.damaged(name: "apple_health_export/export.xml")) {
            try HealthExportArchive.read(damagedEntry, in: damagedURL) { _ in }
        }
        // The directory claims fewer compressed bytes than the stream needs: the inflater runs out
        // of input and stops with an error instead of waiting for more.
        var short = bytes
        let sizeOffset = try #require(Self.centralDirectorySizeOffset(in: short))
        let claimed = UInt32(entry.compressedSize - 10)
        short.replaceSubrange(sizeOffset..<sizeOffset + 4, with: withUnsafeBytes(of: claimed.littleEndian, Array.init))
        let shortURL = FileManager.default.temporaryDirectory.appendingPathComponent("short-\(UUID().uuidString).zip")
        defer { try? FileManager.default.removeItem(at: shortURL) }
        try short.write(to: shortURL)
        let shortEntry = try HealthExportArchive.exportEntry(in: shortURL)
        #expect(throws: HealthExportArchive.Problem.damaged(name: "apple_health_export/export.xml")) {
            try HealthExportArchive.read(shortEntry, in: shortURL) { _ in }
        }
    }

    /// Where the first central directory header keeps its compressed size.
    static func centralDirectorySizeOffset(in data: Data) -> Int? {
        let signature: [UInt8] = [0x50, 0x4B, 0x01, 0x02]
        guard let range = data.firstRange(of: signature) else { return nil }
        return range.lowerBound - data.startIndex + 20
    }
}
