// Compiled into PreludeClient by scripts/check-apple-sources.sh only: names every Apple-only API so that a file
// whose guard silently turned false fails the check instead of vanishing from it.
import Foundation
import PreludeCore
import UIKit

@MainActor func probeAppleOnlyAPI() async throws {
    let device = AppleDevice(usageDescriptions: .mainBundle)
    _ = await device.status(of: .camera)
    _ = await AppleStatusReader.status(of: .photos)
    _ = AppleStatusReader.cameraAvailable()
    _ = try await AppleAccessRequester.request(.camera, check: UsageDescriptionCheck(strings: [:]))
    _ = await SettingsOpener.open(afterMilliseconds: 0)
    _ = ClientContext.current(installId: "i")
    _ = EventSegment.current()
    _ = await StorefrontRegion.current()
    if #available(iOS 26.0, *) { _ = try await AgeRange.request(ageGates: 13, 16, 18, in: UIViewController()) }
}

@MainActor func probeForeground(_ directory: URL) throws -> PreludeClient {
    ApplicationForeground.observe(.application)
    return try PreludeClient(server: directory, app: "demo", storageDirectory: directory)
}
