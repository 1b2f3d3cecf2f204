import Foundation
import Testing

@testable import Elevate
@testable import ElevateJSON

/// Hammers everything one call can share with another, from many threads and tasks at once, and
/// compares every result with the one a single thread got before the hammering started: one
/// document read everywhere, one `ElevateJSONDecoder`/`ElevateJSONEncoder`, shared `Decoder`s,
/// and types whose schemas use the same key names with other property types (the per-thread
/// plans, pooled schemas and hand-offs of failures must never mix them). Meant to run under
/// ThreadSanitizer as well as normally; kept to a few seconds in a debug build.
@Suite struct ConcurrencyStressTests {
    // MARK: Harness

    /// A value handed to other threads that the compiler cannot prove safe to share.
    private struct Unchecked<Value>: @unchecked Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    /// Mismatches found on any thread, checked on the test's own task afterwards (an issue
    /// recorded from a bare thread has no test to go to).
    private final class Mismatches: @unchecked Sendable {
        private let lock = NSLock()
        private var found: [String] = []
        private var checks = 0

        func check(_ got: String, _ expected: String, _ what: @autoclosure () -> String) {
            lock.withLock {
                checks += 1
                if got != expected, found.count < 20 {
                    found.append("\(what())\n  got:      \(got.prefix(400))\n  expected: \(expected.prefix(400))")
                }
            }
        }

        var count: Int { lock.withLock { checks } }
        var report: [String] { lock.withLock { found } }
    }

    /// Runs `body(thread, iteration)` on `threads` threads of their own, released at once, and
    /// waits for all of them: more threads than cores, so the scheduler interleaves them.
    private static func hammer(
        threads: Int = 8, iterations: Int, _ body: @escaping @Sendable (_ thread: Int, _ iteration: Int) -> Void
    ) {
        let group = DispatchGroup()
        let start = DispatchSemaphore(value: 0)
        for thread in 0..<threads {
            group.enter()
            let worker = Thread {
                start.wait()
                for iteration in 0..<iterations { body(thread, iteration) }
                group.leave()
            }
            worker.stackSize = 8 << 20
            worker.start()
        }
        for _ in 0..<threads { start.signal() }
        group.wait()
    }

    /// What a call returned or threw, as text (validation failures with their structured
    /// paths), so results and errors compare in one `==`.
    private static func outcome<T>(_ body: () throws -> T) -> String {
        do {
            return "returned \(try withValidationReport(body))"
        } catch let report as ValidationReport {
            return "threw \(report.error) at \(report.failures)"
        } catch {
            return "threw \(type(of: error)): \(error)"
        }
    }

    private static func options(_ workers: Int, skipping: Bool = false) -> StreamingOptions {
        var options = StreamingOptions()
        options.concurrency = workers
        options.skipsInvalidElements = skipping
        options.chunkSize = 4_096
        return options
    }

    /// A Foundation value as canonical text: keys sorted, numbers and strings with their type.
    private static func canonical(_ value: Any) -> String {
        switch value {
        case let object as [String: Any]:
            return "{" + object.keys.sorted().map { "\($0.debugDescription):\(canonical(object[$0]!))" }
                .joined(separator: ",") + "}"
        case let array as [Any]:
            return "[" + array.map(canonical).joined(separator: ",") + "]"
        case is NSNull:
            return "null"
        default:
            return "\(type(of: value))(\(value))"
        }
    }

    // MARK: Types with the same key names and other property types

    /// Reads key `key` of an object as `type`: one decoder type whose instances build different
    /// schemas, so a plan keyed by the decoder's type must never validate with another's.
    private struct FieldDecoder: Elevate.Decoder, Sendable, CustomStringConvertible {
        let key: String
        let type: SchemaPropertyProtocol
        func decode(_ object: Any) throws -> Any {
            let entity = try Parser.parseEntity(json: object) { schema in
                schema.addProperty(keyPath: key, type: type)
            }
            return entity[key]!
        }
        var description: String { "FieldDecoder(\(key): \(type))" }
    }

    private struct StrictChild: Elevate.Decodable, Equatable {
        let id: Int
        let name: String
        init(json: Any) throws {
            let entity = try Parser.parseEntity(json: json) { schema in
                schema.addProperty(keyPath: "id", type: .int)
                schema.addProperty(keyPath: "name", type: .string)
            }
            id = entity <-! "id"
            name = entity <-! "name"
        }
    }

    private struct LooseChild: Elevate.Decodable, Equatable {
        let id: String
        let name: Int?
        init(json: Any) throws {
            let entity = try Parser.parseEntity(json: json) { schema in
                schema.addProperty(keyPath: "id", type: .string)
                schema.addProperty(keyPath: "name", type: .int, optional: true)
            }
            id = entity <-! "id"
            name = entity <-? "name"
        }
    }

