import Foundation

/// The Cloud API webhook fixtures of shared/testdata/chats/cloud-api, copied byte for byte into
/// Fixtures/cloud-api with their signatures and README.md.
enum CloudAPISamples {
    static let directory = "Fixtures/cloud-api"

    /// The raw (signed) bodies, without the readable `.pretty.json` copies.
    static let rawNames = ["text_message_en", "text_message_ar", "batch_text_and_image", "status_delivered"]

    /// The bytes of `NAME.json` (or `NAME.pretty.json`) exactly as stored.
    static func body(_ name: String) throws -> Data {
        guard let url = Bundle.module.url(forResource: name, withExtension: "json", subdirectory: directory) else {
            throw SampleExports.FixtureMissing(name: name + ".json")
        }
        return try Data(contentsOf: url)
    }

    static func signatures() throws -> SignatureFile {
        try JSONDecoder().decode(SignatureFile.self, from: body("signatures"))
    }

    /// The shape of `signatures.json`.
    struct SignatureFile: Decodable {
        let appSecret: String
        let header: String
        let signatures: [String: String]

        private enum CodingKeys: String, CodingKey {
            case appSecret = "app_secret"
            case header, signatures
        }
    }
}
