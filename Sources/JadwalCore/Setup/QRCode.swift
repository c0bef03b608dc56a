import Foundation

/// A QR code (ISO/IEC 18004:2015) of bytes in byte mode, for the web app's Easy Setup screen: a
/// phone scans the one-time setup link from a desktop screen. Chooses the smallest version that
/// holds the bytes at the requested error correction level and the mask with the lowest penalty.
public struct QRCode: Sendable, Hashable {
    /// The error correction levels of 7.5.1, by the share of codewords they can restore.
    public enum ErrorCorrection: Int, Sendable, Hashable, CaseIterable {
        /// L, about 7 %.
        case low
        /// M, about 15 %.
        case medium
        /// Q, about 25 %.
        case quartile
        /// H, about 30 %.
        case high

        /// The letter the spec and scanners use: L, M, Q or H.
        public var letter: String { ["L", "M", "Q", "H"][rawValue] }

        /// The two bits of the level in the format information (Table 12): not in letter order.
        var formatBits: Int { [0b01, 0b00, 0b11, 0b10][rawValue] }
    }

    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// More bytes than version 40 holds at the level.
        case tooLong(byteCount: Int, maximum: Int, correction: ErrorCorrection)

        public var description: String {
            switch self {
            case .tooLong(let byteCount, let maximum, let correction):
                let lower = correction == .low ? "" : ", or use a lower error correction level than \(correction.letter)"
                return "\(byteCount) bytes do not fit in a QR code at error correction level \(correction.letter): "
                    + "the largest holds \(maximum). Shorten the text\(lower)."
            }
        }
    }

    /// 1–40; the symbol is 17 + 4 · version modules wide.
    public let version: Int
    /// The data mask pattern, 0–7 (7.8.2).
    public let mask: Int
    public let correction: ErrorCorrection
    /// Row-major, `size` × `size`, true for dark.
    private let darkModules: [Bool]

    /// Modules on a side, without the quiet zone.
    public var size: Int { Self.size(version: version) }

    /// Encodes `bytes` in byte mode (a URL's ASCII as it is; UTF-8 text as its bytes).
    public init(encoding bytes: some Collection<UInt8>, correction: ErrorCorrection = .medium) throws(Problem) {
        let data = Array(bytes)
        guard let version = (1...40).first(where: { data.count <= Self.byteCapacity(version: $0, correction: correction) }) else {
            throw .tooLong(byteCount: data.count, maximum: Self.byteCapacity(version: 40, correction: correction), correction: correction)
        }
        var grid = Grid(version: version)
        grid.place(Self.codewords(for: data, version: version, correction: correction))
        // 7.8.3: every mask is scored on the symbol before its format and version information
        // are drawn (step 6 comes before step 7 in 7.1); the lowest penalty wins, ties to the
        // lowest mask number.
        var best = (mask: 0, penalty: Int.max, modules: grid.dark)
        for mask in 0..<8 {
            let masked = grid.masked(with: mask)
            let penalty = Self.penalty(masked, size: grid.size)
            if penalty < best.penalty { best = (mask, penalty, masked) }
        }
        grid.dark = best.modules
        grid.drawFormatInformation(correction: correction, mask: best.mask)
        grid.drawVersionInformation(version: version)
        self.version = version
        self.mask = best.mask
        self.correction = correction
        darkModules = grid.dark
    }

    /// Whether the module in column `x`, row `y` is dark; outside the symbol (the quiet zone)
    /// everything is light.
    public func isDark(x: Int, y: Int) -> Bool {
        guard (0..<size).contains(x), (0..<size).contains(y) else { return false }
        return darkModules[y * size + x]
    }

    /// The modules row by row, true for dark.
    public var modules: [[Bool]] {
        (0..<size).map { y in Array(darkModules[(y * size)..<((y + 1) * size)]) }
    }

    static func size(version: Int) -> Int { 17 + 4 * version }
}

// MARK: - Codewords (7.4, 7.5, 7.6)

extension QRCode {
    /// The final message: data codewords in byte mode, padded, split into blocks, each block's
    /// error correction codewords, all interleaved block by block.
    static func codewords(for bytes: [UInt8], version: Int, correction: ErrorCorrection) -> [UInt8] {
        interleave(dataCodewords(for: bytes, version: version, correction: correction), version: version, correction: correction)
    }

