import PreludeStore
import Testing

/// A write's `If-Match` condition, as the store applies it: tags compared as bytes, `*` the only way past an app
/// with no current representation.
@Suite struct RevisionPreconditionTests {
    static let live: [[UInt8]] = [Array("r2-abc-10".utf8), Array("r2-abc-10.gz".utf8)]

    @Test func wildcardAdmitsAnyRevisionAndAnAppWithoutOne() {
        #expect(RevisionPrecondition.anyRevision.admits(Self.live))
        #expect(RevisionPrecondition.anyRevision.admits(nil))
    }

    @Test func listedTagAdmitsOnlyTheRevisionItNames() {
        #expect(RevisionPrecondition.oneOf([Array("r2-abc-10.gz".utf8)]).admits(Self.live))
        #expect(RevisionPrecondition.oneOf([Array("r1-abc-10".utf8), Array("r2-abc-10".utf8)]).admits(Self.live))
        #expect(!RevisionPrecondition.oneOf([Array("r1-abc-10".utf8)]).admits(Self.live))
        #expect(!RevisionPrecondition.oneOf([Array("r2-abc-1".utf8)]).admits(Self.live))
    }

    @Test func listedTagNeverAdmitsAnAppWithoutCurrentRepresentation() {
        #expect(!RevisionPrecondition.oneOf([Array("r2-abc-10".utf8)]).admits(nil))
        #expect(!RevisionPrecondition.oneOf([]).admits(Self.live))
    }
}
