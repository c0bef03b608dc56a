/// The `Depth` request header (RFC 4918 §10.2).
public enum Depth: Sendable, Hashable {
    case zero
    case one
    case infinity

    /// Parses the header value; nil header means the method's default. An unknown value is 400.
    /// PROPFIND defaults to infinity (RFC 4918 §9.1), which Jadwal then refuses with
    /// `propfind-finite-depth`; REPORT defaults to 0 (RFC 3253 §3.6).
    public init(header: String?, default defaultDepth: Depth) throws(DAVError) {
        guard let header else {
            self = defaultDepth
            return
        }
        switch header.trimmingXMLWhitespace().lowercased() {
        case "0": self = .zero
        case "1": self = .one
        case "infinity": self = .infinity
        default: throw DAVError.invalidValue("The Depth header must be 0, 1 or infinity, not \"\(header)\".")
        }
    }

    /// The PROPFIND rule: Depth: infinity (explicit or by default) is refused with 403
    /// `{DAV:}propfind-finite-depth` (RFC 4918 §9.1.1), which answers crawlers cheaply.
    public static func forPropfind(header: String?) throws(DAVError) -> Depth {
        let depth = try Depth(header: header, default: .infinity)
        guard depth != .infinity else {
            throw DAVError.precondition(.propfindFiniteDepth, "PROPFIND with Depth: infinity is not supported; use Depth: 0 or 1.")
        }
        return depth
    }
}
