/// Follows a conversation message by message and keeps the plans in it: who proposed what,
/// which were accepted, refused, countered or called off. The last word decides the state.
struct ConversationTracker {
    struct Plan {
        enum Status { case open, agreed, refused, cancelled }

        var status: Status = .open
        /// Whoever last set the plan's when: the other person's yes is what agrees it.
        var proposer: String
        /// When, what and where, as the messages so far have settled them.
        var details = PlanFragment()
        var isArabic: Bool
        /// "ok, what time?": the day is fine, the time is open.
        var timeAsked = false
        /// When this plan last changed, for "the most recent proposal decides".
        var touched: Int
        /// The other person hedged ("ان شاء الله بس ما اوعدك").
        var hedged = false
        /// After a hedge the proposer asked something aside ("let me know by Wednesday"): the next
        /// bare yes answers that, not the plan.
        var awaitsWord = false
        /// Every when proposed for this plan, and by whom: taking back the other's earlier offer
        /// ("ok fine the 16th 4:30am") accepts it.
        var offers: [Offer] = []

        /// Set by a statement of a when, with no invitation and no question ("الماتش بكرة الساعة ٩").
        var isStatement = false
        /// A statement that names neither of the two ("PTA meeting moved to Thursday 7pm").
        var namesNoOne = false
        /// Refused by "busy until an hour" ("بكرة عندي دوام لين ٢") while its hour was open: the
        /// proposer's later hour ("عادي، من ٤ الى ٦") asks again.
        var refusedBusyUntil = false

        /// The one day of the plan, if it has exactly one.
        var day: LocalDateTime? { details.days.count == 1 && !details.daysAreAlternatives ? details.days[0] : nil }
    }

    struct Offer {
        var proposer: String
        var days: [LocalDateTime]
        var clock: SpokenClock?
        var anchor: PrayerAnchor?
    }

    private(set) var plans: [Plan] = []
    private var step = 0
    /// The latest message that named a day or a time and touched no plan: the talk moved on to
    /// something else then, and the plans before it are out of focus.
    private var otherWhenStep = 0
    /// The day of the message being read: a time said with no day is on it.
    private var today = LocalDateTime(daysSinceEpoch: 0)

    /// The latest forwarded announcement with a time ("Forwarded: opening night, Friday 6-9pm"):
    /// not a plan, until one of the two asks the other along.
    private var announcement: PlanFragment?
    /// Clock times of the last message's own-business clauses.
    private var echoable: [SpokenClock] = []

    /// A message that asked or proposed something, and the plans it set or changed (none for a
    /// side request: "mind the sun", "send pics", "did you see the card?").
    private struct Ask {
        var sender: String
        var plans: Set<Int>
        /// "did you hear the match is Monday?": what the reply says about it is news too.
        var aboutNews = false
    }

    /// The latest message that asked or proposed something: a reply from the other side answers it.
    private var lastAsk: Ask?

    /// Who sent the message before this one.
    private var lastSender: String?
    /// The message before this one told a thing's day ("the recital is friday right").
    private var lastThingsDay = false
    /// The sender of the message before this one, if it told the other not to do something.
    private var lastForbidder: String?
    /// The hours the message before this one said: a yes that says one of them back takes it up.
    private var lastClocks: [SpokenClock] = []
    /// Who last invited without a when ("are you still coming to help me cook?"), until the talk moves on.
    private var inviterWithoutWhen: String?
    /// The other asked that inviter "when?": the inviter's next when is the invitation's.
    private var whenAskedOf: String?

    mutating func take(_ reading: MessageReading, from sender: String) {
        defer { lastSender = sender }
        var reading = reading
        let bound = lastAsk.flatMap { $0.sender == sender ? nil : $0 }
        let bindsThingsDay = lastThingsDay
        lastThingsDay = reading.tellsAThingsDay
        // Bind the answer to what it answers: a yes or no to the other's latest question or request
        // that set no plan ("did you see the card?" "yes") leaves the plans as they are, unless the
        // reply itself names a plan's when.
        if let bound, bound.plans.isEmpty, reading.accepts || reading.denies, !reading.fragments.contains(where: \.hasWhen) {
            reading.accepts = false
            reading.denies = false
        }
        // "fine 7.30 dont bail" "wont": a short no to the other's "don't" promises; it refuses nothing.
        if lastForbidder != nil, lastForbidder != sender, reading.denies, !reading.cancels, reading.wordCount <= 3, reading.fragments.isEmpty {
            reading.denies = false
        }
        lastForbidder = reading.forbidsSomething ? sender : nil
        readAnswerToWhen(&reading, from: sender)
        answered = bound.map(\.plans) ?? []
        answersTheOther = bound != nil
        // "سمعت بلي الخضرة تلعب الاثنين؟" "ايه، الماتش مع 9": the answer to a question about news
        // tells more of the news; it proposes nothing.
        if bound?.aboutNews == true, !reading.invites, !reading.isQuestion {
            reading.isAboutOthersOnly = true
            // "the recital is friday right" "yes friday at 8", "ابوج رجع؟" "اي رجع الجمعة": the yes and the
            // day are about the thing too.
            if bindsThingsDay {
                reading.accepts = false
                reading.fragments.removeAll()
            }
        }
        let before = plans.count
        takeMessage(reading, from: sender)
        lastClocks = reading.fragments.flatMap { [$0.clock].compactMap { $0 } + $0.laterClocks }
        // (The answer to a word about a thing's day, "the recital is friday right" "ya friday at 8", is a
        // parenthesis: the plan waiting for an answer stays in focus.)
        if reading.fragments.contains(where: \.hasWhen) || !reading.excuseDays.isEmpty || !reading.excuseClocks.isEmpty,
           plans.count == before, !plans.contains(where: { $0.touched == step }), bound?.aboutNews != true || !bindsThingsDay {
            otherWhenStep = step
        }
        // The plans this message proposed or re-proposed: still open, and now the sender's to be answered.
        let changed = Set(plans.indices.filter { ($0 >= before || plans[$0].touched == step) && plans[$0].status == .open && plans[$0].proposer == sender })
        // "يعني معنا؟" after the other's "free after 5": the proposer asking whether the other joins asks about the plan in focus.
        let joined = reading.asksToJoin && !reading.asksWhatOtherKnows
            ? Set(plans.indices.filter { plans[$0].status == .open && plans[$0].proposer == sender && inFocus($0) }) : []
        // Asked again, the plan is what the next yes answers, whatever aside the proposer said after the other's hedge.
        for index in joined { plans[index].awaitsWord = false }
        if !changed.isEmpty || !joined.isEmpty {
            lastAsk = Ask(sender: sender, plans: changed.union(joined))
        } else if reading.isQuestion || reading.invites || reading.asksTime || reading.asksWhen || reading.requestsAside || reading.tellsAThingsDay {
            lastAsk = Ask(sender: sender, plans: [], aboutNews: (reading.asksWhatOtherKnows && reading.isQuestion || reading.tellsAThingsDay) && !reading.invites)
        } else if lastAsk?.sender != sender {
            // An answer closes the question it answers; so does a yes held by a condition ("if it
            // doesn't rain I'm in"): a later "ok good" about something else does not answer it again.
            if reading.accepts || reading.denies || reading.isTentative || reading.isConditional { lastAsk = nil }
        }
    }

