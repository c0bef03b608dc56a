import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
@testable import JadwalCore
import Testing

@Suite("QR code (ISO/IEC 18004)")
struct QRCodeTests {
    static let levels = QRCode.ErrorCorrection.allCases

    /// The link the Easy Setup screen shows, 200 bytes.
    static let setupURL: [UInt8] = {
        let head = "https://cal.example.com/setup/", tail = ".mobileconfig"
        let token = (0..<(200 - head.count - tail.count)).map { index -> Character in
            let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
            return alphabet[(index * 37 + 11) % alphabet.count]
        }
        return Array((head + String(token) + tail).utf8)
    }()

    /// Bytes that are not text, the same every run.
    static func noise(_ count: Int, seed: Int = 1) -> [UInt8] {
        var state = UInt32(truncatingIfNeeded: seed &* 2_654_435_761 | 1)
        return (0..<count).map { _ in
            state ^= state << 13
            state ^= state >> 17
            state ^= state << 5
            return UInt8(truncatingIfNeeded: state >> 24)
        }
    }

    /// Inputs for the comparisons, each at every level; the last three sit at version boundaries
    /// of the level: the fullest version 6 (no version information), the emptiest version 7
    /// (with it) and the emptiest version 10 (16-bit character count).
    static func inputs(_ correction: QRCode.ErrorCorrection) -> [(name: String, bytes: [UInt8])] {
        [
            ("one byte", Array("A".utf8)),
            ("01234567", Array("01234567".utf8)),
            ("short setup link", Array("https://cal.example.com/setup/AbC123.mobileconfig".utf8)),
            ("200-byte setup link", setupURL),
            ("every byte value 0x00–0xFF", (0...255).map { UInt8($0) }),
            ("runs of 0x00 and 0xFF", Array(repeating: 0x00, count: 40) + Array(repeating: 0xFF, count: 40)),
            ("Arabic UTF-8", Array("جدول الصلاة: الفجر ٤:٣٠".utf8)),
            // At H two finder-like patterns share modules in one mask: how N3 counts them
            // decides between masks 0 and 6.
            ("overlapping finder-like patterns", Array("Q1HBU3aOptEOKETFLn9GpIfsnm4MsC".utf8)),
            ("full version 6", noise(QRCode.byteCapacity(version: 6, correction: correction), seed: 6)),
            ("first of version 7", noise(QRCode.byteCapacity(version: 6, correction: correction) + 1, seed: 7)),
            ("first of version 10", noise(QRCode.byteCapacity(version: 9, correction: correction) + 1, seed: 10)),
        ]
    }

    // MARK: - Against segno, a second implementation

