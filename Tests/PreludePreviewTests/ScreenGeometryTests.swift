import PreludeCore
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