    /// "Are you still coming to help me cook?" "Yes of course, when?" "Thursday, we start at 6am": the inviter's
    /// answer to "when?" offers that when for the invitation, as much as asking would.
    private mutating func readAnswerToWhen(_ reading: inout MessageReading, from sender: String) {
        let hasWhen = reading.fragments.contains(where: \.hasWhen)
        if whenAskedOf == sender, hasWhen, !reading.isQuestion {
            reading.invites = true
        }
        let asksWhen = reading.isQuestion && reading.asksWhen && !hasWhen
        whenAskedOf = asksWhen && inviterWithoutWhen.map { $0 != sender } == true ? inviterWithoutWhen : nil
        if reading.invites, !hasWhen {
            inviterWithoutWhen = sender
        } else if !asksWhen {
            inviterWithoutWhen = nil
        }
    }

    /// Who turned each refused plan down.
    private var refusedBy: [Int: String] = [:]

    /// The plans the message being read answers (set by the other's latest ask).
    private var answered: Set<Int> = []
    /// The message being read answers the other's latest question or request ("fi ghayro?", "another day?").
    private var answersTheOther = false

    private mutating func takeMessage(_ reading: MessageReading, from sender: String) {
        step += 1
        if reading.isForwarded {
            if let fragment = reading.fragments.first(where: \.hasWhen) { announcement = fragment }
            return
        }
        var reading = reading
        var fragments = reading.fragments
        if reading.isPast || reading.isHypothetical { fragments = [] }
        // "we should hang out sometime": a wish with no time frame names no when, and touches no plan on the table.
        if reading.hasNoTimeFrame { fragments.removeAll { !$0.hasWhen } }
        let today = reading.sentAt.midnight
        self.today = today

        // "4:45??" after "the suhoor alarm for 4:45": an echo of someone's own time, not a proposal.
        if !echoable.isEmpty {
            fragments.removeAll { fragment in
                !fragment.hasDay && fragment.anchor == nil && fragment.clock.map { clock in echoable.contains { $0.hour == clock.hour && $0.minute == clock.minute } } == true
            }
        }
        echoable = reading.excuseClocks
        // "we only finished it today at 4", sent at six: a when said for today that had passed, in
        // either half of the day, when the message was sent tells of something done, not a plan.
        fragments.removeAll { $0.hasPassed(before: reading.sentAt) }
        fragments = fragments.map(onPlanWeekday)

        // "wanna go together?" under a forwarded announcement: that event, proposed. A reminder about a
        // deadline ("the report is due Sunday by 12, don't forget") speaks of its own thing, not the card.
        if let announced = announcement, reading.invites, !reading.hasNoTimeFrame, !reading.accepts, !reading.asksWhatOtherKnows, !reading.speaksOfOtherThing,
           !fragments.contains(where: \.hasWhen),
           !plans.contains(where: { $0.status == .open || $0.status == .agreed }) {
            var fragment = announced
            if let own = fragments.first {
                fragment.activity = fragment.activity ?? own.activity
                fragment.location = fragment.location ?? own.location
            }
            fragments = [fragment]
            reading.invites = true
            announcement = nil
        }
        // "Sunday I have the board presentation": an excuse on the day of the other's plan turns it down.
        // A hedge that gives the reason ("ان شاء الله بس ما اوعدك، الجمعة عندي مشوار") stays a hedge.
        // "…but free after it" is still an answer about that plan: it stays the one being talked about.
        if reading.freeAfterExcuse {
            for index in plans.indices where plans[index].status == .open && plans[index].proposer != sender && plans[index].day.map(reading.excuseDays.contains) == true {
                plans[index].touched = step
            }
        }
        if !reading.denies, !reading.accepts, !reading.isTentative, !reading.freeAfterExcuse, !reading.excuseDays.isEmpty,
           plans.contains(where: { $0.status == .open && $0.proposer != sender && $0.day.map(reading.excuseDays.contains) == true }) {
            reading.denies = true
        }

        // "خسارة، بالتوفيق", "too bad, another time": the proposer taking the other's answer as a no.
        if reading.regrets, !reading.accepts, !fragments.contains(where: \.hasWhen), lastSender != sender, lastSender != nil,
           let latest = plans.indices.filter({ plans[$0].status == .open }).max(by: { plans[$0].touched < plans[$1].touched }),
           plans[latest].proposer == sender {
            plans[latest].status = .refused
            plans[latest].touched = step
            return
        }
        // "الماتش بكرة الساعة ٩" "اه هتفرج عليه في البيت": a when stated, not asked, that the other
        // answers by watching it where they are was news. It goes, as the latest plan, with nothing said of it since.
        if reading.speaksOfOtherThing, !reading.accepts, !reading.denies, !reading.invites, !fragments.contains(where: \.hasWhen),
           let news = plans.last, news.isStatement, news.status == .open, news.proposer != sender, news.touched == step - 1 {
            let index = plans.count - 1
            plans.removeLast()
            refusedBy[index] = nil
            lastAsk = nil
            return
        }
        // "PTA meeting moved to Thursday 7pm" "got it": taking note of a when that names neither of the
        // two is taking note of news; it was no plan between them.
        if reading.onlyTakesNote, let news = plans.last, news.namesNoOne, news.status == .open, news.proposer != sender, news.touched == step - 1 {
            let index = plans.count - 1
            plans.removeLast()
            refusedBy[index] = nil
            lastAsk = nil
            return
        }
        // "if rain we cancel": a call-off on a condition is a condition.
        if reading.cancels, reading.isConditional { reading.cancels = false }
        if reading.cancels, cancel(reading, fragments, sender: sender, today: today) { return }
        if reading.denies, deny(reading, fragments, sender: sender) { return }
        if reading.isTentative || reading.isConditional, hasOpenPlan(notBy: sender) {
            for index in plans.indices where plans[index].status == .open && plans[index].proposer != sender {
                plans[index].touched = step
                plans[index].hedged = true
            }
            return
        }
        // "so come and join by the afternoon" after an excuse: the proposer asks again, so the
        // plan is open again for the other's answer.
        if reading.invites, !reading.hasNoTimeFrame, !fragments.contains(where: \.hasDay),
           let latest = plans.indices.max(by: { plans[$0].touched < plans[$1].touched }),
           plans[latest].status == .refused,
           plans[latest].proposer == sender
            || refusedBy[latest] == sender && !reading.denies && !reading.isTentative && reading.opensWithContrast {
            // "بس الصبح فاضي": the one who said no offers another part of the day; the other's yes agrees it.
            plans[latest].status = .open
            plans[latest].proposer = sender
            plans[latest].touched = step
        }
        // "Chale I dey. 3 o'clock", "الأحد مع الأربعة": the other person saying the plan's when
        // back, asking nothing, agrees to it. A longer message naming the day says more about it
        // ("the 12th I'm in Jeddah for work").
        if !reading.accepts, reading.wordCount <= 6, !reading.isQuestion, !reading.invites, !reading.isVetoed, !fragments.isEmpty, fragments.allSatisfy(\.hasWhen),
           let latest = plans.indices.filter({ plans[$0].status == .open }).max(by: { plans[$0].touched < plans[$1].touched }),
           plans[latest].proposer != sender, plans[latest].day != nil,
           fragments.allSatisfy({ !changesWhen(offered($0, to: latest), of: latest) }) {
            reading.accepts = true
        }
        if !reading.isQuestion, !fragments.contains(where: \.hasWhen) {
            for index in plans.indices where plans[index].status == .open && plans[index].proposer == sender && plans[index].hedged {
                plans[index].awaitsWord = true
            }
        }
        // "yes we should!" … "perfect, which day?": the when of a plan just agreed is asked, so
        // it is not settled yet; the other's answer settles it.
        if reading.isQuestion, reading.asksWhen || reading.asksTime, !fragments.contains(where: \.hasWhen),
           let latest = plans.indices.last(where: { plans[$0].status == .agreed && plans[$0].touched == step - 1 }),
           !reading.asksWhen || plans[latest].details.clock == nil && plans[latest].details.anchor == nil {
            plans[latest].status = .open
            plans[latest].proposer = sender
            plans[latest].timeAsked = reading.asksTime && !reading.asksWhen
            plans[latest].touched = step
            return
        }
        // "بكرة عندي دوام لين ٢" "عادي، من ٤ الى ٦": after a no that was only busy until an hour, the
        // proposer's hour on the same day reopens the plan for the other's answer.
        if !reading.denies, !reading.cancels, let fragment = fragments.first(where: { $0.hasTime }), !fragment.hasDay || fragment.days == plans.last?.details.days,
           let latest = plans.indices.last, plans[latest].status == .refused, plans[latest].refusedBusyUntil,
           plans[latest].proposer == sender, refusedBy[latest] != sender {
            plans[latest].status = .open
            plans[latest].refusedBusyUntil = false
            merge(fragment, into: latest, sender: sender)
            plans[latest].touched = step
            return
        }
        // "ay sa3a?" "bnmorr 3aleki 8": the hour that closes the answer to "what time?" is the plan's time.
        if let hour = reading.closingHour, !reading.isQuestion, !fragments.contains(where: \.hasTime), lastSender != sender,
           plans.contains(where: { $0.timeAsked && $0.status == .open && $0.details.clock == nil && $0.details.anchor == nil }) {
            if let index = fragments.indices.first(where: { !fragments[$0].hasDay }) ?? fragments.indices.first {
                fragments[index].clock = hour
            } else {
                var fragment = PlanFragment()
                fragment.clock = hour
                fragments.append(fragment)
            }
        }
        // "samedi je bosse jusqu'à 18h" … "mais après le maghrib c'est bon": a yes after "but", just
        // after one's own no, takes the no back; the plan is open again for that yes.
        if reading.accepts, reading.opensWithContrast, !reading.isQuestion,
           let latest = plans.indices.max(by: { plans[$0].touched < plans[$1].touched }),
           plans[latest].status == .refused, refusedBy[latest] == sender, plans[latest].proposer != sender, step - plans[latest].touched <= 2 {
            plans[latest].status = .open
            refusedBy[latest] = nil
        }
        var unused = fragments
        if reading.accepts { unused = accept(reading, fragments, sender: sender) }
        for fragment in unused {
            add(fragment, reading: reading, sender: sender, today: today)
        }
    }

