import Testing

@testable import PreludeCore

/// Control characters and noncharacters never reach storage: every string of a policy document is checked.
@Suite struct StoredTextTests {
    @Test(arguments: [
        (#"{"app": {"name": "Demo\u0000"}}"#, "/app/name"),
        (#"{"app": {"name": "Demo\u001B[31m"}}"#, "/app/name"),
        (#"{"app": {"name": "Demo\u007F"}}"#, "/app/name"),
        (#"{"app": {"name": "Demo\u0085"}}"#, "/app/name"),
        (#"{"app": {"name": "Demo\uFFFE"}}"#, "/app/name"),
        (#"{"app": {"name": "Demo\uFDD0"}}"#, "/app/name"),
        (#"{"app": {"name": "Demo\uD83F\uDFFF"}}"#, "/app/name"),
        (
            #"{"features": {"microphone": {"copy": {"en": {"prime": {"title": "Record\u0000notes"}}}}}}"#,
            "/features/microphone/copy/en/prime/title"
        ),
        (
            #"{"features": {"microphone": {"copy": {"en": {"prime": {"title": "Record\nnotes"}}}}}}"#,
            "/features/microphone/copy/en/prime/title"
        ),
        (
            #"{"features": {"microphone": {"copy": {"en": {"prime": {"message": "Line one.\r\nLine two."}}}}}}"#,
            "/features/microphone/copy/en/prime/message"
        ),
        (
            #"{"features": {"microphone": {"copy": {"en": {"prime": {"message": "Tab\there."}}}}}}"#,
            "/features/microphone/copy/en/prime/message"
        ),
        (
            #"{"defaults": {"copy": {"en": {"settings": {"openLabel": "Open\uFFFF"}}}}}"#,
            "/defaults/copy/en/settings/openLabel"
        ),
        (
            #"{"features": {"microphone": {"targeting": [{"name": "rule\u0001", "when": {}, "set": {}}]}}}"#,
            "/features/microphone/targeting/0/name"
        ),
        (
            #"{"experiments": [{"key": "mic\u0000", "feature": "microphone", "variants": [{"name": "a", "weight": 100}]}]}"#,
            "/experiments/0/key"
        ),
        (
            #"{"experiments": [{"key": "mic", "feature": "microphone", "seed": "s\u0002", "variants": [{"name": "a", "weight": 100}]}]}"#,
            "/experiments/0/seed"
        ),
        (
            #"{"experiments": [{"key": "mic", "feature": "microphone", "variants": [{"name": "a\u009F", "weight": 100}]}]}"#,
            "/experiments/0/variants/0/name"
        ),
    ])
    func forbiddenCharactersAreRefusedWithTheirPointer(patch: String, pointer: String) throws {
        let validation = PolicyValidator.validate(try PolicyFixtures.minimal(patchedWith: patch))
        #expect(validation.document == nil)
        let found = validation.problems.filter { $0.code == .forbiddenCharacter }
        #expect(found.map(\.pointer.description) == [pointer], "\(validation.problems.map(\.description))")
        #expect(found.first?.message.contains("U+") == true)
    }

    @Test func aLineFeedIsAllowedInCopyMessagesOnly() throws {
        let patch =
            #"{"features": {"microphone": {"copy": {"en": {"prime": {"message": "First paragraph.\n\nSecond one."}}}}}}"#
        let validation = PolicyValidator.validate(try PolicyFixtures.minimal(patchedWith: patch))
        #expect(validation.problems.map(\.description) == [])
    }

    @Test func ordinaryTextPasses() {
        for text in ["Prelude Demo", "Réglages", "設定を開く", "🙂 emoji", "RTL \u{200F}שלום", "\u{FFFD}"] {
            #expect(StoredText.forbiddenScalar(in: text) == nil, "\(text)")
        }
    }

    @Test func scalarClasses() {
        let refused: [UInt32] = [
            0x00, 0x09, 0x0A, 0x0D, 0x1F, 0x7F, 0x80, 0x9F, 0xFDD0, 0xFDEF, 0xFFFE, 0xFFFF, 0x1FFFE, 0x10FFFF,
        ]
        for value in refused { #expect(StoredText.isForbidden(Unicode.Scalar(value)!), "\(value)") }
        let allowed: [UInt32] = [0x20, 0x7E, 0xA0, 0xFDCF, 0xFDF0, 0xFFFD, 0x1F642]
        for value in allowed { #expect(!StoredText.isForbidden(Unicode.Scalar(value)!), "\(value)") }
        #expect(StoredText.forbiddenScalar(in: "a\nb", allowingNewline: true) == nil)
        #expect(StoredText.forbiddenScalar(in: "a\nb")?.offset == 1)
        #expect(StoredText.describe("\u{0}") == "U+0000 (a control character)")
        #expect(StoredText.describe("\u{FFFE}") == "U+FFFE (a noncharacter)")
    }
}
