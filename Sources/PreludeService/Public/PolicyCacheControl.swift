/// The `Cache-Control` values of the policy endpoints (RFC 9111 §5.2.2, RFC 5861), built once at start.
package struct PolicyCacheControl: Sendable {
    /// For the whole document: identical for every client, so shared caches (a CDN) may keep it.
    package let document: String
    /// For a resolved policy: specific to one client (variants, locale), so only its own cache may keep it.
    package let resolved: String

    /// Values with the given lifetimes, in seconds.
    package init(maxAge: Int, staleWhileRevalidate: Int, staleIfError: Int) {
        let lifetimes =
            "max-age=\(maxAge), stale-while-revalidate=\(staleWhileRevalidate), stale-if-error=\(staleIfError)"
        document = "public, " + lifetimes
        resolved = "private, " + lifetimes
    }

    /// The values of the default configuration.
    package static let defaults = PolicyCacheControl(ServiceConfiguration())

    /// The values for a service configuration.
    package init(_ configuration: ServiceConfiguration) {
        self.init(
            maxAge: configuration.policyMaxAge, staleWhileRevalidate: configuration.policyStaleWhileRevalidate,
            staleIfError: configuration.policyStaleIfError)
    }
}