    // MARK: acts

    /// "Sunday works" in answer to "what about the Sunday then, the 20th?", "samedi c'est bon" to
    /// "samedi 2 janvier": a bare weekday some weeks before a plan's day on that weekday names the plan's day.
    private func onPlanWeekday(_ fragment: PlanFragment) -> PlanFragment {
        guard fragment.dayIsPlainWeekday, let day = fragment.days.first,
              let planDay = plans.last(where: { plan in
                  guard plan.status == .open || plan.status == .agreed, let planDay = plan.day else { return false }
                  let gap = planDay.daysSinceEpoch - day.daysSinceEpoch
                  return gap > 0 && gap % 7 == 0 && gap <= 35
              })?.day
        else { return fragment }
        var result = fragment
        result.days = [planDay]
        return result
    }

    private func hasOpenPlan(notBy sender: String) -> Bool {
        plans.contains { $0.status == .open && $0.proposer != sender }
    }

    /// An agreed plan called off, or put off to a new proposed time.
    private mutating func cancel(_ reading: MessageReading, _ fragments: [PlanFragment], sender: String, today: LocalDateTime) -> Bool {
        let fragment = fragments.first
        let candidates = plans.indices.filter { plans[$0].status == .agreed } + plans.indices.filter { plans[$0].status == .open }
        let chosen = fragment.flatMap { self.target(for: $0, among: candidates) } ?? candidates.max { plans[$0].touched < plans[$1].touched }
        guard let target = chosen else {
            // "Can we postpone our meeting today at 3 to tomorrow, same time?": a plan both knew.
            if var fragment, fragment.hasWhen, reading.isQuestion || reading.invites {
                if let last = fragment.days.last { fragment.days = [last] }
                plans.append(newPlan(fragment, reading: reading, sender: sender, today: today))
                return true
            }
            return false
        }
        let oldDay = plans[target].day
        let newDays = fragment?.days.filter { $0 != oldDay } ?? []
        if var fragment, !newDays.isEmpty, reading.isQuestion || reading.invites {
            fragment.days = [newDays[newDays.count - 1]]
            plans[target].status = .open
            merge(fragment, into: target, sender: sender)
        } else {
            plans[target].status = .cancelled
        }
        plans[target].touched = step
        return true
    }

