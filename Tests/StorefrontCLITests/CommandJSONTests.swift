import Foundation
import TestSupport
import Testing

@Suite struct CommandJSONTests {
    func json(_ arguments: [String], environment: [String: String] = [:]) throws -> Any {
        let result = try Executable.run(arguments, environment: environment)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
    }

    @Test func productsInYenUnderTheCLocale() throws {
        let object = try #require(
            try json(["products", "--storefront", "JPN", "--json"], environment: ["LANG": "C", "LC_ALL": "C"])
                as? [String: Any])
        #expect(object["currency"] as? String == "JPY")
        let products = try #require(object["products"] as? [[String: Any]])
        let gems = try #require(products.first { $0["id"] as? String == "com.example.storefront.gems.100" })
        #expect(gems["price"] as? String == "160")
        #expect(gems["displayPrice"] as? String == "¥160")
        #expect(
            (object["invalidProductIdentifiers"] as? [String])?.contains("com.example.storefront.levels.classic")
                == true)
        let monthly = try #require(products.first { $0["id"] as? String == "com.example.storefront.premium.monthly" })
        #expect(monthly["subscriptionPeriod"] as? String == "P1M")
    }

    @Test func errorsListTwentyTwoCodesThenNetworkErrors() throws {
        let entries = try #require(try json(["errors", "--json", "--lang", "zh-Hans"]) as? [[String: Any]])
        #expect(entries.count == 29)
        #expect(entries.prefix(22).compactMap { $0["code"] as? Int } == Array(0...21))
        #expect(entries.dropFirst(22).allSatisfy { ($0["code"] as? Int ?? 0) < 0 })
        #expect((entries[0]["message"] as? String)?.contains("未知错误") == true)
    }

    @Test func exitStatusesDistinguishUsageFromFailure() throws {
        #expect(try Executable.run(["products", "--storefront", "XXX"]).status == 2)
        #expect(try Executable.run(["products", "--bogus"]).status == 2)
        let missing = try Executable.run(["products", "--catalog", "/nonexistent/catalog.json"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("/nonexistent/catalog.json"))
    }

    @Test func buyRunsTheWholeFlowAndRedeliversWhatWasLeftUnfinished() throws {
        let state = scratchDirectory("storefront-cli").path
        let crashed = try Executable.run([
            "buy", "com.example.storefront.gems.100", "--state", state, "--no-finish", "--json",
        ])
        #expect(crashed.status == 0)
        let next = try Executable.run(["buy", "com.example.storefront.removeads", "--state", state, "--json"])
        let lines = next.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let delivered = lines.filter { $0["step"] as? String == "delivered" }
        #expect(delivered.count == 2)
        #expect(delivered.first?["firstTime"] as? Bool == false)  // re-delivered, not credited twice
        #expect(lines.last?["result"] as? String == "purchased")
        #expect(lines.last?["finished"] as? Bool == true)
    }
}
