/// A value that ``JSONWriter`` or ``JSONStreamWriter`` cannot write, with where it sits in the tree.
///
/// ```swift
/// do {
///     _ = try JSONWriter.data(for: ["items": [["birthDate": Date()]]])
/// } catch let error as JSONWriterError {
///     print(error)  // at items[0].birthDate: Date is not a JSON value
/// }
/// ```
public struct JSONWriterError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem stopped the writer.
    public enum Kind: Sendable, Hashable {
        /// A `Double`, `Float` or `Decimal` that is NaN or infinite, which JSON cannot represent.
        case nonFiniteNumber
        /// A value of a type the writer does not know, such as `Date` or `Data`.
        case unsupportedType
        /// A dictionary whose keys are not strings.
        case invalidKey
        /// Number text (of a ``JSONLargeNumber`` or `Decimal`) that is not JSON number grammar.
        case invalidNumberText
        /// Arrays and objects nest deeper than ``JSONWriter/Options/maximumDepth``.
        case depthLimitExceeded
        /// A ``JSONStreamWriter`` was written to after ``JSONStreamWriter/finish()``.
        case writerFinished
        /// A ``JSONEventWriter`` received events that do not make JSON: a close that does not match
        /// the open container, a key outside an object or a value where a key belongs, or
        /// ``JSONEventWriter/finish()`` inside a value.
        case invalidEventSequence
        /// YAJL's generator refused a call. The writer guards every call, so this means a bug.
        case generatorFailure
    }

    /// One step from a container to a value inside it.
    public enum PathComponent: Sendable, Hashable {
        /// The value under a key of an object.
        case key(String)
        /// The element at an index of an array.
        case index(Int)
    }

    /// What kind of problem stopped the writer.
    public var kind: Kind
    /// What is wrong, in words.
    public var message: String
    /// The steps from the top-level value to the offending value; empty for the top level.
    public var pathComponents: [PathComponent]

    /// Creates an error; the writer does this for you.
    /// - Parameters:
    ///   - kind: What kind of problem it is.
    ///   - message: What is wrong, in words.
    ///   - pathComponents: The steps from the top-level value to the offending value.
    public init(kind: Kind, message: String, pathComponents: [PathComponent] = []) {
        self.kind = kind
        self.message = message
        self.pathComponents = pathComponents
    }

    /// The path to the offending value, as `items[3].birthDate`; empty for the top level.
    ///
    /// A key that is not a plain identifier is quoted: `headers["Content-Type"]`.
    public var path: String {
        var text = ""
        for component in pathComponents {
            switch component {
            case .index(let index):
                text += "[\(index)]"
            case .key(let key) where Self.isIdentifier(key):
                text += text.isEmpty ? key : "." + key
            case .key(let key):
                text += "[\"" + key.replacingQuotesAndBackslashes() + "\"]"
            }
        }
        return text
    }

    /// `"at items[3].birthDate: Date is not a JSON value"`.
    public var description: String {
        pathComponents.isEmpty ? "at the top level: \(message)" : "at \(path): \(message)"
    }

    /// Adds the step from a parent container, as the error travels up the tree.
    mutating func prepend(_ component: PathComponent) {
        pathComponents.insert(component, at: 0)
    }

    private static func isIdentifier(_ key: String) -> Bool {
        guard let first = key.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else {
            return false
        }
        return key.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "$"):
                return true
            default:
                return false
            }
        }
    }
}

extension String {
    fileprivate func replacingQuotesAndBackslashes() -> String {
        var text = ""
        for character in unicodeScalars {
            if character == "\"" || character == "\\" { text.unicodeScalars.append("\\") }
            text.unicodeScalars.append(character)
        }
        return text
    }
}
