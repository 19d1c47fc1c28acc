/// A parsed pattern of ``SafeRegex``'s subset.
indirect enum RegexNode: Sendable {
    case empty
    case scalar(Unicode.Scalar)
    case any
    case set(RegexCharacterSet)
    case startOfInput
    case endOfInput
    case wordBoundary(Bool)
    case concatenation([RegexNode])
    case alternation([RegexNode])
    /// `node{minimum,maximum}`; nil maximum is unbounded.
    case repetition(RegexNode, minimum: Int, maximum: Int?)
}

/// Reads a pattern into a ``RegexNode`` (recursive descent over JavaScript's grammar, restricted to the subset).
struct RegexParser {
    let scalars: [Unicode.Scalar]
    private var offset = 0
    private var depth = 0

    init(scalars: [Unicode.Scalar]) { self.scalars = scalars }

    mutating func parseWhole() throws(SafeRegex.SyntaxError) -> RegexNode {
        let node = try parseAlternation()
        if offset < scalars.count {
            // Only an unbalanced ")" stops the alternation early.
            throw fail("This \")\" closes no group.")
        }
        return node
    }

    private func fail(_ message: String) -> SafeRegex.SyntaxError {
        SafeRegex.SyntaxError(message: message, offset: offset)
    }

    private var peek: Unicode.Scalar? { offset < scalars.count ? scalars[offset] : nil }

    private mutating func parseAlternation() throws(SafeRegex.SyntaxError) -> RegexNode {
        var branches = [try parseConcatenation()]
        while peek == "|" {
            offset += 1
            branches.append(try parseConcatenation())
        }
        return branches.count == 1 ? branches[0] : .alternation(branches)
    }

    private mutating func parseConcatenation() throws(SafeRegex.SyntaxError) -> RegexNode {
        var items: [RegexNode] = []
        while let scalar = peek, scalar != "|", scalar != ")" {
            let atom = try parseAtom()
            items.append(try parseQuantifiers(atom))
        }
        switch items.count {
        case 0: return .empty
        case 1: return items[0]
        default: return .concatenation(items)
        }
    }

    private mutating func parseQuantifiers(_ atom: RegexNode) throws(SafeRegex.SyntaxError) -> RegexNode {
        var node = atom
        var quantified = false
        while let scalar = peek {
            let bounds: (Int, Int?)
            switch scalar {
            case "*": bounds = (0, nil)
            case "+": bounds = (1, nil)
            case "?": bounds = (0, 1)
            case "{":
                guard let counted = try readCount() else { return node }
                bounds = counted
                offset -= 1  // readCount stops after "}"; the common step below moves past it again
            default: return node
            }
            if quantified { throw fail("A quantifier follows another quantifier.") }
            if isAssertion(node) { throw fail("An anchor cannot be repeated.") }
            offset += 1
            if peek == "?" { offset += 1 }  // lazy: the same yes/no answer
            node = .repetition(node, minimum: bounds.0, maximum: bounds.1)
            quantified = true
        }
        return node
    }

    private func isAssertion(_ node: RegexNode) -> Bool {
        switch node {
        case .startOfInput, .endOfInput, .wordBoundary: true
        default: false
        }
    }

    /// Reads `{n}`, `{n,}` or `{n,m}` at the current `{`; nil (nothing consumed) when it is not one, as JavaScript
    /// then reads the `{` as a literal.
    private mutating func readCount() throws(SafeRegex.SyntaxError) -> (Int, Int?)? {
        var cursor = offset + 1
        func number() -> Int? {
            var value: Int?
            while cursor < scalars.count, ("0"..."9").contains(scalars[cursor]) {
                value = min((value ?? 0) * 10 + Int(scalars[cursor].value - 48), SafeRegex.maximumCount + 1)
                cursor += 1
            }
            return value
        }
        guard let minimum = number() else { return nil }
        var maximum: Int? = minimum
        if cursor < scalars.count, scalars[cursor] == "," {
            cursor += 1
            maximum = number()
        }
        guard cursor < scalars.count, scalars[cursor] == "}" else { return nil }
        if minimum > SafeRegex.maximumCount || (maximum ?? 0) > SafeRegex.maximumCount {
            throw fail("A counted quantifier may repeat at most \(SafeRegex.maximumCount) times.")
        }
        if let maximum, maximum < minimum { throw fail("The quantifier's numbers are out of order.") }
        offset = cursor + 1
        return (minimum, maximum)
    }

