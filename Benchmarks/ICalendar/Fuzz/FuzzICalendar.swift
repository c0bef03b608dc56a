// libFuzzer entry point: parse arbitrary bytes, and whatever parses is validated,
// serialised, re-parsed and expanded. Any crash, hang or sanitizer report is a finding.
// Built together with Sources/ICalendar (see ../README.md), so it names the types directly.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzICalendar(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let parser = ICalendarParser(limits: .init(maxInputBytes: 1 << 20, maxLineBytes: 1 << 18))
    guard let roots = try? parser.parse(bytes: bytes) else { return 0 }
    _ = ICalendarValidator().validate(roots)
    for root in roots {
        let text = root.serialized
        // What we write must read back to the same tree.
        guard let again = try? parser.parse(text), again == [root] else {
            fatalError("serialised output did not parse back to the same components")
        }
        let options = ExpansionOptions(maxInstances: 200, componentNames: ["VEVENT", "VTODO", "VJOURNAL"])
        _ = CalendarExpander(calendar: root, options: options).expand(from: 1_700_000_000, to: 1_800_000_000)
        let resolver = TimeZoneResolver(calendar: root)
        for component in root.components where component.name == "VEVENT" {
            if let event = try? Event(component: component) { _ = event.component.serialized }
            let set = RecurrenceSet(uid: component.first("UID")?.value ?? "", components: [component])
            _ = try? set.bounds(resolver: resolver, options: ExpansionOptions(maxInstances: 500, periodBudget: 20_000))
        }
        _ = root.addingMissingTimeZones(fromYear: 2020)
    }
    return 0
}