    /// A refusal of the other person's plan, possibly with a counter-proposal in the same message.
    private mutating func deny(_ reading: MessageReading, _ fragments: [PlanFragment], sender: String) -> Bool {
        let open = plans.indices.filter { plans[$0].status == .open && plans[$0].proposer != sender }
        let fragment = fragments.first
        var targets = open
        if let fragment, let specific = self.target(for: fragment, among: open), fragment.activity != nil { targets = [specific] }
        if targets.isEmpty {
            // "Tonight I can't" about a plan already agreed: it is off.
            // So is "مش هقدر آجي السينما": a no that names the agreed plan's activity.
            let days = (fragment?.days ?? []) + reading.excuseDays
            let activity = fragment?.activity?.english
            guard !days.isEmpty || activity != nil else { return false }
            var agreed = plans.indices.filter { index in
                plans[index].status == .agreed
                    && (plans[index].day.map { days.contains($0) } == true || (activity != nil && plans[index].details.activity?.english == activity))
            }
            // "sorry I'm stuck at the office Wednesday, Thursday same time?": a no that asks for
            // another day is about the agreed plan still being talked about.
            if agreed.isEmpty, reading.isQuestion || reading.invites, fragment?.hasDay == true,
               let latest = plans.indices.filter({ plans[$0].status == .agreed }).max(by: { plans[$0].touched < plans[$1].touched }), inFocus(latest) {
                agreed = [latest]
            }
            guard let last = agreed.last else { return false }
            // "معليش طلع لي شغل الأربعاء، نخليها الخميس نفس الوقت؟": a no that asks for another day moves the plan.
            if var fragment, reading.isQuestion || reading.invites, let oldDay = plans[last].day,
               let newDay = fragment.days.last(where: { $0 != oldDay && !reading.excuseDays.contains($0) }) {
                fragment.days = [newDay]
                plans[last].status = .open
                merge(fragment, into: last, sender: sender)
                plans[last].touched = step
                return true
            }
            plans[last].status = .cancelled
            plans[last].touched = step
            return true
        }
        for target in targets {
            let oldDay = plans[target].day
            let counterDays = fragment?.days.filter { $0 != oldDay } ?? []
            // "can't Friday, Saturday works though" offers a day as much as "Saturday?" does.
            // "Tuesday I have a meeting till 6. By 7 I fit reach": busy until an hour, then an hour, counters.
            let freeFrom = reading.busyUntil && !plans[target].details.wholeDay && fragment.map { !$0.hasDay && $0.hasTime } == true
            let proposesAgain = reading.isQuestion || reading.invites || reading.accepts || freeFrom
            let newTime = fragment.map { $0.hasTime && changesWhen(offered($0, to: target), of: target) } ?? false
            if var fragment, proposesAgain, !counterDays.isEmpty || (!fragment.hasDay && fragment.hasTime) || newTime {
                fragment = offered(fragment, to: target)
                if !counterDays.isEmpty { fragment.days = counterDays }
                merge(fragment, into: target, sender: sender)
            } else {
                plans[target].status = .refused
                refusedBy[target] = sender
                plans[target].refusedBusyUntil = reading.busyUntil && !plans[target].details.wholeDay
                    && plans[target].details.clock == nil && plans[target].details.anchor == nil
            }
            plans[target].touched = step
        }
        return true
    }

