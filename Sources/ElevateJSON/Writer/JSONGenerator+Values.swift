import Foundation

/// A value that writes itself with the generator's token methods, such as the mutable ``JSON``:
/// the writer core finds it without depending on the layer that defines it.
protocol JSONGeneratorWritable {
    /// Writes the value, which sits inside `depth` containers.
    func write(to generator: JSONGenerator, depth: Int) throws
}

/// Lets the writer see through an `Optional` held in an `Any`.
private protocol OptionalValue {
    var wrappedAny: Any? { get }
}

extension Optional: OptionalValue {
    fileprivate var wrappedAny: Any? {
        switch self {
        case .some(let wrapped): return wrapped
        case .none: return nil
        }
    }
}

/// How a value tree becomes generator calls.
///
/// The common types are found by comparing the exact dynamic type, which is fast and never bridges.
/// The rest go through casts in an order that matters: Foundation on Linux (like on Darwin) bridges
/// an `NSNumber` to `Bool`, `Int` and `Double` alike (`NSNumber(value: 1) as? Bool` is `true`), so an
/// `NSNumber` is recognized by its class before any numeric cast, and a Boolean one by its class
/// (`__NSCFBoolean`), not by its value.
extension JSONGenerator {
    /// How many `Encodable.json` results in a row may themselves be `Encodable` types that are
    /// not JSON values, before the writer assumes a cycle.
    private static let maximumEncodableHops = 64

    /// Writes `value`, which sits inside `depth` containers.
    func emit(_ value: Any, depth: Int, hops: Int = 0) throws {
        let type = type(of: value)
        if type == String.self {
            try string(value as! String)
        } else if type == Int.self {
            try integer(Int64(value as! Int))
        } else if type == Double.self {
            try double(value as! Double)
        } else if type == Bool.self {
            try bool(value as! Bool)
        } else if type == [String: Any].self {
            try object(value as! [String: Any], depth: depth)
        } else if type == [Any].self {
            try array(value as! [Any], depth: depth)
        } else {
            try emitOther(value, depth: depth, hops: hops)
        }
    }

    private func emitOther(_ value: Any, depth: Int, hops: Int) throws {
        if let writable = value as? any JSONGeneratorWritable {
            try writable.write(to: self, depth: depth)
        } else if let optional = value as? any OptionalValue {
            if let wrapped = optional.wrappedAny {
                try emit(wrapped, depth: depth, hops: hops)
            } else {
                try null()
            }
        } else if type(of: value) is NSNumber.Type {
            try number(value as! NSNumber)
        } else if value is NSNull {
            try null()
        } else if let value = value as? String {
            try string(value)
        } else if type(of: value) == [AnyHashable: Any].self {
            // Before the cast to `[String: Any]`, which would succeed and silently merge keys that
            // are different `AnyHashable`s but the same string (see `object(_:depth:)`).
            try object(value as! [AnyHashable: Any], depth: depth)
        } else if let value = value as? [String: Any] {
            try object(value, depth: depth)
        } else if let value = value as? [Any] {
            try array(value, depth: depth)
        } else if let value = value as? Substring {
            try string(String(value))
        } else if let value = value as? JSONLargeNumber {
            guard JSONNumberFormat.isValid(value.text.utf8) else {
                throw JSONWriterError(
                    kind: .invalidNumberText, message: "JSONLargeNumber text \"\(value.text)\" is not a JSON number")
            }
            try rawValue(value.text)
        } else if let value = value as? any FixedWidthInteger {
            try fixedWidthInteger(value)
        } else if let value = value as? Float {
            guard let text = JSONNumberFormat.text(for: value) else { throw Self.nonFinite(value) }
            try rawValue(text)
        } else if let value = value as? Decimal {
            try decimal(value)
        } else if let value = value as? CGFloat {
            try double(Double(value))
        } else if let value = value as? URL {
            try string(value.absoluteString)
        } else if let value = value as? any JSONRepresentable {
            guard hops < Self.maximumEncodableHops else {
                throw JSONWriterError(
                    kind: .unsupportedType,
                    message: "the json of \(Swift.type(of: value)) is not a JSON value after \(hops) Encodable steps")
            }
            try emit(value.json, depth: depth, hops: hops + 1)
        } else if let value = value as? [AnyHashable: Any] {
            try object(value, depth: depth)
        } else {
            throw JSONWriterError(kind: .unsupportedType, message: "\(Swift.type(of: value)) is not a JSON value")
        }
    }

    // MARK: Scalars

    func double(_ value: Double) throws {
        guard let text = JSONNumberFormat.text(for: value) else { throw Self.nonFinite(value) }
        try rawValue(text)
    }

