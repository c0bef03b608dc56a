import Foundation
import ICalendar
import Scheduling

/// What each notification says, in the person's language and time zone: the one place its
/// wording lives (feed, email and push all show these texts).
public struct NotificationText: Sendable {
    public let language: Language
    public let timeZone: TimeZone

    public init(account: Account) {
        language = account.language
        timeZone = TimeZone(identifier: account.timeZone) ?? .gmt
    }

    public init(language: Language, timeZone: TimeZone) {
        self.language = language
        self.timeZone = timeZone
    }

    private var arabic: Bool { language == .arabic }

    /// "Thu 26 Nov, 20:00" / "الخميس ٢٦ نوفمبر، ٢٠:٠٠".
    public func when(_ date: Date, allDay: Bool = false) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: arabic ? "ar" : "en_GB")
        formatter.timeZone = timeZone
        formatter.setLocalizedDateFormatFromTemplate(allDay ? "EEEdMMM" : "EEEdMMMHHmm")
        return formatter.string(from: date)
    }

    /// "20:00" / "٢٠:٠٠".
    public func time(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: arabic ? "ar" : "en_GB")
        formatter.timeZone = timeZone
        formatter.setLocalizedDateFormatFromTemplate("HHmm")
        return formatter.string(from: date)
    }

    // MARK: Kinds

    /// An event Jadwal wrote from a chat: added, moved or cancelled.
    public func chatEvent(_ change: ChatEventChange, title: String, start: Date, allDay: Bool, partner: String?) -> (title: String, body: String) {
        let at = when(start, allDay: allDay)
        let source = partner.map { arabic ? "من محادثتك مع \($0)." : "From your chat with \($0)." } ?? (arabic ? "من محادثة." : "From a chat.")
        switch change {
        case .created: return (arabic ? "أُضيف: \(title)، \(at)" : "Added: \(title), \(at)", source)
        case .moved: return (arabic ? "نُقل: \(title) إلى \(at)" : "Moved: \(title) to \(at)", source)
        case .cancelled: return (arabic ? "أُلغي: \(title)، \(at)" : "Cancelled: \(title), \(at)", source)
        }
    }

    /// An event that runs into others: "Dinner with Sara, Thu 26 Nov, 20:00 — conflicts with Gym".
    public func conflict(title: String, start: Date, overlapping: [String]) -> (title: String, body: String) {
        let names = overlapping.isEmpty ? (arabic ? "موعد آخر" : "something else") : overlapping.joined(separator: arabic ? "، " : ", ")
        let at = when(start)
        if arabic {
            return ("تعارض: \(title)", "\(title)، \(at) — يتعارض مع \(names). اختر: إبقاء أو نقل أو إلغاء.")
        }
        return ("Conflict: \(title)", "\(title), \(at) — conflicts with \(names). Keep it, move it or cancel it.")
    }

    /// An alarm: "Dinner with Sara at 20:00 — in 15 min".
    public func reminder(title: String, start: Date, allDay: Bool, firesAt: Date, isTask: Bool) -> (title: String, body: String) {
        let minutes = Int((start.timeIntervalSince(firesAt) / 60).rounded())
        let lead: String
        if allDay {
            lead = when(start, allDay: true)
        } else if minutes <= 0 {
            lead = minutes == 0 ? (arabic ? "الآن" : "now") : (arabic ? "بدأ \(time(start))" : "started \(time(start))")
        } else if minutes < 60 {
            lead = arabic ? "بعد \(minutes) دقيقة" : "in \(minutes) min"
        } else if minutes < 24 * 60, minutes % 60 == 0 {
            lead = arabic ? "بعد \(minutes / 60) ساعة" : "in \(minutes / 60) h"
        } else {
            lead = when(start)
        }
        let kind = isTask ? (arabic ? "مهمة" : "Due") : nil
        let heading = kind.map { "\($0): \(title)" } ?? title
        let at = allDay ? when(start, allDay: true) : time(start)
        return (heading, arabic ? "\(at) — \(lead)" : "\(at) — \(lead)")
    }

    /// A prayer alert: "Asr at 15:12" — "In 10 minutes" (or "It is time for Asr" at the time).
    public func prayerAlert(name: String, time prayerTime: Date, firesAt: Date) -> (title: String, body: String) {
        let minutes = Int((prayerTime.timeIntervalSince(firesAt) / 60).rounded())
        let at = time(prayerTime)
        if arabic {
            return ("\(name) \(at)", minutes <= 0 ? "حان وقت \(name)." : "بعد \(minutes) دقيقة.")
        }
        return ("\(name) at \(at)", minutes <= 0 ? "It is time for \(name)." : "In \(minutes) min.")
    }

    /// A subscribed calendar that has failed to refresh several times in a row.
    public func subscriptionFailed(calendar: String, failures: Int, reason: String) -> (title: String, body: String) {
        arabic
            ? ("تعذّر تحديث \(calendar)", "فشل تحديث الاشتراك \(failures) مرات متتالية: \(reason). سنعيد المحاولة لاحقًا.")
            : ("\(calendar) cannot be refreshed", "The subscription failed \(failures) times in a row: \(reason). Jadwal keeps trying, less often.")
    }

    /// A change to a mirrored calendar that the other server refused because its copy changed first.
    public func remoteChangeRejected(item: String, calendar: String, deleted: Bool) -> (title: String, body: String) {
        switch (arabic, deleted) {
        case (true, false): ("لم يُحفظ تعديلك على \(item)", "تغيّر \(item) في \(calendar) على الخادم الآخر قبل أن يصله تعديلك، فأُبقيت نسخة الخادم. أعد التعديل إن كنت ما زلت تريده.")
        case (true, true): ("لم يُحذف \(item)", "تغيّر \(item) في \(calendar) على الخادم الآخر قبل أن يصله الحذف، فأُعيد كما هو هناك. احذفه من جديد إن كنت ما زلت تريد ذلك.")
        case (false, false): ("Your change to \(item) was not applied", "\(item) in \(calendar) was changed on the other server before your change reached it, so its version was kept. Make the change again if you still want it.")
        case (false, true): ("\(item) was not deleted", "\(item) in \(calendar) was changed on the other server before your deletion reached it, so it was put back as it is there. Delete it again if you still want to.")
        }
    }

    /// The other server deleted an item whose change here had not reached it yet.
    public func remoteDeletedFirst(item: String, calendar: String) -> (title: String, body: String) {
        arabic
            ? ("لم يُحفظ تعديلك على \(item)", "حُذف \(item) من \(calendar) على الخادم الآخر قبل أن يصله تعديلك، فحُذف هنا أيضًا. أضفه من جديد إن كنت ما زلت تريده.")
            : ("Your change to \(item) was not applied", "\(item) was deleted from \(calendar) on the other server before your change reached it, so it was deleted here too. Add it again if you still want it.")
    }

    /// A change made here could not be written to the other server, after every retry.
    public func remoteWriteFailed(item: String, calendar: String, reason: String) -> (title: String, body: String) {
        arabic
            ? ("تعذّر إرسال \(item) إلى الخادم الآخر", "لم يصل تعديلك على \(item) في \(calendar) إلى الخادم الآخر بعد عدة محاولات (\(reason)). ما زال في جدول، لكنه ليس هناك؛ عدّله مرة أخرى ليُعاد إرساله.")
            : ("\(item) could not be sent to the other server", "Your change to \(item) in \(calendar) did not reach the other server after several tries (\(reason)). It is still in Jadwal but not there; edit it again to send it once more.")
    }

    /// Easy Setup finished on a device.
    public func setupDone(device: String) -> (title: String, body: String) {
        arabic
            ? ("تم إعداد \(device)", "يتزامن تقويمك الآن مع \(device).")
            : ("\(device) is set up", "Your calendars now sync with \(device).")
    }

    /// Someone shared a calendar with the person.
    public func shareInvited(owner: String, calendar: String, access: CalendarShare.Access) -> (title: String, body: String) {
        switch (arabic, access) {
        case (true, .read): ("شارك \(owner) تقويم \(calendar)", "يمكنك عرض أحداثه بعد قبول الدعوة من الإعدادات ← التقويمات.")
        case (true, .readWrite): ("شارك \(owner) تقويم \(calendar)", "يمكنك عرض أحداثه وتعديلها بعد قبول الدعوة من الإعدادات ← التقويمات.")
        case (false, .read): ("\(owner) shared \(calendar) with you", "Accept it in Settings → Calendars to see its events.")
        case (false, .readWrite): ("\(owner) shared \(calendar) with you", "Accept it in Settings → Calendars to see and edit its events.")
        }
    }

    /// A person answered the share of one of the person's calendars.
    public func shareAnswered(sharee: String, calendar: String, accepted: Bool) -> (title: String, body: String) {
        switch (arabic, accepted) {
        case (true, true): ("قبل \(sharee) مشاركة \(calendar)", "يظهر التقويم الآن عند \(sharee).")
        case (true, false): ("رفض \(sharee) مشاركة \(calendar)", "لن يظهر التقويم عند \(sharee).")
        case (false, true): ("\(sharee) accepted \(calendar)", "The calendar now shows for \(sharee).")
        case (false, false): ("\(sharee) declined \(calendar)", "The calendar does not show for \(sharee).")
        }
    }

    // MARK: Invitations

    private func at(_ start: Date?, allDay: Bool) -> String {
        guard let start else { return "" }
        return (arabic ? "، " : ", ") + when(start, allDay: allDay)
    }

    /// An invitation to a meeting: "Sara invited you: Planning, Thu 26 Nov, 10:00".
    public func invited(organizer: String, title: String, start: Date?, allDay: Bool) -> (title: String, body: String) {
        arabic
            ? ("دعاك \(organizer): \(title)\(at(start, allDay: allDay))", "أجب بالقبول أو الرفض أو ربما، أو اقترح وقتًا آخر، من صفحة الدعوات.")
            : ("\(organizer) invited you: \(title)\(at(start, allDay: allDay))", "Accept, decline or say maybe, or propose another time, on the Invitations page.")
    }

    /// A meeting the person is invited to changed.
    public func invitationUpdated(organizer: String, title: String, start: Date?, allDay: Bool) -> (title: String, body: String) {
        arabic
            ? ("تغيّر: \(title)\(at(start, allDay: allDay))", "عدّل \(organizer) الموعد. راجعه من صفحة الدعوات.")
            : ("Changed: \(title)\(at(start, allDay: allDay))", "\(organizer) changed the meeting. See it on the Invitations page.")
    }

    /// A meeting the person is invited to was called off.
    public func invitationCancelled(organizer: String, title: String, start: Date?, allDay: Bool) -> (title: String, body: String) {
        arabic
            ? ("أُلغي: \(title)\(at(start, allDay: allDay))", "ألغى \(organizer) الموعد.")
            : ("Cancelled: \(title)\(at(start, allDay: allDay))", "\(organizer) cancelled the meeting.")
    }

    /// Someone answered the person's invitation.
    public func invitationAnswered(attendee: String, title: String, status: ParticipationStatus) -> (title: String, body: String) {
        switch (arabic, status) {
        case (true, .accepted): ("قبل \(attendee): \(title)", "سيحضر \(attendee).")
        case (true, .declined): ("اعتذر \(attendee): \(title)", "لن يحضر \(attendee).")
        case (true, .tentative): ("ربما يحضر \(attendee): \(title)", "أجاب \(attendee) بربما.")
        case (true, _): ("أجاب \(attendee): \(title)", "لم يحسم \(attendee) أمره بعد.")
        case (false, .accepted): ("\(attendee) accepted: \(title)", "\(attendee) will attend.")
        case (false, .declined): ("\(attendee) declined: \(title)", "\(attendee) will not attend.")
        case (false, .tentative): ("\(attendee) might attend: \(title)", "\(attendee) answered maybe.")
        case (false, _): ("\(attendee) answered: \(title)", "\(attendee) has not decided yet.")
        }
    }

    /// An invitee proposed another time for the person's meeting.
    public func timeProposed(attendee: String, title: String, start: Date, allDay: Bool) -> (title: String, body: String) {
        arabic
            ? ("يقترح \(attendee) وقتًا آخر: \(title)", "الوقت المقترح: \(when(start, allDay: allDay)). اقبله أو ارفضه من صفحة الدعوات.")
            : ("\(attendee) proposes another time: \(title)", "Proposed: \(when(start, allDay: allDay)). Accept or decline it on the Invitations page.")
    }

    /// The organizer declined the time the person proposed.
    public func proposalDeclined(organizer: String, title: String) -> (title: String, body: String) {
        arabic
            ? ("لم يقبل \(organizer) الوقت المقترح: \(title)", "يبقى الموعد في وقته.")
            : ("\(organizer) kept the time: \(title)", "The time you proposed was declined; the meeting stays when it was.")
    }

    /// The linked WhatsApp stopped delivering.
    public func whatsAppUnlinked(loggedOut: Bool) -> (title: String, body: String) {
        switch (arabic, loggedOut) {
        case (true, true): ("تم فصل واتساب", "أُزيل هذا الجهاز من واتساب، فلن تصل رسائلك إلى جدول. اربطه من جديد من الإعدادات ← واتساب.")
        case (true, false): ("توقف ربط واتساب", "رفض واتساب هذا الجهاز، فلن تصل رسائلك إلى جدول. اربطه من جديد من الإعدادات ← واتساب.")
        case (false, true): ("WhatsApp was unlinked", "This device was removed from WhatsApp, so your chats no longer reach Jadwal. Link it again in Settings → WhatsApp.")
        case (false, false): ("WhatsApp stopped", "WhatsApp refused this device, so your chats no longer reach Jadwal. Link it again in Settings → WhatsApp.")
        }
    }

    // MARK: Progress

    /// A metric as a person says it: sleep and exercise in their language, a measure by its name.
    public func metricName(_ metric: String) -> String {
        switch metric {
        case Tracker.sleep: arabic ? "النوم" : "sleep"
        case Tracker.exercise: arabic ? "الرياضة" : "exercise"
        case Tracker.tasksMetric: arabic ? "المهام المنجزة" : "to-dos done"
        default: metric
        }
    }

    /// "7 h 30" / "7 س 30 د".
    public func duration(minutes: Int) -> String {
        let hours = minutes / 60, rest = minutes % 60
        if arabic { return rest == 0 ? "\(hours) س" : hours == 0 ? "\(rest) د" : "\(hours) س \(rest) د" }
        return rest == 0 ? "\(hours) h" : hours == 0 ? "\(rest) min" : "\(hours) h \(rest)"
    }

    /// A goal's target reached this week.
    public func goalMet(title: String, done: Int, target: Int) -> (title: String, body: String) {
        arabic
            ? ("تحقّق هدفك: \(title)", "\(done) من \(target) هذا الأسبوع.")
            : ("Goal met: \(title)", "\(done) of \(target) this week. Well done!")
    }

    /// Days in a row with an entry of `metric`.
    public func streak(metric: String, days: Int) -> (title: String, body: String) {
        let name = metricName(metric)
        return arabic
            ? ("سلسلة من \(ReasonFactor.arabicDays(days)): \(name)", "سجّلت \(name) كل يوم طوال \(ReasonFactor.arabicDays(days)).")
            : ("\(days) days in a row: \(name)", "You have tracked \(name) every day for \(days) days. Keep going!")
    }

    /// Nights under the sleep goal, with the wind-down block proposed if one was.
    public func sleepShort(target: Int, nights: [Double], windDown: TimeRange?) -> (title: String, body: String) {
        let slept = nights.map { duration(minutes: Int($0.rounded())) }.joined(separator: arabic ? "، " : ", ")
        let goal = duration(minutes: target)
        var body = arabic ? "آخر \(ReasonFactor.arabicNights(nights.count)): \(slept)، وهدفك \(goal)." : "The last \(nights.count) nights: \(slept), under your goal of \(goal)."
        if let windDown {
            body += arabic
                ? " يقترح جدول استرخاءً قبل النوم من \(time(windDown.start)) إلى \(time(windDown.end)) \(when(windDown.start, allDay: true))، وهو في خطتك."
                : " Jadwal proposes winding down from \(time(windDown.start)) to \(time(windDown.end)) on \(when(windDown.start, allDay: true)); accept it on your plan."
        }
        return (arabic ? "نومك أقل من هدفك منذ \(ReasonFactor.arabicNights(nights.count))" : "Under your sleep goal \(nights.count) nights running", body)
    }

    // MARK: The plan

    /// "اقتراح واحد", "اقتراحان", "3 اقتراحات", "11 اقتراحًا".
    static func arabicProposals(_ n: Int) -> String {
        switch n {
        case 1: "اقتراح واحد"
        case 2: "اقتراحان"
        case 3...10: "\(n) اقتراحات"
        default: "\(n) اقتراحًا"
        }
    }

    /// The weekly plan is ready.
    public func weeklyPlan(proposals: Int, first: Date, unplacedTasks: Int) -> (title: String, body: String) {
        var body = arabic
            ? "في خطتك للأسبوعين القادمين \(Self.arabicProposals(proposals))، أولها \(when(first)). اقبل ما يناسبك منها أو ارفضه."
            : "Your plan for the next two weeks has \(proposals) \(proposals == 1 ? "proposal" : "proposals"), the first on \(when(first)). Accept the ones that suit you."
        if unplacedTasks > 0 {
            body += arabic
                ? " لم يجد جدول وقتًا لـ\(unplacedTasks == 1 ? "مهمة واحدة" : unplacedTasks == 2 ? "مهمتين" : "\(unplacedTasks) مهام")؛ السبب في صفحة الخطة."
                : " \(unplacedTasks) \(unplacedTasks == 1 ? "to-do" : "to-dos") found no time; the plan page says why."
        }
        return (arabic ? "خطتك للأسبوعين القادمين جاهزة" : "Your plan for the next two weeks is ready", body)
    }

    /// Proposals a calendar change took the time of: each with its new time, or none found.
    /// At most three are named; the rest are counted.
    public func planChanged(_ moves: [(title: String, from: Date, to: Date?)]) -> (title: String, body: String) {
        let named = moves.prefix(3).map { move -> String in
            switch (arabic, move.to) {
            case (true, let to?): "صار وقت «\(move.title)» \(when(move.from)) مشغولًا، فاقتُرح بدلًا منه \(when(to))."
            case (true, nil): "صار وقت «\(move.title)» \(when(move.from)) مشغولًا، ولم يوجد وقت آخر مناسب."
            case (false, let to?): "\(move.title) on \(when(move.from)) is taken now; proposed \(when(to)) instead."
            case (false, nil): "\(move.title) on \(when(move.from)) is taken now, and no other time fits."
            }
        }
        var body = named.joined(separator: " ")
        if moves.count > 3 {
            let rest = moves.count - 3
            body += arabic ? " وتغيّر غيرها: \(Self.arabicProposals(rest))." : " \(rest) more changed."
        }
        return (arabic ? "تغيّرت خطتك: تعارض حدث مع اقتراح" : "Your plan changed: an event took a proposal's time", body)
    }
}
