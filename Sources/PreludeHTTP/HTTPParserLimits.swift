/// Size limits applied while parsing a request (see docs/http.md for the defaults and their sources).
package struct HTTPParserLimits: Sendable {
    package var maxRequestLineLength: Int
    package var maxHeaderLineLength: Int
    package var maxHeaderBytes: Int
    package var maxHeaderCount: Int

    package init(maxRequestLineLength: Int, maxHeaderLineLength: Int, maxHeaderBytes: Int, maxHeaderCount: Int) {
        self.maxRequestLineLength = maxRequestLineLength
        self.maxHeaderLineLength = maxHeaderLineLength
        self.maxHeaderBytes = maxHeaderBytes
        self.maxHeaderCount = maxHeaderCount
    }
}
