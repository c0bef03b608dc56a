import Foundation

/// What a proposal, an accepted item or a rejected one is for.
public enum ProposalSubject: Sendable, Hashable, Codable, CustomStringConvertible {
    case goal(id: String)
    case task(id: String)
    /// A block before bed for a sleep goal, suggested when the person slept under its target
    /// several nights running. Not a session: it counts towards nothing.
    case windDown(goalID: String)

    public var description: String {
        switch self {
        case .goal(let id): "goal:\(id)"
        case .task(let id): "task:\(id)"
        case .windDown(let goalID): "wind-down:\(goalID)"
        }
    }
}

/// A subject at a time: an item the person accepted earlier (now busy time that counts towards
/// its goal or to-do), or one they rejected (never proposed again).
public struct ItemPlacement: Sendable, Hashable, CustomStringConvertible {
    public let subject: ProposalSubject
    public let range: TimeRange

    public init(subject: ProposalSubject, range: TimeRange) {
        self.subject = subject
        self.range = range
    }

    public var description: String { "\(subject) \(range)" }
}

/// One item of the plan, for the person to accept or reject: where, for what, and why.
public struct Proposal: Sendable, Hashable, CustomStringConvertible {
    public let subject: ProposalSubject
    public let title: String
    public let range: TimeRange
    public let reason: ProposalReason

    public init(subject: ProposalSubject, title: String, range: TimeRange, reason: ProposalReason) {
        self.subject = subject
        self.title = title
        self.range = range
        self.reason = reason
    }

    /// Stable for the same subject and start, so an accept or reject sent back can name it.
    public var id: String { "\(subject)@\(Int(range.start.timeIntervalSince1970))" }

    /// The proposal as an item: what the caller stores once it is accepted or rejected.
    public var placement: ItemPlacement { ItemPlacement(subject: subject, range: range) }

    public var description: String { "\(subject) \(range) \"\(title)\"" }
}

extension Proposal: Codable {
    private enum CodingKeys: String, CodingKey { case subject, title, start, end, reason }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let start = try c.decode(Date.self, forKey: .start), end = try c.decode(Date.self, forKey: .end)
        guard start < end else {
            throw DecodingError.dataCorruptedError(forKey: .end, in: c, debugDescription: "end must be after start")
        }
        self.init(subject: try c.decode(ProposalSubject.self, forKey: .subject), title: try c.decode(String.self, forKey: .title),
                  range: TimeRange(uncheckedStart: start, end: end), reason: try c.decode(ProposalReason.self, forKey: .reason))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(subject, forKey: .subject)
        try c.encode(title, forKey: .title)
        try c.encode(range.start, forKey: .start)
        try c.encode(range.end, forKey: .end)
        try c.encode(reason, forKey: .reason)
    }
}

/// A goal period (a local day, or a Monday-to-Sunday week) that got fewer proposals than it
/// wanted: reported, so the app can say "only 2 of 3 exercise sessions fit next week".
public struct GoalShortfall: Sendable, Hashable, CustomStringConvertible {
    public let goalID: String
    /// The first instant of the period's first local day inside the horizon.
    public let periodStart: Date
    /// How many the period wanted, after accepted sessions and pro-rating a partial week.
    public let wanted: Int
    public let proposed: Int

    public var description: String { "goal \(goalID) from \(SchedulingError.stamp(periodStart)): \(proposed) of \(wanted)" }
}
