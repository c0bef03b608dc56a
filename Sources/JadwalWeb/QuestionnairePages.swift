import Foundation
import Hummingbird
import JadwalCore
import JadwalHTTP
import Scheduling

/// The planner's questionnaire on its own page, `/settings/questionnaire`: when the person wakes
/// and sleeps, their work or study hours, when they like to exercise and to focus, and how much
/// the planner may suggest. Every question may be left blank, and the whole page skipped.
///
/// It is reached from Settings and from the plan page, and a first-run step can send a person
/// here with `?next=/somewhere`: saving or skipping then returns there. Answers go through
/// ``TwoWeekPlanning`` as the JSON API's do.
package enum QuestionnairePages {
    package static let path = "/settings/questionnaire"

    package struct Form: Decodable {
        package var wake: String?
        package var sleep: String?
        package var workStart: String?
        package var workEnd: String?
        /// `weekdays`, `daily`, `weekends` or `custom` (then `day1` … `day7`).
        package var workDays: String?
        package var day1: String?
        package var day2: String?
        package var day3: String?
        package var day4: String?
        package var day5: String?
        package var day6: String?
        package var day7: String?
        package var exerciseTime: String?
        package var focusTime: String?
        package var intensity: String?
        package var next: String?
        /// Present when the Skip button was pressed.
        package var skip: String?

        var checkedDays: [Int] {
            [day1, day2, day3, day4, day5, day6, day7].enumerated().compactMap { $0.element == nil ? nil : $0.offset + 1 }
        }

        /// The answers: a blank field is a skipped question. Work hours count when both times are given.
        var answers: PlannerAnswers {
            func value(_ text: String?) -> String? {
                let trimmed = (text ?? "").trimmingCharacters(in: .whitespaces)
                return trimmed.isEmpty ? nil : trimmed
            }
            var work: HoursDraft?
            if value(workStart) != nil || value(workEnd) != nil {
                let choice = value(workDays) ?? "weekdays"
                let days: HoursDraft.Days = choice == "custom" ? .numbers(checkedDays) : .named(choice)
                work = HoursDraft(start: value(workStart) ?? "", end: value(workEnd) ?? "", days: days)
            }
            return PlannerAnswers(wake: value(wake), sleep: value(sleep), work: work, exerciseTime: value(exerciseTime),
                                  focusTime: value(focusTime), intensity: value(intensity))
        }

        /// The form showing saved answers.
        init(_ answers: PlannerAnswers, next: String?) {
            wake = answers.wake
            sleep = answers.sleep
            workStart = answers.work?.start
            workEnd = answers.work?.end
            switch answers.work?.days {
            case .named(let name): workDays = name
            case .numbers(let numbers):
                workDays = "custom"
                let set = Set(numbers)
                (day1, day2, day3, day4, day5, day6, day7) = (set.contains(1) ? "on" : nil, set.contains(2) ? "on" : nil, set.contains(3) ? "on" : nil,
                                                              set.contains(4) ? "on" : nil, set.contains(5) ? "on" : nil, set.contains(6) ? "on" : nil,
                                                              set.contains(7) ? "on" : nil)
            case nil: workDays = "weekdays"
            }
            exerciseTime = answers.exerciseTime
            focusTime = answers.focusTime
            intensity = answers.intensity ?? PlannerIntensity.full.rawValue
            self.next = next
        }
    }

    /// Where to go after saving: a path of this site only (`/calendar`, not `//elsewhere`).
    static func next(_ text: String?) -> String? {
        guard let text, text.hasPrefix("/"), !text.hasPrefix("//"), !text.contains("\\"), text.count <= 300,
              !text.unicodeScalars.contains(where: { $0.value < 0x20 })
        else { return nil }
        return text
    }

    /// The field of the form a refused answer is shown beside.
    static func field(_ problem: PlannerAnswers.Problem) -> (field: String, key: String) {
        switch problem {
        case .time(let field, _): (field, "questionnaireErrorTime")
        case .wakeEqualsSleep: ("sleep", "questionnaireErrorSameTime")
        case .work(let error):
            switch error.field {
            case "days": ("workDays", "questionnaireErrorDays")
            case "start": ("workStart", "questionnaireErrorTime")
            default: ("workEnd", error.field == "end" ? "questionnaireErrorTime" : "questionnaireErrorWork")
            }
        case .dayPart(let field, _): (field, "questionnaireErrorPart")
        case .intensity: ("intensity", "questionnaireErrorIntensity")
        }
    }
}

