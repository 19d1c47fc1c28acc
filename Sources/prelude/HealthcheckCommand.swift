import ArgumentParser
import PreludeHTTPClient
import PreludeService

#if canImport(FoundationEssentials)
    import Dispatch
    import FoundationEssentials
    import Glibc
#else
    import Foundation
#endif

/// `prelude healthcheck`: asks a running server's `GET /readyz` and exits 0 on 200, 1 otherwise.
///
/// Meant for the container's `HEALTHCHECK`, so the runtime image needs no curl binary. It asks through the
/// product's outbound client (``HTTPClient``, libcurl) with one deadline for the whole exchange, verifying an
/// `https://` server's certificate against the system's CA bundle or `--tls-ca-file` / `tlsCAFile`.
struct HealthcheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "healthcheck",
        abstract: "Check a running server's GET /readyz; exit 0 when it answers 200, 1 otherwise.",
        discussion: """
            Without --url, the address is the one `serve` would listen on (config/prelude.json, then \
            PRELUDE_HOST / PRELUDE_PORT), with a wildcard host (0.0.0.0, ::) replaced by loopback. \
            Used by the container's HEALTHCHECK.
            """
    )

    @Option(help: ArgumentHelp("Full URL to check, e.g. http://127.0.0.1:8080/readyz.", valueName: "url"))
    var url: String?

    @Option(
        setting: .tlsCAFile,
        help: "PEM file of CAs trusted for an https:// URL instead of the system's. [default: tlsCAFile setting]")
    var tlsCAFile: String?

    @Option(help: ArgumentHelp("Seconds allowed for connect, request and answer together.", valueName: "seconds"))
    var timeout: Double = 2

    @Flag(help: "Print nothing on success.")
    var quiet = false

    func validate() throws {
        guard timeout > 0, timeout <= 60 else { throw ValidationError("--timeout must be in (0, 60] seconds") }
    }

    func run() throws {
        let target: Target
        do {
            target = try url.map(Target.init(url:)) ?? Self.targetFromConfiguration()
        } catch {
            throw Failure.exit(error, code: 1)
        }
        do {
            let caFile =
                try tlsCAFile
                ?? ServiceConfiguration.load(
                    configFile: nil, environment: ProcessInfo.processInfo.environment, flags: [:]
                ).tlsCAFile
            let client = HTTPClient(
                configuration: HTTPClientConfiguration(
                    timeout: timeout, maxResponseSize: 1 << 20, caFile: caFile, userAgent: "prelude-healthcheck"))
            let status = try client.send("GET", url: target.description).status
            guard status == 200 else {
                throw Failure.exit(Problem.notReady(target.description, status: status), code: 1)
            }
            if !quiet { print("ready: \(target.description) answered 200") }
        } catch let error as ExitCode {
            throw error
        } catch {
            throw Failure.exit(error, code: 1)
        }
    }

    /// The address `serve` would bind, from the same sources (file, then environment).
    private static func targetFromConfiguration() throws -> Target {
        let configuration = try ServiceConfiguration.load(
            configFile: nil, environment: ProcessInfo.processInfo.environment, flags: [:])
        // A wildcard bind accepts on loopback too; connecting to 0.0.0.0 itself is not portable.
        let host: String
        switch configuration.host {
        case "0.0.0.0", "": host = "127.0.0.1"
        case "::", "[::]": host = "::1"
        default: host = configuration.host
        }
        return Target(host: host, port: configuration.port, path: "/readyz")
    }
}

extension HealthcheckCommand {
    /// Where the health check connects.
    struct Target: CustomStringConvertible {
        /// Whether the check speaks TLS.
        var isSecure = false
        /// Host name or IP literal (IPv6 without brackets).
        var host: String
        /// TCP port.
        var port: Int
        /// Origin-form request target.
        var path: String

        init(isSecure: Bool = false, host: String, port: Int, path: String) {
            self.isSecure = isSecure
            self.host = host
            self.port = port
            self.path = path
        }

        /// Parses `http[s]://host[:port][/path]`; userinfo is refused.
        init(url: String) throws {
            let isSecure = url.lowercased().hasPrefix("https://")
            let prefix = isSecure ? "https://" : "http://"
            guard url.lowercased().hasPrefix(prefix) else {
                throw Problem.badURL(url, "only http:// and https:// URLs are supported")
            }
            let rest = url.dropFirst(prefix.count)
            let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
            let authority = rest[..<authorityEnd]
            var path = String(rest[authorityEnd...])
            if let fragment = path.firstIndex(of: "#") { path = String(path[..<fragment]) }
            if path.isEmpty || path.hasPrefix("?") { path = "/readyz" + path }
            guard !authority.isEmpty, !authority.contains("@") else {
                throw Problem.badURL(url, "expected http://host[:port][/path]")
            }
            var host: Substring
            var portText: Substring?
            if authority.hasPrefix("[") {
                // RFC 3986 §3.2.2: an IPv6 literal is enclosed in brackets.
                guard let close = authority.firstIndex(of: "]") else { throw Problem.badURL(url, "unclosed [") }
                host = authority[authority.index(after: authority.startIndex)..<close]
                let after = authority[authority.index(after: close)...]
                if !after.isEmpty {
                    guard after.hasPrefix(":") else { throw Problem.badURL(url, "junk after ]") }
                    portText = after.dropFirst()
                }
            } else if let colon = authority.lastIndex(of: ":") {
                host = authority[..<colon]
                portText = authority[authority.index(after: colon)...]
            } else {
                host = authority
            }
            var port = isSecure ? 443 : 80
            if let portText {
                guard let value = Int(portText), (1...65535).contains(value) else {
                    throw Problem.badURL(url, "port must be 1–65535")
                }
                port = value
            }
            guard !host.isEmpty else { throw Problem.badURL(url, "empty host") }
            guard path.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
                throw Problem.badURL(url, "the path must be printable ASCII without spaces")
            }
            self.init(isSecure: isSecure, host: String(host), port: port, path: path)
        }

        var description: String {
            let shown = host.contains(":") ? "[\(host)]" : host
            return (isSecure ? "https://" : "http://") + "\(shown):\(port)\(path)"
        }
    }

    /// Why the health check failed.
    enum Problem: Error, CustomStringConvertible {
        case badURL(String, String)
        case notReady(String, status: Int)

        var description: String {
            switch self {
            case .badURL(let url, let why): "invalid --url \(url): \(why)"
            case .notReady(let target, let status): "not ready: \(target) answered \(status)"
            }
        }
    }
}
