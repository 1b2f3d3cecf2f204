/// A handler of this library's own that takes the parser's recorded events a batch at a time, so
/// that each event reaches it by a direct call instead of through the handler protocol's witness
/// table (see `JSONEventParser.PendingEvents`). The upper layers' handlers (the tape builder, the
/// key path selector) conform; a user's handler keeps receiving one call per event.
///
/// Conformers implement ``receive(_:)`` as `try receiveEach(batch)`: the loop is then compiled
/// for the conformer's own type.
protocol EventBatchReceiver: JSONEventHandler {
    /// Handles every event of `batch`, in order; throwing drops the rest of the batch, as a throw
    /// from a single event does.
    func receive(_ batch: EventBatch) throws
}

extension JSONEventParser {
    /// Hands a batch to the handler (see `JSONEventParser.delivery(to:)`).
    @usableFromInline
    typealias BatchDelivery = (EventBatch) throws -> Void
}

/// The events YAJL reported since the last delivery, as ``JSONEventParser`` recorded them; valid
/// only during ``EventBatchReceiver/receive(_:)``.
@usableFromInline
struct EventBatch {
    @usableFromInline
    let entries: UnsafePointer<JSONEventParser.PendingEvents.Entry>
    @usableFromInline
    let count: Int
    /// Where the parser reads the end of the event being delivered (its `currentByteOffset`).
    @usableFromInline
    let deliveredEnd: UnsafeMutablePointer<Int>

    @inline(__always)
    func text(of entry: JSONEventParser.PendingEvents.Entry) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: entry.start, count: entry.length)
    }

    /// The text of the event at `entry`, read from the batch only now.
    @inlinable @inline(__always)
    func text(at entry: UnsafePointer<JSONEventParser.PendingEvents.Entry>) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: entry.pointee.start, count: entry.pointee.length)
    }
}

extension JSONEventHandler {
    /// Calls this handler's method for each event of `batch`: directly when `Self` is a concrete
    /// type (an ``EventBatchReceiver``), through the protocol when it is a user's handler that
    /// the parser only knows as `any JSONEventHandler`.
    @inlinable @inline(__always)
    func receiveEach(_ batch: EventBatch) throws {
        // By address rather than index: one register less in a loop that calls out on every turn.
        var next = batch.entries
        let end = batch.entries + batch.count
        while next < end {
            try receive(next, of: batch)
            next += 1
        }
    }

    /// Calls this handler's method for the event at `entry`, in `batch`. By address, so that an
    /// event without text reads only its code and end (a copy of the entry loads all four fields).
    @inlinable @inline(__always)
    func receive(_ entry: UnsafePointer<JSONEventParser.PendingEvents.Entry>, of batch: EventBatch) throws {
        batch.deliveredEnd.pointee = entry.pointee.end
        switch entry.pointee.code {
        case .startObject: try startObject()
        case .endObject: try endObject()
        case .startArray: try startArray()
        case .endArray: try endArray()
        case .key: try key(JSONText(bytes: batch.text(at: entry)))
        case .string: try string(JSONText(bytes: batch.text(at: entry)))
        case .number: try number(JSONNumberText(bytes: batch.text(at: entry)))
        case .true: try bool(true)
        case .false: try bool(false)
        case .null: try null()
        }
    }
}
