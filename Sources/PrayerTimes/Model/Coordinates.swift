/// A place on Earth in decimal degrees, north and east positive.
public struct Coordinates: Sendable, Hashable, Codable {
    public let latitude: Double
    public let longitude: Double

    /// Throws ``PrayerTimesError/invalidLatitude(_:)`` or ``PrayerTimesError/invalidLongitude(_:)``
    /// for values outside -90...90 and -180...180 (or not finite).
    public init(latitude: Double, longitude: Double) throws(PrayerTimesError) {
        guard latitude.isFinite, (-90...90).contains(latitude) else { throw .invalidLatitude(latitude) }
        guard longitude.isFinite, (-180...180).contains(longitude) else { throw .invalidLongitude(longitude) }
        self.latitude = latitude
        self.longitude = longitude
    }

    private enum CodingKeys: String, CodingKey { case latitude, longitude }

    /// Decoding validates the ranges like the initialiser.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            latitude: container.decode(Double.self, forKey: .latitude),
            longitude: container.decode(Double.self, forKey: .longitude))
    }
}
