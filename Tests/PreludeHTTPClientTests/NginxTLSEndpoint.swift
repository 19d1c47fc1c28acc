import Testing

#if canImport(FoundationEssentials)
    import Dispatch
    import Foundation
    import Glibc
#else
    import Foundation
#endif

/// A real TLS endpoint for the client's certificate tests: nginx on 127.0.0.1 with a server certificate for
/// `localhost` signed by a CA made for this run (openssl), so the system's bundle does not trust it.
///
/// nginx is installed with apt when missing (Debian's policy-rc.d keeps the package from starting a system
/// service); when it cannot be, ``installed`` is false and the tests say so instead of running.
final class NginxTLSEndpoint: Sendable {
    /// The directory with the CA (`ca.pem`), the server's key and certificate, nginx's configuration and logs.
    let directory: String
    /// The port nginx listens on (127.0.0.1).
    let port: Int
    private let process: Process

    /// The CA certificate that signed the server's certificate.
    var caFile: String { directory + "/ca.pem" }

    /// Whether nginx and openssl are on this machine (after installing nginx with apt if it was missing).
    static let installed: Bool = {
        if executable("nginx") == nil {
            _ = run(
                "/usr/bin/env",
                [
                    "DEBIAN_FRONTEND=noninteractive", "apt-get", "install", "-y", "-qq",
                    "--no-install-recommends", "nginx",
                ])
        }
        return executable("nginx") != nil && executable("openssl") != nil
    }()

    /// Makes the CA and certificate, starts nginx and waits until it accepts connections.
    init() throws {
        directory = NSTemporaryDirectory() + "prelude-tls-" + String(UInt64.random(in: 1...UInt64.max), radix: 36)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let openssl = Self.executable("openssl")!
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try Self.check(
            openssl,
            ["req", "-x509"] + ec + [
                "-keyout", "\(directory)/ca.key", "-out", "\(directory)/ca.pem", "-days", "2", "-subj",
                "/CN=Prelude test CA",
            ])
        try Self.check(
            openssl,
            ["req", "-new"] + ec + [
                "-keyout", "\(directory)/server.key", "-out", "\(directory)/server.csr", "-subj", "/CN=localhost",
            ])
        // Only the name `localhost`: https://127.0.0.1 then reaches the same server under a name it has no
        // certificate for.
        try "subjectAltName=DNS:localhost\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n".write(
            toFile: "\(directory)/server.ext", atomically: true, encoding: .utf8)
        try Self.check(
            openssl,
            [
                "x509", "-req", "-in", "\(directory)/server.csr", "-CA", "\(directory)/ca.pem", "-CAkey",
                "\(directory)/ca.key", "-CAcreateserial", "-days", "2", "-out", "\(directory)/server.pem", "-extfile",
                "\(directory)/server.ext",
            ])
        port = try Self.freePort()
        let configuration = """
            daemon off;
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
                    location = /hello { default_type text/plain; return 200 "hello over tls"; }
                }
            }
            """
        try configuration.write(toFile: "\(directory)/nginx.conf", atomically: true, encoding: .utf8)
        process = Process()
        process.executableURL = URL(fileURLWithPath: Self.executable("nginx")!)
        process.arguments = ["-p", directory, "-c", "\(directory)/nginx.conf", "-e", "\(directory)/error.log"]
        try process.run()
        // Readiness, not timing: wait until the port accepts a connection (or nginx exited).
        while process.isRunning && !Self.accepts(port: port) { usleep(20_000) }
        guard process.isRunning else {
            let log = (try? String(contentsOfFile: "\(directory)/error.log", encoding: .utf8)) ?? ""
            throw Failure(description: "nginx exited at start: \(log)")
        }
    }

    /// Stops nginx (SIGQUIT: graceful) and removes the directory.
    func stop() {
        process.interrupt()
        kill(process.processIdentifier, SIGQUIT)
        process.waitUntilExit()
        try? FileManager.default.removeItem(atPath: directory)
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private static func check(_ path: String, _ arguments: [String]) throws {
        let status = run(path, arguments)
        guard status == 0 else {
            throw Failure(description: "\(path) \(arguments.joined(separator: " ")) -> \(status)")
        }
    }

    @discardableResult
    private static func run(_ path: String, _ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }

    private static func executable(_ name: String) -> String? {
        ["/usr/sbin/", "/usr/bin/", "/usr/local/sbin/", "/usr/local/bin/"].map { $0 + name }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    private static func freePort() throws -> Int {
        let listener = try SilentListener()
        defer { listener.close() }
        return listener.port
    }

    private static func accepts(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
