/// Why the client cannot answer.
public enum PreludeClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No policy to decide with: no bootstrap was bundled and none was ever fetched.
    case noPolicy
    /// The bundled bootstrap policy does not validate (a build problem: `prelude policy validate` it).
    case invalidBootstrap(String)

    public var description: String {
        switch self {
        case .noPolicy: "no policy yet: bundle a bootstrap policy or refresh() first"
        case .invalidBootstrap(let problem): "the bootstrap policy does not validate: \(problem)"
        }
    }
}
