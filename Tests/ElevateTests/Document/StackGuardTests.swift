import Foundation
import ElevateTestSupport
import Testing

@testable import Elevate
@testable import ElevateJSON

/// A node of a recursive type, whose depth the tests compare.
private protocol NodeChain {
    var children: [Self] { get }
}

extension NodeChain {
    /// How many nodes deep the first-child chain goes.
    var depth: Int {
        var count = 1
        var node = self
        while let first = node.children.first {
            count += 1
            node = first
        }
        return count
    }
}

/// A recursive Codable type: each node is two levels of JSON (its object and its array).
private struct CodableNode: Swift.Codable, NodeChain {
    var children: [CodableNode]
}

/// The same recursive type with a `TapeDecodable` initializer written by hand, as the macro's reads
/// it (this target does not build the macro): its frames per level differ from `init(from:)`'s.
private struct TapeNode: Swift.Codable, TapeDecodable, NodeChain {
    var children: [TapeNode]

    init(fromTape value: TapeDecodingValue) throws {
        let container = try value.container(keyedBy: CodingKeys.self)
        self.children = try container.decode([TapeNode].self, forKey: .children)
    }
}

/// The same recursive type, decoded through an Elevate schema.
private struct ElevateNode: Elevate.Decodable, NodeChain {
    var children: [ElevateNode]

    init(json: Any) throws {
        let entity = try Parser.parseEntity(json: json) { schema in
            schema.addProperty(keyPath: "children", type: .array, decodableType: ElevateNode.self)
        }
        children = entity <-! "children"
    }
}

/// What one decode on a small stack ended in: the depth it decoded, or the error's text.
private enum SmallStackOutcome: Sendable, CustomStringConvertible {
    case decoded(Int)
    case failed(String)

    var description: String {
        switch self {
        case .decoded(let depth): "decoded \(depth) nodes"
        case .failed(let message): "failed: \(message)"
        }
    }

    /// Whether the decode either gave the whole tree or said that the stack is the limit.
    func isWholeOrStackError(nodes: Int) -> Bool {
        switch self {
        case .decoded(let depth): depth == nodes
        case .failed(let message): message.contains("stack")
        }
    }

    var isStackError: Bool {
        if case .failed(let message) = self { return message.contains("stack") }
        return false
    }
}

