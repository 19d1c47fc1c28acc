// Stub of Apple's DeclaredAgeRange (iOS 26) for scripts/check-apple-sources.sh: only the symbols
// Sources/PreludeClient uses, each declaration transcribed from the Apple documentation page above it.
// Type-checked, never run.
@_exported import Foundation
import UIKit

// https://developer.apple.com/documentation/declaredagerange/agerangeservice (`struct AgeRangeService`)
public struct AgeRangeService: Sendable {
    // https://developer.apple.com/documentation/declaredagerange/agerangeservice/shared
    public static let shared = AgeRangeService()

    // https://developer.apple.com/documentation/declaredagerange/agerangeservice/agerange (`struct AgeRange`)
    public struct AgeRange: Sendable {
        // https://developer.apple.com/documentation/declaredagerange/agerangeservice/agerange/lowerbound
        public var lowerBound: Int?
        // https://developer.apple.com/documentation/declaredagerange/agerangeservice/agerange/upperbound
        public var upperBound: Int?
    }

    // https://developer.apple.com/documentation/declaredagerange/agerangeservice/response
    // (cases `declinedSharing`, `sharing(range:)`)
    public enum Response: Sendable {
        case declinedSharing
        case sharing(range: AgeRangeService.AgeRange)
    }

    // https://developer.apple.com/documentation/declaredagerange/agerangeservice/requestagerange(agegates:_:_:in:)-2go8c
    // (`func requestAgeRange(ageGates threshold1: Int, _ threshold2: Int? = nil, _ threshold3: Int? = nil,
    //  in viewController: UIViewController) async throws -> AgeRangeService.Response`)
    @MainActor public func requestAgeRange(
        ageGates threshold1: Int, _ threshold2: Int? = nil, _ threshold3: Int? = nil,
        in viewController: UIViewController
    ) async throws -> AgeRangeService.Response { fatalError("stub") }
}
