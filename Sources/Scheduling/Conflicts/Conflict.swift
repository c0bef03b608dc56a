import Foundation

/// One busy block that a range runs into, and exactly the time they share.
public struct BusyOverlap: Sendable, Hashable {
    public let block: BusyBlock
    /// The shared time: never empty, never longer than either.
    public let overlap: TimeRange

    public init(block: BusyBlock, overlap: TimeRange) {
        self.block = block
        self.overlap = overlap
    }

    /// True when the block is a prayer: such overlaps are notified by default.
    public var isPrayer: Bool { block.isPrayer }
}

/// A new or changed block that shares time with blocks already there.
public struct Conflict: Sendable, Hashable {
    /// The block being written.
    public let block: BusyBlock
    /// Every block it runs into, in order of start, with the exact overlap; never empty.
    public let overlaps: [BusyOverlap]

    public init(block: BusyBlock, overlaps: [BusyOverlap]) {
        self.block = block
        self.overlaps = overlaps
    }

    /// The overlaps with prayer blocks.
    public var prayerOverlaps: [BusyOverlap] { overlaps.filter(\.isPrayer) }

    /// True when the block runs into a prayer.
    public var overlapsPrayer: Bool { overlaps.contains(where: \.isPrayer) }

    /// The time the block shares with anything, each instant counted once (two overlapping
    /// meetings behind the same half hour make half an hour).
    public var overlappedTime: TimeInterval {
        var total: TimeInterval = 0
        var cursor = Date.distantPast
        for overlap in overlaps.map(\.overlap).sorted(by: { $0.start < $1.start }) {
            let start = max(cursor, overlap.start)
            if overlap.end > start { total += overlap.end.timeIntervalSince(start) }
            cursor = max(cursor, overlap.end)
        }
        return total
    }
}

extension BusyTime {
    /// The conflict `block` would cause, or nil when it fits.
    ///
    /// Blocks with the same ``BusyBlock/referenceID`` as `block` are left out: an edited event is
    /// already in the busy time at its old place and must not conflict with itself. Touching is
    /// not overlapping: an event ending at 10:00 does not conflict with one starting at 10:00.
    public func conflict(for block: BusyBlock) -> Conflict? {
        let overlaps = overlaps(with: block.range, excluding: block.referenceID)
        return overlaps.isEmpty ? nil : Conflict(block: block, overlaps: overlaps)
    }

    /// The conflict each of `blocks` would cause (nil where one fits), in the order given: the
    /// same answers as ``conflict(for:)`` one by one, found in one sweep over the batch.
    public func conflicts(for blocks: [BusyBlock]) -> [Conflict?] {
        let overlaps = overlaps(with: blocks.map { (range: $0.range, excluding: $0.referenceID) })
        return zip(blocks, overlaps).map { block, overlaps in overlaps.isEmpty ? nil : Conflict(block: block, overlaps: overlaps) }
    }
}
