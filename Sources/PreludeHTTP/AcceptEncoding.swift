/// `Accept-Encoding` negotiation (RFC 9110 §12.5.3) between identity and gzip.
public enum AcceptEncoding {
    /// True when the client accepts gzip at least as much as identity.
    ///
    /// No header means any coding is acceptable, but we send identity then (RFC 9110 §12.5.3 allows
    /// either; old clients without the header rarely handle gzip). `gzip;q=0` refuses gzip; `*` covers
    /// codings not listed; an explicitly listed identity with a higher q wins; ties go to gzip.
    public static func prefersGzip(_ headerValue: String?) -> Bool {
        guard let headerValue else { return false }
        return plainList(headerValue) ?? negotiated(headerValue)
    }

    /// The general negotiation over codings and q-values (``prefersGzip(_:)`` without its fast path).
    static func negotiated(_ headerValue: String) -> Bool {
        var gzip: Double?
        var identity: Double?
        var star: Double?
        for element in headerValue.split(separator: ",") {
            let parts = element.split(separator: ";")
            guard let first = parts.first else { continue }
            let coding = first.trimmingOWS().lowercased()
            if coding.isEmpty { continue }
            var q = 1.0
            for parameter in parts.dropFirst() {
                let p = parameter.trimmingOWS()
                guard p.count >= 2, p.first == "q" || p.first == "Q", p.dropFirst().first == "=" else { continue }
                // RFC 9110 §12.4.2: qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] ); junk → not acceptable.
                q = parseQValue(p.dropFirst(2)) ?? 0
            }
            switch coding {
            case "gzip", "x-gzip": gzip = max(gzip ?? 0, q)
            case "identity": identity = q
            case "*": star = q
            default: break
            }
        }
        let gzipQ = gzip ?? star ?? 0
        // Identity not listed is only the implicit fallback, so any acceptable gzip wins over it.
        return gzipQ > 0 && gzipQ >= (identity ?? 0)
    }

    /// The answer for the common header without parameters ("gzip", "gzip, deflate, br"), read in place without
    /// allocating: every listed coding has q=1, so gzip wins exactly when it is listed. Nil (the general parser
    /// decides) when the value has a parameter, lists identity or `*`, or is not ASCII.
    static func plainList(_ value: String) -> Bool? {
        var value = value
        return value.withUTF8 { bytes -> Bool? in
            func isOWS(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
            func equals(_ start: Int, _ end: Int, _ lowercase: StaticString) -> Bool {
                guard end - start == lowercase.utf8CodeUnitCount else { return false }
                let expected = lowercase.utf8Start
                for index in 0..<(end - start) {
                    let byte = bytes[start + index]
                    if (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) != expected[index] { return false }
                }
                return true
            }
            var listed = false
            var start = 0
            for index in 0...bytes.count {
                let byte: UInt8 = index < bytes.count ? bytes[index] : UInt8(ascii: ",")
                if byte == UInt8(ascii: ";") || byte >= 0x80 { return nil }
                guard byte == UInt8(ascii: ",") else { continue }
                var first = start
                var end = index
                while first < end && isOWS(bytes[first]) { first += 1 }
                while end > first && isOWS(bytes[end - 1]) { end -= 1 }
                start = index + 1
                if equals(first, end, "gzip") || equals(first, end, "x-gzip") {
                    listed = true
                } else if equals(first, end, "identity") || (end - first == 1 && bytes[first] == UInt8(ascii: "*")) {
                    return nil
                }
            }
            return listed
        }
    }

    /// Parses a qvalue; nil when malformed.
    static func parseQValue(_ text: Substring) -> Double? {
        let t = text.trimmingOWS()
        guard let first = t.first, first == "0" || first == "1" else { return nil }
        let rest = t.dropFirst()
        if rest.isEmpty { return first == "1" ? 1 : 0 }
        guard rest.first == ".", rest.count <= 4 else { return nil }
        let digits = rest.dropFirst()
        guard digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        if first == "1" { return digits.allSatisfy { $0 == "0" } ? 1 : nil }
        return Double("0." + (digits.isEmpty ? "0" : digits))
    }
}
