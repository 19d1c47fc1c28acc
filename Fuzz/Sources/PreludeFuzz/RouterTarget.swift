// Target `router`: PreludeHTTP's Router, which matches every request's decoded path (percent-decoding lets a client
// put any UTF-8 in it). The input's first byte picks the method, the rest is the path. Besides crashes, the target
// checks that the router chooses what a plain scan over `String` segments chooses: the routes with as many
// segments, the exact method before HEAD→GET, then more literal segments, then the first registered; captures
// bound by name (the last of a repeated name wins); 405 with the methods whose routes bind the path; else 404.
import PreludeHTTP

private let methods: [HTTPMethod] = [.get, .head, .post, .put, .delete, .options, .patch, HTTPMethod(rawValue: "BREW")]

private let patterns: [(HTTPMethod, String)] = [
    (.get, "/v1/apps/{app}/policy"), (.get, "/v1/apps/{app}/policy/document"),
    (.put, "/v1/apps/{app}/policy/document"), (.head, "/v1/apps/{app}/policy/document"),
    (.post, "/v1/apps/{app}/decide"), (.post, "/v1/apps/{app}/events"), (.get, "/v1/apps/demo/special"),
    (.get, "/v1/apps/{app}/special"), (.get, "/"), (.get, "/{x}/{y}/{x}"), (.get, "/caf\u{E9}/{id}"),
    (.get, "/units/Kelvin/{id}"), (.delete, "/v1/admin/apps/{app}/experiments/{key}"), (.get, "/healthz"),
]

private let router: Router = {
    var router = Router()
    for (method, pattern) in patterns { router.add(method, pattern) { _ in HTTPResponse() } }
    return router
}()

/// The non-empty runs between `/` bytes, as strings (a `/` byte never occurs inside a multi-byte character).
private func segments(_ path: String) -> [String] {
    path.utf8.split(separator: UInt8(ascii: "/")).map { String(decoding: $0, as: UTF8.self) }
}

private let routeSegments = patterns.map { segments($0.1) }

private func isCapture(_ segment: String) -> Bool {
    segment.hasPrefix("{") && segment.hasSuffix("}") && segment.count > 2
}

/// The reference: the rules written as a scan over strings.
private func reference(method: HTTPMethod, path: String) -> String {
    let parts = segments(path)
    func binds(_ index: Int) -> Bool {
        let route = routeSegments[index]
        guard route.count == parts.count else { return false }
        return zip(route, parts).allSatisfy { isCapture($0) || $0 == $1 }
    }
    var best: (index: Int, exact: Bool, literals: Int)?
    for index in patterns.indices where binds(index) {
        let exact = patterns[index].0 == method
        guard exact || (method == .head && patterns[index].0 == .get) else { continue }
        let literals = routeSegments[index].filter { !isCapture($0) }.count
        if let chosen = best, chosen.exact && !exact || (chosen.exact == exact && chosen.literals >= literals) {
            continue
        }
        best = (index, exact, literals)
    }
    if let best {
        var captures: [String: String] = [:]
        for (segment, part) in zip(routeSegments[best.index], parts) where isCapture(segment) {
            captures[String(segment.dropFirst().dropLast())] = part
        }
        return describe(patterns[best.index].0, patterns[best.index].1, captures)
    }
    var allowed: [HTTPMethod] = []
    for index in patterns.indices where binds(index) && !allowed.contains(patterns[index].0) {
        allowed.append(patterns[index].0)
    }
    if allowed.isEmpty { return "404" }
    if allowed.contains(.get) && !allowed.contains(.head) { allowed.append(.head) }
    return "405 " + allowed.map(\.rawValue).joined(separator: ",")
}

private func describe(_ method: HTTPMethod, _ pattern: String, _ captures: [String: String]) -> String {
    "\(method) \(pattern) " + captures.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
}

func fuzzRouter(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let first = bytes.first else { return }
    let method = methods[Int(first) % methods.count]
    let path = String(decoding: UnsafeBufferPointer(rebasing: bytes[1...]), as: UTF8.self)
    let found: String
    switch router.match(method: method, path: path) {
    case .found(let route, let parameters): found = describe(route.method, route.pattern, parameters)
    case .methodNotAllowed(let allowed): found = "405 " + allowed.map(\.rawValue).joined(separator: ",")
    case .notFound: found = "404"
    }
    let expected = reference(method: method, path: path)
    guard found == expected else {
        fuzzFailure(
            "the router chose otherwise than the string scan",
            "\(method) \(path.debugDescription)\nrouter: \(found)\nscan:   \(expected)")
    }
}
