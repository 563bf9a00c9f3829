import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
import Synchronization

/// What every connection of one server shares: how many connections are served, and how many
/// bytes of request bodies are held for requests not yet answered.
final class ServerLoad: Sendable {
    let limits: ConnectionLimits
    /// The largest body a route reads. A request declaring more is refused by its route (413)
    /// without being read, so it needs no room here.
    let largestBody: Int
    let logger: Logger
    private let counts = Mutex((connections: 0, bufferedBytes: 0))

    init(limits: ConnectionLimits, largestBody: Int, logger: Logger) {
        self.limits = limits
        self.largestBody = largestBody
        self.logger = logger
    }

    /// True, and counted, when the connection is within `maxConnections`.
    func admitConnection() -> Bool {
        counts.withLock { counts in
            guard counts.connections < limits.maxConnections else { return false }
            counts.connections += 1
            return true
        }
    }

    func connectionClosed() {
        counts.withLock { $0.connections -= 1 }
    }

    /// True, and counted, when `bytes` more stay within `maxBufferedBody`.
    func reserve(_ bytes: Int) -> Bool {
        counts.withLock { counts in
            guard counts.bufferedBytes + bytes <= limits.maxBufferedBody else { return false }
            counts.bufferedBytes += bytes
            return true
        }
    }

    func release(_ bytes: Int) {
        guard bytes > 0 else { return }
        counts.withLock { $0.bufferedBytes -= bytes }
    }

    func hasRoom(for bytes: Int) -> Bool {
        counts.withLock { $0.bufferedBytes + bytes <= limits.maxBufferedBody }
    }
}

/// The answers a connection gets when a limit is reached, in the API's error shape.
extension APIError {
    static func requestTimeout(_ limits: ConnectionLimits) -> APIError {
        APIError(
            status: .requestTimeout, code: "request_timeout",
            message:
                "the request did not arrive in full within \(LimitText.describe(limits.requestTimeout)) of its first byte (the server's --request-timeout); send it again, all at once"
        )
    }

    static func tooManyConnections(_ limits: ConnectionLimits) -> APIError {
        .unavailable(
            "the server is at its limit of open connections (--max-connections \(limits.maxConnections)); retry in a moment, or reuse an open connection"
        )
    }

    static func tooManyBodies(_ limits: ConnectionLimits) -> APIError {
        .unavailable(
            "the server is at its limit of request bodies held for requests not yet answered (--max-buffered-body \(LimitText.describe(bytes: limits.maxBufferedBody))); retry in a moment"
        )
    }

    static let shuttingDown = APIError.unavailable("the server is shutting down; retry")
}