    static func nonFinite(_ value: some CustomStringConvertible) -> JSONWriterError {
        JSONWriterError(kind: .nonFiniteNumber, message: "\(value) is not a finite number, which JSON requires")
    }

    private func fixedWidthInteger(_ value: any FixedWidthInteger) throws {
        if let small = Int64(exactly: value) {
            try integer(small)
        } else {
            // UInt64 above Int64.max, Int128, UInt128: their description is plain decimal digits.
            try rawValue(String(describing: value))
        }
    }

    private func decimal(_ value: Decimal) throws {
        guard let text = JSONNumberFormat.text(for: value) else { throw Self.nonFinite(value) }
        guard JSONNumberFormat.isValid(text.utf8) else {
            throw JSONWriterError(kind: .invalidNumberText, message: "Decimal text \"\(text)\" is not a JSON number")
        }
        try rawValue(text)
    }

    private func number(_ value: NSNumber) throws {
        switch FoundationNumber(value) {
        case .bool(let bool): try self.bool(bool)
        case .decimal(let decimal): try self.decimal(decimal)
        case .float(let float):
            guard let text = JSONNumberFormat.text(for: float) else { throw Self.nonFinite(value) }
            try rawValue(text)
        case .double(let double): try self.double(double)
        case .unsigned(let uint): try fixedWidthInteger(uint)
        case .signed(let int): try integer(int)
        case nil: try integer(value.int64Value)
        }
    }

    // MARK: Containers

    /// Checks the user's depth limit, and writes the empty-container and too-deep-for-YAJL cases.
    /// Returns false when the container was written and the caller has nothing left to do.
    func beginContainer(_ value: Any, isEmpty: Bool, emptyText: String, depth: Int) throws -> Bool {
        guard depth < options.maximumDepth else {
            throw JSONWriterError(
                kind: .depthLimitExceeded,
                message: "arrays and objects nest deeper than the maximum depth of \(options.maximumDepth)")
        }
        if isEmpty {
            // YAJL's beautify mode writes an empty container over two lines ("{\n\n}"); the number
            // call prints the compact form in its place, with the same separators as any value.
            try rawValue(emptyText)
            return false
        }
        if openContainers == Self.yajlDepthLimit {
            try splice(value, depth: depth)
            return false
        }
        return true
    }

    /// Writes a container nested too deep for YAJL: a fresh generator (whose depth starts at zero)
    /// writes it, shifted right by the current indentation, and its text goes in as one value.
    /// Memory grows by one copy of the subtree per 127 levels.
    private func splice(_ value: Any, depth: Int) throws {
        let child = JSONGenerator(options: options, indentLevels: openContainers)
        try child.write(value, depth: depth)
        try child.output.withUnsafeBytes { try rawValue($0) }
    }

    private func object(_ value: [String: Any], depth: Int) throws {
        guard try beginContainer(value, isEmpty: value.isEmpty, emptyText: "{}", depth: depth) else { return }
        try openObject()
        if options.sortedKeys {
            for (key, member) in value.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
                try self.member(key, member, depth: depth)
            }
        } else {
            for (key, member) in value {
                try self.member(key, member, depth: depth)
            }
        }
        try closeObject()
    }

    /// A dictionary that came from Foundation with `AnyHashable` keys; every key must be a string.
    private func object(_ value: [AnyHashable: Any], depth: Int) throws {
        var members: [String: Any] = [:]
        members.reserveCapacity(value.count)
        for (key, member) in value {
            guard let key = key.base as? String else {
                throw JSONWriterError(
                    kind: .invalidKey, message: "an object key is \(Swift.type(of: key.base)), not a String")
            }
            // Different `AnyHashable`s can be the same string (a `String` and an `NSString` of the
            // same text): one JSON object cannot hold both, and dropping one would change the value.
            if members.updateValue(member, forKey: key) != nil {
                throw JSONWriterError(
                    kind: .invalidKey, message: "two keys of the dictionary are the same string \"\(key)\"")
            }
        }
        try object(members, depth: depth)
    }

    private func member(_ key: String, _ value: Any, depth: Int) throws {
        do {
            try string(key)
            try emit(value, depth: depth + 1)
        } catch var error as JSONWriterError {
            error.prepend(.key(key))
            throw error
        }
    }

    private func array(_ value: [Any], depth: Int) throws {
        guard try beginContainer(value, isEmpty: value.isEmpty, emptyText: "[]", depth: depth) else { return }
        try openArray()
        for (index, element) in value.enumerated() {
            do {
                try emit(element, depth: depth + 1)
            } catch var error as JSONWriterError {
                error.prepend(.index(index))
                throw error
            }
        }
        try closeArray()
    }
}
