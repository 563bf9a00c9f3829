import Foundation
import JSONReading

/// Who may take an offer, as both catalog formats write it: a code offer's `eligibility` list, a
/// custom code with its redemption limit, and a win-back offer's customer eligibility.
extension Validation {
    /// `eligibility`: `["new", "existing", "expired"]`, each at most once, not empty; nil when absent
    /// or wrong (reported).
    mutating func customerKinds(_ value: JSONValue?, _ path: JSONPath) -> Set<CustomerKind>? {
        guard let value, let items = array(value, path) else { return nil }
        var kinds: Set<CustomerKind> = []
        for (index, item) in items.enumerated() {
            guard
                let kind = choice(
                    item, path.index(index), "a kind of customer",
                    options: CustomerKind.allCases.map { ($0.rawValue, $0) })
            else { continue }
            if !kinds.insert(kind).inserted {
                report(path.index(index), "\(quoted(kind.rawValue)) is listed twice")
            }
        }
        guard !items.isEmpty else {
            report(path, "is empty; name who may redeem the code: \"new\", \"existing\" and/or \"expired\"")
            return nil
        }
        return kinds.isEmpty ? nil : kinds
    }

    /// Who may redeem an In-App Purchase offer code: `nonSpender`, `activeSpender` and/or
    /// `churnedSpender`, each once; nil when not written, or when nothing listed is one.
    mutating func spenderKinds(_ value: JSONValue?, _ path: JSONPath) -> Set<SpenderKind>? {
        guard let value, let items = array(value, path) else { return nil }
        var kinds: Set<SpenderKind> = []
        for (index, item) in items.enumerated() {
            guard
                let kind = choice(
                    item, path.index(index), "a kind of customer",
                    options: SpenderKind.allCases.map { ($0.rawValue, $0) })
            else { continue }
            if !kinds.insert(kind).inserted {
                report(path.index(index), "\(quoted(kind.rawValue)) is listed twice")
            }
        }
        guard !items.isEmpty else {
            report(
                path,
                "is empty; name who may redeem the code: \"nonSpender\", \"activeSpender\" and/or \"churnedSpender\"")
            return nil
        }
        return kinds.isEmpty ? nil : kinds
    }

    /// A win-back offer's `paidMonths`, `monthsSinceLastSubscribed` (`{"minimum", "maximum"}`) and
    /// `waitMonths`; nil when none is written.
    mutating func winBackConditions(_ object: JSONObject, _ path: JSONPath) -> WinBackConditions? {
        let keys = ["paidMonths", "monthsSinceLastSubscribed", "waitMonths"]
        guard keys.contains(where: { object[$0] != nil }) else { return nil }
        let paid = object["paidMonths"].flatMap { integer($0, path.key("paidMonths"), in: 0...120) } ?? 0
        let wait = object["waitMonths"].flatMap { integer($0, path.key("waitMonths"), in: 0...120) }
        var since: ClosedRange<Int>?
        if let value = object["monthsSinceLastSubscribed"] {
            let rangePath = path.key("monthsSinceLastSubscribed")
            if let range = self.object(value, rangePath, allowed: ["minimum", "maximum"]) {
                let low = range["minimum"].flatMap { integer($0, rangePath.key("minimum"), in: 0...120) } ?? 0
                let high = range["maximum"].flatMap { integer($0, rangePath.key("maximum"), in: 0...120) } ?? 120
                if low <= high {
                    since = low...high
                } else {
                    report(rangePath, "minimum \(low) is above maximum \(high)")
                }
            }
        }
        return WinBackConditions(paidMonths: paid, monthsSinceLapse: since, waitMonths: wait)
    }
}
