/// The variant an install was assigned in one experiment.
public struct VariantAssignment: Sendable, Hashable {
    /// The experiment's key.
    public var experiment: String
    /// The variant's name.
    public var variant: String

    /// An assignment of `variant` in `experiment`.
    public init(experiment: String, variant: String) {
        self.experiment = experiment
        self.variant = variant
    }

    /// `{"experiment", "variant"}`.
    public var jsonValue: JSONValue { ["experiment": .string(experiment), "variant": .string(variant)] }
}