    /// Every module of our symbols against segno's for the same bytes, level and byte mode.
    @Test("version, mask and every module match segno")
    func matchesSegno() throws {
        let cases = Self.levels.flatMap { level in Self.inputs(level).map { (level, $0.name, $0.bytes) } }
        let request = cases.map { ["level": $0.0.letter, "hex": $0.2.map { String(format: "%02x", $0) }.joined()] }
        // segno pads a bit stream that already ends on a codeword boundary with a whole zero
        // codeword (its open issues #123 and #148); 7.4.10 pads only up to the boundary, then
        // 11101100 00010001. Only that function is replaced; the rest is segno's.
        let script = """
            import json, sys
            import segno
            from segno import encoder
            assert hasattr(encoder, 'write_padding_bits'), 'segno changed: see the padding note in QRCodeTests'
            encoder.write_padding_bits = lambda buff, version, length: buff.extend([0] * (-length % 8))
            out = []
            for case in json.load(open(sys.argv[1])):
                q = segno.make_qr(bytes.fromhex(case['hex']), error=case['level'], mode='byte', boost_error=False)
                out.append({'version': q.version, 'mask': q.mask,
                            'modules': ''.join('1' if m else '0' for row in q.matrix for m in row)})
            json.dump(out, sys.stdout)
            """
        guard let output = try Self.runPython(script, json: request, purpose: "compare QR codes with segno") else { return }
        struct Reference: Decodable { let version: Int; let mask: Int; let modules: String }
        let references = try JSONDecoder().decode([Reference].self, from: output)
        try #require(references.count == cases.count)
        var matched = 0
        var versions: Set<Int> = []
        for ((level, name, bytes), reference) in zip(cases, references) {
            let code = try QRCode(encoding: bytes, correction: level)
            versions.insert(code.version)
            let ours = code.modules.flatMap { $0 }.map { $0 ? "1" : "0" }.joined()
            let differing = zip(ours, reference.modules).count(where: { $0 != $1 })
            #expect(code.version == reference.version && code.mask == reference.mask && ours == reference.modules,
                    "\(name) at \(level.letter): ours \(code.version)-\(code.mask), segno \(reference.version)-\(reference.mask), \(differing) modules differ")
            if code.version == reference.version, code.mask == reference.mask, ours == reference.modules { matched += 1 }
        }
        // The boundary inputs must really reach versions 6, 7 and 10 at every level.
        #expect(versions.isSuperset(of: [6, 7, 10]), "\(versions.sorted())")
        print("QRCode: \(matched) of \(cases.count) symbols (\(cases.count / Self.levels.count) inputs × \(Self.levels.count) levels) match segno")
    }

    /// A real decoder (zxing-cpp) reads the SVG as drawn: its path rasterised, quiet zone and all.
    @Test("zxing-cpp decodes the SVG back to the bytes, version, level and mask")
    func decoderReadsTheSVG() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("jadwal-qr-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var samples: [(bytes: [UInt8], code: QRCode)] = []
        for level in Self.levels { samples.append((Self.setupURL, try QRCode(encoding: Self.setupURL, correction: level))) }
        for bytes in [(0...255).map { UInt8($0) }, Array("جدول الصلاة".utf8), Self.noise(900, seed: 3)] {
            samples.append((bytes, try QRCode(encoding: bytes, correction: .quartile)))
        }
        var files: [String] = []
        for (index, sample) in samples.enumerated() {
            let raster = try Raster(svg: sample.code.svg(moduleSize: 3, title: "Setup link"))
            let file = directory.appendingPathComponent("\(index).pgm")
            try raster.pgm.write(to: file)
            files.append(file.path)
        }
        let script = """
            import json, sys
            import zxingcpp
            out = []
            for path in json.load(open(sys.argv[1])):
                data = open(path, 'rb').read()
                magic, size, depth, pixels = data.split(b'\\n', 3)
                width, height = map(int, size.split())
                found = zxingcpp.read_barcodes(memoryview(pixels).cast('B', (height, width)),
                                               formats=zxingcpp.BarcodeFormat.QRCode, try_rotate=False)
                out.append([{'hex': b.bytes.hex(), 'version': int(b.extra['Version']), 'mask': b.extra['DataMask'],
                             'level': b.ec_level} for b in found])
            json.dump(out, sys.stdout)
            """
        guard let output = try Self.runPython(script, json: files, purpose: "decode QR codes with zxing-cpp") else { return }
        struct Decoded: Decodable { let hex: String; let version: Int; let mask: Int; let level: String }
        let decoded = try JSONDecoder().decode([[Decoded]].self, from: output)
        try #require(decoded.count == samples.count)
        for (sample, found) in zip(samples, decoded) {
            let expected = sample.bytes.map { String(format: "%02x", $0) }.joined()
            let label = "\(sample.bytes.count) bytes at \(sample.code.version)-\(sample.code.correction.letter)"
            #expect(found.count == 1, "\(label): zxing-cpp found \(found.count) symbols")
            guard let symbol = found.first else { continue }
            #expect(symbol.hex == expected, "\(label): decoded other bytes")
            #expect(symbol.version == sample.code.version && symbol.mask == sample.code.mask
                    && symbol.level == sample.code.correction.letter, "\(label): read as \(symbol)")
        }
    }

    /// Runs `script` with the test Python and `json` in a file named by `sys.argv[1]`; its
    /// standard output, or nil when no Python is configured outside CI.
    static func runPython(_ script: String, json: some Encodable, purpose: String) throws -> Data? {
        let environment = ProcessInfo.processInfo.environment
        guard let python = environment["JADWAL_TEST_PYTHON"].flatMap({ $0.isEmpty ? nil : $0 }) else {
            if !(environment["CI"] ?? "").isEmpty {
                Issue.record("JADWAL_TEST_PYTHON is not set: CI must \(purpose) (scripts/test.sh sets it)")
            }
            return nil
        }
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("jadwal-qr-\(UUID().uuidString).json")
        try JSONEncoder().encode(json).write(to: input)
        defer { try? FileManager.default.removeItem(at: input) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", script, input.path]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let complaints = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, """
            Python could not \(purpose) (pip install -r scripts/requirements-test.txt): \
            \(String(decoding: complaints, as: UTF8.self))
            """)
        return printed
    }

    // MARK: - The spec's own numbers

    @Test("the symbol is 17 + 4 · version modules wide, and the smallest version that holds the bytes")
    func sizeAndVersion() throws {
        // Table 7, byte mode: the most bytes versions 1, 2, 10 and 40 hold at L, M, Q, H.
        let capacities: [Int: [Int]] = [1: [17, 14, 11, 7], 2: [32, 26, 20, 14], 10: [271, 213, 151, 119], 40: [2953, 2331, 1663, 1273]]
        for (version, counts) in capacities {
            for (level, count) in zip(Self.levels, counts) {
                let full = try QRCode(encoding: Self.noise(count), correction: level)
                #expect(full.version == version, "\(count) bytes at \(level.letter)")
                #expect(full.size == 17 + 4 * version && full.modules.count == full.size && full.modules.allSatisfy { $0.count == full.size })
                if version < 40 {
                    #expect(try QRCode(encoding: Self.noise(count + 1), correction: level).version == version + 1)
                }
            }
        }
        #expect(try QRCode(encoding: [UInt8]()).version == 1)
        let code = try QRCode(encoding: Self.setupURL)
        #expect(!code.isDark(x: -1, y: 0) && !code.isDark(x: code.size, y: 0) && code.isDark(x: 0, y: 0))
    }

    @Test("too long for version 40 is a typed error that says what to do")
    func tooLong() throws {
        #expect(throws: QRCode.Problem.tooLong(byteCount: 2332, maximum: 2331, correction: .medium)) {
            try QRCode(encoding: Self.noise(2332))
        }
        do throws(QRCode.Problem) {
            _ = try QRCode(encoding: Self.noise(1274), correction: .high)
            Issue.record("1274 bytes at H must not fit")
        } catch {
            #expect(error.description.contains("1274 bytes") && error.description.contains("1273")
                    && error.description.contains("lower error correction level"), "\(error)")
        }
        do throws(QRCode.Problem) {
            _ = try QRCode(encoding: Self.noise(2954), correction: .low)
            Issue.record("2954 bytes at L must not fit")
        } catch {
            #expect(!error.description.contains("lower error correction"), "L is the lowest: \(error)")
        }
    }

    @Test("format information: the spec's example and Table C.1")
    func formatInformation() {
        // 7.9.1: level M (00), mask 101 → 001010011011100, masked → 100000011001110.
        #expect(BCH.formatBits(correction: .medium, mask: 5) == 0b100000011001110)
        // Table C.1: M with mask 0 is the XOR mask itself; two more rows.
        #expect(BCH.formatBits(correction: .medium, mask: 0) == 0b101010000010010)
        #expect(BCH.formatBits(correction: .low, mask: 4) == 0b110011000101111)
        #expect(BCH.formatBits(correction: .high, mask: 7) == 0b000100000111011)
        // Annex D: version 7 → 000111 110010010100.
        #expect(BCH.versionBits(version: 7) == 0b000111_110010010100)
    }

    @Test("Reed–Solomon: Annex I's 01234567 at 1-M")
    func annexI() {
        // Annex I encodes "01234567" in numeric mode: these 16 data codewords, then these 10.
        let data: [UInt8] = [0b00010000, 0b00100000, 0b00001100, 0b01010110, 0b01100001, 0b10000000, 0b11101100, 0b00010001,
                             0b11101100, 0b00010001, 0b11101100, 0b00010001, 0b11101100, 0b00010001, 0b11101100, 0b00010001]
        let correction: [UInt8] = [0b10100101, 0b00100100, 0b11010100, 0b11000001, 0b11101101,
                                   0b00110110, 0b11000111, 0b10000111, 0b00101100, 0b01010101]
        #expect(ReedSolomon(degree: 10).correction(for: data) == correction)
        #expect(QRCode.interleave(data, version: 1, correction: .medium) == data + correction)
    }

    @Test("byte mode data: mode 0100, count, bytes, terminator, then pad codewords from the boundary")
    func dataCodewords() {
        // The bit stream ends on a codeword boundary after the terminator: 11101100 comes next.
        #expect(QRCode.dataCodewords(for: Array("01234567".utf8), version: 1, correction: .medium)
                == [0x40, 0x83, 0x03, 0x13, 0x23, 0x33, 0x43, 0x53, 0x63, 0x70, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11])
    }

    @Test("every version's free modules hold Table 1's codewords plus its remainder bits")
    func geometry() {
        for version in 1...40 {
            let grid = QRCode.Grid(version: version)
            let free = grid.isFunction.count(where: { !$0 })
            // Table 1's remainder bits column.
            let remainder = switch version {
            case 2...6: 7
            case 14...20, 28...34: 3
            case 21...27: 4
            default: 0
            }
            #expect(free == QRCode.totalCodewords[version - 1] * 8 + remainder, "version \(version)")
        }
    }

    @Test("mask penalties N1 and N3 on single lines")
    func penalties() {
        func line(_ text: String) -> [Bool] { text.map { $0 == "1" } }
        #expect(QRCode.runPenalty(line("1111100000")) == 3 + 3)
        #expect(QRCode.runPenalty(line("0111111010")) == 4)
        #expect(QRCode.finderLikePenalty(line("00001011101")) == 40)
        #expect(QRCode.finderLikePenalty(line("10111010000")) == 40)
        // Light beyond the edge counts: the quiet zone is light.
        #expect(QRCode.finderLikePenalty(line("1011101111")) == 40)
        #expect(QRCode.finderLikePenalty(line("1110111011101111")) == 0)
        // Two patterns sharing modules: one scores, as segno reads it.
        #expect(QRCode.finderLikePenalty(line("0000101110111010000")) == 40)
    }

    // MARK: - SVG

    @Test("the SVG is well-formed, accessible, escapes its title and draws exactly the dark modules")
    func svg() throws {
        let code = try QRCode(encoding: Self.setupURL)
        let title = "Scan to set up <Jadwal> & \"Sara's\" iPhone\u{7}"
        let svg = code.svg(moduleSize: 5, quietZone: 4, title: title)
        #expect(svg.contains("<title>Scan to set up &lt;Jadwal&gt; &amp; &quot;Sara&apos;s&quot; iPhone</title>"))
        let parsed = try SVGReader(svg)
        #expect(parsed.elements == ["svg", "title", "rect", "path"], "one background, one path")
        let root = parsed.attributes["svg"] ?? [:]
        let side = code.size + 8
        #expect(root["role"] == "img" && root["viewBox"] == "0 0 \(side) \(side)" && root["shape-rendering"] == "crispEdges")
        #expect(root["width"] == "\(side * 5)" && root["height"] == "\(side * 5)")
        #expect(parsed.title == "Scan to set up <Jadwal> & \"Sara's\" iPhone", "the bell character is dropped")
        #expect(parsed.attributes["rect"]?["fill"] == "#fff")

        let raster = try Raster(svg: svg)
        #expect(raster.width == side * 5)
        for y in -4..<(code.size + 4) {
            for x in -4..<(code.size + 4) where raster.isDark(column: x + 4, row: y + 4) != code.isDark(x: x, y: y) {
                Issue.record("module (\(x), \(y)) drawn wrong")
            }
        }
        let runs = code.modules.reduce(0) { count, row in count + zip([false] + row, row).count(where: { !$0 && $1 }) }
        #expect(parsed.path.components(separatedBy: "M").count - 1 == runs, "one subpath per horizontal run")
    }
}

/// The parts of our SVG a test looks at, read by Foundation's XML parser (which fails on
/// anything not well-formed).
private final class SVGReader: NSObject, XMLParserDelegate {
    private(set) var elements: [String] = []
    private(set) var attributes: [String: [String: String]] = [:]
    private(set) var title = ""
    private var inTitle = false
    var path: String { attributes["path"]?["d"] ?? "" }

    init(_ svg: String) throws {
        super.init()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = self
        guard parser.parse() else {
            throw TestFailure("the SVG is not well-formed XML: \(parser.parserError.map { "\($0)" } ?? "?")")
        }
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        elements.append(name)
        self.attributes[name] = attributes
        inTitle = name == "title"
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        inTitle = false
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if inTitle { title += string }
    }
}

/// Our SVG drawn to pixels: the viewBox in modules, `width` in pixels, the path's runs
/// (`M x y h n v1 h-n z`) filled dark on white.
private struct Raster {
    let width: Int
    let scale: Int
    var pixels: [UInt8]

    init(svg: String) throws {
        let reader = try SVGReader(svg)
        let root = reader.attributes["svg"] ?? [:]
        guard let viewBox = root["viewBox"]?.split(separator: " ").compactMap({ Int($0) }), viewBox.count == 4,
              let width = root["width"].flatMap({ Int($0) }), width % viewBox[2] == 0 else {
            throw TestFailure("the SVG has no usable viewBox and width")
        }
        self.width = width
        scale = width / viewBox[2]
        pixels = Array(repeating: 255, count: width * width)
        for run in reader.path.split(separator: "M") {
            let numbers = run.split(whereSeparator: { !$0.isNumber && $0 != "-" }).compactMap { Int($0) }
            guard numbers.count == 5, numbers[3] == 1, numbers[4] == -numbers[2], run.hasSuffix("z") else {
                throw TestFailure("unexpected path command M\(run)")
            }
            for dy in 0..<scale {
                for column in numbers[0]..<(numbers[0] + numbers[2]) {
                    for dx in 0..<scale { pixels[(numbers[1] * scale + dy) * width + column * scale + dx] = 0 }
                }
            }
        }
    }

    func isDark(column: Int, row: Int) -> Bool { pixels[row * scale * width + column * scale] == 0 }

    /// A binary PGM (P5), which any image tool reads.
    var pgm: Data { Data("P5\n\(width) \(width)\n255\n".utf8) + Data(pixels) }
}

private struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
