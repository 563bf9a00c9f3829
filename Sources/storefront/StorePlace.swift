import Foundation
import LocalState
import PostgresStore
import StoreCore

/// Where `serve` keeps its store: a state directory with `store.sqlite`, or a PostgreSQL database.
enum StorePlace {
    case directory(StateDirectory)
    case postgres(PostgresLocation)

    /// As the listening line shows it: the directory's path, or the URL without its password.
    var description: String {
        switch self {
        case .directory(let directory): directory.url.path
        case .postgres(let location): location.description
        }
    }
}

extension ServeCommand {
    /// `--db` (or `$STOREFRONT_DB`) checked: a postgres:// URL that parses, or a directory that
    /// is not a file, made private to its owner; nil: the state directory's `server`. A value
    /// that reads as a URL is never taken for a directory.
    func storePlace(_ value: String?, environment: [String: String]) throws -> StorePlace {
        let location: PostgresLocation?
        do {
            location = try value.flatMap(PostgresLocation.argument)
        } catch let failure as StoreFailure {
            throw CommandFailure.usage("--db: \(failure.message)")
        }
        if let location {
            guard (1...256).contains(dbPoolSize) else {
                throw CommandFailure.usage("--db-pool-size \(dbPoolSize): expected 1 to 256 connections")
            }
            guard dbConnectTimeout.isFinite, (0.1...600).contains(dbConnectTimeout) else {
                throw CommandFailure.usage("--db-connect-timeout \(dbConnectTimeout): expected 0.1 to 600 seconds")
            }
            guard dbStatementTimeout.isFinite, (0.1...3600).contains(dbStatementTimeout) else {
                throw CommandFailure.usage("--db-statement-timeout \(dbStatementTimeout): expected 0.1 to 3600 seconds")
            }
            return .postgres(location)
        }
        let directory =
            value.map { StateDirectory(url: URL(fileURLWithPath: $0), option: "--db") }
            ?? StateDirectory(
                url: StateDirectory.resolve(flag: nil, environment: environment).url.appendingPathComponent("server"),
                option: "--db")
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory.url.path, isDirectory: &isDirectory), !isDirectory.boolValue
        {
            throw CommandFailure.usage(
                "--db \(directory.url.path) is a file; pass a directory (the server keeps store.sqlite in it)")
        }
        do {
            for notice in try directory.tightenPermissions() { Console.err("storefront serve: note: \(notice)") }
        } catch let failure as StoreFailure {
            throw CommandFailure.failure(failure.message)
        }
        return .directory(directory)
    }
}