extension WebRoutes {
    package func addQuestionnairePages(to group: RouterGroup<JadwalRequestContext>) {
        group.get("settings/questionnaire") { request, context -> Response in
            let account = try context.requireIdentity().account
            let (answers, _) = try await planning.questionnaire(account: account)
            let next = QuestionnairePages.next(request.uri.queryParameters.get("next"))
            return try await questionnairePage(request, context, form: QuestionnairePages.Form(answers, next: next),
                                               saved: request.uri.queryParameters.get("saved") != nil)
        }
        group.post("settings/questionnaire") { request, context -> Response in
            let account = try context.requireIdentity().account
            let form = try context.form(QuestionnairePages.Form.self)
            let next = QuestionnairePages.next(form.next)
            if form.skip != nil {
                // Skipping keeps what was answered before; the first time, it records that the
                // questionnaire was seen, so a first-run step does not offer it again.
                let (answers, savedAt) = try await planning.questionnaire(account: account)
                if savedAt == nil { _ = try await planning.saveAnswers(answers, account: account) }
                return WebPage.redirect(next ?? PlanPages.root)
            }
            do {
                _ = try await planning.saveAnswers(form.answers, account: account)
            } catch let problem as PlannerAnswers.Problem {
                let (field, key) = QuestionnairePages.field(problem)
                return try await questionnairePage(request, context, form: form, errors: [field: assets.texts(account.language).text(key)])
            }
            return WebPage.redirect(next ?? QuestionnairePages.path + "?saved=1")
        }
    }

    private func questionnairePage(_ request: Request, _ context: JadwalRequestContext, form: QuestionnairePages.Form,
                                   errors: [String: String] = [:], saved: Bool = false) async throws -> Response {
        let viewer = try await viewer(request, context)
        let texts = assets.texts(viewer.language)
        let days = RoutinePageModel(language: viewer.language, texts: texts)
        let checked = Set(form.checkedDays)
        func parts(_ chosen: String?) -> [[String: Any]] {
            let none: [String: Any] = ["value": "", "label": texts.text("questionnaireNoPreference"), "selected": (chosen ?? "").isEmpty]
            let each: [[String: Any]] = DayPart.allCases.map { part -> [String: Any] in
                ["value": part.rawValue, "label": texts.text("questionnairePart_\(part.rawValue)"), "selected": chosen == part.rawValue]
            }
            return [none] + each
        }
        let workDays = form.workDays ?? "weekdays"
        let page: [String: Any] = [
            "wake": form.wake ?? "", "sleep": form.sleep ?? "", "workStart": form.workStart ?? "", "workEnd": form.workEnd ?? "",
            "workPresets": ["weekdays", "daily", "weekends", "custom"].map { value in
                ["value": value, "label": texts.text("questionnaireDays_\(value)"), "checked": workDays == value] as [String: Any]
            },
            "days": (1...7).map { ["number": $0, "label": days.dayName($0), "checked": checked.contains($0)] as [String: Any] },
            "exerciseTimes": parts(form.exerciseTime), "focusTimes": parts(form.focusTime),
            "intensities": PlannerIntensity.allCases.map { value in
                ["value": value.rawValue, "label": texts.text("questionnaireIntensity_\(value.rawValue)"),
                 "hint": texts.text("questionnaireIntensityHint_\(value.rawValue)"), "checked": (form.intensity ?? "full") == value.rawValue] as [String: Any]
            },
            "next": form.next ?? "", "back": QuestionnairePages.next(form.next) ?? "/settings",
            "errors": errors, "hasErrors": !errors.isEmpty, "saved": saved,
        ]
        return WebPage(template: "questionnaire", title: texts.text("questionnaireTitle"), page: page,
                       status: errors.isEmpty ? .ok : .unprocessableContent, stylesheets: ["tasks.css"])
            .response(assets, viewer: viewer)
    }
}
