/// A connector batch refused as a whole, with every problem found in it, so the connector's
/// author can fix them all in one round. Nothing of a refused batch is imported.
public struct ConnectorBatchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// In body order; never empty.
    public let problems: [ConnectorBatchProblem]

    public init(problems: [ConnectorBatchProblem]) {
        self.problems = problems
    }

    /// The first 20 problems, joined; a long batch with one bug repeated would otherwise give a
    /// message of thousands of lines.
    public var description: String {
        let shown = problems.prefix(20).map(\.description).joined(separator: "; ")
        let more = problems.count > 20 ? "; and \(problems.count - 20) more" : ""
        return "the batch was refused, nothing was imported: " + shown + more
    }
}
