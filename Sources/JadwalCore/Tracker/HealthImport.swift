import Foundation

/// Sleep as Health records it, made into nights: every source's samples (the Watch's stages,
/// the iPhone's bedtime, another app's) laid over each other, so a minute asleep in two sources
/// counts once.
///
/// - Asleep samples (any stage) are merged; stretches closer than ``wakeGap`` belong to one
///   sleep (waking for a while in the night does not end it), and a longer gap starts the next
///   (a nap is its own entry). The entry runs from the first minute asleep to the last, and its
///   value is the minutes asleep in between.
/// - In-bed samples count only where no asleep sample overlaps their stretch (older exports,
///   and iPhones without a Watch, record only time in bed); their value is the time in bed.
/// - Awake samples are not sleep; they add nothing.
public enum HealthSleep {
    public struct Night: Sendable, Hashable {
        public let start: Date
        public let end: Date
        public let minutes: Double
        /// From in-bed samples only (no source recorded sleep itself).
        public let inBedOnly: Bool
    }

    /// Gaps shorter than this, between stretches asleep, are a waking within one night.
    public static let wakeGap: TimeInterval = 2 * 3600

    public static func nights(from samples: [HealthExportReader.SleepSample]) -> [Night] {
        let asleep = clusters(samples.filter { $0.stage == .asleep }.map { ($0.start, $0.end) })
        let inBed = clusters(samples.filter { $0.stage == .inBed }.map { ($0.start, $0.end) })
        var nights = asleep.map { Night(start: $0.start, end: $0.end, minutes: $0.minutes, inBedOnly: false) }
        for cluster in inBed where !asleep.contains(where: { $0.start < cluster.end && cluster.start < $0.end }) {
            nights.append(Night(start: cluster.start, end: cluster.end, minutes: cluster.minutes, inBedOnly: true))
        }
        return nights.sorted { $0.start < $1.start }
    }

    /// Merged stretches grouped into sleeps: first start, last end, minutes covered.
    private static func clusters(_ intervals: [(Date, Date)]) -> [(start: Date, end: Date, minutes: Double)] {
        let sorted = intervals.filter { $0.1 > $0.0 }.sorted { $0.0 < $1.0 }
        var result: [(start: Date, end: Date, minutes: Double)] = []
        var current: (start: Date, end: Date, covered: TimeInterval)?
        for (start, end) in sorted {
            guard var open = current else {
                current = (start, end, end.timeIntervalSince(start))
                continue
            }
            if start <= open.end {
                // Overlaps what is open: only the part beyond it is new.
                if end > open.end {
                    open.covered += end.timeIntervalSince(open.end)
                    open.end = end
                }
                current = open
            } else if start.timeIntervalSince(open.end) < wakeGap {
                open.covered += end.timeIntervalSince(start)
                open.end = end
                current = open
            } else {
                result.append((open.start, open.end, open.covered / 60))
                current = (start, end, end.timeIntervalSince(start))
            }
        }
        if let open = current { result.append((open.start, open.end, open.covered / 60)) }
        return result
    }
}

/// Importing Apple Health's export into a person's tracker: nights of sleep and workouts, from
/// the `export.zip` the Health app writes or its `export.xml`. The file is read as it streams
/// (``HealthExportReader``), on a thread of its own, so a file of gigabytes costs the memory of
/// its sleep samples and workouts, not of the file.
///
/// Importing is idempotent. A workout is keyed by its activity, start and end, so importing the
/// same export twice adds nothing. A night is keyed by its first and last minute asleep; a later
/// export that knows more about a night (another source, a longer sleep) replaces the night an
/// earlier import stored wherever the two overlap, rather than adding a second one.
public struct HealthImport: Sendable {
    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// The zip could not be read, or holds no export.
        case archive(HealthExportArchive.Problem)
        /// The XML is not an export this reader follows; `file` is the path in the archive (or
        /// the file's name) and `line` where it went wrong.
        case malformed(file: String, line: Int, reason: String)
        case unreadable(String)

