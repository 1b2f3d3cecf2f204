import Foundation
import Testing

@testable import Elevate
@testable import ElevateJSON

/// Full failure paths come from the call that produced them, never from an earlier or a
/// concurrent one, and nothing is kept after the call.
@Suite struct ValidationReportTests {
    private struct Dated: Elevate.Decodable {
        let name: String
        let birthDate: Date
        init(json: Any) throws {
            let entity = try Parser.parseEntity(json: json) { schema in
                schema.addProperty(keyPath: "name", type: .string)
                schema.addProperty(keyPath: "birthDate", type: .string, decoder: DateDecoder(dateFormatString: "yyyy-MM-dd"))
            }
            name = entity <-! "name"
            birthDate = entity <-! "birthDate"
        }
    }

    /// Fails by hand, as Elevate users often do after reading an entity.
    private struct HandChecked: Elevate.Decodable {
        init(json: Any) throws {
            let entity = try Parser.parseEntity(json: json) { $0.addProperty(keyPath: "age", type: .int) }
            let age: Int = entity <-! "age"
            if age < 0 { throw ParserError.validation(failureReason: "age must not be negative") }
        }
    }

    private struct Account: Elevate.Decodable {
        init(json: Any) throws {
            _ = try Parser.parseEntity(json: json) { $0.addProperty(keyPath: "name", type: .string) }
        }
    }

    private struct Holder: Elevate.Decodable {
        init(json: Any) throws {
            _ = try Parser.parseEntity(json: json) { schema in
                schema.addProperty(keyPath: "account", type: .dictionary, decodableType: Account.self)
                schema.addProperty(keyPath: "check", type: .dictionary, decodableType: HandChecked.self)
            }
        }
    }

    private func report(_ body: () throws -> Void) -> ValidationReport? {
        do {
            try withValidationReport(body)
        } catch let report as ValidationReport {
            return report
        } catch {
            Issue.record("unexpected \(error)")
        }
        return nil
    }

