import PreludeCore

/// The overflow measure of one ``PreviewScreen`` (``ScreenGeometry``), taken once: the page's index (the count
/// of overflowing screens, the badges), the figure (`data-overflow`, the text boxes) and its notes all read it,
/// so a preview at the size limit measures each text once rather than once per use.
struct ScreenMeasure: Sendable {
    /// How the screen is drawn.
    let geometry: ScreenGeometry
    /// How many alert buttons share the bottom row (1 when they are stacked, or for a sheet).
    let buttons: Int
    /// The fields whose text needs more lines than the screen shows, in the screen's text order, with the lines
    /// each needs.
    let overflow: [(field: CopyField, lines: Int)]

    /// The fields drawn as buttons.
    private static let buttonFields: [CopyField] = [.cancelLabel, .continueLabel, .openLabel]

    /// Measures `screen`.
    init(_ screen: PreviewScreen) {
        let geometry = ScreenGeometry(action: screen.action, style: screen.style)
        let fields = PreviewScreen.fields(of: screen.screen, style: screen.style).filter(Self.buttonFields.contains)
        let labels = fields.map { field in screen.texts.first { $0.field == field }?.text ?? "" }
        let buttons = geometry.buttonsPerRow(labels: labels)
        var overflow: [(field: CopyField, lines: Int)] = []
        for item in screen.texts {
            let box = geometry.box(for: item.field, buttons: buttons)
            let lines = ScreenGeometry.lines(item.text, in: box)
            if lines > box.maxLines { overflow.append((item.field, lines)) }
        }
        self.geometry = geometry
        self.buttons = buttons
        self.overflow = overflow
    }

    /// Whether any text of the screen overflows.
    var overflows: Bool { !overflow.isEmpty }
}

/// A screen with its measure.
struct MeasuredScreen: Sendable {
    /// The screen.
    let screen: PreviewScreen
    /// Its measure.
    let measure: ScreenMeasure

    /// `screen` measured.
    init(_ screen: PreviewScreen) {
        self.screen = screen
        measure = ScreenMeasure(screen)
    }
}
