import PreludeCore
import PreludeHTTP
import PreludePreview
import PreludeStorage
import PreludeStore

/// The policy preview (docs/preview.md): every screen of the live policy, of a stored revision, or of a proposed
/// document next to the live one, as one self-contained HTML page. Read scope: nothing is written. Holds the live
/// policies, the stored revisions and the policy writer (validation, the 404 naming what is missing).
///
/// Rendered per request, off the policy hot path: a preview is a review tool, asked for by people.
struct PreviewRoutes: AdminRouteCollection {
    let store: PolicyStore
    let apps: PolicyRepository
    let writer: PolicyWriter

    /// `GET …/preview`, `GET …/revisions/{number}/preview` and `POST …/preview`.
    func register(on group: inout AdminRouteGroup) {
        group.addEnvironmental(.get, "/preview", query: []) { [self] context in
            Self.html(PreviewRenderer.render(try liveInput(context.target)))
        }
        group.addEnvironmental(.get, "/revisions/{number}/preview", query: []) { [self] context in
            let number = try AdminAPI.revisionNumber(context.parameter("number"))
            return Self.html(PreviewRenderer.render(try revisionInput(context.target, number: number)))
        }
        // Previewing a proposed document changes nothing, so a read token may use it.
        group.addEnvironmental(.post, "/preview", scope: .read, query: []) { [self] context in
            let app = context.parameter("app")
            let candidate = try AdminRequestBody.parse(context.request)
            let live = try writer.knownApp(context.target)
            let document = try writer.validatedCandidate(candidate, consequence: "; nothing to preview")
            guard document.app.id == app else {
                throw PolicyStoreProblem.appMismatch(app: app, documentApp: document.app.id)
            }
            let proposed = PreviewInput(
                document: document, origin: "proposed (not saved)", sha256: Self.sha256(of: document))
            return Self.html(PreviewRenderer.render(proposed, comparedWith: live.map(Self.input)))
        }
    }

    /// The live revision's preview input; 404 for an unknown app or one with no live revision, 503 when its live
    /// revision cannot be served.
    private func liveInput(_ target: PolicyStore.Key) throws -> PreviewInput {
        guard let snapshot = store.snapshot(app: target.app, environment: target.environment) else {
            if let reason = store.unavailability(app: target.app, environment: target.environment) {
                throw PublicProblem.notServed(target.description, reason)
            }
            throw try writer.missing(target)
        }
        return Self.input(snapshot)
    }

    private static func input(_ snapshot: ServedPolicy) -> PreviewInput {
        var input = PreviewInput(
            document: snapshot.document, origin: "revision \(snapshot.revision) (live)", revision: snapshot.revision,
            sha256: SHA256.hex(SHA256.digest(snapshot.canonicalBytes)))
        input.findings = (input.findings + snapshot.storedFindings.map(LintFinding.stored)).sorted()
        return input
    }

    /// A stored revision's preview input; 404 for an unknown app or revision, 422 when it no longer validates.
    private func revisionInput(_ target: PolicyStore.Key, number: Int) throws -> PreviewInput {
        guard
            let found = try apps.revision(app: target.app, environment: target.environment, number: number).map({
                $0?.document
            })
        else { throw try writer.missing(target) }
        guard let found else { throw AdminAPI.unknownRevision(target, number) }
        // A revision an earlier build accepted is shown as this build serves it (StoredPolicyReader): fallback
        // texts where a newer rule requires one, and each rule it breaks as a finding.
        let reading = StoredPolicyReader.read(text: found)
        guard let document = reading.document else {
            throw ProblemDetails(
                status: .unprocessableContent, type: PolicyStoreProblem.invalidRevision,
                detail: "revision \(number) cannot be read by this version of the service: \(reading.refusal ?? "")",
                errors: reading.findings.map {
                    FieldProblem(pointer: $0.pointer.description, code: $0.code.rawValue, detail: $0.message)
                })
        }
        let live = store.snapshot(app: target.app, environment: target.environment)?.revision == number
        var input = PreviewInput(
            document: document, origin: "revision \(number)\(live ? " (live)" : "")", revision: number,
            sha256: Self.sha256(of: document))
        input.findings = (input.findings + reading.findings.map(LintFinding.stored)).sorted()
        return input
    }

    /// SHA-256 (hex) of the document's canonical JSON, the bytes a live snapshot serves.
    private static func sha256(of document: PolicyDocument) -> String {
        SHA256.hex(SHA256.digest(document.jsonValue.serializedBytes()))
    }

    /// An HTML page: never stored by shared caches, and (RFC 9110 has no say; CSP Level 3 does) allowed to load
    /// nothing but its own inline style, so copy can never become script even if escaping failed.
    private static func html(_ page: String) -> HTTPResponse {
        var response = HTTPResponse(status: .ok, body: Array(page.utf8))
        response.headers.set("Content-Type", "text/html; charset=utf-8")
        response.headers.set("Cache-Control", "no-store")
        response.headers.set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
        response.headers.set("X-Content-Type-Options", "nosniff")
        return response
    }
}