    /// The other person's yes. Returns the fragments it did not use, for `add`.
    private mutating func accept(_ reading: MessageReading, _ fragments: [PlanFragment], sender: String) -> [PlanFragment] {
        // "how about 8pm instead" … "ok fine the 16th 4:30am": a yes that takes back the other's
        // earlier offer answers that offer, though the last word on the plan was the sender's own.
        if !reading.isQuestion {
            for index in plans.indices where plans[index].status == .open && plans[index].proposer == sender {
                guard let fragment = fragments.first(where: \.hasTime), let clock = fragment.clock,
                      let earlier = plans[index].offers.last(where: { offer in
                          offer.proposer != sender && offer.clock.map { $0.hour == clock.hour && $0.minute == clock.minute } == true
                              && (!fragment.hasDay || offer.days == fragment.days)
                      })
                else { continue }
                plans[index].details.days = earlier.days
                plans[index].details.clock = clock.isPM == nil ? earlier.clock : clock
                plans[index].details.anchor = earlier.anchor
                plans[index].proposer = earlier.proposer
            }
        }
        var open = plans.indices.filter { plans[$0].status == .open && plans[$0].proposer != sender }
        // The yes goes to the plans the other's latest proposal set, not to older ones still open.
        let bound = open.filter(answered.contains)
        if !bound.isEmpty {
            open = bound
        } else {
            // A yes that answers nothing asked about a plan ("ok I go bring" to "bring me
            // chocolate") agrees only a plan still being talked about, not one left hanging
            // further up. Nor, answering nothing at all ("👌" after the tickets are booked), an
            // older plan nobody took up since the latest agreement.
            // A yes that names the plan's day ("تمام عيني، الجمعة") is about it wherever it was left.
            let lastAgreement = answered.isEmpty ? plans.filter { $0.status == .agreed }.map(\.touched).max() ?? -1 : -1
            open = open.filter { index in
                plans[index].touched > lastAgreement
                    && (inFocus(index) || fragments.contains { $0.hasDay && !plans[index].details.days.isEmpty && Set($0.days).isSubset(of: plans[index].details.days) })
            }
        }
        guard !open.isEmpty else { return fragments }
        var unused = fragments
        var targeted: [Int: PlanFragment] = [:]
        for fragment in fragments {
            if let index = target(for: fragment, among: open) {
                targeted[index] = fragment
                unused.removeAll { $0.isSame(as: fragment) }
            }
        }
        // A yes that says the plan's own time first ("7:30 works better, I have spin til 6:45") takes
        // that time: unlike a no or a counter, it is not read for a later clock (`offered`).
        for index in open {
            if plans[index].awaitsWord, targeted[index] == nil {
                plans[index].awaitsWord = false
                continue
            }
            if let fragment = targeted[index], changesWhen(fragment, of: index) {
                merge(fragment, into: index, sender: sender)
                if reading.isQuestion {
                    // "Monday works. 8?": a refined proposal, for the other to accept. Said by the one who
                    // hedged ("If it doesn't rain" … "Then we're on! 12:45?"), it is answered afresh.
                    plans[index].hedged = false
                    plans[index].awaitsWord = false
                    plans[index].touched = step
                    continue
                }
            } else if let fragment = targeted[index] {
                mergeDetails(fragment, into: index)
            }
            if reading.asksTime, plans[index].details.clock == nil, plans[index].details.anchor == nil, targeted.isEmpty || targeted[index] != nil {
                plans[index].timeAsked = true
                plans[index].touched = step
                continue
            }
            if plans[index].day != nil, !plans[index].timeAsked || plans[index].details.clock != nil || plans[index].details.anchor != nil {
                plans[index].status = .agreed
            }
            plans[index].touched = step
        }
        return unused
    }

    // MARK: details and new plans

