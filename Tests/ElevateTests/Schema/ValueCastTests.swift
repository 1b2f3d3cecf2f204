import Foundation
import Testing

@testable import Elevate
@testable import ElevateJSON

/// The entity operators' cast gives exactly what `as?` gives, through its fast path (the value
/// holds exactly the type asked for) and its general one (anything else).
@Suite struct ValueCastTests {
    private class Animal {}
    private final class Dog: Animal {}
    private protocol Named { var name: String { get } }
    private struct Pet: Named, Equatable { let name: String }

    @Test func exactTypesComeOutUnchanged() {
        #expect(castValue("Ada" as Any, to: String.self) == "Ada")
        #expect(castValue(String(repeating: "long string on the heap ", count: 4) as Any, to: String.self)?.count == 96)
        #expect(castValue(42 as Any, to: Int.self) == 42)
        #expect(castValue(UInt.max as Any, to: UInt.self) == UInt.max)
        #expect(castValue(true as Any, to: Bool.self) == true)
        #expect(castValue(Pet(name: "Rex") as Any, to: Pet.self) == Pet(name: "Rex"))
        #expect(castValue([1, 2, 3] as Any, to: [Int].self) == [1, 2, 3])
        let dog = Dog()
        #expect(castValue(dog as Any, to: Dog.self) === dog)
    }

    @Test func otherCastsAreAsQuestionMarks() {
        #expect(castValue(42 as Any, to: String.self) == nil)
        #expect(castValue("42" as Any, to: Int.self) == nil)
        #expect(castValue(Dog() as Any, to: Animal.self) != nil)
        #expect(castValue(Animal() as Any, to: Dog.self) == nil)
        #expect(castValue(Pet(name: "Rex") as Any, to: (any Named).self)?.name == "Rex")
        #expect(castValue("Ada" as Any, to: Any.self) as? String == "Ada")
        #expect(castValue("Ada" as Any, to: String?.self) == .some("Ada"))
        // Element-wise array conversion: [Any] of Ints is an [Int], and nil if any element is not.
        #expect(castValue([1, 2] as [Any] as Any, to: [Int].self) == [1, 2])
        #expect(castValue([1, "2"] as [Any] as Any, to: [Int].self) == nil)
        #expect(castValue(["a": 1] as [String: Any] as Any, to: [String: Int].self) == ["a": 1])
    }

    @Test func exactValueTakesOnlyTheExactType() {
        #expect(exactValue("Ada" as Any, as: String.self) == "Ada")
        #expect(exactValue(Dog() as Any, as: Animal.self) == nil)
        #expect(exactValue("Ada" as Any, as: String?.self) == nil)
    }

    @Test func operatorsReadThroughIt() throws {
        let entity: [String: Any] = ["name": "Ada", "age": 36, "tags": ["a", "b"], "mixed": [1, "x"] as [Any]]
        let name: String = entity <-! "name"
        let age: Int = entity <-! "age"
        let missing: String? = entity <-? "nickname"
        let wrongType: String? = entity <-? "age"
        let tags: [String] = entity <--! "tags"
        let someTags: [String]? = entity <--? "tags"
        let mixed: [Int]? = entity <--? "mixed"
        #expect(name == "Ada" && age == 36 && missing == nil && wrongType == nil)
        #expect(tags == ["a", "b"] && someTags == ["a", "b"] && mixed == nil)
    }
}
