/// Facts about this build of the service.
public enum ServiceInfo {
    /// The product name sent in the `Server` header and logs.
    public static let name = "prelude"
    /// The service version.
    public static let version = "0.1.0"
}
