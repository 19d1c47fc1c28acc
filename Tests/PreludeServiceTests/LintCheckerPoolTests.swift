import Dispatch
import PreludeCore
import Synchronization
import Testing

@testable import PreludeService

/// The word lists every admin write lints with are compiled once and handed from write to write.
@Suite struct LintCheckerPoolTests {
    @Test func writesShareCompiledListsAndFindTheSame() {
        let pool = LintCheckerPool(capacity: 2)
        let demo = PublicFixture.demoDocument
        let expected = CopyLinter.lint(demo)
        #expect(pool.idleCount == 0)
        #expect(pool.lint(demo) == expected)
        #expect(pool.idleCount == 1, "the run's compiled lists are kept for the next")
        #expect(pool.lint(demo) == expected)
        #expect(pool.idleCount == 1, "the next run took them and gave them back")
    }

    @Test func concurrentRunsEachHoldTheirOwnSetAndTheIdleOnesAreBounded() {
        let pool = LintCheckerPool(capacity: 2)
        let demo = PublicFixture.demoDocument
        let expected = CopyLinter.lint(demo)
        let mismatches = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            if pool.lint(demo) != expected { mismatches.withLock { $0 += 1 } }
        }
        #expect(mismatches.withLock { $0 } == 0)
        #expect(pool.idleCount >= 1 && pool.idleCount <= 2)
    }
}
