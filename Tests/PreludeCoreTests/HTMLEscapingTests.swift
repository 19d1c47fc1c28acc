import Testing

@testable import PreludeCore

@Suite struct HTMLEscapingTests {
    @Test func escapesMarkupCharacters() {
        #expect(HTMLEscaping.escape(#"<a href="x">'&'</a>"#) == "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;")
    }

    @Test func leavesOtherTextAlone() {
        #expect(HTMLEscaping.escape("Caméra — 🙂 ok") == "Caméra — 🙂 ok")
    }
}
