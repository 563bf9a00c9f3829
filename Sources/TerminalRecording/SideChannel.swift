import Foundation

/// Lines a program in a pseudo-terminal sends to the process that runs it, on descriptor 3
/// (named by `STOREFRONT_EVENTS_FD`), and the requests it reads on descriptor 4
/// (`STOREFRONT_COMMANDS_FD`) when a tape plays it. Each is one line, a letter and its text:
/// `m` a marker, `s` the screen just painted (a JSON string; only when the runner asks for
/// screens), `w` a screenshot written, `x` one that could not be, and the request
/// `screenshot PATH`.
public enum SideChannel {
    public static let variable = "STOREFRONT_EVENTS_FD"
    public static let commandsVariable = "STOREFRONT_COMMANDS_FD"
    /// Set to 1 by a runner that reads screens (a tape, `record --tape`); a plain recording does
    /// not, and the program then spends nothing per frame on them.
    public static let screensVariable = "STOREFRONT_EVENTS_SCREENS"
    /// The child's descriptors for the channels: the first two after standard error.
    public static let childDescriptor: Int32 = 3
    public static let commandsDescriptor: Int32 = 4

    public enum Message: Equatable, Sendable {
        case marker(String)
        case screen(String)
        case saved(String)
        case notSaved(path: String, reason: String)
    }

    public static func line(_ message: Message) -> String {
        switch message {
        case .marker(let text): "m " + oneLine(text) + "\n"
        case .screen(let text): "s " + json(text) + "\n"
        case .saved(let path): "w " + oneLine(path) + "\n"
        case .notSaved(let path, let reason): "x [" + json(path) + "," + json(reason) + "]\n"
        }
    }

    public static func parse(_ line: Substring) -> Message? {
        let text = String(line.dropFirst(2))
        switch line.prefix(2) {
        case "m ": return .marker(text)
        case "s ": return (try? JSONDecoder().decode(String.self, from: Data(text.utf8))).map(Message.screen)
        case "w ": return .saved(text)
        case "x ":
            guard let parts = try? JSONDecoder().decode([String].self, from: Data(text.utf8)), parts.count == 2 else {
                return nil
            }
            return .notSaved(path: parts[0], reason: parts[1])
        default: return nil
        }
    }

    private static func oneLine(_ text: String) -> String {
        text.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\r", with: " ")
    }

    /// Splits what arrived into whole lines, keeping a partial last line in `buffer`.
    public static func messages(from buffer: inout [UInt8]) -> [Message] {
        guard let lastBreak = buffer.lastIndex(of: 0x0A) else { return [] }
        let complete = String(decoding: buffer[...lastBreak], as: UTF8.self)
        buffer.removeSubrange(...lastBreak)
        return complete.split(separator: "\n").compactMap(parse)
    }
}

/// The child's end: writes messages when the variable names an open descriptor, else nothing.
public final class SideChannelWriter: Sendable {
    private let descriptor: Int32

    private let commands: Int32?
    /// Whether the runner reads `s` lines: send the screen after each paint.
    public let sendsScreens: Bool

    public init?(environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard let value = environment[SideChannel.variable], let descriptor = Int32(value), descriptor > 2,
            fcntl(descriptor, F_GETFD) != -1
        else { return nil }
        self.descriptor = descriptor
        sendsScreens = environment[SideChannel.screensVariable] == "1"
        // Read without waiting: the UI loop asks between keys.
        commands = environment[SideChannel.commandsVariable].flatMap(Int32.init).flatMap { commands in
            commands > 2 && fcntl(commands, F_SETFL, O_NONBLOCK) != -1 ? commands : nil
        }
    }

    /// The paths of screenshots requested since the last call.
    public func requestedScreenshots() -> [String] {
        guard let commands else { return [] }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(commands, &buffer, buffer.count)
            guard count > 0 else { break }
            bytes += buffer[..<count]
        }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").compactMap { line in
            line.hasPrefix("screenshot ") ? String(line.dropFirst("screenshot ".count)) : nil
        }
    }

    public func send(_ message: SideChannel.Message) {
        let bytes = Array(SideChannel.line(message).utf8)
        // A parent that went away is not this program's problem: the write fails and is dropped.
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }
}
