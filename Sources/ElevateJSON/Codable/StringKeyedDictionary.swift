/// `[String: Value]`, which Foundation's decoder reads member by member with the JSON keys as they
/// are (no key strategy), rather than through `Dictionary`'s own `init(from:)`.
protocol StringKeyedDictionary {
    static func decode(from decoder: TapeDecoder) throws -> Self
}

extension Dictionary: StringKeyedDictionary where Key == String, Value: Swift.Decodable {
    static func decode(from decoder: TapeDecoder) throws -> Self {
        let site = decoder.currentSite
        let object = decoder.index
        try decoder.expectContainer(object: true, at: object, site, nil)
        let tape = decoder.tape
        var result: [String: Value] = Dictionary(minimumCapacity: tape.count(ofContainer: object))
        let end = tape.end(of: object)
        var position = object + 1
        while position < end {
            if !tape.isShadowed(position) {
                let key = tape.string(at: position)
                result[key] = try decoder.decodeChild(Value.self, at: position + 1, site, .key(StringCodingKey(key)))
            }
            position = tape.end(of: position + 1)
        }
        return result
    }
}
