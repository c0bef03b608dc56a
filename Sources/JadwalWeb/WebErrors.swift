import Foundation
import JadwalCore

/// A problem with a form: the field it is shown beside, the page text that says it (a key of
/// the page's strings), and the values that text names.
package struct FieldProblem: Error, Equatable {
    package var field: String
    package var key: String
    package var values: [String: String] = [:]
}

/// How Core's refusals are shown on the web app's forms: its one error map (the API's is
/// `JadwalAPI/APIErrors.swift`, CalDAV's `JadwalCalDAV/CalDAVErrors.swift`). A page catches the
/// refusal of the service it called and shows `FieldProblem(problem)` beside its field.
extension FieldProblem {
    /// Where a refused goal's problem is shown, and what it says.
    init(_ problem: Goals.Problem) {
        self = switch problem.field {
        case "title": FieldProblem(field: "title", key: "planErrorTitle")
        case "minutes": FieldProblem(field: "minutes", key: "planErrorMinutes")
        case "perWeek", "perDay":
            switch problem {
            case .invalid(.tooManyPerWeek(_, let fit)), .invalid(.tooManyPerDay(_, let fit)):
                FieldProblem(field: "count", key: "planErrorTooMany", values: ["fit": String(fit)])
            default: FieldProblem(field: "count", key: "planErrorCount")
            }
        case "window.from": FieldProblem(field: "from", key: "planErrorTime")
        case "window.to":
            if case .invalid(.invalidTime) = problem { FieldProblem(field: "to", key: "planErrorTime") } else { FieldProblem(field: "to", key: "planErrorWindow") }
        case "days": FieldProblem(field: "days", key: "planErrorDays")
        case "category": FieldProblem(field: "category", key: "planErrorCategory")
        default: FieldProblem(field: "form", key: "planErrorNotSaved")
        }
    }

    /// The field a problem is shown beside, and the text that says it.
    init(_ problem: PrayerSettingsChange.Problem) {
        self = switch problem {
        case .invalid(let error):
            switch error {
            case .unknownCity: FieldProblem(field: "city", key: "prayerErrorUnknownCity")
            case .invalidLatitude: FieldProblem(field: "latitude", key: "prayerErrorLatitude")
            case .invalidLongitude: FieldProblem(field: "longitude", key: "prayerErrorLongitude")
            case .unknownTimeZone: FieldProblem(field: "timeZone", key: "prayerErrorTimeZone")
            case .unknownMethod: FieldProblem(field: "method", key: "prayerErrorMethod")
            case .unknownMadhab: FieldProblem(field: "madhab", key: "prayerErrorMadhab")
            case .unknownHighLatitudeRule: FieldProblem(field: "highLatitudeRule", key: "prayerErrorHighLatitude")
            case .invalidDate, .invalidParameter, .missingField: FieldProblem(field: "form", key: "prayerErrorNotSaved")
            }
        case .noPlace: FieldProblem(field: "city", key: "prayerErrorNoPlace")
        case .cityAndCoordinates, .adjustmentOutOfRange: FieldProblem(field: "form", key: "prayerErrorNotSaved")
        case .incompleteCoordinates: FieldProblem(field: "latitude", key: "prayerErrorCoordinates")
        case .blockOutOfRange: FieldProblem(field: "blocks", key: "prayerErrorBlocks")
        }
    }

    /// Where a refused draft's problem is shown, and what it says.
    init(_ problem: RoutineDraft.Problem) {
        self = switch problem {
        case .name: FieldProblem(field: "name", key: "routinesErrorName")
        case .kind: FieldProblem(field: "kind", key: "routinesErrorKind")
        case .timeZone: FieldProblem(field: "timeZone", key: "routinesErrorTimeZone")
        case .scheduling(let error):
            switch error {
            case .invalidTimeOfDay(let field, _): FieldProblem(field: field == "end" ? "end" : "start", key: "routinesErrorTime")
            case .endEqualsStart, .emptyRange: FieldProblem(field: "end", key: "routinesErrorEndEqualsStart")
            case .dayOutOfRange, .unknownDayCode, .unknownDayName, .noDays: FieldProblem(field: "days", key: "routinesErrorDays")
            case .emptyName: FieldProblem(field: "name", key: "routinesErrorName")
            case .reminderOutOfRange: FieldProblem(field: "reminder", key: "routinesErrorReminder")
            case .invalidEstimate, .invalidPriority, .invalidSetting: FieldProblem(field: "form", key: "routinesErrorNotSaved")
            }
        }
    }

