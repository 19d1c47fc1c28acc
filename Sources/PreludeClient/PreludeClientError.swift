/// Why the client cannot answer.
public enum PreludeClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No policy to decide with: no bootstrap was bundled and none was ever fetched.
    case noPolicy
    /// The bundled bootstrap policy does not validate (a build problem: `prelude policy validate` it).
    case invalidBootstrap(String)
    /// A task name the events API would refuse: it must be 1–128 visible ASCII characters.
    case invalidTaskName(String)

    public var description: String {
        switch self {
        case .noPolicy: "no policy yet: bundle a bootstrap policy or refresh() first"
        case .invalidBootstrap(let problem): "the bootstrap policy does not validate: \(problem)"
        case .invalidTaskName(let name): "task name \"\(name)\" is not 1–128 visible ASCII characters"
        }
    }
}
