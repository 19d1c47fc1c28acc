import Synchronization

/// A bounded least-recently-used cache; each ``ServedPolicy`` holds two, keyed by ``ResolutionKey``: prepared
/// resolved-policy responses and resolved policies (for decide).
///
/// Bounded because the key space (locales × platforms × OS versions × variants) is open-ended; a client
/// population concentrates on few keys, so a small capacity serves nearly every request from memory. A miss
/// costs one resolution, serialization and compression; two concurrent misses on one key both compute and the
/// second insert wins (same bytes). Lookups and inserts are O(1) under one mutex.
package final class LRUCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Entry {
        var key: Key
        var value: Value
        var previous: Int
        var next: Int
    }

    // A doubly linked list threaded through an array (most recent at `head`), indexed by a dictionary.
    private struct State {
        var index: [Key: Int] = [:]
        var entries: [Entry] = []
        var head = -1
        var tail = -1
        var hits = 0
        var misses = 0

        mutating func unlink(_ i: Int) {
            let previous = entries[i].previous
            let next = entries[i].next
            if previous >= 0 { entries[previous].next = next } else { head = next }
            if next >= 0 { entries[next].previous = previous } else { tail = previous }
        }

        mutating func pushFront(_ i: Int) {
            entries[i].previous = -1
            entries[i].next = head
            if head >= 0 { entries[head].previous = i }
            head = i
            if tail < 0 { tail = i }
        }
    }

    /// The most entries kept.
    package let capacity: Int
    private let state = Mutex(State())

    /// An empty cache holding at most `capacity` (≥ 1) responses.
    package init(capacity: Int) {
        precondition(capacity >= 1, "a cache holds at least one entry")
        self.capacity = capacity
    }

    /// The response for `key`, marking it most recently used.
    package func value(for key: Key) -> Value? {
        state.withLock { state in
            guard let i = state.index[key] else {
                state.misses += 1
                return nil
            }
            state.hits += 1
            if state.head != i {
                state.unlink(i)
                state.pushFront(i)
            }
            return state.entries[i].value
        }
    }

    /// Stores `value` for `key` as most recently used, evicting the least recently used entry when full.
    package func insert(_ value: Value, for key: Key) {
        state.withLock { state in
            if let i = state.index[key] {
                state.entries[i].value = value
                if state.head != i {
                    state.unlink(i)
                    state.pushFront(i)
                }
                return
            }
            let slot: Int
            if state.entries.count < capacity {
                slot = state.entries.count
                state.entries.append(Entry(key: key, value: value, previous: -1, next: -1))
            } else {
                slot = state.tail
                state.unlink(slot)
                state.index[state.entries[slot].key] = nil
                state.entries[slot] = Entry(key: key, value: value, previous: -1, next: -1)
            }
            state.index[key] = slot
            state.pushFront(slot)
        }
    }

    /// The number of responses held.
    package var count: Int { state.withLock { $0.index.count } }

    /// Lookups that found a response and lookups that did not, since creation.
    package var statistics: (hits: Int, misses: Int) { state.withLock { ($0.hits, $0.misses) } }
}
