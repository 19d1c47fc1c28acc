import PreludeCore
import Testing

/// The decide contract the server's route and the client's offline decider share.
@Suite struct DecideContractTests {
    static let ios174 = ClientContext(platform: .ios, osVersion: SemanticVersion("17.4"))

    @Test func whenInUseIsFullAccessForLocationWhenInUseOnly() {
        let whenInUse = DecideContract.completed(
            ClientState(feature: .locationWhenInUse, status: .whenInUse), context: Self.ios174)
        #expect(whenInUse.status == .authorized)
        let always = DecideContract.completed(
            ClientState(feature: .locationAlways, status: .whenInUse), context: Self.ios174)
        #expect(always.status == .whenInUse)
    }

    @Test func aStateWithoutOSVersionTakesTheContextsUnlessThePlatformNumbersOtherwise() {
        let camera = ClientState(feature: .camera, status: .notDetermined)
        #expect(DecideContract.completed(camera, context: Self.ios174).osVersion == SemanticVersion("17.4"))
        #expect(
            DecideContract.completed(camera, context: ClientContext(osVersion: SemanticVersion("16"))).osVersion
                == SemanticVersion("16"))
        let macOS = ClientContext(platform: .macos, osVersion: SemanticVersion("14.4"))
        #expect(DecideContract.completed(camera, context: macOS).osVersion == nil)
        var own = camera
        own.osVersion = SemanticVersion("15")
        #expect(DecideContract.completed(own, context: Self.ios174).osVersion == SemanticVersion("15"))
    }

    @Test func theBodyIsTheEnvelopeObjectSerialized() throws {
        var empty = DecideContract.ResponseBody(revision: 7, locale: "fr-CA")
        empty.finish()
        #expect(String(decoding: empty.bytes, as: UTF8.self) == #"{"revision":7,"locale":"fr-CA","decisions":[]}"#)
    }
}
