/// Lazily generates the wall-clock times an RRULE produces from a DTSTART
/// (RFC 5545 §3.3.10), in order. Works period by period (a year, a month, a week, …):
/// each period's candidate days pass through the BYxxx filters, get their times, then
/// BYSETPOS picks among them. Bounded three ways so no rule can run away: COUNT/UNTIL,
/// an optional `stopAfter` wall time, and a budget of periods examined.
public struct RecurrenceIterator: IteratorProtocol, Sequence, Sendable {
    public typealias Element = LocalDateTime

    public let rule: RecurrenceRule
    public let start: LocalDateTime
    /// Inclusive wall-clock bound from UNTIL (or a caller's window) — generation stops past it.
    public var untilLocal: LocalDateTime?
    /// Periods beginning after this are not examined (the caller's window end).
    public var stopAfter: LocalDateTime?
    /// Periods the iterator may examine before giving up; protects against rules that never match.
    public var periodBudget: Int
    /// True when generation stopped because the budget ran out rather than the rule ending.
    public private(set) var exhaustedBudget = false

    private let frequency: RecurrenceRule.Frequency
    private let step: Int64
    private var period: Int64
    private var buffer: [LocalDateTime] = []
    private var bufferIndex = 0
    private var emitted = 0
    private var finished = false
    private var skipTo: Int64? = nil

    // Filters, precomputed as lookup tables; each is allocated only when its BYxxx part is
    // present (an iterator is built per series per query, and most rules have none).
    private let hasByMonth: Bool
    private var monthOK: [Bool] = []
    private let hasMonthDay: Bool
    private var monthDayPos: [Bool] = []
    private var monthDayNeg: [Bool] = []
    private let hasYearDay: Bool
    private var yearDayPos: [Bool] = []
    private var yearDayNeg: [Bool] = []
    private let hasWeekNo: Bool
    private var weekNoPos: [Bool] = []
    private var weekNoNeg: [Bool] = []
    private let hasByDay: Bool
    private var weekdayPlain = [Bool](repeating: false, count: 7)
    private var nthWeekdays: [(Int, Int)] = []
    private var hourOK: [Bool]?
    private var minuteOK: [Bool]?
    private var secondOK: [Bool]?
    private let hours: [Int]
    private let minutes: [Int]
    private let seconds: [Int]
    private let dayTimes: [(Int, Int, Int)]
    private let weekStart: Int

