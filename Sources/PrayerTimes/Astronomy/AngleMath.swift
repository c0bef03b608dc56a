import Foundation

/// Degree-based trigonometry and angle normalisation used by the solar formulas.
enum AngleMath {
    static let radiansPerDegree = Double.pi / 180

    @inline(__always) static func sinDeg(_ degrees: Double) -> Double { sin(degrees * radiansPerDegree) }
    @inline(__always) static func cosDeg(_ degrees: Double) -> Double { cos(degrees * radiansPerDegree) }
    @inline(__always) static func tanDeg(_ degrees: Double) -> Double { tan(degrees * radiansPerDegree) }
    @inline(__always) static func degrees(_ radians: Double) -> Double { radians / radiansPerDegree }

    /// The angle in [0, 360).
    @inline(__always) static func normalized(_ degrees: Double) -> Double {
        let wrapped = degrees.truncatingRemainder(dividingBy: 360)
        return wrapped < 0 ? wrapped + 360 : wrapped
    }

    /// The angle in [-180, 180].
    @inline(__always) static func signedNormalized(_ degrees: Double) -> Double {
        let wrapped = normalized(degrees)
        return wrapped > 180 ? wrapped - 360 : wrapped
    }

    /// Meeus (3.3): three tabular values at n = -1, 0, +1 interpolated at `n`.
    @inline(__always) static func interpolate(previous: Double, current: Double, next: Double, at n: Double) -> Double {
        let a = current - previous
        let b = next - current
        return current + n / 2 * (a + b + n * (b - a))
    }

    /// Meeus (3.3) for angles that may wrap through 360°, such as right ascension at the equinox.
    @inline(__always) static func interpolateAngle(previous: Double, current: Double, next: Double, at n: Double) -> Double {
        let a = signedNormalized(current - previous)
        let b = signedNormalized(next - current)
        return current + n / 2 * (a + b + n * (b - a))
    }
}
