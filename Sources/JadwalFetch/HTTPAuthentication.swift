import Crypto
import Foundation

/// A `WWW-Authenticate` challenge: its scheme and parameters (RFC 9110 §11.3).
struct AuthenticationChallenge: Sendable, Hashable {
    var scheme: String
    var parameters: [String: String]

    /// Every challenge in the headers' values (one header may hold several, separated by commas).
    static func parse(_ values: [String]) -> [AuthenticationChallenge] {
        var found: [AuthenticationChallenge] = []
        for value in values {
            var scanner = ChallengeScanner(Array(value.unicodeScalars))
            while let challenge = scanner.next() { found.append(challenge) }
        }
        return found
    }
}

/// Reads `Scheme k=v, k="v", Scheme2 k=v` one challenge at a time.
private struct ChallengeScanner {
    let text: [Unicode.Scalar]
    var index = 0

    init(_ text: [Unicode.Scalar]) { self.text = text }

    mutating func skip(_ allowed: (Unicode.Scalar) -> Bool) {
        while index < text.count, allowed(text[index]) { index += 1 }
    }

    mutating func token() -> String {
        let start = index
        while index < text.count, !" \t,=\"".unicodeScalars.contains(text[index]) { index += 1 }
        return String(String.UnicodeScalarView(text[start..<index]))
    }

    mutating func quoted() -> String {
        index += 1  // the opening quote
        var value = String.UnicodeScalarView()
        while index < text.count, text[index] != "\"" {
            if text[index] == "\\", index + 1 < text.count { index += 1 }
            value.append(text[index])
            index += 1
        }
        index += 1
        return String(value)
    }

    mutating func next() -> AuthenticationChallenge? {
        skip { $0 == " " || $0 == "\t" || $0 == "," }
        let scheme = token()
        guard !scheme.isEmpty else { return nil }
        var parameters: [String: String] = [:]
        while true {
            skip { $0 == " " || $0 == "\t" || $0 == "," }
            let mark = index
            let name = token()
            skip { $0 == " " || $0 == "\t" }
            guard !name.isEmpty, index < text.count, text[index] == "=" else {
                index = mark  // the next challenge's scheme starts here
                return AuthenticationChallenge(scheme: scheme, parameters: parameters)
            }
            index += 1
            skip { $0 == " " || $0 == "\t" }
            let value = index < text.count && text[index] == "\"" ? quoted() : token()
            parameters[name.lowercased()] = value
        }
    }
}

/// How requests to one server are authenticated, learned from its first 401: HTTP Basic, or
/// Digest (RFC 7616; SHA-256 preferred to MD5, `-sess` variants, `qop=auth`).
enum HTTPAuthentication: Sendable {
    case basic
    case digest(DigestSession)

    /// The strongest scheme offered that Jadwal speaks.
    static func choose(from challenges: [AuthenticationChallenge]) -> HTTPAuthentication? {
        let digests = challenges.filter { $0.scheme.lowercased() == "digest" }.compactMap(DigestSession.init)
        if let best = digests.max(by: { $0.algorithm.strength < $1.algorithm.strength }) { return .digest(best) }
        if challenges.contains(where: { $0.scheme.lowercased() == "basic" }) { return .basic }
        return nil
    }

    /// The `Authorization` value for one request (Digest counts its nonce's uses).
    mutating func authorization(method: String, uri: String, credentials: (String, String), cnonce: String) -> String {
        switch self {
        case .basic:
            return "Basic " + Data("\(credentials.0):\(credentials.1)".utf8).base64EncodedString()
        case .digest(var session):
            let value = session.authorization(method: method, uri: uri, username: credentials.0, password: credentials.1, cnonce: cnonce)
            self = .digest(session)
            return value
        }
    }
}

/// A Digest challenge being answered: the server's nonce and how many requests used it.
struct DigestSession: Sendable, Hashable {
    enum Algorithm: String, Sendable, Hashable {
        case md5 = "MD5", md5Session = "MD5-sess", sha256 = "SHA-256", sha256Session = "SHA-256-sess"

        var strength: Int { self == .sha256 || self == .sha256Session ? 2 : 1 }
        var isSession: Bool { self == .md5Session || self == .sha256Session }

        func hash(_ text: String) -> String {
            let data = Data(text.utf8)
            switch self {
            case .md5, .md5Session: return Insecure.MD5.hash(data: data).map { String(format: "%02x", $0) }.joined()
            case .sha256, .sha256Session: return SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
            }
        }
    }

    var realm: String
    var nonce: String
    var opaque: String?
    var algorithm: Algorithm
    /// `auth` when the server offers it; nil for an RFC 2069 server that offers no qop.
    var qop: String?
    var count = 0

    init?(_ challenge: AuthenticationChallenge) {
        guard let realm = challenge.parameters["realm"], let nonce = challenge.parameters["nonce"] else { return nil }
        guard let algorithm = Algorithm(rawValue: (challenge.parameters["algorithm"] ?? "MD5").uppercased().replacingOccurrences(of: "-SESS", with: "-sess"))
        else { return nil }
        let offered = (challenge.parameters["qop"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        if !offered.isEmpty, !offered.contains("auth") { return nil }  // auth-int only: not spoken
        self.realm = realm
        self.nonce = nonce
        opaque = challenge.parameters["opaque"]
        self.algorithm = algorithm
        qop = offered.isEmpty ? nil : "auth"
    }

    /// RFC 7616 §3.4.1: response = H(H(A1):nonce:nc:cnonce:qop:H(A2)), A2 = method:uri.
    mutating func authorization(method: String, uri: String, username: String, password: String, cnonce: String) -> String {
        count += 1
        let nc = String(format: "%08x", count)
        var ha1 = algorithm.hash("\(username):\(realm):\(password)")
        if algorithm.isSession { ha1 = algorithm.hash("\(ha1):\(nonce):\(cnonce)") }
        let ha2 = algorithm.hash("\(method):\(uri)")
        let response = qop == nil ? algorithm.hash("\(ha1):\(nonce):\(ha2)") : algorithm.hash("\(ha1):\(nonce):\(nc):\(cnonce):auth:\(ha2)")
        func quoted(_ value: String) -> String { "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
        var parts = [
            "username=\(quoted(username))", "realm=\(quoted(realm))", "nonce=\(quoted(nonce))", "uri=\(quoted(uri))",
            "algorithm=\(algorithm.rawValue)", "response=\(quoted(response))",
        ]
        if qop != nil { parts += ["qop=auth", "nc=\(nc)", "cnonce=\(quoted(cnonce))"] }
        if let opaque { parts.append("opaque=\(quoted(opaque))") }
        return "Digest " + parts.joined(separator: ", ")
    }
}
