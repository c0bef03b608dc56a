// Element, property, privilege and precondition names of CalDAV scheduling (RFC 6638).
extension QualifiedName {
    // §2.1, §2.2: the scheduling Outbox and Inbox resource types.
    public static let scheduleInbox = caldav("schedule-inbox")
    public static let scheduleOutbox = caldav("schedule-outbox")
    // §9: properties.
    public static let scheduleTag = caldav("schedule-tag")
    public static let scheduleDefaultCalendarURL = caldav("schedule-default-calendar-URL")
    // §10: the answer to an Outbox POST.
    public static let scheduleResponse = caldav("schedule-response")
    /// `<C:response>` inside `schedule-response`; not `DAV:response`.
    public static let scheduleResponseItem = caldav("response")
    public static let recipient = caldav("recipient")
    public static let requestStatus = caldav("request-status")
    // §6: privileges. The aggregates contain the three privileges after each.
    public static let scheduleDeliver = caldav("schedule-deliver")
    public static let scheduleDeliverInvite = caldav("schedule-deliver-invite")
    public static let scheduleDeliverReply = caldav("schedule-deliver-reply")
    public static let scheduleQueryFreebusy = caldav("schedule-query-freebusy")
    public static let scheduleSend = caldav("schedule-send")
    public static let scheduleSendInvite = caldav("schedule-send-invite")
    public static let scheduleSendReply = caldav("schedule-send-reply")
    public static let scheduleSendFreebusy = caldav("schedule-send-freebusy")
    // Preconditions of an Outbox POST.
    public static let validSchedulingMessage = caldav("valid-scheduling-message")
    /// The ORGANIZER of a POSTed message must be the Outbox owner (RFC 6638 dropped the draft's
    /// Originator header, so the ORGANIZER names who is asking).
    public static let organizerAllowed = caldav("organizer-allowed")
    /// RFC 4791 §5.3.2.1: a meeting invites more attendees than the server takes per instance.
    public static let maxAttendeesPerInstance = caldav("max-attendees-per-instance")
}
