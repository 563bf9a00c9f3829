import Foundation

/// Where `SKTestSession(configurationFileNamed:)` looks: the SwiftPM resource bundles beside the
/// test binary (`<Package>_<Target>.resources`), then the working directory.
enum ConfigurationFile {
    static func candidates(_ name: String) -> [String] {
        name.hasSuffix(".storekit") || name.hasSuffix(".json") ? [name] : [name + ".storekit", name + ".json", name]
    }

    static func find(named name: String) -> URL? {
        let manager = FileManager.default
        for directory in searchDirectories() {
            for candidate in candidates(name) {
                let url = directory.appendingPathComponent(candidate)
                var isDirectory: ObjCBool = false
                if manager.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                    return url
                }
            }
        }
        return nil
    }

    static func searchDirectories() -> [URL] {
        let manager = FileManager.default
        let binary = URL(fileURLWithPath: CommandLine.arguments.first ?? ".").resolvingSymlinksInPath()
        var roots = [binary.deletingLastPathComponent()]
        // A package's tests run from `<package>.xctest`, a directory on some platforms.
        roots.append(binary.deletingLastPathComponent().deletingLastPathComponent())
        var directories: [URL] = []
        for root in roots {
            let bundles = (try? manager.contentsOfDirectory(at: root, includingPropertiesForKeys: nil)) ?? []
            directories += bundles.filter { $0.pathExtension == "resources" || $0.pathExtension == "bundle" }
                .sorted { $0.path < $1.path }
        }
        directories.append(URL(fileURLWithPath: manager.currentDirectoryPath))
        return directories
    }
}
