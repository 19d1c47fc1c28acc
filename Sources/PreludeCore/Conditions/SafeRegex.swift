/// A regular expression of the safe subset a condition's `$regex` accepts, compiled once and matched in time linear
/// in the input (a Thompson NFA run as a Pike VM: every state is visited at most once per input position, so no
/// pattern can backtrack, let alone without bound).
///
/// The subset is JavaScript's syntax (what GrowthBook's SDKs hand to `RegExp`) without the parts that need
/// backtracking or are rarely meant: literals; `.`; classes `[abc]`, `[^a-z]` with ranges and escapes; `\d \D \w \W
/// \s \S`, `\b \B`; `\t \n \r \f \v \0`, `\xHH`, `\uHHHH` and an escaped punctuation character; groups `( … )` and
/// `(?: … )`; alternation `|`; the anchors `^` and `$` (start and end of the whole value); quantifiers `* + ?`,
/// `{n}`, `{n,}`, `{n,m}` (n, m ≤ ``maximumCount``), greedy or lazy (the same for a yes/no match). Refused:
/// backreferences (`\1`), lookaround (`(?=`, `(?!`, `(?<=`, `(?<!`), named groups, unknown letter escapes, and
/// patterns longer than ``maximumPatternLength`` or whose program exceeds ``maximumProgramSize`` steps. The match is
/// a search anywhere in the value, over Unicode scalars, as JavaScript's `test` does.
public struct SafeRegex: Sendable {
    /// The longest pattern accepted, in Unicode scalars.
    public static let maximumPatternLength = 1024
    /// The largest `n` or `m` of a counted quantifier.
    public static let maximumCount = 1000
    /// The largest compiled program (steps); bounds the memory and time per input character (a 256-character
    /// attribute costs at most 1.3 million steps, whatever the pattern).
    public static let maximumProgramSize = 5_000

    /// Why a pattern is refused: a sentence and the scalar offset where the reading stopped.
    public struct SyntaxError: Error, Sendable, Hashable {
        /// What is wrong.
        public let message: String
        /// The offset in the pattern (Unicode scalars).
        public let offset: Int
    }

    /// The pattern as written.
    public let pattern: String
    /// Whether letters match regardless of case (`$regexi`).
    public let caseInsensitive: Bool
    private let program: [Instruction]

    /// Compiles `pattern`.
    ///
    /// - Throws: ``SyntaxError`` when the pattern is outside the subset or malformed.
    public init(_ pattern: String, caseInsensitive: Bool = false) throws(SyntaxError) {
        let scalars = Array(pattern.unicodeScalars)
        guard scalars.count <= Self.maximumPatternLength else {
            throw SyntaxError(
                message: "A pattern may have at most \(Self.maximumPatternLength) characters.", offset: 0)
        }
        var parser = RegexParser(scalars: scalars)
        let tree = try parser.parseWhole()
        var compiler = RegexCompiler(caseInsensitive: caseInsensitive)
        try compiler.emit(tree)
        compiler.program.append(.match)
        guard compiler.program.count <= Self.maximumProgramSize else {
            throw SyntaxError(
                message: "The pattern expands to more than \(Self.maximumProgramSize) steps; use smaller counts.",
                offset: 0)
        }
        self.pattern = pattern
        self.caseInsensitive = caseInsensitive
        program = compiler.program
    }

    /// Whether the pattern matches anywhere in `text` (JavaScript's `RegExp.prototype.test`).
    public func matches(_ text: String) -> Bool {
        let input = Array(text.unicodeScalars)
        var current = ThreadList(capacity: program.count)
        var next = ThreadList(capacity: program.count)
        var position = 0
        while true {
            // Unanchored search: a new thread starts at every position until one matches.
            if addThread(0, at: position, input: input, to: &current) { return true }
            if position == input.count { return false }
            let scalar = input[position]
            next.clear()
            for pc in current.members {
                let advances: Bool
                switch program[pc] {
                case .scalar(let expected): advances = scalar == expected
                case .anyButLineTerminator: advances = !RegexCharacterSet.isLineTerminator(scalar)
                case .set(let set): advances = set.contains(scalar, caseInsensitive: caseInsensitive)
                default: advances = false
                }
                if advances, addThread(pc + 1, at: position + 1, input: input, to: &next) { return true }
            }
            swap(&current, &next)
            position += 1
        }
    }

    /// Adds the thread at `pc` and every thread reachable from it without consuming input; true when one of them
    /// is the match.
    private func addThread(_ start: Int, at position: Int, input: [Unicode.Scalar], to list: inout ThreadList) -> Bool {
        var stack = [start]
        while let pc = stack.popLast() {
            guard list.insert(pc) else { continue }
            switch program[pc] {
            case .match: return true
            case .jump(let target): stack.append(target)
            case .split(let first, let second):
                // Pushed in reverse so the preferred branch is explored first (irrelevant for a yes/no match).
                stack.append(second)
                stack.append(first)
            case .startOfInput: if position == 0 { stack.append(pc + 1) }
            case .endOfInput: if position == input.count { stack.append(pc + 1) }
            case .wordBoundary(let expected):
                let before = position > 0 && RegexCharacterSet.isWord(input[position - 1])
                let after = position < input.count && RegexCharacterSet.isWord(input[position])
                if (before != after) == expected { stack.append(pc + 1) }
            case .scalar, .anyButLineTerminator, .set: break
            }
        }
        return false
    }
}

/// One step of a compiled pattern.
enum Instruction: Sendable {
    case scalar(Unicode.Scalar)
    case anyButLineTerminator
    case set(RegexCharacterSet)
    case split(Int, Int)
    case jump(Int)
    case startOfInput
    case endOfInput
    case wordBoundary(Bool)
    case match
}

/// The states of a Pike VM step: a sparse set, so membership, insertion and clearing are O(1).
private struct ThreadList {
    var members: [Int] = []
    private var positions: [Int]

    init(capacity: Int) {
        positions = Array(repeating: -1, count: capacity)
        members.reserveCapacity(capacity)
    }

    /// Inserts `pc`; false when it was already there.
    mutating func insert(_ pc: Int) -> Bool {
        let position = positions[pc]
        if position >= 0, position < members.count, members[position] == pc { return false }
        positions[pc] = members.count
        members.append(pc)
        return true
    }

    mutating func clear() { members.removeAll(keepingCapacity: true) }
}
