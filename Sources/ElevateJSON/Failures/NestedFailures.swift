/// Hands the structured failures of a nested entity to the entity that decoded it.
///
/// Elevate's `init(json:)` and `Decoder.decode(_:)` cannot take an extra argument, and
/// `ParserError`'s cases carry only a `String`, so the full paths cannot travel with the error.
/// They travel beside it, on the decoding thread, for exactly one step: nested decoding is
/// synchronous, so a child entity that fails inside ``decode(_:)`` leaves its failures here and
/// the parent's `catch` takes them at once (``take(matching:)``), checking that the text is the
/// one it caught. Every ``decode(_:)`` starts and ends with an empty hand-off (unless it threw),
/// so nothing outlives the step that produced it, one call never sees another call's failures,
/// and a validation error thrown by hand (whose text matches nothing left here) is recorded with
/// the path known at that level instead of a stale one.
///
/// At the outermost level, failures go to the ``withValidationReport(_:)-86xn`` scope, if any.
package enum NestedFailures {
    /// One thread's hand-off, touched by its own thread only: no dynamic exclusivity checks.
    package final class Slot {
        /// How many ``decode(_:)`` calls are running on this thread.
        @exclusivity(unchecked) @usableFromInline var depth = 0
        @exclusivity(unchecked) @usableFromInline var reason: String?
        @exclusivity(unchecked) @usableFromInline var failures: [ValidationFailure] = []

        @usableFromInline init() {}

        @inlinable
        package func clear() {
            if reason != nil {
                reason = nil
                failures = []
            }
        }
    }

    /// The calling thread's hand-off, made the first time the thread decodes, freed when it ends.
    @inlinable
    package static var slot: Slot { key.value { Slot() } }

    @usableFromInline static let key = ThreadSpecificKey<Slot>()

    /// Runs one nested decode (a property's decodable type or decoder, an array element).
    ///
    /// Catch its `ParserError.validation` right after and record it with
    /// ``FailureCollector/addNested(_:reason:at:)``, which takes the failures it left.
    ///
    /// Inlinable: the Elevate module runs one per nested entity, and a call across the module
    /// boundary costs a generic, unspecialized call each time.
    @inlinable
    package static func decode<R>(_ body: () throws -> R) throws -> R {
        let slot = self.slot
        slot.clear()
        // Every nested Elevate decode passes here: past a few levels, each checks that the stack
        // has room for one more, so that deep input on a small stack is an error, not a crash.
        if slot.depth >= StackGuard.checkedDecodes { try checkStack(nestedDecodes: slot.depth + 1) }
        slot.depth += 1
        let result: R
        do {
            result = try body()
        } catch {
            slot.depth -= 1
            throw error
        }
        slot.depth -= 1
        slot.clear()
        return result
    }

    /// Throws when the stack has too little room left for one more nested decode.
    /// - Parameter nestedDecodes: How many Elevate decodes are running on this thread, counting
    ///   the one about to start (for the message).
    /// - Throws: ``ParserError/deserialization(failureReason:)``, which the enclosing entities pass
    ///   on as it is (they gather only validation errors), as they do for input deeper than the
    ///   parser's depth limit.
    @inline(never) @usableFromInline
    static func checkStack(nestedDecodes: Int) throws {
        guard let stack = StackGuard.ofCurrentThread, !stack.hasRoom else { return }
        throw ParserError.deserialization(reason: stack.message(levels: nestedDecodes, unit: "nested decodes"))
    }

    /// Called by a failing entity: leaves its failures for the enclosing ``decode(_:)``, or for
    /// the report scope when there is none.
    static func handOver(_ failures: [ValidationFailure], for reason: String) {
        let slot = self.slot
        if slot.depth > 0 {
            slot.reason = reason
            slot.failures = failures
        } else {
            ValidationReportCollector.current?.record(failures, for: reason)
        }
    }

    /// The failures the nested decode just left, if its text is `reason`; clears the hand-off.
    static func take(matching reason: String) -> [ValidationFailure]? {
        let slot = self.slot
        defer { slot.clear() }
        guard slot.reason == reason else { return nil }
        return slot.failures
    }
}

extension NestedFailures {
    /// Whether this thread holds nothing: no decode running, no failures waiting.
    static var isIdleOnThisThread: Bool {
        let slot = self.slot
        return slot.depth == 0 && slot.reason == nil && slot.failures.isEmpty
    }
}