    private mutating func add(_ fragment: PlanFragment, reading: MessageReading, sender: String, today: LocalDateTime) {
        // "What time is the match Thursday?" with nothing arranged yet asks about something else.
        // "What time is the match Thursday?": asking the when of something no plan in the talk is
        // about (nothing arranged yet, or a thing none of the plans does) asks about something else.
        let asksAbout = (reading.asksTime || reading.asksWhen) && !reading.invites
            && (!plans.indices.contains(where: inFocus) || fragment.activity.map { activity in !plans.contains { $0.details.activity?.english == activity.english } } == true)
        let vetoed = (reading.isVetoed && !reading.invites) || asksAbout
        // "did you hear KPLC is doing maintenance Thursday, 9 to 5?", "my in-laws land that night,
        // JFK at 9pm": news, and a report of one's own or someone else's day, say nothing about
        // the plans between the two, whatever plan is open.
        let reportsOnly = !reading.invites && (reading.asksWhatOtherKnows && reading.isQuestion
            || reading.isAboutOthersOnly && !reading.accepts && !reading.denies && (!reading.isQuestion || !reading.asksAboutTheWhen)
                // "I'm free Sunday" in answer to the other's plan is a counter, not a report.
                && !hasOpenPlan(notBy: sender)
                // "what time?" "She said half 1": the answer to the other's question about the plan.
                && answered.isEmpty && !plans.contains(where: \.timeAsked))
        if reportsOnly, fragment.hasWhen, !plans.isEmpty {
            if reading.asksWhatOtherKnows { announcement = fragment }
            return
        }
        if let index = target(for: fragment, among: Array(plans.indices)) {
            let fragment = offered(fragment, to: index)
            switch plans[index].status {
            case .open:
                guard !vetoed || fragment.hasTime else { return }
                // Chatter long after the plan was last talked about ("the bank opens at 9 now")
                // names the when of something else; only a question, an invitation or a yes
                // comes back to the plan.
                if !inFocus(index), !reading.isQuestion, !reading.invites, !reading.accepts { break }
                // "also the bins are going out wednesday now not tuesday": the proposer's own
                // longer statement naming other days, asking nothing, is about something else.
                // ("did you get your bonus yet? Ours comes Friday": the question is not about the when.)
                let asideDays = plans[index].proposer == sender && !(reading.isQuestion && reading.asksAboutTheWhen) && !reading.invites && !reading.accepts && !reading.cancels
                    && reading.wordCount > 5 && fragment.hasDay && plans[index].day != nil && fragment.days != plans[index].details.days
                if asideDays { return }
                // "ok on voit samedi soir", "I'll let you know Thursday": a hedge names when it will be
                // decided, not a new when for the plan.
                if reading.isTentative, !reading.isQuestion, !reading.invites, changesWhen(fragment, of: index) { return }
                if changesWhen(fragment, of: index) {
                    // The one who hedged asking a new when ("If it doesn't rain" … "Meet at 12:45?") is answered afresh.
                    if reading.isQuestion, plans[index].hedged, plans[index].proposer != sender {
                        plans[index].hedged = false
                        plans[index].awaitsWord = false
                    }
                    merge(fragment, into: index, sender: sender)
                } else {
                    mergeDetails(fragment, into: index)
                }
                plans[index].touched = step
                return
            case .agreed:
                // Another day after a plan is agreed, with no word of calling it off or moving it
                // ("text me the address for saturday", "and dinner friday?"), is another plan or
                // an aside; a new time on the same day refines it.
                let otherDay = fragment.hasDay && fragment.days != plans[index].details.days
                // "…moved the stocktake to Thursday 😤 can we do Friday?": another day asked for, with no activity of its
                // own, while the plan is talked about, is a change of mind about it.
                let movesIt = fragment.activity == nil && fragment.location == nil && reading.isQuestion && reading.invites
                    && !reading.opensWithAddition && inFocus(index)
                if otherDay, !movesIt, fragment.activity == nil || fragment.activity?.english != plans[index].details.activity?.english {
                    break
                }
                // A longer statement with a time after the plan is agreed ("the load shedding is
                // 12 to 2:30 on Sunday", "our office moved to tower 2.08") tells something beside
                // it; moving the plan is asked ("make it 7.30 ok?") or said short ("8 instead").
                // A time for a plan agreed without one ("Done, 12.30") refines it.
                let refines = plans[index].details.clock == nil && plans[index].details.anchor == nil && !fragment.hasDay
                // Either way only while the plan is still being talked about: "Kickoff 4pm" in
                // talk about a match after the plan was settled moves nothing.
                let focused = inFocus(index)
                let moves = reading.isQuestion || reading.invites || reading.accepts || focused && (reading.wordCount <= 5 || refines)
                if changesWhen(fragment, of: index), !vetoed, moves {
                    // "on se retrouve à Agdal à 16h45" "Wakha, 16h45 Agdal": a yes that says back the hour the other
                    // has just said takes it up; the plan stays agreed, at that hour.
                    plans[index].status = reading.accepts && takesUpTheOthersHour(fragment) ? .agreed : .open
                    merge(fragment, into: index, sender: sender)
                    plans[index].touched = step
                } else if focused {
                    mergeDetails(fragment, into: index)
                }
                return
            case .refused, .cancelled:
                // "fi ghayro?" "fi kaman wa7ad el arb3a": a new when said in answer to the other's
                // question offers it as much as asking does.
                // "السبت عندي دوام" … "بس بقدر آجي الاحد": the one who said no offering another when, after a "but", counters.
                // "el sob7 ma agdar" "5alaha ba3d el 3asr": the proposer answering the other's no at once
                // with another time of the same day counters, said as a statement as much as asked.
                let countersAtOnce = plans[index].proposer == sender && refusedBy[index].map { $0 != sender } == true
                    && step - plans[index].touched == 1 && !fragment.hasDay && fragment.hasTime && !reading.isAboutOthersOnly && !reading.accepts
                let offers = reading.isQuestion || reading.invites || answersTheOther && plans[index].proposer == sender && !reading.isAboutOthersOnly
                    || refusedBy[index] == sender && reading.opensWithContrast || countersAtOnce
                if fragment.hasWhen, offers, !vetoed, changesWhen(fragment, of: index) {
                    plans[index].status = .open
                    merge(fragment, into: index, sender: sender)
                    plans[index].touched = step
                    return
                }
                if fragment.activity == nil { return }
            }
        }
        var fragment = fragment
        // "and then dinner after Isha" with no day of its own is on the day of the plan it follows.
        if fragment.followsOn, !fragment.hasDay, let previous = plans.indices.max(by: { plans[$0].touched < plans[$1].touched }) {
            fragment.days = plans[previous].details.days
        }
        // "ما تيجي ننزل نتمشى عالكورنيش بالليل؟": an invitation for a part of the day is for today.
        guard fragment.hasWhen || reading.invites && fragment.partOfDay != nil && !reading.hasNoTimeFrame, !vetoed else { return }
        // Only plans between the two people (labelling rule 1): "did you hear Mona's wedding is on the 20th?"
        // asks what the other knows, and "I'm meeting the client Thursday at 10" reports the
        // sender's (or someone else's) schedule. Either waits, like a forwarded card, for an invitation.
        if !reading.invites, reading.asksWhatOtherKnows && reading.isQuestion {
            announcement = fragment
            return
        }
        if !reading.invites, reading.isAboutOthersOnly, !reading.isQuestion || !reading.asksAboutTheWhen { return }
        // "can you send me the list tonight?": a thing to send, no meeting.
        if reading.asksToSend, fragment.activity == nil { return }
        // A statement with no invitation and no question is a plan only with a time to it
        // ("الليلة الساعة ٧ الا ربع عند باب المول"), not a bare day ("Thursday: my cousin's wedding").
        // A question proposes, unless all it asks is "and you?" ("you?? you get tired climbing to
        // the 2nd floor", "ya 15/3. I'm renewing, u?"): that asks about the other's own day.
        guard reading.invites || reading.isQuestion && !reading.asksOnlyAboutTheOther
            || ((fragment.activity != nil || fragment.location != nil) && (fragment.hasTime || fragment.partOfDay != nil)) else { return }
        var plan = newPlan(fragment, reading: reading, sender: sender, today: today)
        plan.isStatement = !reading.invites && !reading.isQuestion
        plan.namesNoOne = plan.isStatement && !reading.namesTheTwo
        plans.append(plan)
    }

