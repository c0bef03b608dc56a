import Foundation

/// Names of calendar sharing as Apple's clients speak it (calendarserver-sharing, which
/// SabreDAV and iCloud answer) and as the WebDAV resource-sharing draft names it.
extension QualifiedName {
    public static let share = calendarServer("share")
    public static let shareSet = calendarServer("set")
    public static let shareRemove = calendarServer("remove")
    public static let commonName = calendarServer("common-name")
    public static let summary = calendarServer("summary")
    public static let readWriteAccess = calendarServer("read-write")
    public static let readAccess = calendarServer("read")
    public static let invite = calendarServer("invite")
    public static let inviteOrganizer = calendarServer("organizer")
    public static let inviteUser = calendarServer("user")
    public static let inviteAccess = calendarServer("access")
    public static let inviteAccepted = calendarServer("invite-accepted")
    public static let inviteDeclined = calendarServer("invite-declined")
    public static let inviteNoResponse = calendarServer("invite-noresponse")
    public static let inviteReply = calendarServer("invite-reply")
    public static let hostURL = calendarServer("hosturl")
    public static let inReplyTo = calendarServer("in-reply-to")
    public static let sharedAs = calendarServer("shared-as")
    public static let sharedURL = calendarServer("shared-url")
    public static let sharedOwner = calendarServer("shared-owner")
    public static let shared = calendarServer("shared")
    public static let allowedSharingModes = calendarServer("allowed-sharing-modes")
    public static let canBeShared = calendarServer("can-be-shared")
    // Apple's notification collection (caldav-notifications), where share invitations wait.
    public static let notificationURL = calendarServer("notification-URL")
    public static let notification = calendarServer("notification")
    public static let notificationType = calendarServer("notificationtype")
    public static let inviteNotification = calendarServer("invite-notification")
    public static let notificationStamp = calendarServer("dtstamp")
    public static let notificationUID = calendarServer("uid")
    // draft-pot-webdav-resource-sharing
    public static let shareResource = dav("share-resource")
    public static let sharee = dav("sharee")
    public static let shareAccess = dav("share-access")
    public static let davReadAccess = dav("read")
    public static let davReadWriteAccess = dav("read-write")
    public static let noAccess = dav("no-access")
    public static let notShared = dav("not-shared")
    public static let sharedOwnerAccess = dav("shared-owner")
    public static let comment = dav("comment")
}

/// A POST body that shares a calendar: `CS:share` (sets and removes) or `DAV:share-resource`
/// (sharees with an access, `no-access` removing them). Both come to the same list.
public struct ShareRequest: Sendable, Hashable {
    public enum Access: Sendable, Hashable {
        case read, readWrite
        /// Stop sharing with this person.
        case remove
    }

    public struct Sharee: Sendable, Hashable {
        /// As sent: `mailto:…` or a principal URL.
        public var href: String
        public var access: Access
        public var note: String
    }

    public var sharees: [Sharee]

    public init(element: DAVElement) throws(DAVError) {
        var sharees: [Sharee] = []
        switch element.name {
        case .share:
            for child in element.elements {
                guard let href = child.first(.href)?.trimmedText, !href.isEmpty else { continue }
                switch child.name {
                case .shareSet:
                    let access: Access = child.first(.readWriteAccess) != nil ? .readWrite : .read
                    sharees.append(Sharee(href: href, access: access, note: child.first(.summary)?.trimmedText ?? ""))
                case .shareRemove:
                    sharees.append(Sharee(href: href, access: .remove, note: ""))
                default:
                    continue
                }
            }
        case .shareResource:
            for sharee in element.elements(named: .sharee) {
                guard let href = sharee.first(.href)?.trimmedText, !href.isEmpty else { continue }
                let access: Access
                let chosen = sharee.first(.shareAccess)?.elements.first?.name
                switch chosen {
                case .davReadWriteAccess?: access = .readWrite
                case .noAccess?: access = .remove
                case .davReadAccess?, nil: access = .read
                case let other?:
                    throw DAVError.unexpected("<DAV:share-access> must hold <DAV:read>, <DAV:read-write> or <DAV:no-access>, not <\(other)>.")
                }
                sharees.append(Sharee(href: href, access: access, note: sharee.first(.comment)?.trimmedText ?? ""))
            }
        default:
            throw DAVError.unexpected("A sharing POST must be <CS:share> or <DAV:share-resource>, not <\(element.name)>.")
        }
        guard !sharees.isEmpty else { throw DAVError.unexpected("The sharing request names no one (each sharee needs a <DAV:href>).") }
        self.sharees = sharees
    }
}

/// `CS:invite-reply`, POSTed to the sharee's calendar home: an answer to a share.
public struct InviteReply: Sendable, Hashable {
    public var accepted: Bool
    /// The shared calendar's URL in its owner's home.
    public var hostURL: String?
    /// The invitation answered (Jadwal gives the share's id).
    public var inReplyTo: String?
    public var summary: String?

    public init(element: DAVElement) throws(DAVError) {
        guard element.name == .inviteReply else {
            throw DAVError.unexpected("An answer to a share must be <CS:invite-reply>, not <\(element.name)>.")
        }
        if element.first(.inviteAccepted) != nil {
            accepted = true
        } else if element.first(.inviteDeclined) != nil {
            accepted = false
        } else {
            throw DAVError.unexpected("<CS:invite-reply> needs <CS:invite-accepted/> or <CS:invite-declined/>.")
        }
        hostURL = element.first(.hostURL)?.first(.href)?.trimmedText
        inReplyTo = element.first(.inReplyTo)?.trimmedText
        summary = element.first(.summary)?.trimmedText
        guard hostURL != nil || inReplyTo != nil else {
            throw DAVError.unexpected("<CS:invite-reply> must name the calendar (<CS:hosturl>) or the invitation (<CS:in-reply-to>).")
        }
    }
}