    /// Where a refused entry's problem is shown: the form's own field.
    init(_ problem: Tracker.Problem, form: String) {
        let prefix = ["sleep", "exercise"].contains(form) ? form : "measure"
        let field = problem.field == "at" ? "At" : problem.field.prefix(1).uppercased() + problem.field.dropFirst()
        let key: String = switch problem {
        case .metric: "trackerErrorMetric"
        case .required: "trackerErrorRequired"
        case .time: "trackerErrorTime"
        case .wakeBeforeBedtime: "trackerErrorWakeBefore"
        case .nightTooLong: "trackerErrorNightTooLong"
        case .minutes: "trackerErrorMinutes"
        case .value: "trackerErrorNumber"
        case .unit: "trackerErrorUnit"
        case .kind: "trackerErrorKind"
        case .future: "trackerErrorFuture"
        default: "trackerErrorNotSaved"
        }
        self = FieldProblem(field: prefix + field, key: key)
    }

    /// Where a draft's problem is shown, and what it says.
    init(_ problem: TaskDraft.Problem) {
        self = switch problem {
        case .titleMissing, .title: FieldProblem(field: "title", key: "tasksErrorTitle")
        case .notes: FieldProblem(field: "notes", key: "tasksErrorNotes")
        case .due: FieldProblem(field: "dueDate", key: "tasksErrorDue")
        case .dueBeforeStart: FieldProblem(field: "dueDate", key: "tasksErrorDueBeforeStart")
        case .timeZone: FieldProblem(field: "dueDate", key: "tasksErrorTimeZone")
        case .alarm, .alarmNeedsDue: FieldProblem(field: "dueDate", key: "tasksErrorAlarmNeedsDue")
        case .priority: FieldProblem(field: "priority", key: "tasksErrorPriority")
        case .estimate: FieldProblem(field: "estimate", key: "tasksErrorEstimate")
        case .status, .cannotClear: FieldProblem(field: "form", key: "tasksErrorNotSaved")
        case .categories: FieldProblem(field: "categories", key: "errorCategories")
        }
    }

    /// Where a problem with the draft is shown, and what it says.
    init(_ problem: EventDraft.Problem) {
        self = switch problem {
        case .title: FieldProblem(field: "title", key: "errorEventTitle")
        case .start: FieldProblem(field: "startDate", key: "errorStart")
        case .end: FieldProblem(field: "endDate", key: "errorEnd")
        case .endBeforeStart: FieldProblem(field: "endDate", key: "errorEndBeforeStart")
        case .timeZone: FieldProblem(field: "startDate", key: "errorTimeZone")
        case .rrule: FieldProblem(field: "repeat", key: "errorRepeat")
        case .alarm: FieldProblem(field: "reminder", key: "errorReminder")
        case .status: FieldProblem(field: "form", key: "errorNotSaved")
        case .text(let field): FieldProblem(field: field == "location" ? "location" : "notes", key: "errorTooLong")
        case .color: FieldProblem(field: "color", key: "errorColor")
        case .categories: FieldProblem(field: "categories", key: "errorCategories")
        case .attendee, .attendeeName: FieldProblem(field: "attendees", key: "errorAttendee")
        case .tooManyAttendees: FieldProblem(field: "attendees", key: "errorAttendeesTooMany")
        case .noOrganizer: FieldProblem(field: "attendees", key: "errorAttendeesOrganizer")
        }
    }

