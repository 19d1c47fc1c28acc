/// The contract of `POST /v1/apps/{app}/decide` (docs/decisions.md), written once for the two sides that must agree
/// byte for byte: the server's route and the client's offline decider (`OfflineDecider`). How a client state sent
/// with a context is completed before the engine sees it, and the response envelope around the decisions.
public enum DecideContract {
    /// The state the engine decides on for `state` sent with `context`.
    ///
    /// - `whenInUse` is full access for `locationWhenInUse` (Apple's `authorizedWhenInUse`; ``ClientState``'s JSON
    ///   decoding reads the wire value the same way).
    /// - An entry without its own OS version takes the context's, unless the context's platform numbers its
    ///   versions otherwise: the engine counts in iOS versions, another platform's numbering says nothing of them.
    /// - The state's storefront `region` is the context's.
    public static func completed(_ state: ClientState, context: ClientContext) -> ClientState {
        var state = state
        if state.feature == .locationWhenInUse, state.status == .whenInUse { state.status = .authorized }
        if state.osVersion == nil, context.platform?.usesIOSVersions ?? true {
            state.osVersion = context.osVersion
        }
        if state.region == nil { state.region = context.region }
        return state
    }

    /// The response body, `{"revision": …, "locale": "…", "decisions": [ … ]}`, written straight to bytes: what
    /// serializing that object compactly gives (``Decision/writeJSON(to:)`` for each decision), without building
    /// a JSON tree.
    public struct ResponseBody: Sendable {
        /// The bytes written so far; complete after ``finish()``.
        public private(set) var bytes: [UInt8] = []
        private var decisions = 0
        private var finished = false

        /// Starts the body of the decisions for the live `revision`, whose copy is in `locale` (a BCP 47 tag);
        /// `expectedDecisions` sizes the buffer.
        public init(revision: Int, locale: String, expectedDecisions: Int = 1) {
            bytes.reserveCapacity(256 + 640 * expectedDecisions)
            JSONValue.writeLiteral("{\"revision\":", to: &bytes)
            JSONValue.writeInteger(revision, to: &bytes)
            JSONValue.writeLiteral(",\"locale\":", to: &bytes)
            JSONValue.writeString(locale, to: &bytes)
            JSONValue.writeLiteral(",\"decisions\":[", to: &bytes)
        }

        /// Appends the next decision (in request order).
        public mutating func append(_ decision: Decision) {
            precondition(!finished, "the body is finished")
            if decisions > 0 { bytes.append(UInt8(ascii: ",")) }
            decision.writeJSON(to: &bytes)
            decisions += 1
        }

        /// Closes the array and the object: ``bytes`` is the whole body.
        public mutating func finish() {
            precondition(!finished, "the body is finished")
            JSONValue.writeLiteral("]}", to: &bytes)
            finished = true
        }
    }
}
