import Foundation

/// Sharing calendars between the people of one server: the owner shares a calendar by email,
/// read-only or read-write; the person accepts or declines; the owner changes access or revokes.
/// Every front door (the JSON API, the web app, CalDAV's sharing POSTs) goes through here, so
/// one set of rules decides who sees what.
public struct CalendarShares: Sendable {
    let store: StoreAccess<any NoticeStore & AccountStore & CalendarShareStore>
    /// Whom a principal search may show (the operator's choice).
    let directory: PrincipalDirectory
    let clock: Clock
    let random: RandomSource

    public init(store: any Store, clock: Clock, random: RandomSource, directory: PrincipalDirectory = .related) {
        self.directory = directory
        self.store = StoreAccess(store) { $0 }
        self.clock = clock
        self.random = random
    }

    /// Every shared calendar's segment in a sharee's home starts so.
    public static let slugPrefix = "shared-"

    /// The most people one calendar may be shared with.
    public static let sharesPerCalendar = 100

    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// No calendar or share of the caller's has this id (another's looks the same).
        case notFound
        case withYourself
        /// The prayer-times calendar is computed per person.
        case computed
        /// A subscription's events come from its feed, so no one may write them.
        case subscriptionReadOnly
        case tooMany
        case invalidProperty(CalendarPropertiesChange.Problem)
        /// Only an invitation not yet answered, or a declined one, can be accepted.
        case notPending

