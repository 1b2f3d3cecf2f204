import Elevate
import Foundation

/// The `JSONSerialization` shape of a document, built straight from the parser's events by code of
/// the fuzz package's own: the independent side of the differential against
/// `JSONValue.foundationValue` (the library's own events-to-tree builder is package-internal).
/// Numbers are `Int`, `UInt`, `Double` or `JSONLargeNumber`; a repeated key's last value wins; with
/// several values, the last.
public func foundationTree(from data: Data, options: JSONParsingOptions = .default) throws -> Any {
    let builder = TreeBuilder()
    let parser = JSONEventParser(handler: builder, options: options)
    try parser.parse(data)
    try parser.finish()
    return builder.result ?? NSNull()
}

private final class TreeBuilder: JSONEventHandler {
    enum Open {
        case object([String: Any], key: String)
        case array([Any])
    }

    var open: [Open] = []
    var result: Any?

    func add(_ value: Any) {
        switch open.popLast() {
        case .object(var members, let key)?:
            members[key] = value
            open.append(.object(members, key: key))
        case .array(var elements)?:
            elements.append(value)
            open.append(.array(elements))
        case nil:
            result = value
        }
    }

    func startObject() { open.append(.object([:], key: "")) }
    func key(_ key: JSONText) {
        guard case .object(let members, _)? = open.popLast() else { return }
        open.append(.object(members, key: key.string))
    }
    func endObject() {
        guard case .object(let members, _)? = open.popLast() else { return }
        add(members)
    }
    func startArray() { open.append(.array([])) }
    func endArray() {
        guard case .array(let elements)? = open.popLast() else { return }
        add(elements)
    }
    func string(_ value: JSONText) { add(value.string) }
    func number(_ value: JSONNumberText) {
        switch value.value {
        case .int(let integer): add(integer)
        case .uint(let integer): add(integer)
        case .double(let double): add(double)
        case .large(let text): add(JSONLargeNumber(text: text))
        }
    }
    func bool(_ value: Bool) { add(value) }
    func null() { add(NSNull()) }
}
