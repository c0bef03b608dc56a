import Foundation

/// A person's busy blocks over a window, sorted and indexed so that "what overlaps this range?"
/// and "is this range free?" cost a binary search plus the blocks that answer, not a scan.
///
/// Built once per request from every source (events that the ``BusyPolicy`` counts, prayer
/// blocks, routine occurrences, planned task blocks), then asked many questions. Blocks may
/// overlap each other; the union is kept beside them for free-time questions.
public struct BusyTime: Sendable {
    /// The window the blocks were gathered for; nil when the caller gave none. Questions about
    /// time outside it only see blocks that reach into it.
    public let window: TimeRange?
    /// Every block that reaches into the window, ordered by start, then end, then input order.
    public let blocks: [BusyBlock]
    /// The union of the blocks: sorted, disjoint, touching blocks joined (09:00–10:00 and
    /// 10:00–11:00 make 09:00–11:00).
    public let merged: [TimeRange]
    /// `latestEnd[i]` is the latest end among `blocks[0...i]`. It never decreases, so the first
    /// block that can reach past an instant is found by binary search even though long blocks
    /// break the order of ends.
    private let latestEnd: [Date]
    /// The prayer blocks alone, ordered by start, for "after Asr" in explanations.
    let prayers: [BusyBlock]

    /// Sorts and merges `blocks`; with a `window`, keeps only those that overlap it (unclipped,
    /// so overlaps reported later are exact).
    public init(_ blocks: [BusyBlock], window: TimeRange? = nil) {
        // An array rather than any sequence: the generic version is not specialised across
        // modules and its filter alone took longer than the sort.
        let given = window.map { window in blocks.filter { $0.range.overlaps(window) } } ?? blocks
        // Sort plain keys, then gather: moving blocks (strings inside) through the sort costs
        // reference counting on every swap, several times the sort itself.
        var keys = given.indices.map { (start: given[$0].range.start, end: given[$0].range.end, index: $0) }
        keys.sort { x, y in
            if x.start != y.start { return x.start < y.start }
            if x.end != y.end { return x.end < y.end }
            return x.index < y.index
        }
        let kept = keys.map { given[$0.index] }

        var latestEnd: [Date] = []
        latestEnd.reserveCapacity(kept.count)
        var merged: [TimeRange] = []
        var prayers: [BusyBlock] = []
        for block in kept {
            let range = block.range
            latestEnd.append(max(latestEnd.last ?? range.end, range.end))
            if let last = merged.last, range.start <= last.end {
                if range.end > last.end { merged[merged.count - 1] = TimeRange(uncheckedStart: last.start, end: range.end) }
            } else {
                merged.append(range)
            }
            if block.isPrayer { prayers.append(block) }
        }
        self.window = window
        self.blocks = kept
        self.merged = merged
        self.latestEnd = latestEnd
        self.prayers = prayers
    }

    /// These blocks and `more`, over the same window.
    public func adding(_ more: [BusyBlock]) -> BusyTime {
        BusyTime(blocks + more, window: window)
    }

    // MARK: Questions

    /// The blocks that share time with `range`, in order of start, leaving out those whose
    /// ``BusyBlock/referenceID`` is `excluding`.
    public func blocks(overlapping range: TimeRange, excluding referenceID: String? = nil) -> [BusyBlock] {
        candidates(for: range).compactMap { index in
            let block = blocks[index]
            guard block.range.end > range.start else { return nil }
            if let referenceID, block.referenceID == referenceID { return nil }
            return block
        }
    }

    /// Each block that shares time with `range`, with exactly the time they share.
    public func overlaps(with range: TimeRange, excluding referenceID: String? = nil) -> [BusyOverlap] {
        blocks(overlapping: range, excluding: referenceID).compactMap { block in
            block.range.intersection(range).map { BusyOverlap(block: block, overlap: $0) }
        }
    }

