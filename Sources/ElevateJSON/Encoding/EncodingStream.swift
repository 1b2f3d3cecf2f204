/// The streaming pass of ``ElevateJSONEncoder``: values are written through the generator as
/// `encode(to:)` calls produce them, with no tree in between.
///
/// How Encoder semantics map onto a stream. Synthesized `encode(to:)` — and most hand-written ones —
/// use a container only during the call that asked for it, in order: a keyed container writes its
/// members one after another, and a member's value is complete when its `encode(to:)` returns. So
/// each value being encoded gets a *frame* on a stack: the container its encoder hands out opens an
/// object or array in the generator, writes go straight through, and the container is closed when
/// the value's `encode(to:)` returns. Encoders and containers are small structs naming their frame
/// (index and generation); a write checks that the frame is the top one, which is the price of the
/// design: a comparison per write.
///
/// What a stream cannot do is go back, so three things are held back:
/// - `nestedContainer`, `nestedUnkeyedContainer` and `superEncoder` hand out containers that live as
///   long as the caller keeps them. They write into an ``EncodedValue`` tree, which is written when
///   the parent object closes (member order is unspecified in JSON, as in `JSONEncoder`), or, in an
///   array, before the parent's next element, so that the order of elements holds.
/// - A key written twice in one object (the second value wins in `JSONEncoder`), and a write to a
///   held-back container after its text was written, cannot be repaired in text already written.
///   The pass then stops (``StreamingBailout``) and ``ElevateJSONEncoder`` encodes the value again
///   with ``BufferedEncoding``, which builds the tree first, so `encode(to:)` methods run twice in
///   that rare case. Keys are compared with those already written in the object: linearly while
///   it is small, with a set beyond that.
/// - An error that passes through a write after part of the value was written leaves half a value
///   in the text. If the caller catches it and encoding succeeds anyway, the buffered encoding
///   (where a failed value leaves nothing) gives the result.
/// Sorted keys need every member before the first one is written, so `.sortedKeys` encodes
/// buffered from the start.
final class EncodingStream {
    /// One value being encoded.
    struct Frame {
        enum Kind {
            /// Nothing written yet: the value's encoder asked for no container, or has not yet.
            case empty
            case object
            case array
            /// A single value was written.
            case value
        }

        var kind = Kind.empty
        /// Tells this frame from an earlier one at the same index, so a container kept after its
        /// value ended is caught.
        let generation: Int
        /// The coding path's length at this value.
        let pathDepth: Int
        /// Where this object's keys start in ``EncodingStream/keys``.
        var keysStart = 0
        /// The keys written, once there are too many for a linear search.
        var keySet: Set<String>?
        /// The elements written to an array.
        var count = 0
        /// Held-back nested containers and `superEncoder` values, with their keys in an object.
        var pending: [(key: String?, value: EncodedValue)] = []
    }

    let context: EncodingContext
    let output: EncodingOutput
    // Read and written on every member; no access spans a call out, so the dynamic exclusivity
    // checks (which cost as much as the write itself) are off for the stream's state.
    @exclusivity(unchecked) private(set) var frames: [Frame] = []
    /// The coding path, as cheap components; materialized only when asked for.
    @exclusivity(unchecked) private(set) var path: [CodingPathComponent] = []
    /// The keys written by the open objects, each object's after the previous one's.
    @exclusivity(unchecked) private var keys: [String] = []
    @exclusivity(unchecked) private var generations = 0

    private static let linearKeySearchLimit = 16

    init(context: EncodingContext, output: EncodingOutput) {
        self.context = context
        self.output = output
    }

    /// Appends `value` as one top-level value to the root generator's output.
    func encodeTopLevel<T: Swift.Encodable>(_ value: T) throws {
        try output.root.writeValue {
            switch try context.plan(value, codingPath: { [] }) {
            case .value(let scalar): try output.write(scalar, sealing: false)
            // A `.custom` date or data strategy that writes nothing gives `{}`, as in Foundation.
            case .custom(let body): try encodeNested(body)
            case .stringKeyedDictionary(let dictionary): try dictionary.encodeMembers(to: self)
            case .ordinary:
                try encodeNested(ifEmpty: { EncodingContext.nothingEncoded(value) }) { try value.encode(to: $0) }
            }
        }
    }

    /// The coding path down to `depth` components.
    func codingPath(depth: Int) -> [any CodingKey] {
        path[..<min(depth, path.count)].map(\.codingKey)
    }

    /// The coding path of the value now being written.
    var currentCodingPath: [any CodingKey] { path.map(\.codingKey) }

    // MARK: Values

    /// Writes `value` where the generator stands, under `component` of the coding path.
    func encodeValue<T: Swift.Encodable>(_ value: T, at component: CodingPathComponent) throws {
        path.append(component)
        defer { path.removeLast() }
        try encodeValue(value)
    }

    /// Writes `value` where the generator stands, at the current coding path.
    func encodeValue<T: Swift.Encodable>(_ value: T) throws {
        do {
            switch try context.plan(value, codingPath: { self.currentCodingPath }) {
            case .value(let scalar): try output.write(scalar, sealing: false)
            case .custom(let body):
                if path.count >= StackGuard.checkedLevels { try StackGuard.checkEncoding(value, { self.currentCodingPath }) }
                try encodeNested(body)
            case .stringKeyedDictionary(let dictionary):
                if path.count >= StackGuard.checkedLevels { try StackGuard.checkEncoding(value, { self.currentCodingPath }) }
                try dictionary.encodeMembers(to: self)
            case .ordinary:
                if path.count >= StackGuard.checkedLevels { try StackGuard.checkEncoding(value, { self.currentCodingPath }) }
                try encodeNested { try value.encode(to: $0) }
            }
        } catch {
            context.poisoned = true
            throw error
        }
    }

