/// What the caller knows about an event that decides whether it takes time.
public struct EventTraits: Sendable, Hashable {
    /// `TRANSP:TRANSPARENT` ("show as free").
    public var isTransparent: Bool
    /// `STATUS:CANCELLED` (for the occurrence, after overrides are applied).
    public var isCancelled: Bool
    /// A DATE (not DATE-TIME) event. The caller resolves its days to instants in the zone it
    /// belongs to (the event's own, or the person's for floating dates) before making a block:
    /// this module only sees instants.
    public var isAllDay: Bool

    public init(isTransparent: Bool = false, isCancelled: Bool = false, isAllDay: Bool = false) {
        self.isTransparent = isTransparent
        self.isCancelled = isCancelled
        self.isAllDay = isAllDay
    }
}

/// One calendar's rule for which events count as busy time.
///
/// By default transparent, cancelled and all-day events do not: they are reminders, birthdays and
/// holidays far more often than commitments. A person can say otherwise per calendar, one trait at
/// a time; an event with several of the traits is busy only when each of them is overridden.
/// Tentative events are busy (they may well happen), as in free/busy's BUSY-TENTATIVE.
public struct BusyPolicy: Sendable, Hashable {
    public var transparentIsBusy: Bool
    public var cancelledIsBusy: Bool
    public var allDayIsBusy: Bool
    /// Nothing in the calendar takes time (a public-holidays feed, someone else's schedule).
    public var allFree: Bool

    public init(transparentIsBusy: Bool = false, cancelledIsBusy: Bool = false, allDayIsBusy: Bool = false, allFree: Bool = false) {
        self.transparentIsBusy = transparentIsBusy
        self.cancelledIsBusy = cancelledIsBusy
        self.allDayIsBusy = allDayIsBusy
        self.allFree = allFree
    }

    /// Transparent, cancelled and all-day events are free.
    public static let standard = BusyPolicy()
    /// Every event is free.
    public static let free = BusyPolicy(allFree: true)

    public func isBusy(_ traits: EventTraits) -> Bool {
        !allFree
            && (!traits.isTransparent || transparentIsBusy)
            && (!traits.isCancelled || cancelledIsBusy)
            && (!traits.isAllDay || allDayIsBusy)
    }

    /// The event's busy block, or nil when this policy counts it as free.
    public func block(eventID: String, title: String, range: TimeRange, traits: EventTraits) -> BusyBlock? {
        isBusy(traits) ? BusyBlock(range, .event(id: eventID, title: title)) : nil
    }
}
