import PreludeCore

/// What runs when the app comes to the foreground: the client's ``PreludeClient/didBecomeActive()`` (refresh and
/// flush, each when due), then every flow's ``PermissionFlow/becameActive()`` (statuses re-read, so a person back
/// from Settings proceeds without a relaunch).
///
/// Platform-free: on iOS `ForegroundObserver` calls ``appBecameActive()`` on each
/// `UIApplication.didBecomeActiveNotification`; tests and other platforms call it directly.
public actor ForegroundHandler {
    private let client: PreludeClient
    private var flows: [PermissionFlow]

    /// A handler for `client` and `flows` (more with ``add(_:)``).
    public init(client: PreludeClient, flows: [PermissionFlow] = []) {
        self.client = client
        self.flows = flows
    }

    /// Adds a flow whose ``PermissionFlow/becameActive()`` runs on every activation.
    public func add(_ flow: PermissionFlow) { flows.append(flow) }

    /// The app became active: refresh and flush, then each flow re-reads its statuses. Returns the new decision of
    /// every feature whose status changed (a later flow's wins for the same feature).
    ///
    /// - Throws: the first flow's ledger or queue write failure (the other flows still ran).
    @discardableResult
    public func appBecameActive() async throws -> [Feature: Decision] {
        await client.didBecomeActive()
        var changed: [Feature: Decision] = [:]
        var failure: (any Error)?
        for flow in flows {
            do {
                changed.merge(try await flow.becameActive()) { $1 }
            } catch {
                failure = failure ?? error
            }
        }
        if let failure { throw failure }
        return changed
    }
}