        public var description: String {
            switch self {
            case .notFound: "no such calendar or share"
            case .withYourself: "that is your own address; share with someone else"
            case .computed: "the prayer-times calendar is computed for each person from their own settings, so it cannot be shared"
            case .subscriptionReadOnly: "a subscribed calendar's events come from its feed, so it can only be shared read-only"
            case .tooMany: "a calendar can be shared with at most \(CalendarShares.sharesPerCalendar) people"
            case .invalidProperty(let problem): problem.description
            case .notPending: "this share was already accepted"
            }
        }
    }

    // MARK: The owner's side

    /// Shares one of the owner's calendars with `email`, or changes the access of an existing
    /// share (a declined one is sent again). The person, if they have an account, is notified.
    @discardableResult
    public func share(calendarID: UUID, owner: Account, with email: EmailAddress, access: CalendarShare.Access, note: String = "")
        async throws -> CalendarShare {
        guard email != owner.email else { throw Problem.withYourself }
        let now = clock.now
        return try await store.transaction { tx in
            guard let calendar = try await tx.calendar(id: calendarID), calendar.accountID == owner.id else { throw Problem.notFound }
            guard !calendar.isComputed else { throw Problem.computed }
            if calendar.isSubscribed, access == .readWrite { throw Problem.subscriptionReadOnly }
            let existing = try await tx.calendarShares(calendarID: calendarID)
            var share: CalendarShare
            if var found = existing.first(where: { $0.shareeEmail == email }) {
                found.access = access
                if found.state == .declined { found.state = .invited }
                if !note.isEmpty { found.note = note }
                found.updatedAt = now
                try await tx.updateCalendarShare(found)
                share = found
            } else {
                guard existing.count < Self.sharesPerCalendar else { throw Problem.tooMany }
                share = CalendarShare(
                    id: random.uuid(), calendarID: calendarID, ownerID: owner.id, shareeEmail: email, access: access, note: String(note.prefix(500)),
                    createdAt: now, updatedAt: now)
                try await tx.insertCalendarShare(share)
            }
            if share.state == .invited, let sharee = try await tx.account(email: email), !sharee.isDisabled {
                let text = NotificationText(account: sharee).shareInvited(owner: owner.displayName, calendar: calendar.displayName, access: access)
                let draft = NotificationDraft(
                    kind: .share, reasonKey: "share-invited:\(share.id.uuidString.lowercased()):\(access.rawValue):\(Int(now.timeIntervalSince1970))",
                    title: text.title, body: text.body, links: ["shareId": share.id.uuidString.lowercased()], urgent: false)
                _ = try await NotificationDispatch.post(draft, account: sharee, now: now, random: random, tx: tx)
            }
            return share
        }
    }

    /// The shares of one of the owner's calendars.
    public func shares(calendarID: UUID, owner: Account) async throws -> [CalendarShare] {
        try await store.read { tx in
            guard let calendar = try await tx.calendar(id: calendarID), calendar.accountID == owner.id else { throw Problem.notFound }
            return try await tx.calendarShares(calendarID: calendarID)
        }
    }

    /// Every share of the owner's calendars (the calendars screen lists them under each).
    public func made(by owner: Account) async throws -> [CalendarShare] {
        try await store.read { tx in try await tx.outgoingCalendarShares(ownerID: owner.id) }
    }

    /// Changes what a sharee may do; they keep the calendar if they had accepted it.
    public func change(shareID: UUID, owner: Account, access: CalendarShare.Access) async throws -> CalendarShare {
        let now = clock.now
        return try await store.transaction { tx in
            guard let entry = try await tx.calendarShare(id: shareID), entry.share.ownerID == owner.id else { throw Problem.notFound }
            if entry.calendar.isSubscribed, access == .readWrite { throw Problem.subscriptionReadOnly }
            var share = entry.share
            share.access = access
            share.updatedAt = now
            try await tx.updateCalendarShare(share)
            return share
        }
    }

    /// Ends a share: the calendar leaves the sharee's home (their next sync drops it, its paths
    /// answer 404).
    public func revoke(shareID: UUID, owner: Account) async throws {
        try await store.transaction { tx in
            guard let entry = try await tx.calendarShare(id: shareID), entry.share.ownerID == owner.id else { throw Problem.notFound }
            try await tx.deleteCalendarShare(id: shareID)
        }
    }

    // MARK: The sharee's side

    /// Shares sent to the person, in every state, newest first.
    public func incoming(for account: Account) async throws -> [CalendarShareEntry] {
        try await store.read { tx in try await tx.incomingCalendarShares(email: account.email, accountID: account.id) }
    }

    /// Accepts an invitation: the calendar appears in the person's home, under `name` and
    /// `color` when given (theirs alone; the owner's stay as they are).
    public func accept(shareID: UUID, account: Account, name: String? = nil, color: String? = nil) async throws -> CalendarShareEntry {
        let now = clock.now
        return try await store.transaction { tx in
            var entry = try await incomingEntry(shareID, account: account, tx: tx)
            guard entry.share.state != .accepted else { return entry }
            entry.share.state = .accepted
            entry.share.shareeID = account.id
            entry.share.slug = try await freeSlug(for: entry.share, account: account, tx: tx)
            try Self.apply(name: name, color: color, to: &entry.share)
            entry.share.updatedAt = now
            try await tx.updateCalendarShare(entry.share)
            try await notifyOwner(of: entry, sharee: account, accepted: true, now: now, tx: tx)
            return entry
        }
    }

    /// Declines an invitation, or leaves a calendar accepted before: it leaves the person's home,
    /// and the owner sees the share as declined.
    public func decline(shareID: UUID, account: Account) async throws {
        let now = clock.now
        try await store.transaction { tx in
            var entry = try await incomingEntry(shareID, account: account, tx: tx)
            guard entry.share.state != .declined else { return }
            entry.share.state = .declined
            entry.share.shareeID = account.id
            entry.share.slug = nil
            entry.share.updatedAt = now
            try await tx.updateCalendarShare(entry.share)
            try await notifyOwner(of: entry, sharee: account, accepted: false, now: now, tx: tx)
        }
    }

    /// The sharee's own settings for a calendar shared with them: its name and colour in their
    /// views and on their devices, and whether its events count as their busy time.
    public func updateMine(shareID: UUID, account: Account, name: String? = nil, color: String? = nil, busy: Bool?? = nil)
        async throws -> CalendarShareEntry {
        let now = clock.now
        return try await store.transaction { tx in
            var entry = try await incomingEntry(shareID, account: account, tx: tx)
            try Self.apply(name: name, color: color, to: &entry.share)
            if let busy { entry.share.busy = busy }
            entry.share.updatedAt = now
            try await tx.updateCalendarShare(entry.share)
            return entry
        }
    }

    private func incomingEntry(_ shareID: UUID, account: Account, tx: any CalendarShareStore) async throws -> CalendarShareEntry {
        guard let entry = try await tx.calendarShare(id: shareID),
              entry.share.shareeID == account.id || (entry.share.shareeID == nil && entry.share.shareeEmail == account.email)
        else { throw Problem.notFound }
        return entry
    }

    /// The segment the calendar takes in the sharee's home: made from the share, so it never
    /// changes while the share lasts, and never one of their own calendars'.
    private func freeSlug(for share: CalendarShare, account: Account, tx: any CalendarStore) async throws -> String {
        let id = share.id.uuidString.lowercased()
        let short = Self.slugPrefix + id.prefix(8)
        if try await tx.calendar(accountID: account.id, slug: short) == nil { return short }
        return Self.slugPrefix + id
    }

    private static func apply(name: String?, color: String?, to share: inout CalendarShare) throws {
        guard name != nil || color != nil else { return }
        let blank = CalendarCollection(id: share.calendarID, accountID: share.ownerID, slug: "shared", displayName: share.displayName ?? "shared",
                                       color: share.color, components: [], createdAt: share.createdAt)
        do {
            let changed = try CalendarPropertiesChange(displayName: name, color: color).applied(to: blank)
            if name != nil { share.displayName = changed.displayName }
            if color != nil { share.color = changed.color }
        } catch {
            throw Problem.invalidProperty(error)
        }
    }

    private func notifyOwner(of entry: CalendarShareEntry, sharee: Account, accepted: Bool, now: Date, tx: any NoticeStore & AccountStore) async throws {
        guard let owner = try await tx.account(id: entry.share.ownerID), !owner.isDisabled else { return }
        let text = NotificationText(account: owner).shareAnswered(sharee: sharee.displayName, calendar: entry.calendar.displayName, accepted: accepted)
        let draft = NotificationDraft(
            kind: .share, reasonKey: "share-answered:\(entry.share.id.uuidString.lowercased()):\(accepted):\(Int(now.timeIntervalSince1970))",
            title: text.title, body: text.body,
            links: ["shareId": entry.share.id.uuidString.lowercased(), "calendarId": entry.calendar.id.uuidString.lowercased()], urgent: false)
        _ = try await NotificationDispatch.post(draft, account: owner, now: now, random: random, tx: tx)
    }

    // MARK: People

    /// The people the person is related to by a share, either way (what a principal search may
    /// show them): never anyone else on the server.
    public func relatedPeople(of account: Account) async throws -> [Account] {
        try await store.read { tx in
            var emails: [EmailAddress] = try await tx.incomingCalendarShares(email: account.email, accountID: account.id).map(\.ownerEmail)
            emails += try await tx.outgoingCalendarShares(ownerID: account.id).map(\.shareeEmail)
            var people: [Account] = []
            for email in emails where email != account.email && !people.contains(where: { $0.email == email }) {
                if let person = try await tx.account(email: email), !person.isDisabled { people.append(person) }
            }
            return people
        }
    }

    /// The people a principal search may show the person besides themselves: those related to
    /// them by a share and, when the operator opened a server-wide directory, any active account
    /// whose address or name contains one of `terms` (at least two letters each; a `mailto:` is
    /// ignored), at most `directoryLimit` a term. An empty search finds nobody new.
    public func findablePeople(of account: Account, matching terms: [String]) async throws -> [Account] {
        var people = try await relatedPeople(of: account)
        guard directory == .serverWide else { return people }
        let needles = Set(terms.map { term in
            let lowered = term.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
            return lowered.hasPrefix("mailto:") ? String(lowered.dropFirst("mailto:".count)) : lowered
        }.filter { $0.count >= 2 }).sorted()
        guard !needles.isEmpty else { return people }
        let found = try await store.read { tx in
            var found: [Account] = []
            for needle in needles { found += try await tx.accounts(containing: needle, limit: Self.directoryLimit) }
            return found
        }
        for person in found where person.id != account.id && !people.contains(where: { $0.id == person.id }) { people.append(person) }
        return people
    }

    /// The most accounts one search term finds in a server-wide directory.
    public static let directoryLimit = 50

    // MARK: Busy time

    /// Whom the person lets see their busy time.
    public func busyTimeVisibility(of account: Account) async throws -> BusyTimeVisibility {
        try await store.read { tx in try await tx.busyTimeVisibility(accountID: account.id) }
    }

    public func setBusyTimeVisibility(_ visibility: BusyTimeVisibility, of account: Account) async throws {
        let now = clock.now
        try await store.transaction { tx in try await tx.saveBusyTimeVisibility(visibility, accountID: account.id, at: now) }
    }

    /// Whether `asker` may see `account`'s busy time: their own always, another's only when allowed.
    public func mayReadBusyTime(of account: Account, asker: Account) async throws -> Bool {
        if account.id == asker.id { return true }
        return try await busyTimeVisibility(of: account).allows(asker.email)
    }
}

/// Whom a principal search may show a person (RFC 3744 §9.4, what sharing dialogs search).
public enum PrincipalDirectory: String, Sendable {
    /// Themselves and the people they share calendars with, either way: nobody can look up strangers.
    case related
    /// Also any active account of the server by name or address: for a household or a team that
    /// all know each other, chosen by the operator (`--principal-directory`).
    case serverWide = "server-wide"
}
