/// The version of the policy document format this build reads and writes.
public enum PolicySchema {
    /// The current `schemaVersion`.
    public static let currentVersion = 1
}
