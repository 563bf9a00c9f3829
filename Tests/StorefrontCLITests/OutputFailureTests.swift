import Foundation
import TestSupport
import Testing

/// A headless command whose output cannot be written: a reader that closed the pipe, a full disk.
/// The purchase is still delivered and finished before the process ends as the failure asks.
@Suite struct OutputFailureTests {
    static func shellQuoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    func command(_ state: StateDir, _ arguments: String) -> String {
        Self.shellQuoted(Executable.url.path) + " " + arguments + " --state " + Self.shellQuoted(state.path)
    }

    @Test func aFullDiskEndsTheCommandWithAMessageAfterTheDelivery() throws {
        let state = try StateDir()
        let run = try Executable.shell(command(state, "buy \(ProductID.gems)") + " > /dev/full; echo status=$?")
        #expect(run.stdout.contains("status=1"), "\(run.stdout) \(run.stderr)")
        #expect(run.stderr.contains("the output could not be written: No space left on device"), "\(run.stderr)")
        #expect(!run.stderr.contains("Fatal error"))
        #expect(try state.deliveries().map(\.productId) == [ProductID.gems])
        #expect(try state.wallet().balances["gems"] == 100)
    }

    @Test func aClosedPipeEndsTheCommandQuietlyAfterTheDelivery() throws {
        let state = try StateDir()
        let process = Process()
        process.executableURL = Executable.url
        process.arguments = ["buy", ProductID.gems, "--state", state.path]
        process.currentDirectoryURL = Executable.repositoryRoot
        // The reader is gone before the command starts: its first write meets a closed pipe.
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try out.fileHandleForReading.close()
        try process.run()
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGPIPE, "\(errors)")
        #expect(errors.isEmpty, "\(errors)")
        #expect(try state.deliveries().map(\.productId) == [ProductID.gems])
    }
}
