// Apple platforms only (UIKit or AppKit present): not part of a Linux build. scripts/check-apple-sources.sh
// type-checks it on Linux against stubs of Apple's documented declarations; it has never run on a device. It only
// forwards to the readers, which hand Apple's raw values to the platform-free AppleStatusMapping.
#if canImport(UIKit) || canImport(AppKit)
    import PreludeCore

    /// The live device on iOS: Apple's frameworks through ``AppleStatusReader``, ``AppleAccessRequester`` and
    /// `SettingsOpener` (Apple platforms only).
    public struct AppleDevice: PermissionDevice {
        /// The purpose strings the requester checks before each system alert.
        public var usageDescriptions: UsageDescriptionCheck
        /// Whether a feature's hardware or source exists; the camera is checked, the rest assumed.
        public var availability: @Sendable (Feature) -> Bool

        /// The live device, checking the main bundle's purpose strings.
        public init(
            usageDescriptions: UsageDescriptionCheck = .mainBundle,
            availability: @escaping @Sendable (Feature) -> Bool = {
                $0 != .camera || AppleStatusReader.cameraAvailable()
            }
        ) {
            self.usageDescriptions = usageDescriptions
            self.availability = availability
        }

        public func status(of feature: Feature) async -> AuthorizationStatus {
            await AppleStatusReader.status(of: feature) ?? .notDetermined
        }

        public func isAvailable(_ feature: Feature) async -> Bool { availability(feature) }

        public func requestAccess(_ feature: Feature) async -> AuthorizationStatus {
            // PermissionFlow checks the purpose strings first; a refusal here means a race with a new Info.plist.
            if let status = try? await AppleAccessRequester.request(feature, check: usageDescriptions) {
                return status
            }
            return await self.status(of: feature)
        }

        public func openSettings(afterMilliseconds delayMs: Int) async {
            #if canImport(UIKit) && !os(watchOS)
                _ = await SettingsOpener.open(afterMilliseconds: delayMs)
            #endif
        }
    }
#endif