        public var description: String {
            switch self {
            case .archive(let problem): problem.description
            case .malformed(let file, let line, let reason): "\(file):\(line): \(reason)"
            case .unreadable(let reason): "cannot be read: \(reason)"
            }
        }
    }

    /// What an import read and did.
    public struct Report: Sendable, Equatable {
        /// The XML read: its path in the archive, or the file's name.
        public var file: String
        public var bytes: Int64
        public var records: Int
        public var sleepSamples: Int
        public var nights: Int
        public var workouts: Int
        /// Entries stored for the first time.
        public var added: Int
        /// Nights stored by an earlier import and replaced by this one's longer or fuller night.
        public var replaced: Int
        /// Already stored by an earlier import of the same data.
        public var unchanged: Int
        /// Records left out, with their line (at most ``HealthExportReader/problemLimit``).
        public var problems: [HealthExportReader.Problem]
        public var problemCount: Int
        public var exportDate: Date?
    }

    /// (bytes read, bytes in all) as the reading goes.
    public typealias Progress = @Sendable (Int64, Int64) -> Void

    public static let source = TrackerEntry.Source.appleHealth
    /// Entries written per transaction.
    static let batch = 500

    let store: StoreAccess<any JobStore & TrackerStore>
    let clock: Clock
    let random: RandomSource

    public init(store: any Store, clock: Clock, random: RandomSource) {
        self.store = StoreAccess(store) { $0 }
        self.clock = clock
        self.random = random
    }

    /// Imports the export at `url` (the zip, or the XML itself). `name` is what errors call
    /// the file when it is not a zip (the upload's name).
    public func importFile(at url: URL, name: String? = nil, account: Account, progress: Progress? = nil) async throws -> Report {
        let reading = try await Self.read(url, name: name ?? url.lastPathComponent, progress: progress)
        return try await save(reading.reader, file: reading.file, account: account)
    }

    /// Reads the file on a thread of its own (the reading is synchronous and can take seconds).
    static func read(_ url: URL, name: String, progress: Progress?) async throws -> (reader: HealthExportReader, file: String) {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try readNow(url, name: name, progress: progress) })
            }
        }
    }

    static func readNow(_ url: URL, name: String, progress: Progress?) throws -> (reader: HealthExportReader, file: String) {
        let handle: FileHandle
        do { handle = try FileHandle(forReadingFrom: url) } catch { throw Problem.unreadable((error as NSError).localizedDescription) }
        let prefix = (try? handle.read(upToCount: 4)) ?? Data()
        var reader = HealthExportReader()
        var file = name
        func reading(_ chunk: UnsafeRawBufferPointer, total: Int64) throws {
            do {
                try reader.read(chunk)
            } catch let error as HealthExportReader.Malformed {
                throw Problem.malformed(file: file, line: error.line, reason: error.reason)
            }
            progress?(reader.bytesRead, total)
        }
        if HealthExportArchive.isZip(prefix) {
            try? handle.close()
            let entry: HealthExportArchive.Entry
            do { entry = try HealthExportArchive.exportEntry(in: url) } catch { throw Problem.archive(error) }
            file = entry.path
            do {
                try HealthExportArchive.read(entry, in: url) { chunk in try reading(chunk, total: entry.uncompressedSize) }
            } catch let problem as HealthExportArchive.Problem {
                throw Problem.archive(problem)
            }
        } else {
            defer { try? handle.close() }
            let total = Int64((try? handle.seekToEnd()) ?? 0)
            do { try handle.seek(toOffset: 0) } catch { throw Problem.unreadable("\(error)") }
            while true {
                let data: Data
                do { data = try handle.read(upToCount: 256 << 10) ?? Data() } catch { throw Problem.unreadable("\(error)") }
                if data.isEmpty { break }
                try data.withUnsafeBytes { try reading($0, total: total) }
            }
        }
        do {
            try reader.finish()
        } catch let error as HealthExportReader.Malformed {
            throw Problem.malformed(file: file, line: error.line, reason: error.reason)
        }
        return (reader, file)
    }

    /// Stores what was read: the nights and workouts as entries, in batches.
    func save(_ reader: HealthExportReader, file: String, account: Account) async throws -> Report {
        let now = clock.now
        var report = Report(
            file: file, bytes: reader.bytesRead, records: reader.records, sleepSamples: reader.sleep.count, nights: 0, workouts: reader.workouts.count,
            added: 0, replaced: 0, unchanged: 0, problems: reader.problems, problemCount: reader.problemCount, exportDate: reader.exportDate)
        var entries: [TrackerEntry] = []
        var problems: [HealthExportReader.Problem] = []
        func key(_ start: Date, _ end: Date) -> String { "\(Int64(start.timeIntervalSince1970)):\(Int64(end.timeIntervalSince1970))" }

        let nights = HealthSleep.nights(from: reader.sleep)
        report.nights = nights.count
        for night in nights {
            guard night.end.timeIntervalSince(night.start) <= Tracker.longestNight else {
                problems.append(.init(line: 0, reason: "a sleep from \(night.start) to \(night.end) is longer than a day; left out"))
                continue
            }
            entries.append(TrackerEntry(
                id: random.uuid(), metric: Tracker.sleep, start: night.start, end: night.end, value: night.minutes.rounded(),
                unit: Tracker.minutesUnit, kind: nil, note: night.inBedOnly ? "in bed (Apple Health)" : nil, createdAt: now, updatedAt: now,
                source: Self.source, externalID: "sleep:" + key(night.start, night.end)))
        }
        for workout in reader.workouts {
            guard workout.minutes >= 0.5, workout.minutes <= 1440 else {
                problems.append(.init(line: workout.line, reason: "a workout of \(Int(workout.minutes)) minutes; left out"))
                continue
            }
            entries.append(TrackerEntry(
                id: random.uuid(), metric: Tracker.exercise, start: workout.start, end: workout.end, value: workout.minutes.rounded(),
                unit: Tracker.minutesUnit, kind: workout.kind, note: nil, createdAt: now, updatedAt: now, source: Self.source,
                externalID: "workout:\(workout.activity):" + key(workout.start, workout.end)))
        }
        report.problems = Array((report.problems + problems).prefix(HealthExportReader.problemLimit))
        report.problemCount += problems.count

        // Earlier imports' nights that overlap a night of this one and are not the same night:
        // this export knows the night better, so they go.
        let sleeps = entries.filter { $0.metric == Tracker.sleep }
        var replacedIDs: [UUID] = []
        // A stored night overlapping one of these starts at most a day before the first and before
        // the last one's end (a later export may start a night earlier or later than it knew it).
        if let first = sleeps.first?.start, let last = sleeps.compactMap(\.end).max() {
            let stored = try await store.read { tx in
                try await tx.trackerEntries(accountID: account.id, source: Self.source, metric: Tracker.sleep,
                                            from: first.addingTimeInterval(-Tracker.longestNight), to: last)
            }
            let keys = Set(sleeps.compactMap(\.externalID))
            let ranges = sleeps.compactMap { entry in entry.end.map { (entry.start, $0) } }
            for old in stored {
                guard let key = old.externalID, !keys.contains(key), let end = old.end else { continue }
                // Both sorted by start: the nights that could overlap are found by a binary search.
                var low = 0, high = ranges.count
                while low < high {
                    let middle = (low + high) / 2
                    if ranges[middle].1 <= old.start { low = middle + 1 } else { high = middle }
                }
                var index = low
                while index < ranges.count, ranges[index].0 < end {
                    if ranges[index].1 > old.start {
                        replacedIDs.append(old.id)
                        break
                    }
                    index += 1
                }
            }
        }
        report.replaced = replacedIDs.count

        var added = 0
        for start in stride(from: 0, to: entries.count, by: Self.batch) {
            let slice = Array(entries[start..<min(entries.count, start + Self.batch)])
            let removing = start == 0 ? replacedIDs : []
            added += try await store.transaction { tx in
                if !removing.isEmpty { try await tx.deleteTrackerEntries(ids: removing, accountID: account.id) }
                let inserted = try await tx.insertTrackerEntries(slice, accountID: account.id)
                if !inserted.isEmpty { try await TrackerProgress.queueCheck(accountID: account.id, now: now, random: random, tx: tx) }
                return inserted.count
            }
        }
        report.added = added
        report.unchanged = entries.count - added
        return report
    }
}
