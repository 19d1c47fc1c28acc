/// `Accept` negotiation (RFC 9110 §12.5.1) between JSON and HTML, for resources that have both (an experiment's
/// results: the report as JSON, or the results page).
public enum AcceptMediaType {
    /// True when the client prefers `text/html` to `application/json`.
    ///
    /// No header, `*/*` alone, or JSON listed at least as high as HTML → JSON (the API's default: curl and SDKs
    /// get what they always got). HTML wins only when `text/html` (or `text/*`) is acceptable with a q-value above
    /// JSON's, where JSON's is its own entry, else `application/*`, else `*/*` — so a browser's
    /// `text/html,…,*/*;q=0.8` gets the page.
    public static func prefersHTML(_ headerValue: String?) -> Bool {
        guard let headerValue else { return false }
        var html: Double?
        var textAny: Double?
        var json: Double?
        var applicationAny: Double?
        var any: Double?
        for element in headerValue.split(separator: ",") {
            let parts = element.split(separator: ";")
            guard let first = parts.first else { continue }
            let range = first.trimmingOWS().lowercased()
            var q = 1.0
            for parameter in parts.dropFirst() {
                let p = parameter.trimmingOWS()
                guard p.count >= 2, p.first == "q" || p.first == "Q", p.dropFirst().first == "=" else { continue }
                q = AcceptEncoding.parseQValue(p.dropFirst(2)) ?? 0
            }
            switch range {
            case "text/html": html = max(html ?? 0, q)
            case "text/*": textAny = q
            case "application/json": json = max(json ?? 0, q)
            case "application/*": applicationAny = q
            case "*/*": any = q
            default: break
            }
        }
        let htmlQ = html ?? textAny ?? 0
        let jsonQ = json ?? applicationAny ?? any ?? 0
        return htmlQ > 0 && htmlQ > jsonQ
    }
}
