import PreludeCore
import PreludeTestSupport
import Testing

@testable import PreludePreview

@Suite struct ScreenGeometryTests {
    private let sheet = ScreenGeometry(action: .deniedScreen, style: nil)
    private let alert = ScreenGeometry(action: .openSettings, style: nil)

    @Test func presentsAlertsAndSheetsLikeIOS() {
        #expect(alert.presentation == .alert && alert.width == 270)
        #expect(sheet.presentation == .sheet && sheet.width == 390)
        #expect(ScreenGeometry(action: .prime, style: .twoButton).presentation == .alert)
        #expect(ScreenGeometry(action: .prime, style: .single).presentation == .sheet)
    }

    @Test(arguments: [
        // 342 pt at 17 pt is 20.1 em: 36 narrow characters (0.55 em) per line.
        ("", 1), ("Short text.", 1), (String(repeating: "a", count: 36), 1), (String(repeating: "a", count: 37), 2),
        (String(repeating: "word ", count: 12), 2), ("one\ntwo", 2), (String(repeating: "a", count: 73), 3),
        // Wide characters take 1 em: 20 per line.
        (String(repeating: "字", count: 20), 1), (String(repeating: "字", count: 21), 2),
    ])
    func measuresLinesDeterministically(text: String, lines: Int) {
        #expect(ScreenGeometry.lines(text, in: sheet.box(for: .message, buttons: 1)) == lines)
    }

    @Test func overflowsPastTheBudget() {
        let box = sheet.box(for: .message, buttons: 1)
        #expect(box.maxLines == 8)
        #expect(!ScreenGeometry.overflows(String(repeating: "a", count: 36 * 8), in: box))
        #expect(ScreenGeometry.overflows(String(repeating: "a", count: 36 * 8 + 1), in: box))
    }

    @Test func stacksAlertButtonsWhenALabelDoesNotFitHalfTheRow() {
        #expect(alert.buttonsPerRow(labels: ["Cancel", "OK"]) == 2)
        #expect(alert.buttonsPerRow(labels: ["Not Now", "Open Settings"]) == 1)
        #expect(sheet.buttonsPerRow(labels: ["Continue"]) == 1)
    }
}

/// The measure's fast paths (``ScreenGeometry/lines(_:in:)`` keeps a word as its width and length, and reads plain
/// text scalar by scalar) against the measure written plainly, character by character with an array of advances per
/// word, as it was first written: the same line count for every text of the fixtures, edge cases and generated text.
@Suite struct ScreenGeometryMeasureTests {
    /// The measure of docs/preview.md, written plainly.
    static func plainLines(_ text: String, in box: ScreenGeometry.TextBox) -> Int {
        let lineWidth = box.width / box.fontSize
        var lines = 1
        var used = 0.0
        var word: [Double] = []
        func newLine() {
            lines += 1
            used = 0
        }
        func placeWord() {
            let total = word.reduce(0, +)
            if total <= lineWidth {
                if used > 0 && used + total > lineWidth { newLine() }
                used += total
            } else {
                for advance in word {
                    if used > 0 && used + advance > lineWidth { newLine() }
                    used += advance
                }
            }
            word = []
        }
        for character in text {
            if character == "\n" {
                placeWord()
                newLine()
            } else if character == " " {
                placeWord()
                if used > 0 { used += ScreenGeometry.narrowAdvance }
            } else if ScreenGeometry.isWide(character) {
                placeWord()
                word = [ScreenGeometry.wideAdvance]
                placeWord()
            } else {
                word.append(ScreenGeometry.narrowAdvance)
            }
        }
        placeWord()
        return lines
    }

    /// Every text box a screen can have.
    static let boxes: [ScreenGeometry.TextBox] = {
        var boxes: [ScreenGeometry.TextBox] = []
        for action in [DecisionAction.openSettings, .deniedScreen] {
            let geometry = ScreenGeometry(action: action, style: nil)
            for field in [CopyField.title, .message, .caption, .continueLabel, .cancelLabel] {
                for buttons in 1...2 { boxes.append(geometry.box(for: field, buttons: buttons)) }
            }
        }
        return boxes
    }()

