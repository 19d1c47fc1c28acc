import PreludeHTTP
import PreludeStore

/// The entity tag of a live policy revision: `"r<revision>-<fnv64 hex>-<length hex>"`.
///
/// Strong (RFC 9110 §8.8.3): the FNV-1a 64-bit hash and length come from the *canonical* document bytes
/// (``PreludeCore/PolicyDocument/jsonValue`` serialized compactly), so byte-identical documents hash alike on
/// every machine and restart; the revision number makes two revisions with equal content (a rollback) distinct,
/// so an `If-Match` taken before a rollback cannot silently apply after it. The gzip representation of the
/// document is tagged with the same value plus `.gz` (a different representation needs a different strong tag).
package enum PolicyETag {
    /// The tag of `revision` whose canonical bytes are `canonical`.
    package static func make(revision: Int, canonical: [UInt8]) -> ETag {
        ETag(RevisionTag.make(revision: revision, canonical: canonical))
    }

    /// The tag of the gzip representation of a document tagged `etag`.
    package static func gzip(_ etag: ETag) -> ETag {
        ETag(etag.opaqueTag + ".gz")
    }
}

extension RevisionPrecondition {
    /// The condition an `If-Match` header value states: `*` is any revision; otherwise the strong tags it lists
    /// (RFC 9110 §13.1.1: If-Match compares strongly, so a weak tag never matches and is dropped here).
    package init(ifMatch headerValue: String) {
        let list = ETag.parseList(headerValue)
        self = list.isWildcard ? .anyRevision : .oneOf(list.tags.filter { !$0.weak }.map { Array($0.tag.utf8) })
    }
}
