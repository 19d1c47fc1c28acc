import CCurl
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The product's one outbound HTTP client (docs/http.md, "The outbound client"): blocking HTTP/1.1 and HTTPS over
/// libcurl (loaded at run time from `libcurl.so.4`, so building needs no curl headers), used by `prelude healthcheck`, a read replica's change-feed sync and event forwarder, and the live tests.
///
/// Every exchange is bounded: a total timeout, a connect timeout, a largest body. Certificates are verified (peer and
/// host name) against the system's CA bundle or ``HTTPClientConfiguration/caFile``; there is no switch to turn
/// verification off. No redirect is followed unless the configuration asks, and no proxy is taken from the
/// environment (`http_proxy` and friends are ignored: an outbound call must go where its URL says).
///
/// Each ``send(_:url:headers:body:timeout:)`` uses its own libcurl easy handle, so the client is safe to share
/// between threads. ``abort()`` shuts down the sockets of exchanges in progress at once (a held long poll ends
/// without waiting for its timeout) and makes every later exchange fail with ``HTTPClientError/Kind/aborted``.
package final class HTTPClient: Sendable {
    /// The bounds and trust every exchange uses.
    package let configuration: HTTPClientConfiguration
    /// The sockets of exchanges in progress, recorded when libcurl creates them and removed, under the same lock,
    /// just before it closes them: ``abort()`` can never shut down a descriptor number already reused elsewhere.
    fileprivate let sockets = Mutex<Set<Int32>>([])
    fileprivate let aborted = Atomic(false)

    /// A client with `configuration`.
    package init(configuration: HTTPClientConfiguration = HTTPClientConfiguration()) {
        self.configuration = configuration
    }

    /// Aborts the exchanges in progress and makes every later one fail with ``HTTPClientError/Kind/aborted``.
    package func abort() {
        aborted.store(true, ordering: .releasing)
        sockets.withLock { sockets in
            for fd in sockets { shutdown(fd, Int32(SHUT_RDWR)) }
        }
    }

    /// Sends one request and returns the final response (any status); throws when there is none.
    ///
    /// - Parameters:
    ///   - method: the request method, e.g. `GET`, `POST`.
    ///   - url: an absolute `http://` or `https://` URL.
    ///   - headers: fields to send; a `Content-Type` or `User-Agent` here replaces the default one.
    ///   - body: the content; sent with `Content-Length` when not empty, and always for POST, PUT and PATCH.
    ///   - timeout: seconds for this exchange, replacing ``HTTPClientConfiguration/timeout``.
    package func send(
        _ method: String, url: String, headers: [(String, String)] = [], body: [UInt8] = [], timeout: Double? = nil
    ) throws(HTTPClientError) -> HTTPClientResponse {
        guard !aborted.load(ordering: .acquiring) else { throw HTTPClientError(.aborted, url: url, detail: "aborted") }
        try Self.check(method: method, headers: headers, url: url)
        // libcurl is loaded on the first exchange, not at start-up: a server that sends nothing never maps it.
        if let failure = prelude_curl_load() {
            throw HTTPClientError(.unavailable, url: url, detail: String(cString: failure))
        }
        let transfer = Transfer(client: self, limit: configuration.maxResponseSize)
        // The callbacks hold `transfer` unretained: it must outlive curl_easy_cleanup (declared after, so run before).
        defer { withExtendedLifetime(transfer) {} }
        guard let handle = prelude_curl_easy_init() else {
            throw HTTPClientError(.transfer, url: url, detail: "curl_easy_init failed")
        }
        defer { prelude_curl_easy_cleanup(handle) }
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(PRELUDE_CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(PRELUDE_CURL_ERROR_SIZE))
        defer { errorBuffer.deallocate() }
        var fields: OpaquePointer?
        defer { prelude_curl_slist_free_all(fields) }

        let seconds = timeout ?? configuration.timeout
        let context = Unmanaged.passUnretained(transfer).toOpaque()
        var named = Set(headers.map { $0.0.lowercased() })
        // Without these, libcurl adds `Expect: 100-continue` to large bodies and a form Content-Type to every body.
        named.formUnion(["expect"])
        var lines = headers.map { "\($0.0): \($0.1)" } + ["Expect:"]
        if !named.contains("content-type") { lines.append("Content-Type:") }
        if !named.contains("user-agent") { lines.append("User-Agent: \(configuration.userAgent)") }
        for line in lines { fields = prelude_curl_slist_append(fields, line) }

        var code = { () -> prelude_curl_code in
            var setup = PRELUDE_CURLE_OK
            func set(_ result: prelude_curl_code) { if setup == PRELUDE_CURLE_OK { setup = result } }
            set(prelude_curl_setopt_string(handle, PRELUDE_CURLOPT_URL, url))
            set(prelude_curl_setopt_string(handle, PRELUDE_CURLOPT_PROTOCOLS_STR, "http,https"))
            set(prelude_curl_setopt_string(handle, PRELUDE_CURLOPT_REDIR_PROTOCOLS_STR, "http,https"))
            set(prelude_curl_setopt_long(handle, PRELUDE_CURLOPT_FOLLOWLOCATION, configuration.followRedirects ? 1 : 0))
            set(prelude_curl_setopt_long(handle, PRELUDE_CURLOPT_MAXREDIRS, configuration.maxRedirects))
            // Environment proxies are ignored: "" disables every proxy.
            set(prelude_curl_setopt_string(handle, PRELUDE_CURLOPT_PROXY, ""))
            set(prelude_curl_setopt_long(handle, PRELUDE_CURLOPT_HTTP_VERSION, PRELUDE_CURL_HTTP_VERSION_1_1))
            // No signals (libcurl's resolver timeout would use SIGALRM, which is not thread-safe).
            set(prelude_curl_setopt_long(handle, PRELUDE_CURLOPT_NOSIGNAL, 1))
            set(prelude_curl_setopt_long(handle, PRELUDE_CURLOPT_TIMEOUT_MS, Self.milliseconds(seconds)))
            set(
                prelude_curl_setopt_long(
                    handle, PRELUDE_CURLOPT_CONNECTTIMEOUT_MS,
                    Self.milliseconds(min(seconds, configuration.connectTimeout))))
            set(prelude_curl_setopt_long(handle, PRELUDE_CURLOPT_SSL_VERIFYPEER, 1))
            set(prelude_curl_setopt_long(handle, PRELUDE_CURLOPT_SSL_VERIFYHOST, 2))
            if let caFile = configuration.caFile {
                set(prelude_curl_setopt_string(handle, PRELUDE_CURLOPT_CAINFO, caFile))
            }
            set(prelude_curl_setopt_pointer(handle, PRELUDE_CURLOPT_ERRORBUFFER, errorBuffer))
            set(prelude_curl_setopt_list(handle, PRELUDE_CURLOPT_HTTPHEADER, fields))
            set(prelude_curl_setopt_long(handle, PRELUDE_CURLOPT_TCP_NODELAY, 1))
            // One exchange per handle: the connection closes inside curl_easy_perform, not later in a cache.
            set(prelude_curl_setopt_long(handle, PRELUDE_CURLOPT_FORBID_REUSE, 1))
            set(Self.setMethod(method, body: body, on: handle))
            // A Content-Length over the limit fails before any byte is read; a chunked body is counted as it comes.
            set(prelude_curl_setopt_long(handle, PRELUDE_CURLOPT_MAXFILESIZE, configuration.maxResponseSize))
            set(prelude_curl_setopt_write(handle, PRELUDE_CURLOPT_WRITEFUNCTION, receiveBody))
            set(prelude_curl_setopt_pointer(handle, PRELUDE_CURLOPT_WRITEDATA, context))
            set(prelude_curl_setopt_write(handle, PRELUDE_CURLOPT_HEADERFUNCTION, receiveHeader))
            set(prelude_curl_setopt_pointer(handle, PRELUDE_CURLOPT_HEADERDATA, context))
            set(prelude_curl_setopt_sockopt(handle, socketCreated))
            set(prelude_curl_setopt_pointer(handle, PRELUDE_CURLOPT_SOCKOPTDATA, context))
            set(prelude_curl_setopt_closesocket(handle, socketClosing))
            set(prelude_curl_setopt_pointer(handle, PRELUDE_CURLOPT_CLOSESOCKETDATA, context))
            set(prelude_curl_setopt_long(handle, PRELUDE_CURLOPT_NOPROGRESS, 0))
            set(prelude_curl_setopt_progress(handle, progress))
            set(prelude_curl_setopt_pointer(handle, PRELUDE_CURLOPT_XFERINFODATA, context))
            guard setup == PRELUDE_CURLE_OK else { return setup }
            return prelude_curl_easy_perform(handle)
        }()
        if code == PRELUDE_CURLE_OK {
            var status = 0
            code = prelude_curl_getinfo_long(handle, PRELUDE_CURLINFO_RESPONSE_CODE, &status)
            if code == PRELUDE_CURLE_OK {
                return HTTPClientResponse(status: status, headers: transfer.headers, body: transfer.body)
            }
        }
        let explanation =
            errorBuffer.pointee != 0 ? String(cString: errorBuffer) : String(cString: prelude_curl_easy_strerror(code))
        throw HTTPClientError(
            Self.kind(of: code, transfer: transfer, aborted: aborted.load(ordering: .acquiring)), url: url,
            detail: transfer.tooLarge
                ? "response larger than \(configuration.maxResponseSize) bytes" : explanation)
    }

    /// Refuses a method that is not a token's printable characters, and a header field that would break the head.
    private static func check(method: String, headers: [(String, String)], url: String) throws(HTTPClientError) {
        guard !method.isEmpty, method.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw HTTPClientError(.invalidRequest, url: url, detail: "invalid method '\(method)'")
        }
        // A CR or LF would end the field early and let the rest be read as another field (header injection).
        for (name, value) in headers
        where name.isEmpty || name.utf8.contains(where: { $0 <= 0x20 || $0 == 0x3A || $0 >= 0x7F })
            || value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 })
        {
            throw HTTPClientError(.invalidRequest, url: url, detail: "invalid header field '\(name)'")
        }
    }

    /// Sets the request's method and body on `handle`: the first failing result, or `PRELUDE_CURLE_OK`.
    private static func setMethod(_ method: String, body: [UInt8], on handle: UnsafeMutableRawPointer)
        -> prelude_curl_code
    {
        var setup = PRELUDE_CURLE_OK
        func set(_ result: prelude_curl_code) { if setup == PRELUDE_CURLE_OK { setup = result } }
        switch method {
        case "HEAD":
            set(prelude_curl_setopt_long(handle, PRELUDE_CURLOPT_NOBODY, 1))
        case "GET" where body.isEmpty:
            set(prelude_curl_setopt_long(handle, PRELUDE_CURLOPT_HTTPGET, 1))
        default:
            set(prelude_curl_setopt_string(handle, PRELUDE_CURLOPT_CUSTOMREQUEST, method))
            if !body.isEmpty || method == "POST" || method == "PUT" || method == "PATCH" {
                set(prelude_curl_setopt_long(handle, PRELUDE_CURLOPT_POSTFIELDSIZE, body.count))
                // COPYPOSTFIELDS copies the bytes, so `body` need not outlive this call.
                set(
                    body.withUnsafeBufferPointer { bytes in
                        bytes.withMemoryRebound(to: CChar.self) { text in
                            guard let start = text.baseAddress else {
                                return prelude_curl_setopt_string(handle, PRELUDE_CURLOPT_COPYPOSTFIELDS, "")
                            }
                            return prelude_curl_setopt_string(handle, PRELUDE_CURLOPT_COPYPOSTFIELDS, start)
                        }
                    })
            }
        }
        return setup
    }

    /// The kind of failure a libcurl result code means.
    static func kind(of code: prelude_curl_code, transfer: Transfer, aborted: Bool) -> HTTPClientError.Kind {
        if aborted { return .aborted }
        if transfer.tooLarge { return .tooLarge }
        switch code {
        case PRELUDE_CURLE_UNSUPPORTED_PROTOCOL, PRELUDE_CURLE_URL_MALFORMAT, PRELUDE_CURLE_BAD_FUNCTION_ARGUMENT:
            return .invalidRequest
        case PRELUDE_CURLE_COULDNT_RESOLVE_HOST: return .resolve
        case PRELUDE_CURLE_COULDNT_CONNECT: return .connect
        case PRELUDE_CURLE_OPERATION_TIMEDOUT: return .timedOut
        case PRELUDE_CURLE_FILESIZE_EXCEEDED: return .tooLarge
        case PRELUDE_CURLE_PEER_FAILED_VERIFICATION, PRELUDE_CURLE_SSL_CONNECT_ERROR, PRELUDE_CURLE_SSL_CACERT_BADFILE,
            PRELUDE_CURLE_SSL_CERTPROBLEM,
            PRELUDE_CURLE_SSL_CIPHER, PRELUDE_CURLE_SSL_ISSUER_ERROR, PRELUDE_CURLE_SSL_PINNEDPUBKEYNOTMATCH,
            PRELUDE_CURLE_SSL_INVALIDCERTSTATUS:
            return .tls
        case PRELUDE_CURLE_ABORTED_BY_CALLBACK: return .aborted
        default: return .transfer
        }
    }

    private static func milliseconds(_ seconds: Double) -> Int { max(1, Int((seconds * 1000).rounded(.up))) }

    /// What libcurl's callbacks of one exchange write into; lives for the duration of `curl_easy_perform`.
    final class Transfer {
        let client: HTTPClient
        let limit: Int
        var body: [UInt8] = []
        var headers: [String: String] = [:]
        var tooLarge = false

        init(client: HTTPClient, limit: Int) {
            self.client = client
            self.limit = limit
        }

        static func from(_ pointer: UnsafeMutableRawPointer?) -> Transfer {
            Unmanaged<Transfer>.fromOpaque(pointer!).takeUnretainedValue()
        }
    }
}

