/// A catalog's list of ids (its languages, its storefronts) prepared once for checking: a set for
/// lookups and the text messages show. Checks against it cost in proportion to what is checked, not
/// to the length of the list, so a catalog with 100,000 languages or storefronts stays linear.
struct IdList: Sendable {
    let ids: [String]
    let set: Set<String>
    /// `USA, JPN, …` for messages, cut short after ten.
    let text: String

    init(_ ids: [String]) {
        self.ids = ids
        set = Set(ids)
        text = listed(ids)
    }

    /// A short list is searched: comparing a few strings costs less than hashing one.
    func contains(_ id: String) -> Bool { ids.count <= 8 ? ids.contains(id) : set.contains(id) }

    /// The ids that are neither among `keys` nor in `except`: the first eleven in list order (enough
    /// for `listed`) and how many there are in all; nil when none is missing.
    func missing(from keys: [String], except: Set<String> = []) -> (first: [String], count: Int)? {
        let present = Set(keys)
        let covered = present.union(except).filter(set.contains).count
        let count = ids.count - covered
        guard count > 0 else { return nil }
        var first: [String] = []
        // Stops after eleven missing ids: at most `covered` ids are skipped on the way.
        for id in ids where !present.contains(id) && !except.contains(id) {
            first.append(id)
            if first.count > 10 { break }
        }
        return (first, count)
    }
}
