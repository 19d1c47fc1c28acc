/// The few JavaScript conversions GrowthBook's condition language inherits from its reference SDK (sdk-js
/// `mongrule.ts`): a condition means what it means there, so an operator used to GrowthBook reads it the same here.
/// A missing attribute is `null`, as GrowthBook's path lookup returns.
enum JavaScriptValue {
    /// `ToString` (ECMA-262 §7.1.17) of a JSON value: `null`, `true`, numbers as JavaScript prints ordinary ones,
    /// arrays joined by commas, objects `[object Object]`.
    static func string(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let flag): flag ? "true" : "false"
        case .integer(let number): String(number)
        case .double(let number): numberString(number)
        case .string(let text): text
        case .array(let elements):
            elements.map { $0.isNull ? "" : string($0) }.joined(separator: ",")
        case .object: "[object Object]"
        }
    }

    /// JavaScript's `Number.prototype.toString()` for integers and plain decimals; exponents as JavaScript writes
    /// them (`1e+21`, `1e-7`).
    static func numberString(_ number: Double) -> String {
        if number.isNaN { return "NaN" }
        if number.isInfinite { return number < 0 ? "-Infinity" : "Infinity" }
        if number == 0 { return "0" }
        if number.rounded() == number, abs(number) < 1e21 {
            if abs(number) < 9.0e18 { return String(Int64(number)) }
        }
        var text = number.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        if let e = text.firstIndex(of: "e") {
            var mantissa = String(text[..<e])
            if mantissa.hasSuffix(".0") { mantissa.removeLast(2) }
            var exponent = String(text[text.index(after: e)...])
            let sign = exponent.hasPrefix("-") ? "-" : "+"
            exponent = String(exponent.drop { $0 == "-" || $0 == "+" || $0 == "0" })
            text = mantissa + "e" + sign + (exponent.isEmpty ? "0" : exponent)
        }
        return text
    }

    /// `ToNumber` (ECMA-262 §7.1.4): `null` is 0, booleans 0 or 1, strings read as decimal numbers (blank is 0,
    /// anything else NaN), arrays through their string, objects NaN.
    static func number(_ value: JSONValue) -> Double {
        switch value {
        case .null: 0
        case .bool(let flag): flag ? 1 : 0
        case .integer(let number): Double(number)
        case .double(let number): number
        case .string(let text): number(text)
        case .array: number(string(value))
        case .object: .nan
        }
    }

    /// `StringToNumber` for the decimal forms (and `Infinity`); hexadecimal, octal and binary literals read NaN.
    static func number(_ text: String) -> Double {
        let trimmed = text.unicodeScalars.drop(while: isSpace).reversed().drop(while: isSpace).reversed()
        if trimmed.isEmpty { return 0 }
        let body = String(String.UnicodeScalarView(trimmed))
        switch body {
        case "Infinity", "+Infinity": return .infinity
        case "-Infinity": return -.infinity
        default: break
        }
        // Swift's Double(_:) also reads "inf", "nan" and hexadecimal floats, which JavaScript does not.
        guard body.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) || "+-.eE".unicodeScalars.contains($0) }),
            let number = Double(body)
        else { return .nan }
        return number
    }

    private static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        RegexCharacterSet.space.contains(scalar, caseInsensitive: false)
    }

    /// `ToBoolean`: `null`, `false`, 0, NaN and "" are false; everything else (arrays and objects too) true.
    static func isTruthy(_ value: JSONValue) -> Bool {
        switch value {
        case .null: false
        case .bool(let flag): flag
        case .integer(let number): number != 0
        case .double(let number): number != 0 && !number.isNaN
        case .string(let text): !text.isEmpty
        case .array, .object: true
        }
    }

    /// `===` between a value read from JSON and a literal: scalars by type and value; arrays and objects are never
    /// identical to a literal.
    static func strictEquals(_ left: JSONValue, _ right: JSONValue) -> Bool {
        switch (left, right) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.integer, .integer), (.integer, .double), (.double, .integer), (.double, .double):
            number(left) == number(right)
        default: false
        }
    }

    /// `JSON.stringify(left) === JSON.stringify(right)`: equal structure, object members in the same order,
    /// numbers by value.
    static func serializedEquals(_ left: JSONValue, _ right: JSONValue) -> Bool {
        switch (left, right) {
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy(serializedEquals)
        case (.object(let a), .object(let b)):
            guard a.count == b.count else { return false }
            for (x, y) in zip(a.members, b.members) where x.key != y.key || !serializedEquals(x.value, y.value) {
                return false
            }
            return true
        case (.double(let a), _) where !a.isFinite:
            return right.isNull  // JSON.stringify writes NaN and ±Infinity as null
        default:
            return strictEquals(left, right)
        }
    }

    /// The abstract relational comparison `left < right` (ECMA-262 §7.2.13): two strings by UTF-16 code units,
    /// anything else as numbers (NaN compares false). `orEqual` gives `<=`.
    static func isLess(_ left: JSONValue, _ right: JSONValue, orEqual: Bool) -> Bool {
        if case .string(let a) = primitive(left), case .string(let b) = primitive(right) {
            let order = compareUTF16(a, b)
            return orEqual ? order <= 0 : order < 0
        }
        let a = number(left)
        let b = number(right)
        return orEqual ? a <= b : a < b
    }

    /// `ToPrimitive` as far as comparisons need it: arrays and objects become their strings.
    private static func primitive(_ value: JSONValue) -> JSONValue {
        switch value {
        case .array, .object: .string(string(value))
        default: value
        }
    }

    /// -1, 0 or 1 as `a` sorts before, with or after `b` by UTF-16 code units (JavaScript's string order).
    static func compareUTF16(_ a: String, _ b: String) -> Int {
        var left = a.utf16.makeIterator()
        var right = b.utf16.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case (let x?, let y?): if x != y { return x < y ? -1 : 1 }
            }
        }
    }

    /// GrowthBook's `paddedVersionString`: a leading `v` and a `+build` suffix dropped, split on `.` and `-`, a
    /// release (three parts) given a `~` part so it sorts after its pre-releases, numeric parts padded to 5 places
    /// with spaces, joined by `-`. Versions then compare as these strings do.
    static func paddedVersion(_ value: JSONValue) -> String {
        var text: String
        switch value {
        case .string(let string) where !string.isEmpty: text = string
        case .integer, .double: text = string(value)
        default: text = "0"
        }
        if text.hasPrefix("v") { text.removeFirst() }
        if let plus = text.firstIndex(of: "+") { text = String(text[..<plus]) }
        var parts = text.split(omittingEmptySubsequences: false) { $0 == "." || $0 == "-" }.map(String.init)
        if parts.count == 3 { parts.append("~") }
        return parts.map { part in
            guard !part.isEmpty, part.utf8.allSatisfy({ (48...57).contains($0) }), part.utf8.count < 5 else {
                return part
            }
            return String(repeating: " ", count: 5 - part.utf8.count) + part
        }.joined(separator: "-")
    }
}
