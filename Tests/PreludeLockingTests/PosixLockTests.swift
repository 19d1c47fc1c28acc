import Testing

@testable import PreludeLocking

/// `PosixLock`'s rule that its value is never a bare function (docs/storage.md, "Observers").
struct PosixLockTests {
    private struct Handlers {
        var onEvent: (@Sendable () -> UInt)?
    }

    /// The rule refuses a function however it is wrapped without a nominal type, and nothing else.
    @Test func holdsBareFunctionNamesTheTypesWithAFunctionOutsideAStruct() {
        #expect(PosixLock<() -> Void>.holdsBareFunction)
        #expect(PosixLock<(@Sendable (UInt64) -> Void)?>.holdsBareFunction)
        #expect(PosixLock<(Int, (Int) -> Int)>.holdsBareFunction)
        #expect(PosixLock<[String: () -> Void]>.holdsBareFunction)
        #expect(!PosixLock<Int>.holdsBareFunction)
        #expect(!PosixLock<[String]>.holdsBareFunction)
        #expect(!PosixLock<Int64?>.holdsBareFunction)
        #expect(!PosixLock<Handlers>.holdsBareFunction)
        #expect(!PosixLock<Result<[UInt8], any Error>?>.holdsBareFunction)
    }

    /// A function kept in a struct under the lock is called at one stack depth after a thousand `withLock` calls as
    /// after the first: the struct's layout fixes its representation, so the write-back adds no thunk.
    @Test func aFunctionInAStructStaysAtOneDepthThroughWithLock() throws {
        let lock = PosixLock(Handlers(onEvent: { Self.stackAddress() }))
        var depths: [UInt] = []
        for _ in 0..<1_000 {
            let handler = try #require(lock.withLock { $0.onEvent })
            depths.append(handler())
        }
        #expect(depths.first == depths.last, "called \(Int(bitPattern: depths[0] &- depths[999])) bytes deeper")
    }

    /// Why the rule exists: a bare optional function as the value of a generic lock, passed `inout` through a generic
    /// body as `PosixLock.withLock` does, comes back wrapped in more thunks on every call. `GenericCell` is that
    /// boundary without the assertion (a debug build does not specialize it, as another module's release build
    /// does not specialize `PosixLock`). Should the compiler ever stop re-wrapping, this fails and the rule can go.
    @Test func aBareFunctionThroughAGenericInoutBodyGoesDeeperAtEveryCall() throws {
        let cell = GenericCell<(@Sendable () -> UInt)?>({ Self.stackAddress() })
        var depths: [UInt] = []
        for _ in 0..<1_000 {
            let handler = try #require(cell.with { $0 })
            depths.append(handler())
        }
        let first = try #require(depths.first)
        let last = try #require(depths.last)
        #expect(first > last, "the thousandth call was not deeper than the first")
    }

    /// The address of a local of the caller's next frame: lower when the call stack is deeper.
    @inline(never)
    static func stackAddress() -> UInt {
        var marker = 0
        return withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
    }
}

/// A generic value handed to its body `inout`, as `PosixLock` does, without the lock or the rule.
private final class GenericCell<Value>: @unchecked Sendable {
    private var value: Value

    init(_ value: Value) { self.value = value }

    @inline(never)
    func with<Result>(_ body: (inout Value) -> Result) -> Result { body(&value) }
}
