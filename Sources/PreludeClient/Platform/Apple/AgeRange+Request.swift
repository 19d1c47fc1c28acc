// iOS only (DeclaredAgeRange and UIKit present): not part of a Linux build. scripts/check-apple-sources.sh
// type-checks it on Linux against stubs of the documented declarations; it has never run on a device. One
// DeclaredAgeRange call; `AgeRange` (platform-free, tested) keeps the bounds.
#if canImport(DeclaredAgeRange) && canImport(UIKit)
    import DeclaredAgeRange
    import UIKit

    extension AgeRange {
        /// Asks the person to share their age band (Declared Age Range, iOS 26) with the app's age gates, and returns
        /// it; nil when they decline. Prelude never asks by itself: call it when the app has its own reason to, then
        /// pass the band as `ageRange:` to `ClientContext.current`
        /// (https://developer.apple.com/documentation/declaredagerange/agerangeservice/requestagerange(agegates:_:_:in:)-2go8c).
        @available(iOS 26.0, *)
        @MainActor public static func request(
            ageGates first: Int, _ second: Int? = nil, _ third: Int? = nil, in viewController: UIViewController
        ) async throws -> AgeRange? {
            let response = try await AgeRangeService.shared.requestAgeRange(
                ageGates: first, second, third, in: viewController)
            switch response {
            case .declinedSharing: return nil
            case .sharing(let range): return AgeRange(lowerBound: range.lowerBound, upperBound: range.upperBound)
            }
        }
    }
#endif
