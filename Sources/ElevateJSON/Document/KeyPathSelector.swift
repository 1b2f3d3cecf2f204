/// Watches events stream past and puts only the subtrees at chosen key paths on a document tape
/// (one small tape per captured value, reused when its views are gone); every other subtree is
/// skipped by counting depth, without building anything.
///
/// Each target either captures its whole value (`.value`), captures each element of the array
/// there as soon as that element's last event arrives (`.elements`), each member of the object
/// there (`.members`, captured as a `[key, value]` pair), or only counts the array's elements or
/// the object's members (`.count`). Targets form a trie, so one pass serves a whole
/// schema. A target nested inside another target's value is not captured separately: the
/// consumer reads it out of the enclosing value.
package final class KeyPathSelector: JSONEventHandler {
    package enum Mode {
        case value
        case elements
        /// Each member of the object at the target, as a two-element array: its key, its value.
        case members
        case count
        /// Sends the value's events to another handler instead of building it.
        case forward(any JSONEventHandler)
    }

    package struct Target {
        package var id: Int
        package var components: [String]
        var mode: Mode
        /// Whether a number with a leading zero is a key only (a JSON Pointer's components).
        var strictIndices = false
    }

    /// What the consumer is told.
    package struct Callbacks {
        package init() {}

        /// A target's whole value (also used for `.elements`/`.count` targets whose value is not a container).
        package var value: (_ target: Int, _ value: JSONValue) throws -> Void = { _, _ in }
        /// An `.elements` target's array (or a `.members` target's object) begins.
        var arrayStart: (_ target: Int) throws -> Void = { _ in }
        /// A `.count` target's object begins (its keys are counted, a repeated one once).
        var objectStart: (_ target: Int) throws -> Void = { _ in }
        /// One element of an `.elements` target's array.
        var element: (_ target: Int, _ index: Int, _ value: JSONValue) throws -> Void = { _, _, _ in }
        /// An `.elements` or `.count` target's container ends, with its number of children.
        var containerEnd: (_ target: Int, _ isArray: Bool, _ count: Int) throws -> Void = { _, _, _ in }
        /// A `.forward` target's value has been sent in full.
        var forwarded: (_ target: Int) throws -> Void = { _ in }
        /// A top-level value ends.
        var documentEnd: () throws -> Void = {}
        /// A key repeats in one object, and these targets lie at or below it: the value of the
        /// later occurrence replaces the earlier one whole, so whatever was captured for them
        /// from the earlier occurrence must be forgotten (or, where it was already delivered,
        /// refused by throwing ``RefusedKey``). `forwardedFromEarlier` says whether a `.forward`
        /// target's value was sent from inside an earlier occurrence's value: what depends only
        /// on the object, not on what was sent elsewhere in the document.
        package var duplicateKey: (_ targets: [Int], _ forwardedFromEarlier: Bool) throws -> Void = { _, _ in }
        /// The array whose elements the path's first wildcard matches begins (the components
        /// before that wildcard are keys and indices): its content may be read by other parsers,
        /// whose matches ``KeyPathSelector/noteForwarded(_:target:)`` then adds.
        var wildcardArrayStart: () throws -> Void = {}
        /// That array ends.
        var wildcardArrayEnd: () throws -> Void = {}
        /// An array inside a `.forward` target's value (or that value itself) ends: called before
        /// its `]` is sent, so that text other parsers wrote for its content (see
        /// ``KeyPathSelector/isForwarding``) can go first.
        var forwardedArrayEnd: () throws -> Void = {}
    }

    private final class Node {
        var target: Target?
        var children: [(key: [UInt8], index: Int?, node: Node)] = []
        /// With wildcards: the child every key and index without a child of its own leads to.
        var wildcard: Node?
        /// The ids of the targets at or below this node.
        var subtreeTargets: [Int] = []
        /// Whether this node's wildcard child is the first wildcard of the split path (target 0).
        var isFirstWildcardParent = false

        /// Releases the subtree one node at a time. A key path is a chain of one node per
        /// component, and the default release of a node releases its children from inside its
        /// own deinit: a path of 31,000 components (62 KB of text) took a frame per component
        /// and overflowed even an 8 MiB stack. Here the children are moved to a worklist, so
        /// a node with no children left is all that is ever released from a deinit.
        deinit {
            guard !children.isEmpty else { return }
            var pending = children.map { $0.node }
            children = []
            while var node = pending.popLast() {
                // A node still referenced elsewhere (by a frame of a running pass) keeps its
                // children; the last reference to it releases them the same way.
                if isKnownUniquelyReferenced(&node), !node.children.isEmpty {
                    pending.append(contentsOf: node.children.map { $0.node })
                    node.children = []
                }
            }
        }

        func child(named key: String, strictIndices: Bool) -> Node {
            let bytes = Array(key.utf8)
            if let existing = children.first(where: { $0.key == bytes }) { return existing.node }
            let node = Node()
            children.append((bytes, KeyPath.arrayIndex(key, strict: strictIndices), node))
            return node
        }

        /// The child named `key` and its position among the children: the one with its bytes, or
        /// else one whose name is the same text spelled with other code points (precomposed or
        /// combining accents), as Swift and Foundation compare keys. Two ASCII names are the same
        /// text only when their bytes are, so ASCII keys never build a `String` here.
        func child(forKey key: JSONText) -> (node: Node, position: Int)? {
            for position in children.indices where key.equals(children[position].key) {
                return (children[position].node, position)
            }
            if let found = equivalentChild(forKey: key) { return found }
            // A wildcard's keys are not tracked for repeats (position -1): each is another match.
            return wildcard.map { ($0, -1) }
        }

        @inline(never)
        private func equivalentChild(forKey key: JSONText) -> (node: Node, position: Int)? {
            let keyIsASCII = key.bytes.baseAddress.map { UTF8Validation.isASCII($0, key.bytes.count) } ?? true
            var wanted: String?
            for position in children.indices {
                let name = children[position].key
                if keyIsASCII, !name.contains(where: { $0 >= 0x80 }) { continue }
                if wanted == nil { wanted = key.string }
                if String(decoding: name, as: UTF8.self) == wanted { return (children[position].node, position) }
            }
            return nil
        }

        func child(forIndex index: Int) -> Node? {
            for child in children where child.index == index { return child.node }
            return wildcard
        }
    }

    private struct Frame {
        var node: Node
        var isArray: Bool
        var nextIndex = 0
        var pendingChild: Node?
        /// Set when this container is an `.elements`, `.members` or `.count` target.
        var target: Target?
        var count = 0
        /// A `.members` target: the key of the member whose value comes next.
        var pendingKey: [UInt8] = []
        /// Which of `node`'s children this object has named so far (one bit per child; objects
        /// are matched against at most a handful of schema keys).
        var seenChildren: UInt64 = 0
        /// Which of them had a value sent (a `.forward` target) from inside one of their values.
        var forwardedChildren: UInt64 = 0
        /// The child whose value comes now (its bit), and ``forwardCount`` at its key.
        var currentChild: UInt64 = 0
        var forwardsBeforeCurrentChild = 0
    }

    private enum Capture {
        case value(Target)
        case element(Target, Int)
        /// A member of a `.members` target's object, captured as `[key, value]`.
        case member(Target, Int, key: [UInt8])
        case forward(Target, any JSONEventHandler)

        /// The bytes of a member's key, which count toward the member's size: a member is its
        /// key and its value, and a huge key with a small value is no smaller a member.
        var keyLength: Int {
            if case .member(_, _, let key) = self { return key.count }
            return 0
        }
    }

    private let root = Node()
    // The state below is touched on every event and never accessed reentrantly: the dynamic
    // exclusivity checks Swift would add to each access are opted out of.
    @exclusivity(unchecked) private var stack: [Frame] = []
    @exclusivity(unchecked) private var skipDepth = 0
    @exclusivity(unchecked) private var capture: Capture?
    @exclusivity(unchecked) private var captureDepth = 0
    private let builder: JSONTapeBuilder
    /// Receives the captured events instead of `builder` while a `.forward` target is captured.
    @exclusivity(unchecked) private var forwardSink: (any JSONEventHandler)?
    /// The keys of the `.count` target object being counted, so that a repeated key counts once,
    /// as the object's value (the last occurrence replacing the others) has it once. Only one
    /// such object is open at a time: what is inside it is skipped.
    @exclusivity(unchecked) private var countedKeys = KeyBytesSet()
    /// What the selector calls; set before the parse. Stored privately, as every event reads it:
    /// a class property the Elevate module can see would be checked for exclusive access at
    /// run time on each read (7% of a small `decodeObject`), a private one is proven here.
    package var callbacks: Callbacks {
        get { storedCallbacks }
        set { storedCallbacks = newValue }
    }
    private var storedCallbacks: Callbacks
    /// The largest captured value, in input bytes; checked as its events arrive, so that memory
    /// stays bounded even for a hostile element.
    var maximumCaptureSize = Int.max
    /// Whether a captured value's tape is written over for the next one once nothing holds it
    /// (see ``JSONTapeBuilder/reusesTape``); turned off when other threads decode the values.
    var reusesTapes: Bool {
        get { builder.reusesTape }
        set { builder.reusesTape = newValue }
    }
    /// Where workers hand captured values' tapes back for reuse, when ``reusesTapes`` is off.
    var tapeRecycler: TapeRecycler? {
        get { builder.recycler }
        set { builder.recycler = newValue }
    }
    /// The parser's current byte offset, for the size check (unset: no check).
    var currentOffset: (() -> Int)?
    /// The `.forward` target whose value a pass has sent, once it has: the other targets are then
    /// skipped rather than sent, so that a value at the key path's other spelling (the split path
    /// or the literal dotted root key) does not follow it.
    var forwardedTarget: Int?
    /// Whether the events now go to a `.forward` target's handler: read just after an array's `[`,
    /// whether that array is in a value being sent.
    var isForwarding: Bool { forwardSink != nil }
    /// How many `.forward` values have been sent in full, those of other parsers added (see
    /// ``noteForwarded(_:target:)``).
    private(set) var forwardCount = 0

    /// How many of the containers open at the current position lie where no target's container
    /// can start, counted from the outermost such: the value skipped or captured there, and every
    /// container from the outermost one at a target (whose children are captured or counted, never
    /// descended into). No target's array can start (``Callbacks/arrayStart``, or a value captured
    /// at a target) before they all end: the split parse, looking for that array, passes over their
    /// content without stopping at each `[` in it.
    var containersOffTargets: Int {
        containers(from: stack.firstIndex { $0.target != nil })
    }

    /// Whether the selector is passing over the innermost open container, off every target's
    /// path: neither a target's container nor one that leads to one. Read just after a
    /// container's opening byte, whether nothing in it is counted or captured (the split parse may
    /// then cut it, see ``SummaryPass``).
    var isSkipping: Bool { skipDepth > 0 }

    /// As ``containersOffTargets``, where the array that the path's first wildcard matches in
    /// (``Callbacks/wildcardArrayStart``) cannot start: from the container at the first
    /// wildcard's parent on (an object there, or an array whose matches are not sent).
    var containersOffFirstWildcardArray: Int {
        containers(from: stack.firstIndex { $0.node.isFirstWildcardParent })
    }

    /// The open containers from the frame at `frame` (none when nil) on, and the value skipped or
    /// captured inside them.
    private func containers(from frame: Int?) -> Int {
        stack.count - (frame ?? stack.count) + skipDepth + (capture == nil ? 0 : captureDepth)
    }

    /// Adds `count` values of `target` sent by other parsers, which read the content of the
    /// array the path's first wildcard matches in (see ``Callbacks/wildcardArrayStart``), as if
    /// this selector had sent them: called when that array ends, before the next event.
    func noteForwarded(_ count: Int, target: Int) {
        guard count > 0 else { return }
        forwardCount += count
        if forwardedTarget == nil { forwardedTarget = target }
    }
    /// Makes the error for a key the passes refuse (see ``Callbacks/duplicateKey``), placed at that
    /// key by the parser; unset, the ``RefusedKey`` itself is thrown (every pass that refuses keys
    /// sets it: ``PassParser`` and ``ElementStream``).
    var refusedKeyError: ((_ message: String) -> any Error)?

    /// What a ``Callbacks/duplicateKey`` callback throws to refuse the key: the selector turns it
    /// into the error ``refusedKeyError`` makes, while the parser still reads that key.
    package struct RefusedKey: Error {
        /// What is wrong, in words.
        var message: String
    }
    @exclusivity(unchecked) private var captureStart = 0
    /// Events of the current capture still to pass before the size is checked again. Reading the
    /// offset costs a closure call into the parser and YAJL, which measured at a tenth of cutting
    /// an array into elements when done for every event. Between checks a capture grows by at most
    /// ``sizeCheckInterval`` small tokens (a token above ``largeTokenLength`` is checked at once),
    /// and a capture is always checked when it ends, so no value over the limit gets through.
    @exclusivity(unchecked) private var eventsBeforeSizeCheck = 0
    private static let sizeCheckInterval = 16
    private static let largeTokenLength = 1024
    /// Whether the most recent top-level value is an object or array (nil before the first value).
    package var rootIsContainer: Bool? { storedRootIsContainer }
    private var storedRootIsContainer: Bool?
    /// Whether the most recent top-level value is an array (nil before the first value).
    package var rootIsArray: Bool? { storedRootIsArray }
    private var storedRootIsArray: Bool?

    /// - Parameter wildcard: A component that matches every member and element (the tool's `*`),
    ///   or nil, the default, for none: every component is then a key or an index.
    package init(targets: [Target], callbacks: Callbacks, wildcard: String? = nil) {
        self.storedCallbacks = callbacks
        self.builder = JSONTapeBuilder()
        for target in targets {
            var node = root
            node.subtreeTargets.append(target.id)
            var sawWildcard = false
            for component in target.components {
                if component == wildcard {
                    if target.id == 0, !sawWildcard { node.isFirstWildcardParent = true }
                    sawWildcard = true
                    let next = node.wildcard ?? Node()
                    node.wildcard = next
                    node = next
                } else {
                    node = node.child(named: component, strictIndices: target.strictIndices)
                }
                node.subtreeTargets.append(target.id)
            }
            if node.target == nil { node.target = target }
        }
    }

    // MARK: Routing a value that starts here

    private enum Route {
        case skip
        case capture(Capture)
        case descend(Frame)
        case count
    }

    /// Decides what to do with the value that starts now, at the current position.
    private func route(isContainer: Bool, isArray: Bool) -> Route {
        let node: Node?
        if stack.isEmpty {
            storedRootIsContainer = isContainer
            storedRootIsArray = isArray
            node = root
        } else {
            let top = stack.count - 1
            if let target = stack[top].target {
                let index = stack[top].count
                stack[top].count += 1
                switch target.mode {
                case .count: return .count
                case .members: return .capture(.member(target, index, key: stack[top].pendingKey))
                default: return .capture(.element(target, index))
                }
            }
            if stack[top].isArray {
                node = stack[top].node.child(forIndex: stack[top].nextIndex)
                stack[top].nextIndex += 1
            } else {
                node = stack[top].pendingChild
                stack[top].pendingChild = nil
            }
        }
        guard let node else { return .skip }
        if let target = node.target {
            switch target.mode {
            case .forward(let handler):
                if let forwardedTarget, forwardedTarget != target.id { return .skip }
                return .capture(.forward(target, handler))
            case .value:
                return .capture(.value(target))
            case .elements where isArray, .members where isContainer && !isArray, .count where isContainer:
                return .descend(Frame(node: node, isArray: isArray, target: target))
            case .elements, .members, .count:
                return .capture(.value(target))
            }
        }
        return .descend(Frame(node: node, isArray: isArray))
    }

    private func startContainer(isArray: Bool) throws {
        if skipDepth > 0 {
            skipDepth += 1
            return
        }
        if capture != nil {
            captureDepth += 1
            try checkCaptureSize()
            try sendStart(isArray: isArray)
            return
        }
        switch route(isContainer: true, isArray: isArray) {
        case .skip, .count:
            skipDepth = 1
        case .capture(let newCapture):
            try begin(newCapture)
            captureDepth = 1
            try sendStart(isArray: isArray)
        case .descend(let frame):
            stack.append(frame)
            if frame.node.isFirstWildcardParent, isArray { try callbacks.wildcardArrayStart() }
            if let target = frame.target {
                switch target.mode {
                case .elements, .members: try callbacks.arrayStart(target.id)
                case .count where isArray: try callbacks.arrayStart(target.id)
                case .count:
                    countedKeys.removeAll()
                    try callbacks.objectStart(target.id)
                default: break
                }
            }
        }
    }

    private func endContainer(isArray: Bool) throws {
        if skipDepth > 0 {
            skipDepth -= 1
            if skipDepth == 0, stack.isEmpty { try callbacks.documentEnd() }
            return
        }
        if capture != nil {
            if let forwardSink {
                if isArray {
                    try callbacks.forwardedArrayEnd()
                    try forwardSink.endArray()
                } else {
                    try forwardSink.endObject()
                }
            } else {
                isArray ? try builder.endArray() : try builder.endObject()
            }
            captureDepth -= 1
            if captureDepth == 0 {
                try checkCaptureSizeNow()
                try completeCapture()
            }
            return
        }
        let frame = stack.removeLast()
        if let target = frame.target {
            try callbacks.containerEnd(target.id, frame.isArray, frame.count)
        }
        if frame.node.isFirstWildcardParent, frame.isArray { try callbacks.wildcardArrayEnd() }
        if stack.isEmpty { try callbacks.documentEnd() }
    }

    private func begin(_ newCapture: Capture) throws {
        capture = newCapture
        builder.reset()
        if case .member(_, _, let key) = newCapture {
            // The member's key travels with its value, as the first element of a pair.
            try builder.startArray()
            try key.withUnsafeBytes { try builder.string(JSONText(bytes: $0)) }
        }
        // Called at the capture's first event: for a container, its opening bracket, one byte
        // that the parser's offset is already past and that counts toward the capture's size.
        // (A scalar capture is measured by its length instead.)
        if let currentOffset { captureStart = currentOffset() &- 1 &- newCapture.keyLength }
        eventsBeforeSizeCheck = Self.sizeCheckInterval
        if case .forward(_, let handler) = newCapture { forwardSink = handler }
    }

    /// Thrown when one captured value grows past ``maximumCaptureSize``.
    package struct CaptureTooLarge: Error {
        var limit: Int
    }

    /// Counts an event of the current capture, whose token is `length` bytes, and checks the
    /// capture's size when due.
    @inline(__always)
    private func checkCaptureSize(length: Int = 0) throws {
        eventsBeforeSizeCheck &-= 1
        guard eventsBeforeSizeCheck <= 0 || length > Self.largeTokenLength else { return }
        try checkCaptureSizeNow()
    }

    private func checkCaptureSizeNow() throws {
        eventsBeforeSizeCheck = Self.sizeCheckInterval
        guard let currentOffset, currentOffset() - captureStart > maximumCaptureSize else { return }
        throw CaptureTooLarge(limit: maximumCaptureSize)
    }

    private func sendStart(isArray: Bool) throws {
        if let forwardSink {
            isArray ? try forwardSink.startArray() : try forwardSink.startObject()
        } else {
            isArray ? try builder.startArray() : try builder.startObject()
        }
    }

    /// A scalar: `add` sends it to the builder, `forward` to a forwarding target's handler.
    ///
    /// `length` is the scalar's own size in bytes (0 for literals). A scalar inside a captured
    /// container is covered by the offset check, since the parser's offset is already past it; a
    /// scalar that is a captured value by itself starts and ends in this one event, so the offset
    /// cannot measure it and its length is checked instead.
    @inline(__always)
    private func scalar(
        length: Int = 0, _ add: () throws -> Void, _ forward: (any JSONEventHandler) throws -> Void
    ) throws {
        if skipDepth > 0 { return }
        if capture != nil {
            try checkCaptureSize(length: length)
            if let forwardSink { try forward(forwardSink) } else { try add() }
            return
        }
        switch route(isContainer: false, isArray: false) {
        case .skip, .count, .descend:
            break
        case .capture(let newCapture):
            if length + newCapture.keyLength > maximumCaptureSize { throw CaptureTooLarge(limit: maximumCaptureSize) }
            try begin(newCapture)
            if let forwardSink { try forward(forwardSink) } else { try add() }
            try completeCapture()
            return
        }
        if stack.isEmpty { try callbacks.documentEnd() }
    }

    private func completeCapture() throws {
        guard let finished = capture else { return }
        capture = nil
        forwardSink = nil
        switch finished {
        case .value(let target):
            try callbacks.value(target.id, builder.takeValue()!)
        case .element(let target, let index):
            try callbacks.element(target.id, index, builder.takeValue()!)
        case .member(let target, let index, _):
            try builder.endArray()
            try callbacks.element(target.id, index, builder.takeValue()!)
        case .forward(let target, _):
            forwardCount += 1
            try callbacks.forwarded(target.id)
        }
        if stack.isEmpty { try callbacks.documentEnd() }
    }

    // MARK: JSONEventHandler

    package func startObject() throws { try startContainer(isArray: false) }
    package func startArray() throws { try startContainer(isArray: true) }
    package func endObject() throws { try endContainer(isArray: false) }
    package func endArray() throws { try endContainer(isArray: true) }

    package func key(_ key: JSONText) throws {
        if skipDepth > 0 { return }
        if capture != nil {
            try checkCaptureSize(length: key.bytes.count)
            if let forwardSink { try forwardSink.key(key) } else { try builder.key(key) }
            return
        }
        let top = stack.count - 1
        if let target = stack[top].target, case .members = target.mode {
            stack[top].pendingKey = key.withUnsafeBytes { Array($0) }
            return
        }
        if stack[top].target != nil {
            // A `.count` target object: members are counted when their values start, a repeated
            // key's value not again (the count goes back by one here, and on at its value).
            stack[top].pendingChild = nil
            if !key.withUnsafeBytes({ countedKeys.insert($0) }) { stack[top].count -= 1 }
            return
        }
        // The previous member's value has ended: note whether a value was sent from inside it.
        if stack[top].currentChild != 0, forwardCount > stack[top].forwardsBeforeCurrentChild {
            stack[top].forwardedChildren |= stack[top].currentChild
        }
        stack[top].currentChild = 0
        guard let (child, position) = stack[top].node.child(forKey: key) else {
            stack[top].pendingChild = nil
            return
        }
        let bit: UInt64 = (0..<64).contains(position) ? 1 << UInt64(position) : 0
        if position >= 0, stack[top].seenChildren & bit != 0 || bit == 0 {
            // A repeated key (or one past the 64 tracked: treated as repeated, which only costs
            // a reset of captures that are about to be made again, and as sent from when
            // anything was).
            let forwarded = bit == 0 ? forwardCount > 0 : stack[top].forwardedChildren & bit != 0
            do {
                try callbacks.duplicateKey(child.subtreeTargets, forwarded)
            } catch let refused as RefusedKey {
                throw refusedKeyError?(refused.message) ?? refused
            }
        }
        stack[top].seenChildren |= bit
        stack[top].currentChild = bit
        stack[top].forwardsBeforeCurrentChild = forwardCount
        stack[top].pendingChild = child
    }

    package func string(_ value: JSONText) throws {
        try scalar(length: value.bytes.count, { try builder.string(value) }, { try $0.string(value) })
    }
    package func number(_ value: JSONNumberText) throws {
        try scalar(length: value.bytes.count, { try builder.number(value) }, { try $0.number(value) })
    }
    package func bool(_ value: Bool) throws { try scalar({ try builder.bool(value) }, { try $0.bool(value) }) }
    package func null() throws { try scalar({ try builder.null() }, { try $0.null() }) }
}

