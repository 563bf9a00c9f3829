import Foundation
import ServerRecords

/// Apple's performance test of a Get Retention Message endpoint: a number of real-time requests,
/// some at once, each answered in time with a `RealtimeResponseBody` or counted as a failure.
/// Apple publishes only the response time (about 700 ms); the other parameters are this server's.
enum RetentionPerformance {
    static let config = PerformanceTestConfig(
        maxConcurrentRequests: 5, totalRequests: 50, totalDuration: 10 * 700,
        responseTimeThreshold: Int64(RealtimeCall.timeout / .milliseconds(1)), successRateThreshold: 90)

    /// Sends every request of the test and returns its result.
    static func run(
        _ service: StoreService, url: String, originalTransactionId: String, productId: String
    ) async -> PerformanceTestResultResponse {
        let outcomes = await RealtimeCall.withClient { client in
            await withTaskGroup(of: RealtimeCall.Outcome.self) { group in
                var outcomes: [RealtimeCall.Outcome] = []
                for index in 0..<config.totalRequests {
                    if index >= config.maxConcurrentRequests, let done = await group.next() { outcomes.append(done) }
                    let payload = service.signedRealtimeRequest(
                        originalTransactionId: originalTransactionId, productId: productId, locale: "en-US")
                    group.addTask { await RealtimeCall.send(payload, to: url, client: client) }
                }
                for await done in group { outcomes.append(done) }
                return outcomes
            }
        }
        return result(outcomes, target: url)
    }

    static func result(_ outcomes: [RealtimeCall.Outcome], target: String) -> PerformanceTestResultResponse {
        let succeeded = outcomes.filter { $0.result == .success }.count
        let rate = outcomes.isEmpty ? 0 : succeeded * 100 / outcomes.count
        var failures: [String: Int] = [:]
        for outcome in outcomes where outcome.result != .success { failures[outcome.result.rawValue, default: 0] += 1 }
        let times = outcomes.map { $0.latency / .milliseconds(1) }.map { Int64($0.rounded()) }.sorted()
        return PerformanceTestResultResponse(
            config: config, target: target, result: rate >= config.successRateThreshold ? "PASS" : "FAIL",
            successRate: rate, numPending: 0, responseTimes: responseTimes(times),
            failures: failures.isEmpty ? nil : failures)
    }

    /// Nearest-rank percentiles of sorted latencies in milliseconds.
    static func responseTimes(_ sorted: [Int64]) -> PerformanceTestResultResponse.ResponseTimes? {
        guard !sorted.isEmpty else { return nil }
        func percentile(_ p: Int) -> Int64 { sorted[max(0, (sorted.count * p + 99) / 100 - 1)] }
        return .init(
            average: sorted.reduce(0, +) / Int64(sorted.count), p50: percentile(50), p90: percentile(90),
            p95: percentile(95), p99: percentile(99))
    }

    /// The answer for a test still running.
    static func pending(target: String) -> PerformanceTestResultResponse {
        PerformanceTestResultResponse(
            config: config, target: target, result: "PENDING", successRate: nil, numPending: config.totalRequests,
            responseTimes: nil, failures: nil)
    }
}
