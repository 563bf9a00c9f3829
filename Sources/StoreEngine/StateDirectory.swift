import Foundation

/// Where Storefront keeps its durable state: `--state DIR`, else `$STOREFRONT_HOME`, else
/// `$XDG_DATA_HOME/storefront`, else `~/.local/share/storefront`.
public struct StateDirectory: Sendable {
    public let url: URL

    public init(url: URL) {
        self.url = url
    }

    public static func resolve(flag: String?, environment: [String: String]) -> StateDirectory {
        if let flag, !flag.isEmpty { return StateDirectory(url: URL(fileURLWithPath: flag)) }
        if let home = environment["STOREFRONT_HOME"], !home.isEmpty { return StateDirectory(url: URL(fileURLWithPath: home)) }
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty {
            return StateDirectory(url: URL(fileURLWithPath: xdg).appendingPathComponent("storefront"))
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return StateDirectory(url: URL(fileURLWithPath: home).appendingPathComponent(".local/share/storefront"))
    }

    /// Creates the directory (0700) and returns the path of a database file in it, created 0600.
    public func databasePath(_ name: String) throws -> String {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw StoreFailure("cannot create the state directory \(url.path): \(error.localizedDescription); pass --state DIR")
        }
        let path = url.appendingPathComponent(name).path
        if !FileManager.default.fileExists(atPath: path) {
            // Created here first so the permissions are ours, not the umask's.
            _ = FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
        }
        return path
    }
}
