/// The characters no stored string may hold: what the service keeps from a request is shown on an iOS screen,
/// written to logs and audit records, and compared by people, so invisible and non-text code points are refused.
///
/// Refused (Unicode 15, chapter 23 and §23.7):
/// - C0 controls U+0000–U+001F, DEL U+007F and C1 controls U+0080–U+009F (general category Cc); line feed
///   U+000A only where a caller allows it (copy messages, which may have paragraphs);
/// - noncharacters: U+FDD0–U+FDEF and the last two code points of every plane (U+FFFE, U+FFFF, U+1FFFE, ...).
///
/// Lone surrogates never reach a Swift `String`: the JSON parser refuses `\uD800` without its pair, and invalid
/// UTF-8 is refused before that.
public enum StoredText {
    /// The first refused scalar of `text` and its position (in Unicode scalars, from 0), or nil when none.
    public static func forbiddenScalar(in text: String, allowingNewline: Bool = false) -> (
        scalar: Unicode.Scalar, offset: Int
    )? {
        // Most stored text is printable ASCII (U+0020–U+007E), which holds no refused scalar: one pass over the
        // bytes answers for it without decoding scalars.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return nil }
        for (offset, scalar) in text.unicodeScalars.enumerated() where isForbidden(scalar) {
            if allowingNewline && scalar == "\n" { continue }
            return (scalar, offset)
        }
        return nil
    }

    /// Whether `scalar` is a control character or a noncharacter.
    public static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x20 || (0x7F...0x9F).contains(value) { return true }
        if (0xFDD0...0xFDEF).contains(value) { return true }
        return value & 0xFFFE == 0xFFFE
    }

    /// "U+0000 (a control character)" or "U+FFFF (a noncharacter)".
    public static func describe(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        let padded = String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        let kind = scalar.value <= 0x9F ? "a control character" : "a noncharacter"
        return "U+\(padded) (\(kind))"
    }

    /// A sentence naming the refused scalar of `text`, or nil when `text` may be stored.
    public static func problem(in text: String, allowingNewline: Bool = false, subject: String = "The text") -> String?
    {
        guard let (scalar, offset) = forbiddenScalar(in: text, allowingNewline: allowingNewline) else { return nil }
        let newline = allowingNewline ? " (a line feed, U+000A, is allowed here)" : ""
        return "\(subject) has \(describe(scalar)) at character \(offset + 1); control characters and noncharacters "
            + "cannot be stored\(newline)."
    }
}
