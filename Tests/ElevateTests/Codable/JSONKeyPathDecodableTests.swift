import Elevate
import ElevateBenchmarkKit
import Foundation
import ElevateTestSupport
import Testing

/// A model whose JSON is shaped differently from the struct (the ``JSONKeyPathDecodable`` example).
struct Tree: Codable, Hashable, JSONKeyPathDecodable {
    var name: String
    var age: Int
    var planted: Date
    var leaves: [String]
    var isProtected: Bool
    var nickname: String?

    static let keyPaths = [
        "name": "tree_names.colloquial.0",
        "age": "stats.age_years",
        "planted": "stats.planted",
        "nickname": "names.nick",
    ]
    static let defaults: [String: any Sendable] = ["leaves": [String](), "isProtected": false, "nickname": "none"]
}

struct Forest: Codable, Hashable {
    var trees: [Tree]
}

struct WrongDefault: Codable, JSONKeyPathDecodable {
    var count: Double
    static let defaults: [String: any Sendable] = ["count": 0]
}

@Suite("ElevateJSONDecoder: key paths, defaults, positions, files, corpora")
struct JSONKeyPathDecodableTests {
    static let treeJSON = #"""
        {"tree_names": {"colloquial": ["oak", "quercus"]},
         "stats": {"age_years": 120, "planted": "1904-05-01"},
         "leaves": null}
        """#

    func dateDecoder() -> ElevateJSONDecoder {
        let decoder = ElevateJSONDecoder()
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        decoder.dateDecodingStrategy = .formatted(formatter)
        return decoder
    }

    @Test func keyPathsAndDefaults() throws {
        let tree = try dateDecoder().decode(Tree.self, from: Data(Self.treeJSON.utf8))
        #expect(tree.name == "oak")
        #expect(tree.age == 120)
        #expect(tree.planted == Date(timeIntervalSince1970: -2_072_390_400))  // 1904-05-01 UTC
        #expect(tree.leaves == [])
        #expect(tree.isProtected == false)
        #expect(tree.nickname == "none")
    }

    @Test func keyPathsInsideArraysAndErrorsNameTheProperty() throws {
        let json = #"{"trees":[\#(Self.treeJSON),{"tree_names":{"colloquial":[]},"stats":{"age_years":1,"planted":"2000-01-01"}}]}"#
        #expect {
            try dateDecoder().decode(Forest.self, from: Data(json.utf8))
        } throws: { error in
            guard case DecodingError.keyNotFound(let key, let context) = error else { return false }
            return key.stringValue == "name" && context.codingPath.map(\.stringValue) == ["trees", "Index 1"]
                && context.debugDescription.contains("tree_names.colloquial.0")
        }
    }

    @Test func defaultOfTheWrongTypeIsATypeMismatch() {
        #expect(throws: DecodingError.self) { try ElevateJSONDecoder().decode(WrongDefault.self, from: Data("{}".utf8)) }
    }

    @Test func foundationIgnoresTheDeclarations() {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Tree.self, from: Data(Self.treeJSON.utf8)) }
    }

    @Test func decodingAtAKeyPath() throws {
        let data = Data(#"{"response":{"items":[{"a":1},{"a":2}],"a":{"b":{"c":[5]}}},"x":[0,[7]],"x.1":"literal"}"#.utf8)
        struct Item: Swift.Decodable, Equatable { var a: Int }
        let decoder = ElevateJSONDecoder()
        #expect(try decoder.decode([Item].self, from: data, atKeyPath: "response.items") == [Item(a: 1), Item(a: 2)])
        #expect(try decoder.decode(Int.self, from: data, atKeyPath: "x.1.0") == 7)
        #expect(try decoder.decode(String.self, from: data, atKeyPath: "x.1") == "literal")
        #expect(try decoder.decode(Item.self, from: data, atKeyPath: "response.items.1") == Item(a: 2))
        #expect {
            try decoder.decode([Item].self, from: data, atKeyPath: "response.missing")
        } throws: { error in
            guard case DecodingError.keyNotFound(let key, let context) = error else { return false }
            return key.stringValue == "missing" && context.codingPath.map(\.stringValue) == ["response"]
        }
        #expect {
            try decoder.decode([String].self, from: data, atKeyPath: "response.items")
        } throws: { error in
            guard case DecodingError.typeMismatch(_, let context) = error else { return false }
            return context.codingPath.map(\.stringValue) == ["response", "items", "Index 0"]
        }
        let value = try JSONValue(parsing: data)
        #expect(try decoder.decode([Int].self, from: value, atKeyPath: "response.a.b.c") == [5])
    }

    @Test func errorsCarryLineColumnAndByteOffset() {
        let json = "{\n  \"name\": \"A\",\n  \"pages\": \"ten\"\n}"
        struct Page: Swift.Decodable { var name: String; var pages: Int }
        #expect {
            try ElevateJSONDecoder().decode(Page.self, from: Data(json.utf8))
        } throws: { error in
            guard case DecodingError.typeMismatch(_, let context) = error else { return false }
            return context.debugDescription.contains("line 3, column 17, byte offset 33")
        }
        #expect {
            try ElevateJSONDecoder().decode(Page.self, from: Data("{\"name\": [1, 2}".utf8))
        } throws: { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return false }
            return context.underlyingError is JSONSyntaxError && context.codingPath.isEmpty
        }
    }

    @Test func decodingAFile() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("codable-\(UUID().uuidString).json")
        try Data(#"{"response":{"items":[1,2,"x"]}}"#.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect {
            try ElevateJSONDecoder().decode([Int].self, from: .file(url), atKeyPath: "response.items")
        } throws: { error in
            guard case DecodingError.typeMismatch(_, let context) = error else { return false }
            return context.codingPath.map(\.stringValue) == ["response", "items", "Index 2"]
                && context.debugDescription.contains("byte offset 29")
        }
        #expect(throws: CocoaError.self) {
            try ElevateJSONDecoder().decode([Int].self, from: .file(url.appendingPathExtension("missing")))
        }
    }

    /// Rewrites the file it is given through `userInfo`, then fails on its second element: the error's
    /// position must come from the bytes that were decoded, not from reading the file again.
    struct RewritesTheFile: Swift.Decodable {
        static let key = CodingUserInfoKey(rawValue: "rewrittenFile")!
        init(from decoder: any Swift.Decoder) throws {
            let url = decoder.userInfo[Self.key] as! URL
            // Another document, with the failing value elsewhere (and a first line of other length).
            try Data("[\n\n\n        1]".utf8).write(to: url)
            var list = try decoder.unkeyedContainer()
            _ = try list.decode(Int.self)
            _ = try list.decode(Int.self)
        }
    }

    @Test func aFailingFileDecodeGivesNoPositionFromAFileThatChanged() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("codable-\(UUID().uuidString).json")
        try Data("[1,\n  \"two\"]".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let decoder = ElevateJSONDecoder()
        decoder.userInfo = [RewritesTheFile.key: url]
        #expect {
            try decoder.decode(RewritesTheFile.self, from: .file(url))
        } throws: { error in
            guard case DecodingError.typeMismatch(_, let context) = error else { return false }
            // The file now holds other bytes: a position read from them would point elsewhere.
            return context.codingPath.map(\.stringValue) == ["Index 1"]
                && !context.debugDescription.contains("(at line")
        }
    }

    /// Puts a named pipe where the file was (a rotated log, a path reused by another tool), then fails.
    struct ReplacesTheFileWithAPipe: Swift.Decodable {
        static let key = CodingUserInfoKey(rawValue: "replacedByPipe")!
        init(from decoder: any Swift.Decoder) throws {
            let url = decoder.userInfo[Self.key] as! URL
            let fifo = url.path + ".fifo"
            precondition(mkfifo(fifo, 0o600) == 0 && rename(fifo, url.path) == 0)
            var list = try decoder.unkeyedContainer()
            _ = try list.decode(Int.self)
            _ = try list.decode(Int.self)
        }
    }

    /// The error path opens the file's path again for the position: a named pipe there now must
    /// give no position, not block. (`open` without `O_NONBLOCK` waits for a writer on a pipe,
    /// before the identity check could refuse it: the failing decode never returned.)
    @Test func aFailingFileDecodeDoesNotWaitOnAPipeThatReplacedTheFile() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("codable-\(UUID().uuidString).json")
        try Data("[1,\n  \"two\"]".utf8).write(to: url)
        defer {
            // Lets a reader stuck on the pipe go (a writer that opens and closes it), then removes it.
            let writer = open(url.path, O_WRONLY | O_NONBLOCK)
            if writer >= 0 { close(writer) }
            try? FileManager.default.removeItem(at: url)
        }
        let decoder = ElevateJSONDecoder()
        decoder.userInfo = [ReplacesTheFileWithAPipe.key: url]
        let outcome = resultWithin(seconds: 20) { () -> String in
            do {
                _ = try decoder.decode(ReplacesTheFileWithAPipe.self, from: .file(url))
                return "decoded"
            } catch DecodingError.typeMismatch(_, let context) {
                return "\(context.codingPath.map(\.stringValue)) \(context.debugDescription)"
            }
        }
        let text = try #require(outcome, "the failing decode did not return within 20 s").get()
        #expect(text.hasPrefix("[\"Index 1\"]") && !text.contains("(at line"), "\(text)")
    }

    /// A file of several read chunks, failing far from its start: the file is read again in chunks
    /// (never whole) for the position, which must be the one the same bytes give in memory.
    @Test(arguments: [10, 300_000])
    func aFailingDecodeOfAFileOfManyChunksGivesThePositionTheBytesGive(failingIndex: Int) throws {
        var text = "[\n"
        var failingLineStart = 0
        for index in 0..<400_000 {
            if index == failingIndex { failingLineStart = text.utf8.count }
            text += index == failingIndex ? "  \"seven\",\n" : "  \(index),\n"
        }
        text += "  0\n]"
        let data = Data(text.utf8)
        #expect(data.count > 3 << 20)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("codable-\(UUID().uuidString).json")
        try data.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        func failure(_ decode: () throws -> [Int]) -> String? {
            do {
                _ = try decode()
                return nil
            } catch DecodingError.typeMismatch(_, let context) {
                return context.debugDescription
            } catch {
                return "\(error)"
            }
        }
        let fromFile = failure { try ElevateJSONDecoder().decode([Int].self, from: .file(url)) }
        let fromData = failure { try ElevateJSONDecoder().decode([Int].self, from: data) }
        let line = failingIndex + 2
        // Just past the string's closing quote.
        let position = "(at line \(line), column 10, byte offset \(failingLineStart + 9))"
        #expect(fromData?.hasSuffix(position) == true, "\(fromData ?? "no error")")
        #expect(fromFile == fromData)
    }

    @Test func userInfoReachesInitFromDecoder() throws {
        struct Probe: Swift.Decodable {
            var seen: String
            init(from decoder: any Swift.Decoder) throws {
                seen = decoder.userInfo[CodingUserInfoKey(rawValue: "k")!] as? String ?? "none"
            }
        }
        let decoder = ElevateJSONDecoder()
        decoder.userInfo[CodingUserInfoKey(rawValue: "k")!] = "v"
        #expect(try decoder.decode(Probe.self, from: Data("{}".utf8)).seen == "v")
    }

    @Test(.enabled(if: SharedCorpus.hasNativeJSON, Comment(rawValue: SharedCorpus.missingMessage)))
    func twitterAsFoundationDecodesIt() throws {
        let data = try SharedCorpus.nativeJSONData("twitter.json")
        let foundation = JSONDecoder()
        foundation.keyDecodingStrategy = .convertFromSnakeCase
        let elevate = ElevateJSONDecoder()
        elevate.keyDecodingStrategy = .convertFromSnakeCase
        let expected = try foundation.decode(TwitterDocument.self, from: data)
        let actual = try elevate.decode(TwitterDocument.self, from: data)
        #expect(actual.statuses.count == 100)
        #expect(actual == expected)
    }

    @Test(.enabled(if: SharedCorpus.hasNativeJSON, Comment(rawValue: SharedCorpus.missingMessage)))
    func citmCatalogAsFoundationDecodesIt() throws {
        let data = try SharedCorpus.nativeJSONData("citm_catalog.json")
        let expected = try JSONDecoder().decode(CitmCatalog.self, from: data)
        let actual = try ElevateJSONDecoder().decode(CitmCatalog.self, from: data)
        #expect(actual.performances.count == expected.performances.count)
        #expect(actual == expected)
    }

    @Test func peopleDocumentAsFoundationDecodesIt() throws {
        let data = Data(#"{"response":{"count":2,"items":[{"identifier":1,"name":"A B","birthDate":"1980-02-29","addresses":[{"street":"s","city":"c"}]},{"identifier":2,"name":"C","nickname":"n","birthDate":"2001-12-31","isMember":true,"addresses":[]}]}}"#.utf8)
        let foundation = JSONDecoder()
        foundation.dateDecodingStrategy = CodablePersonWithDate.dateDecodingStrategy
        let elevate = ElevateJSONDecoder()
        elevate.dateDecodingStrategy = CodablePersonWithDate.elevateDateDecodingStrategy
        let expected = try foundation.decode(CodablePeopleResponse<CodablePersonWithDate>.self, from: data)
        let actual = try elevate.decode(CodablePeopleResponse<CodablePersonWithDate>.self, from: data)
        #expect(actual.response.items == expected.response.items)
    }
}

// A key-path property is decoded one coding level up from where its object sits in the document;
// the member-lookup hint it leaves must not steer the search of a sibling object at that level.
// `name` before `city`: the last key found in the address is then `city`, whose successor is a
// key of the address (`name`, or a key the struct does not read), which the sibling search must never start from.
private struct HintAddress: Codable, Equatable {
    var name: String?
    var city: String
}

private struct HintUser: Codable, Equatable {
    var nickname: String?
    var name: String?
}

private struct HintOrder: Codable, Equatable, JSONKeyPathDecodable {
    var address: HintAddress
    var user: HintUser
    static let keyPaths = ["address": "user.address"]
}

private struct HintStrictUser: Codable, Equatable {
    var nickname: String?
    var name: String
}

private struct HintStrictOrder: Codable, Equatable, JSONKeyPathDecodable {
    var address: HintAddress
    var user: HintStrictUser
    static let keyPaths = ["address": "user.address"]
}

/// `body`'s result, or nil when it has not returned within `seconds` (see ``runOnThread``).
private func resultWithin<T: Sendable>(
    seconds: Double, _ body: @escaping @Sendable () throws -> T
) -> Result<T, any Error>? {
    runOnThread(stackSize: 8 << 20, waitingAtMost: seconds) { Result { try body() } }
}

@Suite("ElevateJSONDecoder: key-lookup hints stay inside the object searched")
struct KeyLookupHintTests {
    @Test func keyPathValueDoesNotLendItsMembersToASibling() throws {
        let json = #"{"user": {"address": {"city": "Paris", "name": "Home"}}}"#
        let outcome = resultWithin(seconds: 20) {
            try ElevateJSONDecoder().decode(HintOrder.self, from: Data(json.utf8))
        }
        let order = try #require(outcome, "decoding did not return within 20 s").get()
        #expect(order.address == HintAddress(name: "Home", city: "Paris"))
        #expect(order.user == HintUser(nickname: nil, name: nil))
    }

    @Test func keyPathValueDoesNotHangTheSiblingsSearch() throws {
        let json = #"{"user": {"address": {"city": "Paris", "zip": "75001"}, "name": "bob"}}"#
        let outcome = resultWithin(seconds: 20) {
            try ElevateJSONDecoder().decode(HintStrictOrder.self, from: Data(json.utf8))
        }
        let order = try #require(outcome, "decoding did not return within 20 s").get()
        #expect(order.address == HintAddress(name: nil, city: "Paris"))
        #expect(order.user == HintStrictUser(nickname: nil, name: "bob"))
    }

    /// The lookups of converting key strategies keep their hints in the same slots.
    @Test(arguments: ["snake", "custom"])
    func keyStrategiesKeepHintsInsideTheObjectSearched(strategy: String) throws {
        let json = #"{"user": {"address": {"city": "Paris", "zip": "75001"}, "name": "bob"}}"#
        let outcome = resultWithin(seconds: 20) {
            let decoder = ElevateJSONDecoder()
            decoder.keyDecodingStrategy =
                strategy == "snake" ? .convertFromSnakeCase : .custom { path in path.last! }
            return try decoder.decode(HintStrictOrder.self, from: Data(json.utf8))
        }
        let order = try #require(outcome, "decoding did not return within 20 s").get()
        #expect(order.address == HintAddress(name: nil, city: "Paris"))
        #expect(order.user == HintStrictUser(nickname: nil, name: "bob"))
    }

    @Test func sameShapeThroughStreamingElements() throws {
        let json = #"[{"user": {"address": {"city": "Paris", "zip": "75001"}, "name": "bob"}}, {"user": {"address": {"city": "Lyon", "name": "Work", "zip": "69001"}, "name": "ann"}}]"#
        let outcome = resultWithin(seconds: 20) {
            try ElevateJSONDecoder().decode([HintStrictOrder].self, from: Data(json.utf8))
        }
        let orders = try #require(outcome, "decoding did not return within 20 s").get()
        #expect(orders.map(\.user.name) == ["bob", "ann"])
        #expect(orders.map(\.address.city) == ["Paris", "Lyon"])
        #expect(orders.map(\.address.name) == [nil, "Work"])
    }
}

// The same hints under the key strategies that convert keys (`.convertFromSnakeCase`, `.custom`),
// which look members up by converted name on a path of their own: its hint was checked only to lie
// inside the object searched, so the address's last key steered the user's search into the address.
private struct ConvertedHintAddress: Codable, Equatable {
    var city: String
}

private struct ConvertedHintUser: Codable, Equatable {
    var name: String?
}

private struct ConvertedHintOrder: Codable, Equatable, JSONKeyPathDecodable {
    var address: ConvertedHintAddress
    var user: ConvertedHintUser
    static let keyPaths = ["address": "user.address"]
}

/// The key-path value is an array element: the hint's successor is then the next element, a number.
private struct ConvertedHintElementOrder: Codable, Equatable, JSONKeyPathDecodable {
    var address: ConvertedHintAddress
    var user: ConvertedHintUser
    static let keyPaths = ["address": "user.items.0"]
}

@Suite("ElevateJSONDecoder: key-lookup hints under converting key strategies")
struct ConvertedKeyLookupHintTests {
    static func decoder(_ strategy: String) -> ElevateJSONDecoder {
        let decoder = ElevateJSONDecoder()
        decoder.keyDecodingStrategy = strategy == "snake" ? .convertFromSnakeCase : .custom { $0.last! }
        return decoder
    }

    @Test(arguments: ["snake", "custom"])
    func keyPathValueDoesNotLendItsMembersToASibling(strategy: String) throws {
        let json = #"{"user": {"address": {"city": "Paris", "name": "Home"}}}"#
        let outcome = resultWithin(seconds: 20) {
            try Self.decoder(strategy).decode(ConvertedHintOrder.self, from: Data(json.utf8))
        }
        let order = try #require(outcome, "decoding did not return within 20 s").get()
        #expect(order.address == ConvertedHintAddress(city: "Paris"))
        #expect(order.user == ConvertedHintUser(name: nil))
    }

    @Test(arguments: ["snake", "custom"])
    func keyPathElementDoesNotLendItsMembersToASibling(strategy: String) throws {
        let json = #"{"user": {"items": [{"city": "Paris", "name": "Home"}, 5], "zip": 1}}"#
        let outcome = resultWithin(seconds: 20) {
            try Self.decoder(strategy).decode(ConvertedHintElementOrder.self, from: Data(json.utf8))
        }
        let order = try #require(outcome, "decoding did not return within 20 s").get()
        #expect(order.address == ConvertedHintAddress(city: "Paris"))
        #expect(order.user == ConvertedHintUser(name: nil))
    }

    /// Past the short walk, the converted-name table answers; its hint too must name its object.
    @Test(arguments: ["snake", "custom"])
    func largeSiblingObjectsKeepTheirOwnMembers(strategy: String) throws {
        let filler = (0..<20).map { #""f_\#($0)": \#($0)"# }.joined(separator: ", ")
        let json = #"{"user": {"address": {"city": "Paris", \#(filler), "name": "Home"}, \#(filler)}}"#
        let outcome = resultWithin(seconds: 20) {
            try Self.decoder(strategy).decode(ConvertedHintOrder.self, from: Data(json.utf8))
        }
        let order = try #require(outcome, "decoding did not return within 20 s").get()
        #expect(order.address == ConvertedHintAddress(city: "Paris"))
        #expect(order.user == ConvertedHintUser(name: nil))
    }
}

private struct MisspelledKeyPath: Swift.Decodable, JSONKeyPathDecodable {
    var name: String
    static let keyPaths = ["nmae": "person.name"]
}

private struct MisspelledDefault: Swift.Decodable, JSONKeyPathDecodable {
    var name: String
    var age: Int
    static let keyPaths = ["name": "person.name"]
    static let defaults: [String: any Sendable] = ["agee": 0]
}

@Suite("ElevateJSONDecoder: key paths and defaults name coding keys")
struct JSONKeyPathDeclarationTests {
    /// A name in `keyPaths` or `defaults` that is no coding key is an error at first use, naming
    /// it, instead of being ignored while the property is read by its own name.
    @Test func aNameThatIsNoCodingKeyIsAnError() throws {
        let data = Data(#"{"person": {"name": "Ada"}, "name": "wrong", "age": 3}"#.utf8)
        for decode in [
            { _ = try ElevateJSONDecoder().decode(MisspelledKeyPath.self, from: data) },
            { _ = try ElevateJSONDecoder().decode([MisspelledDefault].self, from: Data("[\(String(decoding: data, as: UTF8.self))]".utf8)) },
        ] as [() throws -> Void] {
            #expect {
                try decode()
            } throws: { error in
                guard case DecodingError.dataCorrupted(let context) = error else { return false }
                return context.debugDescription.contains(#""nmae""#) || context.debugDescription.contains(#""agee""#)
            }
        }
    }
}

private struct RoundTripTree: Codable, Equatable, JSONKeyPathDecodable {
    var name: String
    var age: Int
    var leaves: [String]
    static let keyPaths = ["name": "tree_names.colloquial.0", "age": "stats.age_years"]
    static let defaults: [String: any Sendable] = ["leaves": [String]()]
}

@Suite("ElevateJSONDecoder: a key-path type reads back what the encoder wrote")
struct JSONKeyPathRoundTripTests {
    /// The encoder writes properties by name; a key path that leads nowhere falls back to the name,
    /// so the type decodes its own output. The key paths still win where they lead somewhere.
    @Test func aKeyPathTypeDecodesItsOwnOutput() throws {
        let tree = RoundTripTree(name: "oak", age: 120, leaves: ["a"])
        let written = try ElevateJSONEncoder().encode(tree)
        #expect(try ElevateJSONDecoder().decode(RoundTripTree.self, from: written) == tree)
        let source = Data(#"{"tree_names": {"colloquial": ["elm"]}, "stats": {"age_years": 5}, "name": "x", "age": 1}"#.utf8)
        #expect(try ElevateJSONDecoder().decode(RoundTripTree.self, from: source) == RoundTripTree(name: "elm", age: 5, leaves: []))
    }
}
