import Foundation
import LocalState
import StoreCore

/// Who owns a `purchasing` transaction: the process id and its start time, so a recycled pid is
/// not taken for the original owner. A purchase whose owner is alive is still in that process's
/// latency wait; only one whose owner died is completed by the next process to open the store.
struct ProcessIdentity: Sendable, Hashable {
    let pid: Int32
    let startTime: String

    static let current = ProcessIdentity(pid: getpid(), startTime: startTime(of: getpid()) ?? "")

    init(pid: Int32, startTime: String) {
        self.pid = pid
        self.startTime = startTime
    }

    /// "1234:98765" as stored in `transactions.owner`.
    init?(token: String) {
        let parts = token.split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2, let pid = Int32(parts[0]) else { return nil }
        self.init(pid: pid, startTime: parts[1])
    }

    var token: String { "\(pid):\(startTime)" }

    var isAlive: Bool {
        guard kill(pid, 0) == 0 || errno == EPERM else { return false }
        // Where /proc exists the start time must match too; elsewhere the pid alone decides.
        guard let now = Self.startTime(of: pid) else {
            return startTime.isEmpty || !FileManager.default.fileExists(atPath: "/proc/self/stat")
        }
        return now == startTime
    }

    /// Field 22 of /proc/PID/stat: clock ticks since boot when the process started.
    static func startTime(of pid: Int32) -> String? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        // Fields after the command name (which may hold spaces) start at field 3.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 19 ? String(fields[19]) : nil
    }
}
