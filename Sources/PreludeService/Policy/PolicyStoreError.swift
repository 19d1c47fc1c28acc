import PreludeStore

/// Why ``PolicyStore`` refused a write: domain errors, free of HTTP. The admin API maps each case to its problem
/// with ``PolicyStoreProblem/problem(for:)``; `prelude policy import` words the same problems for the command line.
///
/// A failure of the database itself is not one of these: the store lets the `StorageError` through.
package enum PolicyStoreError: Error, Sendable {
    /// No app with this id.
    case unknownApp(String)
    /// Creating an app that exists.
    case appExists(String)
    /// The app has no environment of this name.
    case unknownEnvironment(app: String, environment: String)
    /// Creating an environment that exists.
    case environmentExists(app: String, environment: String)
    /// The document's `app.id` (`documentApp`) is not the app it is written to (`app`).
    case appMismatch(app: String, documentApp: String)
    /// The `If-Match` value does not name the live revision; `current` is the live snapshot now (nil when the app
    /// has no servable live revision, which only `If-Match: *` replaces).
    case stale(current: ServedPolicy?)
}

extension PolicyStoreError {
    /// The store's words for a repository's refusal (``PolicyRepository/Refusal/stale`` is handled by the store,
    /// which reloads the app to name the current revision).
    init(_ refusal: PolicyRepository.Refusal) {
        switch refusal {
        case .unknownApp(let app): self = .unknownApp(app)
        case .appExists(let app): self = .appExists(app)
        case .stale: self = .stale(current: nil)
        case .unknownEnvironment(let app, let environment):
            self = .unknownEnvironment(app: app, environment: environment)
        case .environmentExists(let app, let environment): self = .environmentExists(app: app, environment: environment)
        }
    }
}