    /// Texts where characters and scalars part: line breaks as CR LF, combining marks (after a space too), emoji
    /// sequences, variation selectors, soft hyphens, wide characters, typographic punctuation, long words.
    static let edgeCases: [String] = [
        "", " ", "  ", "a  b", "\n", "\r", "\r\n", "a\r\nb", "a\rb", " \u{301}x", "e\u{301}te", "\u{301}",
        "a\u{200D}b", "👍🏽 ok", "👨‍👩‍👧 family", "©\u{FE0F} 2026", "co\u{00AD}operate", "字 字字", "한국어 텍스트",
        "don’t … — “quoted” ‘single’ • bullet", String(repeating: "a", count: 60), String(repeating: "a ", count: 40),
        String(repeating: "word\n", count: 9), "tab\there", "x\u{2028}y", "\u{2010}\u{2027}\u{2028}\u{2029}",
        "Ünïcödé wörds ñ", "\u{02FF}\u{0300}a", String(repeating: "字", count: 25) + " end",
    ]

    /// Pieces generated texts are made of: plain letters, spaces and line feeds, and the scalars that join or widen.
    static let pieces: [String] = [
        "a", "b", "z", " ", " ", "\n", "\r", "é", "e", "\u{301}", "’", "—", "…", "字", "한", "👍", "\u{1F3FD}", "\u{200D}",
        "©", "\u{FE0F}", "\u{00AD}", "\t", "~", "ß", "\u{2028}", "ـ",
    ]

    static func generatedTexts() -> [String] {
        var random = SplitMix64(state: 0x5EED_2024)
        return (0..<1500).map { _ in
            var text = ""
            for _ in 0..<random.below(90) {
                // Mostly letters and spaces, so texts wrap and overflow like copy does.
                text += random.chance(0.6) ? ["a", "b", " "][random.below(3)] : pieces[random.below(pieces.count)]
            }
            return text
        }
    }

    static func fixtureTexts() throws -> [String] {
        var texts: [String] = []
        for document in [
            try PreviewFixtures.demo(), try PreviewFixtures.fixture("bad-policy.json"),
            try PreviewFixtures.fixture("rtl-policy.json"),
        ] {
            texts += PreviewCatalogue.screens(of: document).flatMap { $0.texts.map(\.text) }
        }
        return texts
    }

    @Test func measuresEveryTextAsThePlainMeasureDoes() throws {
        let texts = try Self.fixtureTexts() + Self.edgeCases + Self.generatedTexts()
        #expect(texts.count > 2000)
        var compared = 0
        for text in texts {
            for box in Self.boxes {
                let lines = ScreenGeometry.lines(text, in: box)
                let plain = Self.plainLines(text, in: box)
                #expect(lines == plain, "\(box) \(text.unicodeScalars.map { String($0.value, radix: 16) })")
                compared += 1
            }
        }
        #expect(compared == texts.count * Self.boxes.count)
    }

    /// A text of scalars that ``ScreenGeometry/isPlainNarrow(_:)`` admits has one character per scalar, whatever
    /// stands next to it, and none of them is wide: the reason the measure may read such text scalar by scalar.
    @Test func plainNarrowScalarsAreCharactersOfTheirOwn() {
        let plain =
            (UInt32(0)...0x2FF).compactMap { Unicode.Scalar($0) }.filter(ScreenGeometry.isPlainNarrow)
            + (UInt32(0x2010)...0x2027).compactMap { Unicode.Scalar($0) }
        #expect(plain.count == 0x300 - 1 + 0x18)
        #expect(!ScreenGeometry.isPlainNarrow("\r") && !ScreenGeometry.isPlainNarrow("\u{300}"))
        #expect(!ScreenGeometry.isPlainNarrow("\u{200D}") && !ScreenGeometry.isPlainNarrow("字"))
        var joined: [String] = []
        for scalar in plain {
            #expect(!ScreenGeometry.isWide(Character(scalar)))
            for other in plain {
                var pair = String.UnicodeScalarView()
                pair.append(scalar)
                pair.append(other)
                if String(pair).count != 2 {
                    joined.append("U+\(String(scalar.value, radix: 16)) U+\(String(other.value, radix: 16))")
                }
            }
        }
        #expect(joined.isEmpty, "\(joined.prefix(10))")
    }
}