    /// `id`, `name`, `score`, `flag`, `child`, `list`, `meta`, `when` as numbers, strings and
    /// Booleans; ``Loose`` reads the same keys as other types.
    private struct Strict: Elevate.Decodable, Equatable {
        let id: Int
        let name: String
        let score: Double
        let flag: Bool
        let child: StrictChild?
        let list: [Int]
        let meta: Int
        let when: Date?
        init(json: Any) throws {
            let entity = try Parser.parseEntity(json: json) { schema in
                schema.addProperty(keyPath: "id", type: .int)
                schema.addProperty(keyPath: "name", type: .string)
                schema.addProperty(keyPath: "score", type: .double)
                schema.addProperty(keyPath: "flag", type: .bool)
                schema.addProperty(keyPath: "child", type: .dictionary, optional: true, decodableType: StrictChild.self)
                schema.addProperty(keyPath: "list", type: .array, decodableType: Int.self)
                schema.addProperty(keyPath: "meta", type: .dictionary, decoder: FieldDecoder(key: "v", type: .int))
                schema.addProperty(keyPath: "when", type: .string, optional: true, decoder: ConcurrencyStressTests.sharedDay)
            }
            id = entity <-! "id"
            name = entity <-! "name"
            score = entity <-! "score"
            flag = entity <-! "flag"
            child = entity <-? "child"
            list = entity <--! "list"
            meta = entity <-! "meta"
            when = entity <-? "when"
        }
    }

    private struct Loose: Elevate.Decodable, Equatable {
        let id: String
        let name: Int?
        let score: String
        let flag: String?
        let child: LooseChild?
        let list: [String]
        let meta: String
        let when: Int?
        init(json: Any) throws {
            let entity = try Parser.parseEntity(json: json) { schema in
                schema.addProperty(keyPath: "id", type: .string)
                schema.addProperty(keyPath: "name", type: .int, optional: true)
                schema.addProperty(keyPath: "score", type: .string)
                schema.addProperty(keyPath: "flag", type: .string, optional: true)
                schema.addProperty(keyPath: "child", type: .dictionary, optional: true, decodableType: LooseChild.self)
                schema.addProperty(keyPath: "list", type: .array, decodableType: String.self)
                schema.addProperty(keyPath: "meta", type: .dictionary, decoder: FieldDecoder(key: "v", type: .string))
                schema.addProperty(keyPath: "when", type: .string, optional: true, decoder: StringToIntDecoder())
            }
            id = entity <-! "id"
            name = entity <-? "name"
            score = entity <-! "score"
            flag = entity <-? "flag"
            child = entity <-? "child"
            list = entity <--! "list"
            meta = entity <-! "meta"
            when = entity <-? "when"
        }
    }

    /// One `DateDecoder` shared by every ``Strict`` on every thread (it is `Sendable`).
    private static let sharedDay = DateDecoder(dateFormatString: "yyyy-MM-dd")

