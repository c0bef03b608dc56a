import Foundation
import JadwalCore
import Testing

/// The colours of Jadwal's own calendars stay apart for colour-blind readers: each pair is
/// compared as a person with protanopia or deuteranopia sees it (Machado, Oliveira and Fernandes
/// 2009, severity 1.0, applied to linear sRGB), by CIEDE2000 in CIELAB (D65).
@Suite("The default calendar palette under colour-blindness simulation")
struct CalendarPaletteTests {
    /// The least CIEDE2000 difference any two default colours may have, in every vision. The
    /// Okabe–Ito palette, made for colour-blind readers, keeps about 11.6 between its closest
    /// pair under deuteranopia; the palette Jadwal had before kept 4.4 (its WhatsApp green and
    /// its task orange).
    static let minimumDifference = 10.0

    typealias Matrix = [[Double]]
    static let normal: Matrix = [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
    /// Machado et al. 2009, Table 1, severity 1.0.
    static let protanopia: Matrix = [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]]
    static let deuteranopia: Matrix = [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]]

    @Test("every two default calendar colours differ by at least 10 (CIEDE2000) in normal vision, protanopia and deuteranopia")
    func distinguishable() throws {
        let colors = try CalendarPalette.all.map(Self.rgb)
        #expect(Set(CalendarPalette.all).count == colors.count, "one colour per calendar")
        for (vision, matrix) in [("normal vision", Self.normal), ("protanopia", Self.protanopia), ("deuteranopia", Self.deuteranopia)] {
            let seen = colors.map { Self.lab(Self.simulate($0, matrix)) }
            for i in seen.indices {
                for j in seen.indices where j > i {
                    let difference = Self.ciede2000(seen[i], seen[j])
                    #expect(difference >= Self.minimumDifference,
                            "\(CalendarPalette.all[i]) and \(CalendarPalette.all[j]) differ by only \(difference) under \(vision)")
                }
            }
        }
    }

    @Test("the check can fail: the palette before this one, and red beside green, are too close")
    func catchesClosePairs() throws {
        let deuteranope = { (a: String, b: String) throws -> Double in
            Self.ciede2000(Self.lab(Self.simulate(try Self.rgb(a), Self.deuteranopia)), Self.lab(Self.simulate(try Self.rgb(b), Self.deuteranopia)))
        }
        #expect(try deuteranope("#25D366", "#F4A261") < 5, "the old WhatsApp green and task orange")
        #expect(try deuteranope("#D62728", "#2CA02C") < Self.minimumDifference, "red and green")
        // Told apart in normal vision.
        #expect(Self.ciede2000(Self.lab(Self.simulate(try Self.rgb("#D62728"), Self.normal)), Self.lab(Self.simulate(try Self.rgb("#2CA02C"), Self.normal))) > 30)
    }

    /// Pairs from Sharma, Wu and Dalal (2005), "The CIEDE2000 color-difference formula:
    /// implementation notes, supplementary test data", Table 1.
    @Test("CIEDE2000 as Sharma, Wu and Dalal's test data give it", arguments: [
        ([50, 2.6772, -79.7751], [50, 0, -82.7485], 2.0425),
        ([50, 3.1571, -77.2803], [50, 0, -82.7485], 2.8615),
        ([50, 2.8361, -74.0200], [50, 0, -82.7485], 3.4412),
        ([50, 0, 0], [50, -1, 2], 2.3669),
        ([50, 2.5, 0], [50, 0, -2.5], 4.3065),
        ([50, 2.5, 0], [73, 25, -18], 27.1492),
        ([60.2574, -34.0099, 36.2677], [60.4626, -34.1751, 39.4387], 1.2644),
        ([22.7233, 20.0904, -46.6940], [23.0331, 14.9730, -42.5619], 2.0373),
    ])
    func ciede2000Reference(a: [Double], b: [Double], expected: Double) {
        #expect(abs(Self.ciede2000((a[0], a[1], a[2]), (b[0], b[1], b[2])) - expected) < 0.0001)
    }

    @Test("the simulations keep greys grey")
    func greys() {
        for matrix in [Self.protanopia, Self.deuteranopia] {
            for row in matrix { #expect(abs(row.reduce(0, +) - 1) < 0.001) }
        }
    }

    // MARK: Colour science

    static func rgb(_ hex: String) throws -> [Double] {
        let digits = Array(hex.dropFirst().prefix(6))
        let values = try stride(from: 0, to: 6, by: 2).map { index -> Double in
            Double(try #require(UInt8(String(digits[index..<index + 2]), radix: 16))) / 255
        }
        return values
    }

    /// The colour as the person sees it, in linear sRGB.
    static func simulate(_ srgb: [Double], _ matrix: Matrix) -> [Double] {
        let linear = srgb.map { $0 <= 0.04045 ? $0 / 12.92 : pow(($0 + 0.055) / 1.055, 2.4) }
        return matrix.map { row in min(max(zip(row, linear).map(*).reduce(0, +), 0), 1) }
    }

    /// CIELAB (D65) of a linear sRGB colour.
    static func lab(_ linear: [Double]) -> (Double, Double, Double) {
        let x = 0.4124564 * linear[0] + 0.3575761 * linear[1] + 0.1804375 * linear[2]
        let y = 0.2126729 * linear[0] + 0.7151522 * linear[1] + 0.0721750 * linear[2]
        let z = 0.0193339 * linear[0] + 0.1191920 * linear[1] + 0.9503041 * linear[2]
        let delta = 6.0 / 29
        func f(_ t: Double) -> Double { t > delta * delta * delta ? cbrt(t) : t / (3 * delta * delta) + 4.0 / 29 }
        let (fx, fy, fz) = (f(x / 0.95047), f(y), f(z / 1.08883))
        return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))
    }

    static func ciede2000(_ first: (Double, Double, Double), _ second: (Double, Double, Double)) -> Double {
        let (l1, a1, b1) = first
        let (l2, a2, b2) = second
        func degrees(_ radians: Double) -> Double { radians * 180 / .pi }
        func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }
        let meanC = (hypot(a1, b1) + hypot(a2, b2)) / 2
        let g = 0.5 * (1 - sqrt(pow(meanC, 7) / (pow(meanC, 7) + pow(25, 7))))
        let (a1p, a2p) = ((1 + g) * a1, (1 + g) * a2)
        let (c1p, c2p) = (hypot(a1p, b1), hypot(a2p, b2))
        func hue(_ b: Double, _ a: Double) -> Double {
            guard a != 0 || b != 0 else { return 0 }
            let h = degrees(atan2(b, a))
            return h < 0 ? h + 360 : h
        }
        let (h1p, h2p) = (hue(b1, a1p), hue(b2, a2p))
        let deltaL = l2 - l1
        let deltaC = c2p - c1p
        var deltaH = 0.0
        if c1p * c2p != 0 {
            deltaH = h2p - h1p
            if deltaH > 180 { deltaH -= 360 } else if deltaH < -180 { deltaH += 360 }
        }
        let deltaBigH = 2 * sqrt(c1p * c2p) * sin(radians(deltaH / 2))
        let meanL = (l1 + l2) / 2
        let meanCp = (c1p + c2p) / 2
        let meanH: Double
        if c1p * c2p == 0 {
            meanH = h1p + h2p
        } else if abs(h1p - h2p) <= 180 {
            meanH = (h1p + h2p) / 2
        } else {
            meanH = h1p + h2p < 360 ? (h1p + h2p + 360) / 2 : (h1p + h2p - 360) / 2
        }
        let t = 1 - 0.17 * cos(radians(meanH - 30)) + 0.24 * cos(radians(2 * meanH)) + 0.32 * cos(radians(3 * meanH + 6))
            - 0.20 * cos(radians(4 * meanH - 63))
        let deltaTheta = 30 * exp(-pow((meanH - 275) / 25, 2))
        let rc = 2 * sqrt(pow(meanCp, 7) / (pow(meanCp, 7) + pow(25, 7)))
        let sl = 1 + 0.015 * pow(meanL - 50, 2) / sqrt(20 + pow(meanL - 50, 2))
        let sc = 1 + 0.045 * meanCp
        let sh = 1 + 0.015 * meanCp * t
        let rt = -sin(radians(2 * deltaTheta)) * rc
        let (dl, dc, dh) = (deltaL / sl, deltaC / sc, deltaBigH / sh)
        return sqrt(dl * dl + dc * dc + dh * dh + rt * dc * dh)
    }
}
