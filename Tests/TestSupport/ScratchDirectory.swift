import Foundation

/// A fresh directory path under one scratch root per test process, removed when the process
/// exits: tests hand these to stores, servers and commands that outlive any one scope.
public func scratchDirectory(_ name: String) -> URL {
    scratchRoot.appendingPathComponent("\(name)-\(UUID().uuidString)")
}

private let scratchRoot: URL = {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("storefront-tests-\(getpid())")
    atexit { try? FileManager.default.removeItem(at: scratchRoot) }
    return root
}()
