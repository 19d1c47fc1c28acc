import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// nginx terminating TLS on `https://localhost:port` (127.0.0.1) with a certificate from ``TestCertificates`` (a CA
/// made for this run, which the system's bundle does not trust): either in front of a plain-HTTP server, as
/// docs/scaling.md tells a deployment to put the primary behind one, or answering one fixed path itself.
///
/// One process (`master_process off`), stopped with SIGKILL, so no orphaned worker stays behind and no signal a test
/// thread blocks can keep it alive. nginx is installed with apt when missing; when it cannot be, ``installed`` is
/// false and the tests that need it say so instead of running.
public final class NginxTLSFront: Sendable {
    /// What nginx does with a request.
    public enum Site: Sendable {
        /// Passes every request to `http://127.0.0.1:upstream`.
        case proxy(upstream: Int)
        /// Answers `GET path` with 200 and `body` (text/plain), anything else with 404.
        case fixed(path: String, body: String)
    }

    /// Why nginx did not start.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong, with nginx's error log when it exited.
        public let description: String
    }

    /// The directory with the CA (`ca.pem`), the server's key and certificate, nginx's configuration and logs.
    public let directory: String
    /// The port nginx listens on (127.0.0.1).
    public let port: Int
    private let process: Process

    /// The CA certificate that signed nginx's certificate.
    public var caFile: String { directory + "/ca.pem" }
    /// nginx's URL (the certificate names `localhost` only).
    public var url: String { "https://localhost:\(port)" }

    /// Whether nginx and openssl are on this machine (after installing nginx with apt if it was missing).
    public static let installed: Bool = {
        if executable("nginx") == nil {
            let apt = Process()
            apt.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            apt.arguments = [
                "DEBIAN_FRONTEND=noninteractive", "apt-get", "install", "-y", "-qq", "--no-install-recommends", "nginx",
            ]
            apt.standardOutput = FileHandle.nullDevice
            apt.standardError = FileHandle.nullDevice
            if (try? apt.run()) != nil { apt.waitUntilExit() }
        }
        return executable("nginx") != nil && executable("openssl") != nil
    }()

    /// Makes the CA (named `authority`) and the certificate, starts nginx serving `site` and waits until it accepts
    /// connections.
    public init(_ site: Site, authority: String = "Prelude test CA") throws {
        directory = NSTemporaryDirectory() + "prelude-tls-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try TestCertificates.make(in: directory, authority: authority)
        port = try Self.freePort()
        let location: String
        switch site {
        case .proxy(let upstream):
            // Held change-feed polls last up to 30 s (ReplicationRoutes.maxWait): nginx's 60 s read timeout covers
            // them. Forwarded event batches (up to 256 KiB) are streamed to the primary, as deploy/nginx does.
            location = """
                location / {
                            proxy_pass http://127.0.0.1:\(upstream);
                            proxy_read_timeout 60s;
                            proxy_request_buffering off;
                            client_max_body_size 2m;
                        }
                """
        case .fixed(let path, let body):
            location = "location = \(path) { default_type text/plain; return 200 \"\(body)\"; }"
        }
        let configuration = """
            daemon off;
            master_process off;
            worker_processes 1;
            pid \(directory)/nginx.pid;
            error_log \(directory)/error.log;
            events { worker_connections 64; }
            http {
                access_log off;
                client_body_temp_path \(directory)/body;
                proxy_temp_path \(directory)/proxy;
                fastcgi_temp_path \(directory)/fastcgi;
                uwsgi_temp_path \(directory)/uwsgi;
                scgi_temp_path \(directory)/scgi;
                server {
                    listen 127.0.0.1:\(port) ssl;
                    ssl_certificate \(directory)/server.pem;
                    ssl_certificate_key \(directory)/server.key;
                    \(location)
                }
            }
            """
        try configuration.write(toFile: "\(directory)/nginx.conf", atomically: true, encoding: .utf8)
        process = Process()
        process.executableURL = URL(fileURLWithPath: Self.executable("nginx")!)
        process.arguments = ["-p", directory, "-c", "\(directory)/nginx.conf", "-e", "\(directory)/error.log"]
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Readiness, not timing: wait until the port accepts a connection (or nginx exited).
        while process.isRunning && !Self.accepts(port: port) { usleep(20_000) }
        guard process.isRunning else {
            let log = (try? String(contentsOfFile: "\(directory)/error.log", encoding: .utf8)) ?? ""
            throw Failure(description: "nginx exited at start: \(log)")
        }
    }

    /// Stops nginx (SIGKILL: one process, nothing to drain) and removes the directory.
    public func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        try? FileManager.default.removeItem(atPath: directory)
    }

    private static func executable(_ name: String) -> String? {
        ["/usr/sbin/", "/usr/bin/", "/usr/local/sbin/", "/usr/local/bin/"].map { $0 + name }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// 127.0.0.1 with `port` (0: any).
    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return address
    }

    /// A port the kernel just handed out (bound to 0, read back, closed).
    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        defer { close(fd) }
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else { throw Failure(description: "bind: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    private static func accepts(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = loopback(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
