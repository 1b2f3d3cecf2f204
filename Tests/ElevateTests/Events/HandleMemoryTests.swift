import Testing

@testable import ElevateJSON

/// YAJL's allocator for a parser's handles (`HandleMemory`): a block a handle frees goes to the
/// next handle's request for its size, with its capacity, and nothing large or past the limit is
/// kept. (That a restarted parser reads like a new one, its handle's blocks reused, is
/// `JSONEventParserRestartTests`.)
@Suite struct HandleMemoryTests {
    /// The sizes YAJL 2.1 asks for on x86-64: its handle, two buffers, the state stack, the
    /// lexer and the buffers' 2 KiB storage.
    static let sizes = [120, 32, 128, 64, 32, 2048, 2048]

    /// Fills `size` bytes of `block` with a pattern from `seed`.
    static func fill(_ block: UnsafeMutableRawPointer, _ size: Int, seed: UInt8) {
        for index in 0..<size { block.storeBytes(of: UInt8(truncatingIfNeeded: index) &+ seed, toByteOffset: index, as: UInt8.self) }
    }

    static func holds(_ block: UnsafeMutableRawPointer, _ size: Int, seed: UInt8) -> Bool {
        (0..<size).allSatisfy { block.load(fromByteOffset: $0, as: UInt8.self) == UInt8(truncatingIfNeeded: $0) &+ seed }
    }

    @Test func theNextHandleGetsTheBlocksOfTheLastOneSizeForSize() {
        var memory = HandleMemory()
        defer { memory.deallocate() }
        var first: [Int: [UnsafeMutableRawPointer]] = [:]
        for size in Self.sizes {
            let block = memory.allocate(size)
            #expect(HandleMemory.capacity(of: block) == size)
            Self.fill(block, size, seed: 7)
            first[size, default: []].append(block)
        }
        for blocks in first.values { for block in blocks { memory.free(block) } }
        #expect(memory.keptBlocks == Self.sizes.count)

        // Asked in another order, each request gets a block of exactly its size, from the kept ones.
        var second: [Int: [UnsafeMutableRawPointer]] = [:]
        for size in Self.sizes.reversed() {
            let block = memory.allocate(size)
            #expect(HandleMemory.capacity(of: block) == size)
            second[size, default: []].append(block)
        }
        #expect(memory.keptBlocks == 0)
        for (size, blocks) in first {
            #expect(Set(blocks) == Set(second[size] ?? []), "blocks of \(size) bytes")
        }
        for blocks in second.values { for block in blocks { memory.free(block) } }
    }

    @Test func reallocationKeepsTheContentsAndTheCapacityItGrewTo() {
        var memory = HandleMemory()
        defer { memory.deallocate() }
        let block = memory.allocate(100)
        Self.fill(block, 100, seed: 3)
        // Room enough: the same block.
        #expect(memory.reallocate(block, 60) == block)
        let grown = memory.reallocate(block, 5_000)
        #expect(HandleMemory.capacity(of: grown) == 5_000)
        #expect(Self.holds(grown, 100, seed: 3))
        memory.free(grown)
        // A request of another size gets a block of its own; one of the grown size gets it.
        let other = memory.allocate(200)
        #expect(other != grown)
        #expect(HandleMemory.capacity(of: other) == 200)
        let again = memory.allocate(5_000)
        #expect(again == grown)
        #expect(Self.holds(again, 100, seed: 3))
        memory.free(again)
        memory.free(other)
        // Reallocating nothing allocates.
        let fresh = memory.reallocate(nil, 16)
        #expect(HandleMemory.capacity(of: fresh) >= 16)
        memory.free(fresh)
    }

    @Test func largeBlocksAndBlocksPastTheLimitGoBackToTheSystem() {
        var memory = HandleMemory()
        defer { memory.deallocate() }
        let huge = memory.allocate(HandleMemory.largestKeptBlock + 1)
        memory.free(huge)
        #expect(memory.keptBlocks == 0)
        let blocks = (0..<(HandleMemory.keptBlockCount + 3)).map { memory.allocate(32 + $0) }
        for block in blocks { memory.free(block) }
        #expect(memory.keptBlocks == HandleMemory.keptBlockCount)
        memory.free(nil)
        #expect(memory.keptBlocks == HandleMemory.keptBlockCount)
    }

    /// A parser restarted for a thousand documents of every size of token reads each as a new
    /// parser does: its handles live on the kept blocks.
    @Test func aParserRestartedOftenReadsEveryDocument() throws {
        let recorder = EventBatchReceiverTests.OffsetRecorder()
        let parser = JSONEventParser(handler: recorder)
        for round in 0..<1_000 {
            let text = #"{"k":[\#(round),"\#(String(repeating: "é", count: round * 7 % 3_000))",true]}"#
            recorder.events = []
            try parser.parse(Array(text.utf8))
            try parser.finish()
            let fresh = EventBatchReceiverTests.OffsetRecorder()
            let new = JSONEventParser(handler: fresh)
            try new.parse(Array(text.utf8))
            try new.finish()
            #expect(recorder.events.count == 8 && recorder.events == fresh.events, "document \(round)")
            parser.restart(skipsByteOrderMark: true)
        }
    }
}
