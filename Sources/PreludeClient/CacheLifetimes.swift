/// The three lifetimes of a `Cache-Control` response header that the client honours (RFC 9111 §5.2.2.1,
/// RFC 5861), in seconds.
public struct CacheLifetimes: Sendable, Hashable, Codable {
    /// `max-age`: how long the copy is fresh; 0 when absent (revalidate at every chance).
    public var maxAge: Double
    /// `stale-while-revalidate`: how long after `max-age` the copy may be used while a refresh runs.
    public var staleWhileRevalidate: Double
    /// `stale-if-error`: how long after `max-age` the copy may be used when the server cannot be reached.
    public var staleIfError: Double

    /// Lifetimes in seconds.
    public init(maxAge: Double = 0, staleWhileRevalidate: Double = 0, staleIfError: Double = 0) {
        self.maxAge = maxAge
        self.staleWhileRevalidate = staleWhileRevalidate
        self.staleIfError = staleIfError
    }

    /// Reads a `Cache-Control` value; unknown directives are ignored, `no-cache` and `no-store` mean max-age 0.
    public init(cacheControl: String?) {
        self.init()
        guard let cacheControl else { return }
        for directive in cacheControl.split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1).map {
                $0.trimmingCharacters(in: .whitespaces).lowercased()
            }
            guard let name = parts.first else { continue }
            // RFC 9111 §1.2.2: delta-seconds is a non-negative integer; anything else is ignored.
            let seconds =
                parts.count == 2 ? Double(parts[1].trimmingCharacters(in: ["\""])).flatMap { $0 >= 0 ? $0 : nil } : nil
            switch name {
            case "max-age": if let seconds { maxAge = seconds }
            case "stale-while-revalidate": if let seconds { staleWhileRevalidate = seconds }
            case "stale-if-error": if let seconds { staleIfError = seconds }
            case "no-cache", "no-store": maxAge = 0
            default: break
            }
        }
    }

    /// Reads a `Retry-After` value (RFC 9110 §10.2.3): delay-seconds; an HTTP-date is read relative to `now`
    /// (seconds since the epoch). Nil when absent or unreadable.
    public static func retryAfter(_ value: String?, now: Double) -> Double? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Double(value), seconds >= 0 { return seconds }
        if let date = HTTPDateParser.parse(value) { return max(0, date - now) }
        return nil
    }
}
