import CellGrid
import Foundation
import Synchronization

/// Every write of the headless commands to standard output and standard error. Text goes out a
/// line at a time, each line through `TerminalText.escaped`, so nothing read from a catalog, a
/// store or a server reaches the terminal as a control, bidirectional or invisible character,
/// and the only line breaks written are the ones between lines. JSON goes through `json`.
///
/// A write that fails (a reader that went away, a full disk) never stops the command: a payment
/// made is still delivered and finished, and only then does `endCommand` end the process as the
/// failure asks, quietly for a closed pipe as Unix tools do, with a message for anything else.
enum Console {
    static func out(_ line: String) { write([line], to: STDOUT_FILENO) }
    static func out(lines: [String]) { write(lines, to: STDOUT_FILENO) }
    static func err(_ line: String) { write([line], to: STDERR_FILENO) }
    static func err(lines: [String]) { write(lines, to: STDERR_FILENO) }

    /// One line of compact JSON (a document, or a JSON Lines record). Its strings keep their exact
    /// values, so the characters `TerminalText` would escape are written as JSON escapes instead:
    /// JSON encoders escape C0 controls but leave C1 controls and format characters raw.
    static func json(_ text: String) {
        let escaped = TerminalText.replacingUnprintable(text) { scalar in
            String(scalar).utf16.map { unit in
                let hex = String(unit, radix: 16, uppercase: true)
                return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }.joined()
        }
        write(bytes: Array((escaped + "\n").utf8), to: STDOUT_FILENO)
    }

    /// Bytes as they are (a generated catalog).
    static func out(bytes: [UInt8]) { write(bytes: bytes, to: STDOUT_FILENO) }

    private static func write(_ lines: [String], to descriptor: Int32) {
        write(bytes: Array((lines.map(TerminalText.escaped).joined(separator: "\n") + "\n").utf8), to: descriptor)
    }

    /// The first error of each descriptor's writes; a descriptor that failed is not written again.
    private static let failures = Mutex<[Int32: Int32]>([:])

    private static func write(bytes: [UInt8], to descriptor: Int32) {
        guard failures.withLock({ $0[descriptor] == nil }) else { return }
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
            if count >= 0 {
                written += count
            } else if errno != EINTR {
                let code = errno
                failures.withLock { $0[descriptor] = $0[descriptor] ?? code }
                return
            }
        }
    }

    /// Ends a command that succeeded according to its output: a standard output closed by its
    /// reader ends the process as SIGPIPE would have (status 141, no message); any other failure
    /// to write it is reported and exits 1.
    static func endCommand() {
        guard let code = failures.withLock({ $0[STDOUT_FILENO] }) else { return }
        if code == EPIPE {
            signal(SIGPIPE, SIG_DFL)
            raise(SIGPIPE)
        }
        err(
            "storefront: the output could not be written: \(String(cString: strerror(code))); what the command did is done (check with `storefront transactions`)"
        )
        exit(1)
    }
}