    public init(rule: RecurrenceRule, start: LocalDateTime, periodBudget: Int = 2_000_000) {
        self.rule = rule
        self.start = start
        self.periodBudget = periodBudget
        frequency = rule.frequency
        weekStart = rule.weekStart.rawValue
        let interval = Int64(Swift.max(1, rule.interval))
        step = frequency == .weekly ? 7 * interval : interval

        var byMonth = rule.byMonth
        var byMonthDay = rule.byMonthDay
        var byDay = rule.byDay
        if rule.byWeekNo.isEmpty && rule.byYearDay.isEmpty && rule.byMonthDay.isEmpty && rule.byDay.isEmpty {
            // RFC 5545: missing day parts are taken from DTSTART.
            switch rule.frequency {
            case .yearly:
                if byMonth.isEmpty { byMonth = [start.date.month] }
                byMonthDay = [start.date.day]
            case .monthly:
                byMonthDay = [start.date.day]
            case .weekly:
                byDay = [.init(start.date.weekday)]
            default: break
            }
        }
        hasByMonth = !byMonth.isEmpty
        if hasByMonth { monthOK = [Bool](repeating: false, count: 13) }
        for m in byMonth where (1...12).contains(m) { monthOK[m] = true }
        hasMonthDay = !byMonthDay.isEmpty
        if hasMonthDay { (monthDayPos, monthDayNeg) = ([Bool](repeating: false, count: 32), [Bool](repeating: false, count: 32)) }
        for d in byMonthDay where abs(d) <= 31 && d != 0 {
            if d > 0 { monthDayPos[d] = true } else { monthDayNeg[-d] = true }
        }
        hasYearDay = !rule.byYearDay.isEmpty
        if hasYearDay { (yearDayPos, yearDayNeg) = ([Bool](repeating: false, count: 367), [Bool](repeating: false, count: 367)) }
        for d in rule.byYearDay where abs(d) <= 366 && d != 0 {
            if d > 0 { yearDayPos[d] = true } else { yearDayNeg[-d] = true }
        }
        hasWeekNo = !rule.byWeekNo.isEmpty
        if hasWeekNo { (weekNoPos, weekNoNeg) = ([Bool](repeating: false, count: 54), [Bool](repeating: false, count: 54)) }
        for w in rule.byWeekNo where abs(w) <= 53 && w != 0 {
            if w > 0 { weekNoPos[w] = true } else { weekNoNeg[-w] = true }
        }
        hasByDay = !byDay.isEmpty
        let ordinalsApply = rule.frequency == .monthly || (rule.frequency == .yearly && rule.byWeekNo.isEmpty)
        for d in byDay {
            if let n = d.ordinal, ordinalsApply {
                nthWeekdays.append((d.weekday.rawValue, n))
            } else {
                weekdayPlain[d.weekday.rawValue] = true
            }
        }

        func table(_ values: [Int], _ size: Int) -> [Bool]? {
            guard !values.isEmpty else { return nil }
            var t = [Bool](repeating: false, count: size)
            for v in values where v >= 0 && v < size { t[v] = true }
            return t
        }
        // A leap second (60) cannot be represented by most engines; it is skipped.
        let bySecond = rule.bySecond.filter { $0 < 60 }
        hourOK = table(rule.byHour, 24)
        minuteOK = table(rule.byMinute, 60)
        secondOK = rule.bySecond.isEmpty ? nil : table(bySecond, 60)
        hours = rule.byHour.isEmpty ? [start.hour] : Array(Set(rule.byHour)).sorted()
        minutes = rule.byMinute.isEmpty ? [start.minute] : Array(Set(rule.byMinute)).sorted()
        seconds = rule.bySecond.isEmpty ? [Swift.min(start.second, 59)] : Array(Set(bySecond)).sorted()
        var times: [(Int, Int, Int)] = []
        if rule.frequency >= .daily {
            for h in hours { for m in minutes { for s in seconds { times.append((h, m, s)) } } }
        }
        dayTimes = times

        let day = Int64(start.date.daysSinceEpoch)
        switch rule.frequency {
        case .yearly: period = Int64(start.date.year)
        case .monthly: period = Int64(start.date.year) * 12 + Int64(start.date.month - 1)
        case .weekly: period = day - Int64((start.date.weekday.rawValue - weekStart + 7) % 7)
        case .daily: period = day
        case .hourly: period = day * 24 + Int64(start.hour)
        case .minutely: period = (day * 24 + Int64(start.hour)) * 60 + Int64(start.minute)
        case .secondly: period = start.secondsSinceEpoch
        }
        if let until = rule.until {
            switch until {
            case .date(let d): untilLocal = LocalDateTime(date: d, hour: 23, minute: 59, second: 59)
            case .dateTime(let l, _): untilLocal = l
            }
        }
    }

    /// Skips whole periods that end before `target`, when that cannot change the result
    /// (no COUNT, which must be counted from the start).
    public mutating func fastForward(to target: LocalDateTime) {
        guard target > start, emitted == 0, buffer.isEmpty else { return }
        // With COUNT, skipped periods must be counted: only possible when every period holds
        // exactly one instance (no BYxxx parts, period no longer than a week).
        let onePerPeriod = frequency <= .weekly && rule.bySecond.isEmpty && rule.byMinute.isEmpty && rule.byHour.isEmpty
            && rule.byDay.isEmpty && rule.byMonthDay.isEmpty && rule.byYearDay.isEmpty && rule.byWeekNo.isEmpty
            && rule.byMonth.isEmpty && rule.bySetPos.isEmpty
        guard rule.count == nil || onePerPeriod else { return }
        let day = Int64(target.date.daysSinceEpoch)
        let targetPeriod: Int64
        switch frequency {
        case .yearly: targetPeriod = Int64(target.date.year)
        case .monthly: targetPeriod = Int64(target.date.year) * 12 + Int64(target.date.month - 1)
        case .weekly: targetPeriod = day - Int64((target.date.weekday.rawValue - weekStart + 7) % 7)
        case .daily: targetPeriod = day
        case .hourly: targetPeriod = day * 24 + Int64(target.hour)
        case .minutely: targetPeriod = (day * 24 + Int64(target.hour)) * 60 + Int64(target.minute)
        case .secondly: targetPeriod = target.secondsSinceEpoch
        }
        guard targetPeriod > period else { return }
        var steps = (targetPeriod - period) / step
        if let count = rule.count, onePerPeriod {
            // The first period holds DTSTART itself; stop skipping before COUNT runs out.
            steps = Swift.min(steps, Int64(count))
            emitted = Int(Swift.max(0, steps))
        }
        period += steps * step
    }

