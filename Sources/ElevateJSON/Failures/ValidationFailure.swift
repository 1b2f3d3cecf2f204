import Foundation

/// One validation failure with the full path of the value that failed, from the root of the
/// document: `response.items[3].city`.
///
/// Elevate's failure texts name only the key path of the innermost schema; for a failure deep in
/// nested decodables, ``withValidationReport(_:)-3fan7`` gives the whole path as well:
///
/// ```swift
/// } catch let report as ValidationReport {
///     for failure in report.failures {
///         print(failure.path, failure.message)  // response.items[3].city  Required key path [city] was missing or null
///     }
/// }
/// ```
public struct ValidationFailure: Sendable, Hashable, CustomStringConvertible {
    /// Where the failing value is: key-path components joined by `.`, array indices as `[i]`;
    /// empty for the root.
    public var path: String
    /// Elevate's text for the failure.
    public var message: String

    /// Creates a failure.
    /// - Parameters:
    ///   - path: Where the failing value is, from the document root.
    ///   - message: Elevate's text for the failure.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// `"path: message"`.
    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}

/// Collects an entity's failures: Elevate's texts, and the same failures with full paths.
package struct FailureCollector {
    // Inlinable, as the entities of the Elevate module make and test one per decode.
    @usableFromInline private(set) var texts: [String]
    @usableFromInline private(set) var failures: [ValidationFailure]

    @inlinable package init() {
        texts = []
        failures = []
    }

    @inlinable package var isEmpty: Bool { texts.isEmpty }

    /// A failure of the value at `path` itself.
    package mutating func add(_ text: String, at path: String) {
        texts.append(text)
        failures.append(ValidationFailure(path: path, message: text))
    }

    /// A failure reported by a nested decoder (`reason`), for the value at `path`; `text` is what
    /// Elevate's report shows for it. The nested failures' own paths are used when the nested
    /// decoder was this library's and handed them over; otherwise (an error thrown by hand) the
    /// failure is recorded at `path` with the nested text, which is exact if less detailed.
    package mutating func addNested(_ text: String, reason: String, at path: String) {
        addNested(text, reason: reason, nested: NestedFailures.take(matching: reason), at: path)
    }

    /// ``addNested(_:reason:at:)`` with the nested failures already taken (on another thread).
    mutating func addNested(_ text: String, reason: String, nested: [ValidationFailure]?, at path: String) {
        texts.append(text)
        guard let nested else {
            failures.append(ValidationFailure(path: path, message: reason))
            return
        }
        for inner in nested {
            let innerPath: String
            if inner.path.isEmpty {
                innerPath = path
            } else if inner.path.hasPrefix("[") || path.isEmpty {
                innerPath = path + inner.path
            } else {
                innerPath = path + "." + inner.path
            }
            failures.append(ValidationFailure(path: innerPath, message: inner.message))
        }
    }

    /// Adds every failure `other` collected, after these.
    package mutating func append(_ other: FailureCollector) {
        texts += other.texts
        failures += other.failures
    }

    /// The error for everything collected; its structured failures go to whoever can read them
    /// exactly: the enclosing decode, or a ``withValidationReport(_:)-86xn`` scope.
    package func error() -> ParserError {
        let reason = texts.joined(separator: "\n")
        NestedFailures.handOver(failures, for: reason)
        return .validation(failureReason: reason)
    }
}

/// The path of an array element: `items[3]`.
func elementPath(_ keyPath: String, _ index: Int) -> String {
    "\(keyPath)[\(index)]"
}