    private mutating func parseAtom() throws(SafeRegex.SyntaxError) -> RegexNode {
        guard let scalar = peek else { throw fail("The pattern ends early.") }
        switch scalar {
        case "(":
            offset += 1
            if peek == "?" {
                guard offset + 1 < scalars.count, scalars[offset + 1] == ":" else {
                    throw fail("Lookaround and named groups are not in the accepted subset; use ( … ) or (?: … ).")
                }
                offset += 2
            }
            depth += 1
            guard depth <= 100 else { throw fail("Groups nest more than 100 deep.") }
            let inner = try parseAlternation()
            guard peek == ")" else { throw fail("A group is not closed.") }
            offset += 1
            depth -= 1
            return inner
        case "[":
            return .set(try parseClass())
        case ".":
            offset += 1
            return .any
        case "^":
            offset += 1
            return .startOfInput
        case "$":
            offset += 1
            return .endOfInput
        case "\\":
            offset += 1
            return try parseEscape()
        case "*", "+", "?":
            throw fail("A quantifier has nothing to repeat.")
        case "{":
            if try readCount() != nil { throw fail("A quantifier has nothing to repeat.") }
            offset += 1
            return .scalar(scalar)
        default:
            offset += 1
            return .scalar(scalar)
        }
    }

    private mutating func parseEscape() throws(SafeRegex.SyntaxError) -> RegexNode {
        guard let scalar = peek else { throw fail("The pattern ends with a lone \"\\\".") }
        switch scalar {
        case "b":
            offset += 1
            return .wordBoundary(true)
        case "B":
            offset += 1
            return .wordBoundary(false)
        case "1"..."9":
            throw fail("Backreferences are not in the accepted subset.")
        default:
            switch try readClassEscape() {
            case .scalar(let value): return .scalar(value)
            case .set(let set): return .set(set)
            }
        }
    }

    private enum ClassItem {
        case scalar(Unicode.Scalar)
        case set(RegexCharacterSet)
    }

    /// Reads the escape after a `\` (valid both inside and outside a class).
    private mutating func readClassEscape() throws(SafeRegex.SyntaxError) -> ClassItem {
        guard let scalar = peek else { throw fail("The pattern ends with a lone \"\\\".") }
        offset += 1
        switch scalar {
        case "d": return .set(.digits)
        case "D": return .set(RegexCharacterSet.digits.inverted)
        case "w": return .set(.word)
        case "W": return .set(RegexCharacterSet.word.inverted)
        case "s": return .set(.space)
        case "S": return .set(RegexCharacterSet.space.inverted)
        case "t": return .scalar("\t")
        case "n": return .scalar("\n")
        case "r": return .scalar("\r")
        case "f": return .scalar("\u{0C}")
        case "v": return .scalar("\u{0B}")
        case "0":
            if let next = peek, ("0"..."9").contains(next) { throw fail("Octal escapes are not in the subset.") }
            return .scalar("\u{0}")
        case "x": return .scalar(try readHex(digits: 2))
        case "u": return .scalar(try readHex(digits: 4))
        default:
            if scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                offset -= 1
                throw fail("The escape \"\\\(scalar)\" is not in the accepted subset.")
            }
            return .scalar(scalar)
        }
    }

    private mutating func readHex(digits: Int) throws(SafeRegex.SyntaxError) -> Unicode.Scalar {
        var value: UInt32 = 0
        for _ in 0..<digits {
            guard let scalar = peek, let digit = Self.hexValue(scalar) else {
                throw fail("A hexadecimal escape needs \(digits) hex digits.")
            }
            value = value * 16 + digit
            offset += 1
        }
        guard let result = Unicode.Scalar(value) else { throw fail("The escape names no Unicode scalar.") }
        return result
    }

    private static func hexValue(_ scalar: Unicode.Scalar) -> UInt32? {
        switch scalar {
        case "0"..."9": scalar.value - 48
        case "a"..."f": scalar.value - 87
        case "A"..."F": scalar.value - 55
        default: nil
        }
    }

    private mutating func parseClass() throws(SafeRegex.SyntaxError) -> RegexCharacterSet {
        offset += 1  // "["
        var set = RegexCharacterSet()
        if peek == "^" {
            set.isInverted = true
            offset += 1
        }
        while true {
            guard let scalar = peek else { throw fail("A character class is not closed.") }
            if scalar == "]" {
                offset += 1
                return set
            }
            let first = try readClassMember()
            guard case .scalar(let low) = first else {
                if case .set(let inner) = first { set.include(inner) }
                continue
            }
            // A range "a-z", unless the "-" is last ("[a-]") or the next member is a set ("[a-\d]" is literal).
            if peek == "-", offset + 1 < scalars.count, scalars[offset + 1] != "]" {
                let save = offset
                offset += 1
                let second = try readClassMember()
                if case .scalar(let high) = second {
                    guard low.value <= high.value else { throw fail("A class range is out of order.") }
                    set.ranges.append(low.value...high.value)
                    continue
                }
                offset = save
            }
            set.ranges.append(low.value...low.value)
        }
    }

    private mutating func readClassMember() throws(SafeRegex.SyntaxError) -> ClassItem {
        guard let scalar = peek else { throw fail("A character class is not closed.") }
        if scalar == "\\" {
            offset += 1
            if peek == "b" {
                offset += 1
                return .scalar("\u{08}")  // inside a class, \b is backspace
            }
            if let next = peek, ("1"..."9").contains(next) {
                throw fail("Backreferences are not in the accepted subset.")
            }
            return try readClassEscape()
        }
        offset += 1
        return .scalar(scalar)
    }
}

