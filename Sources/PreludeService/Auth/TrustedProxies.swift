#if canImport(FoundationEssentials)
    import Dispatch
    import FoundationEssentials
    import Glibc
#else
    import Foundation
#endif

/// The networks whose `X-Forwarded-For` the service believes, and the client address of a request by that rule.
///
/// The client address is the socket peer, unless the peer is a trusted proxy: then it is the rightmost
/// `X-Forwarded-For` hop that is not itself a trusted proxy (each proxy appends the address it received the
/// connection from, so everything left of the first untrusted hop may have been written by the client and is
/// ignored). Every budget and limiter keyed by address uses this (docs/security.md, "Client address").
package struct TrustedProxies: Sendable, Equatable {
    /// One network: an address and a prefix length in bits (4 bytes for IPv4, 16 for IPv6).
    package struct Network: Sendable, Hashable, CustomStringConvertible {
        /// The network address (host bits cleared).
        package let bytes: [UInt8]
        /// Leading bits that must match.
        package let prefixLength: Int

        /// Whether `address` (4 or 16 bytes) lies in this network.
        package func contains(_ address: [UInt8]) -> Bool {
            guard address.count == bytes.count else { return false }
            var remaining = prefixLength
            for index in 0..<bytes.count where remaining > 0 {
                let bits = min(8, remaining)
                let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
                if address[index] & mask != bytes[index] & mask { return false }
                remaining -= bits
            }
            return true
        }

        /// CIDR notation, e.g. `10.0.0.0/8`.
        package var description: String { "\(TrustedProxies.render(bytes))/\(prefixLength)" }
    }

    /// The trusted networks; empty trusts no proxy (the peer is always the client).
    package let networks: [Network]

    /// No trusted proxy.
    package init() { networks = [] }

    /// Parses a comma-separated list of addresses and CIDR networks (`10.0.0.0/8, 192.168.1.7, fd00::/8`);
    /// the error names the entry that is not one.
    package init(parsing text: String) throws(ParseError) {
        var networks: [Network] = []
        for piece in text.split(separator: ",") {
            let entry = piece.trimmingWhitespace()
            guard !entry.isEmpty else { continue }
            let parts = entry.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count <= 2, let address = Self.parse(String(parts[0])) else { throw ParseError(entry: entry) }
            let maximum = address.count * 8
            var prefix = maximum
            if parts.count == 2 {
                guard let length = Int(parts[1]), (0...maximum).contains(length) else { throw ParseError(entry: entry) }
                prefix = length
            }
            networks.append(Network(bytes: Self.masked(address, prefix), prefixLength: prefix))
        }
        self.networks = networks
    }

    /// An entry of the list that is neither an IP address nor a CIDR network.
    package struct ParseError: Error, Sendable, Equatable {
        /// The entry as written.
        package let entry: String
    }

    /// Whether `address` (textual IPv4 or IPv6) is in a trusted network.
    package func trusts(_ address: String) -> Bool {
        guard !networks.isEmpty, let bytes = Self.parse(address) else { return false }
        return networks.contains { $0.contains(bytes) }
    }

    /// The client address of a request from `remoteAddress` (`ip:port`, as the HTTP engine gives it) carrying
    /// these `X-Forwarded-For` field values (in order; each may hold a comma-separated list).
    package func clientAddress(remoteAddress: String, forwardedFor: [String]) -> String {
        let peer = Self.host(of: remoteAddress)
        guard trusts(peer), !forwardedFor.isEmpty else { return peer }
        // RFC 7239 §5.2 / X-Forwarded-For convention: the rightmost hop was appended by the nearest proxy.
        var reporter = peer
        let hops = forwardedFor.flatMap { $0.split(separator: ",") }
        for hop in hops.reversed() {
            let candidate = hop.trimmingWhitespace()
            guard let bytes = Self.parse(candidate) else {
                // Not an address (garbage, `unknown`, an obfuscated id): the proxy that reported it is the last
                // address we know.
                return reporter
            }
            let normalized = Self.render(bytes)
            guard networks.contains(where: { $0.contains(bytes) }) else { return normalized }
            reporter = normalized
        }
        return reporter
    }

    /// The address part of `ip:port` (IPv6 addresses contain colons, so the port is after the last one; a
    /// bracketed `[::1]` loses its brackets).
    package static func host(of remoteAddress: String) -> String {
        var host = remoteAddress
        if let colon = remoteAddress.lastIndex(of: ":") { host = String(remoteAddress[..<colon]) }
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return host
    }

    /// 4 bytes for IPv4 (and for IPv4-mapped IPv6, `::ffff:a.b.c.d`, so one rule covers both), 16 for IPv6.
    static func parse(_ text: String) -> [UInt8]? {
        guard !text.isEmpty, text.utf8.count <= 64 else { return nil }
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            return withUnsafeBytes(of: &v4) { Array($0) }
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
            return Array(bytes[12..<16])
        }
        return bytes
    }

    /// Canonical text of 4 or 16 address bytes.
    static func render(_ bytes: [UInt8]) -> String {
        if bytes.count == 4 { return bytes.map(String.init).joined(separator: ".") }
        var storage = bytes
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let text = storage.withUnsafeMutableBytes { raw in
            inet_ntop(AF_INET6, raw.baseAddress, &buffer, socklen_t(buffer.count))
        }
        guard text != nil else { return "::" }
        return String(decoding: buffer.prefix { $0 != 0 }.map(UInt8.init(bitPattern:)), as: UTF8.self)
    }

    private static func masked(_ bytes: [UInt8], _ prefix: Int) -> [UInt8] {
        var remaining = prefix
        return bytes.map { byte in
            let bits = max(0, min(8, remaining))
            remaining -= 8
            return bits == 0 ? 0 : byte & UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
        }
    }

    /// The list as configured, comma-separated in CIDR notation (empty when none).
    package var description: String { networks.map(\.description).joined(separator: ",") }
}
