import Foundation
import ServerRecords
import StoreCore
import StoreEngine
import StoreKitModel

/// Server notifications on the server's side: where they go, and their signed payloads.
extension StoreService {
    static let notificationURLsSetting = "notify_urls"

    /// Replaces the URLs `/admin` set, at every server on the store; those given with `--notify`
    /// stay for this server's run.
    func setNotificationURLs(_ urls: [String]) async throws {
        try await store.serverSettings.setValue(
            Self.notificationURLsSetting, urls.isEmpty ? nil : String(decoding: JSONBody.data(urls), as: UTF8.self))
        try await refreshSettings()
    }

    /// What is wrong with a notification URL, or nil: it must be absolute http or https with a host.
    public static func notificationURLProblem(_ text: String) -> String? {
        guard text.utf8.count <= 2048 else { return "a notification URL is at most 2048 bytes" }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            let host = url.host, !host.isEmpty
        else {
            return "\"\(text.prefix(80))\" is not an absolute http:// or https:// URL with a host"
        }
        return nil
    }

    /// Each notification's signed payload: the one kept if it was signed before, else signed now
    /// (with the transaction and renewal info as they are now, read in one read) and kept, in one
    /// commit, for every later attempt and read.
    func signedPayloads(_ notifications: [StoredNotification]) async throws -> [UUID: String] {
        var payloads: [UUID: String] = [:]
        var unsigned: [UUID: StoredNotification] = [:]
        for notification in notifications {
            if let kept = notification.signedPayload {
                payloads[notification.uuid] = kept
            } else {
                unsigned[notification.uuid] = notification
            }
        }
        guard !unsigned.isEmpty else { return payloads }
        let contexts = try await store.notifications.contexts(
            transactionIds: Set(unsigned.values.compactMap(\.transactionId)))
        let summaries = try await store.massExtensions.statuses(Set(unsigned.values.compactMap(\.massExtension)))
        let now = clock.now()
        let signed = unsigned.mapValues { notification in
            if let summary = notification.massExtension.flatMap({ summaries[$0] }) {
                return sign(notification, summary: summary, at: now)
            }
            return sign(notification, context: notification.transactionId.flatMap { contexts[$0] }, at: now)
        }
        return payloads.merging(try await store.notifications.keepSignedPayloads(signed)) { kept, _ in kept }
    }

    /// `ResponseBodyV2DecodedPayload`, signed with the store's chain.
    func sign(_ notification: StoredNotification, context: NotificationContext?, at now: Date) -> String {
        var data = NotificationPayload.Data(
            appAppleId: appAppleId, bundleId: catalog.bundleId, bundleVersion: catalog.settings.app.version,
            environment: store.environment, signedTransactionInfo: context.map { signed($0.transaction) },
            signedRenewalInfo: context?.subscription.map { signedRenewalInfo($0, at: now) },
            status: context?.subscription?.status.rawValue)
        data.consumptionRequestReason = notification.consumptionRequestReason?.appleName
        return sign(notification, data: data, summary: nil, at: now)
    }

    /// A mass extension's RENEWAL_EXTENSION/SUMMARY: its `summary` in place of `data`.
    func sign(_ notification: StoredNotification, summary status: MassExtensionStatus, at now: Date) -> String {
        let summary = NotificationPayload.Summary(
            requestIdentifier: status.request.requestIdentifier, environment: store.environment,
            appAppleId: appAppleId, bundleId: catalog.bundleId, productId: status.request.productId,
            storefrontCountryCodes: status.request.storefronts, failedCount: Int64(status.failed),
            succeededCount: Int64(status.succeeded))
        return sign(notification, data: nil, summary: summary, at: now)
    }

    private func sign(
        _ notification: StoredNotification, data: NotificationPayload.Data?, summary: NotificationPayload.Summary?,
        at now: Date
    ) -> String {
        signer.sign(
            NotificationPayload(
                notificationType: notification.event.type.rawValue, subtype: notification.event.subtype?.rawValue,
                notificationUUID: notification.uuid.uuidString.lowercased(), data: data, summary: summary,
                version: "2.0", signedDate: now.epochMilliseconds))
    }
}
