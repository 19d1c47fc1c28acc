// UIKit only (iOS, iPadOS, visionOS): not part of a Linux build. scripts/check-apple-sources.sh type-checks it on
// Linux against a stub of UIKit's documented declarations; it has never run on a device. The platform-free
// initializer of the same signature (PreludeClient+Init.swift) is the one the tests run.
#if canImport(UIKit) && !os(watchOS)
    import UIKit

    extension PreludeClient {
        /// A client for `app` on `server` keeping its files in `storageDirectory`, starting from `bootstrapPolicy`:
        /// the device's context (``ClientContext/current(installId:platform:osVersion:appVersion:locale:acceptLanguage:)``),
        /// its segment for the events' breakdowns (``PreludeCore/EventSegment/current()``) and every other setting at its default (``PreludeClientConfiguration``), including refresh, flush and the
        /// flows' re-read each time the app becomes active. Reads the disk only, never the network.
        ///
        /// - Throws: ``PreludeClientError/invalidBootstrap(_:)`` when the bundled policy does not validate, or a file
        ///   system error when the storage directory cannot be created or written.
        @MainActor public init(server: URL, app: String, storageDirectory: URL, bootstrapPolicy: Data? = nil) throws {
            var configuration = PreludeClientConfiguration(
                server: server, app: app, storageDirectory: storageDirectory, bootstrapPolicy: bootstrapPolicy)
            configuration.context = .current()
            configuration.segment = .current()
            try self.init(configuration: configuration)
        }
    }
#endif
