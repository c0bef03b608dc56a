import Foundation

/// One calendar shared by its owner with one person, addressed by email: an invitation until the
/// person answers it, then (when accepted) a calendar in their own CalDAV home with their own
/// name and colour. The owner's calendar is not copied: the sharee reads and writes the same
/// objects, so both sides' sync tokens move together.
public struct CalendarShare: Sendable, Hashable, Codable {
    public enum Access: String, Sendable, Hashable, Codable, CaseIterable {
        case read
        case readWrite = "read-write"
    }

    public enum State: String, Sendable, Hashable, Codable {
        /// Sent, not answered yet.
        case invited
        case accepted
        case declined
    }

    public var id: UUID
    public var calendarID: UUID
    public var ownerID: UUID
    /// Where the invitation went; an account made later with this address finds it.
    public var shareeEmail: EmailAddress
    /// The account that answered; nil until then.
    public var shareeID: UUID?
    public var access: Access
    public var state: State
    /// The calendar's URL segment in the sharee's home, given when they accept.
    public var slug: String?
    /// The sharee's own name and colour for it; nil shows the owner's.
    public var displayName: String?
    public var color: String?
    /// Whether its events count as the sharee's busy time; nil follows the access (a calendar
    /// they may write to is theirs too; one they only read is someone else's).
    public var busy: Bool?
    /// A note from the owner, shown with the invitation.
    public var note: String
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        id: UUID, calendarID: UUID, ownerID: UUID, shareeEmail: EmailAddress, shareeID: UUID? = nil, access: Access, state: State = .invited,
        slug: String? = nil, displayName: String? = nil, color: String? = nil, busy: Bool? = nil, note: String = "", createdAt: Date,
        updatedAt: Date
    ) {
        self.id = id
        self.calendarID = calendarID
        self.ownerID = ownerID
        self.shareeEmail = shareeEmail
        self.shareeID = shareeID
        self.access = access
        self.state = state
        self.slug = slug
        self.displayName = displayName
        self.color = color
        self.busy = busy
        self.note = note
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// Whether the sharee's busy time includes it.
    public var countsAsBusy: Bool { busy ?? (access == .readWrite) }

    /// The owner's calendar as the sharee sees it: in their home at the share's slug, with their
    /// name and colour. The id, revision and objects stay the owner's.
    public func view(of calendar: CalendarCollection, ownerName: String, ownerEmail: EmailAddress) -> CalendarCollection {
        var seen = calendar
        seen.slug = slug ?? calendar.slug
        seen.displayName = displayName ?? calendar.displayName
        seen.color = color ?? calendar.color
        seen.order = nil
        seen.sharing = .sharedWithMe(SharedCalendar(
            shareID: id, ownerID: ownerID, ownerName: ownerName, ownerEmail: ownerEmail, ownerSlug: calendar.slug, access: access,
            countsAsBusy: countsAsBusy, shareeEmail: shareeEmail))
        return seen
    }
}

/// A share with the calendar it shares and who owns it, as storage finds them together.
public struct CalendarShareEntry: Sendable, Hashable {
    public var share: CalendarShare
    /// The owner's calendar, as the owner sees it.
    public var calendar: CalendarCollection
    public var ownerName: String
    public var ownerEmail: EmailAddress

    public init(share: CalendarShare, calendar: CalendarCollection, ownerName: String, ownerEmail: EmailAddress) {
        self.share = share
        self.calendar = calendar
        self.ownerName = ownerName
        self.ownerEmail = ownerEmail
    }

    /// The calendar as the sharee sees it.
    public var view: CalendarCollection { share.view(of: calendar, ownerName: ownerName, ownerEmail: ownerEmail) }
}

/// What a sharee needs to know about a calendar shared with them.
public struct SharedCalendar: Sendable, Hashable, Codable {
    public var shareID: UUID
    public var ownerID: UUID
    public var ownerName: String
    public var ownerEmail: EmailAddress
    /// The calendar's segment in the owner's home (`CS:shared-url`).
    public var ownerSlug: String
    public var access: CalendarShare.Access
    public var countsAsBusy: Bool
    /// The address the share went to.
    public var shareeEmail: EmailAddress
}

/// How a calendar is shared, as the one looking at it sees it.
public enum CalendarSharing: Sendable, Hashable, Codable {
    /// Someone else's calendar, shared with the person looking.
    case sharedWithMe(SharedCalendar)
    /// The person's own calendar, with the shares they made of it (what CalDAV's `CS:invite`
    /// lists); set only where a front door asked for them.
    case sharedByMe([CalendarShare])
}

extension CalendarCollection {
    /// The share it is seen through, when it is someone else's.
    public var sharedWithMe: SharedCalendar? {
        if case .sharedWithMe(let shared) = sharing { return shared }
        return nil
    }

    /// The shares the owner made of it, when they were looked up.
    public var sharesMade: [CalendarShare] {
        if case .sharedByMe(let shares) = sharing { return shares }
        return []
    }

    /// Whether it was shared with the person looking to read only.
    public var isReadOnlyShare: Bool { sharedWithMe?.access == .read }

    /// Whether its events are someone else's (a feed's or the person who shared it): in a
    /// conflict, the person's own event is the one to move or cancel.
    public var holdsOthersEvents: Bool { isSubscribed || sharedWithMe != nil }
}

/// Who may see a person's busy time (free/busy, never what fills it): nobody but themselves
/// unless they allow named people or everyone on the server.
public struct BusyTimeVisibility: Sendable, Hashable, Codable {
    public enum Audience: String, Sendable, Hashable, Codable {
        case nobody
        case everyone
        case named
    }

    public var audience: Audience
    /// The addresses allowed when `audience` is `.named`.
    public var allowed: [EmailAddress]

    public init(audience: Audience = .nobody, allowed: [EmailAddress] = []) {
        self.audience = audience
        self.allowed = audience == .named ? allowed : []
    }

    public static let nobody = BusyTimeVisibility()

    public func allows(_ email: EmailAddress) -> Bool {
        switch audience {
        case .nobody: false
        case .everyone: true
        case .named: allowed.contains(email)
        }
    }
}
