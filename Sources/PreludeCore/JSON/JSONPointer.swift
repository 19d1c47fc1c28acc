/// A JSON Pointer (RFC 6901): a path of reference tokens into a JSON value.
public struct JSONPointer: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The unescaped reference tokens, outermost first.
    public private(set) var tokens: [String]

    /// The pointer to the whole document (`""`).
    public static let root = JSONPointer(tokens: [])

    /// A pointer made of unescaped `tokens`.
    public init(tokens: [String]) { self.tokens = tokens }

    /// Parses the string form (RFC 6901 §3); nil when it does not start with "/" or has a bad "~" escape.
    public init?(_ string: String) {
        if string.isEmpty {
            tokens = []
            return
        }
        guard string.hasPrefix("/") else { return nil }
        var result: [String] = []
        for raw in string.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            guard let token = JSONPointer.unescape(raw) else { return nil }
            result.append(token)
        }
        tokens = result
    }

    /// This pointer extended by an object member name.
    public func appending(_ key: String) -> JSONPointer {
        JSONPointer(tokens: tokens + [key])
    }

    /// This pointer extended by an array index.
    public func appending(_ index: Int) -> JSONPointer {
        JSONPointer(tokens: tokens + [String(index)])
    }

    /// This pointer extended by several tokens.
    public func appending(_ keys: String...) -> JSONPointer {
        JSONPointer(tokens: tokens + keys)
    }

    /// The pointer to the parent, or nil for the root.
    public var parent: JSONPointer? {
        tokens.isEmpty ? nil : JSONPointer(tokens: Array(tokens.dropLast()))
    }

    /// The string form, each token escaped (RFC 6901 §3: "~" → "~0", "/" → "~1").
    public var description: String {
        var result = ""
        for token in tokens {
            result += "/"
            result += JSONPointer.escape(token)
        }
        return result
    }

    /// Escapes one reference token: "~" first, then "/", as RFC 6901 §3 requires.
    public static func escape(_ token: String) -> String {
        // "~" and "/" are ASCII, so a token without either byte has nothing to escape (checked on the bytes: this
        // runs for every pointer a preview page shows).
        guard token.utf8.contains(where: { $0 == 0x7E || $0 == 0x2F }) else { return token }
        var result = ""
        for character in token {
            switch character {
            case "~": result += "~0"
            case "/": result += "~1"
            default: result.append(character)
            }
        }
        return result
    }

    /// Unescapes one reference token; nil when "~" is followed by anything but "0" or "1".
    public static func unescape(_ token: some StringProtocol) -> String? {
        guard token.contains("~") else { return String(token) }
        var result = ""
        var iterator = token.makeIterator()
        while let character = iterator.next() {
            if character == "~" {
                // RFC 6901 §4: "~1" → "/" and "~0" → "~", decoded in that order so "~01" is "~1".
                switch iterator.next() {
                case "0": result.append("~")
                case "1": result.append("/")
                default: return nil
                }
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// The array index a token denotes (RFC 6901 §4: "0" or digits with no leading zero), or nil.
    static func arrayIndex(_ token: String) -> Int? {
        guard !token.isEmpty, token.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        if token.utf8.count > 1, token.utf8.first == 0x30 { return nil }
        return Int(token)
    }

    /// Orders pointers token by token, so problems sort in document-path order.
    public static func < (lhs: JSONPointer, rhs: JSONPointer) -> Bool {
        lhs.tokens.lexicographicallyPrecedes(rhs.tokens)
    }
}

extension JSONPointer: ExpressibleByStringLiteral {
    /// A pointer literal such as `"/features/camera"`; a malformed literal is a programmer error.
    public init(stringLiteral value: String) {
        guard let pointer = JSONPointer(value) else { preconditionFailure("malformed JSON pointer literal \(value)") }
        self = pointer
    }
}
