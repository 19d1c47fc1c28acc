/// The entity tag of a policy revision, as the store writes it to `policy_revisions.etag` and the service sends it:
/// `r<revision>-<fnv64 hex>-<length hex>` (the opaque tag; ``quoted(revision:canonical:)`` adds the quotes the
/// column and the `ETag` header hold).
///
/// Strong (RFC 9110 §8.8.3): the 64-bit FNV-1a hash and the length come from the canonical document bytes, so
/// byte-identical documents tag alike on every machine and restart; the revision number makes two revisions with
/// equal content (a rollback) distinct. Kept as text here so the store needs no HTTP type; the service wraps it
/// in PreludeHTTP's `ETag` (`PolicyETag`), whose content hash is the same FNV-1a.
package enum RevisionTag {
    /// The opaque tag (no quotes) of `revision` whose canonical bytes are `canonical`.
    package static func make(revision: Int, canonical: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in canonical {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return "r\(revision)-" + String(repeating: "0", count: 16 - hex.count) + hex + "-"
            + String(canonical.count, radix: 16)
    }

    /// The tag in double quotes, as stored and as the `ETag` header carries it.
    package static func quoted(revision: Int, canonical: [UInt8]) -> String {
        "\"" + make(revision: revision, canonical: canonical) + "\""
    }
}