extension [KeyPathSelector.Target] {
    /// The targets for one key path: its split components (id 0) and, when it has dots, the
    /// whole text as one literal root key (id 1), which Elevate prefers when both exist.
    package static func candidates(for path: KeyPath, mode: KeyPathSelector.Mode) -> [KeyPathSelector.Target] {
        var targets = [
            KeyPathSelector.Target(id: 0, components: path.components, mode: mode, strictIndices: path.isPointer)
        ]
        if path.hasLiteralAlternative {
            targets.append(.init(id: 1, components: [path.text], mode: mode))
        }
        return targets
    }
}

extension KeyPathSelector: EventBatchReceiver {
    /// Takes the parser's events a batch at a time, each by a direct call; the events of a value
    /// being captured onto a tape go straight to the builder (see ``receiveCaptured(_:from:)``).
    func receive(_ batch: EventBatch) throws {
        var index = 0
        while index < batch.count {
            if skipDepth > 0 {
                index = try receiveSkipped(batch, from: index)
                continue
            }
            if capture != nil {
                // A forwarding target's handler is taken out of its property once per run of
                // events, not at each (a retain and a release each: a seventh of `elevate extract`).
                if let forwardSink {
                    index = try receiveCaptured(batch, from: index, into: forwardSink, forwarding: true)
                } else {
                    index = try receiveCaptured(batch, from: index, into: builder, forwarding: false)
                }
                continue
            }
            try receive(batch.entries + index, of: batch)
            index &+= 1
        }
    }

