import Foundation
import PreludeCore

/// One cross-client contract vector (Tests/ContractVectors/*.json, format in docs/contract-vectors.md): a seed
/// flow as steps of time, device state and user actions, with the decision and the events each step must give.
///
/// The server's tests replay a vector through `POST /decide` and `POST /events`; a client's tests replay it
/// through the client library; a client in another language replays the same files.
public struct ContractVector: Sendable {
    /// One step: at `at`, the device reports `state`, the client decides, shows it, and the person acts.
    public struct Step: Sendable {
        /// Unix seconds: the decision's "now".
        public var at: Double
        /// The client state as the decide endpoint reads it; its `history` is what the ledger holds by then.
        public var state: JSONValue
        /// Members the decision must have (`copy` compared text by text; members not listed are not checked).
        public var expect: JSONObject
        /// What happened on the screen, in order: shown, continued, left (no event), dismissed, granted, denied.
        public var user: [String]
        /// The events the client emits for `user`, named by the decision's `events` plan.
        public var events: [String]
    }

    /// The file's name without `.json`.
    public var name: String
    /// The seed document the flow comes from.
    public var seed: String
    /// The policy file, relative to the repository root.
    public var policy: String
    /// The client context members of the decide request (installId, platform, os, appVersion, locale).
    public var context: JSONObject
    /// The steps, in time order.
    public var steps: [Step]

    /// The repository's Tests/ContractVectors directory.
    public static var directory: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("ContractVectors").path
    }

    /// The repository root (for `policy` paths).
    public static var repositoryRoot: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
    }

    /// Every vector in ``directory``, sorted by name.
    public static func all() throws -> [ContractVector] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".json") }
        return try names.sorted().map { name in
            let text = try String(contentsOfFile: directory + "/" + name, encoding: .utf8)
            return try ContractVector(json: try JSONValue(parsing: text))
        }
    }

    /// Reads a vector; throws ``ContractVectorError`` naming the first bad member.
    public init(json: JSONValue) throws(ContractVectorError) {
        guard let object = json.objectValue else { throw .invalid("/", "a vector is an object") }
        func string(_ key: String) throws(ContractVectorError) -> String {
            guard let value = object[key]?.stringValue else { throw .invalid("/\(key)", "expected a string") }
            return value
        }
        name = try string("name")
        seed = try string("seed")
        policy = try string("policy")
        guard let context = object["context"]?.objectValue else { throw .invalid("/context", "expected an object") }
        self.context = context
        guard let steps = object["steps"]?.arrayValue, !steps.isEmpty else {
            throw .invalid("/steps", "expected a non-empty array")
        }
        self.steps = []
        for (index, value) in steps.enumerated() {
            let pointer = "/steps/\(index)"
            guard let step = value.objectValue, let at = step["at"]?.doubleValue, let state = step["state"],
                state.objectValue != nil, let expect = step["expect"]?.objectValue,
                let user = step["user"]?.arrayValue?.compactMap(\.stringValue),
                let events = step["events"]?.arrayValue?.compactMap(\.stringValue)
            else { throw .invalid(pointer, "a step has at, state, expect, user and events") }
            for action in user where !Self.userActions.contains(action) {
                throw .invalid(pointer + "/user", "unknown user action \"\(action)\"")
            }
            self.steps.append(Step(at: at, state: state, expect: expect, user: user, events: events))
        }
    }

    /// The user actions a step may list.
    public static let userActions: Set<String> = [
        "shown", "continued", "left", "dismissed", "granted", "denied", "exitedWithoutDecision", "promptCompleted",
    ]

    /// The events a decision's `events` plan names for `user`, in order (a step the plan lacks emits nothing).
    public static func events(plan: JSONValue?, user: [String]) -> [String] {
        user.compactMap { action -> String? in
            // The system's request returned undecided (tracking's "Additional Information"): its own event, whatever
            // the plan, and no answer.
            if action == "exitedWithoutDecision" { return AnalyticsEvent.systemExitedWithoutDecision.rawValue }
            // The system's request completed with no knowable answer (HealthKit's read access): its own event.
            if action == "promptCompleted" { return AnalyticsEvent.systemPromptCompleted.rawValue }
            let member: String? =
                switch action {
                case "shown": "onShow"
                case "continued": "onContinue"
                // Leaving (backgrounding, navigating away) is recorded for cadence only: no event.
                case "left": nil
                case "dismissed": "onDismiss"
                case "granted": "onGranted"
                default: "onDenied"
                }
            return member.flatMap { plan?[$0]?.stringValue }
        }
    }

    /// The problems of `decision` (the decide endpoint's JSON) against `expect`; empty when it matches.
    public static func mismatches(_ decision: JSONValue, expect: JSONObject) -> [String] {
        var problems: [String] = []
        for (key, expected) in expect {
            let actual = decision[key]
            if key == "copy", let texts = expected.objectValue {
                for (field, text) in texts where actual?[field] != text {
                    problems.append("copy.\(field): expected \(text), got \(actual?[field]?.description ?? "nothing")")
                }
            } else if let number = expected.doubleValue, actual?.doubleValue == number {
                continue
            } else if actual != expected {
                problems.append("\(key): expected \(expected), got \(actual?.description ?? "nothing")")
            }
        }
        return problems
    }
}

/// A contract vector file that does not have the documented shape.
public enum ContractVectorError: Error, CustomStringConvertible {
    /// The member at the pointer is wrong.
    case invalid(String, String)

    /// "pointer: what is wrong"
    public var description: String {
        switch self {
        case .invalid(let pointer, let message): "\(pointer): \(message)"
        }
    }
}
