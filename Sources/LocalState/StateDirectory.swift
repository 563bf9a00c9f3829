import Foundation
import StoreCore

/// Where Storefront keeps its durable state: `--state DIR`, else `$STOREFRONT_HOME`, else
/// `$XDG_DATA_HOME/storefront`, else `~/.local/share/storefront`.
public struct StateDirectory: Sendable {
    public let url: URL
    /// The option that names this directory (`--state`, or `--db` for `serve`), for messages.
    public let option: String

    public init(url: URL, option: String = "--state") {
        self.url = url
        self.option = option
    }

    public static func resolve(flag: String?, environment: [String: String]) -> StateDirectory {
        if let flag, !flag.isEmpty { return StateDirectory(url: URL(fileURLWithPath: flag)) }
        if let home = environment["STOREFRONT_HOME"], !home.isEmpty {
            return StateDirectory(url: URL(fileURLWithPath: home))
        }
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty {
            return StateDirectory(url: URL(fileURLWithPath: xdg).appendingPathComponent("storefront"))
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return StateDirectory(url: URL(fileURLWithPath: home).appendingPathComponent(".local/share/storefront"))
    }

    /// Runs `body` holding an exclusive lock on the file `name` in the directory. Opening and
    /// migrating a database goes through it (see `DurablePool`): GRDB's migrator reads which
    /// migrations are applied and then runs them, so two first runs at once would both create
    /// the same tables. Each database names its own (`SQLiteStorage.storeLock`, `AppLedger.lockName`).
    public func withOpenLock<T>(_ name: String, _ body: () throws -> T) throws -> T {
        let path = try createdFile(name)
        let descriptor = open(path, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw StoreFailure(
                "cannot open \(path): \(String(cString: strerror(errno))); pass a writable \(option) DIR")
        }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw StoreFailure("cannot lock \(path): \(String(cString: strerror(errno)))") }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }

    /// Creates the directory (0700) if need be and returns the path of a file in it.
    public func filePath(_ name: String) throws -> String {
        // FileManager, even for a directory that exists, stats every parent and reads the user and
        // group databases (0.2 ms of every start); one stat answers the common case.
        var info = stat()
        if stat(url.path, &info) != 0 || info.st_mode & S_IFMT != S_IFDIR {
            do {
                try FileManager.default.createDirectory(
                    at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw StoreFailure(
                    "cannot create the state directory \(url.path): \(error.localizedDescription); pass \(option) DIR")
            }
        }
        return url.appendingPathComponent(name).path
    }

    /// `filePath`, with the file created 0600 if it is not there.
    func createdFile(_ name: String) throws -> String {
        let path = try filePath(name)
        // Created here first so the permissions are ours, not the umask's. O_EXCL, never "exists?
        // then create": FileManager.createFile replaces a file, and a second process doing that
        // while the first writes its database would truncate it under the first.
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            close(descriptor)
        } else if errno != EEXIST {
            throw StoreFailure(
                "cannot create \(path): \(String(cString: strerror(errno))); pass a writable \(option) DIR")
        }
        return path
    }
}

extension StateDirectory {
    /// The files that hold signing keys and purchases: readable by their owner only.
    static let privateFiles = ["store.sqlite", "app.sqlite"].flatMap { [$0, $0 + "-wal", $0 + "-shm"] }

    /// Takes group and other permissions away from the directory and the files that hold keys and
    /// purchases (a directory made by hand, a file copied in with the umask's mode); says what it
    /// changed, for the caller to tell the user.
    public func tightenPermissions() throws -> [String] {
        var changed: [String] = []
        for (path, mode) in [(url.path, mode_t(0o700))]
            + Self.privateFiles.map({ (url.appendingPathComponent($0).path, mode_t(0o600)) })
        {
            var info = stat()
            guard stat(path, &info) == 0, info.st_mode & 0o077 != 0 else { continue }
            let was = String(info.st_mode & 0o777, radix: 8)
            guard chmod(path, mode) == 0 else {
                throw StoreFailure(
                    "\(path) is readable by others (mode \(was)) and cannot be made private: \(String(cString: strerror(errno))); "
                        + "fix its permissions (chmod \(String(mode, radix: 8))) or pass another \(option)")
            }
            changed.append(
                "\(path) was readable by others (mode \(was)); made \(String(mode, radix: 8)), as it holds keys and purchases"
            )
        }
        return changed
    }
}
