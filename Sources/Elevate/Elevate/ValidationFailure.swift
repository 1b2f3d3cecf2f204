import Foundation

/// One validation failure with the full path of the value that failed, from the root of the
/// document: `response.items[3].city`.
///
/// Elevate's failure texts name only the key path of the innermost schema; for a failure deep in
/// nested decodables, ``ParserError/failures`` gives the whole path as well:
///
/// ```swift
/// } catch let error as ParserError {
///     for failure in error.failures {
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
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// `"path: message"`.
    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}

extension ParserError {
    /// Each validation failure with its full path from the document root.
    ///
    /// The failure texts stay exactly Elevate's; the paths travel beside them. For an error this
    /// library did not raise (or a deserialization error) the one failure has an empty path and
    /// the failure reason as its message.
    public var failures: [ValidationFailure] {
        if case .validation(let reason) = self, let known = FailureRegistry.shared.failures(for: reason) {
            return known
        }
        return [ValidationFailure(path: "", message: failureReason)]
    }
}

/// Remembers the structured failures behind recently thrown validation texts.
///
/// `ParserError`'s cases carry only a `String` (Elevate's API, which users match on), so the
/// paths cannot ride inside the error: they are kept here, for the most recent errors, keyed by
/// the exact failure text and by who threw it (the current task, else the thread). Nested
/// decoding is synchronous, so an outer entity finds its inner failures under its own key, just
/// thrown, even while other tasks decode documents that fail with the same text. A reader on
/// another thread or task (an actor resuming after `await`) falls back to the most recent
/// failures registered for that text. Only failing paths pay for this; it is best effort.
final class FailureRegistry: @unchecked Sendable {
    static let shared = FailureRegistry()
    private let capacity = 256

    private struct Key: Hashable {
        var owner: Int
        var reason: String
    }

    // Guarded by `lock`.
    private let lock = NSLock()
    private var entries: [Key: [ValidationFailure]] = [:]
    private var latestByReason: [String: [ValidationFailure]] = [:]
    private var order: [Key] = []

    /// Who is throwing: the current task if there is one (a task may move between threads),
    /// otherwise the thread.
    private static func currentOwner() -> Int {
        withUnsafeCurrentTask { task in task?.hashValue } ?? ObjectIdentifier(Thread.current).hashValue
    }

    func register(_ failures: [ValidationFailure], for reason: String) {
        let key = Key(owner: Self.currentOwner(), reason: reason)
        lock.withLock {
            if entries.updateValue(failures, forKey: key) != nil {
                // Most recent last, so that a text registered again is not evicted first.
                order.removeAll { $0 == key }
            }
            order.append(key)
            latestByReason[reason] = failures
            if order.count > capacity {
                let evicted = order.removeFirst()
                entries[evicted] = nil
                if !order.contains(where: { $0.reason == evicted.reason }) {
                    latestByReason[evicted.reason] = nil
                }
            }
        }
    }

    func failures(for reason: String) -> [ValidationFailure]? {
        let key = Key(owner: Self.currentOwner(), reason: reason)
        return lock.withLock { entries[key] ?? latestByReason[reason] }
    }
}

/// Collects an entity's failures: Elevate's texts, and the same failures with full paths.
struct FailureCollector {
    private(set) var texts: [String] = []
    private(set) var failures: [ValidationFailure] = []

    var isEmpty: Bool { texts.isEmpty }

    /// A failure of the value at `path` itself.
    mutating func add(_ text: String, at path: String) {
        texts.append(text)
        failures.append(ValidationFailure(path: path, message: text))
    }

    /// A failure reported by a nested decoder (`reason`), for the value at `path`; `text` is what
    /// Elevate's report shows for it.
    mutating func addNested(_ text: String, reason: String, at path: String) {
        texts.append(text)
        for inner in ParserError.validation(failureReason: reason).failures {
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

    /// The error for everything collected, with its paths registered.
    func error() -> ParserError {
        let reason = texts.joined(separator: "\n")
        FailureRegistry.shared.register(failures, for: reason)
        return .validation(failureReason: reason)
    }
}

/// The path of an array element: `items[3]`.
func elementPath(_ keyPath: String, _ index: Int) -> String {
    "\(keyPath)[\(index)]"
}
