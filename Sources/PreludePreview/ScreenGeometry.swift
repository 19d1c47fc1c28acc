import PreludeCore

/// How a screen is drawn (iOS geometry, in points; one point is one CSS pixel) and the documented, deterministic
/// overflow measure.
///
/// Alerts are UIAlertController's: 270 pt wide, 16 pt side insets, title 17 pt semibold, message 13 pt, buttons
/// 17 pt on one line each: two side by side share the row, 119 pt of text each, unless either label would not fit
/// there, when they are stacked full width, as UIKit does. Sheets are a 390 pt wide iPhone page with
/// 24 pt insets: title 28 pt bold, message 17 pt, the action a 17 pt semibold capsule button. Every text has a
/// budget of lines; a text needing more than its budget is reported as overflowing.
///
/// The measure: each character is given an advance of 0.55 em (1.0 em for East Asian wide characters, which
/// may also break anywhere); words are wrapped greedily at spaces into the text's width; a word longer than a
/// line breaks between characters. It errs on the wide side of San Francisco's average advance
/// (about 0.5 em), so a text it passes fits on a device. The browser test measures real overflow too
/// (`scrollHeight > clientHeight` or `scrollWidth > clientWidth` of each text box, which CSS clips at the budget).
package struct ScreenGeometry: Sendable, Hashable {
    /// The kind of presentation.
    package enum Presentation: String, Sendable, Hashable {
        /// A centred system-style alert, 270 pt wide.
        case alert
        /// A full-width page or sheet, 390 pt wide.
        case sheet
    }

    /// How one text is set.
    package struct TextBox: Sendable, Hashable {
        /// The font size in points.
        package let fontSize: Double
        /// The line height in points.
        package let lineHeight: Double
        /// The font weight (CSS).
        package let weight: Int
        /// The width available to the text, in points.
        package let width: Double
        /// The most lines the screen shows.
        package let maxLines: Int

        /// The height the screen gives the text: `maxLines` lines.
        package var maxHeight: Double { lineHeight * Double(maxLines) }
    }

    /// Average advance of a character, in em.
    package static let narrowAdvance = 0.55
    /// Advance of an East Asian wide character, in em.
    package static let wideAdvance = 1.0

    /// The presentation.
    package let presentation: Presentation

    /// The geometry of `screen` drawn for `action` in `style`.
    package init(action: DecisionAction, style: PrimingStyle?) {
        switch action {
        case .openSettings, .upgrade, .limitedPicker: presentation = .alert
        case .prime: presentation = style == .twoButton ? .alert : .sheet
        default: presentation = .sheet
        }
    }

    /// The outer width of the drawn screen.
    package var width: Double { presentation == .alert ? 270 : 390 }

    /// How `field` is set, given how many buttons share the bottom row (1 when they are stacked).
    package func box(for field: CopyField, buttons: Int) -> TextBox {
        switch (presentation, field) {
        case (.alert, .title):
            TextBox(fontSize: 17, lineHeight: 22, weight: 600, width: 238, maxLines: 3)
        case (.alert, .message), (.alert, .caption):
            TextBox(fontSize: 13, lineHeight: 18, weight: 400, width: 238, maxLines: 8)
        case (.alert, _):
            // Buttons: one line each; two side by side share the 270 pt row, each with 8 pt insets.
            TextBox(
                fontSize: 17, lineHeight: 22, weight: buttons > 1 ? 400 : 600, width: buttons > 1 ? 119 : 254,
                maxLines: 1)
        case (.sheet, .title):
            TextBox(fontSize: 28, lineHeight: 34, weight: 700, width: 342, maxLines: 3)
        case (.sheet, .message):
            TextBox(fontSize: 17, lineHeight: 22, weight: 400, width: 342, maxLines: 8)
        case (.sheet, .caption):
            TextBox(fontSize: 15, lineHeight: 20, weight: 400, width: 342, maxLines: 3)
        case (.sheet, _):
            // The capsule button: 342 pt wide with 20 pt insets.
            TextBox(fontSize: 17, lineHeight: 22, weight: 600, width: 302, maxLines: 1)
        }
    }

    /// The lines `text` needs in `box` by the measure above.
    ///
    /// A word is a run of narrow characters (a wide one is placed as a word of its own), so it is kept as its
    /// width and length, summed character by character in reading order as the measure adds them up. Text
    /// whose every scalar is its own character and narrow (``isPlainNarrow(_:)``: most copy) is read scalar by
    /// scalar without breaking it into characters; `ScreenGeometryTests` compares both ways with the measure
    /// written plainly, character by character.
    package static func lines(_ text: String, in box: TextBox) -> Int {
        var measure = LineMeasure(lineWidth: box.width / box.fontSize)  // in em
        if text.unicodeScalars.allSatisfy(isPlainNarrow) {
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\n": measure.newlineCharacter()
                case " ": measure.space()
                default: measure.narrow()
                }
            }
        } else {
            for character in text {
                if character == "\n" {
                    measure.newlineCharacter()
                } else if character == " " {
                    measure.space()
                } else if isWide(character) {
                    measure.wide()
                } else {
                    measure.narrow()
                }
            }
        }
        measure.placeWord()
        return measure.lines
    }

    /// Whether `scalar` is a character of its own wherever it stands in a text, and narrow by the measure: a scalar
    /// below U+0300 other than a carriage return (which joins a following line feed into one character), or one of
    /// the dashes, quotation marks and bullets U+2010–U+2027. No grapheme-cluster rule joins these to a neighbour
    /// (Unicode Standard Annex #29: the first combining marks start at U+0300; U+200C and U+200D, which do join, are
    /// outside the range).
    package static func isPlainNarrow(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x300 && scalar != "\r") || (0x2010...0x2027).contains(scalar.value)
    }

    /// The greedy wrapping of the measure, fed one character at a time.
    private struct LineMeasure {
        let lineWidth: Double
        var lines = 1
        var used = 0.0
        /// The word being read: its narrow characters and their advances summed in order.
        var wordLength = 0
        var wordWidth = 0.0

        init(lineWidth: Double) { self.lineWidth = lineWidth }

        mutating func newLine() {
            lines += 1
            used = 0
        }

        mutating func narrow() {
            wordLength += 1
            wordWidth += ScreenGeometry.narrowAdvance
        }

        mutating func newlineCharacter() {
            placeWord()
            newLine()
        }

        mutating func space() {
            placeWord()
            // A space at the end of a line hangs; it never starts the next one.
            if used > 0 { used += ScreenGeometry.narrowAdvance }
        }

        /// Wide characters break anywhere: each is a word of its own.
        mutating func wide() {
            placeWord()
            place(width: ScreenGeometry.wideAdvance, length: 1, advance: ScreenGeometry.wideAdvance)
        }

        mutating func placeWord() {
            place(width: wordWidth, length: wordLength, advance: ScreenGeometry.narrowAdvance)
            wordLength = 0
            wordWidth = 0
        }

        /// Places a word of `length` characters of `advance` each, `width` wide in all.
        private mutating func place(width: Double, length: Int, advance: Double) {
            if width <= lineWidth {
                if used > 0 && used + width > lineWidth { newLine() }
                used += width
            } else {
                // A word wider than the line breaks between characters (CSS overflow-wrap: anywhere).
                for _ in 0..<length {
                    if used > 0 && used + advance > lineWidth { newLine() }
                    used += advance
                }
            }
        }
    }

    /// Whether `text` needs more lines than `box` shows.
    package static func overflows(_ text: String, in box: TextBox) -> Bool { lines(text, in: box) > box.maxLines }

    /// East Asian wide and full-width characters (Hangul, CJK, kana, full-width forms) and emoji.
    package static func isWide(_ character: Character) -> Bool {
        guard let scalar = character.unicodeScalars.first?.value else { return false }
        switch scalar {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1FAFF,
            0x20000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}

extension ScreenGeometry {
    /// How many alert buttons sit side by side: two when both labels fit half the row by the measure, else one
    /// (stacked).
    package func buttonsPerRow(labels: [String]) -> Int {
        guard presentation == .alert, labels.count > 1 else { return 1 }
        let half = box(for: .continueLabel, buttons: labels.count)
        return labels.allSatisfy { !Self.overflows($0, in: half) } ? labels.count : 1
    }
}
