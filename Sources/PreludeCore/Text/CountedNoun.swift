/// "1 error", "2 errors": a count with its noun in the right number, for every message that counts something.
public enum CountedNoun {
    /// `count` and `singular`, or `plural` (default `singular` + "s") unless `count` is 1.
    public static func text(_ count: Int, _ singular: String, plural: String? = nil) -> String {
        "\(count) \(count == 1 ? singular : plural ?? singular + "s")"
    }
}
