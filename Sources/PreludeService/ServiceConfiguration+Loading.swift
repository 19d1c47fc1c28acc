#if canImport(FoundationEssentials)
    import Dispatch
    import FoundationEssentials
    import Glibc
#else
    import Foundation
#endif

extension ServiceConfiguration {
    /// Reads the configuration file and merges every source (see `resolve`).
    ///
    /// The file is `configFile` (from `--config`), else `PRELUDE_CONFIG`, else `config/prelude.json` searched
    /// by `ResourceLocator`. A file named explicitly must exist; the default one may be absent (the built-in
    /// defaults are the same values).
    package static func load(
        configFile: String?, environment: [String: String], flags: [ConfigurationSetting: String]
    ) throws(ConfigurationError) -> ServiceConfiguration {
        let explicit = configFile ?? environment["PRELUDE_CONFIG"]
        let path: String?
        if let explicit {
            path = explicit
        } else {
            path = ResourceLocator.locate(defaultConfigFile)
        }
        var text: String?
        if let path {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw ConfigurationError(
                    setting: configFile != nil ? "--config" : "PRELUDE_CONFIG", problem: "cannot read \(path)")
            }
            text = String(decoding: data, as: UTF8.self)
        }
        return try resolve(fileText: text, fileName: path ?? defaultConfigFile, environment: environment, flags: flags)
    }
}
