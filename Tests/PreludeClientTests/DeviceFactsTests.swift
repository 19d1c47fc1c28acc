import PreludeClient
import Testing

/// `ClientContext.current()`'s platform-free half: what the device says, and every override winning.
@Suite struct DeviceFactsTests {
    let phone = DeviceFacts(
        systemVersion: "17.4.1", isPad: false, shortVersion: "2.3.0", preferredLanguages: ["fr-CA", "en-US", "ja"])

    @Test func readsPlatformVersionsAndLanguages() {
        let context = phone.context()
        #expect(context.platform == .ios)
        #expect(context.osVersion == SemanticVersion("17.4.1"))
        #expect(context.appVersion == SemanticVersion("2.3.0"))
        #expect(context.acceptLanguage == "fr-CA, en-US;q=0.9, ja;q=0.8")
        #expect(context.locale == nil)
        #expect(context.preferredLocale == LocaleTag("fr-CA"))
        var pad = phone
        pad.isPad = true
        #expect(pad.context().platform == .ipados)
    }

    @Test func everyArgumentOverridesTheDevice() {
        let context = phone.context(
            installId: "i-1", platform: .visionos, osVersion: SemanticVersion("2.0"),
            appVersion: SemanticVersion("9.9.9"), locale: "de", acceptLanguage: "it")
        #expect(context.installId == "i-1")
        #expect(context.platform == .visionos)
        #expect(context.osVersion == SemanticVersion("2.0"))
        #expect(context.appVersion == SemanticVersion("9.9.9"))
        #expect(context.locale == "de")
        #expect(context.acceptLanguage == "it")
    }

    @Test func unparseableValuesAreLeftOut() {
        let odd = DeviceFacts(systemVersion: "beta", isPad: false, shortVersion: "1.0 (42)", preferredLanguages: ["??"])
        let context = odd.context()
        #expect(context.osVersion == nil)
        #expect(context.appVersion == nil)
        #expect(context.acceptLanguage == nil)
        let many = DeviceFacts(
            systemVersion: "18.0", isPad: false, shortVersion: nil,
            preferredLanguages: ["en", "fr", "de", "it", "es", "pt", "nl", "sv", "da", "nb", "fi", "ja"])
        #expect(many.context().acceptLanguage?.hasSuffix("nb;q=0.1") == true)
    }
}