    /// Passes over the events of the container being skipped, from `start` on, until it ends or
    /// the batch does; returns the index of the first event not handled. Nothing is delivered for
    /// them (what `startContainer`, `endContainer` and the scalars do while skipping), so they
    /// cost a count of the depth each: counting a huge array's elements skips nearly everything.
    @inline(__always)
    private func receiveSkipped(_ batch: EventBatch, from start: Int) throws -> Int {
        var index = start
        while index < batch.count {
            let entry = batch.entries[index]
            index &+= 1
            switch entry.code {
            case .startObject, .startArray:
                skipDepth &+= 1
            case .endObject, .endArray:
                skipDepth &-= 1
                if skipDepth == 0 {
                    batch.deliveredEnd.pointee = entry.end
                    if stack.isEmpty { try callbacks.documentEnd() }
                    return index
                }
            default:
                break
            }
        }
        batch.deliveredEnd.pointee = batch.entries[index &- 1].end
        return index
    }

    /// Hands the events of the container being captured, from `start` on, to `sink` (the builder,
    /// or a forwarding target's handler) until the container ends (and the capture is completed)
    /// or the batch does; returns the index of the first event not handled. The same calls as the
    /// event methods make inside a capture, without deciding again for every event that nothing
    /// is skipped, routed or forwarded: when cutting an array into elements, nearly every event
    /// is inside one. `forwarding` says whether `sink` is a forwarding target's handler, whose
    /// arrays' ends are announced (``Callbacks/forwardedArrayEnd``); a constant where it is inlined.
    @inline(__always)
    private func receiveCaptured(
        _ batch: EventBatch, from start: Int, into sink: some JSONEventHandler, forwarding: Bool
    ) throws -> Int {
        var index = start
        while index < batch.count {
            let entry = batch.entries[index]
            batch.deliveredEnd.pointee = entry.end
            index &+= 1
            switch entry.code {
            case .startObject, .startArray:
                captureDepth &+= 1
                try checkCaptureSize()
                entry.code == .startObject ? try sink.startObject() : try sink.startArray()
            case .endObject, .endArray:
                if entry.code == .endObject {
                    try sink.endObject()
                } else {
                    if forwarding { try callbacks.forwardedArrayEnd() }
                    try sink.endArray()
                }
                captureDepth &-= 1
                if captureDepth == 0 {
                    try checkCaptureSizeNow()
                    try completeCapture()
                    return index
                }
            case .key:
                let text = batch.text(of: entry)
                try checkCaptureSize(length: text.count)
                try sink.key(JSONText(bytes: text))
            case .string:
                let text = batch.text(of: entry)
                try checkCaptureSize(length: text.count)
                try sink.string(JSONText(bytes: text))
            case .number:
                let text = batch.text(of: entry)
                try checkCaptureSize(length: text.count)
                try sink.number(JSONNumberText(bytes: text))
            case .true, .false:
                try checkCaptureSize()
                try sink.bool(entry.code == .true)
            case .null:
                try checkCaptureSize()
                try sink.null()
            }
        }
        return index
    }
}
