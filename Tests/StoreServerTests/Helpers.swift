import Crypto
import Foundation
import LocalState
import StoreCore

/// Lowercase hex SHA-256, as the server hashes an idempotent request (method, path, body).
func sha256Hex(_ bytes: [UInt8]) -> String {
    SHA256.hash(data: Data(bytes)).map { String(format: "%02x", $0) }.joined()
}

/// Runs a program found by `/usr/bin/env` (python3, openssl): its exit status and what it printed,
/// standard output and error together.
func runProgram(_ arguments: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, text)
}
