extension CopySet {
    /// `{screen: {field: text}}` in declared order.
    public var jsonValue: JSONValue {
        var object = JSONObject()
        for screen in CopyScreen.allCases {
            var fields = JSONObject()
            for field in screen.fields {
                if let text = self[screen, field] { fields[field.rawValue] = .string(text) }
            }
            if !fields.isEmpty { object[screen.rawValue] = .object(fields) }
        }
        return .object(object)
    }
}
