// swift-tools-version:6.1
import PackageDescription

// A separate package so the benchmark never slows the main build. `Sources/Scheduling` is a
// symlink to the repository's `Sources/Scheduling`: the benchmark measures the same code.
let package = Package(
    name: "SchedulingBenchmarks",
    platforms: [.macOS(.v15)],
    targets: [
        .target(name: "Scheduling"),
        .executableTarget(name: "scheduling-benchmark", dependencies: ["Scheduling"]),
    ],
    swiftLanguageModes: [.v6]
)
