/// The generator calls of one encode call, with nesting deeper than YAJL's 127 levels written by
/// child generators whose text is spliced in as one value (as ``JSONWriter`` does), so containers
/// can nest as deep as the values being encoded do.
final class EncodingOutput {
    /// The generator of the top-level value.
    let root: JSONGenerator
    /// The generator that writes now: ``root``, or the child of the deepest splice.
    @exclusivity(unchecked) private(set) var generator: JSONGenerator
    private var parents: [JSONGenerator] = []
    private let sortedKeys: Bool

    /// Writes through `root`, whose options and style decide the text; `sortedKeys` orders buffered
    /// objects.
    init(root: JSONGenerator, sortedKeys: Bool) {
        self.root = root
        generator = root
        self.sortedKeys = sortedKeys
    }

    func openObject() throws {
        if generator.openContainers == JSONGenerator.yajlDepthLimit { descend() }
        try generator.openObject()
    }

    func closeObject() throws {
        try generator.closeObject()
        if generator.openContainers == 0, !parents.isEmpty { try ascend() }
    }

    func openArray() throws {
        if generator.openContainers == JSONGenerator.yajlDepthLimit { descend() }
        try generator.openArray()
    }

    func closeArray() throws {
        try generator.closeArray()
        if generator.openContainers == 0, !parents.isEmpty { try ascend() }
    }

    private func descend() {
        let child = JSONGenerator(
            options: generator.options, indentLevels: generator.openContainers, style: generator.style)
        parents.append(generator)
        generator = child
    }

    private func ascend() throws {
        let child = generator
        child.collectText()
        child.dropFinalNewline(after: 0)
        generator = parents.removeLast()
        try child.output.withUnsafeBytes { try generator.rawValue($0) }
    }

    /// Writes a value; `sealing` marks its containers written (see ``EncodedObject/isSealed``).
    func write(_ value: EncodedValue, sealing: Bool) throws {
        switch value {
        case .null: try generator.null()
        case .bool(let value): try generator.bool(value)
        case .integer(let value): try generator.integer(value)
        case .unsigned(let value):
            if value <= UInt64(Int64.max) {
                try generator.integer(Int64(value))
            } else {
                try generator.rawValue(String(value))
            }
        case .number(let text): try generator.rawValue(text)
        case .string(let value): try generator.string(value)
        case .slot(let slot):
            if sealing { slot.isSealed = true }
            // A superEncoder that wrote nothing is an empty object, as in Foundation.
            try write(slot.value ?? .object(EncodedObject()), sealing: sealing)
        case .array(let array):
            if sealing { array.isSealed = true }
            try openArray()
            for element in array.elements { try write(element, sealing: sealing) }
            try closeArray()
        case .object(let object):
            if sealing { object.isSealed = true }
            try openObject()
            if sortedKeys {
                let order = object.keys.indices.sorted {
                    object.keys[$0].utf8.lexicographicallyPrecedes(object.keys[$1].utf8)
                }
                for index in order {
                    try generator.key(object.keys[index])
                    try write(object.values[index], sealing: sealing)
                }
            } else {
                for (key, value) in zip(object.keys, object.values) {
                    try generator.key(key)
                    try write(value, sealing: sealing)
                }
            }
            try closeObject()
        }
    }
}
