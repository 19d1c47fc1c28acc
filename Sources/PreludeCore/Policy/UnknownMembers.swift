/// What a reader of a policy document does with a member it does not know.
///
/// The server refuses every unknown member of what it is asked to publish, so a typo is an error and not a
/// setting silently ignored. A client reads what servers newer than itself send: since 0.2.0 it skips unknown
/// members of an experiment and of a variant's own object (docs/policy.md, "What clients receive").
public enum UnknownMembers: Sendable, Hashable {
    /// Every unknown member is a problem (`unknownMember`): publishing, stored revisions, lint.
    case refused
    /// Unknown members of an experiment object and of a variant object (not of its `set`, which overrides a
    /// feature's behaviour) are skipped; everywhere else they are problems. What ``PreludeClient`` reads with.
    case skippedInExperiments
}
