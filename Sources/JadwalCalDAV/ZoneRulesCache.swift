import ICalendar
import JadwalHTTP
import Synchronization

/// Zone rules by IANA name, built once: queries read floating times in a calendar's zone on
/// every request, and building the rules is far dearer than a lookup.
package final class ZoneRulesCache: Sendable {
    package init() {}

    private let rulesByName = Mutex<[String: ZoneRules]>([:])

    package func rules(_ identifier: String) -> ZoneRules? {
        if let cached = rulesByName.withLock({ $0[identifier] }) { return cached }
        guard let built = ZoneRules(ianaIdentifier: identifier) else { return nil }
        rulesByName.withLock { cache in
            if cache.count > 1_000 { cache.removeAll() }
            cache[identifier] = built
        }
        return built
    }
}
