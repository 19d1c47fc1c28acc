import PreludeCore
import PreludeHTTP
import Synchronization

/// One revision's memory of resolved-policy queries by everything but their install id: what such a query means
/// (its checked client context) and the response served for each combination of variants drawn so far. A private
/// part of ``ServedPolicy``, which answers what the memory does not.
///
/// Devices that share a platform, OS, app version and locale send the same query apart from the install id, so
/// a fetch hashes the query's bytes with the install id left out, draws the variants from the install id's bytes,
/// and finds the response without decoding parameters, parsing versions or deriving a ``ResolutionKey`` — the
/// answer the served policy gave for the first such query, which is
/// the same for every install drawing the same variants (a key is the context's inputs without the install id,
/// plus those variants). Only plain queries (``PolicyQuery/plainContext(_:locales:)``) are remembered: anything
/// else takes the full path, which reports it. Bounded, since the queries are the clients' (cleared when full).
package final class PlainPolicyQueries: Sendable {
    /// What a query says apart from its install id, and the responses served for it, by variants drawn.
    private struct Slot {
        /// The checked query, without an install id.
        let reading: PolicyQuery.Reading
        /// Per experiment, whether the context is in its audience (an install outside it draws no variant).
        let admitted: [Bool]
        var entries: [(variants: [Int], entry: ResolvedPolicyResponse.Entry)]

        /// Whether `remembered` are the variants an install drawing `drawn` gets under the audiences `admitted`.
        static func matches(_ remembered: [Int], drawn: UnsafeMutableBufferPointer<Int>, admitted: [Bool]) -> Bool {
            guard remembered.count == drawn.count else { return false }
            for index in remembered.indices where remembered[index] != (admitted[index] ? drawn[index] : -1) {
                return false
            }
            return true
        }
    }

    /// The most queries remembered; reaching it starts over.
    package let capacity: Int
    /// The most variant combinations remembered per query (more are served through the full path).
    package let entriesPerQuery: Int
    /// By key (see ``entry(query:acceptLanguage:experiments:resolve:)``), found from the key's bytes on the stack.
    private let table: Mutex<ByteKeyTable<Slot>>

    /// An empty memory.
    package init(capacity: Int = 1024, entriesPerQuery: Int = 32) {
        precondition(capacity >= 1 && entriesPerQuery >= 1, "a memory holds at least one entry")
        self.capacity = capacity
        self.entriesPerQuery = entriesPerQuery
        // Sized by use: the table starts small and doubles as distinct queries arrive (an idle app costs ~nothing).
        table = Mutex(ByteKeyTable(capacity: min(capacity, 4)))
    }

    /// The number of queries remembered.
    package var count: Int { table.withLock { $0.count } }

    /// Where the value of the query's `installId=` piece is: `.some(nil)` when there is none, nil when the query
    /// has it twice or without `=` (not plain: the full path reports it).
    static func installIdRange(_ bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>?? {
        switch RawQuery.valueLocation(of: "installId", in: bytes) {
        case .absent: .some(nil)
        case .at(let range): .some(range)
        case .ambiguous: nil
        }
    }

    /// What answers a query: `resolve` gets the remembered query with this request's install id (nil for a query not
    /// seen) and the variants the install id's bytes draw (-1: none), and gives the response entry, the key's
    /// variants and the query to remember — or nil when the query is not plain (then nothing is remembered).
    package typealias Resolve = (PolicyQuery.Reading?, UnsafeBufferPointer<Int>) -> (
        entry: ResolvedPolicyResponse.Entry, variants: [Int], reading: PolicyQuery.Reading
    )?

    /// The response entry for the raw query `bytes` (and `Accept-Language`): remembered, else `resolve`'s,
    /// remembered when it is plain; nil when the query is not plain.
    package func entry(
        query bytes: UnsafeBufferPointer<UInt8>, acceptLanguage: String?,
        experiments: [ResolutionKeyShape.ExperimentInputs], resolve: Resolve
    ) -> ResolvedPolicyResponse.Entry? {
        // The install id's value: the piece `installId=…` (once; a piece `installId` without a value is not plain).
        guard let install = Self.installIdRange(bytes) else { return nil }
        var installBytes: UnsafeBufferPointer<UInt8>?
        if let install {
            let value = UnsafeBufferPointer(rebasing: bytes[install])
            guard PolicyQuery.isPlainInstallId(value) else { return nil }
            installBytes = value
        }
        // The key: the length of the query without the install id's value, that query, then Accept-Language when
        // sent (the length keeps every pair of query and header apart, whatever bytes either holds). Built on the
        // stack: a hit never copies it to the heap.
        let queryLength = bytes.count - (install?.count ?? 0)
        var language = acceptLanguage ?? ""
        return language.withUTF8 { languageBytes in
            let keyCount = 4 + queryLength + (acceptLanguage == nil ? 0 : 1 + languageBytes.count)
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: keyCount) { buffer in
                var filled = 0
                func append(_ part: UnsafeBufferPointer<UInt8>) {
                    guard let base = part.baseAddress, !part.isEmpty else { return }
                    (buffer.baseAddress! + filled).initialize(from: base, count: part.count)
                    filled += part.count
                }
                withUnsafeBytes(of: UInt32(truncatingIfNeeded: queryLength).littleEndian) {
                    append($0.assumingMemoryBound(to: UInt8.self))
                }
                if let install {
                    append(UnsafeBufferPointer(rebasing: bytes[..<install.lowerBound]))
                    append(UnsafeBufferPointer(rebasing: bytes[install.upperBound...]))
                } else {
                    append(bytes)
                }
                if acceptLanguage != nil {
                    buffer[filled] = 0x01
                    filled += 1
                    append(languageBytes)
                }
                // UInt8 is trivial: nothing to deinitialize when the allocation goes.
                return entry(
                    key: UnsafeBufferPointer(rebasing: buffer[..<filled]), installBytes: installBytes,
                    experiments: experiments, resolve: resolve)
            }
        }
    }

    /// ``entry(query:acceptLanguage:experiments:resolve:)`` once the key is built: the variants drawn (on the
    /// stack), the remembered entry, else `resolve`'s, remembered.
    private func entry(
        key: UnsafeBufferPointer<UInt8>, installBytes: UnsafeBufferPointer<UInt8>?,
        experiments: [ResolutionKeyShape.ExperimentInputs], resolve: Resolve
    ) -> ResolvedPolicyResponse.Entry? {
        withUnsafeTemporaryAllocation(of: Int.self, capacity: experiments.count) { variants in
            for index in experiments.indices {
                let drawn = installBytes.flatMap { experiments[index].variant(forASCII: $0) }
                variants.initializeElement(at: index, to: drawn ?? -1)
            }
            // Int is trivial: nothing to deinitialize when the allocation goes.
            enum Found {
                case entry(ResolvedPolicyResponse.Entry)
                case query(PolicyQuery.Reading)
                case nothing
            }
            let found: Found = table.withLock { table in
                guard let position = table.position(of: key) else { return .nothing }
                let admitted = table[position: position].admitted
                for remembered in table[position: position].entries
                where Slot.matches(remembered.variants, drawn: variants, admitted: admitted) {
                    return .entry(remembered.entry)
                }
                return .query(table[position: position].reading)
            }
            var known: PolicyQuery.Reading?
            switch found {
            case .entry(let entry):
                return entry
            case .query(var reading):
                reading.context.installId = installBytes.map { String(decoding: $0, as: UTF8.self) }
                known = reading
            case .nothing:
                known = nil
            }
            guard let resolved = resolve(known, UnsafeBufferPointer(variants)) else { return nil }
            var remembered = resolved.reading
            remembered.context.installId = nil
            table.withLock { table in
                let position: Int
                if let found = table.position(of: key) {
                    position = found
                } else {
                    if table.count >= capacity { table.removeAll() }
                    let admitted = experiments.map { $0.admits(remembered.context) }
                    position = table.insert(
                        key: Array(key), value: Slot(reading: remembered, admitted: admitted, entries: []))
                }
                if table[position: position].entries.count < entriesPerQuery,
                    !table[position: position].entries.contains(where: { $0.variants == resolved.variants })
                {
                    table[position: position].entries.append((resolved.variants, resolved.entry))
                }
            }
            return resolved.entry
        }
    }
}
