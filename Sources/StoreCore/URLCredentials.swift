import Foundation

/// URLs as messages, logs, screens and bug reports show them: a password, and the value of a query
/// parameter that may be a token, replaced by `***`.
public enum URLCredentials {
    /// `text` with the password of its user info and the values of its query parameters and fragment
    /// replaced by `***`, but for the parameters named in `kept` (names that never carry a secret,
    /// such as PostgreSQL's `sslmode`). Text that is no URL (no `scheme:` at its start) is returned
    /// as it is.
    ///
    /// Reads the text, not a parsed URL, so the password of a URL Foundation refuses (a space, a
    /// stray `%`, an `@` or a `/` in it) is hidden too: whatever stands between the user's `:` and
    /// the last `@` is the password.
    public static func redacted(_ text: String, keepingQuery kept: Set<String> = []) -> String {
        guard let schemeEnd = schemeEnd(of: text) else { return text }
        var rest = text[schemeEnd...]
        let slashes = rest.prefix(while: { $0 == "/" })
        rest = rest.dropFirst(slashes.count)
        var shown = String(text[..<schemeEnd]) + slashes
        // A user info with a password has a `:` before the host's first `/`, `?` or `#`; an `@`
        // after them without one (an address in a query) leaves nothing to hide there.
        if let at = rest.lastIndex(of: "@") {
            let userInfo = rest[..<at]
            let user = userInfo.prefix(while: { $0 != ":" })
            if user.count < userInfo.count, !user.contains(where: { "/?#".contains($0) }) {
                shown += user + ":***"
                rest = rest[at...]
            }
        }
        return shown + redactedQuery(rest, kept: kept)
    }

    /// Where the scheme's `:` ends, for text that starts with `scheme:`.
    public static func schemeEnd(of text: String) -> String.Index? {
        guard let first = text.first, first.isASCII, first.isLetter, let colon = text.firstIndex(of: ":") else {
            return nil
        }
        let scheme = text[..<colon]
        guard scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }) else {
            return nil
        }
        return text.index(after: colon)
    }

    /// The host and path as they are; every query value and the fragment hidden, but for `kept`.
    private static func redactedQuery(_ text: Substring, kept: Set<String>) -> String {
        let (beforeFragment, fragment) = split(text, at: "#")
        let (path, query) = split(beforeFragment, at: "?")
        var shown = String(path)
        if let query {
            let parameters = query.split(separator: "&", omittingEmptySubsequences: false).map { parameter in
                guard let equals = parameter.firstIndex(of: "=") else { return String(parameter) }
                let name = parameter[..<equals]
                return kept.contains(name.lowercased()) ? String(parameter) : name + "=***"
            }
            shown += "?" + parameters.joined(separator: "&")
        }
        if let fragment { shown += fragment.isEmpty ? "#" : "#***" }
        return shown
    }

    private static func split(_ text: Substring, at separator: Character) -> (Substring, Substring?) {
        guard let index = text.firstIndex(of: separator) else { return (text, nil) }
        return (text[..<index], text[text.index(after: index)...])
    }
}