/// Holds one connection to the server's limits. It sits between the HTTP/1 decoder and
/// Hummingbird, so it sees each request's head, body and end before the routes do, and each
/// response on its way out:
///
/// - a request must arrive in full within `requestTimeout` of its first byte (`ByteWatcher`
///   reports that byte); a head still incomplete then is answered 408 here, a body still
///   incomplete is failed with 408 under the route reading it;
/// - a connection beyond `maxConnections`, or a request whose declared body has no room in
///   `maxBufferedBody`, is answered 503 here, without reaching a route;
/// - body bytes are counted against `maxBufferedBody` until the request is answered; a chunked
///   body that outgrows the room is failed with 503 under its route;
/// - on graceful shutdown a body still arriving is failed with 503, and the connection is closed
///   `shutdownGrace` later whatever it is doing.
///
/// A request failed under its route gets the route's answer (the error middleware renders the
/// error), then the connection is closed, since the rest of that body will not be read.
///
/// A large answer (a catalog of megabytes) is still going out long after the routes handed it
/// over: Hummingbird counts a connection idle from then, and its idle timeout would cut the
/// answer off under a slow reader. A close asked for while one is going out waits for it, as
/// long as the reader keeps taking bytes within each `idleTimeout`.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// Where the request being read is.
    private enum Reading {
        case waiting  // between requests
        case head  // bytes of a head have come, not all of it
        case body  // the head went to the routes, the body is still coming
        case discarding  // the routes were told this body will not come; what comes is dropped
        case refusing  // this guard answered and is closing: everything is dropped
    }

    private let load: ServerLoad
    private var admitted = false
    private var reading = Reading.waiting
    private var context: ChannelHandlerContext?
    private var deadline: Scheduled<Void>?
    private var closing: Scheduled<Void>?
    /// Body bytes counted for the requests the routes have not answered yet.
    private var held = 0
    private var unanswered = 0
    private var quiescing = false
    private var closeAfterAnswer = false
    /// Body bytes of the answer being written, and the large answers not yet all on the socket.
    private var answerBytes = 0
    private var draining = 0
    /// A close asked for while `draining`, done once the answers are out or the reader stalls.
    private var deferredClose: EventLoopPromise<Void>?
    private var drainCheck: Scheduled<Void>?

    /// An answer larger than this may outlast a socket's buffers; smaller ones go out at once.
    static let largeAnswer = 256 * 1024

    init(load: ServerLoad) {
        self.load = load
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        admitted = load.admitConnection()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        closing?.cancel()
        drainCheck?.cancel()
        load.release(held)
        held = 0
        if admitted { load.connectionClosed() }
        admitted = false
        self.context = nil
    }

    /// Called by `ByteWatcher` for every read; false: drop the bytes before they are decoded.
    func bytesArrived() -> Bool {
        switch reading {
        case .waiting:
            reading = .head
            armDeadline()
        case .refusing:
            return false
        case .head, .body, .discarding:
            break
        }
        return true
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch (reading, unwrapInboundIn(data)) {
        case (.refusing, _), (.discarding, _):
            return
        case (_, .head(let head)):
            receivedHead(head, data, context: context)
        case (_, .body(let buffer)):
            receivedBody(buffer.readableBytes, data, context: context)
        case (_, .end):
            deadline?.cancel()
            reading = .waiting
            context.fireChannelRead(data)
        }
    }

    private func receivedHead(_ head: HTTPRequestHead, _ data: NIOAny, context: ChannelHandlerContext) {
        if reading == .waiting { armDeadline() }  // the whole head came in one read
        if let refusal = refusal(for: head) {
            if unanswered > 0 { return closeAfterPendingAnswer() }
            refuse(refusal, to: head, context: context)
            return
        }
        reading = .body
        unanswered += 1
        context.fireChannelRead(data)
    }

    private func refusal(for head: HTTPRequestHead) -> APIError? {
        if !admitted { return .tooManyConnections(load.limits) }
        if quiescing { return .shuttingDown }
        if let length = head.headers.first(name: "content-length").flatMap(Int.init),
            length <= load.largestBody, !load.hasRoom(for: length)
        {
            return .tooManyBodies(load.limits)
        }
        return nil
    }

    private func receivedBody(_ count: Int, _ data: NIOAny, context: ChannelHandlerContext) {
        // Answered already: the rest of the body is being read only to be dropped.
        guard unanswered > 0 else { return context.fireChannelRead(data) }
        guard load.reserve(count) else {
            abort(.tooManyBodies(load.limits), context: context)
            return
        }
        held += count
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard reading != .refusing else {
            promise?.fail(ChannelError.outputClosed)
            return
        }
        switch unwrapOutboundIn(data) {
        case .head(var head) where closeAfterAnswer:
            head.headers.replaceOrAdd(name: "connection", value: "close")
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .body(.byteBuffer(let bytes)):
            answerBytes += bytes.readableBytes
            context.write(data, promise: promise)
        case .end where answerBytes > Self.largeAnswer && !closeAfterAnswer:
            answered()
            answerBytes = 0
            draining += 1
            let written = context.eventLoop.makePromise(of: Void.self)
            written.futureResult.cascade(to: promise)
            written.futureResult.assumeIsolated().whenComplete { _ in self.drained() }
            context.write(data, promise: written)
        case .end:
            answered()
            answerBytes = 0
            guard closeAfterAnswer, unanswered == 0 else { return context.write(data, promise: promise) }
            let written = context.eventLoop.makePromise(of: Void.self)
            written.futureResult.cascade(to: promise)
            context.writeAndFlush(data, promise: written)
            written.futureResult.assumeIsolated().whenComplete { _ in self.linger() }
        default:
            context.write(data, promise: promise)
        }
    }

    /// A close from Hummingbird (its idle timeout, a `Connection: close` request) while a large
    /// answer is still going out waits for it; any other close, or one during shutdown, is done.
    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        guard mode == .all, draining > 0, !quiescing, reading != .refusing else {
            return context.close(mode: mode, promise: promise)
        }
        if let deferredClose {
            promise.map { deferredClose.futureResult.cascade(to: $0) }
        } else {
            deferredClose = promise ?? context.eventLoop.makePromise()
            checkDrain(pendingBefore: bufferedBytes(context))
        }
    }

    /// Every `idleTimeout` while a close waits: the reader took bytes since, so it waits on;
    /// otherwise the reader stalled and the connection closes as idle.
    private func checkDrain(pendingBefore: Int) {
        guard let context else { return }
        drainCheck = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(load.limits.idleTimeout)) {
            guard let context = self.context, let promise = self.deferredClose else { return }
            let pending = self.bufferedBytes(context)
            guard pending < pendingBefore else {
                self.deferredClose = nil
                return context.close(promise: promise)
            }
            self.checkDrain(pendingBefore: pending)
        }
    }

    private func drained() {
        draining -= 1
        guard draining == 0, let context, let promise = deferredClose else { return }
        deferredClose = nil
        drainCheck?.cancel()
        context.close(promise: promise)
    }

    private func bufferedBytes(_ context: ChannelHandlerContext) -> Int {
        (try? context.channel.syncOptions?.getOption(.bufferedWritableBytes)) ?? 0
    }

    private func answered() {
        unanswered = max(unanswered - 1, 0)
        if unanswered == 0 {
            load.release(held)
            held = 0
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        switch event {
        case is ChannelShouldQuiesceEvent:
            quiesce(context: context)
        case ChannelEvent.inputClosed where reading == .refusing:
            context.close(promise: nil)
        default:
            break
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // Once this guard has answered, the connection's leftovers (a body cut short, bytes that
        // do not parse) concern no one.
        guard reading != .refusing, reading != .discarding else { return }
        context.fireErrorCaught(error)
    }

    private func quiesce(context: ChannelHandlerContext) {
        quiescing = true
        let grace = TimeAmount(load.limits.shutdownGrace)
        if closing == nil {
            closing = context.eventLoop.assumeIsolated().scheduleTask(in: grace) { self.context?.close(promise: nil) }
        }
        if reading == .body { abort(.shuttingDown, context: context) }
    }

    private func armDeadline() {
        guard let context else { return }
        deadline?.cancel()
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(load.limits.requestTimeout)) {
            self.requestTimedOut()
        }
    }

    private func requestTimedOut() {
        guard let context else { return }
        switch reading {
        case .head where unanswered == 0:
            refuse(.requestTimeout(load.limits), to: nil, context: context)
        case .head:
            closeAfterPendingAnswer()
        case .body:
            abort(.requestTimeout(load.limits), context: context)
        case .waiting, .discarding, .refusing:
            break
        }
    }

    /// The routes have the request: fail its body under them (their answer is the error's), then
    /// close once it is answered. Already answered (the body was being drained), close now.
    private func abort(_ error: APIError, context: ChannelHandlerContext) {
        deadline?.cancel()
        reading = .discarding
        closeAfterAnswer = true
        load.release(held)
        held = 0
        if unanswered == 0 {
            linger()
        } else {
            context.fireErrorCaught(error)
        }
    }

    /// A request that should be refused came while an earlier one (pipelined) is still being
    /// answered: an answer now would overtake that one. It is dropped instead, and the connection
    /// closes once the earlier answer is out; a client that pipelines sends it again.
    private func closeAfterPendingAnswer() {
        deadline?.cancel()
        reading = .discarding
        closeAfterAnswer = true
    }

    /// Answers `error` here: the request never reaches a route. Logged as the routes log a
    /// request (no query string: it may hold a secret).
    private func refuse(_ error: APIError, to head: HTTPRequestHead?, context: ChannelHandlerContext) {
        deadline?.cancel()
        reading = .refusing
        let request = head.map { "\($0.method.rawValue) \($0.uri.prefix { $0 != "?" }.prefix(200)) " } ?? ""
        load.logger.info("\(request)\(error.status.code) (\(error.message)); connection closed")
        let body = JSONBody.data(error.body)
        var headers = HTTPHeaders([
            ("content-type", "application/json"), ("content-length", String(body.count)), ("connection", "close"),
        ])
        for field in error.headers { headers.add(name: field.name.rawName, value: field.value) }
        let status = HTTPResponseStatus(statusCode: error.status.code)
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
        let written = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: written)
        written.futureResult.assumeIsolated().whenComplete { _ in self.linger() }
    }

    /// Stops sending, drops whatever still comes, and closes when the client closes its side or
    /// after `ConnectionLimits.linger`.
    private func linger() {
        guard let context else { return }
        reading = .refusing
        deadline?.cancel()
        closing?.cancel()
        closing = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(ConnectionLimits.linger)) {
            self.context?.close(promise: nil)
        }
        let halfClosed = context.eventLoop.makePromise(of: Void.self)
        context.close(mode: .output, promise: halfClosed)
        halfClosed.futureResult.assumeIsolated().whenFailure { _ in self.context?.close(promise: nil) }
    }
}

