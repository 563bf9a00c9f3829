import Crypto
import Foundation
import LocalState
import StoreCore
import TestSupport

/// Lowercase hex SHA-256, as the server hashes an idempotent request (method, path, body).
func sha256Hex(_ bytes: [UInt8]) -> String {
    SHA256.hash(data: Data(bytes)).map { String(format: "%02x", $0) }.joined()
}

/// Runs a program found by `/usr/bin/env` (python3, openssl): its exit status and what it printed,
/// standard output and error together.
func runProgram(_ arguments: [String]) throws -> (status: Int32, output: String) {
    let directory = scratchDirectory("program")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let output = directory.appendingPathComponent("output").path
    let child = try SpawnedProcess(
        executable: "/usr/bin/env", arguments: arguments, environment: ProcessInfo.processInfo.environment,
        directory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath), output: output, errors: output)
    child.waitUntilExit()
    let text = String(decoding: (try? Data(contentsOf: URL(fileURLWithPath: output))) ?? Data(), as: UTF8.self)
    return (child.terminationStatus, text)
}
