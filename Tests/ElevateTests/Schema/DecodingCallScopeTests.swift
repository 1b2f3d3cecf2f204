import Foundation
import Testing

@testable import Elevate
@testable import ElevateJSON
import ElevateTestSupport

/// What Elevate decoding learns on a thread lasts for one call: a decode gives the same answer,
/// with the same calls of the user's `init(json:)`, whatever the same thread decoded before.
@Suite(.serialized) struct DecodingCallScopeTests {
    /// Casts `json` itself: handed a view first, it is handed the dictionary on the second try.
    private struct Caster: Elevate.Decodable {
        nonisolated(unsafe) static var handed: [String] = []
        let name: String
        init(json: Any) throws {
            Self.handed.append(json is JSONValue ? "view" : "dictionary")
            guard let object = json as? [String: Any], let name = object["name"] as? String else {
                throw ParserError.validation(failureReason: "not an object with a name")
            }
            self.name = name
        }
    }

    /// Reads its value through `parseEntity(json:)`: its entity gets a plan.
    private struct Reader: Elevate.Decodable {
        let name: String
        init(json: Any) throws {
            let entity = try Parser.parseEntity(json: json) { $0.addProperty(keyPath: "name", type: .string) }
            name = entity <-! "name"
        }
    }

    private static let data = Data(#"{"a": {"name": "x"}, "b": [{"name": "y"}, {"name": "z"}]}"#.utf8)

    @Test func aCallDoesNotDependOnTheThreadsEarlierCalls() throws {
        // A thread of its own: no earlier test has decoded anything on it.
        let perCall = runOnThread(stackSize: 1 << 20) { () -> [[String]] in
            var calls: [[String]] = []
            for _ in 0..<3 {
                Caster.handed = []
                let caster: Caster? = try? Elevate.decodeObject(from: Self.data, atKeyPath: "a")
                #expect(caster?.name == "x")
                calls.append(Caster.handed)
            }
            return calls
        }
        // Each call finds out for itself that the type casts its value: first a view, then the
        // dictionary, in every call, not only in the thread's first.
        #expect(perCall == Array(repeating: ["view", "dictionary"], count: 3))
    }

    @Test func withinOneCallTheTypeIsHandedDictionariesOnceItCasts() throws {
        let handed = runOnThread(stackSize: 1 << 20) { () -> [String] in
            Caster.handed = []
            let casters: [Caster]? = try? Elevate.decodeArray(from: Self.data, atKeyPath: "b")
            #expect(casters?.map(\.name) == ["y", "z"])
            return Caster.handed
        }
        #expect(handed == ["view", "dictionary", "dictionary"])
    }

    @Test func noValueOrHandOffOutlivesTheCall() throws {
        let left = runOnThread(stackSize: 1 << 20) { () -> [Int] in
            let caster: Caster? = try? Elevate.decodeObject(from: Self.data, atKeyPath: "a")
            let readers: [Reader]? = try? Elevate.decodeArray(from: Self.data, atKeyPath: "b")
            #expect(caster != nil)
            #expect(readers?.count == 2)
            let thread = DecodingThread.current
            return [thread.schemas.heldValueCount, thread.views.materializing.count]
        }
        #expect(left == [0, 0])
    }
}
