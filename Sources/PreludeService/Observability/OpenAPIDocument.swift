import Foundation
import PreludeHTTP

/// The service's OpenAPI description (`openapi.yaml` at the repository's top level), read once at start and
/// served prepared (identity and gzip, ETag) at `GET /openapi.yaml`.
///
/// The file is found like the migrations (`ResourceLocator`: working directory, then beside the executable
/// and its ancestors, also under `share/prelude/`), so the container must ship it beside `migrations/`.
package struct OpenAPIDocument: Sendable {
    /// The file name searched for.
    package static let fileName = "openapi.yaml"
    /// The media type (RFC 9512).
    package static let contentType = "application/yaml"

    /// Where the document was read from.
    package let path: String
    /// The response, prepared once (both codings, 200 and 304 heads).
    package let response: PreparedResponse

    /// Reads the document at `path`; nil when it cannot be read.
    package init?(path: String) {
        guard let data = FileManager.default.contents(atPath: path), !data.isEmpty else { return nil }
        self.path = path
        response = PreparedResponse(
            HTTPResponse.Prepared(identity: Array(data)), contentType: Self.contentType,
            headers: ["Cache-Control": "public, max-age=300"])
    }

    /// Finds and reads `openapi.yaml`; nil when no candidate exists.
    package static func locate() -> OpenAPIDocument? {
        ResourceLocator.locate(fileName).flatMap(OpenAPIDocument.init(path:))
    }
}
