import ArgumentParser
import PreludeCore
import PreludePreview
import PreludeService
import PreludeStorage

#if canImport(FoundationEssentials)
    import Dispatch
    import FoundationEssentials
    import Glibc
#else
    import Foundation
#endif

/// `prelude policy preview FILE --output DIR [--against FILE]`: every screen of a policy drawn in one HTML page.
struct PolicyPreviewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview",
        abstract: "Draw every screen of a policy (per feature, locale and variant) into DIR/index.html.",
        discussion: """
            Writes one self-contained HTML page (no script, no network, no external asset): each screen the engine \
            can choose, at iOS alert and sheet geometry, light and dark, right to left where the locale needs it, \
            with its lint findings and overflow warnings; an index by feature, locale and variant with the \
            document's SHA-256. With --against, the screens that differ from that document (say, the policy on \
            the main branch) are marked and drawn beside it. See docs/preview.md. The same input always gives \
            the same bytes. Exit status: 0 when written, 2 when a file cannot be read or written or a policy is \
            not valid (run `prelude policy validate`).
            """
    )

    @Argument(help: "The policy document (JSON). Use - for standard input.")
    var file: String

    @Option(name: .shortAndLong, help: "The folder to write index.html into (created if missing).")
    var output: String

    @Option(name: .long, help: "A policy document to compare with (the live or base-branch policy).")
    var against: String?

    func run() throws {
        let proposed = try input(file, origin: file == "-" ? "standard input" : Self.name(of: file))
        let base = try against.map { path in try input(path, origin: Self.name(of: path)) }
        let html = PreviewRenderer.render(proposed, comparedWith: base)
        let target = FilePath.join(output, "index.html")
        do {
            try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
            try StandardIO.writeFile(target, Array(html.utf8))
        } catch {
            fail("cannot write \(target): \(error)")
        }
        print("\(target): \(proposed.screens.count) screens, \(proposed.findings.count) lint findings")
    }

    private func input(_ path: String, origin: String) throws -> PreviewInput {
        let bytes: [UInt8]
        do {
            bytes = try PolicyFile.read(path)
        } catch {
            fail("\(error)")
        }
        let validation = PolicyValidator.validate(bytes: bytes)
        guard let document = validation.document else {
            for problem in validation.problems { StandardIO.error("\(problem.description)\n") }
            fail(
                "\(path) is not a valid policy (\(CountedNoun.text(validation.problems.count, "problem"))); preview needs a valid document."
            )
        }
        let hash = SHA256.hex(SHA256.digest(document.jsonValue.serializedBytes()))
        return PreviewInput(document: document, origin: origin, sha256: hash)
    }

    /// The file's name without its folders, so the page does not depend on where it was rendered.
    private static func name(of path: String) -> String { String(path.split(separator: "/").last ?? Substring(path)) }

    private func fail(_ message: String) -> Never {
        StandardIO.error("prelude: \(message)\n")
        StandardIO.exit(2)
    }
}
