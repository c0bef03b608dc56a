// The numbers of ISO/IEC 18004:2015 that the encoder reads, each table once, as data, and the
// arithmetic on them: GF(256), Reed–Solomon and the BCH codes of the format and version
// information.

extension QRCode {
    /// Table 1: all codewords (data and error correction) of versions 1–40. The modules left over
    /// after the last whole codeword are remainder bits, left light.
    static let totalCodewords: [Int] = [
        26, 44, 70, 100, 134, 172, 196, 242, 292, 346,
        404, 466, 532, 581, 655, 733, 815, 901, 991, 1085,
        1156, 1258, 1364, 1474, 1588, 1706, 1828, 1921, 2051, 2185,
        2323, 2465, 2611, 2761, 2876, 3034, 3196, 3362, 3532, 3706,
    ]

    /// Table 9, per level (L, M, Q, H) and version: error correction codewords in each block.
    /// Every block of one symbol has the same number; only the data codewords differ by one.
    static let correctionCodewordsPerBlock: [[Int]] = [
        [7, 10, 15, 20, 26, 18, 20, 24, 30, 18, 20, 24, 26, 30, 22, 24, 28, 30, 28, 28,
         28, 28, 30, 30, 26, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30],
        [10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26,
         26, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28],
        [13, 22, 18, 26, 18, 24, 18, 22, 20, 24, 28, 26, 24, 20, 30, 24, 28, 28, 26, 30,
         28, 30, 30, 30, 30, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30],
        [17, 28, 22, 16, 22, 28, 26, 26, 24, 28, 24, 28, 22, 24, 24, 30, 28, 28, 26, 28,
         30, 24, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30],
    ]

    /// Table 9, per level (L, M, Q, H) and version: the number of blocks.
    static let blockCounts: [[Int]] = [
        [1, 1, 1, 1, 1, 2, 2, 2, 2, 4, 4, 4, 4, 4, 6, 6, 6, 6, 7, 8,
         8, 9, 9, 10, 12, 12, 12, 13, 14, 15, 16, 17, 18, 19, 19, 20, 21, 22, 24, 25],
        [1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16,
         17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49],
        [1, 1, 2, 2, 4, 4, 6, 6, 8, 8, 8, 10, 12, 16, 12, 17, 16, 18, 21, 20,
         23, 23, 25, 27, 29, 34, 34, 35, 38, 40, 43, 45, 48, 51, 53, 56, 59, 62, 65, 68],
        [1, 1, 2, 4, 4, 4, 5, 6, 8, 8, 11, 11, 16, 16, 18, 16, 19, 21, 25, 25,
         25, 34, 30, 32, 35, 37, 40, 42, 45, 48, 51, 54, 57, 60, 63, 66, 70, 74, 77, 81],
    ]

    /// Annex E, Table E.1: row and column coordinates of the alignment pattern centres. Every
    /// pair is a centre except the three that fall on a finder pattern.
    static let alignmentCentres: [[Int]] = [
        [], [6, 18], [6, 22], [6, 26], [6, 30], [6, 34],
        [6, 22, 38], [6, 24, 42], [6, 26, 46], [6, 28, 50], [6, 30, 54], [6, 32, 58], [6, 34, 62],
        [6, 26, 46, 66], [6, 26, 48, 70], [6, 26, 50, 74], [6, 30, 54, 78], [6, 30, 56, 82], [6, 30, 58, 86],
        [6, 34, 62, 90],
        [6, 28, 50, 72, 94], [6, 26, 50, 74, 98], [6, 30, 54, 78, 102], [6, 28, 54, 80, 106],
        [6, 32, 58, 84, 110], [6, 30, 58, 86, 114], [6, 34, 62, 90, 118],
        [6, 26, 50, 74, 98, 122], [6, 30, 54, 78, 102, 126], [6, 26, 52, 78, 104, 130],
        [6, 30, 56, 82, 108, 134], [6, 34, 60, 86, 112, 138], [6, 30, 58, 86, 114, 142],
        [6, 34, 62, 90, 118, 146],
        [6, 30, 54, 78, 102, 126, 150], [6, 24, 50, 76, 102, 128, 154], [6, 28, 54, 80, 106, 132, 158],
        [6, 32, 58, 84, 110, 136, 162], [6, 26, 54, 82, 110, 138, 166], [6, 30, 58, 86, 114, 142, 170],
    ]

