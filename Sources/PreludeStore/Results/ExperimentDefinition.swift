import PreludeCore
import PreludeStorage

/// What the analysis needs from an experiment's configuration: its feature, variants with weights, and control.
package struct ExperimentDefinition: Sendable {
    /// Where the configuration came from.
    package enum Source: Sendable, Hashable {
        /// The app's live policy, at this revision.
        case live(revision: Int)
        /// An older revision: the experiment is no longer in the live policy (concluded or removed).
        case revision(Int)
        /// No revision up to the live one has the experiment: variants are those seen in events, weights equal.
        case observed
    }

    /// The experiment key.
    package var key: String
    /// The feature it tests (`Feature` raw value).
    package var feature: String
    /// Variant names and configured weights, in configuration (bucket) order.
    package var variants: [(name: String, weight: Double)]
    /// The variant the others are compared with.
    package var control: String
    /// Where this came from.
    package var source: Source
    /// The verdict's significance level, fixed by the revision (``Experiment/analysisAlpha``).
    package var alpha: Double
    /// The minimum effect fixed by the revision (``Experiment/analysisMinimumEffect``).
    package var minimumEffect: Double

    /// Creates a definition; the analysis settings default to those of a revision that names none.
    package init(
        key: String, feature: String, variants: [(name: String, weight: Double)], control: String, source: Source,
        alpha: Double = Experiment.defaultAlpha, minimumEffect: Double = Experiment.defaultMinimumEffect
    ) {
        self.key = key
        self.feature = feature
        self.variants = variants
        self.control = control
        self.source = source
        self.alpha = alpha
        self.minimumEffect = minimumEffect
    }

    /// The definition of a configured experiment. The control is the variant named `control`, else the first
    /// variant without `set` (docs/policy.md: "a variant without `set` is a control"), else the first variant.
    package init(_ experiment: Experiment, source: Source) {
        let named = experiment.variants.first { $0.name == "control" }
        let plain = experiment.variants.first { $0.set == FeatureOverride() }
        let control = named ?? plain ?? experiment.variants.first
        self.init(
            key: experiment.key, feature: experiment.feature.rawValue,
            variants: experiment.variants.map { ($0.name, $0.weight) }, control: control?.name ?? "", source: source,
            alpha: experiment.analysisAlpha, minimumEffect: experiment.analysisMinimumEffect)
    }

    /// The newest revision of the environment's chain up to the live one that configures `key`, read with SQLite's JSON functions so only that
    /// experiment's JSON is decoded (by the policy core's decoder, so the rules match the live policy's).
    package static func configured(
        appID: String, environment: String, key: String, liveRevision: Int, on connection: Connection
    ) throws -> ExperimentDefinition? {
        guard
            let row = try connection.statement(
                connection.engine == .sqlite ? selectConfigured : selectConfiguredPostgres
            ).query([
                .text(appID), .text(environment), .integer(Int64(liveRevision)), .text(key),
            ]).first
        else { return nil }
        let number = try row.get(0, as: Int.self)
        guard let json = try? JSONParser().parse(try row.get(1, as: String.self)) else { return nil }
        let wrapped = JSONValue.object(JSONObject([("experiments", .array([json]))]))
        guard let experiment = PolicyDocument.decode(wrapped).document.experiments.first(where: { $0.key == key })
        else { return nil }
        return ExperimentDefinition(
            experiment, source: number == liveRevision ? .live(revision: number) : .revision(number))
    }

    // CASE guards json_extract against non-object members (SQLite does not promise AND's evaluation order).
    private static let selectConfigured = """
        SELECT p.number, e.value
        FROM policy_revisions AS p, json_each(p.document, '$.experiments') AS e
        WHERE p.app_id = ? AND p.environment = ? AND p.number <= ?
            AND CASE WHEN e.type = 'object' THEN json_extract(e.value, '$.key') END = ?
        ORDER BY p.number DESC
        LIMIT 1
        """

    // PostgreSQL's spelling: a document whose `experiments` is not an array has none.
    private static let selectConfiguredPostgres = """
        SELECT p.number, CAST(e.value AS TEXT) AS value
        FROM policy_revisions AS p, jsonb_array_elements(\(ExperimentDefinition.experimentsArrayPostgres)) AS e(value)
        WHERE p.app_id = ? AND p.environment = ? AND p.number <= ?
            AND CASE WHEN jsonb_typeof(e.value) = 'object' THEN e.value ->> 'key' END = ?
        ORDER BY p.number DESC
        LIMIT 1
        """

    /// PostgreSQL: revision `p`'s `experiments` array, or an empty one when it has none or not an array.
    package static let experimentsArrayPostgres = """
        CASE WHEN jsonb_typeof(CAST(p.document AS jsonb) -> 'experiments') = 'array'
            THEN CAST(p.document AS jsonb) -> 'experiments' ELSE CAST('[]' AS jsonb) END
        """

    /// A definition from the stored arms alone, for an experiment no revision configures: the feature with the most
    /// exposed installs, its variants by name with equal weights, the control named `control` or else the first.
    package static func observed(key: String, arms: [ExperimentArm]) -> ExperimentDefinition? {
        var exposedByFeature: [String: Int] = [:]
        for arm in arms { exposedByFeature[arm.feature, default: 0] += arm.counts.exposed }
        guard let feature = exposedByFeature.max(by: { ($0.value, $1.key) < ($1.value, $0.key) })?.key else {
            return nil
        }
        let names = arms.filter { $0.feature == feature }.map(\.variant).sorted()
        return ExperimentDefinition(
            key: key, feature: feature, variants: names.map { ($0, 1) },
            control: names.contains("control") ? "control" : names[0], source: .observed)
    }
}