    /// Objects for ``Strict`` and for ``Loose`` with values varied by `seed`, and ones each of
    /// them rejects in a different place (a scalar, a nested entity, an array element, a
    /// decoder's value, a missing key).
    private static func entityTexts(seed: UInt64) -> [String] {
        var random = SeededGenerator(state: seed)
        var texts: [String] = []
        for index in 0..<12 {
            let n = Int(random.next() % 10_000)
            let s = #""s\#(n)-\#(index)""#
            switch index % 12 {
            case 0:
                texts.append(#"{"id": \#(n), "name": \#(s), "score": \#(n).5, "flag": true, "child": {"id": \#(n + 1), "name": \#(s)}, "list": [\#(n), 2], "meta": {"v": \#(n)}, "when": "2024-02-\#(10 + n % 18)"}"#)
            case 1:
                texts.append(#"{"id": "\#(n)", "name": \#(n), "score": "\#(n)", "flag": "yes", "child": {"id": "c\#(n)"}, "list": ["a\#(n)", "b"], "meta": {"v": "m\#(n)"}, "when": "\#(n)"}"#)
            case 2:
                texts.append(#"{"id": \#(n), "name": \#(s), "score": 1e3, "flag": false, "list": [], "meta": {"v": -\#(n)}}"#)
            case 3:
                texts.append(#"{"id": "x", "score": "s", "list": ["only"], "meta": {"v": "only"}, "name": null}"#)
            case 4:  // Strict: the score is a string; Loose: the id is a number.
                texts.append(#"{"id": \#(n), "name": \#(s), "score": "high", "flag": true, "list": [1], "meta": {"v": 1}}"#)
            case 5:  // Both: a nested entity of the wrong shape.
                texts.append(#"{"id": "\#(n)", "name": \#(s), "score": 2.5, "flag": true, "child": {"id": true, "name": 3}, "list": [1], "meta": {"v": 1}}"#)
            case 6:  // An array element of the wrong type for each.
                texts.append(#"{"id": \#(n), "name": \#(s), "score": 2, "flag": true, "list": [1, "two", 3], "meta": {"v": 1}}"#)
            case 7:  // The decoder's key has the other type.
                texts.append(#"{"id": "\#(n)", "name": 4, "score": "2", "flag": true, "list": ["z"], "meta": {"v": \#(n)}}"#)
            case 8:  // Required keys missing.
                texts.append(#"{"name": \#(s), "list": [], "meta": {}}"#)
            case 9:  // Dates and integers in strings that do not parse.
                texts.append(#"{"id": \#(n), "name": \#(s), "score": 0, "flag": true, "list": [], "meta": {"v": 0}, "when": "2024-13-01"}"#)
            case 10:
                texts.append(#"{"id": "\#(n)", "score": "0", "list": [], "meta": {"v": "0"}, "when": "12x"}"#)
            default:  // Everything wrong at once, nested failures included.
                texts.append(#"{"id": null, "name": [], "score": {}, "flag": 1, "child": {"id": [], "name": "n"}, "list": [{}, null], "meta": {"v": null}, "when": 5}"#)
            }
        }
        return texts
    }

    /// The ways a document reaches ``Strict`` or ``Loose``: whole-document calls, a view shared by
    /// every thread, Foundation values, and arrays decoded by one thread or by several.
    private enum Route: CaseIterable {
        case decodeObject, sharedView, foundation, array, parallelArray
    }

    private static func decode(_ route: Route, text: String, view: JSONValue, arrayData: Data, strict: Bool, workers: Int)
        -> String
    {
        switch (route, strict) {
        case (.decodeObject, true): return outcome { try Elevate.decodeObject(from: Data(text.utf8)) as Strict }
        case (.decodeObject, false): return outcome { try Elevate.decodeObject(from: Data(text.utf8)) as Loose }
        case (.sharedView, true): return outcome { try Strict(json: view) }
        case (.sharedView, false): return outcome { try Loose(json: view) }
        case (.foundation, true): return outcome { try Strict(json: view.foundationValue) }
        case (.foundation, false): return outcome { try Loose(json: view.foundationValue) }
        case (.array, true):
            return outcome { try Elevate.decodeArray(from: .data(arrayData), atKeyPath: "items", as: Strict.self) }
        case (.array, false):
            return outcome { try Elevate.decodeArray(from: .data(arrayData), atKeyPath: "items", as: Loose.self) }
        case (.parallelArray, true):
            return outcome {
                try Elevate.decodeArray(
                    from: .data(arrayData), atKeyPath: "items", as: Strict.self, options: options(workers))
            }
        case (.parallelArray, false):
            return outcome {
                try Elevate.decodeArray(
                    from: .data(arrayData), atKeyPath: "items", as: Loose.self, options: options(workers))
            }
        }
    }

    /// ``Strict`` and ``Loose`` (same key names, other types, the same decoder type with other
    /// schemas) decoded interleaved on many threads, by every route, valid and invalid: each
    /// result and each error (its text, paths and types) is the one a single thread got.
    @Test func sameKeyNamesWithOtherTypesNeverMixAcrossThreads() throws {
        let texts = Self.entityTexts(seed: 7)
        let views = try texts.map { try JSONValue(parsing: $0) }
        // Arrays of several entities each, long enough for a parallel call to use its workers.
        let arrays = (0..<texts.count).map { first in
            let elements = (0..<150).map { texts[(first + $0 * ($0 % 3 == 0 ? 1 : 12)) % texts.count] }
            return Data(#"{"items": [\#(elements.joined(separator: ","))]}"#.utf8)
        }
        // The reference: every combination on this thread alone.
        var expected: [String: String] = [:]
        for index in texts.indices {
            for route in Route.allCases {
                for strict in [true, false] {
                    expected["\(index) \(route) \(strict)"] = Self.decode(
                        route, text: texts[index], view: views[index], arrayData: arrays[index], strict: strict, workers: 1)
                }
            }
        }
        // Valid and invalid ones in both types, so every kind of outcome is compared.
        let outcomes = expected.values
        #expect(outcomes.contains { $0.hasPrefix("returned Strict") })
        #expect(outcomes.contains { $0.hasPrefix("returned Loose") })
        #expect(outcomes.contains { $0.contains("child.id") })
        #expect(outcomes.contains { $0.contains("list[1]") })
        let reference = expected
        let mismatches = Mismatches()
        Self.hammer(threads: 8, iterations: 30) { thread, iteration in
            var random = SeededGenerator(state: UInt64(thread * 1_000 + iteration))
            let index = Int(random.next() % UInt64(texts.count))
            let route = Route.allCases[Int(random.next() % UInt64(Route.allCases.count))]
            // Alternate the types on each thread, so its plans and pooled schemas see both.
            let strict = (iteration + thread) % 2 == 0
            let workers = 2 + Int(random.next() % 3)
            let got = Self.decode(
                route, text: texts[index], view: views[index], arrayData: arrays[index], strict: strict,
                workers: route == .parallelArray ? workers : 1)
            mismatches.check(got, reference["\(index) \(route) \(strict)"]!, "\(index) \(route) \(strict) \(workers)")
        }
        #expect(mismatches.report.isEmpty, "\(mismatches.report.joined(separator: "\n"))")
        #expect(mismatches.count == 8 * 30)
    }

    // MARK: Several schemas under one identity

    /// Reads `{"v": …, "next": {…}}` chains: `v` as a number or a string by instance, and the next
    /// level with another instance of the same type that reads the other: one decoder type whose
    /// schema changes at every nesting level.
    private struct ChainDecoder: Elevate.Decoder, Sendable, CustomStringConvertible {
        let readsNumbers: Bool
        func decode(_ object: Any) throws -> Any {
            let entity = try Parser.parseEntity(json: object) { schema in
                schema.addProperty(keyPath: "v", type: readsNumbers ? .int : .string)
                schema.addProperty(
                    keyPath: "next", type: .dictionary, optional: true, decoder: ChainDecoder(readsNumbers: !readsNumbers))
            }
            let rest = (entity["next"] as? String).map { ">" + $0 } ?? ""
            return "\(entity["v"]!)" + rest
        }
        var description: String { "ChainDecoder(\(readsNumbers ? "numbers" : "strings"))" }
    }

    /// A type that reads its `kind` with one schema, then the rest with a schema that depends on
    /// it (`size` a number for a circle, a string for a label): two schemas for one type.
    private struct Shape: Elevate.Decodable, Equatable {
        let kind: String
        let size: String
        let chain: String?
        init(json: Any) throws {
            kind = try Parser.parseEntity(json: json) { $0.addProperty(keyPath: "kind", type: .string) } <-! "kind"
            let isCircle = kind == "circle"
            let entity = try Parser.parseEntity(json: json) { schema in
                schema.addProperty(keyPath: "kind", type: .string)
                schema.addProperty(keyPath: "size", type: isCircle ? .double : .string)
                schema.addProperty(
                    keyPath: "chain", type: .dictionary, optional: true, decoder: ChainDecoder(readsNumbers: isCircle))
            }
            size = isCircle ? "\(entity["size"] as! Double)" : entity["size"] as! String
            chain = entity["chain"] as? String
        }
    }

    private static let shapeTexts: [String] = [
        #"{"kind": "circle", "size": 2.5, "chain": {"v": 1, "next": {"v": "a", "next": {"v": 2}}}}"#,
        #"{"kind": "label", "size": "big", "chain": {"v": "x", "next": {"v": 7}}}"#,
        #"{"kind": "circle", "size": "big"}"#,
        #"{"kind": "label", "size": 3}"#,
        #"{"kind": "circle", "size": 1, "chain": {"v": 1, "next": {"v": 2}}}"#,
        #"{"kind": "label", "size": "s", "chain": {"v": "x", "next": {"v": "y", "next": {"v": "z"}}}}"#,
        #"{"kind": 5}"#,
        #"{"kind": "label", "size": "m"}"#,
    ]

    /// ``Shape`` and ``ChainDecoder`` (one type, one decoder type, several schemas each, nested
    /// within one another) decoded on many threads, one at a time and in parallel arrays: each
    /// result and error is the single-threaded one.
    @Test func severalSchemasUnderOneTypeAcrossThreads() throws {
        let texts = Self.shapeTexts
        let arrays = texts.indices.map { first in
            Data("[\((0..<130).map { texts[(first + $0 * 3) % texts.count] }.joined(separator: ","))]".utf8)
        }
        // The chains alone, read from numbers or from strings by index, and arrays of them.
        let chains = texts.map { text in
            ((try? JSONValue(parsing: text))?["chain"]?.description ?? "{}")
        }
        let chainArrays = texts.indices.map { first in
            Data("[\((0..<130).map { chains[(first + $0 * 3) % chains.count] }.joined(separator: ","))]".utf8)
        }
        @Sendable func run(_ index: Int, _ way: Int, workers: Int) -> String {
            switch way {
            case 0: return Self.outcome { try Elevate.decodeObject(from: Data(texts[index].utf8)) as Shape }
            case 1: return Self.outcome { try Elevate.decodeArray(from: .data(arrays[index]), as: Shape.self, options: Self.options(workers)) }
            case 2:
                return Self.outcome {
                    try Elevate.decodeObject(from: Data(chains[index].utf8), with: ChainDecoder(readsNumbers: index % 2 == 0)) as String
                }
            default:
                return Self.outcome {
                    try Elevate.decodeArray(
                        from: .data(chainArrays[index]), with: ChainDecoder(readsNumbers: true), as: String.self,
                        options: Self.options(workers))
                }
            }
        }
        var expected: [String: String] = [:]
        for index in texts.indices {
            for way in 0..<4 { expected["\(index) \(way)"] = run(index, way, workers: 1) }
        }
        #expect(expected["0 0"] == #"returned Shape(kind: "circle", size: "2.5", chain: Optional("1>a>2"))"#)
        #expect(expected["4 0"]!.contains("chain.next.v"))
        let reference = expected
        let mismatches = Mismatches()
        Self.hammer(threads: 8, iterations: 24) { thread, iteration in
            let index = (thread * 5 + iteration) % texts.count
            let way = (thread + iteration / 2) % 4
            let workers = way % 2 == 1 ? 1 + (thread + iteration) % 4 : 1
            mismatches.check(run(index, way, workers: workers), reference["\(index) \(way)"]!, "\(index) \(way) \(workers)")
        }
        #expect(mismatches.report.isEmpty, "\(mismatches.report.joined(separator: "\n"))")
        #expect(mismatches.count == 8 * 24)
    }

    // MARK: One document read everywhere

    /// A document with every kind of value: inline and arena strings, escapes, non-ASCII, every
    /// number representation, nested containers, duplicate keys.
    private static func richDocument(seed: UInt64, count: Int) -> String {
        var random = SeededGenerator(state: seed)
        let numbers = ["0", "-1", "72057594037927935", "9223372036854775807", "18446744073709551615",
                       "1.5", "0.1", "-2.5e-3", "1e308", "123456789012345678901234567890", "3.0"]
        let strings = [#""""#, #""short""#, #""a longer string on the arena""#, #""caf\u00e9 \ud83d\ude00""#,
                       #""tab\tquote\"slash\/""#, #""日本語のテキスト""#]
        var items: [String] = []
        for index in 0..<count {
            let number = numbers[Int(random.next() % UInt64(numbers.count))]
            let string = strings[Int(random.next() % UInt64(strings.count))]
            items.append(#"""
                {"id": \#(index), "n": \#(number), "s": \#(string), "b": \#(index % 2 == 0), "z": null,
                 "nested": {"k\#(index % 5)": [\#(number), \#(string), {"deep": [[], {}]}]},
                 "dup": 1, "dup": \#(string), "key with spaces and more than seven": \#(index)}
                """#)
        }
        return #"{"items": [\#(items.joined(separator: ","))], "meta": {"count": \#(count)}}"#
    }

    /// What a reader sees of a value, read every way the public API offers.
    private static func survey(_ value: JSONValue) -> String {
        var parts = [value.description, "\(value.kind)", "\(value.count)"]
        parts.append(canonical(value.foundationValue))
        for member in value.members {
            parts.append("\(member.key)=\(member.value.kind)/\(member.value.string ?? "")/\(member.value.int.map(String.init) ?? "")")
        }
        if let elements = value.elements {
            for element in elements.prefix(3) { parts.append(element.description) }
        }
        parts.append(value[keyPath: "nested.k0.2.deep"]?.description ?? "none")
        parts.append(value["dup"]?.description ?? "none")
        return parts.joined(separator: "|")
    }

    /// One parsed document, its members, elements, descriptions, Foundation and `JSON` forms,
    /// read from many threads and tasks at once: every reading is the single-threaded one.
    @Test func oneDocumentReadFromManyThreadsAndTasks() async throws {
        let document = try JSONValue(parsing: Self.richDocument(seed: 11, count: 60))
        let items = try #require(document["items"])
        let itemViews = Array(try #require(items.elements))
        let wholeDescription = document.description
        let wholeJSON = JSON(document)
        let references = itemViews.map(Self.survey)
        let referenceJSON = itemViews.map { JSON($0) }
        let mismatches = Mismatches()
        Self.hammer(threads: 8, iterations: 20) { thread, iteration in
            let index = (thread * 7 + iteration) % itemViews.count
            // Views of one tape handed to every thread; sub-views made on each.
            mismatches.check(Self.survey(itemViews[index]), references[index], "item \(index)")
            mismatches.check(Self.survey(document["items"]![index]!), references[index], "item \(index) again")
            mismatches.check("\(JSON(itemViews[index]) == referenceJSON[index])", "true", "item \(index) as JSON")
            if iteration % 10 == 0 {
                mismatches.check(document.description, wholeDescription, "whole description")
                mismatches.check("\(JSON(document) == wholeJSON)", "true", "whole JSON")
            }
        }
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<16 {
                group.addTask {
                    for step in 0..<10 {
                        let index = (task * 5 + step) % itemViews.count
                        mismatches.check(Self.survey(itemViews[index]), references[index], "task item \(index)")
                    }
                }
            }
        }
        #expect(mismatches.report.isEmpty, "\(mismatches.report.joined(separator: "\n"))")
        #expect(mismatches.count == 8 * 20 * 3 + 8 * 2 * 2 + 16 * 10)
    }

    // MARK: Shared Codable decoder and encoder

    private struct CodableStrict: Codable, Equatable {
        var userId: Int
        var displayName: String
        var createdAt: Date
        var tags: [Int]
    }

    /// The same (snake-case) keys as ``CodableStrict``, other types.
    private struct CodableLoose: Codable, Equatable {
        var userId: String
        var displayName: Int?
        var createdAt: String
        var tags: [String]
    }

    /// The same keys again, routed elsewhere by key paths.
    private struct CodableRouted: Codable, Equatable, JSONKeyPathDecodable {
        var userId: Int
        var displayName: String
        var tags: [Int]
        static var keyPaths: [String: String] { ["userId": "tags.0", "displayName": "created_at"] }
        static var defaults: [String: any Sendable] { ["tags": [Int]()] }
    }

    private static func formatter(_ format: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = format
        return formatter
    }

    private static func codableTexts(seed: UInt64) -> [String] {
        var random = SeededGenerator(state: seed)
        return (0..<10).map { index in
            let n = Int(random.next() % 1_000)
            switch index % 5 {
            case 0: return #"{"user_id": \#(n), "display_name": "u\#(n)", "created_at": "2021-03-0\#(1 + n % 9)T10:20:30", "tags": [\#(n), 1]}"#
            case 1: return #"{"user_id": "\#(n)", "display_name": \#(n), "created_at": "late", "tags": ["\#(n)", "x"]}"#
            case 2: return #"{"user_id": \#(n), "display_name": "u\#(n)", "created_at": "2021-13-01T10:20:30", "tags": [1]}"#
            case 3: return #"{"user_id": \#(n), "display_name": null, "created_at": "2021-03-01T10:20:30", "tags": [1, "two"]}"#
            default: return #"{"display_name": "d", "tags": ["\#(n)"], "created_at": "c\#(n)"}"#
            }
        }
    }

    /// One `ElevateJSONDecoder` and one `ElevateJSONEncoder` shared by every thread, decoding and
    /// encoding types with the same keys and other types (valid and not), element streams with
    /// workers included, while another thread keeps setting the decoder's strategies to the
    /// values they already have: every result is the single-threaded one.
    @Test func sharedCodableDecoderAndEncoder() async throws {
        let decoder = ElevateJSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .formatted(Self.formatter("yyyy-MM-dd'T'HH:mm:ss"))
        // ICU-parsed dates (no fast path for this format): one DateFormatter used by every thread.
        let icuDecoder = ElevateJSONDecoder()
        icuDecoder.keyDecodingStrategy = .convertFromSnakeCase
        icuDecoder.dateDecodingStrategy = .formatted(Self.formatter("yyyy-MM-dd'T'HH:mm:ss zzz"))
        let encoder = ElevateJSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .formatted(Self.formatter("yyyy-MM-dd HH:mm"))
        let texts = Self.codableTexts(seed: 3)
        let icuTexts = texts.map { $0.replacingOccurrences(of: "T10:20:30\"", with: "T10:20:30 GMT\"") }
        let views = try texts.map { try JSONValue(parsing: $0) }
        let stream = Data(#"{"items": [\#((0..<200).map { texts[$0 % texts.count] }.joined(separator: ","))]}"#.utf8)

        @Sendable func run(_ kind: Int, _ index: Int, workers: Int) -> String {
            let data = Data(texts[index].utf8)
            switch kind {
            case 0: return Self.outcome { try decoder.decode(CodableStrict.self, from: data) }
            case 1: return Self.outcome { try decoder.decode(CodableLoose.self, from: views[index]) }
            case 2: return Self.outcome { try decoder.decode(CodableRouted.self, from: data) }
            case 3: return Self.outcome { try icuDecoder.decode(CodableStrict.self, from: Data(icuTexts[index].utf8)) }
            case 4:
                return Self.outcome { () -> String in
                    let value = try decoder.decode(CodableStrict.self, from: data)
                    return String(decoding: try encoder.encode(value), as: UTF8.self)
                }
            case 5:
                return Self.outcome { () -> String in
                    let value = try decoder.decode(CodableLoose.self, from: data)
                    return String(decoding: try encoder.encode([value, value]), as: UTF8.self)
                }
            default:
                // Whole streams, by one thread or by workers, skipping the elements that fail.
                return Self.outcome { () -> [String] in
                    var got: [String] = []
                    let type: any Swift.Decodable.Type = [CodableStrict.self, CodableLoose.self, CodableRouted.self][index % 3]
                    func each<T: Swift.Decodable>(_: T.Type) throws -> Int {
                        try Elevate.forEachElement(
                            from: .data(stream), atKeyPath: "items", as: T.self, decoder: decoder,
                            options: Self.options(workers, skipping: true)
                        ) { got.append("\($0)") }
                    }
                    let count = try each(type)
                    return got + ["\(count)"]
                }
            }
        }

        let kinds = 7
        var expected: [String: String] = [:]
        for kind in 0..<kinds {
            for index in texts.indices { expected["\(kind) \(index)"] = run(kind, index, workers: 1) }
        }
        #expect(expected.values.contains { $0.hasPrefix("returned CodableStrict") })
        #expect(expected.values.contains { $0.hasPrefix("returned CodableLoose") })
        #expect(expected.values.contains { $0.hasPrefix("returned CodableRouted") })
        #expect(expected.values.contains { $0.contains("typeMismatch") || $0.contains("Expected") })
        let reference = expected
        let mismatches = Mismatches()
        let stop = ManagedFlag()
        // Setting a strategy to the value it has changes no result, but races any unguarded read.
        let setter = Thread {
            while !stop.isSet {
                decoder.keyDecodingStrategy = .convertFromSnakeCase
                encoder.outputFormatting = [.sortedKeys]
                _ = decoder.dateDecodingStrategy
                _ = encoder.keyEncodingStrategy
            }
        }
        setter.start()
        Self.hammer(threads: 6, iterations: 20) { thread, iteration in
            let kind = (thread + iteration) % kinds
            let index = (thread * 3 + iteration) % texts.count
            let workers = kind == kinds - 1 ? [1, 2, 3, 4][(thread + iteration) % 4] : 1
            mismatches.check(run(kind, index, workers: workers), reference["\(kind) \(index)"]!, "\(kind) \(index) \(workers)")
        }
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for step in 0..<10 {
                        let kind = (task + step) % (kinds - 1)
                        let index = (task + step * 3) % texts.count
                        mismatches.check(run(kind, index, workers: 1), reference["\(kind) \(index)"]!, "task \(kind) \(index)")
                    }
                }
            }
        }
        stop.set()
        #expect(mismatches.report.isEmpty, "\(mismatches.report.joined(separator: "\n"))")
        #expect(mismatches.count == 6 * 20 + 8 * 10)
    }

    // MARK: Shared Elevate decoders

    /// `DateDecoder`s (the ICU-free path, the pooled formatters of many formats, one formatter
    /// of the caller's) and a `StringToIntDecoder`, each one instance used by every thread,
    /// directly, inside schemas, and as the decoder of parallel arrays.
    @Test func sharedDateAndIntegerDecoders() throws {
        // `DateDecoder` is documented as safe to share but not declared `Sendable`: boxed.
        let shared = Unchecked((
            day: DateDecoder(dateFormatString: "yyyy-MM-dd"),
            // Not numeric: parsed by pooled DateFormatters; more formats than the pool keeps, so
            // the pool is emptied and refilled while other threads borrow from it.
            named: (0..<40).map { DateDecoder(dateFormatString: "dd MMM yyyy '#\($0)'") },
            custom: DateDecoder(dateFormatter: Self.formatter("HH:mm dd/MM/yyyy")),
            inputs: ["2024-02-29", "2023-02-29", "1500-01-01", "05 Mar 2021", "10:20 05/03/2021", "42", "-7", "x", 5]
                as [Any]))
        let integer = StringToIntDecoder()
        let inputs = shared.value.inputs
        let dayArray = Data(#"{"d": [\#((0..<300).map { #""2024-01-\#(String(format: "%02d", 1 + $0 % 28))""# }.joined(separator: ","))]}"#.utf8)

        @Sendable func run(_ step: Int) -> String {
            let (day, named, custom, inputs) = shared.value
            let input = inputs[step % inputs.count]
            switch step % 6 {
            case 0: return Self.outcome { try day.decode(input) }
            case 1:
                let decoder = named[step % named.count]
                let text = (input as? String).map { "\($0) #\(step % named.count)" } ?? input
                return Self.outcome { try decoder.decode(text) }
            case 2: return Self.outcome { try custom.decode(input) }
            case 3: return Self.outcome { try integer.decode(input) }
            case 4:
                return Self.outcome {
                    Self.canonical(
                        try Parser.parseEntity(json: ["when": input, "count": input]) { schema in
                            schema.addProperty(keyPath: "when", type: .string, decoder: day)
                            schema.addProperty(keyPath: "count", type: .string, decoder: integer)
                        })
                }
            default:
                return Self.outcome {
                    try Elevate.decodeArray(
                        from: .data(dayArray), atKeyPath: "d", with: day, as: Date.self,
                        options: Self.options(1 + step % 4)
                    ).map(\.timeIntervalSince1970)
                }
            }
        }

        let steps = 6 * inputs.count * 2
        let reference = (0..<steps).map(run)
        #expect(reference.contains { $0.hasPrefix("returned 20") })
        #expect(reference.contains { $0.contains("could not be parsed") })
        let mismatches = Mismatches()
        Self.hammer(threads: 8, iterations: 24) { thread, iteration in
            let step = (thread * 13 + iteration * 5) % steps
            mismatches.check(run(step), reference[step], "step \(step)")
        }
        #expect(mismatches.report.isEmpty, "\(mismatches.report.joined(separator: "\n"))")
    }

    // MARK: Parallel and sequential arrays at once

    /// Parallel `decodeArray` calls (2 to 4 workers) and sequential ones, of different types on
    /// different documents, some with failing elements, skipping or not, all at once from tasks
    /// and threads: each gets its own elements and its own failures.
    @Test func parallelAndSequentialArraysAtOnce() async throws {
        typealias Item = TaggedItem
        func document(call: Int) -> Data {
            let elements = (0..<400).map { index -> String in
                let id = call * 10_000 + index
                if (index + call) % 97 == 0 { return #"{"id": "bad\#(id)", "tags": [1]}"# }
                return #"{"id": \#(id), "tags": ["t\#(id)", "u"]}"#
            }
            return Data(#"{"items": [\#(elements.joined(separator: ","))]}"#.utf8)
        }
        let calls = 8
        let documents = (0..<calls).map(document)
        let strictTexts = Self.entityTexts(seed: 5)
        let mixed = Data(#"{"items": [\#((0..<240).map { strictTexts[$0 % strictTexts.count] }.joined(separator: ","))]}"#.utf8)

        @Sendable func run(_ call: Int, workers: Int, skipping: Bool) -> String {
            if call % 4 == 3 {
                return Self.outcome {
                    try Elevate.decodeArray(
                        from: .data(mixed), atKeyPath: "items", as: Strict.self,
                        options: Self.options(workers, skipping: skipping)
                    ).map(\.id)
                }
            }
            return Self.outcome {
                try Elevate.decodeArray(
                    from: .data(documents[call]), atKeyPath: "items", as: Item.self,
                    options: Self.options(workers, skipping: skipping))
            }
        }
        @Sendable func runLoose(workers: Int) -> String {
            Self.outcome {
                try Elevate.decodeArray(from: .data(mixed), atKeyPath: "items", as: Loose.self, options: Self.options(workers, skipping: true))
                    .map(\.id)
            }
        }

        var expected: [String: String] = [:]
        for call in 0..<calls {
            for skipping in [false, true] { expected["\(call) \(skipping)"] = run(call, workers: 1, skipping: skipping) }
        }
        expected["loose"] = runLoose(workers: 1)
        #expect(expected["0 false"]!.hasPrefix("threw"))
        #expect(expected["1 false"]!.hasPrefix("threw"))
        let reference = expected
        let mismatches = Mismatches()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<calls {
                group.addTask {
                    for round in 0..<2 {
                        let skipping = (task + round) % 2 == 0
                        let workers = round == 1 ? 1 : 2 + (task + round) % 3
                        mismatches.check(
                            run(task, workers: workers, skipping: skipping), reference["\(task) \(skipping)"]!,
                            "task \(task) round \(round) workers \(workers)")
                    }
                }
            }
            // Meanwhile, bare threads decoding the other type of the same elements.
            group.addTask {
                Self.hammer(threads: 4, iterations: 3) { thread, iteration in
                    let workers = 1 + (thread + iteration) % 4
                    mismatches.check(runLoose(workers: workers), reference["loose"]!, "loose \(workers)")
                }
            }
            try await group.waitForAll()
        }
        #expect(mismatches.report.isEmpty, "\(mismatches.report.joined(separator: "\n"))")
        #expect(mismatches.count == calls * 2 + 4 * 3)
    }

    // MARK: JSON Lines and other streams at once

    /// JSON Lines and concatenated-value readers, and asynchronous chunked streams, each with
    /// one thread or several workers, all at once on different inputs and types: each sees
    /// its own values, in order, and its own first error or skipped values.
    @Test func valueStreamsAtOnce() async throws {
        let strictTexts = Self.entityTexts(seed: 9)
        func lines(_ reader: Int) -> Data {
            let values = (0..<300).map { index -> String in
                if (index + reader) % 61 == 0 { return #"{"item": {"id": "x\#(index)", "tags": [1]}}"# }
                if reader % 3 == 2 { return #"{"item": \#(strictTexts[index % strictTexts.count])}"# }
                return #"{"item": {"id": \#(reader * 1_000 + index), "tags": ["t\#(index)"]}}"#
            }
            return Data(values.joined(separator: reader % 2 == 0 ? "\n" : " ").utf8)
        }
        let readers = 6
        let inputs = (0..<readers).map(lines)

        @Sendable func read(_ reader: Int, workers: Int, skipping: Bool) -> String {
            let framing: JSONFraming = reader % 2 == 0 ? .jsonLines : .concatenated
            var got: [String] = []
            let result = Self.outcome { () -> Int in
                if reader % 3 == 2 {
                    return try Elevate.forEachValue(
                        from: .data(inputs[reader]), framing: framing, atKeyPath: "item", as: Loose.self,
                        options: Self.options(workers, skipping: skipping)
                    ) { got.append($0.id) }
                }
                return try Elevate.forEachValue(
                    from: .data(inputs[reader]), framing: framing, atKeyPath: "item", as: TaggedItem.self,
                    options: Self.options(workers, skipping: skipping)
                ) { got.append("\($0.id)") }
            }
            return result + " " + got.joined(separator: ",")
        }
        @Sendable func chunked(_ reader: Int, workers: Int) async -> String {
            let data = Data(#"{"items": [\#((0..<250).map { strictTexts[($0 + reader) % strictTexts.count] }.joined(separator: ","))]}"#.utf8)
            let chunks = AsyncStream<[UInt8]> { continuation in
                var offset = 0
                while offset < data.count {
                    let end = min(offset + 1_000 + reader * 37, data.count)
                    continuation.yield(Array(data[offset..<end]))
                    offset = end
                }
                continuation.finish()
            }
            do {
                let decoded = try await chunks.decodeArray(
                    atKeyPath: "items", as: Strict.self, options: Self.options(workers, skipping: true))
                return "returned \(decoded.map(\.id))"
            } catch {
                return "threw \(error)"
            }
        }

        var expected: [String: String] = [:]
        for reader in 0..<readers {
            for skipping in [false, true] { expected["\(reader) \(skipping)"] = read(reader, workers: 1, skipping: skipping) }
            expected["chunked \(reader)"] = await chunked(reader, workers: 1)
        }
        #expect(expected.values.contains { $0.hasPrefix("threw") })
        let reference = expected
        let mismatches = Mismatches()
        await withTaskGroup(of: Void.self) { group in
            for reader in 0..<readers {
                group.addTask {
                    for round in 0..<3 {
                        let skipping = (reader + round) % 2 == 1
                        let workers = round == 0 ? 1 : 1 + round + reader % 2
                        mismatches.check(
                            read(reader, workers: workers, skipping: skipping), reference["\(reader) \(skipping)"]!,
                            "reader \(reader) round \(round) workers \(workers)")
                    }
                }
                group.addTask {
                    for workers in [2, 1, 3] {
                        mismatches.check(
                            await chunked(reader, workers: workers), reference["chunked \(reader)"]!,
                            "chunked \(reader) workers \(workers)")
                    }
                }
            }
            group.addTask {
                Self.hammer(threads: 4, iterations: 2) { thread, iteration in
                    let reader = (thread + iteration) % readers
                    mismatches.check(
                        read(reader, workers: 2 + thread % 3, skipping: true), reference["\(reader) true"]!,
                        "thread reader \(reader)")
                }
            }
        }
        #expect(mismatches.report.isEmpty, "\(mismatches.report.joined(separator: "\n"))")
        #expect(mismatches.count == readers * 6 + 4 * 2)
    }
}
