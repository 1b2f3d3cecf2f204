import Foundation
import Testing

@testable import Elevate
@testable import ElevateJSON

/// Whether two value trees are equal, comparing numbers by kind and bits (so `-0.0` differs from
/// `0.0`) and containers element by element.
func treesEqual(_ lhs: Any, _ rhs: Any) -> Bool {
    switch (lhs, rhs) {
    case let (lhs as [String: Any], rhs as [String: Any]):
        return lhs.count == rhs.count
            && lhs.allSatisfy { key, value in rhs[key].map { treesEqual(value, $0) } ?? false }
    case let (lhs as [Any], rhs as [Any]):
        return lhs.count == rhs.count && zip(lhs, rhs).allSatisfy(treesEqual)
    case let (lhs as String, rhs as String):
        return lhs == rhs
    case let (lhs as Bool, rhs as Bool):
        return lhs == rhs
    case let (lhs as Int, rhs as Int):
        return lhs == rhs
    case let (lhs as UInt, rhs as UInt):
        return lhs == rhs
    case let (lhs as Double, rhs as Double):
        return lhs.bitPattern == rhs.bitPattern
    case let (lhs as JSONLargeNumber, rhs as JSONLargeNumber):
        return lhs == rhs
    case (is NSNull, is NSNull):
        return true
    default:
        return false
    }
}

func nestedArrays(_ depth: Int, innermost: Any = 1) -> Any {
    var value: Any = innermost
    for _ in 0..<depth { value = [value] }
    return value
}

func writerError(_ body: () throws -> Void) -> JSONWriterError? {
    do {
        try body()
        return nil
    } catch let error as JSONWriterError {
        return error
    } catch {
        return nil
    }
}
