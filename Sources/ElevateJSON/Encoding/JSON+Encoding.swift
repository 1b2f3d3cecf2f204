/// A ``JSON`` value from any `Encodable` value, without writing it out as text.
extension JSON {
    /// The JSON value `value` encodes to, as ``ElevateJSONEncoder`` would write it with the same
    /// settings.
    ///
    /// ```swift
    /// var request = try JSON(encoding: payment)
    /// request["sentAt"] = JSON(Date().timeIntervalSince1970)
    /// ```
    /// - Parameters:
    ///   - value: Any `Encodable` value.
    ///   - encoder: The settings: strategies, user info (its output formatting does not apply).
    /// - Throws: What ``ElevateJSONEncoder/encode(_:)`` throws for the value.
    public init(encoding value: some Swift.Encodable, encoder: ElevateJSONEncoder = ElevateJSONEncoder()) throws {
        self = Self(try BufferedEncoding.tree(of: value, settings: encoder.currentSettings))
    }

    private init(_ value: EncodedValue) {
        switch value {
        case .null: self = .null
        case .bool(let flag): self = .bool(flag)
        case .integer(let integer): self = .number(.int(Int(integer)))
        case .unsigned(let integer): self = integer <= UInt64(Int.max) ? .number(.int(Int(integer))) : .number(.uint(UInt(integer)))
        case .number(let text): self = .number(Self.number(exactText: text))
        case .string(let string): self = .string(string)
        case .array(let array): self = .array(array.elements.map(JSON.init))
        case .object(let object):
            var members: [String: JSON] = [:]
            for (key, member) in zip(object.keys, object.values) { members[key] = JSON(member) }
            self = .object(members)
        case .slot(let slot): self = slot.value.map(JSON.init) ?? .object([:])
        }
    }
}
