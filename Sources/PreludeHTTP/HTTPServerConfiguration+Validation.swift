extension HTTPServerConfiguration {
    /// A setting with a value the engine cannot use.
    public struct InvalidSetting: Error, Sendable, Equatable, CustomStringConvertible {
        /// The property name, e.g. `port`.
        public let setting: String
        /// Why the value is refused.
        public let reason: String

        public var description: String { "invalid HTTP setting \(setting): \(reason)" }
    }

    /// Checks every value; `HTTPServer.start()` calls it, and a service can call it early to report bad configuration.
    public func validate() throws(InvalidSetting) {
        func require(_ ok: Bool, _ setting: String, _ reason: String) throws(InvalidSetting) {
            if !ok { throw InvalidSetting(setting: setting, reason: reason) }
        }
        try require((0...65535).contains(port), "port", "\(port) is not in 0...65535")
        try require(!host.isEmpty, "host", "empty")
        try require(
            eventLoopCount >= 1 && eventLoopCount <= 256, "eventLoopCount", "\(eventLoopCount) is not in 1...256")
        try require(backlog >= 1, "backlog", "must be at least 1")
        try require(maxConnections >= 1, "maxConnections", "must be at least 1")
        try require(maxRequestLineLength >= 64, "maxRequestLineLength", "must be at least 64")
        try require(maxHeaderLineLength >= 64, "maxHeaderLineLength", "must be at least 64")
        try require(maxHeaderBytes >= maxHeaderLineLength, "maxHeaderBytes", "must be at least maxHeaderLineLength")
        try require(maxHeaderCount >= 1, "maxHeaderCount", "must be at least 1")
        try require(maxBodySize >= 0, "maxBodySize", "must not be negative")
        try require(maxRequestsPerConnection >= 1, "maxRequestsPerConnection", "must be at least 1")
        for (name, value) in [
            ("headerTimeout", headerTimeout), ("bodyIdleTimeout", bodyIdleTimeout), ("bodyTimeout", bodyTimeout),
            ("writeTimeout", writeTimeout), ("keepAliveTimeout", keepAliveTimeout), ("lingerTimeout", lingerTimeout),
            ("acceptBackoff", acceptBackoff),
        ] {
            try require(value.isFinite && value > 0 && value <= 86400, name, "\(value) s is not in (0, 86400]")
        }
        try require(
            !serverName.isEmpty && serverName.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }, "serverName",
            "must be visible ASCII")
    }
}
