/// Finds problems in iCalendar data beyond syntax: missing required properties, values
/// that do not parse (Feb 30, bad RRULE parts), unknown time zones, DTEND before DTSTART.
public struct ICalendarValidator: Sendable {
    public var parser: ICalendarParser

    public init(parser: ICalendarParser = ICalendarParser()) { self.parser = parser }

    /// All problems found; a syntax error stops at the first one.
    public func validate(bytes: [UInt8]) -> [ICalendarError] {
        do { return validate(try parser.parse(bytes: bytes)) } catch let error as ICalendarError { return [error] } catch {
            return [ICalendarError(.invalidStructure, "\(error)")]
        }
    }

    public func validate(_ text: String) -> [ICalendarError] {
        validate(bytes: Array(text.utf8))
    }

    public func validate(_ roots: [Component]) -> [ICalendarError] {
        var problems: [ICalendarError] = []
        if roots.isEmpty { return [ICalendarError(.invalidStructure, "no BEGIN:VCALENDAR found")] }
        for root in roots {
            guard root.name == "VCALENDAR" else {
                problems.append(ICalendarError(.invalidStructure, line: root.line, "top-level component is \(root.name), expected VCALENDAR"))
                continue
            }
            problems += check(calendar: root)
        }
        return problems.sorted { ($0.line ?? 0) < ($1.line ?? 0) }
    }

    func check(calendar: Component) -> [ICalendarError] {
        var problems: [ICalendarError] = []
        func require(_ name: String, in component: Component) {
            if component.first(name) == nil {
                problems.append(ICalendarError(.missingProperty, line: component.line, "\(component.name) has no \(name)"))
            }
        }
        require("PRODID", in: calendar)
        require("VERSION", in: calendar)
        if let version = calendar.first("VERSION"), version.value != "2.0" {
            problems.append(ICalendarError(.invalidValue, line: version.line, "VERSION is \(version.value.prefix(20)), expected 2.0"))
        }
        let resolver = TimeZoneResolver(calendar: calendar, readingKnownZones: true)
        problems += resolver.problems
        let hasMethod = calendar.first("METHOD") != nil
        for component in calendar.components {
            switch component.name {
            case "VEVENT", "VTODO", "VJOURNAL":
                require("UID", in: component)
                require("DTSTAMP", in: component)
                if component.name == "VEVENT" && !hasMethod { require("DTSTART", in: component) }
                let endName = component.name == "VTODO" ? "DUE" : "DTEND"
                if component.first(endName) != nil && component.first("DURATION") != nil {
                    problems.append(ICalendarError(.invalidStructure, line: component.line, "\(component.name) has both \(endName) and DURATION"))
                }
                problems += checkValues(component, resolver: resolver)
                if component.first("DTSTART") != nil,
                   (try? RecurrenceSet.timing(of: component, resolver: resolver, floating: .utc)) == nil {
                    do { _ = try RecurrenceSet.timing(of: component, resolver: resolver, floating: .utc) } catch let e as ICalendarError {
                        if !problems.contains(e) { problems.append(e) }
                    } catch {}
                }
                for alarm in component.components where alarm.name == "VALARM" {
                    require("ACTION", in: alarm)
                    require("TRIGGER", in: alarm)
                    if let trigger = alarm.first("TRIGGER") {
                        let ok = trigger.parameter("VALUE")?.uppercased() == "DATE-TIME"
                            ? (try? trigger.dateValue()) != nil
                            : (try? Duration.parse(trigger.value)) != nil
                        if !ok {
                            problems.append(ICalendarError(.invalidValue, line: trigger.line, "TRIGGER \"\(trigger.value.prefix(40))\" is neither a duration nor a date-time"))
                        }
                    }
                }
            case "VFREEBUSY":
                require("UID", in: component)
                require("DTSTAMP", in: component)
                problems += checkValues(component, resolver: resolver)
                for fb in component.all("FREEBUSY") {
                    for part in fb.value.split(separator: ",") where (try? Period.parse(String(part))) == nil {
                        problems.append(ICalendarError(.invalidValue, line: fb.line, "FREEBUSY \"\(part.prefix(40))\" is not a PERIOD"))
                    }
                }
            case "VTIMEZONE":
                require("TZID", in: component)
            default:
                break
            }
        }
        return problems
    }

    func checkValues(_ component: Component, resolver: TimeZoneResolver) -> [ICalendarError] {
        var problems: [ICalendarError] = []
        for property in component.properties {
            switch property.name {
            case "DTSTART", "DTEND", "DUE", "RECURRENCE-ID", "DTSTAMP", "CREATED", "LAST-MODIFIED", "COMPLETED":
                do {
                    let value = try property.dateValue()
                    if let tzid = value.tzid, resolver.rules(for: tzid) == nil {
                        problems.append(ICalendarError(.unknownTimeZone, line: property.line, "\(property.name): TZID \"\(tzid.prefix(60))\" is neither a known time zone nor defined by a VTIMEZONE"))
                    }
                    if ["DTSTAMP", "CREATED", "LAST-MODIFIED", "COMPLETED"].contains(property.name), value.reference != .utc {
                        problems.append(ICalendarError(.invalidValue, line: property.line, "\(property.name) must be a UTC date-time (ending in Z)"))
                    }
                } catch let e as ICalendarError { problems.append(e) } catch {}
            case "EXDATE", "RDATE":
                do { _ = try property.dateListValue() } catch let e as ICalendarError { problems.append(e) } catch {}
            case "DURATION":
                if (try? Duration.parse(property.value)) == nil {
                    problems.append(ICalendarError(.invalidValue, line: property.line, "DURATION \"\(property.value.prefix(40))\" is not a duration (e.g. PT1H)"))
                }
            case "RRULE":
                do {
                    let rule = try RecurrenceRule.parse(property.value)
                    for problem in rule.problems { problems.append(ICalendarError(.invalidRecurrenceRule, line: property.line, "RRULE: " + problem)) }
                    if let until = rule.until, let start = try? component.first("DTSTART")?.dateValue() {
                        if until.isDate != start.isDate {
                            problems.append(ICalendarError(.invalidRecurrenceRule, line: property.line,
                                "RRULE: UNTIL is a \(until.isDate ? "DATE" : "DATE-TIME") but DTSTART is a \(start.isDate ? "DATE" : "DATE-TIME") (engines disagree on its meaning)"))
                        } else if start.tzid != nil && until.reference != .utc {
                            problems.append(ICalendarError(.invalidRecurrenceRule, line: property.line, "RRULE: UNTIL must be in UTC (end in Z) when DTSTART has a TZID"))
                        }
                    }
                } catch var e as ICalendarError {
                    e.line = property.line
                    problems.append(e)
                } catch {}
            case "SEQUENCE", "PRIORITY", "PERCENT-COMPLETE":
                if Int(property.value.trimmingSpaces) == nil {
                    problems.append(ICalendarError(.invalidValue, line: property.line, "\(property.name) must be an integer"))
                }
            case "GEO":
                let parts = property.value.split(separator: ";")
                if parts.count != 2 || parts.contains(where: { Double($0) == nil }) {
                    problems.append(ICalendarError(.invalidValue, line: property.line, "GEO must be latitude;longitude"))
                }
            default:
                break
            }
        }
        return problems
    }
}
