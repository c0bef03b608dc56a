import Foundation
import Hummingbird
import JadwalCore
import JadwalHTTP

/// The web app, served by Jadwal itself: server-rendered pages (Mustache) over the same core
/// the JSON API uses, forms that post back to the page, and small script modules for what
/// needs a live page (notifications, validation while typing, upload progress).
package struct WebRoutes: Sendable {
    package let assets: WebAssets
    package let browser: BrowserSession
    package let store: any Store
    package let clock: Clock
    /// Where new items' ids come from (`ObjectIdentity`).
    package let random: RandomSource
    package let signIn: SignIn
    package let writes: CalendarWrites
    /// Google sign-in in the browser, when an OAuth client ID is configured.
    package let google: GoogleWebSignIn?
    package let appPasswords: AppPasswords
    /// Easy Setup's one-time links, made the way the API makes them.
    package let setup: EasySetup
    package let prayer: PrayerPreferences
    package let chats: Chats
    package let chatImportLimit: Int
    package let notifications: Notifications
    package let profiles: Profiles
    package let tasks: Tasks
    package let planner: TaskPlanner
    package let conflicts: Conflicts
    package let conflictResolution: ConflictResolution
    package let routines: RoutineCalendar
    package let goals: Goals
    package let planning: TwoWeekPlanning
    package let tracker: Tracker
    package let healthImport: HealthImport
    /// The largest Health export the tracker page takes.
    package let healthImportLimit: Int
    /// Every event calendar as one, for the calendar views (the API's `GET /api/v1/events` reads the same).
    package let integrated: IntegratedCalendar
    package let calendars: Calendars
    /// Subscribed ICS feeds, and `.ics` import and export, for the calendars screen.
    package let subscriptions: CalendarSubscriptions
    /// Connected CalDAV accounts, for the calendars screen; nil where the server offers none.
    package let caldavAccounts: CalDAVAccounts?
    package let transfer: CalendarTransfer
    /// Where this server is reached, for the addresses the settings pages show.
    package let publicURL: String
    /// Whether the operator set up the WhatsApp Cloud API webhook (its secrets are never shown).
    package let whatsAppWebhookConfigured: Bool
    /// Linking WhatsApp with a pairing code; with `bridgeRunning` false the section says the server does not offer it.
    package let whatsAppLinks: WhatsAppLinks?
    package let bridgeRunning: Bool
    /// Browsers receiving Web Push, and prayer alerts (nil only where a test builds the web app without them).
    package let webPush: WebPushSubscriptions?
    package let prayerAlerts: PrayerAlerts?
    /// One day as one list, for the Today screen (the API's `GET /api/v1/today` reads the same).
    package let agenda: DayAgenda
    /// The reminders of the next two weeks, for the upcoming reminders screen.
    package let reminders: UpcomingReminders
    /// The first-run guide, a new address, the export and deletion; their pages exist only with it.
    package let ownership: AccountOwnership?
    /// "Find a time" on the event form.
    package let meetingTimes: MeetingTimes
    /// "Connect Google Calendar", when the operator configured Google's OAuth client with its secret.
    package let googleCalendars: GoogleCalendars?
    package var googleCallbackURL: String { publicURL + "/settings/calendars/google/callback" }

    package init(assets: WebAssets, browser: BrowserSession, store: any Store, clock: Clock, random: RandomSource, signIn: SignIn, writes: CalendarWrites, google: GoogleWebSignIn?, appPasswords: AppPasswords, setup: EasySetup, prayer: PrayerPreferences, chats: Chats, chatImportLimit: Int, notifications: Notifications, profiles: Profiles, tasks: Tasks, planner: TaskPlanner, conflicts: Conflicts, conflictResolution: ConflictResolution, routines: RoutineCalendar, goals: Goals, planning: TwoWeekPlanning, tracker: Tracker, healthImport: HealthImport, healthImportLimit: Int, integrated: IntegratedCalendar, calendars: Calendars, subscriptions: CalendarSubscriptions, transfer: CalendarTransfer, publicURL: String, whatsAppWebhookConfigured: Bool, whatsAppLinks: WhatsAppLinks? = nil, bridgeRunning: Bool = false, webPush: WebPushSubscriptions? = nil, prayerAlerts: PrayerAlerts? = nil, agenda: DayAgenda, reminders: UpcomingReminders, caldavAccounts: CalDAVAccounts? = nil, ownership: AccountOwnership? = nil, meetingTimes: MeetingTimes, googleCalendars: GoogleCalendars? = nil) {
        self.caldavAccounts = caldavAccounts
        self.assets = assets
        self.browser = browser
        self.store = store
        self.clock = clock
        self.random = random
        self.signIn = signIn
        self.writes = writes
        self.google = google
        self.appPasswords = appPasswords
        self.setup = setup
        self.prayer = prayer
        self.chats = chats
        self.chatImportLimit = chatImportLimit
        self.notifications = notifications
        self.profiles = profiles
        self.tasks = tasks
        self.planner = planner
        self.conflicts = conflicts
        self.conflictResolution = conflictResolution
        self.routines = routines
        self.goals = goals
        self.planning = planning
        self.tracker = tracker
        self.healthImport = healthImport
        self.healthImportLimit = healthImportLimit
        self.integrated = integrated
        self.calendars = calendars
        self.subscriptions = subscriptions
        self.transfer = transfer
        self.publicURL = publicURL
        self.whatsAppWebhookConfigured = whatsAppWebhookConfigured
        self.whatsAppLinks = whatsAppLinks
        self.bridgeRunning = bridgeRunning
        self.webPush = webPush
        self.prayerAlerts = prayerAlerts
        self.agenda = agenda
        self.reminders = reminders
        self.ownership = ownership
        self.meetingTimes = meetingTimes
        self.googleCalendars = googleCalendars
    }

    package func addRoutes(to router: Router<JadwalRequestContext>) {
        router.get("static/{name}") { request, context in try staticFile(request, context) }
        addInstallRoutes(to: router)
        addSignInRoutes(to: router)
        addPublicAccountPages(to: router)
        addInvitationLinkRoutes(to: router)
        let pages = router.group().add(middleware: WebSessionMiddleware(browser: browser, assets: assets))
        addCalendarRoutes(to: pages)
        addTodayRoutes(to: pages)
        addReminderRoutes(to: pages)
        addCalendarSettingsRoutes(to: pages)
        addShareSettingsRoutes(to: pages)
        addEventRoutes(to: pages)
        addTaskRoutes(to: pages)
        addRoutinePages(to: pages)
        addPlanPages(to: pages)
        addQuestionnairePages(to: pages)
        addTrackerPages(to: pages)
        addConflictRoutes(to: pages)
        addSettingsRoutes(to: pages)
        addPrayerRoutes(to: pages)
        addPrayerAlertRoutes(to: pages)
        addPushSettingsRoutes(to: pages)
        addWhatsAppRoutes(to: pages)
        addWhatsAppLinkRoutes(to: pages)
        addAccountPages(to: pages)
        addFirstRunPages(to: pages)
        addInvitationRoutes(to: pages)
    }

    /// The signed-in person's view of a page: language, CSRF token, unread notifications.
    package func viewer(_ request: Request, _ context: JadwalRequestContext) async throws -> WebPage.Viewer {
        let identity = try context.requireIdentity()
        let unread = try await notifications.unreadCount(accountID: identity.account.id)
        return WebPage.Viewer(
            language: identity.account.language, identity: identity, csrf: browser.csrfToken(sessionID: identity.session.id), unread: unread,
            path: request.uri.path)
    }

    package func texts(_ context: JadwalRequestContext) -> [String: String] {
        assets.texts(context.identity?.account.language ?? .english)
    }

    private func staticFile(_ request: Request, _ context: JadwalRequestContext) throws -> Response {
        guard let name = context.parameters.get("name"), let file = assets.files[name] else {
            throw HTTPError(.notFound, message: "No such file.")
        }
        let etag = "\"\(file.version)\""
        var headers: HTTPFields = [
            .contentType: file.contentType, .eTag: etag, .xContentTypeOptions: "nosniff",
            // Pages link with ?v=<hash>, so a changed file has a new address.
            .cacheControl: "public, max-age=31536000, immutable",
        ]
        if request.headers[.ifNoneMatch] == etag { return Response(status: .notModified, headers: headers) }
        headers[.contentLength] = String(file.bytes.count)
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: file.bytes)))
    }
}

extension [String: String] {
    /// A text with `{name}` placeholders filled in.
    package func text(_ key: String, _ values: [String: String] = [:]) -> String {
        var text = self[key] ?? key
        for (name, value) in values { text = text.replacingOccurrences(of: "{\(name)}", with: value) }
        return text
    }

    /// A calendar's name as the views show it beside an event: one shared with the person says
    /// whose it is, so a chip never passes someone else's calendar off as theirs.
    package func calendarLabel(_ calendar: CalendarCollection) -> String {
        guard let shared = calendar.sharedWithMe else { return calendar.displayName }
        let owner = shared.ownerName.isEmpty ? shared.ownerEmail.value : shared.ownerName
        return text("calendarSharedBy", ["calendar": calendar.displayName, "owner": owner])
    }
}