    /// The overlaps of many ranges at once, each as ``overlaps(with:excluding:)`` gives it, in
    /// the order given. One sweep: the ranges are visited by start, so the first block that can
    /// reach a range only moves forward, and a batch of events is checked without a search each.
    public func overlaps(with ranges: [(range: TimeRange, excluding: String?)]) -> [[BusyOverlap]] {
        var order = ranges.indices.map { (start: ranges[$0].range.start, index: $0) }
        order.sort { $0.start != $1.start ? $0.start < $1.start : $0.index < $1.index }
        var found = [[BusyOverlap]](repeating: [], count: ranges.count)
        var lower = 0
        for (start, index) in order {
            let (range, excluding) = ranges[index]
            while lower < latestEnd.count, latestEnd[lower] <= start { lower += 1 }
            var shared: [BusyOverlap] = []
            var next = lower
            while next < blocks.count, blocks[next].range.start < range.end {
                let block = blocks[next]
                next += 1
                guard block.range.end > start else { continue }
                if let excluding, block.referenceID == excluding { continue }
                if let overlap = block.range.intersection(range) { shared.append(BusyOverlap(block: block, overlap: overlap)) }
            }
            found[index] = shared
        }
        return found
    }

    /// True when no block (other than those with `excluding` as reference) shares time with `range`.
    public func isFree(_ range: TimeRange, excluding referenceID: String? = nil) -> Bool {
        if referenceID != nil { return blocks(overlapping: range, excluding: referenceID).isEmpty }
        let index = Self.firstIndex(in: merged) { $0.end > range.start }
        return index == merged.count || merged[index].start >= range.end
    }

    /// The free stretches inside `range`, in order: `range` minus every block (other than those
    /// with `excluding` as reference).
    public func freeRanges(in range: TimeRange, excluding referenceID: String? = nil) -> [TimeRange] {
        guard let referenceID else {
            var free: [TimeRange] = []
            var cursor = range.start
            var index = Self.firstIndex(in: merged) { $0.end > range.start }
            while index < merged.count, merged[index].start < range.end {
                if merged[index].start > cursor { free.append(TimeRange(uncheckedStart: cursor, end: merged[index].start)) }
                cursor = max(cursor, merged[index].end)
                index += 1
            }
            if cursor < range.end { free.append(TimeRange(uncheckedStart: cursor, end: range.end)) }
            return free
        }
        return freeRanges(in: range) { $0.referenceID == referenceID }
    }

    /// `range` minus every block for which `ignoring` is false.
    func freeRanges(in range: TimeRange, ignoring: (BusyBlock) -> Bool) -> [TimeRange] {
        var free: [TimeRange] = []
        var cursor = range.start
        for index in candidates(for: range) {
            let block = blocks[index]
            guard block.range.end > cursor, !ignoring(block) else { continue }
            if block.range.start > cursor { free.append(TimeRange(uncheckedStart: cursor, end: block.range.start)) }
            cursor = block.range.end
            if cursor >= range.end { break }
        }
        if cursor < range.end { free.append(TimeRange(uncheckedStart: cursor, end: range.end)) }
        return free
    }

    /// The last prayer block that ends by `instant` and the first that starts at or after
    /// `later`, for explaining where a free slot sits.
    func prayers(endingBy instant: Date, startingFrom later: Date) -> (before: BusyBlock?, after: BusyBlock?) {
        let next = Self.firstIndex(in: prayers) { $0.range.start >= later }
        var index = next - 1
        while index >= 0, prayers[index].range.end > instant { index -= 1 }
        return (index >= 0 ? prayers[index] : nil, next < prayers.count ? prayers[next] : nil)
    }

    /// Indices of the blocks that can overlap `range`: from the first whose running latest end
    /// passes `range.start`, to the last that starts before `range.end`. Callers still check
    /// each block's own end.
    private func candidates(for range: TimeRange) -> Range<Int> {
        let lower = Self.firstIndex(in: latestEnd) { $0 > range.start }
        let upper = Self.firstIndex(in: blocks) { $0.range.start >= range.end }
        return lower..<max(lower, upper)
    }

    /// The first index whose element satisfies `predicate`, for a predicate that is false up to
    /// some index and true from there on; `elements.count` when none does.
    static func firstIndex<Element>(in elements: [Element], where predicate: (Element) -> Bool) -> Int {
        var low = 0
        var high = elements.count
        while low < high {
            let middle = low + (high - low) / 2
            if predicate(elements[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
