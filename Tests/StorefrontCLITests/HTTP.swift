import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Plain HTTP for the tests (URLSession), answering status, headers and body.
enum HTTP {
    struct Reply: Sendable {
        let status: Int
        let headers: [String: String]
        let body: Data

        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    public static func send(
        _ method: String, _ url: String, body: Data? = nil, headers: [String: String] = [:], timeout: TimeInterval = 30
    ) async throws -> Reply {
        guard let target = URL(string: url) else { throw URLError(.badURL) }
        var request = URLRequest(url: target, timeoutInterval: timeout)
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = response as? HTTPURLResponse
        var fields: [String: String] = [:]
        for (name, value) in http?.allHeaderFields ?? [:] {
            fields[String(describing: name).lowercased()] = String(describing: value)
        }
        return Reply(status: http?.statusCode ?? 0, headers: fields, body: data)
    }

    public static func json(_ method: String, _ url: String, _ text: String, headers: [String: String] = [:])
        async throws
        -> Reply
    {
        try await send(
            method, url, body: Data(text.utf8),
            headers: ["Content-Type": "application/json"].merging(headers) { _, new in new })
    }
}