    private func people(_ count: Int) -> Data {
        let items = (0..<count).map { #"{"name": "p\#($0)", "birthDate": "not a date"}"# }
        return Data(#"{"items": [\#(items.joined(separator: ","))]}"#.utf8)
    }

    @Test func pathsDoNotSnowballAcrossElements() {
        let found = report { let _: [Dated] = try Elevate.decodeArray(from: people(50), atKeyPath: "items") }
        #expect(found?.failures.map(\.path) == (0..<50).map { "items[\($0)].birthDate" })
        #expect(found?.failures.allSatisfy { $0.message.hasPrefix("DateParser string could not be parsed") } == true)
    }

    @Test func repeatedIdenticalFailuresGiveIdenticalReports() {
        let data = people(3)
        let first = report { let _: [Dated] = try Elevate.decodeArray(from: data, atKeyPath: "items") }
        for _ in 0..<200 {
            let again = report { let _: [Dated] = try Elevate.decodeArray(from: data, atKeyPath: "items") }
            #expect(again?.failures == first?.failures)
        }
        #expect(NestedFailures.isIdleOnThisThread)
    }

    @Test func handThrownErrorsGetTheirOwnPathNotAStaleOne() {
        // An unrelated document fails first, with a deep path...
        _ = report {
            let _: [Holder] = try Elevate.decodeArray(
                from: Data(#"{"items": [{"account": {}, "check": {"age": 1}}]}"#.utf8), atKeyPath: "items")
        }
        // ...then a hand-thrown failure is reported where it happened, and only there.
        let found = report {
            let _: [Holder] = try Elevate.decodeArray(
                from: Data(#"{"items": [{"account": {"name": "n"}, "check": {"age": -1}}]}"#.utf8), atKeyPath: "items")
        }
        #expect(found?.failures == [ValidationFailure(path: "items[0].check", message: "age must not be negative")])
        #expect(NestedFailures.isIdleOnThisThread)
    }

    @Test func withoutAReportScopeNothingIsKept() {
        for _ in 0..<100 {
            #expect(throws: ParserError.self) {
                let _: [Dated] = try Elevate.decodeArray(from: people(5), atKeyPath: "items")
            }
        }
        #expect(NestedFailures.isIdleOnThisThread)
    }

    @Test func concurrentTasksEachSeeTheirOwnPaths() async {
        let results = await withTaskGroup(of: (Int, [String]?).self) { group in
            for task in 0..<64 {
                group.addTask {
                    let count = task % 5 + 1
                    let items = (0..<count).map { index in
                        index == count - 1 ? #"{"name": 1, "birthDate": "2000-01-01"}"# : #"{"name": "ok", "birthDate": "2000-01-01"}"#
                    }
                    let data = Data(#"{"items": [\#(items.joined(separator: ","))]}"#.utf8)
                    do {
                        let _: [Dated] = try withValidationReport {
                            try Elevate.decodeArray(from: data, atKeyPath: "items")
                        }
                        return (task, nil)
                    } catch let report as ValidationReport {
                        return (task, report.failures.map(\.path))
                    } catch {
                        return (task, ["unexpected \(error)"])
                    }
                }
            }
            var all: [(Int, [String]?)] = []
            for await result in group { all.append(result) }
            return all
        }
        #expect(results.count == 64)
        for (task, paths) in results {
            #expect(paths == ["items[\(task % 5)].name"], "task \(task)")
        }
    }

    @Test func anErrorCaughtOutsideTheScopeIsPlainElevate() {
        do {
            let _: [Dated] = try Elevate.decodeArray(from: people(1), atKeyPath: "items")
            Issue.record("no error")
        } catch let error as ParserError {
            #expect(error.failureReason.hasPrefix("Error parsing array object at index 0 with parser [Dated]"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}

@Suite struct ValidationPathTests {
    struct Address: Elevate.Decodable {
        init(json: Any) throws {
            _ = try Parser.parseEntity(json: json) { schema in
                schema.addProperty(keyPath: "street", type: .string)
                schema.addProperty(keyPath: "city", type: .string)
            }
        }
    }

    struct Person: Elevate.Decodable {
        init(json: Any) throws {
            _ = try Parser.parseEntity(json: json) { schema in
                schema.addProperty(keyPath: "name", type: .string)
                schema.addProperty(keyPath: "addresses", type: .array, decodableType: Address.self)
            }
        }
    }

    @Test func nestedFailuresCarryTheirFullPath() throws {
        let json = #"""
            {"response": {"items": [
              {"name": "a", "addresses": [{"street": "s", "city": "c"}]},
              {"name": "b", "addresses": [{"street": "s", "city": "c"}, {"street": 1}]},
              {"addresses": []}
            ]}}
            """#
        do {
            let _: [Person] = try withValidationReport {
                try Elevate.decodeArray(from: Data(json.utf8), atKeyPath: "response.items")
            }
            Issue.record("no error")
        } catch let report as ValidationReport {
            // Elevate's text is unchanged...
            #expect(
                report.error.failureReason == """
                    Error parsing array object at index 1 with parser [Person]
                    Error parsing array object at index 1 with parser [Address]
                    Value for key path [street] is of incorrect type
                    Required key path [city] was missing or null
                    --
                    --
                    Error parsing array object at index 2 with parser [Person]
                    Required key path [name] was missing or null
                    --
                    """)
            // ...and the paths come alongside.
            #expect(
                report.failures == [
                    ValidationFailure(
                        path: "response.items[1].addresses[1].street",
                        message: "Value for key path [street] is of incorrect type"),
                    ValidationFailure(
                        path: "response.items[1].addresses[1].city",
                        message: "Required key path [city] was missing or null"),
                    ValidationFailure(
                        path: "response.items[2].name", message: "Required key path [name] was missing or null"),
                ])
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func foreignErrorsHaveOneFailureWithoutPath() {
        do {
            try withValidationReport { throw ParserError.validation(failureReason: "only the user knows") }
        } catch let report as ValidationReport {
            #expect(report.failures == [ValidationFailure(path: "", message: "only the user knows")])
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}
