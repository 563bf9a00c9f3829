import Foundation
import StoreSQL
import SyntheticData
import Testing

@testable import StoreEngine

/// The transaction row's decoder over rows whose columns hold random kinds of values, as a
/// damaged file can: it reads the row or throws `SQLRowError` naming one of its columns, and never
/// traps. Seeded, so a failure names a row that reproduces.
@Suite struct RowDecodingFuzzTests {
    static let rows = 3000

    @Test func randomKindsInATransactionRowThrowByColumnNeverTrap() throws {
        var random = SplitMix64(state: 0x5EED)
        let names = (0..<StoredTransaction.fieldCount).map { "c\($0)" }
        var refused: Set<String> = []
        for _ in 0..<Self.rows {
            let values = names.indices.map { _ in Self.value(&random) }
            let row = SQLRow(columns: SQLColumns(names, sql: "SELECT … FROM transactions"), values: values)
            do {
                _ = try StoredTransaction(row: row)
            } catch {
                #expect(names.contains(error.column), "\(error)")
                #expect(error.sql == "SELECT … FROM transactions")
                refused.insert(error.column)
            }
        }
        #expect(refused.count > 5, "the refusals name many columns: \(refused.sorted())")
    }

    /// A value of a random kind, now and then one a column of the schema holds.
    static func value(_ random: inout SplitMix64) -> SQLValue {
        switch random.next() % 8 {
        case 0: .null
        case 1: .integer(Int64(bitPattern: random.next()))
        case 2: .integer(Int64(random.next() % 5))
        case 3: .real(Double(random.next() % 10_000) / 7)
        case 4: .text(["1", "0.99", "USD", "purchase", "PURCHASED", "monthly", "x"][Int(random.next() % 7)])
        case 5:
            .text(
                String(decoding: (0..<Int(random.next() % 12)).map { _ in UInt8(random.next() % 256) }, as: UTF8.self))
        case 6: .blob(Data((0..<Int(random.next() % 8)).map { _ in UInt8(random.next() % 256) }))
        default: .real(.nan)
        }
    }
}
