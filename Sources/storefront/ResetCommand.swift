import ArgumentParser
import Foundation
import LocalState
import PostgresStore
import StoreCore
import StoreEngine

/// `storefront reset`: deletes a state directory's databases, the way out when one is refused as
/// emptied, foreign or damaged. Asks for `--yes`: what the files held is gone for good.
struct ResetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset",
        abstract: "Delete the store and the app ledger of a state directory (or a server's --db), to start anew.",
        discussion: """
            Removes store.sqlite and app.sqlite (with their -wal and -shm files) from the directory; the next
            command makes new ones, with a new store identity and new signing keys. Every purchase they held is
            lost: copy them first if they may matter. While a storefront (a server, a command, the storefront
            in a terminal) has them open, reset refuses and names it.
            With --db postgres://…, drops the store's own tables from that database instead (the next server
            makes them anew), all or none and never a table, view or key that is not the store's. Refused while
            a storefront server runs on it (or was seen in the last 10 s: one killed without stopping), and
            when the database holds no Storefront store; no server starts while it drops.
            """
    )

    @Option(name: .long, help: ArgumentHelp("The state directory (default as for every command) …", valueName: "dir"))
    var state: String?

    @Option(
        name: .long, help: ArgumentHelp("… or a server's --db: its directory or postgres:// URL.", valueName: "dir|url")
    )
    var db: String?

    @Flag(name: .long, help: "Delete without asking: required.")
    var yes = false

    /// Typed in full: inferred, this one line took the type checker most of a second.
    static let files: [String] = ["store.sqlite", "app.sqlite"].flatMap { (name: String) -> [String] in
        [name, name + "-wal", name + "-shm", name + ".new"]
    }

    func run() throws {
        if state?.isEmpty == true || db?.isEmpty == true {
            throw CommandFailure.usage("reset: --state and --db need a directory, not an empty string")
        }
        if state != nil, db != nil { throw CommandFailure.usage("reset: pass --state or --db, not both") }
        if let db, let place = try Self.postgres(db) { return try resetPostgres(place) }
        let directory =
            db.map { URL(fileURLWithPath: $0) }
            ?? StateDirectory.resolve(flag: state, environment: ProcessInfo.processInfo.environment).url
        let present = Self.files.filter {
            FileManager.default.fileExists(atPath: directory.appendingPathComponent($0).path)
        }
        guard !present.isEmpty else {
            Console.out("reset: \(directory.path) holds no store or app ledger; nothing to delete")
            return
        }
        guard yes else {
            throw CommandFailure.usage(
                "reset deletes \(present.joined(separator: ", ")) in \(directory.path), and every purchase they hold; add --yes to do it"
            )
        }
        // Held while deleting: a process that opens the store meanwhile waits, then makes new files.
        let exclusive: StateInUse
        do {
            exclusive = try StateInUse.exclusive(StateDirectory(url: directory))
        } catch let failure as StoreFailure {
            throw CommandFailure.failure("reset: \(failure.message)")
        }
        defer { withExtendedLifetime(exclusive) {} }
        for name in present {
            do {
                try FileManager.default.removeItem(at: directory.appendingPathComponent(name))
            } catch {
                throw CommandFailure.failure(
                    "reset: cannot delete \(directory.appendingPathComponent(name).path): \(error.localizedDescription)"
                )
            }
        }
        Console.out("reset: deleted \(present.joined(separator: ", ")) in \(directory.path)")
    }

    /// `--db` as a PostgreSQL URL; nil for a directory. A value that reads as a URL is never taken
    /// for a directory.
    private static func postgres(_ db: String) throws -> PostgresLocation? {
        do {
            return try PostgresLocation.argument(db)
        } catch let failure as StoreFailure {
            throw CommandFailure.usage("reset: --db: \(failure.message)")
        }
    }

    /// Drops the store's tables from a PostgreSQL database.
    private func resetPostgres(_ place: PostgresLocation) throws {
        guard yes else {
            throw CommandFailure.usage(
                "reset drops the store's tables from \(place.description), and every purchase they hold; add --yes to do it"
            )
        }
        do {
            let dropped = try PostgresStorage.reset(place, tables: PostgresStorage.storeTables)
            if dropped.isEmpty {
                Console.out("reset: \(place.description) holds no store; nothing to drop")
            } else {
                Console.out("reset: dropped the store's \(dropped.count) tables from \(place.description)")
            }
        } catch let failure as StoreFailure {
            throw CommandFailure.failure("reset: \(failure.message)")
        }
    }
}
