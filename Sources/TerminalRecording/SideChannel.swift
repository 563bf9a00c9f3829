import Foundation

/// Lines a program in a pseudo-terminal sends to the process that runs it, on descriptor 3
/// (named by `STOREFRONT_EVENTS_FD`): `m <text>` for a marker. Text is one line: line breaks in
/// it become spaces.
public enum SideChannel {
    public static let variable = "STOREFRONT_EVENTS_FD"
    /// The child's descriptor for the channel: the first after standard error.
    public static let childDescriptor: Int32 = 3

    public enum Message: Equatable, Sendable {
        case marker(String)
    }

    public static func line(_ message: Message) -> String {
        switch message {
        case .marker(let text): "m " + text.replacingOccurrences(of: "\n", with: " ") + "\n"
        }
    }

    public static func parse(_ line: Substring) -> Message? {
        if line.hasPrefix("m ") { return .marker(String(line.dropFirst(2))) }
        return nil
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

    public init?(environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard let value = environment[SideChannel.variable], let descriptor = Int32(value), descriptor > 2,
              fcntl(descriptor, F_GETFD) != -1 else { return nil }
        self.descriptor = descriptor
    }

    public func send(_ message: SideChannel.Message) {
        let bytes = Array(SideChannel.line(message).utf8)
        // A parent that went away is not this program's problem: the write fails and is dropped.
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }
}
