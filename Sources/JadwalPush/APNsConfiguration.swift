import Crypto
import Foundation
import JadwalCore
import NIOSSL

/// How this server talks to the Apple Push Notification service with token authentication:
/// the signing key from Apple Developer → Keys (a `.p8` file), its key ID, the team ID, and the
/// app's bundle ID as the topic. Off unless all four are configured.
public struct APNsConfiguration: Sendable {
    public static let productionEndpoint = "https://api.push.apple.com"
    public static let sandboxEndpoint = "https://api.sandbox.push.apple.com"
    public static let defaultTimeout: Duration = .seconds(30)

    public var signingKey: P256.Signing.PrivateKey
    /// The 10-character Key ID Apple shows beside the key; the JWT's `kid`.
    public var keyID: String
    /// The 10-character Team ID; the JWT's `iss`.
    public var teamID: String
    /// The app's bundle ID, sent as `apns-topic`.
    public var topic: String
    /// Scheme, host and optional port, no path: production, sandbox, or a test server.
    public var endpoint: String
    /// Trusted besides the system roots. Production needs none; tests add their own CA.
    public var additionalTrustRoots: [NIOSSLCertificate]
    /// For one request: connecting, sending and the whole answer.
    public var timeout: Duration

    public init(
        signingKey: P256.Signing.PrivateKey, keyID: String, teamID: String, topic: String,
        endpoint: String = APNsConfiguration.productionEndpoint, additionalTrustRoots: [NIOSSLCertificate] = [],
        timeout: Duration = APNsConfiguration.defaultTimeout
    ) {
        self.signingKey = signingKey
        self.keyID = keyID
        self.teamID = teamID
        self.topic = topic
        self.endpoint = endpoint
        self.additionalTrustRoots = additionalTrustRoots
        self.timeout = timeout
    }
}

extension ConfigurationValue {
    /// The APNs settings from `JADWAL_APNS_KEY_FILE`, `JADWAL_APNS_KEY_ID`, `JADWAL_APNS_TEAM_ID`,
    /// `JADWAL_APNS_TOPIC`, `JADWAL_APNS_ENDPOINT` and `JADWAL_APNS_CA_FILE`; nil (push off) when
    /// none is set. Setting some but not all of the first four is an error naming the missing ones,
    /// so a half-configured server does not start and then silently push nothing.
    ///
    /// The key and CA files are read here, so a wrong file stops the server at startup.
    public static func apns(environment: [String: String]) throws -> APNsConfiguration? {
        func value(_ name: String) -> String? {
            environment[name].map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        let required = ["JADWAL_APNS_KEY_FILE", "JADWAL_APNS_KEY_ID", "JADWAL_APNS_TEAM_ID", "JADWAL_APNS_TOPIC"]
        let optional = ["JADWAL_APNS_ENDPOINT", "JADWAL_APNS_CA_FILE"]
        let given = (required + optional).filter { value($0) != nil }
        guard !given.isEmpty else { return nil }
        let missing = required.filter { value($0) == nil }
        guard missing.isEmpty else {
            throw ServerStartupError.configuration(
                "push to Apple devices needs all of \(required.joined(separator: ", ")); \(given.joined(separator: ", ")) "
                    + "\(given.count == 1 ? "is" : "are") set but \(missing.joined(separator: ", ")) \(missing.count == 1 ? "is" : "are") not")
        }
        guard let keyFile = value("JADWAL_APNS_KEY_FILE"), let keyID = value("JADWAL_APNS_KEY_ID"),
              let teamID = value("JADWAL_APNS_TEAM_ID"), let topic = value("JADWAL_APNS_TOPIC")
        else { return nil }

        for (name, text) in [("JADWAL_APNS_KEY_ID", keyID), ("JADWAL_APNS_TEAM_ID", teamID)] {
            // Apple's IDs are 10 letters and digits; anything else is a pasted path or a typo.
            guard text.count <= 32, text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
                throw ServerStartupError.configuration("\(name) must be the 10-character ID Apple shows (letters and digits), not \(text)")
            }
        }
        guard topic.utf8.count <= 255, !topic.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F })
        else {
            throw ServerStartupError.configuration("JADWAL_APNS_TOPIC must be the app's bundle ID, such as com.example.jadwal, not \(topic)")
        }

        let key = try signingKey(file: keyFile)
        let endpoint = try apnsEndpoint(value("JADWAL_APNS_ENDPOINT"))
        var trustRoots: [NIOSSLCertificate] = []
        if let caFile = value("JADWAL_APNS_CA_FILE") {
            do {
                trustRoots = try NIOSSLCertificate.fromPEMFile(caFile)
            } catch {
                throw ServerStartupError.configuration("JADWAL_APNS_CA_FILE: cannot read \(caFile) as PEM certificates: \(error)")
            }
            guard !trustRoots.isEmpty else { throw ServerStartupError.configuration("JADWAL_APNS_CA_FILE: \(caFile) holds no certificate") }
        }
        return APNsConfiguration(
            signingKey: key, keyID: keyID, teamID: teamID, topic: topic, endpoint: endpoint, additionalTrustRoots: trustRoots)
    }

    /// The `.p8` file: a PKCS#8 PEM P-256 private key.
    package static func signingKey(file path: String) throws -> P256.Signing.PrivateKey {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ServerStartupError.configuration("JADWAL_APNS_KEY_FILE: cannot read \(path)")
        }
        guard let pem = String(data: data, encoding: .utf8) else {
            throw ServerStartupError.configuration("JADWAL_APNS_KEY_FILE: \(path) is not a PEM text file (the .p8 from Apple Developer → Keys)")
        }
        do {
            return try P256.Signing.PrivateKey(pemRepresentation: pem)
        } catch {
            throw ServerStartupError.configuration(
                "JADWAL_APNS_KEY_FILE: \(path) is not a P-256 private key in PEM (the .p8 from Apple Developer → Keys): \(error)")
        }
    }

    /// `production`, `sandbox`, or an `https://host[:port]` address; nil is production.
    package static func apnsEndpoint(_ text: String?) throws -> String {
        guard let text else { return APNsConfiguration.productionEndpoint }
        switch text.lowercased() {
        case "production": return APNsConfiguration.productionEndpoint
        case "sandbox", "development": return APNsConfiguration.sandboxEndpoint
        default: break
        }
        guard let components = URLComponents(string: text), components.scheme?.lowercased() == "https",
              let host = components.host, !host.isEmpty, components.path.isEmpty || components.path == "/",
              components.query == nil, components.user == nil
        else {
            throw ServerStartupError.configuration(
                "JADWAL_APNS_ENDPOINT must be production, sandbox or an https://host[:port] address with no path, not \(text)")
        }
        var endpoint = text
        while endpoint.hasSuffix("/") { endpoint.removeLast() }
        return endpoint
    }
}
