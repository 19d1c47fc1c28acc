import PreludeCore
import PreludeHTTP
import PreludeStore

/// A change request as JSON: what the admin API answers and `prelude changes … --json` prints, one shape for both
/// (docs/change-management.md, "API").
package enum ChangeRequestView {
    /// The request's strong entity tag: `cr<id>-v<version>`.
    package static func tag(_ record: ChangeRequestRecord) -> ETag { ETag("cr\(record.id)-v\(record.version)") }

    /// The request's entity tag in header form (`"cr3-v2"`).
    package static func etag(_ record: ChangeRequestRecord) -> String { tag(record).headerValue }

    /// One request in a list: everything but the document, diff and findings. `live` is the environment's live
    /// revision (for `baseIsLive`).
    package static func summary(_ record: ChangeRequestRecord, live: Int?) -> JSONValue {
        var object = JSONObject()
        object["id"] = .integer(Int(record.id))
        object["app"] = .string(record.app)
        object["environment"] = .string(record.environment)
        object["kind"] = .string(record.kind.rawValue)
        object["state"] = .string(record.state.rawValue)
        object["version"] = .integer(record.version)
        object["etag"] = .string(etag(record))
        object["baseRevision"] = record.baseRevision.map { .integer($0) } ?? .null
        // Settings and a rollout's plan are not based on a revision: they never go stale.
        object["baseIsLive"] = .bool(!record.kind.isBasedOnRevision || record.baseRevision == live)
        object["author"] = .string(record.author)
        object["message"] = record.message.map(JSONValue.string) ?? .null
        object["approvals"] = .array(
            record.approvals.map { approval in
                [
                    "approver": .string(approval.approver), "at": .string(AdminTime.iso8601(approval.at)),
                    "comment": approval.comment.map(JSONValue.string) ?? .null,
                ]
            })
        object["scheduledAt"] = record.scheduledAt.map { .string(AdminTime.iso8601($0)) } ?? .null
        object["appliedRevision"] = record.appliedRevision.map { .integer($0) } ?? .null
        object["closedBy"] = record.closedBy.map(JSONValue.string) ?? .null
        object["reason"] = record.reason.map(JSONValue.string) ?? .null
        object["createdAt"] = .string(AdminTime.iso8601(record.createdAt))
        object["updatedAt"] = .string(AdminTime.iso8601(record.updatedAt))
        return .object(object)
    }

    /// The paths of request `record`: itself and its proposed document.
    package static func links(_ record: ChangeRequestRecord) -> JSONValue {
        let path = "/v1/admin/apps/\(record.app)/environments/\(record.environment)/change-requests/\(record.id)"
        return ["self": .string(path), "document": .string(path + "/document")]
    }

    /// At most this many changed pointers in a transition's answer (``state(_:changes:)``); the GET has them all.
    package static let pointerLimit = 100

    /// The request's state and links: what every write (create, edit, each transition, a promotion that became a
    /// request) answers (docs/change-management.md, "API"). The summary, the environment's live revision and
    /// approval count, the patch's summary (`changeCount` and at most ``pointerLimit`` `changedPointers`, with
    /// `changedPointersTruncated` when there are more) and `links` to GET the whole request and its document; never
    /// the document, diff or findings.
    package static func state(_ record: ChangeRequestRecord, changes: ChangeRequests) throws -> JSONObject {
        let rules = try changes.rules(for: record)
        let live = changes.liveRevision(app: record.app, environment: record.environment)
        var object = summary(record, live: live).objectValue ?? JSONObject()
        object["liveRevision"] = live.map { .integer($0) } ?? .null
        object["requiredApprovals"] = .integer(rules.approval.requiredApprovals)
        object["approvalsCounted"] = .integer(
            rules.approval.counted(record.approvals.map(\.approver), author: record.author).count)
        let patch = try changes.patch(record)
        object["changeCount"] = .integer(patch.count)
        object["changedPointers"] = .array(patch.prefix(pointerLimit).map { .string($0.pointer.description) })
        if patch.count > pointerLimit { object["changedPointersTruncated"] = .bool(true) }
        object["links"] = links(record)
        return object
    }

    /// The answer to a write of a request (create, edit, each transition, a promotion that became a request): its
    /// ``state(_:changes:)`` plus `extra`, with its `ETag` and, for a new one, its `Location`. The whole request,
    /// document included, is the GET's.
    static func response(
        _ record: ChangeRequestRecord, changes: ChangeRequests, pretty: Bool, status: HTTPStatus = .ok,
        location: String? = nil, extra: JSONObject = JSONObject()
    ) throws -> HTTPResponse {
        var object = try state(record, changes: changes)
        for (key, value) in extra { object[key] = value }
        var headers = HTTPHeaders()
        headers.set("ETag", etag(record))
        if let location { headers.set("Location", location) }
        return AdminResponse.json(.object(object), pretty: pretty, status: status, headers: headers)
    }

    /// The whole request (the GET and `prelude changes show --json`): its ``state(_:changes:)``, the environment's
    /// `allowSelfApproval`, the findings (validation with this build, lint as stored), the diff against its base,
    /// the merge patch it was made from, its patch (`changes`: what a re-base re-applies) and the proposed
    /// document.
    /// `diff` is the diff when the caller has it (an apply).
    package static func detail(
        _ record: ChangeRequestRecord, changes: ChangeRequests, diff: [JSONDiff.Change]? = nil
    ) throws -> JSONObject {
        let rules = try changes.rules(for: record)
        var object = try state(record, changes: changes)
        object["allowSelfApproval"] = .bool(rules.approval.allowSelfApproval)
        let document = (try? JSONValue(parsing: record.document)) ?? .null
        let problems: [ValidationProblem]
        // Only a policy document is validated; settings and a rollout's plan were checked when proposed.
        switch record.kind == .policy ? changes.checked.check(canonical: record.document) : nil {
        case .some(.failure(let failure)): problems = failure.problems
        default: problems = []
        }
        object["findings"] = [
            "validation": .array(problems.map(\.jsonValue)),
            "lint": (try? JSONValue(parsing: record.findings)) ?? .array([]),
        ]
        object["diff"] = JSONDiff.jsonValue(try diff ?? changes.diff(record))
        object["patch"] = record.patch.flatMap { try? JSONValue(parsing: $0) } ?? .null
        object["changes"] = JSONDiff.jsonValue(try changes.patch(record))
        object["document"] = document
        return object
    }
}
