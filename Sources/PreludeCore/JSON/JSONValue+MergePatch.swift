extension JSONValue {
    /// This value with `patch` applied as a JSON Merge Patch (RFC 7396 §2).
    ///
    /// An object patch merges member by member, `null` removes a member, anything else replaces the target.
    /// New members are appended after the existing ones, so the target's layout is kept.
    public func mergePatch(_ patch: JSONValue) -> JSONValue {
        guard case .object(let patchObject) = patch else { return patch }
        var target = objectValue ?? JSONObject()
        for (key, value) in patchObject {
            if value.isNull {
                target[key] = nil
            } else {
                target[key] = (target[key] ?? .null).mergePatch(value)
            }
        }
        return .object(target)
    }

    /// Applies `patch` in place as a JSON Merge Patch (RFC 7396 §2).
    public mutating func applyMergePatch(_ patch: JSONValue) {
        self = mergePatch(patch)
    }
}
