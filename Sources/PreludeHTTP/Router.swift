import Dispatch

/// A synchronous request handler. It may block briefly (for example on a SQLite write);
/// the server must keep other connections moving while it does.
public typealias HTTPHandler = @Sendable (HTTPRequest) throws -> HTTPResponse

/// Delivers the outcome of a deferred handler: a response, or an error rendered as a synchronous handler's
/// thrown error would be (``HTTPResponseError``s render themselves, anything else becomes a 500).
public typealias HTTPCompletion = @Sendable (Result<HTTPResponse, any Error>) -> Void

/// A request handler that answers later, from any thread: it returns at once and calls the completion exactly
/// once when the response is ready (for example when a group commit that holds its write has finished). While
/// it waits, no thread is blocked on its behalf. Throwing instead of calling the completion answers at once.
public typealias HTTPDeferredHandler = @Sendable (HTTPRequest, _ completion: @escaping HTTPCompletion) throws -> Void

/// Per-route settings.
public struct RouteOptions: Sendable {
    /// Largest accepted request body for this route, in bytes; nil uses the server's default.
    public var maxBodySize: Int?
    /// Run the handler on the event-loop thread instead of the worker pool. Only for handlers that never
    /// block and finish in microseconds (serving prepared bytes): it saves two thread hand-offs per request,
    /// but a slow inline handler stalls every connection on that loop.
    public var runsInline: Bool

    /// Creates route options.
    public init(maxBodySize: Int? = nil, runsInline: Bool = false) {
        self.maxBodySize = maxBodySize
        self.runsInline = runsInline
    }
}

/// Maps method and path to handlers. Patterns are literal segments and `{name}` captures,
/// e.g. `/v1/apps/{app}/policy`. Literal segments win over captures.
public struct Router: Sendable {
    /// A registered route.
    public struct Route: Sendable {
        /// The method this route answers.
        public let method: HTTPMethod
        /// The pattern as registered, also used as the route label in logs and metrics.
        public let pattern: String
        /// Per-route settings.
        public let options: RouteOptions
        /// The handler. For a deferred route, a synchronous adapter that waits for its completion (for tests and
        /// callers outside the engine; the engine itself calls `deferredHandler` and does not wait).
        public let handler: HTTPHandler
        /// The deferred handler, for routes added with ``Router/addDeferred(_:_:options:_:)``.
        public let deferredHandler: HTTPDeferredHandler?
        let segments: [Segment]
    }

    enum Segment: Sendable, Equatable {
        case literal(String)
        case capture(String)
    }

    /// The outcome of looking a request up.
    public enum Match: Sendable {
        /// A route matched; the parameters hold the captured segments.
        case found(Route, parameters: [String: String])
        /// The path exists but not for this method; `allowed` lists the methods that do (for `Allow`).
        case methodNotAllowed(allowed: [HTTPMethod])
        /// No route has this path.
        case notFound
    }

    /// The registered routes, in registration order.
    public private(set) var routes: [Route] = []
    /// Routes made only of literal segments, by canonical path (`/a/b`): the common case is found with one
    /// hash lookup instead of splitting the path into an array of segments.
    private var literalRoutes: [String: [Route]] = [:]
    /// What matching needs of each route, in `routes` order, with literal segments as UTF-8: a path is matched on
    /// its bytes in place, without copying `Route` values (handler and strings retained and released per route
    /// tried) or splitting the path into new strings.
    private var matchers: [Matcher] = []

    private struct Matcher: Sendable {
        let method: HTTPMethod
        /// Per segment, the literal (nil for a capture).
        let literals: [Literal?]
        let literalCount: Int
    }

    /// A literal segment. Bytes decide for ASCII on both sides; otherwise `String` equality (canonical
    /// equivalence: "e" + combining acute equals "é", and the Kelvin sign equals "K") decides, as it always has.
    private final class Literal: Sendable {
        let text: String
        let utf8: [UInt8]
        let isASCII: Bool

        init(_ text: String) {
            self.text = text
            utf8 = Array(text.utf8)
            isASCII = utf8.allSatisfy { $0 < 0x80 }
        }

        func equals(_ part: UnsafeBufferPointer<UInt8>, partIsASCII: Bool) -> Bool {
            guard isASCII && partIsASCII else { return text == String(decoding: part, as: UTF8.self) }
            guard utf8.count == part.count else { return false }
            for index in 0..<part.count where utf8[index] != part[index] { return false }
            return true
        }
    }

    /// Creates an empty router.
    public init() {}

    /// Registers a handler for a method and path pattern.
    public mutating func add(
        _ method: HTTPMethod, _ pattern: String, options: RouteOptions = RouteOptions(),
        _ handler: @escaping HTTPHandler
    ) {
        register(method, pattern, options: options, handler: handler, deferredHandler: nil)
    }

    /// Registers a deferred handler (``HTTPDeferredHandler``) for a method and path pattern. It is started on
    /// the worker pool (or inline with `runsInline`) and the connection waits for its completion without
    /// holding a thread.
    public mutating func addDeferred(
        _ method: HTTPMethod, _ pattern: String, options: RouteOptions = RouteOptions(),
        _ handler: @escaping HTTPDeferredHandler
    ) {
        let waiting: HTTPHandler = { request in
            let outcome = PosixLock<Result<HTTPResponse, any Error>?>(nil)
            let done = DispatchSemaphore(value: 0)
            try handler(request) { result in
                outcome.withLock { $0 = result }
                done.signal()
            }
            done.wait()
            return try outcome.withLock { $0 }!.get()
        }
        register(method, pattern, options: options, handler: waiting, deferredHandler: handler)
    }

