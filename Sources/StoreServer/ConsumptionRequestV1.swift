import Foundation

/// Send Consumption Information version 1's body: each field Apple requires, as its number.
/// Apple deprecated the route for version 2, but clients written against it still call it.
struct ConsumptionRequestV1: Codable, Sendable {
    let customerConsented: Bool?
    let consumptionStatus: Int?
    let platform: Int?
    let sampleContentProvided: Bool?
    let deliveryStatus: Int?
    /// A UUID, or an empty string when the app set none.
    let appAccountToken: String?
    let accountTenure: Int?
    let playTime: Int?
    let lifetimeDollarsRefunded: Int?
    let lifetimeDollarsPurchased: Int?
    let userStatus: Int?
    let refundPreference: Int?

    /// Apple's 400 for the first field that is missing or out of its range.
    func check() throws(AppStoreAPIError) {
        guard customerConsented == true else {
            throw AppStoreAPIError(
                .invalidCustomerConsented,
                "Invalid request. customerConsented must be true to send consumption information.")
        }
        let ranges: [(Int?, ClosedRange<Int>, AppStoreAPIError.Code, String)] = [
            (consumptionStatus, 0...3, .invalidConsumptionStatus, "consumptionStatus"),
            (platform, 0...2, .invalidPlatform, "platform"),
            (deliveryStatus, 0...5, .invalidDeliveryStatus, "deliveryStatus"),
            (accountTenure, 0...7, .invalidAccountTenure, "accountTenure"),
            (playTime, 0...7, .invalidPlayTime, "playTime"),
            (lifetimeDollarsRefunded, 0...7, .invalidLifetimeDollarsRefunded, "lifetimeDollarsRefunded"),
            (lifetimeDollarsPurchased, 0...7, .invalidLifetimeDollarsPurchased, "lifetimeDollarsPurchased"),
            (userStatus, 0...4, .invalidUserStatus, "userStatus"),
        ]
        for (value, range, code, name) in ranges where !(value.map(range.contains) ?? false) {
            throw AppStoreAPIError(code, "Invalid request. \(name) must be \(range.lowerBound) to \(range.upperBound).")
        }
        guard sampleContentProvided != nil else {
            throw AppStoreAPIError(
                .invalidSampleContentProvided, "Invalid request. sampleContentProvided is required (true or false).")
        }
        guard let token = appAccountToken, token.isEmpty || UUID(uuidString: token) != nil else {
            throw AppStoreAPIError(
                .invalidAppAccountToken, "Invalid request. appAccountToken must be a UUID or an empty string.")
        }
        if let refundPreference, !(0...3).contains(refundPreference) {
            throw AppStoreAPIError(
                .invalidRefundPreference, "Invalid request. The refund preference field is invalid: use 0 to 3.")
        }
    }
}
