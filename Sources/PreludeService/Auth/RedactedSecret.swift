/// A secret held in memory that never prints: `description` and `debugDescription` are `<redacted>`, so a
/// configuration dumped into a log or an error message cannot leak it.
package struct RedactedSecret: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The secret itself; read it only to hash it.
    package let value: String

    /// Wraps `value`.
    package init(_ value: String) { self.value = value }

    /// `<redacted>`.
    package var description: String { "<redacted>" }
    /// `<redacted>`.
    package var debugDescription: String { "<redacted>" }
    /// No children, so `dump` and `String(reflecting:)` of an enclosing value show nothing either.
    package var customMirror: Mirror { Mirror(self, children: [:]) }
}
