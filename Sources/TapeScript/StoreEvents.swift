/// The store events a walkthrough's side channel reported between two pauses, read for what
/// they ended in: each transaction's last state (an `Expect` the tape then checks) and the words
/// the screen shows such an outcome in (the text its `Wait` prefers).
struct StoreEvents {
    /// Every transaction bought in the walkthrough, in order: an `Expect` names them by number.
    private(set) var bought: [String] = []
    /// The final state of each transaction bought, in the order first reported since the pause.
    private var states: [(id: String, state: String)] = []
    private var words: [String] = []

    mutating func note(_ marker: String) {
        let parts = marker.split(separator: " ").map(String.init)
        guard parts.count >= 2 else { return }
        let id = parts[1]
        switch parts[0] {
        case "purchasing": bought.append(id)
        // "restored ID" is a transaction's update; "restored PRODUCT…" a restore's result.
        case "purchased", "failed", "deferred", "restored":
            if Self.isTransaction(id) { settle(id, parts[0]) } else { words.append("restored") }
        case "revoked": settle(id, "refunded")
        case "restore": words.append(parts[1] == "failed" ? "fail|error" : "nothing to restore")
        default: break
        }
    }

    /// A regular expression for what the outcomes read as on screen, nil without any.
    var outcomeWords: String? {
        words.isEmpty ? nil : words.joined(separator: "|")
    }

    /// `Expect transaction N state S`, for each transaction bought in the walkthrough whose
    /// state the store reported since the pause.
    func expectations() -> [String] {
        states.compactMap { id, state in
            bought.firstIndex(of: id).map { "Expect transaction \($0 + 1) state \(state)" }
        }
    }

    mutating func clear() {
        states = []
        words = []
    }

    private mutating func settle(_ id: String, _ state: String) {
        if let index = states.firstIndex(where: { $0.id == id }) {
            states[index].state = state
        } else {
            states.append((id, state))
        }
        words.append(Self.screenWords[state] ?? state)
    }

    /// What the storefront's English screen says when a transaction ends in each state.
    private static let screenWords = [
        "purchased": "delivered|verified|finished|purchased|owned|wallet",
        "failed": "SKError|failed|error",
        "deferred": "deferred|approval|pending",
        "restored": "restored",
        "refunded": "refund",
    ]

    private static func isTransaction(_ word: String) -> Bool {
        !word.isEmpty && word.allSatisfy(\.isNumber)
    }
}