/// Sits first in a connection's pipeline, where bytes arrive before any decoding: tells the
/// guard when a request's first byte comes (its deadline starts there, not when the head is
/// complete), and drops bytes the guard no longer wants.
final class ByteWatcher: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let connectionGuard: ConnectionGuard

    init(_ connectionGuard: ConnectionGuard) {
        self.connectionGuard = connectionGuard
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if connectionGuard.bytesArrived() { context.fireChannelRead(data) }
    }
}

/// Puts `ConnectionGuard` and `ByteWatcher` where they must be, then leaves. Hummingbird adds
/// extra handlers only after its HTTP/1 codec, where requests are already converted; the guard
/// needs NIO's own request parts (right after the decoder) and the watcher the raw bytes (first).
final class ConnectionGuardInstaller: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = Never

    private let load: ServerLoad

    init(load: ServerLoad) {
        self.load = load
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let pipeline = context.pipeline.syncOperations
        do {
            let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            let connectionGuard = ConnectionGuard(load: load)
            try pipeline.addHandler(connectionGuard, position: .after(decoder))
            try pipeline.addHandler(ByteWatcher(connectionGuard), position: .first)
            pipeline.removeHandler(context: context, promise: nil)
        } catch {
            // Serving a connection without its limits would undo them; refusing it is loud.
            load.logger.error(
                "connection closed: the connection limits could not be set up (\(error)); Hummingbird's HTTP/1 pipeline is not what this server expects"
            )
            context.close(promise: nil)
        }
    }
}
