import Foundation
import TapeScript

/// Where a tape's `Output` and `Screenshot` files go: inside the tape's own directory, named by a
/// relative path without `..` and reached through no symbolic link, so a tape shared by someone
/// else writes nothing outside it. `play --allow-paths` lets a tape one trusts write anywhere.
struct TapePaths {
    let directory: URL
    let allowAnywhere: Bool

    /// The steps with each file resolved to a full path, or every refusal with its line.
    func resolve(_ steps: [Tape.Step]) -> Result<[Tape.Step], Refusals> {
        var problems: [TapeProblem] = []
        let resolved = steps.map { step -> Tape.Step in
            do throws(Refusal) {
                switch step.command {
                case .output(let path):
                    return Tape.Step(line: step.line, command: .output(try place(path)), source: step.source)
                case .screenshot(let path):
                    return Tape.Step(line: step.line, command: .screenshot(try place(path)), source: step.source)
                default: return step
                }
            } catch {
                problems.append(TapeProblem(line: step.line, column: 1, message: error.message))
                return step
            }
        }
        return problems.isEmpty ? .success(resolved) : .failure(Refusals(all: problems))
    }

    struct Refusals: Error {
        let all: [TapeProblem]
    }

    struct Refusal: Error {
        let message: String
    }

    private static let advice =
        "a tape writes only inside its own directory; pass --allow-paths to let it write elsewhere"

    private func place(_ path: String) throws(Refusal) -> String {
        if allowAnywhere {
            return path.hasPrefix("/") ? path : directory.appendingPathComponent(path).standardizedFileURL.path
        }
        guard !path.hasPrefix("/"), !path.hasPrefix("~") else {
            throw Refusal(message: "\(path) is an absolute path: \(Self.advice)")
        }
        let components = path.split(separator: "/").map(String.init)
        guard !components.contains("..") else {
            throw Refusal(message: "\(path) climbs out with ..: \(Self.advice)")
        }
        var current = directory
        for component in components where component != "." {
            current.appendPathComponent(component)
            var status = stat()
            if lstat(current.path, &status) == 0, status.st_mode & S_IFMT == S_IFLNK {
                throw Refusal(message: "\(path) goes through the symbolic link \(current.path): \(Self.advice)")
            }
        }
        return current.path
    }
}