    /// 7.4: mode indicator 0100, the count, the bytes, up to four terminator zeros, zeros to the
    /// codeword boundary, then the pad codewords 11101100 and 00010001 alternately.
    static func dataCodewords(for bytes: [UInt8], version: Int, correction: ErrorCorrection) -> [UInt8] {
        let capacity = dataCodewords(version: version, correction: correction)
        var bits = BitWriter()
        bits.append(0b0100, count: 4)
        bits.append(bytes.count, count: countBits(version: version))
        for byte in bytes { bits.append(Int(byte), count: 8) }
        bits.append(0, count: min(4, capacity * 8 - bits.count))
        bits.append(0, count: (8 - bits.count % 8) % 8)
        var codewords = bits.bytes
        for index in 0..<(capacity - codewords.count) { codewords.append(index.isMultiple(of: 2) ? 0b1110_1100 : 0b0001_0001) }
        return codewords
    }

    /// 7.6: the data split into blocks (the last ones one codeword longer when the count does not
    /// divide evenly), each block's Reed–Solomon codewords, then the data and the error
    /// correction codewords each read column by column across the blocks.
    static func interleave(_ data: [UInt8], version: Int, correction: ErrorCorrection) -> [UInt8] {
        let blockCount = blockCounts[correction.rawValue][version - 1]
        let correctionLength = correctionCodewordsPerBlock[correction.rawValue][version - 1]
        let total = totalCodewords[version - 1]
        let shortBlocks = blockCount - total % blockCount
        let shortLength = total / blockCount - correctionLength
        let code = ReedSolomon(degree: correctionLength)
        var blocks: [ArraySlice<UInt8>] = []
        var corrections: [[UInt8]] = []
        var start = data.startIndex
        for block in 0..<blockCount {
            let length = shortLength + (block < shortBlocks ? 0 : 1)
            let slice = data[start..<(start + length)]
            start += length
            blocks.append(slice)
            corrections.append(code.correction(for: slice))
        }
        var result: [UInt8] = []
        result.reserveCapacity(total)
        for column in 0...shortLength {
            for block in blocks where column < block.count { result.append(block[block.startIndex + column]) }
        }
        for column in 0..<correctionLength {
            for block in corrections { result.append(block[column]) }
        }
        return result
    }
}

/// Bits appended most significant first, read back as bytes.
private struct BitWriter {
    private(set) var bytes: [UInt8] = []
    private(set) var count = 0

    mutating func append(_ value: Int, count bitCount: Int) {
        for shift in stride(from: bitCount - 1, through: 0, by: -1) {
            if count.isMultiple(of: 8) { bytes.append(0) }
            if value >> shift & 1 == 1 { bytes[bytes.count - 1] |= 0x80 >> UInt8(count % 8) }
            count += 1
        }
    }
}

// MARK: - The symbol (6.3, 7.7, 7.9, 7.10)

extension QRCode {
    /// The modules under construction, and which of them belong to function patterns (finders,
    /// separators, timing, alignment, format and version information, the dark module), which
    /// data never overwrites and masks never touch.
    struct Grid {
        let size: Int
        var dark: [Bool]
        var isFunction: [Bool]

        /// The function patterns drawn; format and version information and the dark module only
        /// reserved (light) until the mask is chosen.
        init(version: Int) {
            size = QRCode.size(version: version)
            dark = Array(repeating: false, count: size * size)
            isFunction = dark
            // Timing patterns first: the finders' separators then overwrite their ends.
            for index in 0..<size {
                setFunction(x: 6, y: index, dark: index.isMultiple(of: 2))
                setFunction(x: index, y: 6, dark: index.isMultiple(of: 2))
            }
            for (x, y) in [(3, 3), (size - 4, 3), (3, size - 4)] { drawFinder(centreX: x, centreY: y) }
            let centres = QRCode.alignmentCentres[version - 1]
            for (row, y) in centres.enumerated() {
                for (column, x) in centres.enumerated() {
                    // The three corners with a finder pattern have none.
                    let last = centres.count - 1
                    if (row == 0 && column == 0) || (row == 0 && column == last) || (row == last && column == 0) { continue }
                    for dy in -2...2 {
                        for dx in -2...2 { setFunction(x: x + dx, y: y + dy, dark: max(abs(dx), abs(dy)) != 1) }
                    }
                }
            }
            // Format information beside the finders (the dark module at (8, size − 8) among
            // them); the timing modules at (6, 8) and (8, 6) stay as drawn.
            for index in 0...8 {
                reserve(x: 8, y: index)
                reserve(x: index, y: 8)
            }
            for index in (size - 8)..<size {
                reserve(x: 8, y: index)
                reserve(x: index, y: 8)
            }
            if version >= 7 {
                for a in 0..<6 {
                    for b in (size - 11)..<(size - 8) {
                        reserve(x: b, y: a)
                        reserve(x: a, y: b)
                    }
                }
            }
        }

