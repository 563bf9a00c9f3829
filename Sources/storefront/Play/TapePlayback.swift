import Foundation
import TapeScript
import TerminalRecording

#if canImport(Glibc)
    import Glibc
#endif

/// Starts the storefront for a tape (size, environment, Output from its set-up commands), runs
/// it, and stops it; the files it wrote, and the failure, if a step failed.
struct TapePlayback {
    struct Outcome {
        let failure: TapeRun.Failure?
        /// The Output and Screenshot files written, in the order they were (Output last: it is
        /// complete once the run ends).
        let written: [String]
    }

    let steps: [Tape.Step]
    let tapeName: String
    /// `--state DIR` and the other store options, for the storefront and for `Store` steps.
    let storeArguments: [String]
    /// `--scenario`, which wins over the tape's `Scenario` line.
    var scenario: String? = nil

    func run() throws -> Outcome {
        var scenario = self.scenario
        var columns = 80
        var rows = 24
        var environment = [
            "TERM": "xterm-256color", "LANG": ProcessInfo.processInfo.environment["LANG"] ?? "C.UTF-8",
            SideChannel.variable: String(SideChannel.childDescriptor), SideChannel.screensVariable: "1",
            SideChannel.commandsVariable: String(SideChannel.commandsDescriptor),
        ]
        var outputPath: String?
        for step in steps {
            switch step.command {
            case .setWidth(let value): columns = value
            case .setHeight(let value): rows = value
            case .env(let name, let value): environment[name] = value
            case .output(let path): outputPath = path
            case .scenario(let name): scenario = scenario ?? name
            case .require(let program) where !Self.onPath(program):
                return Outcome(
                    failure: TapeRun.Failure(step: step, message: "\(program) is not on PATH", screen: ""), written: [])
            default: break
            }
        }
        let executable = StorefrontChild.executable
        let output = try outputPath.map { path in
            try AsciicastWriter(
                url: URL(fileURLWithPath: path),
                header: .init(
                    width: columns, height: rows, timestamp: Int(Date().timeIntervalSince1970),
                    title: "Storefront: \((tapeName as NSString).lastPathComponent)",
                    environment: [
                        "TERM": "xterm-256color", "SHELL": ProcessInfo.processInfo.environment["SHELL"] ?? "/bin/sh",
                    ]), fresh: true)
        }
        var events: [Int32] = [0, 0]
        var commands: [Int32] = [0, 0]
        guard pipe(&events) == 0, pipe(&commands) == 0 else {
            throw CommandFailure.failure("cannot make a pipe for the storefront's side channel")
        }
        for descriptor in events + commands { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        let child = try PseudoTerminal(
            arguments: [executable] + storeArguments + ChildStoreOptions.scenarioArguments(scenario), columns: columns,
            rows: rows,
            environment: environment, extraDescriptors: [events[1], commands[0]])
        close(events[1])
        close(commands[0])
        defer {
            close(events[0])
            close(commands[1])
        }
        let storeArguments = storeArguments
        let run = TapeRun(
            child: child, events: events[0], commands: commands[1], output: output,
            manage: { arguments in try Self.manage(executable: executable, arguments + storeArguments) },
            facts: { try StoreFactsReader.read(executable: executable, storeArguments: storeArguments) })
        var failure: TapeRun.Failure?
        do {
            try run.run(steps)
        } catch let stepFailure as TapeRun.Failure {
            failure = stepFailure
        }
        stop(child, run)
        try output?.close()
        return Outcome(failure: failure, written: run.screenshots + (outputPath.map { [$0] } ?? []))
    }

    /// SIGTERM, as a person's Ctrl+C would end it; SIGKILL if it has not gone in 10 s.
    private func stop(_ child: PseudoTerminal, _ run: TapeRun) {
        child.terminate()
        let deadline = ContinuousClock.now + .seconds(10)
        while child.exitStatus(wait: false) == nil {
            guard ContinuousClock.now < deadline else {
                kill(child.pid, SIGKILL)
                _ = child.exitStatus(wait: true)
                return
            }
            run.pump(milliseconds: 20)
        }
    }

    static func manage(executable: String, _ arguments: [String]) throws {
        let (status, errors) = try StorefrontChild.run([executable, "manage"] + arguments)
        guard status == 0 else {
            throw CommandFailure.failure("storefront manage \(arguments.joined(separator: " ")) failed: \(errors)")
        }
    }

    static func onPath(_ program: String) -> Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/\(program)")
        }
    }
}
