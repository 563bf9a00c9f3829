import Foundation

/// The admin token of `storefront serve`: from `--admin-token`, `--admin-token-file` (so it need
/// not appear in `ps`), or `$STOREFRONT_ADMIN_TOKEN`; nil when none is given (one is generated).
enum AdminToken {
    static let minimumLength = 8
    static let rule = "at least \(minimumLength) characters, no spaces or control characters"

    static func resolve(flag: String?, file: String?, environment: [String: String]) throws -> String? {
        if flag != nil, file != nil { throw CommandFailure.usage("pass --admin-token or --admin-token-file, not both") }
        if let file { return try checked(read(file), source: "--admin-token-file \(file)") }
        if let flag { return try checked(flag, source: "--admin-token") }
        return try environment["STOREFRONT_ADMIN_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }.map {
            try checked($0, source: "$STOREFRONT_ADMIN_TOKEN")
        }
    }

    /// The file's first line: editors and `echo` add a newline, which is not part of the token.
    private static func read(_ path: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandFailure.usage(
                "--admin-token-file \(path): cannot read it; pass a readable file holding the token")
        }
        return String(decoding: data, as: UTF8.self).split(
            separator: "\n", maxSplits: 1, omittingEmptySubsequences: false
        ).first.map(String.init) ?? ""
    }

    private static func checked(_ token: String, source: String) throws -> String {
        let token = token.hasSuffix("\r") ? String(token.dropLast()) : token
        guard token.count >= minimumLength,
            !token.unicodeScalars.contains(where: {
                $0.properties.isWhitespace || $0.properties.generalCategory == .control
            })
        else {
            throw CommandFailure.usage("\(source): an admin token needs \(rule)")
        }
        return token
    }
}
