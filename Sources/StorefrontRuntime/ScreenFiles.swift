import CellGrid
import Foundation
import ScreenCapture

/// Where the storefront saves its screen when asked (Ctrl+S): a directory, one file per format,
/// named for the moment (`screen-20261125-060512.txt`, `.ansi`, `.svg`); a second save in the
/// same second gets `-2`, and a file already there is never overwritten.
public struct ScreenFiles: Sendable {
    public let directory: URL
    /// What the pictures' titles say the screen is ("Storefront — simulated store").
    public let title: String

    public init(directory: URL, title: String) {
        self.directory = directory
        self.title = title
    }

    /// Writes the three files; returns their path without the extension.
    public func save(_ grid: Grid, at date: Date) throws -> String {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let shot = Screenshot(grid: grid, title: title)
        let base = try freeBase(for: date)
        var written: [URL] = []
        do {
            for format in Screenshot.Format.allCases {
                let url = URL(fileURLWithPath: base + "." + format.rawValue)
                try Data(shot.rendered(as: format).utf8).write(to: url, options: .withoutOverwriting)
                written.append(url)
            }
        } catch {
            // Three files or none: a half-saved screen would be missing from the report unnoticed.
            for url in written { try? FileManager.default.removeItem(at: url) }
            throw error
        }
        return base
    }

    /// A path as a status line shows it: under the current directory relative to it, under the
    /// home directory with `~`, so the file's name survives a narrow terminal's status line.
    public static func abbreviated(
        _ path: String, current: String = FileManager.default.currentDirectoryPath,
        home: String = NSHomeDirectory()
    ) -> String {
        if !current.isEmpty, current != "/", path.hasPrefix(current + "/") {
            return String(path.dropFirst(current.count + 1))
        }
        if !home.isEmpty, home != "/", path.hasPrefix(home + "/") { return "~/" + path.dropFirst(home.count + 1) }
        return path
    }

    private func freeBase(for date: Date) throws -> String {
        let stamp = Self.stamp(date)
        for attempt in 1...1000 {
            let base = directory.appendingPathComponent(attempt == 1 ? "screen-\(stamp)" : "screen-\(stamp)-\(attempt)")
                .path
            let taken = Screenshot.Format.allCases.contains {
                FileManager.default.fileExists(atPath: base + "." + $0.rawValue)
            }
            if !taken { return base }
        }
        throw CocoaError(.fileWriteFileExists)
    }

    /// UTC, so names sort in the order the screens (or reports) were made wherever they were.
    public static func stamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        return
            "\(parts.year ?? 0)\(two(parts.month))\(two(parts.day))-\(two(parts.hour))\(two(parts.minute))\(two(parts.second))"
    }
}