    public mutating func next() -> LocalDateTime? {
        while !finished {
            while bufferIndex < buffer.count {
                let candidate = buffer[bufferIndex]
                bufferIndex += 1
                if candidate < start { continue }
                if let untilLocal, candidate > untilLocal { finished = true; return nil }
                if let count = rule.count, emitted >= count { finished = true; return nil }
                emitted += 1
                return candidate
            }
            if periodBudget <= 0 { exhaustedBudget = true; finished = true; return nil }
            periodBudget -= 1
            guard let periodStart = periodStartDate(), periodStart.year <= 9999 else { finished = true; return nil }
            let periodBegin = frequency >= .daily ? LocalDateTime(date: periodStart) : periodStartTime()
            if let stopAfter, periodBegin > stopAfter { finished = true; return nil }
            if let untilLocal, periodBegin > untilLocal { finished = true; return nil }
            buffer.removeAll(keepingCapacity: true)
            bufferIndex = 0
            skipTo = nil
            fillPeriod()
            if !rule.bySetPos.isEmpty { applySetPos() }
            if let skipTo {
                let steps = Swift.max(1, (skipTo - period + step - 1) / step)
                period += steps * step
            } else {
                period += step
            }
        }
        return nil
    }

    // MARK: - Periods

    private func periodStartDate() -> CivilDate? {
        switch frequency {
        case .yearly:
            guard period <= 10_000 else { return nil }
            return CivilDate(year: Int(period), month: 1, day: 1)
        case .monthly:
            guard period <= 120_000 else { return nil }
            return CivilDate(year: Int(period / 12), month: Int(period % 12) + 1, day: 1)
        case .weekly, .daily:
            guard period < 3_000_000 else { return nil }
            return CivilDate(daysSinceEpoch: Int(period))
        case .hourly:
            guard period < 72_000_000 else { return nil }
            return CivilDate(daysSinceEpoch: Int(floorDiv(period, 24)))
        case .minutely:
            guard period < 4_320_000_000 else { return nil }
            return CivilDate(daysSinceEpoch: Int(floorDiv(period, 1440)))
        case .secondly:
            guard period < 259_200_000_000 else { return nil }
            return CivilDate(daysSinceEpoch: Int(floorDiv(period, 86_400)))
        }
    }

    private func periodStartTime() -> LocalDateTime {
        switch frequency {
        case .hourly: return LocalDateTime(secondsSinceEpoch: period * 3600)
        case .minutely: return LocalDateTime(secondsSinceEpoch: period * 60)
        case .secondly: return LocalDateTime(secondsSinceEpoch: period)
        default: return LocalDateTime(date: periodStartDate() ?? start.date)
        }
    }

