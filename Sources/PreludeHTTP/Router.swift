import Dispatch
import PreludeLocking

#if canImport(Glibc)
    import Glibc
#endif

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
    ///
    /// One reference to shared, immutable storage: copying a route (into a match, a decision, a request's
    /// dispatch) retains one object instead of each of its strings and closures.
    public struct Route: Sendable {
        private let storage: Storage

        /// The method this route answers.
        public var method: HTTPMethod { storage.method }
        /// The pattern as registered, also used as the route label in logs and metrics.
        public var pattern: String { storage.pattern }
        /// Per-route settings.
        public var options: RouteOptions { storage.options }
        /// The handler. For a deferred route, a synchronous adapter that waits for its completion (for tests and
        /// callers outside the engine; the engine itself calls `deferredHandler` and does not wait).
        public var handler: HTTPHandler { storage.handler }
        /// The deferred handler, for routes added with ``Router/addDeferred(_:_:options:_:)``.
        public var deferredHandler: HTTPDeferredHandler? { storage.deferredHandler }
        var segments: [Segment] { storage.segments }

        init(
            method: HTTPMethod, pattern: String, options: RouteOptions, handler: @escaping HTTPHandler,
            deferredHandler: HTTPDeferredHandler?, segments: [Segment]
        ) {
            storage = Storage(
                method: method, pattern: pattern, options: options, handler: handler,
                deferredHandler: deferredHandler, segments: segments)
        }

        private final class Storage: Sendable {
            let method: HTTPMethod
            let pattern: String
            let options: RouteOptions
            let handler: HTTPHandler
            let deferredHandler: HTTPDeferredHandler?
            let segments: [Segment]

            init(
                method: HTTPMethod, pattern: String, options: RouteOptions, handler: @escaping HTTPHandler,
                deferredHandler: HTTPDeferredHandler?, segments: [Segment]
            ) {
                self.method = method
                self.pattern = pattern
                self.options = options
                self.handler = handler
                self.deferredHandler = deferredHandler
                self.segments = segments
            }
        }
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

    // What matching needs, as flat tables of plain values (no reference is retained or released while a path is
    // matched): a route can only match a path with as many segments as it has, so routes are grouped by segment
    // count (`buckets[n]` is the range of `matchers` with n segments, in registration order), and each matcher's
    // segments are a run of `segmentTable`, whose literals are runs of `literalBytes`.

    /// The distinct methods of the routes, in order of first registration; matchers refer to them by index.
    private var methods: [HTTPMethod] = []
    /// Per entry of `methods`, its ``methodKey(_:)``.
    private var methodKeys: [UInt64] = []
    /// Matchers sorted by segment count, registration order within a count.
    private var matchers: [Matcher] = []
    /// Per segment count, the range of `matchers` with that many segments.
    private var buckets: [Range<Int>] = []
    /// Every route's segments, one run per route.
    private var segmentTable: [SegmentEntry] = []
    /// The UTF-8 of every literal segment.
    private var literalBytes: [UInt8] = []
    /// Per entry of `segmentTable`, the literal's text or the capture's name (for String equality and parameters).
    private var segmentTexts: [String] = []

    private struct Matcher: Sendable {
        /// Index in `routes`.
        let route: Int
        /// Index in `methods`.
        let method: Int
        /// The route's run in `segmentTable`.
        let firstSegment: Int
        let literalCount: Int
        let captureCount: Int
        /// True when a route of another method with more literal segments may match the same paths (`POST
        /// /rollouts/simulate` beside `GET /rollouts/{id}`): then a literal segment wins over this route's capture,
        /// as in a trie router, and `GET /rollouts/simulate` is 405 rather than a lookup of rollout "simulate".
        var mayBeShadowed = false
    }

    /// A literal segment (its bytes in `literalBytes`) or a capture (`isCapture`). Bytes decide for ASCII on both
    /// sides; otherwise `String` equality (canonical equivalence: "e" + combining acute equals "é", and the Kelvin
    /// sign equals "K") decides, as it always has.
    private struct SegmentEntry: Sendable {
        let isCapture: Bool
        let isASCII: Bool
        let start: Int
        let count: Int
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
        routes.append(
            Route(
                method: method, pattern: pattern, options: options, handler: handler, deferredHandler: deferredHandler,
                segments: segments))
        rebuildTables()
    }

    /// Rebuilds the matching tables from `routes` (registration happens once, at startup).
    private mutating func rebuildTables() {
        methods = []
        methodKeys = []
        matchers = []
        buckets = []
        segmentTable = []
        literalBytes = []
        segmentTexts = []
        let longest = routes.map(\.segments.count).max() ?? 0
        for count in 0...longest {
            let first = matchers.count
            for (index, route) in routes.enumerated() where route.segments.count == count {
                let methodIndex: Int
                if let known = methods.firstIndex(of: route.method) {
                    methodIndex = known
                } else {
                    methodIndex = methods.count
                    methods.append(route.method)
                    methodKeys.append(Self.methodKey(route.method))
                }
                let firstSegment = segmentTable.count
                var literals = 0
                for segment in route.segments {
                    switch segment {
                    case .literal(let text):
                        let utf8 = Array(text.utf8)
                        segmentTable.append(
                            SegmentEntry(
                                isCapture: false, isASCII: utf8.allSatisfy { $0 < 0x80 }, start: literalBytes.count,
                                count: utf8.count))
                        literalBytes.append(contentsOf: utf8)
                        segmentTexts.append(text)
                        literals += 1
                    case .capture(let name):
                        segmentTable.append(SegmentEntry(isCapture: true, isASCII: true, start: 0, count: 0))
                        segmentTexts.append(name)
                    }
                }
                matchers.append(
                    Matcher(
                        route: index, method: methodIndex, firstSegment: firstSegment, literalCount: literals,
                        captureCount: count - literals))
            }
            buckets.append(first..<matchers.count)
        }
        for index in matchers.indices {
            let matcher = matchers[index]
            matchers[index].mayBeShadowed = matchers.contains { other in
                other.method != matcher.method && other.literalCount > matcher.literalCount
                    && routes[other.route].segments.count == routes[matcher.route].segments.count
                    && zip(routes[other.route].segments, routes[matcher.route].segments).allSatisfy { longer, segment in
                        if case .literal(let text) = segment { return longer == .literal(text) }
                        return true
                    }
            }
        }
    }

    /// Finds the route for a method and decoded path. HEAD falls back to GET.
    public func match(method: HTTPMethod, path: String) -> Match {
        switch lookup(method: method, path: path) {
        case .found(let route, let parameters): .found(route, parameters: parameters.dictionary)
        case .methodNotAllowed(let allowed): .methodNotAllowed(allowed: allowed)
        case .notFound: .notFound
        }
    }

    /// What ``match(method:path:)`` finds, with the captures as ``PathParameters`` (no dictionary is built).
    package enum Lookup: Sendable {
        /// A route matched, with the values of its `{name}` segments.
        case found(Route, PathParameters)
        /// The path exists but not for this method; `allowed` lists the methods that do.
        case methodNotAllowed([HTTPMethod])
        /// No route has this path.
        case notFound
    }

    /// Finds the route for a method and decoded path, as ``match(method:path:)`` does. HEAD falls back to GET.
    package func lookup(method: HTTPMethod, path: String) -> Lookup {
        var path = path
        return path.withUTF8 { lookup(method: method, bytes: $0) }
    }

    /// The scan over the routes with as many segments as the path, on the path's UTF-8 bytes. Segments are the
    /// non-empty runs between slashes (a `/` byte never occurs inside a multi-byte UTF-8 character).
    private func lookup(method: HTTPMethod, bytes: UnsafeBufferPointer<UInt8>) -> Lookup {
        let (exact, fallback) = methodIndices(method)
        // A path with more segments than the longest route matches nothing: one more than that is all the room
        // the segments need.
        guard !buckets.isEmpty else { return .notFound }
        let mostSegments = buckets.count - 1
        return withUnsafeTemporaryAllocation(of: Range<Int>.self, capacity: mostSegments + 1) { parts -> Lookup in
            // Range<Int> is trivial: nothing to deinitialize when the allocation goes.
            guard let (segmentCount, pathIsASCII) = Self.split(bytes, into: parts, most: mostSegments),
                !buckets[segmentCount].isEmpty
            else { return .notFound }
            let bucket = buckets[segmentCount]

            return segmentTable.withUnsafeBufferPointer { table in
                literalBytes.withUnsafeBufferPointer { literals in
                    func binds(_ matcher: Matcher) -> Bool {
                        for offset in 0..<segmentCount {
                            let entry = table[matcher.firstSegment + offset]
                            if entry.isCapture { continue }
                            let part = parts[offset]
                            if entry.isASCII && pathIsASCII {
                                guard entry.count == part.count,
                                    memcmp(
                                        literals.baseAddress! + entry.start, bytes.baseAddress! + part.lowerBound,
                                        entry.count) == 0
                                else { return false }
                            } else if segmentTexts[matcher.firstSegment + offset]
                                != String(decoding: UnsafeBufferPointer(rebasing: bytes[part]), as: UTF8.self)
                            {
                                return false
                            }
                        }
                        return true
                    }

                    var best = -1
                    var bestExact = false
                    var bestLiterals = 0
                    for index in bucket {
                        let matcher = matchers[index]
                        let candidateExact = matcher.method == exact
                        guard candidateExact || matcher.method == fallback else { continue }
                        // Prefer the exact method over the HEAD→GET fallback, then more literal segments, then the
                        // first registered.
                        if best >= 0 {
                            if bestExact && !candidateExact { continue }
                            if bestExact == candidateExact && bestLiterals >= matcher.literalCount { continue }
                        }
                        guard binds(matcher) else { continue }
                        best = index
                        bestExact = candidateExact
                        bestLiterals = matcher.literalCount
                    }
                    if best >= 0, matchers[best].mayBeShadowed {
                        // A route of another method with more literals matches: its path it is, not this capture.
                        var most = matchers[best].literalCount
                        var allowed: [HTTPMethod] = []
                        for index in bucket where matchers[index].literalCount >= most && binds(matchers[index]) {
                            if matchers[index].literalCount > most {
                                most = matchers[index].literalCount
                                allowed = []
                            }
                            let method = methods[matchers[index].method]
                            if !allowed.contains(method) { allowed.append(method) }
                        }
                        // HEAD's GET fallback counts as this method: an exact HEAD capture keeps winning over it.
                        let fallbackMatches = fallback >= 0 && allowed.contains(methods[fallback])
                        if most > matchers[best].literalCount && !fallbackMatches {
                            if allowed.contains(.get) && !allowed.contains(.head) { allowed.append(.head) }
                            return .methodNotAllowed(allowed)
                        }
                    }
                    if best >= 0 {
                        let matcher = matchers[best]
                        return .found(
                            routes[matcher.route],
                            captures(of: matcher, table: table, parts: parts, count: segmentCount, in: bytes))
                    }
                    // No route for this method: which methods the path has, in registration order (for 405's Allow).
                    var allowed: [HTTPMethod] = []
                    for index in bucket where binds(matchers[index]) {
                        let method = methods[matchers[index].method]
                        if !allowed.contains(method) { allowed.append(method) }
                    }
                    if allowed.isEmpty { return .notFound }
                    if allowed.contains(.get) && !allowed.contains(.head) { allowed.append(.head) }
                    return .methodNotAllowed(allowed)
                }
            }
        }
    }

    /// The request's method as an index into `methods` (-1: no route has it), and GET's for the HEAD fallback.
    /// Methods are compared as packed bytes when both are short ASCII tokens (always, from the parser), else as
    /// strings.
    @inline(__always) private func methodIndices(_ method: HTTPMethod) -> (exact: Int, fallback: Int) {
        var exact = -1
        var fallback = -1
        let key = Self.methodKey(method)
        let isHead = key == Self.headKey
        for index in 0..<methods.count {
            let known = methodKeys[index]
            if key != 0 && known != 0 ? known == key : methods[index] == method { exact = index }
            if isHead && known == Self.getKey { fallback = index }
        }
        return (exact, fallback)
    }

    /// The path's segments (the non-empty runs between slashes) written to `parts`, and whether the path is ASCII,
    /// in one pass; nil when it has more than `most` segments.
    @inline(__always) private static func split(
        _ bytes: UnsafeBufferPointer<UInt8>, into parts: UnsafeMutableBufferPointer<Range<Int>>, most: Int
    ) -> (count: Int, isASCII: Bool)? {
        var filled = 0
        var start = -1
        var high: UInt8 = 0
        for position in 0...bytes.count {
            if position == bytes.count || bytes[position] == UInt8(ascii: "/") {
                if start >= 0 {
                    guard filled < most else { return nil }
                    parts.initializeElement(at: filled, to: start..<position)
                    filled += 1
                    start = -1
                }
            } else {
                high |= bytes[position]
                if start < 0 { start = position }
            }
        }
        return (filled, high < 0x80)
    }

    /// The values of `matcher`'s `{name}` segments in the path.
    @inline(__always) private func captures(
        of matcher: Matcher, table: UnsafeBufferPointer<SegmentEntry>, parts: UnsafeMutableBufferPointer<Range<Int>>,
        count: Int, in bytes: UnsafeBufferPointer<UInt8>
    ) -> PathParameters {
        var parameters = PathParameters()
        guard matcher.captureCount > 0 else { return parameters }
        for offset in 0..<count where table[matcher.firstSegment + offset].isCapture {
            parameters.append(
                name: segmentTexts[matcher.firstSegment + offset],
                value: String(decoding: UnsafeBufferPointer(rebasing: bytes[parts[offset]]), as: UTF8.self))
        }
        return parameters
    }

    /// A method token of 1 to 8 ASCII bytes (no NUL) packed into an integer, so that equal keys mean equal
    /// methods; 0 for any other method (compared as strings).
    private static func methodKey(_ method: HTTPMethod) -> UInt64 {
        var raw = method.rawValue
        return raw.withUTF8 { bytes -> UInt64 in
            guard bytes.count <= 8 else { return 0 }
            var key: UInt64 = 0
            for index in 0..<bytes.count {
                let byte = bytes[index]
                guard byte != 0, byte < 0x80 else { return 0 }
                key |= UInt64(byte) << UInt64(index * 8)
            }
            return key
        }
    }

    private static let getKey: UInt64 = 0x54_45_47  // "GET"
    private static let headKey: UInt64 = 0x44_41_45_48  // "HEAD"

    private static func split(_ path: String) -> [String] {
        path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    }
}
