import Foundation
import Logging

/// A log handler that keeps what it is given, for tests that check what was logged.
public struct CapturingLogHandler: LogHandler {
    public final class Store: @unchecked Sendable {
        private let lock = NSLock()
        private var _records: [(level: Logger.Level, message: String)] = []

        public init() {}

        func append(_ level: Logger.Level, _ message: String) { lock.withLock { _records.append((level, message)) } }
        public var records: [(level: Logger.Level, message: String)] { lock.withLock { _records } }
        /// A logger whose every message is kept here.
        public var logger: Logger { Logger(label: "jadwal-test-capture") { _ in CapturingLogHandler(store: self) } }
    }

    let store: Store
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .trace

    public init(store: Store) {
        self.store = store
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        store.append(event.level, event.message.description)
    }
}