    private func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        a >= 0 ? a / b : -((-a + b - 1) / b)
    }

    private mutating func fillPeriod() {
        switch frequency {
        case .yearly:
            let year = Int(period)
            for month in 1...12 where !hasByMonth || monthOK[month] {
                appendDays(CivilDate(year: year, month: month, day: 1), count: CivilDate.daysIn(month: month, year: year))
            }
        case .monthly:
            let first = CivilDate(year: Int(period / 12), month: Int(period % 12) + 1, day: 1)
            appendDays(first, count: CivilDate.daysIn(month: first.month, year: first.year))
        case .weekly:
            appendDays(CivilDate(daysSinceEpoch: Int(period)), count: 7)
        case .daily:
            appendDays(CivilDate(daysSinceEpoch: Int(period)), count: 1)
        case .hourly:
            let dayNumber = floorDiv(period, 24)
            let date = CivilDate(daysSinceEpoch: Int(dayNumber))
            guard dayMatches(date) else { skipTo = (dayNumber + 1) * 24; return }
            let h = Int(period - dayNumber * 24)
            if let hourOK, !hourOK[h] { return }
            for m in minutes { for s in seconds { buffer.append(LocalDateTime(date: date, hour: h, minute: m, second: s)) } }
        case .minutely:
            let dayNumber = floorDiv(period, 1440)
            let date = CivilDate(daysSinceEpoch: Int(dayNumber))
            guard dayMatches(date) else { skipTo = (dayNumber + 1) * 1440; return }
            let minuteOfDay = Int(period - dayNumber * 1440)
            let h = minuteOfDay / 60, m = minuteOfDay % 60
            if let hourOK, !hourOK[h] { skipTo = period - Int64(m) + 60; return }
            if let minuteOK, !minuteOK[m] { return }
            for s in seconds { buffer.append(LocalDateTime(date: date, hour: h, minute: m, second: s)) }
        case .secondly:
            let dayNumber = floorDiv(period, 86_400)
            let date = CivilDate(daysSinceEpoch: Int(dayNumber))
            guard dayMatches(date) else { skipTo = (dayNumber + 1) * 86_400; return }
            let secondOfDay = Int(period - dayNumber * 86_400)
            let h = secondOfDay / 3600, m = secondOfDay % 3600 / 60, s = secondOfDay % 60
            if let hourOK, !hourOK[h] { skipTo = period - Int64(m * 60 + s) + 3600; return }
            if let minuteOK, !minuteOK[m] { skipTo = period - Int64(s) + 60; return }
            if let secondOK, !secondOK[s] { return }
            buffer.append(LocalDateTime(date: date, hour: h, minute: m, second: s))
        }
    }

    private mutating func appendDays(_ first: CivilDate, count: Int) {
        var dayNumber = first.daysSinceEpoch
        for _ in 0..<count {
            let date = CivilDate(daysSinceEpoch: dayNumber)
            if dayMatches(date) {
                for (h, m, s) in dayTimes { buffer.append(LocalDateTime(date: date, hour: h, minute: m, second: s)) }
            }
            dayNumber += 1
        }
    }

    private func dayMatches(_ date: CivilDate) -> Bool {
        if hasByMonth && !monthOK[date.month] { return false }
        if hasMonthDay {
            let dim = CivilDate.daysIn(month: date.month, year: date.year)
            if !(monthDayPos[date.day] || monthDayNeg[dim - date.day + 1]) { return false }
        }
        if hasYearDay {
            let length = CivilDate.daysIn(year: date.year)
            let doy = date.dayOfYear
            if !(yearDayPos[doy] || yearDayNeg[length - doy + 1]) { return false }
        }
        if hasByDay {
            let wd = date.weekday.rawValue
            if !weekdayPlain[wd] {
                guard !nthWeekdays.isEmpty else { return false }
                let inMonth = frequency == .monthly || hasByMonth
                let position = inMonth ? date.day : date.dayOfYear
                let length = inMonth ? CivilDate.daysIn(month: date.month, year: date.year) : CivilDate.daysIn(year: date.year)
                let fromStart = (position - 1) / 7 + 1
                let fromEnd = -((length - position) / 7 + 1)
                var found = false
                for (weekday, n) in nthWeekdays where weekday == wd && (n == fromStart || n == fromEnd) {
                    found = true
                    break
                }
                if !found { return false }
            }
        }
        if hasWeekNo {
            let (week, weeksInYear) = weekNumber(date)
            if !(weekNoPos[week] || weekNoNeg[weeksInYear - week + 1]) { return false }
        }
        return true
    }

    /// Week number under WKST, where week 1 is the first with at least four days in the year.
    private func weekNumber(_ date: CivilDate) -> (week: Int, weeksInYear: Int) {
        let dayNumber = date.daysSinceEpoch
        let offset = (date.weekday.rawValue - weekStart + 7) % 7
        let weekBegin = dayNumber - offset
        let weekYear = CivilDate(daysSinceEpoch: weekBegin + 3).year
        let firstWeek = firstWeekStart(weekYear)
        let week = (weekBegin - firstWeek) / 7 + 1
        let weeks = (firstWeekStart(weekYear + 1) - firstWeek) / 7
        return (Swift.min(week, 53), Swift.min(weeks, 53))
    }

    private func firstWeekStart(_ year: Int) -> Int {
        let jan4 = CivilDate(year: year, month: 1, day: 4)
        return jan4.daysSinceEpoch - (jan4.weekday.rawValue - weekStart + 7) % 7
    }

    private mutating func applySetPos() {
        let all = buffer
        guard !all.isEmpty else { return }
        var picked: [LocalDateTime] = []
        for pos in rule.bySetPos {
            let index = pos > 0 ? pos - 1 : all.count + pos
            if index >= 0 && index < all.count { picked.append(all[index]) }
        }
        buffer = Array(Set(picked)).sorted()
    }
}
