import PreludeCore
import PreludeTestSupport

/// Random event streams for the aggregates' tests.
package enum EventStreams {
    package static let eventTypes = [
        "primeShown", "primeAccepted", "primeDismissed", "systemGranted", "systemDenied", "settingsShown",
        "settingsOpened", "returnedGranted", "deniedShown", "unsupportedShown", "buttonShown", "taskStarted",
        "taskCompleted",
    ]

    /// Device segments of the messy stream: known ones, one half known, and none (an older client).
    package static let segments = [
        EventSegment(osMajor: 18, locale: "fr-CA"), EventSegment(osMajor: 17, locale: "en-US"),
        EventSegment(osMajor: 18, locale: nil), EventSegment(),
    ]

    /// A messy random stream: several variants (one not configured), events without an assignment, events of the
    /// experiment under another feature, non-funnel types, retried events (same client ids) and repeated steps;
    /// each install mostly in one device segment, sometimes another (an OS update, a language change).
    package static func messyStream(seed: UInt64, installs: Int, events: Int) -> [TestEvent] {
        var generator = SplitMix64(state: seed)
        // Its own generator, so the stream of everything else is what it was before segments existed.
        var segmentGenerator = SplitMix64(state: seed ^ 0x5e6)
        let variants: [String?] = ["control", "short-copy", "short-copy", "control", "ghost", nil]
        var stream: [TestEvent] = []
        for index in 0..<events {
            let installNumber = generator.below(installs)
            let install = "install-\(installNumber)"
            var event = TestEvent(
                install: install, id: "e\(index)", type: eventTypes[generator.below(eventTypes.count)],
                variant: variants[generator.below(variants.count)])
            event.segment =
                segmentGenerator.chance(0.1)
                ? segments[segmentGenerator.below(segments.count)] : segments[installNumber % segments.count]
            if generator.chance(0.05) { event.feature = "photos" }
            if generator.chance(0.05) { event.experiment = nil }
            stream.append(event)
            if generator.chance(0.1) {
                stream.append(stream[generator.below(stream.count)])  // a retried event: same client event id
            }
        }
        return stream
    }
}
