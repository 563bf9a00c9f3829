import Foundation
import Hummingbird

/// The methods each route path has, for answering a known path with an unknown method 405 with an
/// `Allow` header (RFC 9110 §15.5.6) instead of 404. Filled once the router has all its routes;
/// the middleware that reads it is added before them, as Hummingbird requires.
final class AllowedMethods: @unchecked Sendable {
    private let lock = NSLock()
    private var templates: [(segments: [Substring], method: String)] = []

    func record(_ routes: [(method: String, path: String)]) {
        let parsed = routes.map { (segments: Self.segments($0.path), method: $0.method) }
        lock.withLock { templates = parsed }
    }

    /// The methods of the routes whose template matches `path` (`{name}` matches one non-empty segment).
    func methods(for path: String) -> [String] {
        let segments = Self.segments(path)
        let all = lock.withLock { templates }
        let methods = all.filter { template in
            template.segments.count == segments.count
                && zip(template.segments, segments).allSatisfy { pattern, segment in
                    (pattern.hasPrefix("{") && pattern.hasSuffix("}") && !segment.isEmpty) || pattern == segment
                }
        }.map(\.method)
        return Array(Set(methods)).sorted()
    }

    private static func segments(_ path: String) -> [Substring] {
        path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { $0 }
    }
}
