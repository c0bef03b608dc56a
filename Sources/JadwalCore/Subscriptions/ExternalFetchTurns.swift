import Foundation

/// Whose turn it is to reach outside: how many refreshes of one person's feeds and connected
/// accounts run at once in this process. A refresh that finds the person's turns taken is put
/// back a little later instead of waiting in a job worker, so a person's slow feeds hold at most
/// `perPerson` workers and never delay anyone else's refresh (or any other job).
///
/// One value is made by the assembly and shared by every service that fetches for people.
public actor ExternalFetchTurns {
    public let perPerson: Int
    private var running: [UUID: Int] = [:]

    public init(perPerson: Int = 1) {
        self.perPerson = max(1, perPerson)
    }

    /// How long a refresh that found no turn waits before it is tried again.
    public static let retryAfter: TimeInterval = 10

    /// Takes one of the person's turns; false when they are all taken.
    public func take(_ person: UUID) -> Bool {
        let now = running[person, default: 0]
        guard now < perPerson else { return false }
        running[person] = now + 1
        return true
    }

    public func give(_ person: UUID) {
        let now = running[person, default: 0]
        running[person] = now > 1 ? now - 1 : nil
    }

    /// `body` in one of the person's turns; nil, without running it, when none is free.
    public nonisolated func inTurn<T: Sendable>(of person: UUID, _ body: () async throws -> T) async throws -> T? {
        guard await take(person) else { return nil }
        let result: Result<T, any Error>
        do {
            result = .success(try await body())
        } catch {
            result = .failure(error)
        }
        await give(person)
        return try result.get()
    }
}