    /// The fragment's hour is one the other said in the message before.
    private func takesUpTheOthersHour(_ fragment: PlanFragment) -> Bool {
        guard let clock = fragment.clock else { return false }
        return lastClocks.contains { $0.hour % 12 == clock.hour % 12 && $0.minute == clock.minute }
    }

    /// A plan is in focus while the talk is on it: touched by this message or one of the three
    /// before it, with no message about the when of something else since; or the plan this
    /// message answers.
    private func inFocus(_ index: Int) -> Bool {
        step - plans[index].touched <= 3 && plans[index].touched >= otherWhenStep || answered.contains(index)
    }

    private func newPlan(_ fragment: PlanFragment, reading: MessageReading, sender: String, today: LocalDateTime) -> Plan {
        var plan = Plan(proposer: sender, details: fragment, isArabic: reading.isArabic, touched: step)
        plan.details.isVague = fragment.isVague && fragment.days.isEmpty
        // A time with no day is today's ("let's meet after Maghrib").
        if plan.details.days.isEmpty, !plan.details.isVague, fragment.hasTime || fragment.partOfDay != nil { plan.details.days = [today] }
        plan.offers = [Offer(proposer: sender, days: plan.details.days, clock: plan.details.clock, anchor: plan.details.anchor)]
        return plan
    }

    /// The plan a fragment is about: the one with the same activity, else the most recent one.
    private func target(for fragment: PlanFragment, among candidates: [Int]) -> Int? {
        guard !candidates.isEmpty else { return nil }
        if let activity = fragment.activity {
            // "and then dinner after Isha": another plan, unless one of these is that activity.
            if fragment.followsOn, !candidates.contains(where: { plans[$0].details.activity?.english == activity.english }) { return nil }
            if let same = candidates.last(where: { plans[$0].details.activity?.english == activity.english }) { return same }
            // "والمعرض الساعة ٥؟" names another plan than these.
            if plans.contains(where: { $0.details.activity?.english == activity.english }) { return nil }
            // A different activity on a day of its own is a new plan ("and brunch Sunday at 11").
            if fragment.hasDay, !candidates.contains(where: { plans[$0].details.days == fragment.days }) { return nil }
        }
        let open = candidates.filter { plans[$0].status == .open }
        if !fragment.hasDay, fragment.hasTime, let waiting = open.last(where: { plans[$0].timeAsked }) { return waiting }
        return (open.isEmpty ? candidates : open).max { plans[$0].touched < plans[$1].touched }
    }

