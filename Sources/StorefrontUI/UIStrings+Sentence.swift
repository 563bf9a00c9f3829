extension UIStrings {
    /// A message the store or the app's server wrote to go after a colon ("no transaction …",
    /// "receipt rejected: …"), shown where it starts a sentence: its first word capitalised. Only
    /// a plain lower-case word is: an identifier, a path, a code or a name such as "iOS" keeps
    /// its spelling, and Chinese has no case.
    static func sentence(_ message: String) -> String {
        // The first word, without the punctuation that may end it.
        let bare = message.prefix { $0 != " " }.reversed().drop { ",:;.".contains($0) }
        guard let first = message.first, !bare.isEmpty,
            bare.allSatisfy({ ("a"..."z").contains($0) || $0 == "'" || $0 == "-" })
        else { return message }
        return first.uppercased() + message.dropFirst()
    }
}