        /// A 7 × 7 finder pattern and its light separator, clipped at the symbol's edge.
        private mutating func drawFinder(centreX: Int, centreY: Int) {
            for dy in -4...4 {
                for dx in -4...4 {
                    let x = centreX + dx, y = centreY + dy
                    guard (0..<size).contains(x), (0..<size).contains(y) else { continue }
                    let ring = max(abs(dx), abs(dy))
                    setFunction(x: x, y: y, dark: ring != 2 && ring != 4)
                }
            }
        }

        private mutating func setFunction(x: Int, y: Int, dark isDark: Bool) {
            dark[y * size + x] = isDark
            isFunction[y * size + x] = true
        }

        private mutating func reserve(x: Int, y: Int) { isFunction[y * size + x] = true }

        /// 7.7.3: codeword bits, most significant first, in two-module columns from the right,
        /// upwards and downwards in turn, skipping the vertical timing column. Modules left over
        /// are the remainder bits, light.
        mutating func place(_ codewords: [UInt8]) {
            let bitCount = codewords.count * 8
            var bit = 0
            var right = size - 1
            while right >= 1 {
                if right == 6 { right = 5 }
                let upwards = (right + 1) & 2 == 0
                for step in 0..<size {
                    let y = upwards ? size - 1 - step : step
                    for x in [right, right - 1] where !isFunction[y * size + x] && bit < bitCount {
                        dark[y * size + x] = codewords[bit >> 3] >> (7 - UInt8(bit & 7)) & 1 == 1
                        bit += 1
                    }
                }
                right -= 2
            }
        }

        /// The modules with mask pattern `mask` (Table 10) applied to everything but the
        /// function patterns.
        func masked(with mask: Int) -> [Bool] {
            var result = dark
            for y in 0..<size {
                for x in 0..<size where !isFunction[y * size + x] && QRCode.maskCondition(mask, row: y, column: x) {
                    result[y * size + x].toggle()
                }
            }
            return result
        }

        /// 7.9: the 15 format bits twice (bit 0 at the top of column 8 beside the top-left
        /// finder, bit 14 at the left end of row 8; the copy split between the other two
        /// finders), and the dark module.
        mutating func drawFormatInformation(correction: ErrorCorrection, mask: Int) {
            let bits = BCH.formatBits(correction: correction, mask: mask)
            func bit(_ index: Int) -> Bool { bits >> index & 1 == 1 }
            for index in 0..<15 {
                // Around the top-left finder: down column 8 (skipping timing row 6), then along
                // row 8 leftwards (skipping timing column 6).
                let (x1, y1) = index < 8 ? (8, index < 6 ? index : index + 1) : (index < 9 ? 7 : 14 - index, 8)
                setFunction(x: x1, y: y1, dark: bit(index))
                // The copy: along row 8 from the right edge, then up column 8 from the bottom.
                let (x2, y2) = index < 8 ? (size - 1 - index, 8) : (8, size - 15 + index)
                setFunction(x: x2, y: y2, dark: bit(index))
            }
            setFunction(x: 8, y: size - 8, dark: true)
        }

        /// 7.10: versions 7 and up carry the 18 version bits in a 6 × 3 block beside the
        /// top-right finder and its transpose beside the bottom-left one.
        mutating func drawVersionInformation(version: Int) {
            guard version >= 7 else { return }
            let bits = BCH.versionBits(version: version)
            for index in 0..<18 {
                let isDark = bits >> index & 1 == 1
                let a = size - 11 + index % 3, b = index / 3
                setFunction(x: a, y: b, dark: isDark)
                setFunction(x: b, y: a, dark: isDark)
            }
        }
    }

    /// Table 10: where mask pattern `mask` inverts a module (i the row, j the column).
    static func maskCondition(_ mask: Int, row i: Int, column j: Int) -> Bool {
        switch mask {
        case 0: (i + j) % 2 == 0
        case 1: i % 2 == 0
        case 2: j % 3 == 0
        case 3: (i + j) % 3 == 0
        case 4: (i / 2 + j / 3) % 2 == 0
        case 5: (i * j) % 2 + (i * j) % 3 == 0
        case 6: ((i * j) % 2 + (i * j) % 3) % 2 == 0
        default: ((i + j) % 2 + (i * j) % 3) % 2 == 0
        }
    }
}