    private mutating func register(
        _ method: HTTPMethod, _ pattern: String, options: RouteOptions, handler: @escaping HTTPHandler,
        deferredHandler: HTTPDeferredHandler?
    ) {
        let segments = Self.split(pattern).map { part -> Segment in
            if part.hasPrefix("{") && part.hasSuffix("}") && part.count > 2 {
                return .capture(String(part.dropFirst().dropLast()))
            }
            return .literal(part)
        }
        precondition(
            !routes.contains { $0.method == method && $0.segments == segments }, "duplicate route \(method) \(pattern)")
        let route = Route(
            method: method, pattern: pattern, options: options, handler: handler, deferredHandler: deferredHandler,
            segments: segments)
        routes.append(route)
        let literals = segments.map { segment -> Literal? in
            if case .literal(let text) = segment { Literal(text) } else { nil }
        }
        matchers.append(
            Matcher(method: method, literals: literals, literalCount: literals.count { $0 != nil }))
        if segments.allSatisfy({ if case .literal = $0 { true } else { false } }) {
            let path = "/" + segments.map { if case .literal(let s) = $0 { s } else { "" } }.joined(separator: "/")
            literalRoutes[path, default: []].append(route)
        }
    }

    /// Finds the route for a method and decoded path. HEAD falls back to GET.
    public func match(method: HTTPMethod, path: String) -> Match {
        // Fast path: a canonical path (no empty segment) with a literal route for exactly this method. Such a
        // route has the most literal segments possible and is unique per method, so the full scan would pick it.
        if Self.isCanonical(path), let candidates = literalRoutes[path] {
            for route in candidates where route.method == method { return .found(route, parameters: [:]) }
        }
        var path = path
        return path.withUTF8 { match(method: method, bytes: $0) }
    }

    /// The scan over every route, on the path's UTF-8 bytes. Segments are the non-empty runs between slashes
    /// (a `/` byte never occurs inside a multi-byte UTF-8 character).
    private func match(method: HTTPMethod, bytes: UnsafeBufferPointer<UInt8>) -> Match {
        var count = 0
        var isASCII = true
        var previous = UInt8(ascii: "/")
        for byte in bytes {
            if byte >= 0x80 { isASCII = false }
            if byte != UInt8(ascii: "/") && previous == UInt8(ascii: "/") { count += 1 }
            previous = byte
        }
        return withUnsafeTemporaryAllocation(of: Range<Int>.self, capacity: count) { parts -> Match in
            var filled = 0
            var start = -1
            for position in 0...bytes.count {
                if position == bytes.count || bytes[position] == UInt8(ascii: "/") {
                    if start >= 0 {
                        parts.initializeElement(at: filled, to: start..<position)
                        filled += 1
                        start = -1
                    }
                } else if start < 0 {
                    start = position
                }
            }
            // Range<Int> is trivial: nothing to deinitialize when the allocation goes.

            func binds(_ matcher: Matcher) -> Bool {
                guard matcher.literals.count == count else { return false }
                for (offset, literal) in matcher.literals.enumerated() {
                    if let literal,
                        !literal.equals(UnsafeBufferPointer(rebasing: bytes[parts[offset]]), partIsASCII: isASCII)
                    {
                        return false
                    }
                }
                return true
            }

            var best: (index: Int, literals: Int)?
            for index in matchers.indices {
                let matcher = matchers[index]
                guard binds(matcher) else { continue }
                guard matcher.method == method || (method == .head && matcher.method == .get) else { continue }
                // Prefer the exact method over the HEAD→GET fallback, then more literal segments.
                if let current = best {
                    let currentExact = matchers[current.index].method == method
                    let candidateExact = matcher.method == method
                    if currentExact && !candidateExact { continue }
                    if currentExact == candidateExact && current.literals >= matcher.literalCount { continue }
                }
                best = (index, matcher.literalCount)
            }
            if let best {
                var parameters: [String: String] = [:]
                for (offset, segment) in routes[best.index].segments.enumerated() {
                    if case .capture(let name) = segment {
                        parameters[name] = String(
                            decoding: UnsafeBufferPointer(rebasing: bytes[parts[offset]]), as: UTF8.self)
                    }
                }
                return .found(routes[best.index], parameters: parameters)
            }
            // No route for this method: which methods the path has, in registration order (for 405's Allow).
            var allowed: [HTTPMethod] = []
            for matcher in matchers where binds(matcher) && !allowed.contains(matcher.method) {
                allowed.append(matcher.method)
            }
            if allowed.isEmpty { return .notFound }
            if allowed.contains(.get) && !allowed.contains(.head) { allowed.append(.head) }
            return .methodNotAllowed(allowed: allowed)
        }
    }

    /// `/` or `/seg/seg` without empty segments: what `split` followed by joining would give back unchanged.
    private static func isCanonical(_ path: String) -> Bool {
        var previousSlash = false
        var first = true
        for b in path.utf8 {
            let slash = b == UInt8(ascii: "/")
            if first {
                guard slash else { return false }
                first = false
            } else if slash && previousSlash {
                return false
            }
            previousSlash = slash
        }
        return !first && (!previousSlash || path.utf8.count == 1)
    }

    private static func split(_ path: String) -> [String] {
        path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    }
}
