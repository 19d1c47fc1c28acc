// Condition evaluation and decide with conditioned rules (issue 38; BENCHMARKS.md, "Conditions").
//
//   swift build --package-path Benchmarks -c release --product prelude-bench-conditions
//   taskset -c 1 Benchmarks/.build/release/prelude-bench-conditions [config/demo-policy.json]
//
// 1. Simple conditions per second on one core: `{"sessionCount": {"$gte": 3}}` compiled once, evaluated over a
//    client's 8 attributes whose count changes every call; the peer in the same run is the same test written by
//    hand in Swift (a dictionary lookup and a comparison), the floor any evaluator can reach.
// 2. Resolve + decide for one feature (what decide does per state without its cache) with the demo policy as is,
//    and with three conditioned targeting rules on the feature (a segment, a $regex, a version operator), over the
//    same generated clients. Medians of 7 rounds, each round interleaving the two.
import Foundation
import PreludeCore

func seconds(_ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

@inline(never) func blackHole(_ value: Int) { if value == -42 { print("") } }

let rounds = 7

// 1. Conditions per second.
let (condition, problems) = Condition.compile(["sessionCount": ["$gte": 3]])
precondition(problems.isEmpty)
var base: [String: JSONValue] = [
    "plan": "pro", "beta": false, "build": "2.3.0", "country": "FR", "cohort": 7, "tier": "gold", "score": 0.5,
]
let iterations = 5_000_000
var conditionRates: [Double] = []
var handRates: [Double] = []
for _ in 0..<rounds {
    var matched = 0
    let condition = condition
    let t1 = seconds {
        var attributes = base
        for i in 0..<iterations {
            attributes["sessionCount"] = .integer(i & 7)
            if condition.matches(attributes) { matched += 1 }
        }
    }
    var handMatched = 0
    let t2 = seconds {
        var attributes = base
        for i in 0..<iterations {
            attributes["sessionCount"] = .integer(i & 7)
            if let value = attributes["sessionCount"]?.doubleValue, value >= 3 { handMatched += 1 }
        }
    }
    precondition(matched == handMatched)
    blackHole(matched)
    conditionRates.append(Double(iterations) / t1)
    handRates.append(Double(iterations) / t2)
}
base["sessionCount"] = 0
print(
    "conditions: \(Int(median(conditionRates))) evaluations/s (median of \(rounds)); hand-written Swift peer "
        + "\(Int(median(handRates)))/s; ratio \(String(format: "%.2f", median(conditionRates) / median(handRates)))")

// 2. Resolve + decide with and without three conditioned rules.
let path = CommandLine.arguments.dropFirst().first ?? "config/demo-policy.json"
let text = try String(contentsOfFile: path, encoding: .utf8)
let plain = PolicyValidator.validate(text: text).document!
var conditionedJSON = try JSONValue(parsing: Array(text.utf8))
conditionedJSON = conditionedJSON.mergePatch(
    try JSONValue(
        parsing: Array(
            #"""
            {"segments": {"engaged": {"sessionCount": {"$gte": 3}}},
             "features": {"camera": {"targeting": [
                {"name": "engaged", "when": {"condition": {"$inSegment": "engaged"}}, "set": {"style": "single"}},
                {"name": "paying", "when": {"condition": {"plan": {"$regex": "^(pro|team)$"}}}, "set": {"style": "single"}},
                {"name": "new-build", "when": {"condition": {"build": {"$vgte": "2.0.0"}}}, "set": {"style": "single"}}
             ]}}}
            """#.utf8)))
let conditioned = PolicyValidator.validate(conditionedJSON).document!
var contexts: [ClientContext] = []
for i in 0..<256 {
    var attributes = ClientAttributes()
    try attributes.set("sessionCount", to: .integer(i % 6))
    try attributes.set("plan", to: .string(["free", "pro", "team"][i % 3]))
    try attributes.set("build", to: .string(["1.9.0", "2.3.0"][i % 2]))
    contexts.append(
        ClientContext(
            platform: .ios, osVersion: SemanticVersion("17.4"), locale: ["en", "fr", "ja"][i % 3],
            installId: "install-\(i)", attributes: attributes))
}
let state: ClientState = ClientState(feature: .camera, status: .notDetermined, osVersion: SemanticVersion("17.4"))
let now = Instant(secondsSinceEpoch: 1_800_000_000)
let decides = 200_000
let clients = contexts
func decideRate(_ document: PolicyDocument) -> Double {
    var prime = 0
    let t = seconds {
        for i in 0..<decides {
            let resolved = PolicyResolver.resolve(.camera, in: document, context: clients[i & 255])!
            if (try? DecisionEngine.decide(policy: resolved, state: state, now: now))?.action == .prime { prime += 1 }
        }
    }
    blackHole(prime)
    return Double(decides) / t
}
/// What the server's decide does per request: the client's resolution key (the attributes the revision reads
/// included), the resolution cached by key (resolved on a miss), then the engine.
func serverDecideRate(_ document: PolicyDocument) -> Double {
    let shape = ResolutionKeyShape(document)
    var cache: [ResolutionKey: ResolvedPolicy] = [:]
    var prime = 0
    let t = seconds {
        for i in 0..<decides * 5 {
            let context = clients[i & 255]
            let key = ResolutionKey(context: context, shape: shape)
            let resolved: ResolvedPolicy
            if let cached = cache[key] {
                resolved = cached
            } else {
                resolved = PolicyResolver.resolve(document, context: context)
                cache[key] = resolved
            }
            if (try? DecisionEngine.decide(in: resolved, state: state, now: now))?.action == .prime { prime += 1 }
        }
    }
    blackHole(prime)
    return Double(decides * 5) / t
}
var plainRates: [Double] = []
var conditionedRates: [Double] = []
var plainServer: [Double] = []
var conditionedServer: [Double] = []
for _ in 0..<rounds {
    plainServer.append(serverDecideRate(plain))
    conditionedServer.append(serverDecideRate(conditioned))
    plainRates.append(decideRate(plain))
    conditionedRates.append(decideRate(conditioned))
}
print(
    "decide as the server runs it (key, cached resolution, engine): without conditions "
        + "\(Int(median(plainServer)))/s, with three conditioned rules \(Int(median(conditionedServer)))/s; ratio "
        + "\(String(format: "%.3f", median(conditionedServer) / median(plainServer)))")
print(
    "uncached resolve+decide (camera): without conditions \(Int(median(plainRates)))/s, with three conditioned rules "
        + "\(Int(median(conditionedRates)))/s; ratio \(String(format: "%.3f", median(conditionedRates) / median(plainRates)))"
        + " (medians of \(rounds) interleaved rounds)")
