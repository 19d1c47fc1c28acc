/// Why a text is not valid JSON, and where.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: String, Sendable, Hashable {
        case emptyInput
        case unexpectedEndOfInput
        case unexpectedCharacter
        case trailingCharacters
        case invalidLiteral
        case invalidNumber
        case numberOutOfRange
        case unescapedControlCharacter
        case invalidEscape
        case invalidUnicodeEscape
        case loneSurrogate
        case invalidUTF8
        case duplicateKey
        case tooDeeplyNested
    }

    /// The stable reason code.
    public var reason: Reason
    /// The byte offset (0-based) in the input where the problem was found.
    public var offset: Int
    /// The line (1-based) of `offset`.
    public var line: Int
    /// The column (1-based, in bytes) of `offset`.
    public var column: Int
    /// A sentence describing the problem.
    public var message: String

    /// "message at line L, column C (byte O)".
    public var description: String {
        "\(message) at line \(line), column \(column) (byte \(offset))"
    }
}
