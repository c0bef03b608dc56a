/// Parses ``CityData/table`` (in `CityTable.swift`) into ``City`` values.
enum CityData {
    static func parse(_ table: String) -> [City] {
        var cities: [City] = []
        for line in table.split(separator: "\n", omittingEmptySubsequences: true) {
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard columns.count == 9, !columns[0].isEmpty, !columns[1].isEmpty,
                  let latitude = Double(columns[3]), let longitude = Double(columns[4]),
                  let coordinates = try? Coordinates(latitude: latitude, longitude: longitude),
                  let population = Int(columns[6])
            else { continue }
            cities.append(City(
                englishName: columns[0],
                arabicName: columns[1],
                alternateNames: columns[8].split(separator: "|").map(String.init),
                countryCode: columns[2],
                coordinates: coordinates,
                timeZoneIdentifier: columns[5],
                population: population,
                isCapital: columns[7] == "1"))
        }
        return cities
    }
}