// MARK: - Mask penalty (7.8.3.1, Table 11)

extension QRCode {
    /// N1 + N2 + N3 + N4 of a square symbol, row-major.
    static func penalty(_ modules: [Bool], size: Int) -> Int {
        var total = 0
        var line = [Bool](repeating: false, count: size)
        for horizontal in [true, false] {
            for a in 0..<size {
                for b in 0..<size { line[b] = horizontal ? modules[a * size + b] : modules[b * size + a] }
                total += runPenalty(line) + finderLikePenalty(line)
            }
        }
        // N2: every 2 × 2 block of one colour (overlapping blocks count each), 3 points.
        for y in 0..<(size - 1) {
            for x in 0..<(size - 1) {
                let colour = modules[y * size + x]
                if modules[y * size + x + 1] == colour, modules[(y + 1) * size + x] == colour,
                   modules[(y + 1) * size + x + 1] == colour {
                    total += 3
                }
            }
        }
        // N4: 10 points for each full 5 % the dark share is away from 50 %.
        let darkCount = modules.count(where: { $0 })
        let all = size * size
        total += 10 * (abs(darkCount * 20 - all * 10) / all)
        return total
    }

    /// N1: a run of 5 + i modules of one colour in a row or column, 3 + i points.
    static func runPenalty(_ line: [Bool]) -> Int {
        var penalty = 0
        var run = 0
        for index in line.indices {
            run = index > 0 && line[index] == line[index - 1] ? run + 1 : 1
            let endsHere = index == line.count - 1 || line[index + 1] != line[index]
            if endsHere && run >= 5 { penalty += run - 2 }
        }
        return penalty
    }

    /// N3: dark-light-dark-dark-dark-light-dark (1:1:3:1:1) with four light modules before or
    /// after it, 40 points each; beyond the edge is the quiet zone, light. The spec does not say
    /// whether two such patterns may share modules (10111011101): scanning left to right, a
    /// pattern that scored is not read again, as segno does (zxing counts both, Nayuki's
    /// run-length reading neither); it only changes which mask wins, rarely.
    static func finderLikePenalty(_ line: [Bool]) -> Int {
        let count = line.count
        func isLight(_ range: Range<Int>) -> Bool { range.allSatisfy { $0 < 0 || $0 >= count || !line[$0] } }
        var penalty = 0
        var start = 0
        while start <= count - 7 {
            if line[start] && !line[start + 1] && line[start + 2] && line[start + 3] && line[start + 4]
                && !line[start + 5] && line[start + 6]
                && (isLight((start - 4)..<start) || isLight((start + 7)..<(start + 11))) {
                penalty += 40
                start += 7
            } else {
                start += 1
            }
        }
        return penalty
    }
}

// MARK: - SVG

extension QRCode {
    /// An SVG of the symbol: `moduleSize` pixels a module, `quietZone` light modules around it
    /// (the spec asks for at least 4), the dark modules as one path of horizontal runs. Its
    /// accessible name is `title`.
    /// `text` as an inline SVG QR code (medium error correction), nil when too long for one.
    public static func svg(_ text: String, title: String) -> String? {
        guard let code = try? QRCode(encoding: Array(text.utf8)) else { return nil }
        return code.svg(moduleSize: 4, quietZone: 4, title: title)
    }

    public func svg(moduleSize: Int = 4, quietZone: Int = 4, title: String) -> String {
        let moduleSize = max(1, moduleSize), quietZone = max(0, quietZone)
        let side = size + 2 * quietZone
        var path = ""
        for y in 0..<size {
            var x = 0
            while x < size {
                guard isDark(x: x, y: y) else { x += 1; continue }
                let start = x
                while x < size && isDark(x: x, y: y) { x += 1 }
                path += "M\(start + quietZone) \(y + quietZone)h\(x - start)v1h-\(x - start)z"
            }
        }
        let pixels = side * moduleSize
        return """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(side) \(side)" width="\(pixels)" height="\(pixels)" \
            role="img" shape-rendering="crispEdges"><title>\(Self.xmlEscaped(title))</title>\
            <rect width="\(side)" height="\(side)" fill="#fff"/><path fill="#000" d="\(path)"/></svg>
            """
    }

    /// Text safe inside an element or attribute, without the characters XML 1.0 forbids.
    static func xmlEscaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF: continue
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
