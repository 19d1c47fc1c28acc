import Foundation
import PreludeCore
import Testing

@testable import PreludeService

/// Each seed document's flow (shared/seeds), replayed through HTTP against the demo app: the client asks
/// `POST /decide`, shows what it is told, posts the events the decision names, and asks again later.
@Suite struct SeedFlowHTTPTests {
    let fixture = PublicFixture()
    static let hour = 3600.0

    struct Client {
        let http: PublicClient

        /// Decides one feature; returns the decision object.
        func decide(
            _ feature: String, _ status: String, os: String = "17.4", locale: String? = nil,
            acceptLanguage: String? = nil, available: Bool = true, history: String? = nil,
            installId: String = "install-seed"
        ) throws -> [String: Any] {
            var state = #"{"feature":"\#(feature)","status":"\#(status)","available":\#(available)"#
            if let history { state += #","history":\#(history)"# }
            state += "}"
            var body = #"{"installId":"\#(installId)","platform":"ios","os":"\#(os)","appVersion":"2.3.0""#
            if let locale { body += #","locale":"\#(locale)""# }
            body += #","features":[\#(state)]}"#
            let response = try http.post(
                "/v1/apps/demo/decide", json: body, headers: acceptLanguage.map { [("Accept-Language", $0)] } ?? [])
            #expect(response.status == 200, "\(response.text)")
            #expect(response["Cache-Control"] == "no-store")
            let decisions = try #require(try response.json()["decisions"] as? [[String: Any]])
            #expect(decisions.count == 1)
            return decisions[0]
        }

        /// Posts the named events for one install and feature; returns the number accepted.
        func post(_ types: [String], feature: String, variant: [String: Any]? = nil, install: String = "install-seed")
            throws -> Int
        {
            let tag =
                variant.map { #","experiment":"\#($0["experiment"]!)","variant":"\#($0["variant"]!)""# } ?? ""
            let events = types.enumerated().map { index, type in
                #"{"id":"\#(feature)-\#(type)-\#(index)","installId":"\#(install)","type":"\#(type)","feature":"\#(feature)","occurredAt":\#(Int64(Date().timeIntervalSince1970 * 1000))\#(tag)}"#
            }
            let response = try http.post(
                "/v1/apps/demo/events", json: #"{"events":[\#(events.joined(separator: ","))]}"#)
            #expect(response.status == 202, "\(response.text)")
            return try response.json()["accepted"] as? Int ?? -1
        }
    }

    private func copy(_ decision: [String: Any]) -> [String: String] {
        decision["copy"] as? [String: String] ?? [:]
    }

    private func events(_ decision: [String: Any]) -> [String: String] {
        decision["events"] as? [String: String] ?? [:]
    }

    // permission-priming-camera.fr: priming screen first; Continue leads to the system prompt; events at each step.
    @Test func cameraPrimingInFrenchThenGrant() throws {
        let service = try fixture.startService()
        defer { service.stop() }
        let client = Client(http: PublicClient(port: service.port))
        let prime = try client.decide("camera", "notDetermined", locale: "fr-FR")
        #expect(prime["action"] as? String == "prime")
        #expect(prime["screen"] as? String == "prime")
        #expect(prime["style"] as? String == "single")
        #expect(copy(prime)["title"] == "Prendre des photos dans Prelude Demo")
        #expect(copy(prime)["continueLabel"] == "Continuer")
        #expect(copy(prime)["cancelLabel"] == nil)  // one action, as Apple asks
        #expect(prime["countsAgainst"] as? String == "prime")
        let variant = try #require(prime["variant"] as? [String: Any])
        #expect(variant["experiment"] as? String == "camera-prime-copy")
        let plan = events(prime)
        #expect(plan["onShow"] == "primeShown")
        #expect(plan["onContinue"] == "primeAccepted")
        #expect(plan["onGranted"] == "systemGranted")
        let steps = [plan["onShow"]!, plan["onContinue"]!, plan["onGranted"]!]
        #expect(try client.post(steps, feature: "camera", variant: variant) == 3)
        #expect(try client.post(steps, feature: "camera", variant: variant) == 0)  // a retry counts nothing

        let granted = try client.decide("camera", "authorized", locale: "fr-FR")
        #expect(granted["action"] as? String == "proceed")
        #expect(granted["copy"] == nil)
        let stored = try service.database.read { db in
            try db.query(
                "SELECT type, variant FROM events WHERE feature = 'camera' ORDER BY id"
            ).map { try $0.get("type", as: String.self) + "/" + $0.get("variant", as: String.self) }
        }
        #expect(stored == steps.map { "\($0)/\(variant["variant"]!)" })
    }

    // The priming screen left without continuing: wait for the cadence, then prime again.
    @Test func primingLeftWithoutContinuingWaitsThenPrimesAgain() throws {
        let service = try fixture.startService()
        defer { service.stop() }
        let client = Client(http: PublicClient(port: service.port))
        let now = Date().timeIntervalSince1970.rounded()
        let recently = now - Self.hour
        let wait = try client.decide(
            "camera", "notDetermined", locale: "en",
            history: #"{"prime":{"shownCount":1,"lastShown":\#(Int(recently)),"lastOutcome":"leftWithoutContinuing"}}"#)
        #expect(wait["action"] as? String == "wait")
        #expect(wait["reason"] as? String == "primeCadenceWaiting")
        // The demo's prime cadence: 72 hours after the first showing.
        #expect(wait["eligibleAt"] as? Double == recently + 72 * Self.hour)
        #expect(try client.post(["primeShown", "primeDismissed"], feature: "camera") == 2)

        let longAgo = now - 73 * Self.hour
        let again = try client.decide(
            "camera", "notDetermined", locale: "en",
            history: #"{"prime":{"shownCount":1,"lastShown":\#(Int(longAgo)),"lastOutcome":"leftWithoutContinuing"}}"#)
        #expect(again["action"] as? String == "prime")
        // After the third showing, never again.
        let exhausted = try client.decide(
            "camera", "notDetermined", locale: "en",
            history:
                #"{"prime":{"shownCount":3,"lastShown":\#(Int(now - 5000 * Self.hour)),"lastOutcome":"dismissed"}}"#)
        #expect(exhausted["action"] as? String == "wait")
        #expect(exhausted["reason"] as? String == "primeCadenceExhausted")
        #expect(exhausted["eligibleAt"] == nil)
    }

    // camera-authorization-flow.zh-Hans: denied → leave the black screen, guidance dialog, Settings after 0.2 s,
    // and a return from Settings with the permission granted.
    @Test func deniedCameraOpensSettingsAfterADelayInSimplifiedChinese() throws {
        let service = try fixture.startService()
        defer { service.stop() }
        let client = Client(http: PublicClient(port: service.port))
        let nudge = try client.decide("camera", "denied", acceptLanguage: "zh-CN,zh;q=0.9,en;q=0.5")
        #expect(nudge["action"] as? String == "openSettings")
        #expect(nudge["screen"] as? String == "settings")
        #expect(nudge["settingsDelayMs"] as? Int == 200)
        #expect(nudge["leaveScreenFirst"] as? Bool == true)
        let text = copy(nudge)
        #expect(text["title"]?.isEmpty == false)
        #expect(text["openLabel"]?.isEmpty == false)
        #expect(text["title"] != "Camera access is off")  // the Chinese copy, not the English default
        #expect(events(nudge)["onContinue"] == "settingsOpened")
        #expect(events(nudge)["onGranted"] == "returnedGranted")
        #expect(try client.post(["settingsShown", "settingsOpened", "returnedGranted"], feature: "camera") == 3)
        let back = try client.decide("camera", "authorized", acceptLanguage: "zh-CN")
        #expect(back["action"] as? String == "proceed")
    }

    // permission-priming-camera.fr / camera-photos-authorization.zh-Hant: no camera → an explanation, never a prompt.
    @Test func noCameraIsUnsupportedWhateverTheStatus() throws {
        let service = try fixture.startService()
        defer { service.stop() }
        let client = Client(http: PublicClient(port: service.port))
        for status in ["notDetermined", "denied", "authorized"] {
            let decision = try client.decide("camera", status, locale: "en", available: false)
            #expect(decision["action"] as? String == "unsupported")
            #expect(decision["reason"] as? String == "hardwareUnavailable")
            #expect(
                copy(decision)["message"] == "This device has no camera. You can still choose photos from your library."
            )
            #expect(events(decision)["onShow"] == "unsupportedShown")
        }
        let traditional = try client.decide("camera", "notDetermined", locale: "zh-Hant-TW", available: false)
        #expect(traditional["action"] as? String == "unsupported")
        #expect(
            copy(traditional)["message"]
                != copy(try client.decide("camera", "notDetermined", locale: "en", available: false))["message"])
        #expect(try client.post(["unsupportedShown"], feature: "camera") == 1)
    }

    // camera-photos-authorization.zh-Hant: a denied photo library gets an explanatory page, never a blank one.
    @Test func photosDeniedShowsTheDeniedPageWhenTheNudgeIsNotDue() throws {
        let service = try fixture.startService()
        defer { service.stop() }
        let client = Client(http: PublicClient(port: service.port))
        let now = Date().timeIntervalSince1970.rounded()
        let first = try client.decide("photos", "denied", locale: "en")
        #expect(first["action"] as? String == "openSettings")
        let page = try client.decide(
            "photos", "denied", locale: "en",
            history: #"{"settings":{"shownCount":1,"lastShown":\#(Int(now - Self.hour)),"lastOutcome":"dismissed"}}"#)
        #expect(page["action"] as? String == "deniedScreen")
        #expect(page["screen"] as? String == "denied")
        #expect(copy(page)["title"] == "Photo access is off")
        #expect(copy(page)["message"]?.hasSuffix(".") == true)
        #expect(page["eligibleAt"] as? Double == now - Self.hour + 168 * Self.hour)
        let chinese = try client.decide(
            "photos", "denied", locale: "zh-Hant",
            history: #"{"settings":{"shownCount":1,"lastShown":\#(Int(now - Self.hour)),"lastOutcome":"dismissed"}}"#)
        #expect(chinese["action"] as? String == "deniedScreen")
        #expect(copy(chinese)["title"] != "Photo access is off")
        let restricted = try client.decide("photos", "restricted", locale: "en")
        #expect(restricted["action"] as? String == "restrictedNotice")
        #expect(copy(restricted)["openLabel"] == nil)  // no Settings button for a restriction
        #expect(try client.post(["deniedShown"], feature: "photos") == 1)
    }

    // contact-access-button-ios18.ja: limited access on iOS 18 → ContactAccessButton; not before iOS 18.
    @Test func contactsLimitedOnIOS18OffersTheContactAccessButton() throws {
        let service = try fixture.startService()
        defer { service.stop() }
        let http = PublicClient(port: service.port)
        let client = Client(http: http)
        let limited = try client.decide("contacts", "limited", os: "18.0", locale: "ja")
        #expect(limited["action"] as? String == "contactAccessButton")
        let ask = try client.decide("contacts", "notDetermined", os: "18.1", locale: "ja")
        #expect(ask["action"] as? String == "contactAccessButton")
        #expect(copy(ask)["caption"]?.isEmpty == false)
        let older = try client.decide("contacts", "notDetermined", os: "17.5", locale: "ja")
        #expect(older["action"] as? String == "prime")
        // Limited contacts do not exist before iOS 18: no device could send this.
        let impossible = try http.post(
            "/v1/apps/demo/decide",
            json: #"{"platform":"ios","os":"17.5","features":[{"feature":"contacts","status":"limited"}]}"#)
        #expect(impossible.status == 422)
        #expect(try impossible.problemPointers() == ["/features/0/status"])
        #expect(try client.post(["buttonShown"], feature: "contacts") == 1)
    }

    // hig-accessing-user-data.ja: LocationButton from iOS 15 grants one-time location in-line.
    @Test func locationButtonFromIOS15() throws {
        let service = try fixture.startService()
        defer { service.stop() }
        let client = Client(http: PublicClient(port: service.port))
        let button = try client.decide("locationWhenInUse", "notDetermined", os: "15.0", locale: "en")
        #expect(button["action"] as? String == "locationButton")
        #expect(copy(button)["caption"] == "Share your current location once to see the shops around you.")
        let older = try client.decide("locationWhenInUse", "notDetermined", os: "14.8", locale: "en")
        #expect(older["action"] as? String == "prime")
        #expect(try client.post(["buttonShown", "systemGranted"], feature: "locationWhenInUse") == 2)
    }
}
