/// Recently rendered response-head prefixes, so serving the same prepared `HTTPResponse` again costs one
/// copy of its head instead of re-rendering the status line and every field.
///
/// Keyed by identity: the status and the storage of the response's header list. An entry keeps its own
/// copy of that list, so the storage stays alive and its address cannot be reused by another list while
/// the entry exists; a handler that builds new headers per request simply misses. Each event loop owns
/// one cache (no locking); it is small and replaced round-robin.
package struct ResponseHeadCache {
    private struct Entry {
        var status: HTTPStatus
        var storage: UnsafeRawPointer?
        var headers: HTTPHeaders
        var prefix: ResponseEncoder.Prefix
    }

    private var entries: [Entry] = []
    private var nextVictim = 0
    private let capacity: Int
    private let serverName: String
    private let requestIDHeader: String?

    /// A cache rendering prefixes with `serverName`, leaving out any handler field named `requestIDHeader`.
    package init(serverName: String, requestIDHeader: String? = nil, capacity: Int = 8) {
        self.serverName = serverName
        self.requestIDHeader = requestIDHeader
        self.capacity = capacity
        entries.reserveCapacity(capacity)
    }

    /// The prefix for `response`, rendered now if it is not cached.
    package mutating func prefix(for response: HTTPResponse) -> ResponseEncoder.Prefix {
        let storage = response.headers.storageIdentity
        for i in entries.indices
        where entries[i].storage == storage && entries[i].headers.count == response.headers.count
            && entries[i].status == response.status
        {
            return entries[i].prefix
        }
        let prefix = ResponseEncoder.prefix(response, serverName: serverName, requestIDHeader: requestIDHeader)
        let entry = Entry(status: response.status, storage: storage, headers: response.headers, prefix: prefix)
        if entries.count < capacity {
            entries.append(entry)
        } else {
            entries[nextVictim] = entry
            nextVictim = (nextVictim + 1) % capacity
        }
        return prefix
    }
}
