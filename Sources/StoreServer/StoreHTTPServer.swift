import Foundation
import Hummingbird
import LocalState
import Logging
import NIOCore
import ServiceLifecycle
import StoreCore
import StoreEngine

/// `storefront serve`: the application, its background work, its connection limits, and graceful
/// shutdown on SIGTERM and SIGINT (the listener closes, in-flight requests finish, long polls
/// answer at once, requests still arriving are answered 503, and whatever is left is closed after
/// the limits' shutdown grace).
public enum StoreHTTPServer {
    /// The application over `service`; `onRunning` gets the bound port (useful with port 0).
    public static func application(
        _ service: StoreService, limits: ConnectionLimits = .standard, logger: Logger,
        onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let configuration = service.configuration
        let load = ServerLoad(
            limits: limits, largestBody: max(configuration.bodyLimit, configuration.receiptBodyLimit), logger: logger)
        return Application(
            router: StoreRoutes.router(service),
            server: .http1(
                configuration: .init(
                    additionalChannelHandlers: [ConnectionGuardInstaller(load: load)],
                    idleTimeout: TimeAmount(limits.idleTimeout))),
            configuration: ApplicationConfiguration(
                address: .hostname(configuration.host, port: configuration.port), serverName: "storefront",
                availableConnectionsDelegate: .maximum(limits.acceptCeiling, logger: logger)),
            services: [
                MaintenanceService(service: service, logger: logger),
                NotificationDeliverer(service: service, logger: logger),
            ],
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? configuration.port) },
            logger: logger)
    }

    public static func run(
        _ service: StoreService, limits: ConnectionLimits = .standard, logger: Logger,
        onRunning: @escaping @Sendable (Int) async -> Void
    ) async throws {
        let application = application(service, limits: limits, logger: logger, onRunning: onRunning)
        var group = ServiceGroupConfiguration(
            services: [application], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        // The connections close themselves after the grace; this cancels whatever work outlives
        // them (a route stuck on a lock), so the process always ends.
        group.maximumGracefulShutdownDuration = limits.shutdownDeadline
        try await ServiceGroup(configuration: group).run()
    }
}

/// The server's pass of the store's scheduler every second (renewals, timed notifications, mass
/// extensions, and, once an hour, idempotency keys past their lifetime), so long-polling clients
/// see renewals without anyone reading first; the JWS signatures issued meanwhile, kept; and a
/// look at the store under the server and the settings other servers changed.
/// With nothing due and nothing signed a pass only reads. Stops at graceful shutdown, after
/// keeping the last signatures.
struct MaintenanceService: Service {
    let service: StoreService
    let logger: Logger

    func run() async throws {
        try? await cancelWhenGracefulShutdown {
            let clock = service.clock
            let scheduler = service.store.scheduler
            var lastPurge = Date.distantPast
            while !Task.isCancelled {
                do {
                    let now = clock.now()
                    let purging = now.timeIntervalSince(lastPurge) >= 3600
                    let purged = try await scheduler.runDue(
                        purgingKeysBefore: purging
                            ? now.addingTimeInterval(-service.configuration.idempotencyLifetime) : nil)
                    if purging { lastPurge = now }
                    if purged > 0 { logger.info("forgot \(purged) expired idempotency keys") }
                    try await service.saveIssuedSignatures()
                } catch {
                    logger.warning("maintenance: \(error)")
                }
                await lookUnderfoot()
                try await clock.sleep(for: 1)
            }
        }
        do {
            try await service.saveIssuedSignatures()
        } catch {
            logger.warning("maintenance: the last JWS signatures were not kept: \(error)")
        }
    }

    /// Whether the store is still the one the server opened, and the settings another server
    /// on it changed; each failure is logged once and the pass goes on.
    private func lookUnderfoot() async {
        let wasRetired = service.store.storageHealth.retired != nil
        do {
            try await service.store.checkUnderfoot()
            try await service.refreshSettings()
        } catch {
            if !wasRetired { logger.warning("maintenance: \(error)") }
        }
        if !wasRetired, let reason = service.store.storageHealth.retired { logger.error("\(reason)") }
    }
}
