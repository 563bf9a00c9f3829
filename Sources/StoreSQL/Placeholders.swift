import Foundation

/// SQL with SQLite's placeholders (`?` for the next parameter, `?N` for the Nth) rewritten as
/// PostgreSQL's (`$N`), so the engine writes its SQL once. Text in quotes is left as it is. A
/// plain `?` takes the number after the largest used so far, as SQLite numbers it.
public enum Placeholders {
    public static func numbered(_ sql: String) -> String {
        var result = ""
        result.reserveCapacity(sql.utf8.count + 16)
        var largest = 0
        var quote: Character?
        var index = sql.startIndex
        while index < sql.endIndex {
            let character = sql[index]
            index = sql.index(after: index)
            if let open = quote {
                result.append(character)
                if character == open { quote = nil }  // a doubled quote closes and reopens
                continue
            }
            switch character {
            case "'", "\"":
                quote = character
                result.append(character)
            case "?":
                var digits = ""
                while index < sql.endIndex, let digit = sql[index].wholeNumberValue, sql[index].isASCII {
                    digits.append(String(digit))
                    index = sql.index(after: index)
                }
                let number = Int(digits) ?? largest + 1
                largest = max(largest, number)
                result += "$\(number)"
            default:
                result.append(character)
            }
        }
        return result
    }

    /// The statements of a script, split at semicolons outside quotes, without empty ones.
    public static func statements(of script: String) -> [String] {
        var statements: [String] = []
        var current = ""
        var quote: Character?
        for character in script {
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == ";" {
                statements.append(current)
                current = ""
                continue
            }
            current.append(character)
        }
        statements.append(current)
        return statements.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
    }
}
