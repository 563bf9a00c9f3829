import Foundation
import Logging
import NIOCore
import PostgresNIO
import StoreSQL

/// Hears, on a connection of its own, the notification every batch of writes sends with its
/// commit (`PostgresStorage.announceCommit`), and tells `CommitsElsewhere` of those other servers
/// sent. A connection the database drops is made again a second later; a long poll still looks at
/// the journal every second, so a commit made while none listens is found then.
final class CommitListener: Sendable {
    /// The channel of one store: its schema's name in it, so stores in other schemas of the same
    /// database are not woken.
    static func channel(schema: String?) -> String {
        let suffix = (schema ?? "").lowercased().filter { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
        return suffix.isEmpty ? "storefront_commits" : "storefront_commits_\(suffix.prefix(40))"
    }

    /// This server's name in its notifications, so it does not wake itself.
    let server = UUID().uuidString.lowercased()
    let commits = CommitsElsewhere()
    private let listening: Task<Void, Never>

    init(configuration: PostgresConnection.Configuration, channel: String, logger: Logger) {
        let (server, commits) = (server, commits)
        listening = Task {
            while !Task.isCancelled {
                await Self.listen(
                    configuration: configuration, channel: channel, server: server, commits: commits, logger: logger)
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }

    /// Until the connection fails or the listener stops.
    private static func listen(
        configuration: PostgresConnection.Configuration, channel: String, server: String, commits: CommitsElsewhere,
        logger: Logger
    ) async {
        guard
            let connection = try? await PostgresConnection.connect(
                on: PostgresConnection.defaultEventLoopGroup.any(), configuration: configuration, id: -1,
                logger: logger
            ).get()
        else { return }
        _ = try? await connection.listen(on: channel) { notifications in
            for try await notification in notifications where notification.payload != server {
                commits.heard()
            }
        }
        try? await connection.close()
    }

    func stop() {
        listening.cancel()
    }
}