/// Turns a ``RegexNode`` into the Pike VM's program.
struct RegexCompiler {
    let caseInsensitive: Bool
    var program: [Instruction] = []

    mutating func emit(_ node: RegexNode) throws(SafeRegex.SyntaxError) {
        guard program.count <= SafeRegex.maximumProgramSize else {
            throw SafeRegex.SyntaxError(
                message: "The pattern expands to more than \(SafeRegex.maximumProgramSize) steps; use smaller counts.",
                offset: 0)
        }
        switch node {
        case .empty: break
        case .scalar(let scalar):
            if caseInsensitive, RegexCharacterSet.caseVariants(of: scalar).count > 1 {
                program.append(.set(RegexCharacterSet(ranges: [scalar...scalar])))
            } else {
                program.append(.scalar(scalar))
            }
        case .any: program.append(.anyButLineTerminator)
        case .set(let set): program.append(.set(set))
        case .startOfInput: program.append(.startOfInput)
        case .endOfInput: program.append(.endOfInput)
        case .wordBoundary(let expected): program.append(.wordBoundary(expected))
        case .concatenation(let items):
            for item in items { try emit(item) }
        case .alternation(let branches):
            // split L1, next; L1: branch; jump end; next: split ...
            var jumps: [Int] = []
            for (index, branch) in branches.enumerated() {
                if index < branches.count - 1 {
                    let split = program.count
                    program.append(.split(split + 1, -1))
                    try emit(branch)
                    jumps.append(program.count)
                    program.append(.jump(-1))
                    program[split] = .split(split + 1, program.count)
                } else {
                    try emit(branch)
                }
            }
            for jump in jumps { program[jump] = .jump(program.count) }
        case .repetition(let inner, let minimum, let maximum):
            for _ in 0..<minimum { try emit(inner) }
            if let maximum {
                // Each optional copy: split into it or past all the rest.
                var splits: [Int] = []
                for _ in minimum..<maximum {
                    splits.append(program.count)
                    program.append(.split(program.count + 1, -1))
                    try emit(inner)
                }
                for split in splits { program[split] = .split(split + 1, program.count) }
            } else {
                // L: split body, end; body; jump L. An empty-matching body cannot loop: a state is visited once
                // per position.
                let loop = program.count
                program.append(.split(loop + 1, -1))
                try emit(inner)
                program.append(.jump(loop))
                program[loop] = .split(loop + 1, program.count)
            }
        }
    }
}