/// Decodes recursive documents on a thread whose stack is 512 KiB, the size ``JSONParsingOptions``
/// chose its depth ceiling for (secondary threads, GCD and Swift concurrency threads on Darwin):
/// every path must give the tree or an error that names the stack, never crash.
@Suite(.timeLimit(.minutes(6)))
struct StackGuardTests {
    /// `nodes` nested nodes: `2 * nodes` levels of JSON.
    static func document(nodes: Int) -> Data {
        Data((String(repeating: #"{"children":["#, count: nodes) + String(repeating: "]}", count: nodes)).utf8)
    }

    /// Runs `body` on a thread with a 512 KiB stack and returns what it returned.
    fileprivate static func onSmallStack(_ body: @escaping @Sendable () -> SmallStackOutcome) -> SmallStackOutcome {
        runOnThread(stackSize: 512 << 10, body)!
    }

    /// `body`'s depth, or the text of what it threw (with a `DecodingError`'s debug description).
    fileprivate static func outcome(_ body: () throws -> Int) -> SmallStackOutcome {
        do {
            return .decoded(try body())
        } catch let DecodingError.dataCorrupted(context) {
            return .failed("dataCorrupted at \(context.codingPath.count) keys: \(context.debugDescription)")
        } catch {
            return .failed("\(error)")
        }
    }

    /// Each way of decoding a recursive document, with nesting allowed up to `maximumDepth`.
    fileprivate static func decoders(maximumDepth: Int) -> [(String, @Sendable (Data) -> SmallStackOutcome)] {
        var streaming = StreamingOptions()
        streaming.parsing.maximumDepth = maximumDepth
        let codable = ElevateJSONDecoder()
        codable.parsingOptions.maximumDepth = maximumDepth
        let options = streaming
        return [
            ("ElevateJSONDecoder", { data in outcome { try codable.decode(CodableNode.self, from: data).depth } }),
            ("ElevateJSONDecoder, TapeDecodable", { data in outcome { try codable.decode(TapeNode.self, from: data).depth } }),
            ("ElevateJSONDecoder JSONValue", { data in
                outcome {
                    var parsingOptions = JSONParsingOptions()
                    parsingOptions.maximumDepth = maximumDepth
                    return try codable.decode(CodableNode.self, from: JSONValue(parsing: data, options: parsingOptions)).depth
                }
            }),
            ("Elevate.decodeObject", { data in
                outcome { try Elevate.decodeObject(from: .data(data), as: ElevateNode.self, options: options).depth }
            }),
            ("forEachElement (Elevate)", { data in
                outcome {
                    var depth = 0
                    try forEachElement(from: .data(Data("[".utf8) + data + Data("]".utf8)), as: ElevateNode.self, options: options) {
                        depth = $0.depth
                    }
                    return depth
                }
            }),
            ("forEachElement (Codable)", { data in
                outcome {
                    var depth = 0
                    try forEachElement(
                        from: .data(Data("[".utf8) + data + Data("]".utf8)), as: CodableNode.self, decoder: codable,
                        options: options
                    ) { depth = $0.depth }
                    return depth
                }
            }),
        ]
    }

    /// The default depth limit accepts 510 levels (255 nodes, 511 inside a streamed array): each
    /// path gives the whole tree, or an error naming the stack, as Foundation's `JSONDecoder`
    /// decodes it.
    @Test func theDefaultDepthOnASmallStackDecodesOrThrows() throws {
        let nodes = 255
        let data = Self.document(nodes: nodes)
        #expect(try JSONDecoder().decode(CodableNode.self, from: data).depth == nodes)
        for (name, decode) in Self.decoders(maximumDepth: 512) {
            let outcome = Self.onSmallStack { decode(data) }
            #expect(outcome.isWholeOrStackError(nodes: nodes), "\(name): \(outcome)")
            print("StackGuardTests: \(name), \(2 * nodes) levels on 512 KiB: \(outcome)")
        }
    }

    /// Deeper documents, let in by a raised `maximumDepth` up to the ceiling: the decode stops
    /// with an error naming the stack before it runs out, whatever the path.
    @Test(arguments: [600, 1_024, JSONParsingOptions.depthCeiling])
    func deeperNestingOnASmallStackThrows(levels: Int) throws {
        let nodes = levels / 2 - 1
        let data = Self.document(nodes: nodes)
        for (name, decode) in Self.decoders(maximumDepth: JSONParsingOptions.depthCeiling) {
            let outcome = Self.onSmallStack { decode(data) }
            #expect(outcome.isWholeOrStackError(nodes: nodes), "\(name): \(outcome)")
            if levels == JSONParsingOptions.depthCeiling {
                #expect(outcome.isStackError, "\(name): \(outcome)")
            }
        }
    }

    /// The stack error of the Codable decoder is Foundation's case for bad input, at the coding
    /// path where the stack ran short, and says how deep and how big the stack is.
    @Test func theCodableErrorNamesTheDepthAndTheStack() throws {
        let data = Self.document(nodes: JSONParsingOptions.depthCeiling / 2 - 1)
        let decoder = ElevateJSONDecoder()
        decoder.parsingOptions.maximumDepth = JSONParsingOptions.depthCeiling
        let outcome = Self.onSmallStack {
            do {
                _ = try decoder.decode(CodableNode.self, from: data)
                return .decoded(0)
            } catch let DecodingError.dataCorrupted(context) {
                let path = context.codingPath
                // The path alternates "children" and index 0, down to where decoding stopped.
                let shape = path.enumerated().allSatisfy {
                    $0 % 2 == 0 ? $1.stringValue == "children" : $1.intValue == 0
                }
                // The stack this thread really has: glibc may hand a new thread a cached stack
                // larger than it asked for (up to four times), as other tests end 1 MiB threads.
                let stack = StackGuard.ofCurrentThread?.sizeDescription ?? "unknown"
                return .failed("\(path.count) \(shape) \(context.debugDescription) [stack \(stack)]")
            } catch {
                return .failed("wrong error: \(error)")
            }
        }
        guard case .failed(let text) = outcome else {
            Issue.record("decoded \(JSONParsingOptions.depthCeiling) levels on 512 KiB")
            return
        }
        let parts = text.split(separator: " ", maxSplits: 2)
        #expect(parts.count == 3 && Int(parts[0]) ?? 0 > 64 && parts[1] == "true", "\(text)")
        // The message names the thread's stack as the system gives it (512 KiB asked for).
        let stack = text.split(separator: "[stack ").last.map { String($0.dropLast()) } ?? ""
        #expect(text.contains("stack (\(stack))") && text.contains("nesting of"), "\(text)")
    }

    /// Materializing and releasing a value as deep as the ceiling (a tape's `JSON`, `Any` and
    /// `JSONValue` trees) needs no stack frame per level beyond what 512 KiB holds.
    @Test func deepValuesMaterializeOnASmallStack() throws {
        var parsingOptions = JSONParsingOptions()
        parsingOptions.maximumDepth = JSONParsingOptions.depthCeiling
        let options = parsingOptions
        let data = Self.document(nodes: JSONParsingOptions.depthCeiling / 2)
        let value = try JSONValue(parsing: data, options: options)
        let decoder = ElevateJSONDecoder()
        decoder.parsingOptions = options
        let outcome = Self.onSmallStack {
            Self.outcome {
                var json: JSON? = try decoder.decode(JSON.self, from: data)
                var any: Any? = value.foundationValue
                var copy: JSONValue? = try JSONValue(parsing: data, options: options)
                precondition(json != nil && any != nil && copy == value)
                json = nil
                any = nil
                copy = nil
                return JSONParsingOptions.depthCeiling
            }
        }
        #expect(outcome.isWholeOrStackError(nodes: JSONParsingOptions.depthCeiling), "\(outcome)")
    }

    /// `JSON` under a key strategy goes through keyed and unkeyed containers, one per level: the
    /// stack guard's error when one is made must come out as it is. (`JSON.init(from:)` made them
    /// with `try?`, so the error was dropped and the value then read as a `String`: a
    /// `typeMismatch` for `String` deep in a valid document.)
    @Test(arguments: ["snake", "custom"])
    func deepJSONUnderAKeyStrategyThrowsTheStackError(strategy: String) throws {
        let data = Self.document(nodes: JSONParsingOptions.depthCeiling / 2 - 1)
        let decoder = ElevateJSONDecoder()
        decoder.parsingOptions.maximumDepth = JSONParsingOptions.depthCeiling
        decoder.keyDecodingStrategy = strategy == "snake" ? .convertFromSnakeCase : .custom { $0.last! }
        let outcome = Self.onSmallStack {
            Self.outcome {
                _ = try decoder.decode(JSON.self, from: data)
                return JSONParsingOptions.depthCeiling
            }
        }
        #expect(outcome.isStackError, "\(outcome)")
    }

    /// A `JSON` value as deep as the parser's ceiling, and a recursive model as deep, encoded on a
    /// small stack: the text, or an `EncodingError` that names the stack, never a crash (encoding
    /// recursed through `encode(to:)` once per level and crashed near 420 levels in release).
    @Test(arguments: [false, true])
    func deepValuesEncodeOrThrowOnASmallStack(prettyPrinted: Bool) throws {
        let data = Self.document(nodes: JSONParsingOptions.depthCeiling / 2 - 1)
        let decoder = ElevateJSONDecoder()
        decoder.parsingOptions.maximumDepth = JSONParsingOptions.depthCeiling
        let json = try decoder.decode(JSON.self, from: data)
        let node = try decoder.decode(CodableStackNode.self, from: data)
        let encoder = ElevateJSONEncoder()
        if prettyPrinted { encoder.outputFormatting = [.prettyPrinted, .sortedKeys] }
        let encodeJSON: @Sendable () throws -> Data = { try encoder.encode(json) }
        let encodeModel: @Sendable () throws -> Data = { try encoder.encode(node) }
        for (name, encode) in [("JSON", encodeJSON), ("model", encodeModel)] {
            let outcome = Self.onSmallStack {
                do {
                    let text = try encode()
                    return .decoded(text.count)
                } catch let EncodingError.invalidValue(_, context) {
                    return .failed(context.debugDescription)
                } catch {
                    return .failed("\(error)")
                }
            }
            switch outcome {
            case .decoded(let count): #expect(count >= data.count, "\(name)")
            case .failed(let message): #expect(message.contains("stack"), "\(name): \(message)")
            }
        }
    }

    /// Printing a value as deep as the ceiling on a small stack (Swift's default description of an
    /// enum recursed once per level and crashed near 330 levels).
    @Test func deepJSONPrintsOnASmallStack() throws {
        let data = Self.document(nodes: JSONParsingOptions.depthCeiling / 2 - 1)
        let decoder = ElevateJSONDecoder()
        decoder.parsingOptions.maximumDepth = JSONParsingOptions.depthCeiling
        let json = try decoder.decode(JSON.self, from: data)
        let outcome = Self.onSmallStack {
            let text = String(describing: json)
            return .decoded(text == String(decoding: data, as: UTF8.self) ? 1 : 0)
        }
        #expect(outcome.isWholeOrStackError(nodes: 1), "\(outcome)")
    }
}

/// A recursive `Codable` model for the encoding test.
private struct CodableStackNode: Codable, Sendable {
    var children: [CodableStackNode]
}
