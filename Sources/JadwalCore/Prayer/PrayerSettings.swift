import Foundation
import PrayerTimes

/// Where and how a person prays, and how long each prayer keeps their calendar busy.
public struct PrayerSettings: Sendable, Hashable, Codable {
    public var latitude: Double
    public var longitude: Double
    public var timeZone: String
    /// The city chosen from the built-in list, shown to the person ("Riyadh / الرياض").
    public var placeName: String?
    public var method: CalculationMethod
    public var madhab: Madhab
    public var highLatitudeRule: HighLatitudeRule
    public var adjustments: PrayerAdjustments
    public var blocks: PrayerBlocks

    public init(
        latitude: Double, longitude: Double, timeZone: String, placeName: String? = nil, method: CalculationMethod,
        madhab: Madhab = .shafi, highLatitudeRule: HighLatitudeRule = .middleOfTheNight, adjustments: PrayerAdjustments = .none,
        blocks: PrayerBlocks = PrayerBlocks()
    ) {
        self.latitude = latitude
        self.longitude = longitude
        self.timeZone = timeZone
        self.placeName = placeName
        self.method = method
        self.madhab = madhab
        self.highLatitudeRule = highLatitudeRule
        self.adjustments = adjustments
        self.blocks = blocks
    }

    /// The calculator these settings describe; fails only for settings that were never validated.
    public func calculator() throws(PrayerTimesError) -> PrayerCalculator {
        let coordinates = try Coordinates(latitude: latitude, longitude: longitude)
        guard let zone = TimeZone(identifier: timeZone) else { throw .unknownTimeZone(timeZone) }
        return PrayerCalculator(
            coordinates: coordinates, timeZone: zone,
            parameters: method.parameters(madhab: madhab, highLatitudeRule: highLatitudeRule, adjustments: adjustments)
        )
    }
}

/// Minutes each prayer blocks the calendar from its time. On Fridays Jumu'ah replaces Dhuhr
/// with a longer block (sermon and prayer).
public struct PrayerBlocks: Sendable, Hashable, Codable {
    public var fajr = 20
    public var dhuhr = 20
    public var asr = 20
    public var maghrib = 20
    public var isha = 20
    public var jumuah = 60

    public init() {}

    public static let limit = 0...240

    public var isValid: Bool { [fajr, dhuhr, asr, maghrib, isha, jumuah].allSatisfy(Self.limit.contains) }
}

/// A request to change prayer settings: a city from the built-in list, or coordinates and a
/// zone; anything not given keeps its current value (or the sensible default for the place).
public struct PrayerSettingsChange: Sendable {
    public var city: String?
    public var latitude: Double?
    public var longitude: Double?
    public var timeZone: String?
    public var method: String?
    public var madhab: String?
    public var highLatitudeRule: String?
    public var adjustments: PrayerAdjustments?
    public var blocks: PrayerBlocks?

    public init(
        city: String? = nil, latitude: Double? = nil, longitude: Double? = nil, timeZone: String? = nil, method: String? = nil,
        madhab: String? = nil, highLatitudeRule: String? = nil, adjustments: PrayerAdjustments? = nil, blocks: PrayerBlocks? = nil
    ) {
        self.city = city
        self.latitude = latitude
        self.longitude = longitude
        self.timeZone = timeZone
        self.method = method
        self.madhab = madhab
        self.highLatitudeRule = highLatitudeRule
        self.adjustments = adjustments
        self.blocks = blocks
    }

    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        case invalid(PrayerTimesError)
        case noPlace
        case cityAndCoordinates
        case incompleteCoordinates
        case adjustmentOutOfRange
        case blockOutOfRange

        public var description: String {
            switch self {
            case .invalid(let error): "\(error)"
            case .noPlace: "say where you pray: a city (\"Riyadh\", \"الرياض\") or latitude, longitude and timeZone"
            case .cityAndCoordinates: "give a city or coordinates, not both"
            case .incompleteCoordinates: "coordinates need latitude, longitude and timeZone together"
            case .adjustmentOutOfRange: "each adjustment must be between -60 and 60 minutes"
            case .blockOutOfRange: "each block must be between \(PrayerBlocks.limit.lowerBound) and \(PrayerBlocks.limit.upperBound) minutes"
            }
        }
    }

    /// The settings after this change, validated.
    public func applied(to current: PrayerSettings?) throws(Problem) -> PrayerSettings {
        do {
            return try apply(to: current)
        } catch let error as Problem {
            throw error
        } catch let error as PrayerTimesError {
            throw .invalid(error)
        } catch {
            throw .noPlace
        }
    }

    private func apply(to current: PrayerSettings?) throws -> PrayerSettings {
        let coordinatesGiven = latitude != nil || longitude != nil || timeZone != nil
        if city != nil && coordinatesGiven { throw Problem.cityAndCoordinates }
        var settings: PrayerSettings
        var placeDefaultMethod: CalculationMethod?
        if let city {
            guard let found = CityDirectory.search(city).first else { throw PrayerTimesError.unknownCity(city) }
            placeDefaultMethod = found.defaultMethod
            settings = current ?? PrayerSettings(latitude: 0, longitude: 0, timeZone: "UTC", method: found.defaultMethod)
            settings.latitude = found.coordinates.latitude
            settings.longitude = found.coordinates.longitude
            settings.timeZone = found.timeZoneIdentifier
            settings.placeName = found.displayName
        } else if coordinatesGiven {
            guard let latitude, let longitude, let timeZone else { throw Problem.incompleteCoordinates }
            _ = try Coordinates(latitude: latitude, longitude: longitude)
            guard IANATimeZone.isKnown(timeZone) else {
                throw PrayerTimesError.unknownTimeZone(timeZone)
            }
            settings = current ?? PrayerSettings(latitude: latitude, longitude: longitude, timeZone: timeZone, method: .muslimWorldLeague)
            settings.latitude = latitude
            settings.longitude = longitude
            settings.timeZone = timeZone
            settings.placeName = nil
        } else if let current {
            settings = current
        } else {
            throw Problem.noPlace
        }
        if let method {
            settings.method = try CalculationMethod(name: method)
        } else if current == nil, let placeDefaultMethod {
            settings.method = placeDefaultMethod
        }
        if let madhab { settings.madhab = try Madhab(name: madhab) }
        if let highLatitudeRule { settings.highLatitudeRule = try HighLatitudeRule(name: highLatitudeRule) }
        if let adjustments {
            let values = [adjustments.fajr, adjustments.sunrise, adjustments.dhuhr, adjustments.asr, adjustments.maghrib, adjustments.isha]
            guard values.allSatisfy({ (-60...60).contains($0) }) else { throw Problem.adjustmentOutOfRange }
            settings.adjustments = adjustments
        }
        if let blocks {
            guard blocks.isValid else { throw Problem.blockOutOfRange }
            settings.blocks = blocks
        }
        return settings
    }
}