    /// The message beside the field a profile problem belongs to.
    init(_ problem: ProfileChange.Problem) {
        self = switch problem {
        case .nameTooLong(let limit): FieldProblem(field: "name", key: "settingsErrorNameTooLong", values: ["limit": String(limit)])
        case .nameHasControlCharacters: FieldProblem(field: "name", key: "settingsErrorNameControl")
        case .unknownTimeZone(let zone): FieldProblem(field: "timeZone", key: "settingsErrorTimeZone", values: ["zone": zone])
        }
    }

    /// The chat settings form's field a refusal is about, and the text that explains it.
    init(_ problem: Chats.Problem) {
        self = switch problem {
        case .phoneNumberTaken: FieldProblem(field: "cloudAPIPhoneNumberID", key: "whatsappErrorNumberTaken")
        case .invalidSetting(.cloudAPIPhoneNumberID): FieldProblem(field: "cloudAPIPhoneNumberID", key: "whatsappError_cloudAPIPhoneNumberID")
        case .invalidSetting(.meName): FieldProblem(field: "meName", key: "whatsappError_meName")
        case .invalidSetting(.eventMinutes): FieldProblem(field: "eventMinutes", key: "whatsappError_eventMinutes")
        case .invalidSetting(.whatsAppHistoryDays): FieldProblem(field: "whatsAppHistoryDays", key: "whatsappError_whatsAppHistoryDays")
        case .invalidSetting(.retentionDays), .noConversation, .noConnectorToken, .invalidTokenName, .invalidConnectorToken, .accountDisabled:
            FieldProblem(field: "retentionDays", key: "whatsappError_retentionDays")
        }
    }

    /// The field a refused change to a calendar's properties belongs to, and its text.
    init(_ problem: CalendarPropertiesChange.Problem) {
        self = switch problem {
        case .color: FieldProblem(field: "color", key: "calendarsErrorColor")
        case .displayName, .description, .order, .timeZone: FieldProblem(field: "name", key: "calendarsErrorName")
        }
    }

    /// The subscription form's field a refusal belongs to, and its text (with the reason where
    /// the text has room for it).
    init(_ problem: CalendarSubscriptions.Problem) {
        self = switch problem {
        case .invalidURL(let reason): FieldProblem(field: "url", key: "calendarsErrorURL", values: ["reason": reason])
        case .refusedAddress(let reason): FieldProblem(field: "url", key: "calendarsErrorRefused", values: ["reason": reason])
        case .tooMany(let limit): FieldProblem(field: "url", key: "calendarsErrorTooMany", values: ["limit": String(limit)])
        case .refreshInterval: FieldProblem(field: "url", key: "calendarsErrorURL", values: ["reason": problem.description])
        case .invalidProperty(let property):
            FieldProblem(field: FieldProblem(property).field == "color" ? "subColor" : "subName", key: FieldProblem(property).key)
        }
    }

    /// The connect form's field a refusal is about, and the words beside it (`username` as
    /// typed: a missing credential is the user name when that is empty, else the password).
    init(_ problem: CalDAVAccounts.Problem, username: String) {
        self = switch problem {
        case .invalidURL(let reason), .refusedAddress(let reason): FieldProblem(field: "accountURL", key: "calendarsErrorAccountURL", values: ["reason": reason])
        case .unreachable(let reason): FieldProblem(field: "accountURL", key: "calendarsErrorUnreachable", values: ["reason": reason])
        case .tooMany(let limit): FieldProblem(field: "accountURL", key: "calendarsErrorTooManyAccounts", values: ["limit": String(limit)])
        case .missingCredentials:
            username.trimmingCharacters(in: .whitespaces).isEmpty
                ? FieldProblem(field: "accountUsername", key: "calendarsErrorUsername") : FieldProblem(field: "accountPassword", key: "calendarsErrorPassword")
        case .refused(let reason): FieldProblem(field: "accountPassword", key: "calendarsErrorRefusedCredentials", values: ["reason": reason])
        case .unknownCalendar(let url): FieldProblem(field: "mirror", key: "calendarsErrorUnknownRemote", values: ["url": url])
        }
    }
}
