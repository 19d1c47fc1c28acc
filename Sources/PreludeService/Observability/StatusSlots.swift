/// Maps the status codes this service can send to compact counter slots (`RequestMetrics` keeps one atomic
/// per slot per series); other codes return nil and are counted on a slower, locked path.
enum StatusSlots {
    /// The codes with a slot, in slot order (at most 48).
    static let codes: [Int] = [
        100, 101, 200, 201, 202, 204, 206, 301, 302, 303, 304, 307, 308,
        400, 401, 403, 404, 405, 406, 408, 409, 410, 411, 412, 413, 414, 415, 416, 417, 422, 426, 428, 429, 431,
        500, 501, 502, 503, 504, 505,
    ]

    private static let table: [UInt8] = {
        precondition(codes.count <= 48, "RequestMetrics.Series holds 48 status slots")
        var table = [UInt8](repeating: 0, count: 600)
        for (slot, code) in codes.enumerated() { table[code] = UInt8(slot + 1) }
        return table
    }()

    /// The slot of `code`, or nil.
    static func slot(for code: Int) -> Int? {
        guard code >= 0 && code < 600 else { return nil }
        let entry = table[code]
        return entry == 0 ? nil : Int(entry) - 1
    }
}
