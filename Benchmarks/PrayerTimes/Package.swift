// swift-tools-version:6.1
import PackageDescription

// A separate package so the benchmark never slows the main build. `Sources/PrayerTimes` is a
// symlink to the repository's `Sources/PrayerTimes`: the benchmark measures the same code.
let package = Package(
    name: "PrayerTimesBenchmarks",
    platforms: [.macOS(.v15)],
    targets: [
        .target(name: "PrayerTimes"),
        .executableTarget(name: "prayer-times-benchmark", dependencies: ["PrayerTimes"]),
    ],
    swiftLanguageModes: [.v6]
)
