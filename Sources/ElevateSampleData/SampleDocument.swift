import Foundation

/// The kinds of generated JSON documents, for tests, benchmarks and the command-line tool.
///
/// A document is written item by item through a buffer of about 1 MiB, so a file of any size
/// is produced without holding it in memory. The output depends only on the kind, the target
/// size and the seed: the same three give byte-identical documents on every platform.
///
/// ```swift
/// let summary = try SampleDocument.people.write(
///     to: URL(fileURLWithPath: "people.json"), targetSize: 16 << 20, seed: SampleDocument.defaultSeed)
/// print("\(summary.itemCount) people, \(summary.byteCount) bytes")
/// ```
///
/// Every document has at least one item and is at least `targetSize` bytes long: generation
/// stops at the first item boundary at or past the target.
public enum SampleDocument: String, CaseIterable, Sendable {
    /// Records of people, like an API response:
    ///
    /// ```json
    /// {"response":{"count":2,"items":[
    /// {"identifier":4821,"name":"Ada Lovelace","nickname":"\"Countess\"","birthDate":"1971-03-09",
    ///  "isMember":true,"addresses":[{"street":"12 Main Street","city":"Z\u00fcrich"}]},
    /// {"identifier":77,"name":"Zoë Müller","birthDate":"2004-02-29","addresses":[…]}]}}
    /// ```
    ///
    /// `count` equals the number of items. `nickname` is in about half of the items and
    /// `isMember` in about 70%; there are one to three addresses; birth dates are valid dates
    /// from 1950 through 2010. A minority of strings hold escapes (`\"`, `\\`, `\n`,
    /// `\u00e9`) or raw non-ASCII UTF-8 (é, ü, 日本, emoji). Items are separated by `,\n`.
    case people
    /// Rows of numbers: `{"numbers":[[…],[…],…]}`, an array of arrays of eight numbers each.
    ///
    /// The items are the rows. Each number is, with fixed odds, a small integer, a negative
    /// integer, an integer within 1000 of `Int64.min` or `Int64.max`, a large integer, a decimal
    /// such as `-123.0456`, or a number with an exponent such as `1.5e-7` or `-3.25E+12`.
    /// Rows are separated by `,\n`.
    case numbers

    /// The seed the benchmarks and the command-line tool use unless told otherwise.
    public static let defaultSeed: UInt64 = 0x454C_4556_4154_4521  // "ELEVATE!"

    /// What a generation produced.
    public struct Summary: Sendable, Hashable {
        /// The number of items written: people for ``SampleDocument/people``, rows for
        /// ``SampleDocument/numbers``.
        public var itemCount: Int
        /// The number of bytes written.
        public var byteCount: Int

        /// Creates a summary.
        /// - Parameters:
        ///   - itemCount: The number of items written.
        ///   - byteCount: The number of bytes written.
        public init(itemCount: Int, byteCount: Int) {
            self.itemCount = itemCount
            self.byteCount = byteCount
        }
    }

    /// A document generated in memory, with its summary.
    public struct Generated: Sendable {
        /// The JSON text, UTF-8 encoded.
        public var data: Data
        /// The item and byte counts.
        public var summary: Summary
    }

    /// Streams the document to `sink` in pieces of about 1 MiB.
    ///
    /// The pieces are only valid during each call to `sink`.
    /// - Parameters:
    ///   - targetSize: The minimum size in bytes.
    ///   - seed: The seed of the pseudo-random choices.
    ///   - sink: Receives the bytes, in order.
    /// - Returns: The item and byte counts.
    /// - Throws: What `sink` throws.
    public func write(
        targetSize: Int, seed: UInt64, to sink: (UnsafeRawBufferPointer) throws -> Void
    ) throws -> Summary {
        switch self {
        case .people:
            return try DocumentWriter.write(PeopleItems(seed: seed), targetSize: targetSize, to: sink)
        case .numbers:
            return try DocumentWriter.write(NumberRows(seed: seed), targetSize: targetSize, to: sink)
        }
    }

    /// Writes the document to an open file handle, at its current offset.
    /// - Parameters:
    ///   - fileHandle: Where to write.
    ///   - targetSize: The minimum size in bytes.
    ///   - seed: The seed of the pseudo-random choices.
    /// - Returns: The item and byte counts.
    /// - Throws: The file handle's write errors.
    @discardableResult
    public func write(to fileHandle: FileHandle, targetSize: Int, seed: UInt64) throws -> Summary {
        try write(targetSize: targetSize, seed: seed) { piece in
            try fileHandle.write(contentsOf: piece)
        }
    }

    /// Writes the document to a file, replacing what it held.
    /// - Parameters:
    ///   - url: A file URL.
    ///   - targetSize: The minimum size in bytes.
    ///   - seed: The seed of the pseudo-random choices.
    /// - Returns: The item and byte counts.
    /// - Throws: Errors creating or writing the file.
    @discardableResult
    public func write(to url: URL, targetSize: Int, seed: UInt64) throws -> Summary {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        let fileHandle = try FileHandle(forWritingTo: url)
        defer { try? fileHandle.close() }
        return try write(to: fileHandle, targetSize: targetSize, seed: seed)
    }

    /// Generates the document in memory.
    /// - Parameters:
    ///   - targetSize: The minimum size in bytes.
    ///   - seed: The seed of the pseudo-random choices.
    /// - Returns: The JSON text and its item and byte counts.
    public func generate(targetSize: Int, seed: UInt64) -> Generated {
        var data = Data()
        data.reserveCapacity(targetSize + DocumentWriter.bufferSize)
        // The sink cannot throw, so neither can the write.
        let summary = try! write(targetSize: targetSize, seed: seed) { data.append(contentsOf: $0) }
        return Generated(data: data, summary: summary)
    }

    /// Generates the document in memory.
    /// - Parameters:
    ///   - targetSize: The minimum size in bytes.
    ///   - seed: The seed of the pseudo-random choices.
    /// - Returns: The JSON text.
    public func data(targetSize: Int, seed: UInt64) -> Data {
        generate(targetSize: targetSize, seed: seed).data
    }
}
