import Conversations
import Foundation
import JadwalCore

/// Exits with a one-line message instead of a stack of Swift error text.
struct OperatorError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// How Core's refusals read on the command line: the CLI's one error map (the API's is
/// `JadwalAPI/APIErrors.swift`). A problem in a file names the file, and its line where there
/// is one, as compilers do (`FILE:LINE: what`).
extension OperatorError {
    init(_ problem: Accounts.Problem) {
        self.init(problem.description)
    }

    init(_ problem: MessageCipher.Problem) {
        self.init(problem.description)
    }

    init(_ problem: CalendarTransfer.Problem, file: String) {
        self.init("\(file): \(problem)")
    }

    /// `file` as the operator named it; `fileName` the name a malformed XML inside it is
    /// compared with (a zip's XML is named after the zip's own name).
    init(_ problem: HealthImport.Problem, file: String, fileName: String) {
        switch problem {
        case .malformed(let inner, let line, let reason):
            self.init(inner == fileName ? "\(file):\(line): \(reason)" : "\(file): \(inner):\(line): \(reason)")
        default:
            self.init("\(file): \(problem)")
        }
    }

    init(_ problem: ChatImportProblem, file: String) {
        switch problem {
        case .unreadable(let error):
            self.init("\(file)\(error.line.map { ":\($0)" } ?? ""): \(error.message)")
        case .archive(.export(let name, let error)):
            self.init("\(file), \(name)\(error.line.map { ":\($0)" } ?? ""): \(error.message)")
        case .archive(let error):
            self.init("\(file): \(error)")
        case .whoIsMe, .notAParticipant:
            self.init("\(file): \(problem); pass --me NAME")
        case .nobodyElse:
            self.init("\(file): \(problem)")
        }
    }
}
