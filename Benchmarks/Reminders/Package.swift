// swift-tools-version:6.1
import PackageDescription

// A separate package so the benchmark never slows the main build. `Sources/ICalendar` and
// `Sources/Reminders` are symlinks to the repository's `Sources/ICalendar` and
// `Sources/JadwalCore/Reminders`: the benchmark measures the same code. The reminder schedule is
// pure (ICalendar and Foundation only) but for one file that reads a stored `CalendarObject`.
let package = Package(
    name: "RemindersBenchmarks",
    platforms: [.macOS(.v15)],
    targets: [
        .target(name: "ICalendar"),
        .target(name: "Reminders", dependencies: ["ICalendar"], exclude: ["ReminderSchedule+CalendarObject.swift"]),
        .executableTarget(name: "reminders-benchmark", dependencies: ["Reminders", "ICalendar"]),
    ],
    swiftLanguageModes: [.v6]
)
