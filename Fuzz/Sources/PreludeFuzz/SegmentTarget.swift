// Target over the event segment headers: `segment`.
import PreludeCore
import PreludeHTTP

@testable import PreludeService

/// `segment`: the device segment headers of an events request (`Prelude-OS-Major`, `Prelude-Locale`), as
/// ``EventSegment/declared(by:)`` reads them, and the client's reduction of raw device values
/// (``EventSegment/init(systemVersion:localeIdentifier:)``).
///
/// Input: the OS major header's values, then after the first NUL byte the locale header's values; within each part,
/// a line feed separates repeated header lines (a part without one is a single line, an empty part none at all).
/// Checked, besides "no crash":
/// - the verdict is an independent reading of the grammar (docs/api.md, "Events"): after trimming, an OS major is 1–2
///   ASCII digits without a leading zero, a locale is 2–3 letters optionally followed by `-` or `_` and 2 letters or
///   3 digits, and repeated lines repeat the same value; accepted values come back canonical (`fr-CA`, deprecated
///   languages replaced) and canonicalizing them again changes nothing;
/// - a refusal is a 400 naming exactly the invalid headers (`/headers/<name>`, `header.invalid`), with a JSON body;
/// - whatever the client reduces each whole part to (as a system version and a locale identifier) is sent as headers
///   the server accepts, and it stores exactly that segment.
func fuzzSegmentHeaders(_ bytes: UnsafeBufferPointer<UInt8>) {
    let parts = bytes.split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)
    let osMajorPart = String(decoding: parts[0], as: UTF8.self)
    let localePart = parts.count > 1 ? String(decoding: parts[1], as: UTF8.self) : ""
    func lines(_ part: String) -> [String] {
        part.isEmpty ? [] : part.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }
    let osMajorLines = lines(osMajorPart)
    let localeLines = lines(localePart)
    var headers = HTTPHeaders()
    for line in osMajorLines { headers.add(EventSegment.osMajorHeader, line) }
    for line in localeLines { headers.add(EventSegment.localeHeader, line) }

    let expectedOSMajor = expectedValue(of: osMajorLines, referenceOSMajor)
    let expectedLocale = expectedValue(of: localeLines, referenceLocale)
    let verdict = declaredSegment(headers)
    switch verdict {
    case .success(let segment):
        guard case .valid(let osMajor) = expectedOSMajor, case .valid(let locale) = expectedLocale,
            segment == EventSegment(osMajor: osMajor, locale: locale)
        else {
            fuzzFailure(
                "the server accepted headers the grammar does not give",
                "headers: \(Array(headers))\nsegment: \(segment)\nexpected: \(expectedOSMajor) \(expectedLocale)")
        }
        if let locale = segment.locale, EventSegment.parseLocale(locale) != locale {
            fuzzFailure(
                "an accepted locale is not canonical",
                "\(locale) → \(String(describing: EventSegment.parseLocale(locale)))")
        }
    case .failure(let problem):
        var invalid: [String] = []
        if case .invalid = expectedOSMajor { invalid.append("/headers/" + EventSegment.osMajorHeader) }
        if case .invalid = expectedLocale { invalid.append("/headers/" + EventSegment.localeHeader) }
        guard problem.status == .badRequest, problem.errors.map(\.pointer) == invalid,
            problem.errors.allSatisfy({ $0.code == "header.invalid" })
        else {
            fuzzFailure(
                "the refusal does not name exactly the invalid headers",
                "headers: \(Array(headers))\nproblem: \(problem.status) \(problem.errors)\nexpected: \(invalid)")
        }
        guard (try? JSONParser().parse(problem.jsonBytes)) != nil else {
            fuzzFailure("the refusal's body is not JSON", String(decoding: problem.jsonBytes, as: UTF8.self))
        }
    }

    // What the client makes of raw device values, the server accepts unchanged.
    let reduced = EventSegment(systemVersion: osMajorPart, localeIdentifier: localePart)
    var sent = HTTPHeaders()
    if let osMajor = reduced.osMajor { sent.add(EventSegment.osMajorHeader, String(osMajor)) }
    if let locale = reduced.locale { sent.add(EventSegment.localeHeader, locale) }
    guard case .success(let stored) = declaredSegment(sent), stored == reduced else {
        fuzzFailure(
            "the server does not store what the client sends",
            "system version \(osMajorPart.debugDescription), locale \(localePart.debugDescription)\n"
                + "client: \(reduced)\nserver: \(declaredSegment(sent))")
    }
}

/// What ``EventSegment/declared(by:)`` gives for these headers.
private func declaredSegment(_ headers: HTTPHeaders) -> Result<EventSegment, ProblemDetails> {
    let request = HTTPRequest(method: .post, path: "/v1/apps/demo/events", headers: headers)
    return Result { () throws(ProblemDetails) in try EventSegment.declared(by: request) }
}

/// The reference verdict on one header.
private enum ReferenceValue<Value: Equatable>: Equatable {
    /// Present and valid (nil: absent).
    case valid(Value?)
    /// Present and refused.
    case invalid
}

/// The verdict on a header's lines: absent, the one value all of them repeat, or invalid.
private func expectedValue<Value: Equatable>(of lines: [String], _ parse: (String) -> Value?) -> ReferenceValue<Value> {
    let trimmed = lines.map { $0.trimmingWhitespace() }
    guard let first = trimmed.first else { return .valid(nil) }
    guard trimmed.allSatisfy({ $0 == first }), let value = parse(first) else { return .invalid }
    return .valid(value)
}

/// 1–2 ASCII digits, no leading zero: the value.
private func referenceOSMajor(_ text: String) -> Int? {
    let bytes = Array(text.utf8)
    guard (1...2).contains(bytes.count), bytes.allSatisfy({ (0x30...0x39).contains($0) }), bytes[0] != 0x30 else {
        return nil
    }
    return bytes.reduce(0) { $0 * 10 + Int($1 - 0x30) }
}

/// `language` (2–3 ASCII letters) optionally followed by `-` or `_` and a region (2 letters or 3 digits): the
/// canonical `language[-REGION]`, deprecated languages replaced as LocaleTag documents.
private func referenceLocale(_ text: String) -> String? {
    let bytes = Array(text.utf8)
    func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
    func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
    let languageLength = bytes.prefix(while: isLetter).count
    guard (2...3).contains(languageLength) else { return nil }
    var language = String(decoding: bytes[..<languageLength], as: UTF8.self).lowercased()
    let aliases = ["iw": "he", "in": "id", "ji": "yi", "jw": "jv", "mo": "ro"]
    language = aliases[language] ?? language
    let rest = bytes[languageLength...]
    if rest.isEmpty { return language }
    guard rest.first == UInt8(ascii: "-") || rest.first == UInt8(ascii: "_") else { return nil }
    let region = Array(rest.dropFirst())
    guard (region.count == 2 && region.allSatisfy(isLetter)) || (region.count == 3 && region.allSatisfy(isDigit))
    else { return nil }
    return language + "-" + String(decoding: region, as: UTF8.self).uppercased()
}
