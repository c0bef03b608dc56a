import Foundation

/// A PROPPATCH body (RFC 4918 §9.2, §14.19): set and remove instructions in document order.
///
/// Order matters: RFC 4918 says instructions are applied in order, so `remove` then `set` of the
/// same property leaves it set. The server applies all or none (the request is atomic).
public struct ProppatchRequest: Sendable, Hashable {
    public enum Instruction: Sendable, Hashable {
        /// The whole property element, value included (text or child elements, as sent).
        case set(DAVElement)
        case remove(PropertyName)

        public var propertyName: PropertyName {
            switch self {
            case .set(let element): element.name
            case .remove(let name): name
            }
        }
    }

    public var instructions: [Instruction]

    public init(instructions: [Instruction]) {
        self.instructions = instructions
    }

    public init(body: Data, reader: XMLReader = XMLReader()) throws(DAVError) {
        try self.init(element: try reader.read(body))
    }

    public init(element: DAVElement) throws(DAVError) {
        guard element.name == .propertyUpdate else {
            throw DAVError.unexpected("A PROPPATCH body must be <DAV:propertyupdate>, not <\(element.name)>.")
        }
        var instructions: [Instruction] = []
        for action in element.elements {
            switch action.name {
            case .set:
                for prop in action.elements(named: .prop) {
                    instructions += prop.elements.map { Instruction.set($0) }
                }
            case .remove:
                for prop in action.elements(named: .prop) {
                    instructions += prop.elements.map { Instruction.remove($0.name) }
                }
            default:
                continue  // RFC 4918 §17: ignore unknown elements
            }
        }
        guard !instructions.isEmpty else {
            throw DAVError.unexpected("<DAV:propertyupdate> contains no <DAV:set> or <DAV:remove> with properties.")
        }
        self.instructions = instructions
    }
}
