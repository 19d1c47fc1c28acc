/// The environment variables Kubernetes injects into every pod of a namespace for a Service named `prelude`
/// (the docker-links compatible "service environment variables"), which share our `PRELUDE_` prefix.
///
/// Kubernetes documents the shapes (Concepts → Services → "Environment variables"): for a Service `prelude` with
/// cluster IP 10.96.12.34 and a port 8080/TCP named `http`:
///
///     PRELUDE_SERVICE_HOST=10.96.12.34          PRELUDE_PORT=tcp://10.96.12.34:8080
///     PRELUDE_SERVICE_PORT=8080                 PRELUDE_PORT_8080_TCP=tcp://10.96.12.34:8080
///     PRELUDE_SERVICE_PORT_HTTP=8080            PRELUDE_PORT_8080_TCP_PROTO=tcp
///                                               PRELUDE_PORT_8080_TCP_PORT=8080
///                                               PRELUDE_PORT_8080_TCP_ADDR=10.96.12.34
///
/// Only exactly these names *with values of these shapes* are recognised, so a typo (`PRELUDE_PROT=1`) or a
/// mistyped setting value is still refused at start. `PRELUDE_PORT` is also our port setting: a value of the
/// injected `proto://address:port` shape is not a port number, so it is recognised and ignored, and the port
/// comes from the file, the flags or the default.
package enum ServiceLinkVariables {
    /// Whether `name=value` is a variable Kubernetes injected for a Service named `prelude`.
    package static func isInjected(name: String, value: String) -> Bool {
        guard name.hasPrefix("PRELUDE_") else { return false }
        let rest = name.dropFirst("PRELUDE_".count)
        if rest == "SERVICE_HOST" { return isAddress(value) }
        if rest == "SERVICE_PORT" { return isPort(value) }
        if rest.hasPrefix("SERVICE_PORT_") {
            // Named ports: the port's name upper-cased, '-' turned into '_' (RFC 6335 names: letters, digits, '-').
            let portName = rest.dropFirst("SERVICE_PORT_".count)
            return !portName.isEmpty && portName.allSatisfy(isNameCharacter) && isPort(value)
        }
        if rest == "PORT" { return isLink(value, port: nil, protocol: nil) }
        guard rest.hasPrefix("PORT_") else { return false }
        // PORT_<number>_<PROTOCOL>[_PROTO|_PORT|_ADDR]
        let parts = rest.dropFirst("PORT_".count).split(separator: "_", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3, isPort(String(parts[0])),
            let proto = protocols.first(where: { $0.uppercased() == parts[1] })
        else { return false }
        if parts.count == 2 { return isLink(value, port: String(parts[0]), protocol: proto) }
        switch parts[2] {
        case "PROTO": return value == proto
        case "PORT": return value == String(parts[0])
        case "ADDR": return isAddress(value)
        default: return false
        }
    }

    /// The protocols a Service port can have.
    private static let protocols = ["tcp", "udp", "sctp"]

    private static func isNameCharacter(_ character: Character) -> Bool {
        character == "_" || (character.isASCII && (character.isUppercase || character.isNumber))
    }

    /// A TCP/UDP port number, 1–65535, digits only.
    private static func isPort(_ value: String) -> Bool {
        guard !value.isEmpty, value.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(value) else {
            return false
        }
        return (1...65535).contains(number)
    }

    /// A cluster IP: IPv4 dotted quad or an IPv6 address (hex digits and colons).
    private static func isAddress(_ value: String) -> Bool {
        guard !value.isEmpty else { return false }
        return value.allSatisfy { $0.isASCII && ($0.isHexDigit || $0 == "." || $0 == ":") }
    }

    /// `proto://address:port`, e.g. `tcp://10.96.12.34:8080` or `tcp://[fd00::1]:8080`; when given, the port and
    /// protocol must be those of the variable's name.
    private static func isLink(_ value: String, port: String?, protocol expected: String?) -> Bool {
        guard let separator = value.firstRange(of: "://") else { return false }
        let proto = String(value[..<separator.lowerBound])
        guard protocols.contains(proto), expected == nil || proto == expected else { return false }
        let authority = value[separator.upperBound...]
        guard let colon = authority.lastIndex(of: ":") else { return false }
        var address = String(authority[..<colon])
        if address.hasPrefix("["), address.hasSuffix("]") { address = String(address.dropFirst().dropLast()) }
        let portText = String(authority[authority.index(after: colon)...])
        return isAddress(address) && isPort(portText) && (port == nil || portText == port)
    }
}
