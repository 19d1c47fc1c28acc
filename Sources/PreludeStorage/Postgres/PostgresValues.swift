import CPostgres

/// Converts between ``SQLValue`` and libpq's parameters and text-format results.
enum PostgresValues {
    /// Type OIDs of PostgreSQL's built-in types (`pg_type.dat`).
    enum TypeOID {
        static let bool: UInt32 = 16
        static let bytea: UInt32 = 17
        static let int8: UInt32 = 20
        static let int2: UInt32 = 21
        static let int4: UInt32 = 23
        static let text: UInt32 = 25
        static let oid: UInt32 = 26
        static let float4: UInt32 = 700
        static let float8: UInt32 = 701
        static let numeric: UInt32 = 1700
    }

    /// The type a parameter is sent as; NULL is left for the server to infer (0).
    static func type(_ value: SQLValue) -> UInt32 {
        switch value {
        case .null: 0
        case .integer: TypeOID.int8
        case .real: TypeOID.float8
        case .text: TypeOID.text
        case .blob: TypeOID.bytea
        }
    }

    /// Calls `body` with libpq's parameter arrays: text format for everything but blobs (binary: no escaping).
    static func withParameters<T>(
        _ arguments: [SQLValue],
        _ body: (
            UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?
        ) throws -> T
    ) rethrows -> T {
        // Each value's bytes, NUL-terminated for the text format; kept alive until libpq has sent them.
        var buffers: [[CChar]?] = []
        var lengths: [Int32] = []
        var formats: [Int32] = []
        for argument in arguments {
            switch argument {
            case .null:
                buffers.append(nil)
                lengths.append(0)
                formats.append(0)
            case .integer(let int): appendText(String(int), &buffers, &lengths, &formats)
            case .real(let double): appendText(double.postgresText, &buffers, &lengths, &formats)
            case .text(let string):
                // PostgreSQL text cannot hold NUL; SQLite's can. The server refuses it with a clear error.
                appendText(string, &buffers, &lengths, &formats)
            case .blob(let bytes):
                buffers.append(bytes.map { CChar(bitPattern: $0) } + [0])
                lengths.append(Int32(bytes.count))
                formats.append(1)
            }
        }
        return try withPointers(buffers, index: 0, collected: []) { pointers in
            try pointers.withUnsafeBufferPointer { values in
                try lengths.withUnsafeBufferPointer { lengthPointer in
                    try formats.withUnsafeBufferPointer { formatPointer in
                        try body(values.baseAddress, lengthPointer.baseAddress, formatPointer.baseAddress)
                    }
                }
            }
        }
    }

    private static func appendText(
        _ text: String, _ buffers: inout [[CChar]?], _ lengths: inout [Int32], _ formats: inout [Int32]
    ) {
        buffers.append(Array(text.utf8CString))
        lengths.append(0)
        formats.append(0)
    }

    /// Pins each buffer in turn (recursion keeps every pointer valid while `body` runs).
    private static func withPointers<T>(
        _ buffers: [[CChar]?], index: Int, collected: [UnsafePointer<CChar>?],
        _ body: ([UnsafePointer<CChar>?]) throws -> T
    ) rethrows -> T {
        guard index < buffers.count else { return try body(collected) }
        guard let buffer = buffers[index] else {
            return try withPointers(buffers, index: index + 1, collected: collected + [nil], body)
        }
        return try buffer.withUnsafeBufferPointer { pointer in
            try withPointers(buffers, index: index + 1, collected: collected + [pointer.baseAddress], body)
        }
    }

    /// The result's rows as SQLite would give them.
    static func rows(_ result: OpaquePointer?, sql: String) -> [Row] {
        guard let result else { return [] }
        let columnCount = Int(PQnfields(result))
        guard columnCount > 0 else { return [] }
        let names = (0..<columnCount).map { String(cString: PQfname(result, Int32($0))) }
        let types = (0..<columnCount).map { PQftype(result, Int32($0)) }
        let rowCount = Int(PQntuples(result))
        var rows: [Row] = []
        rows.reserveCapacity(rowCount)
        for row in 0..<Int32(rowCount) {
            var values: [SQLValue] = []
            values.reserveCapacity(columnCount)
            for column in 0..<Int32(columnCount) {
                if PQgetisnull(result, row, column) == 1 {
                    values.append(.null)
                    continue
                }
                let length = Int(PQgetlength(result, row, column))
                let bytes = UnsafeRawBufferPointer(start: PQgetvalue(result, row, column), count: length)
                values.append(decode(bytes, type: types[Int(column)]))
            }
            rows.append(Row(columns: names, values: values, sql: sql))
        }
        return rows
    }

    /// One text-format value.
    static func decode(_ bytes: UnsafeRawBufferPointer, type: UInt32) -> SQLValue {
        let text = String(decoding: bytes, as: UTF8.self)
        switch type {
        case TypeOID.int8, TypeOID.int4, TypeOID.int2, TypeOID.oid:
            return Int64(text).map(SQLValue.integer) ?? .text(text)
        case TypeOID.bool: return .integer(text == "t" ? 1 : 0)
        case TypeOID.float4, TypeOID.float8: return Double(text).map(SQLValue.real) ?? .text(text)
        case TypeOID.numeric:
            // sum() and avg() of integers answer numeric: integral values are integers, as in SQLite.
            if let int = Int64(text) { return .integer(int) }
            return Double(text).map(SQLValue.real) ?? .text(text)
        case TypeOID.bytea: return .blob(decodeHexBytea(text))
        default: return .text(text)
        }
    }

    /// bytea's text output (`\x0a1b…`, the server's default `bytea_output = hex`).
    static func decodeHexBytea(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        let utf8 = Array(text.utf8.dropFirst(2))
        bytes.reserveCapacity(utf8.count / 2)
        var index = 0
        while index + 1 < utf8.count {
            bytes.append(hexValue(utf8[index]) << 4 | hexValue(utf8[index + 1]))
            index += 2
        }
        return bytes
    }

    private static func hexValue(_ byte: UInt8) -> UInt8 {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: 0
        }
    }
}

extension Double {
    /// The shortest text that reads back as the same double (Swift's description), with PostgreSQL's spellings
    /// of the non-finite values.
    fileprivate var postgresText: String {
        if isNaN { return "NaN" }
        if isInfinite { return self < 0 ? "-Infinity" : "Infinity" }
        return description
    }
}
