import Foundation

// On iOS, iPadOS and visionOS the same initializer reads the device's context (Platform/Apple/PreludeClient+Current.swift).
#if !(canImport(UIKit) && !os(watchOS))
    extension PreludeClient {
        /// A client for `app` on `server` keeping its files in `storageDirectory`, starting from `bootstrapPolicy`,
        /// with every other setting at its default (``PreludeClientConfiguration``): an empty context (there is no
        /// device to read here; use ``init(configuration:)`` to give one), URLSession, and foreground handling on
        /// ``ForegroundSignal/application``. Reads the disk only, never the network.
        ///
        /// - Throws: ``PreludeClientError/invalidBootstrap(_:)`` when the bundled policy does not validate, or a file
        ///   system error when the storage directory cannot be created or written.
        public init(server: URL, app: String, storageDirectory: URL, bootstrapPolicy: Data? = nil) throws {
            try self.init(
                configuration: PreludeClientConfiguration(
                    server: server, app: app, storageDirectory: storageDirectory, bootstrapPolicy: bootstrapPolicy))
        }
    }
#endif
