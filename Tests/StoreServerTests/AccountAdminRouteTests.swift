import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import StoreCore
import StoreServer
import Testing

/// `/admin/accounts/{account}`: one tester's purchase history cleared, and families edited.
@Suite struct AccountAdminRouteTests {
    static let theme = "com.example.storefront.theme.dark"

    @Test func clearingOneAccountKeepsTheOthers() async throws {
        let fixture = try await ServerFixture()
        _ = try await fixture.buy(ServerFixture.monthly)
        let kenjis = try await fixture.buy(ServerFixture.removeAds, account: "kenji")
        try await fixture.test { client in
            #expect(try await client.send(.post, "/admin/accounts/alice/clear").status == .unauthorized)
            _ = try await client.object(.post, "/admin/accounts/alice/clear", admin: true)
            _ = try await client.object(.post, "/admin/accounts/mallory/clear", admin: true, expect: .notFound)
        }
        #expect(try await fixture.service.store.transactions(account: "alice").isEmpty)
        #expect(
            try await fixture.service.store.transactions(account: "kenji").map(\.id) == [kenjis.transaction.id])
    }

    @Test func aFamilyIsJoinedAndLeftOverHTTP() async throws {
        let fixture = try await ServerFixture()
        _ = try await fixture.buy(Self.theme)
        try await fixture.test { client in
            _ = try await client.object(.put, "/admin/accounts/kenji/family/appleseed", admin: true)
            let kenjis = try await fixture.service.store.transactions(account: "kenji")
            #expect(kenjis.map(\.productId) == [Self.theme])
            #expect(kenjis.first?.terms?.ownership == .familyShared)
            _ = try await client.object(.delete, "/admin/accounts/kenji/family", admin: true)
            #expect(try await fixture.service.store.entitlements(account: "kenji").isEmpty)
            _ = try await client.object(
                .put, "/admin/accounts/kenji/family/two%20words", admin: true, expect: .unprocessableContent)
            _ = try await client.object(.delete, "/admin/accounts/mallory/family", admin: true, expect: .notFound)
        }
    }

    @Test func familiesAreListedAsTheyAreNow() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            #expect(try await client.send(.get, "/admin/families").status == .unauthorized)
            let before = try await client.object(.get, "/admin/families", admin: true)
            #expect((before["families"] as? [String: String])?["kenji"] == nil)
            _ = try await client.object(.put, "/admin/accounts/kenji/family/appleseed", admin: true)
            let after = try await client.object(.get, "/admin/families", admin: true)
            let families = try #require(after["families"] as? [String: String])
            #expect(families["kenji"] == "appleseed")
            #expect(families == (try await fixture.service.store.families()))
        }
    }

    @Test func aPurchaseIsAssignedOverHTTP() async throws {
        let fixture = try await ServerFixture()
        let bought = try await fixture.buy(ServerFixture.removeAds, account: "kenji").transaction
        try await fixture.test { client in
            let path = "/admin/transactions/\(bought.id)/assign/lena"
            #expect(try await client.send(.post, path).status == .unauthorized)
            let answer = try await client.object(.post, path, admin: true)
            let lenas = try await fixture.service.store.transactions(account: "lena")
            #expect(lenas.map(\.productId) == [ServerFixture.removeAds])
            #expect(lenas.first?.terms?.ownership == .assigned)
            #expect("\(answer)".contains(lenas.first?.id ?? "none"), "the answer names the member's transaction")
            _ = try await client.object(.post, path, admin: true, expect: .conflict)
            _ = try await client.object(
                .post, "/admin/transactions/\(bought.id)/assign/mallory", admin: true, expect: .notFound)
        }
    }
}
