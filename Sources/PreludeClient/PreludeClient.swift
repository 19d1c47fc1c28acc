import Foundation
import PreludeCore

/// The app's half of Prelude: fetches and caches the policy, decides offline with the server's own engine, keeps
/// the cadence ledger, and delivers analytics events through a durable queue (docs/client.md).
///
/// An actor: every method may be called from any task or thread. Decisions never touch the network; ``refresh()``
/// and ``flush()`` do, and concurrent calls of each share one request. Unless the configuration opts out, the client
/// runs ``appBecameActive()`` by itself each time the app comes to the foreground.
public actor PreludeClient {
    /// This client library's release, the same number as the server's (CHANGELOG.md). Sent with every policy fetch
    /// in the ``clientVersionHeader`` header, so a server can tell what the client can read: 0.1.0 clients send
    /// nothing and refuse a whole document that names a catalogue item they predate (docs/client.md, "What the
    /// client tells the server").
    public static let version = "0.3.0"

    /// The request header that carries ``version`` on the policy fetch.
    public static let clientVersionHeader = "Prelude-Client-Version"

    private let configuration: PreludeClientConfiguration
    private let cache: PolicyCache
    private let ledgerPath: String
    /// The install id in use (the configured one, or one generated at first launch and kept).
    public nonisolated let installId: String

    private var document: PolicyDocument?
    /// The fetched bytes of `document` (nil for a bootstrap copy), rewritten with a new time after a 304.
    private var body: [UInt8]?
    private var revision: Int?
    private var etag: String?
    private var source: ClientDiagnostics.Source
    private var decider: OfflineDecider?
    private var schedule: RefreshSchedule
    private var lastFetch: FetchResult?
    private var lastFetchAt: Instant?
    private var refreshTask: Task<FetchResult, Never>?

    private var ledger: CadenceLedger
    private var queue: EventQueue
    private var flushTask: Task<FlushResult, Never>?
    private var flushSchedule: FlushSchedule
    /// Set when the server answered 415 to a gzip batch: later batches go uncompressed.
    private var serverRefusesGzip = false

    private var facts: ClientFacts
    private let factsPath: String
    /// The attributes the app set (``set(attribute:to:)``); kept in memory only, never stored or sent with events.
    private var appAttributes: [String: AttributeValue] = [:]

    private var forcedLocale: String?
    private var forcedVariants: [String: String] = [:]

    /// The flows over this client (held weakly), re-read on every activation.
    nonisolated let flowRegistry = FlowRegistry()
    /// This client's place in the configuration's foreground signal (nil: opted out).
    private nonisolated let foregroundSubscription: ForegroundSignal.Subscription?
    private var activationTask: Task<[Feature: Decision], any Error>?

    /// Opens the client's storage: the cached policy (validated; a corrupt file is deleted), else the bootstrap;
    /// the ledger; the event queue (a torn last record is repaired). No network.
    ///
    /// - Throws: ``PreludeClientError/invalidBootstrap(_:)`` when the bundled policy does not validate, or a file
    ///   system error when the storage directory cannot be created or written.
    public init(configuration: PreludeClientConfiguration) throws {
        precondition(
            (1...500).contains(configuration.eventBatchSize), "the events endpoint takes 1–500 events per batch")
        self.configuration = configuration
        let directory = configuration.storageDirectory.path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        installId = try Self.installId(configuration.context.installId, directory: directory)
        cache = PolicyCache(directory: directory, server: configuration.server, app: configuration.app)
        ledgerPath = (directory as NSString).appendingPathComponent("cadence-ledger.json")
        ledger = CadenceLedger.load(ledgerPath) ?? CadenceLedger()
        queue = try EventQueue(directory: directory, capacity: configuration.eventQueueCapacity)
        factsPath = (directory as NSString).appendingPathComponent("client-facts.json")
        var facts = ClientFacts.load(factsPath) ?? ClientFacts()
        facts.recordLaunch(at: configuration.clock.now())
        try facts.store(factsPath)
        self.facts = facts

        var schedule = RefreshSchedule(
            validatedAt: nil, lifetimes: CacheLifetimes(), backoff: configuration.fetchBackoff)
        if case .loaded(let entry, let document) = cache.load(), document.app.id == configuration.app {
            self.document = document
            body = entry.body
            etag = entry.etag
            revision = entry.etag.flatMap(Self.revision(fromETag:))
            source = .cache
            schedule.succeeded(at: entry.validatedAt, lifetimes: entry.lifetimes)
        } else if let bootstrap = configuration.bootstrapPolicy {
            let validation = PolicyValidator.validate(bytes: [UInt8](bootstrap), unknownMembers: .skippedInExperiments)
            guard validation.isValid, let document = validation.document else {
                throw PreludeClientError.invalidBootstrap(
                    validation.problems.first.map { "\($0.pointer): \($0.message)" } ?? "no document")
            }
            self.document = document
            revision = 0
            source = .bootstrap
        } else {
            source = .none
        }
        self.schedule = schedule
        flushSchedule = FlushSchedule(backoff: configuration.flushBackoff)
        let context = Self.context(configuration.context, installId: installId, facts: facts, attributes: [:])
        let startRevision = revision ?? 0
        decider = document.map { OfflineDecider(document: $0, revision: startRevision, context: context) }
        foregroundSubscription = configuration.observesForeground ? configuration.foregroundSignal.subscription() : nil
        // Fully initialised from here: the subscription may hold a (weak) reference to the client.
        foregroundSubscription?.attach { [weak self] in _ = try? await self?.appBecameActive() }
        if foregroundSubscription != nil && configuration.foregroundSignal === ForegroundSignal.application {
            ForegroundSignal.observeApplicationOnce()
        }
    }

    deinit { foregroundSubscription?.cancel() }

    // MARK: - Deciding

    /// What to show now for `feature` in `status`, decided offline with the current policy and the ledger's
    /// history (the same answer the server's decide endpoint gives for the same state and instant).
    ///
    /// - Throws: ``PreludeClientError/noPolicy`` when there is no policy yet; `DecisionError` for a state no
    ///   device can report or a feature the policy does not configure.
    public func decide(feature: Feature, status: AuthorizationStatus, context: FeatureContext = FeatureContext())
        throws -> Decision
    {
        guard let decider else { throw PreludeClientError.noPolicy }
        let state = ClientState(
            feature: feature, status: status, available: context.available, osVersion: context.osVersion,
            history: ledger.histories(of: feature),
            trackingPromptShown: context.systemPromptShown ?? ledger.systemPromptShown(feature),
            origin: context.origin, insufficientlyInUse: context.insufficientlyInUse,
            preventsAutomaticLimitedAccessAlert: feature == .photos ? context.preventsAutomaticLimitedAccessAlert : nil)
        return try decider.decide(state, now: configuration.clock.now())
    }

    /// The resolver and engine in use, for callers that decide many states at once (nil without a policy).
    public var offlineDecider: OfflineDecider? { decider }

    /// Records what happened to `decision`'s screen: updates the cadence ledger (a showing counts against the
    /// decision's `countsAgainst`; continued / dismissed / left set its last outcome) and queues the event the
    /// decision's `events` names for the step, durably, before returning it.
    ///
    /// - Returns: the event queued, nil when the step has none (or the queue was full: then it is counted as dropped).
    @discardableResult
    public func record(_ step: FlowStep, for decision: Decision) throws -> QueuedEvent? {
        let now = configuration.clock.now()
        var ledger = self.ledger
        if let kind = decision.countsAgainst {
            if step == .shown { ledger.recordShown(decision.feature, kind, at: now) }
            if let outcome = step.outcome { ledger.recordOutcome(decision.feature, kind, outcome) }
        }
        // The system asks once per install for tracking (TR-2), alarms and the local network, and their status
        // cannot be trusted to say so: remember that it did.
        if decision.feature.capabilities.promptRecordedByClient, step == .granted || step == .denied {
            ledger.recordSystemPrompt(decision.feature)
        }
        // An app-level consent has no OS to remember the answer: the ledger is its record.
        if decision.feature.capabilities.kind == .appConsent, step == .granted || step == .denied {
            ledger.recordConsent(decision.feature, granted: step == .granted)
        }
        if step == .granted || step == .denied {
            var facts = self.facts
            facts.recordAnswer(decision.feature, granted: step == .granted, at: now)
            try facts.store(factsPath)
            self.facts = facts
            rebuildDecider()
        }
        if ledger != self.ledger {
            try ledger.store(ledgerPath)
            self.ledger = ledger
        }
        guard let type = step.event(in: decision.events) else { return nil }
        let occurredAt = Int64((now.secondsSinceEpoch * 1000).rounded())
        let event = QueuedEvent(
            id: EventID.make(milliseconds: occurredAt), installId: installId, type: type, feature: decision.feature,
            experiment: decision.variant?.experiment, variant: decision.variant?.variant, occurredAt: occurredAt)
        return try queue.append(event) ? event : nil
    }

    /// Records that the system's request for `decision` returned without a decision — tracking's expanded request
    /// (iOS 27.2) left through its "Additional Information" action: queues `systemExitedWithoutDecision`, and
    /// changes nothing else. It is not an answer: no `systemDenied`, the ledger untouched (the prompt is not
    /// recorded as shown), so the next decision is what it was before the request.
    ///
    /// - Returns: the event queued, nil when the queue was full (then it is counted as dropped).
    @discardableResult
    public func recordExitWithoutDecision(for decision: Decision) throws -> QueuedEvent? {
        let occurredAt = Int64((configuration.clock.now().secondsSinceEpoch * 1000).rounded())
        let event = QueuedEvent(
            id: EventID.make(milliseconds: occurredAt), installId: installId, type: .systemExitedWithoutDecision,
            feature: decision.feature, experiment: decision.variant?.experiment, variant: decision.variant?.variant,
            occurredAt: occurredAt)
        return try queue.append(event) ? event : nil
    }

    /// Records that the system's request for `decision` completed without an answer that can be known — HealthKit's
    /// read access (``PreludeCore/FeatureCapabilities/requestAnswerKnowable``): the ledger records that the prompt
    /// happened (so the engine answers `statusNotKnowable` rather than priming again) and `systemPromptCompleted` is
    /// queued. Neither a grant nor a refusal is recorded: no `systemGranted`, no `systemDenied`, no answer in the
    /// facts that conditions read. ``PermissionFlow`` calls it; an app driving the steps itself calls it after
    /// `requestAuthorization(toShare:read:)` returns.
    ///
    /// - Returns: the event queued, nil when the queue was full (then it is counted as dropped).
    @discardableResult
    public func recordPromptCompleted(for decision: Decision) throws -> QueuedEvent? {
        if decision.feature.capabilities.promptRecordedByClient {
            var ledger = self.ledger
            ledger.recordSystemPrompt(decision.feature)
            if ledger != self.ledger {
                try ledger.store(ledgerPath)
                self.ledger = ledger
            }
        }
        let occurredAt = Int64((configuration.clock.now().secondsSinceEpoch * 1000).rounded())
        let event = QueuedEvent(
            id: EventID.make(milliseconds: occurredAt), installId: installId, type: .systemPromptCompleted,
            feature: decision.feature, experiment: decision.variant?.experiment, variant: decision.variant?.variant,
            occurredAt: occurredAt)
        return try queue.append(event) ? event : nil
    }

    /// The status of the app-level consent `feature` (``PreludeCore/FeatureKind/appConsent``) as the ledger
    /// records it: `authorized` (granted), `denied` (declined or withdrawn), `notDetermined`.
    public func consentStatus(_ feature: Feature) -> AuthorizationStatus { ledger.consentStatus(feature) }

    /// Withdraws (or, with `granted: true`, gives from the app's own settings) the app-level consent `feature`
    /// outside its consent screen: the ledger changes, no event is sent (nothing was shown).
    public func setConsent(_ feature: Feature, granted: Bool) throws {
        var ledger = self.ledger
        ledger.recordConsent(feature, granted: granted)
        guard ledger != self.ledger else { return }
        try ledger.store(ledgerPath)
        self.ledger = ledger
    }

    /// Marks the start or the end of a task the feature serves — attaching a photo, adding a calendar event —
    /// whatever the decision showed for it (priming and the system alert, or a picker that needs no permission):
    /// queues `taskStarted` or `taskCompleted`, durably, under `decision`'s experiment and variant. Task completion
    /// per arm is how an "ask less" arm, which has no grant to count, is measured (docs/client.md, "Marking a
    /// task"). Mark the start once per attempt, before or after deciding, and the completion when the app got what
    /// it wanted; an abandoned task is simply never completed. The ledger is not touched.
    ///
    /// - Parameters:
    ///   - task: an optional name (1–128 visible ASCII characters, e.g. `attach-photo`) kept with the event.
    ///   - decision: the decision the task went through; its feature and variant label the event.
    /// - Returns: the event queued, nil when the queue was full (then it is counted as dropped).
    /// - Throws: ``PreludeClientError/invalidTaskName(_:)`` for a name the events API would refuse (nothing is
    ///   queued), or the queue's storage error.
    @discardableResult
    public func recordTask(_ phase: TaskPhase, task: String? = nil, for decision: Decision) throws -> QueuedEvent? {
        if let task {
            let utf8 = task.utf8
            guard !utf8.isEmpty, utf8.count <= 128, utf8.allSatisfy({ $0 >= 0x21 && $0 <= 0x7E }) else {
                throw PreludeClientError.invalidTaskName(task)
            }
        }
        let occurredAt = Int64((configuration.clock.now().secondsSinceEpoch * 1000).rounded())
        let event = QueuedEvent(
            id: EventID.make(milliseconds: occurredAt), installId: installId, type: phase.event,
            feature: decision.feature, experiment: decision.variant?.experiment, variant: decision.variant?.variant,
            occurredAt: occurredAt, task: task)
        return try queue.append(event) ? event : nil
    }

    // MARK: - Refreshing

    /// Fetches the policy document if the copy is no longer fresh and no backoff is pending; concurrent calls
    /// share one request. Never throws: the result says what happened, and the last good policy stays in use.
    @discardableResult
    public func refresh() async -> FetchResult {
        if let refreshTask { return await refreshTask.value }
        guard schedule.isDue(now: configuration.clock.now()) else { return .skipped }
        let task = Task { await self.fetch() }
        refreshTask = task
        let result = await task.value
        refreshTask = nil
        return result
    }

    /// Refreshes and flushes, each only if due (``RefreshSchedule``, ``FlushSchedule``); the first half of
    /// ``appBecameActive()``.
    public func didBecomeActive() async {
        async let fetched = refresh()
        async let flushed = flush()
        _ = await (fetched, flushed)
    }

    /// The app came to the foreground: ``didBecomeActive()`` (refresh and flush, each when due), then every
    /// ``PermissionFlow`` over this client re-reads its statuses (``PermissionFlow/becameActive()``), so a person
    /// back from Settings with access on proceeds without a relaunch. The client runs it by itself on each activation
    /// its configuration's ``PreludeClientConfiguration/foregroundSignal`` reports (on iOS every
    /// `didBecomeActiveNotification`) unless ``PreludeClientConfiguration/observesForeground`` is false; then call
    /// it yourself. Concurrent calls share one run.
    ///
    /// - Returns: the new decision of every feature whose status changed (a later flow's wins for the same
    ///   feature); each flow also hands its changes to its ``PermissionFlow/changes()`` streams.
    /// - Throws: the first flow's ledger or queue write failure (the other flows still ran). When the client runs
    ///   it by itself the failure is not reported: the next `record` meets the same disk.
    @discardableResult
    public func appBecameActive() async throws -> [Feature: Decision] {
        if let activationTask { return try await activationTask.value }
        let flows = flowRegistry.flows
        let task = Task {
            await self.didBecomeActive()
            var changed: [Feature: Decision] = [:]
            var failure: (any Error)?
            for flow in flows {
                do {
                    changed.merge(try await flow.becameActive()) { $1 }
                } catch {
                    failure = failure ?? error
                }
            }
            if let failure { throw failure }
            return changed
        }
        activationTask = task
        defer { activationTask = nil }
        return try await task.value
    }

    private func fetch() async -> FetchResult {
        let url = configuration.server.appendingPathComponent(configuration.appPath + "/policy/document")
        var headers = ["Accept": "application/json", Self.clientVersionHeader: Self.version]
        if let etag { headers["If-None-Match"] = etag }
        let result: FetchResult
        var retryAfter: Double?
        do {
            let response = try await configuration.transport.send(
                TransportRequest(method: "GET", url: url, headers: headers))
            let now = configuration.clock.now()
            let lifetimes = CacheLifetimes(cacheControl: response[header: "Cache-Control"])
            retryAfter = CacheLifetimes.retryAfter(response[header: "Retry-After"], now: now.secondsSinceEpoch)
            switch response.status {
            case 200: result = accept([UInt8](response.body), etag: response[header: "ETag"], lifetimes, at: now)
            case 304 where document != nil && etag != nil:
                schedule.succeeded(at: now, lifetimes: lifetimes)
                if let body {
                    try? cache.store(PolicyCache.Entry(body: body, etag: etag, validatedAt: now, lifetimes: lifetimes))
                }
                result = .notModified
            default: result = .httpError(status: response.status)
            }
        } catch {
            result = .networkError(String(describing: error))
        }
        let now = configuration.clock.now()
        switch result {
        case .updated, .notModified, .skipped: break
        case .rejected, .httpError, .networkError:
            schedule.failed(at: now, unit: configuration.jitter.nextUnit(), retryAfter: retryAfter)
        }
        lastFetch = result
        lastFetchAt = now
        return result
    }

    private func accept(_ body: [UInt8], etag newTag: String?, _ lifetimes: CacheLifetimes, at now: Instant)
        -> FetchResult
    {
        let validation = PolicyValidator.validate(bytes: body, unknownMembers: .skippedInExperiments)
        guard validation.isValid, let document = validation.document else {
            let first = validation.problems.first.map { "\($0.pointer): \($0.message)" } ?? "no document"
            return .rejected(reason: "\(validation.problems.count) problem(s), first \(first)")
        }
        guard document.app.id == configuration.app else {
            return .rejected(reason: "the document is for app '\(document.app.id)', not '\(configuration.app)'")
        }
        let revision = newTag.flatMap(Self.revision(fromETag:)) ?? 0
        // Body, tag and time in one atomic write; a failing disk keeps the copy in memory only.
        try? cache.store(PolicyCache.Entry(body: body, etag: newTag, validatedAt: now, lifetimes: lifetimes))
        self.document = document
        self.body = body
        self.revision = revision
        etag = newTag
        source = .network
        schedule.succeeded(at: now, lifetimes: lifetimes)
        rebuildDecider()
        return .updated(revision: revision)
    }

    // MARK: - Events

    /// Sends queued events in batches until the queue is empty, a batch fails, or a backoff is pending; concurrent
    /// calls share one flush. A batch leaves the queue only after the server's 202 (or a 4xx that would refuse it
    /// forever, counted as dropped); any other answer backs off with jitter.
    @discardableResult
    public func flush() async -> FlushResult {
        if let flushTask { return await flushTask.value }
        guard flushSchedule.isDue(now: configuration.clock.now(), queued: queue.events.count) else {
            return FlushResult(remaining: queue.events.count, failure: flushSchedule.lastFailure)
        }
        let task = Task { await self.sendBatches() }
        flushTask = task
        let result = await task.value
        flushTask = nil
        return result
    }

    private func sendBatches() async -> FlushResult {
        var result = FlushResult()
        let url = configuration.server.appendingPathComponent(configuration.appPath + "/events")
        while !queue.events.isEmpty {
            let batch = Array(queue.events.prefix(configuration.eventBatchSize))
            var retryAfter: Double?
            let failure: String
            do {
                let (headers, body, compressed) = eventRequest(batch)
                let response = try await configuration.transport.send(
                    TransportRequest(method: "POST", url: url, headers: headers, body: body))
                switch response.status {
                case 415 where compressed:
                    // A server without gzip for events: send this batch again, and every later one, uncompressed.
                    serverRefusesGzip = true
                    continue
                case 202, 200:
                    let counts = (try? JSONDecoder().decode(BatchAnswer.self, from: response.body)) ?? BatchAnswer()
                    result.accepted += counts.accepted
                    result.duplicates += counts.duplicates
                    try? queue.removeFirst(batch.count)
                    flushSchedule.succeeded()
                    continue
                case 422 where !Self.refusedIndices(response.body, batchSize: batch.count).isEmpty:
                    // The server names the events it refuses (`/events/3/occurredAt`): drop those, resend the rest.
                    let refused = Self.refusedIndices(response.body, batchSize: batch.count)
                    result.rejected += refused.count
                    try? queue.remove(ids: Set(refused.map { batch[$0].id }))
                    try? queue.countDropped(refused.count)
                    continue
                case 400, 413, 422:
                    // The server will refuse this batch however often it is sent: drop and count it.
                    result.rejected += batch.count
                    try? queue.removeFirst(batch.count)
                    try? queue.countDropped(batch.count)
                    flushSchedule.succeeded()
                    continue
                default:
                    failure = "HTTP \(response.status)"
                    retryAfter = CacheLifetimes.retryAfter(
                        response[header: "Retry-After"], now: configuration.clock.now().secondsSinceEpoch)
                }
            } catch {
                failure = "network error: \(error)"
            }
            flushSchedule.failed(
                at: configuration.clock.now(), unit: configuration.jitter.nextUnit(), retryAfter: retryAfter,
                reason: failure)
            result.failure = failure
            break
        }
        result.remaining = queue.events.count
        return result
    }

    /// The indices of the events a 422 problem document points at (`/events/<i>/…`).
    static func refusedIndices(_ body: Data, batchSize: Int) -> Set<Int> {
        struct Problem: Decodable {
            struct Field: Decodable { var pointer: String }
            var errors: [Field]?
        }
        guard let problem = try? JSONDecoder().decode(Problem.self, from: body) else { return [] }
        var indices: Set<Int> = []
        for field in problem.errors ?? [] {
            let tokens = field.pointer.split(separator: "/", omittingEmptySubsequences: false)
            guard tokens.count >= 3, tokens[1] == "events", let index = Int(tokens[2]), (0..<batchSize).contains(index)
            else { return [] }
            indices.insert(index)
        }
        return indices
    }

    private struct BatchAnswer: Decodable {
        var accepted = 0
        var duplicates = 0
    }

    /// The headers and body of one batch: gzip from ``PreludeClientConfiguration/compressionThreshold`` bytes up
    /// unless turned off or refused by the server; the device segment's headers when it is known.
    private func eventRequest(_ batch: [QueuedEvent]) -> (headers: [String: String], body: Data, compressed: Bool) {
        var headers = ["Content-Type": "application/json"]
        headers.merge(Self.segmentHeaders(configuration.segment)) { _, new in new }
        let body = Self.batchBody(batch)
        guard configuration.compressEvents, !serverRefusesGzip,
            body.count >= PreludeClientConfiguration.compressionThreshold
        else { return (headers, body, false) }
        let gzip = Data(GzipEncoder.encode(Array(body)))
        headers["Content-Encoding"] = "gzip"
        return (headers, gzip, true)
    }

    /// `Prelude-OS-Major` and `Prelude-Locale` for the known parts of `segment` (docs/api.md, "Events").
    static func segmentHeaders(_ segment: EventSegment) -> [String: String] {
        var headers: [String: String] = [:]
        if let osMajor = segment.osMajor { headers[EventSegment.osMajorHeader] = String(osMajor) }
        if let locale = segment.locale { headers[EventSegment.localeHeader] = locale }
        return headers
    }

    private static func batchBody(_ events: [QueuedEvent]) -> Data {
        struct Batch: Encodable { var events: [QueuedEvent] }
        return (try? JSONEncoder().encode(Batch(events: events))) ?? Data()
    }

    /// The events waiting to be sent, oldest first.
    public var queuedEvents: [QueuedEvent] { queue.events }

    // MARK: - Observability and QA

    /// The client's state for a debug screen or a log line.
    public func diagnostics() -> ClientDiagnostics {
        let now = configuration.clock.now()
        return ClientDiagnostics(
            source: source, revision: document == nil ? nil : revision ?? 0, etag: etag,
            freshness: schedule.freshness(now: now), lastFetch: lastFetch, lastFetchAt: lastFetchAt,
            nextFetchNotBefore: schedule.notBefore, queueDepth: queue.events.count, droppedEvents: queue.dropped,
            lastFlushFailure: flushSchedule.lastFailure, ledgerShownCount: ledger.totalShown,
            forcedLocale: forcedLocale, forcedVariants: forcedVariants, installId: installId)
    }

    /// The cadence ledger as recorded.
    public var cadenceLedger: CadenceLedger { ledger }

    /// QA: serve `locale` whatever the device says (nil: back to the configured context).
    public func forceLocale(_ locale: String?) {
        forcedLocale = locale
        rebuildDecider()
    }

    /// QA: put this install in `variant` of `experiment` (nil: back to the drawn variant). Events then carry the
    /// forced variant: use it on test installs only.
    public func forceVariant(_ variant: String?, experiment: String) {
        forcedVariants[experiment] = variant
        rebuildDecider()
    }

    /// QA: forget every recorded showing, so every screen is eligible again.
    public func resetLedger() throws {
        ledger = CadenceLedger()
        try ledger.store(ledgerPath)
    }

    // MARK: - Attributes and moments

    /// Sets an attribute conditions read (`sessionCount`, `plan`), or removes it with nil; decisions from now on see
    /// it. Kept in memory for this client's life, never stored and never sent with events. The client's own
    /// `prelude.*` facts win over an attribute of the same name.
    ///
    /// - Throws: ``AttributeError`` for a name outside `[a-zA-Z][a-zA-Z0-9_.]*`, a value out of bounds, or a 65th
    ///   attribute; nothing changes then.
    public func set(attribute name: String, to value: AttributeValue?) throws {
        var probe = ClientAttributes()
        for (existing, current) in appAttributes where existing != name { try probe.set(existing, to: current) }
        try probe.set(name, to: value)
        appAttributes[name] = value
        rebuildDecider()
    }

    /// The attributes the app set.
    public var attributes: [String: AttributeValue] { appAttributes }

    /// Records that the moment `name` happened now (`"photoSaved"`, `"orderPlaced"`): its count, first and last
    /// instant are kept across launches (at most 32 names, the stalest dropped), and an `ask` rule waiting for it is
    /// decided again on the next ``decide(feature:status:context:)``.
    ///
    /// - Throws: ``AttributeError/invalidName(_:)`` for a name outside `[a-zA-Z][a-zA-Z0-9_.]*`, or a file system
    ///   error when the facts cannot be stored (the moment is then not counted).
    public func moment(_ name: String) throws {
        var facts = self.facts
        try facts.recordMoment(name, at: configuration.clock.now())
        try facts.store(factsPath)
        self.facts = facts
        rebuildDecider()
    }

    /// The facts kept (launches, days active, answers, moments).
    public var clientFacts: ClientFacts { facts }

    /// The context decisions use: the configured one, this install, the app's attributes, then the facts.
    static func context(
        _ configured: ClientContext, installId: String, facts: ClientFacts, attributes: [String: AttributeValue]
    ) -> ClientContext {
        var context = configured
        context.installId = installId
        for (name, value) in attributes.sorted(by: { $0.key < $1.key }) {
            try? context.attributes.set(name, to: value)
        }
        // The facts last, so they win; past 64 attributes the rest are left out (documented in docs/client.md).
        for (name, value) in facts.attributes.sorted(by: { $0.key < $1.key }) {
            try? context.attributes.set(name, to: value)
        }
        context.moments = facts.momentRecords
        return context
    }

    private func rebuildDecider() {
        guard let document else { return }
        var context = Self.context(configuration.context, installId: installId, facts: facts, attributes: appAttributes)
        if let forcedLocale { context.locale = forcedLocale }
        decider = OfflineDecider(
            document: document, revision: revision ?? 0, context: context, forcedVariants: forcedVariants)
    }

    // MARK: - Helpers

    /// `"r<revision>-…"` (docs/api.md, ETag) → the revision; nil for another form.
    static func revision(fromETag tag: String) -> Int? {
        var text = Substring(tag)
        if text.hasPrefix("W/") { text = text.dropFirst(2) }
        guard text.hasPrefix("\"r") else { return nil }
        return Int(text.dropFirst(2).prefix { $0.isNumber })
    }

    private static func installId(_ configured: String?, directory: String) throws -> String {
        if let configured, !configured.isEmpty { return configured }
        let path = (directory as NSString).appendingPathComponent("install-id")
        if let bytes = AtomicFile.read(path) {
            let text = String(decoding: bytes, as: UTF8.self)
            if (1...128).contains(text.utf8.count), text.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) {
                return text
            }
        }
        let generated = UUID().uuidString
        try AtomicFile.write(Array(generated.utf8), to: path)
        return generated
    }
}
