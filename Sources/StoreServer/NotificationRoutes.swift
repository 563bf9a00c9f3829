import Foundation
import Hummingbird
import ServerRecords
import StoreCore
import StoreEngine
import StoreKitModel

/// Server notifications over HTTP: Apple's Request a Test Notification, Get Test Notification
/// Status and Get Notification History under `/inApps`, and the outbox under `/admin`.
enum NotificationRoutes {
    static func add(api: RouterGroup<BasicRequestContext>, _ service: StoreService) {
        api.post("/v1/notifications/test") { _, _ in
            guard let test = try await service.notifications.requestTest() else { throw noURL }
            return JSONBody.response(SendTestNotificationResponse(testNotificationToken: TestToken.encode(test)))
        }
        api.get("/v1/notifications/test/{testNotificationToken}") { _, context in
            let token = try StoreRoutes.pathParameter(context, "testNotificationToken") ?? ""
            guard let uuid = TestToken.uuid(token) else {
                throw AppStoreAPIError(.invalidTestNotificationToken, "Invalid test notification token.")
            }
            guard let record = try await service.notifications.record(uuid), record.notification.event.type == .test
            else {
                throw AppStoreAPIError(.testNotificationNotFound, "Test notification not found.")
            }
            let payload = try await service.signedPayloads([record.notification])[record.notification.uuid] ?? ""
            return JSONBody.response(
                CheckTestNotificationResponse(
                    signedPayload: payload, sendAttempts: record.attempts.map(SendAttemptItem.init)))
        }
        api.post("/v1/notifications/history") { request, _ in
            let (body, _) = try await BodyReader.decode(
                NotificationHistoryRequest.self, from: request, limit: service.configuration.bodyLimit)
            var query = try NotificationHistoryQuery(
                body, token: request.uri.queryParameters["paginationToken"].map(String.init), now: service.clock.now())
            if let id = body.transactionId {
                guard IdRules.transactionIdProblem(id) == nil, id.utf8.count <= ServerAPIRoutes.longestTransactionId
                else {
                    throw AppStoreAPIError.invalidTransactionId
                }
                query.filter.account = try await service.account(ofAnyTransaction: id)
            }
            let (records, hasMore) = try await service.notifications.history(
                query.filter, after: query.after, limit: NotificationHistoryQuery.pageSize)
            let payloads = try await service.signedPayloads(records.map(\.notification))
            let items = records.map {
                NotificationHistoryResponse.Item(
                    signedPayload: payloads[$0.notification.uuid] ?? "",
                    sendAttempts: $0.attempts.map(SendAttemptItem.init))
            }
            return JSONBody.response(
                NotificationHistoryResponse(
                    notificationHistory: items, hasMore: hasMore,
                    paginationToken: query.token(after: records.last?.notification.sequence)))
        }
    }

    static let noURL = AppStoreAPIError(
        .serverNotificationURLNotFound,
        "Server notification URL not found: start storefront serve with --notify URL or PUT /admin/notification-urls.")

    static func add(admin: RouterGroup<BasicRequestContext>, _ service: StoreService) {
        admin.get("/notifications") { request, _ in
            let limit =
                try StoreRoutes.integer(
                    request.uri.queryParameters["limit"].map(String.init), name: "limit", range: 1...1000) ?? 100
            let records = try await service.notifications.recent(limit: Int(limit))
            return JSONBody.response(
                AdminNotificationsResponse(urls: service.store.outbox.urls, notifications: records.map(adminItem)))
        }
        admin.post("/notifications/send-pending") { _, _ in
            JSONBody.response(SendPendingResponse(madeDue: try await service.notifications.sendPendingNow()))
        }
        admin.get("/notification-urls") { _, _ in
            JSONBody.response(
                NotificationURLsResponse(
                    urls: service.store.outbox.urls, fromCommandLine: service.configuration.notifyURLs))
        }
        admin.put("/notification-urls") { request, _ in
            let (body, _) = try await BodyReader.decode(
                NotificationURLsRequest.self, from: request, limit: service.configuration.bodyLimit)
            for (index, url) in body.urls.enumerated() {
                if let problem = StoreService.notificationURLProblem(url) {
                    throw APIError.invalid(problem, field: "urls[\(index)]")
                }
            }
            try await service.setNotificationURLs(body.urls)
            return JSONBody.response(
                NotificationURLsResponse(
                    urls: service.store.outbox.urls, fromCommandLine: service.configuration.notifyURLs))
        }
    }

