/// Text kept in memory: what a worker of the split parse writes its elements' lines into.
package final class MemoryTextOutput: JSONTextOutput {
    /// The text written so far.
    package private(set) var bytes: [UInt8] = []

    package init() {}

    package var isTruncatable: Bool { false }
    package func write(_ bytes: UnsafeRawBufferPointer) throws { self.bytes.append(contentsOf: bytes) }
    package func nextWriteOffset() throws -> Int64 { Int64(bytes.count) }
    package func truncate(to offset: Int64) throws { bytes.removeSubrange(Int(offset)...) }
}