// libcurl's callbacks: C function pointers, so no captures; the Transfer comes through the data pointer.

private let receiveBody: prelude_curl_write_callback = { bytes, size, count, context in
    let transfer = HTTPClient.Transfer.from(context)
    let length = size * count
    guard transfer.body.count + length <= transfer.limit else {
        transfer.tooLarge = true
        return 0  // any other count than `length` ends the exchange with PRELUDE_CURLE_WRITE_ERROR
    }
    if let bytes, length > 0 {
        transfer.body.append(contentsOf: UnsafeRawBufferPointer(start: bytes, count: length))
    }
    return length
}

private let receiveHeader: prelude_curl_write_callback = { bytes, size, count, context in
    let transfer = HTTPClient.Transfer.from(context)
    let length = size * count
    guard let bytes else { return length }
    var raw = UnsafeRawBufferPointer(start: bytes, count: length)[...]
    while let last = raw.last, last == 0x0A || last == 0x0D { raw.removeLast() }
    let line = String(decoding: raw, as: UTF8.self)
    if line.hasPrefix("HTTP/") {
        // A new status line: an interim 1xx or a followed redirect came before; only the final response's fields count.
        transfer.headers = [:]
    } else if let colon = line.firstIndex(of: ":") {
        let name = line[..<colon].lowercased()
        var value = Substring(line[line.index(after: colon)...])
        while let first = value.first, first == " " || first == "\t" { value.removeFirst() }
        while let last = value.last, last == " " || last == "\t" { value.removeLast() }
        if let earlier = transfer.headers[name] {
            transfer.headers[name] = earlier + ", " + value
        } else {
            transfer.headers[name] = String(value)
        }
    }
    return length
}

private let socketCreated: prelude_curl_sockopt_callback = { context, fd, _ in
    let client = HTTPClient.Transfer.from(context).client
    return client.sockets.withLock { sockets in
        if client.aborted.load(ordering: .acquiring) { return Int32(PRELUDE_CURL_SOCKOPT_ERROR) }
        sockets.insert(fd)
        return Int32(PRELUDE_CURL_SOCKOPT_OK)
    }
}

private let socketClosing: prelude_curl_closesocket_callback = { context, fd in
    let client = HTTPClient.Transfer.from(context).client
    return client.sockets.withLock { sockets in
        sockets.remove(fd)
        return close(fd)
    }
}

private let progress: prelude_curl_xferinfo_callback = { context, _, _, _, _ in
    // Non-zero ends the exchange with PRELUDE_CURLE_ABORTED_BY_CALLBACK (libcurl calls this about once a second when idle).
    HTTPClient.Transfer.from(context).client.aborted.load(ordering: .acquiring) ? 1 : 0
}
