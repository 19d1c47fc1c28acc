import PreludeCore

/// One approval of a change request as stored in `change_requests.approvals`.
package struct ChangeRequestApproval: Sendable, Equatable {
    /// Who approved (a token name).
    package var approver: String
    /// The token's id, when a token approved.
    package var tokenID: Int64?
    /// When (ms since the epoch).
    package var at: Int64
    /// The approver's comment.
    package var comment: String?

    /// An approval.
    package init(approver: String, tokenID: Int64?, at: Int64, comment: String?) {
        self.approver = approver
        self.tokenID = tokenID
        self.at = at
        self.comment = comment
    }

    /// `{"approver", "tokenId", "at", "comment"}` as stored.
    package var jsonValue: JSONValue {
        var object = JSONObject()
        object["approver"] = .string(approver)
        object["tokenId"] = tokenID.map { .integer(Int($0)) } ?? .null
        object["at"] = .integer(Int(at))
        object["comment"] = comment.map(JSONValue.string) ?? .null
        return .object(object)
    }

    /// Decodes one stored approval; nil when it is not one.
    package init?(_ json: JSONValue) {
        guard let approver = json["approver"]?.stringValue, let at = json["at"]?.intValue else { return nil }
        self.init(
            approver: approver, tokenID: json["tokenId"]?.intValue.map(Int64.init), at: Int64(at),
            comment: json["comment"]?.stringValue)
    }
}