    /// Data codewords of a symbol: all codewords less the error correction ones.
    static func dataCodewords(version: Int, correction: ErrorCorrection) -> Int {
        let level = correction.rawValue
        return totalCodewords[version - 1]
            - blockCounts[level][version - 1] * correctionCodewordsPerBlock[level][version - 1]
    }

    /// Bits of the character count indicator in byte mode (Table 3).
    static func countBits(version: Int) -> Int { version <= 9 ? 8 : 16 }

    /// The most bytes that fit at `version` (mode indicator, count, then 8 bits a byte).
    static func byteCapacity(version: Int, correction: ErrorCorrection) -> Int {
        (dataCodewords(version: version, correction: correction) * 8 - 4 - countBits(version: version)) / 8
    }
}

/// GF(2⁸) with the field's primitive polynomial x⁸ + x⁴ + x³ + x² + 1 (0x11D), as QR codes use.
enum GaloisField {
    /// αⁱ for i in 0..<255, then repeated so a sum of two logarithms indexes it directly.
    static let exponents: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 510)
        var value = 1
        for index in 0..<255 {
            table[index] = UInt8(value)
            table[index + 255] = UInt8(value)
            value <<= 1
            if value & 0x100 != 0 { value ^= 0x11D }
        }
        return table
    }()

    /// log_α(v) for v in 1...255 (index 0 unused: 0 has no logarithm).
    static let logarithms: [Int] = {
        var table = [Int](repeating: 0, count: 256)
        for index in 0..<255 { table[Int(exponents[index])] = index }
        return table
    }()

    static func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
        if a == 0 || b == 0 { return 0 }
        return exponents[logarithms[Int(a)] + logarithms[Int(b)]]
    }
}

/// Reed–Solomon error correction as in 7.5.2: the remainder of the data polynomial times xⁿ
/// divided by the generator (x − α⁰)(x − α¹)…(x − αⁿ⁻¹).
struct ReedSolomon {
    /// The generator's coefficients below the leading 1, highest degree first.
    let generator: [UInt8]

    init(degree: Int) {
        var coefficients: [UInt8] = [1]
        for power in 0..<degree {
            // Multiply by (x + αᵖᵒʷᵉʳ): subtraction is addition in GF(2⁸).
            var next = coefficients + [0]
            let root = GaloisField.exponents[power]
            for index in coefficients.indices { next[index + 1] ^= GaloisField.multiply(coefficients[index], root) }
            coefficients = next
        }
        generator = Array(coefficients.dropFirst())
    }

    /// The error correction codewords of one block.
    func correction(for data: some Collection<UInt8>) -> [UInt8] {
        var remainder = [UInt8](repeating: 0, count: generator.count)
        for byte in data {
            let factor = byte ^ remainder[0]
            remainder.removeFirst()
            remainder.append(0)
            if factor != 0 {
                for index in generator.indices { remainder[index] ^= GaloisField.multiply(generator[index], factor) }
            }
        }
        return remainder
    }
}

/// The BCH codes that protect the format (15,5) and version (18,6) information (Annexes C, D).
enum BCH {
    /// `value` followed by the remainder of `value · x^(check bits)` divided by `generator`.
    static func encode(_ value: Int, generator: Int, checkBits: Int) -> Int {
        // Long division in GF(2): clear every bit from the top down to the generator's degree.
        var remainder = value << checkBits
        for bit in stride(from: 31, through: checkBits, by: -1) where remainder >> bit & 1 == 1 {
            remainder ^= generator << (bit - checkBits)
        }
        return value << checkBits | remainder
    }

    /// Format information: level bits and mask, BCH(15,5) with G(x) = 0x537, then XORed with
    /// 101010000010010 so no combination is all light (Annex C).
    static func formatBits(correction: QRCode.ErrorCorrection, mask: Int) -> Int {
        encode(correction.formatBits << 3 | mask, generator: 0x537, checkBits: 10) ^ 0b101010000010010
    }

    /// Version information: the version in 6 bits, BCH(18,6) with G(x) = 0x1F25 (Annex D).
    static func versionBits(version: Int) -> Int {
        encode(version, generator: 0x1F25, checkBits: 12)
    }
}