    /// A fragment as an answer to a plan: when its first clock only repeats the plan's time
    /// ("Friday 4 is gone, I've got 5.15?"), the last new clock in it is the one offered.
    private func offered(_ fragment: PlanFragment, to index: Int) -> PlanFragment {
        guard let clock = fragment.clock, let current = plans[index].details.clock, !fragment.laterClocks.isEmpty else { return fragment }
        let carried = carryHalfOfDay(clock, from: current)
        guard carried.hour == current.hour, carried.minute == current.minute else { return fragment }
        var result = fragment
        if let other = fragment.laterClocks.last(where: { $0.hour != current.hour || $0.minute != current.minute }) {
            result.clock = other
            result.endClock = nil
        }
        return result
    }

    private func changesWhen(_ fragment: PlanFragment, of index: Int) -> Bool {
        let plan = plans[index]
        if fragment.hasDay, fragment.days != plan.details.days { return true }
        if fragment.isVague, plan.details.days.isEmpty, !plan.details.isVague { return true }
        if let clock = fragment.clock {
            guard let current = plan.details.clock else { return true }
            let carried = carryHalfOfDay(clock, from: current)
            if carried.hour != current.hour || carried.minute != current.minute { return !(current.isPM == nil && clock.hour == current.hour && clock.minute == current.minute) }
            return false
        }
        if let anchor = fragment.anchor, anchor != plan.details.anchor { return true }
        return false
    }

    /// A refined "10:15" after "10 tonight" keeps the evening; so does a counter a few hours off
    /// ("Gym 6am?" "7 better" is 07:00; "19:00?" "8?" is 20:00).
    private func carryHalfOfDay(_ clock: SpokenClock, from current: SpokenClock) -> SpokenClock {
        guard clock.isPM == nil, !clock.isTwentyFourHour, (1...12).contains(clock.hour) else { return clock }
        var result = clock
        let near = 3
        if current.isTwentyFourHour, current.hour > 12, abs(clock.hour % 12 + 12 - current.hour) <= near { result.hour = clock.hour % 12 + 12 }
        if let isPM = current.isPM, !current.isTwentyFourHour, abs(clock.hour % 12 - current.hour % 12) <= near { result.isPM = isPM }
        return result
    }

    private mutating func merge(_ fragment: PlanFragment, into index: Int, sender: String) {
        var plan = plans[index]
        if fragment.hasDay {
            plan.details.days = fragment.days
            plan.details.daysAreAlternatives = fragment.daysAreAlternatives
            plan.details.lastDay = fragment.lastDay
            plan.details.isVague = false
        } else if fragment.isVague, plan.details.days.isEmpty {
            plan.details.isVague = true
        }
        if let clock = fragment.clock {
            // "٣ الضهر" then "١١ ونص": the prayer beside the old hour said which half of the day that hour was in; a new
            // hour more than three hours off is read afresh. So is one on another day ("بكرة الساعة ١١ الصبح" then
            // "السبت الساعة ٥؟"): the part of the day went with the old day and hour.
            if let old = plan.details.clock, !old.isTwentyFourHour, !clock.isTwentyFourHour, abs(clock.hour % 12 - old.hour % 12) > 3 {
                if fragment.prayerAsPartOfDay == nil { plan.details.prayerAsPartOfDay = nil }
                if fragment.partOfDay == nil, clock.isPM == nil, fragment.hasDay, fragment.days != plans[index].details.days { plan.details.partOfDay = nil }
            }
            plan.details.clock = plan.details.clock.map { carryHalfOfDay(clock, from: $0) } ?? clock
            plan.details.endClock = fragment.endClock
            plan.details.anchor = nil
            plan.timeAsked = false
        } else if let anchor = fragment.anchor {
            plan.details.anchor = anchor
            plan.details.clock = nil
            plan.details.endClock = nil
            plan.timeAsked = false
        } else if fragment.hasDay, !fragment.sameTime, fragment.partOfDay != nil {
            // "Saturday evening?" instead of "Friday at 7": a new part of the day, no clock said.
            plan.details.clock = nil
            plan.details.anchor = nil
        }
        if plan.details.days.isEmpty, !plan.details.isVague, plan.details.clock != nil || plan.details.anchor != nil {
            plan.details.days = [today]
        }
        if let partOfDay = fragment.partOfDay { plan.details.partOfDay = partOfDay }
        if let prayer = fragment.prayerAsPartOfDay { plan.details.prayerAsPartOfDay = prayer }
        if let duration = fragment.durationMinutes { plan.details.durationMinutes = duration }
        plan.proposer = sender
        plan.offers.append(Offer(proposer: sender, days: plan.details.days, clock: plan.details.clock, anchor: plan.details.anchor))
        plans[index] = plan
        mergeDetails(fragment, into: index)
    }

    private mutating func mergeDetails(_ fragment: PlanFragment, into index: Int) {
        if let activity = fragment.activity, activity.weight > (plans[index].details.activity?.weight ?? 0) {
            plans[index].details.activity = activity
        }
        if let location = fragment.location { plans[index].details.location = location }
        if plans[index].details.durationMinutes == nil, let duration = fragment.durationMinutes { plans[index].details.durationMinutes = duration }
        // A part of the day said with no clock ("it's at night", about something else) does not
        // move a plan's clock time to the other half of the day.
        if plans[index].details.partOfDay == nil, plans[index].details.clock == nil || fragment.clock != nil, let part = fragment.partOfDay {
            plans[index].details.partOfDay = part
        }
    }
}

extension PlanFragment {
    func isSame(as other: PlanFragment) -> Bool {
        days == other.days && clock == other.clock && anchor == other.anchor && activity == other.activity && location == other.location
            && isVague == other.isVague
    }
}
