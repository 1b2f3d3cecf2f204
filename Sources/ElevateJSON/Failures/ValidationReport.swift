import Foundation

/// A validation error with every failure's full path from the document root.
///
/// Thrown by ``withValidationReport(_:)-3fan7`` in place of the ``ParserError/validation(failureReason:)``
/// its body threw:
///
/// ```swift
/// do {
///     let people: [Person] = try withValidationReport {
///         try Elevate.decodeArray(from: data, atKeyPath: "response.items")
///     }
/// } catch let report as ValidationReport {
///     for failure in report.failures {
///         print(failure.path, failure.message)  // response.items[3].addresses[0].city  Required key path [city] was missing or null
///     }
/// }
/// ```
public struct ValidationReport: Error, Sendable, CustomStringConvertible {
    /// The error the body threw, with Elevate's text unchanged.
    public let error: ParserError
    /// Each failure with its full path. When the paths are not known exactly (an error thrown by
    /// hand, or two concurrent failures with the same text), one failure with an empty path and
    /// the whole text: a path is never guessed.
    public let failures: [ValidationFailure]

    /// The same text as the ``ParserError``.
    public var description: String { error.description }
}

/// Runs `body` and, if it throws a ``ParserError/validation(failureReason:)``, rethrows it as a
/// ``ValidationReport`` giving each failure's full path (`response.items[3].city`).
///
/// Every decoding call of this library inside `body`, on any thread or task that inherits the
/// scope's task-local values, reports to it; nothing is kept once the call returns.
/// - Parameter body: The decoding to run.
/// - Returns: What `body` returns.
/// - Throws: ``ValidationReport`` for a validation error; any other error unchanged.
public func withValidationReport<T>(_ body: () throws -> T) throws -> T {
    let collector = ValidationReportCollector()
    do {
        return try ValidationReportCollector.$current.withValue(collector) { try body() }
    } catch ParserError.validation(let reason) {
        throw collector.report(for: reason)
    }
}

/// The `async` form of ``withValidationReport(_:)-3fan7``, for the streaming calls.
/// - Parameter body: The decoding to run.
/// - Returns: What `body` returns.
/// - Throws: ``ValidationReport`` for a validation error; any other error unchanged.
public func withValidationReport<T>(_ body: () async throws -> T) async throws -> T {
    let collector = ValidationReportCollector()
    do {
        return try await ValidationReportCollector.$current.withValue(collector) { try await body() }
    } catch ParserError.validation(let reason) {
        throw collector.report(for: reason)
    }
}

/// What the outermost failing entities of one ``withValidationReport(_:)-86xn`` scope left.
final class ValidationReportCollector: Sendable {
    @TaskLocal static var current: ValidationReportCollector?

    /// The failures recorded for each reason, and the reasons recorded with different failures.
    private struct State: Sendable {
        var byReason: [String: [ValidationFailure]] = [:]
        var ambiguous: Set<String> = []
    }

    // Locked: tasks started inside the scope may report at the same time.
    private let state = LockedBox(State())

    func record(_ failures: [ValidationFailure], for reason: String) {
        state.withLock { state in
            if let earlier = state.byReason[reason], earlier != failures { state.ambiguous.insert(reason) }
            state.byReason[reason] = failures
        }
    }

    func report(for reason: String) -> ValidationReport {
        let failures = state.withLock { $0.ambiguous.contains(reason) ? nil : $0.byReason[reason] }
        return ValidationReport(
            error: .validation(failureReason: reason),
            failures: failures ?? [ValidationFailure(path: "", message: reason)])
    }
}
