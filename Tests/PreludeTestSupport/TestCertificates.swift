import Foundation

/// A certificate authority made for one test run with openssl, and a server certificate it signed for `localhost`
/// only: the system's bundle does not trust it, so only a client given `ca.pem` (`PRELUDE_TLS_CA_FILE`) accepts
/// the server, and `https://127.0.0.1` reaches the same server under a name it has no certificate for.
public enum TestCertificates {
    /// Why the certificates could not be made.
    public struct Failure: Error, CustomStringConvertible {
        /// The openssl command that failed.
        public let description: String
    }

    /// Writes `ca.pem`, `ca.key`, `server.pem` and `server.key` into `directory`.
    public static func make(in directory: String, authority: String) throws {
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try run(
            ["req", "-x509"] + ec + [
                "-keyout", "\(directory)/ca.key", "-out", "\(directory)/ca.pem", "-days", "2", "-subj",
                "/CN=\(authority)",
            ])
        try run(
            ["req", "-new"] + ec + [
                "-keyout", "\(directory)/server.key", "-out", "\(directory)/server.csr", "-subj", "/CN=localhost",
            ])
        try "subjectAltName=DNS:localhost\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n".write(
            toFile: "\(directory)/server.ext", atomically: true, encoding: .utf8)
        try run([
            "x509", "-req", "-in", "\(directory)/server.csr", "-CA", "\(directory)/ca.pem", "-CAkey",
            "\(directory)/ca.key", "-CAcreateserial", "-days", "2", "-out", "\(directory)/server.pem", "-extfile",
            "\(directory)/server.ext",
        ])
    }

    private static func run(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "openssl \(arguments.joined(separator: " ")) failed")
        }
    }
}