    static func adminItem(_ record: NotificationRecord) -> AdminNotificationsResponse.Item {
        let notification = record.notification
        return .init(
            notificationUUID: notification.uuid.uuidString.lowercased(),
            notificationType: notification.event.type.rawValue,
            subtype: notification.event.subtype?.rawValue, transactionId: notification.transactionId,
            createdDate: notification.createdAt.epochMilliseconds,
            signed: notification.signedPayload != nil,
            attempts: record.attempts.map {
                .init(
                    url: $0.url, attemptDate: $0.date.epochMilliseconds, result: $0.result.rawValue,
                    httpStatus: $0.httpStatus, detail: $0.detail)
            },
            pending: record.pending.sorted { $0.key < $1.key }.map {
                .init(url: $0.key, nextAttemptDate: $0.value.epochMilliseconds)
            })
    }
}

/// A test notification's token, as Apple forms it: its UUID and when it was made, in ms.
enum TestToken {
    static func encode(_ notification: StoredNotification) -> String {
        "\(notification.uuid.uuidString.lowercased())_\(notification.createdAt.epochMilliseconds)"
    }

    static func uuid(_ token: String) -> UUID? {
        guard token.utf8.count <= 100, let head = token.split(separator: "_", maxSplits: 1).first else { return nil }
        return UUID(uuidString: String(head))
    }
}

/// Get Notification History's request checked by Apple's rules, and its pagination token (a
/// `PageToken` of the last notification's sequence, bound to the body it was made for).
struct NotificationHistoryQuery {
    static let pageSize = 20
    /// Apple keeps notification history for 180 days.
    static let retentionDays = 180

    var filter: NotificationFilter
    let after: Int64?
    let fingerprint: String

    init(_ body: NotificationHistoryRequest, token: String?, now: Date) throws(AppStoreAPIError) {
        guard let startMs = body.startDate else {
            throw AppStoreAPIError(.invalidStartDate, "Invalid start date: startDate is required.")
        }
        guard let endMs = body.endDate else {
            throw AppStoreAPIError(.invalidEndDate, "Invalid end date: endDate is required.")
        }
        let start = Date(timeIntervalSince1970: Double(startMs) / 1000)
        let end = Date(timeIntervalSince1970: Double(endMs) / 1000)
        guard start >= now.addingTimeInterval(-Double(Self.retentionDays) * 86_400) else {
            throw AppStoreAPIError(
                .startDateTooFarInPast, "Start date too far in past: notification history goes back 180 days.")
        }
        guard start < end else { throw AppStoreAPIError(.startDateAfterEndDate, "Start date after end date.") }
        if body.notificationType != nil, body.transactionId != nil {
            throw AppStoreAPIError(
                .multipleFiltersSupplied, "Multiple filters supplied: give notificationType or transactionId, not both."
            )
        }
        var filter = NotificationFilter(startDate: start, endDate: end, onlyFailures: body.onlyFailures ?? false)
        if let type = body.notificationType {
            guard let known = NotificationType(rawValue: type) else {
                throw AppStoreAPIError(.invalidNotificationType, "Invalid notification type: \(type.prefix(40)).")
            }
            filter.type = known
        }
        if let subtype = body.notificationSubtype {
            guard filter.type != nil, let known = NotificationSubtype(rawValue: subtype) else {
                throw AppStoreAPIError(
                    .invalidNotificationType,
                    "Invalid notification subtype: \(subtype.prefix(40)); it needs a notificationType too.")
            }
            filter.subtype = known
        }
        self.filter = filter
        let fingerprint = PageToken.fingerprint([
            "\(startMs)", "\(endMs)", body.notificationType ?? "", body.notificationSubtype ?? "",
            body.transactionId ?? "", "\(body.onlyFailures ?? false)",
        ])
        self.fingerprint = fingerprint
        if let token {
            after = try Self.decode(token, fingerprint: fingerprint)
        } else {
            after = nil
        }
    }

    /// The token for the page after the one that ended at `last` (the same one when it was empty).
    func token(after last: Int64?) -> String {
        PageToken.encode(fingerprint: fingerprint, ["\(last ?? after ?? 0)"])
    }

    private static func decode(_ token: String, fingerprint: String) throws(AppStoreAPIError) -> Int64 {
        guard let fields = PageToken.fields(token, fingerprint: fingerprint, count: 1), let sequence = Int64(fields[0]),
            sequence >= 0
        else {
            throw AppStoreAPIError(.invalidPaginationToken, "Invalid pagination token.")
        }
        return sequence
    }
}