    /// Runs `body` with an encoder for a new frame, then closes what it opened; a value that wrote
    /// nothing is `{}`, as in Foundation, except at the top level, where it is an error.
    private func encodeNested(
        ifEmpty emptyError: (() -> EncodingError)? = nil, _ body: (StreamingEncoder) throws -> Void
    ) throws {
        generations += 1
        let index = frames.count
        frames.append(Frame(generation: generations, pathDepth: path.count, keysStart: keys.count))
        do {
            try body(StreamingEncoder(stream: self, frame: index, generation: generations))
        } catch {
            context.poisoned = true
            if frames.count > index { frames.removeSubrange(index...) }
            throw error
        }
        // After a caught error the stack is not what this call left; the result is discarded anyway.
        guard !context.poisoned, frames.count == index + 1 else {
            context.poisoned = true
            throw context.bailout()
        }
        let frame = frames.removeLast()
        switch frame.kind {
        case .empty:
            if let emptyError { throw emptyError() }
            try output.openObject()
            try output.closeObject()
        case .object:
            for (key, value) in frame.pending {
                try output.generator.key(key!)
                try output.write(value, sealing: true)
            }
            keys.removeSubrange(frame.keysStart...)
            try output.closeObject()
        case .array:
            for (_, value) in frame.pending { try output.write(value, sealing: true) }
            try output.closeArray()
        case .value:
            break
        }
    }

    // MARK: Containers

    /// Whether a container of frame `index` may write now.
    @inline(__always)
    func isCurrent(_ index: Int, _ generation: Int) -> Bool {
        index == frames.count - 1 && frames[index].generation == generation && !context.poisoned
    }

    /// Makes frame `index` an object (or finds it one); false when it cannot be.
    func requestObject(_ index: Int, _ generation: Int) -> Bool {
        guard isCurrent(index, generation) else { return false }
        switch frames[index].kind {
        case .object: return true
        case .empty:
            do { try output.openObject() } catch { return false }
            frames[index].kind = .object
            frames[index].keysStart = keys.count
            return true
        case .array, .value: return false
        }
    }

    /// Makes frame `index` an array (or finds it one); false when it cannot be.
    func requestArray(_ index: Int, _ generation: Int) -> Bool {
        guard isCurrent(index, generation) else { return false }
        switch frames[index].kind {
        case .array: return true
        case .empty:
            do { try output.openArray() } catch { return false }
            frames[index].kind = .array
            return true
        case .object, .value: return false
        }
    }

    /// Checks that frame `index` may take a member under `name`, and records the key.
    func claimKey(_ name: String, _ index: Int, _ generation: Int) throws {
        guard isCurrent(index, generation), frames[index].kind == .object else { throw context.bailout() }
        if frames[index].keySet != nil {
            guard frames[index].keySet!.insert(name).inserted else { throw context.bailout() }
            return
        }
        let start = frames[index].keysStart
        var position = start
        while position < keys.count {
            if keys[position] == name { throw context.bailout() }
            position += 1
        }
        keys.append(name)
        if keys.count - start > Self.linearKeySearchLimit {
            frames[index].keySet = Set(keys[start...])
        }
    }

    /// Writes the key of a member of frame `index`.
    @inline(__always)
    func beginMember(_ key: some CodingKey, _ index: Int, _ generation: Int) throws {
        let name = context.jsonKey(key, codingPath: self.codingPath(depth: self.frames[index].pathDepth))
        try claimKey(name, index, generation)
        try output.generator.key(name)
    }

    /// Holds back a value for key `name` of frame `index`, written when the object closes.
    func holdBack(_ value: EncodedValue, forKey name: String, _ index: Int, _ generation: Int) throws {
        try claimKey(name, index, generation)
        frames[index].pending.append((name, value))
    }

    /// Readies frame `index` for its next element and returns the element's index: held-back
    /// elements before it are written first.
    func beginElement(_ index: Int, _ generation: Int) throws -> Int {
        guard isCurrent(index, generation), frames[index].kind == .array else { throw context.bailout() }
        if !frames[index].pending.isEmpty {
            let pending = frames[index].pending
            frames[index].pending.removeAll()
            for (_, value) in pending { try output.write(value, sealing: true) }
        }
        defer { frames[index].count += 1 }
        return frames[index].count
    }

    /// Holds back the next element of frame `index`, written before the element after it.
    func holdBackElement(_ value: EncodedValue, _ index: Int, _ generation: Int) throws -> Int {
        guard isCurrent(index, generation), frames[index].kind == .array else { throw context.bailout() }
        frames[index].pending.append((nil, value))
        defer { frames[index].count += 1 }
        return frames[index].count
    }

    /// The number of elements of frame `index`, written or held back.
    func count(_ index: Int, _ generation: Int) -> Int {
        index < frames.count && frames[index].generation == generation ? frames[index].count : 0
    }

    /// Readies frame `index` for its single value.
    func beginSingleValue(_ index: Int, _ generation: Int) throws {
        guard isCurrent(index, generation), frames[index].kind == .empty else { throw context.bailout() }
        frames[index].kind = .value
    }
}
