internal import CYAJLBaseline
import Elevate
@_spi(Testing) import ElevateJSON
import Foundation

/// One way of parsing a whole document, timed and measured against the others on the same bytes.
///
/// The first eight parse any document; the rest decode the people of a
/// ``ElevateSampleData/SampleDocument/people``-shaped document (`response.items`) into models and
/// run only on such documents (``requiresPeopleDocument``), but for the nativejson corpus's own
/// (``requiredDocumentName``).
///
/// The cases' order is the order in which they take turns (see ``Stopwatch``), and it matters:
/// on the 2-core VM of `Benchmarks/RESULTS.md`, parsing in memory ran 7–10% slower for a second
/// or two after a contender had read the document's file (C YAJL 113–119 ms a run before one
/// run of ``cYAJLFile``, 120–136 ms in the runs after it), so the event layer, timed right after
/// ``countFile``, lost 0.06–0.08 of its ratio to C YAJL, timed after a contender in memory.
/// ``cYAJL`` and ``elevateEvents``, whose ratio is the event layer's cost, therefore run next to
/// each other and after a contender in memory; the file-reading floor follows them.
///
/// ```swift
/// let input = try BenchmarkDocument.generated(.people, targetSize: 16 << 20).prepare(in: directory)
/// let people = try Contender.decodeArray.run(on: input)  // the number of people decoded
/// ```
public enum Contender: String, CaseIterable, Sendable {
    /// YAJL with callbacks that only return 1: the floor.
    case cYAJL = "c-yajl"
    /// ``JSONEventParser`` with a ``CountingHandler``: what the event layer costs over bare YAJL.
    case elevateEvents = "elevate-events"
    /// The split parse's structural pre-scan alone (strings, escapes, nesting, commas), in memory.
    case preScan = "elevate-prescan"
    /// YAJL with the same callbacks, reading the file in 1 MiB chunks: the floor for streaming a file.
    case cYAJLFile = "c-yajl-file"
    /// `summarizeValue(from: .file(url), atKeyPath: "")`, what `elevate count FILE` runs: the
    /// event layer streaming the file in 1 MiB chunks, counting the root's children.
    case countFile = "elevate-count-file"
    /// `JSONValueBuilder.value(from:)`: a Foundation-compatible tree.
    case elevateValues = "elevate-values"
    /// `JSONValue(parsing:)`: the document tape with a read-only view.
    case elevateDocument = "elevate-document"
    /// `JSONSerialization.jsonObject(with:)`: Foundation's tree.
    case jsonSerialization = "jsonserialization"
    /// `Elevate.decodeArray(from:atKeyPath: "response.items")` into ``BenchmarkPerson``
    /// (`birthDate` a string).
    case decodeArray = "elevate-decodearray"
    /// `Elevate.decodeArray(from:atKeyPath: "response.items")` into ``BenchmarkPersonWithDate``
    /// (the README's `Person`, a `DateDecoder` per person).
    case decodeArrayWithDates = "elevate-decodearray-dates"
    /// ``decodeArray`` inside `withFoundationValues`: every element handed to `init(json:)` as a
    /// `[String: Any]`, the design before the document tape, kept to show the difference.
    case decodeArrayFoundationValues = "elevate-decodearray-foundation"
    /// ``decodeArray`` with ``StreamingOptions/concurrency`` at one worker per processor.
    case decodeArrayParallel = "elevate-decodearray-parallel"
    /// ``decodeArray`` (one worker) run at once on every processor, each decoding the whole
    /// document, timed to the last to finish and counted per document (``documentsPerRun``): what
    /// one worker per core could reach on this machine at that moment, since cores that share a
    /// physical core or a busy host slow each other even when they share nothing else.
    case decodeArrayOnEveryCore = "elevate-decodearray-every-core"
    /// `Elevate.forEachElement(from: .file(url), atKeyPath: "response.items", as:)` over the document's
    /// file into ``BenchmarkPerson``, counting the people: streaming, in bounded memory.
    case forEachElement = "elevate-foreachelement"
    /// ``forEachElement`` with ``StreamingOptions/concurrency`` at one worker per processor.
    case forEachElementParallel = "elevate-foreachelement-parallel"
    /// `JSONSerialization.jsonObject(with:)`, then ``BenchmarkPerson/init(json:)`` on each element
    /// of `response.items`: Elevate's schema on Foundation's parser.
    case jsonSerializationParseEntity = "jsonserialization-parseentity"
    /// `JSONDecoder` into ``CodablePerson`` (`birthDate` a string).
    case jsonDecoder = "jsondecoder"
    /// `JSONDecoder` into ``CodablePersonWithDate``, with
    /// ``CodablePersonWithDate/dateDecodingStrategy``.
    case jsonDecoderWithDates = "jsondecoder-dates"
    /// `ElevateJSONDecoder` (Codable on the document tape) into ``CodablePerson``, the same model and
    /// envelope as ``jsonDecoder``.
    case tapeCodable = "tape-codable"
    /// As ``tapeCodable``, through the `init(fromTape:)` that `@TapeDecodable` writes (written out
    /// in the models as the macro writes it, checked by `BenchmarkModelExpansionTests`).
    case tapeCodableMacro = "tape-codable-macro"
    /// `ElevateJSONDecoder` into ``CodablePersonWithDate`` with `.formatted("yyyy-MM-dd")`, as
    /// ``jsonDecoderWithDates``.
    case tapeCodableWithDates = "tape-codable-dates"
    /// `Elevate.forEachElement` of ``CodablePerson`` (a `Swift.Decodable` type) from the file,
    /// streaming: the Codable counterpart of ``forEachElement``.
    case tapeCodableForEachElement = "tape-codable-foreachelement"
    /// As ``tapeCodableForEachElement``, with one worker per core.
    case tapeCodableForEachElementParallel = "tape-codable-foreachelement-parallel"
    /// As ``tapeCodableForEachElementParallel``, through `@TapeDecodable`'s `init(fromTape:)`.
    case tapeCodableForEachElementParallelMacro = "tape-codable-foreachelement-parallel-macro"
    /// `AsyncFileChunks(url:chunkSize: 64 KiB).decodedElements(atKeyPath:as: CodablePerson.self)`
    /// in a task: the asynchronous twin of ``tapeCodableForEachElement``.
    case asyncChunks = "async-chunks"
    /// As ``asyncChunks``, from a sequence of single bytes buffered as `URLSession.AsyncBytes` is.
    case asyncBytes = "async-bytes"
    /// As ``asyncChunks``, the loop isolated to an actor on a serial queue, as code on the main
    /// actor is (top-level code, an `@main` type's `main()`).
    case asyncOnActor = "async-on-actor"
    /// `Elevate.forEachMember` of ``CodablePerson`` over an object of people keyed by name (a
    /// "people map", `{"p1": {…}, "p2": {…}, …}`, which `Benchmarks/RESULTS.md` says how to make
    /// from a people document), streaming from the file: the reader of huge objects.
    case membersFile = "elevate-members"
    /// ``membersFile`` with ``StreamingOptions/concurrency`` at one worker per processor: the map
    /// cut into runs of members, which the workers parse and decode.
    case membersFileParallel = "elevate-members-parallel"
    /// `Elevate.forEachValue` of the people as JSON Lines (``BenchmarkInput/jsonLinesFile``) into
    /// ``BenchmarkPerson``, streaming from the file.
    case jsonLines = "elevate-jsonlines"
    /// As ``jsonLines``, with one worker per core.
    case jsonLinesParallel = "elevate-jsonlines-parallel"
    /// `JSONDecoder` of twitter.json into ``TwitterDocument`` (every field, snake-case keys).
    case jsonDecoderTwitter = "jsondecoder-twitter"
    /// `ElevateJSONDecoder` of twitter.json into ``TwitterDocument``, as ``jsonDecoderTwitter``.
    case tapeCodableTwitter = "tape-codable-twitter"
    /// As ``tapeCodableTwitter``, through `@TapeDecodable`'s `init(fromTape:)`.
    case tapeCodableTwitterMacro = "tape-codable-twitter-macro"
    /// `JSONDecoder` of citm_catalog.json into ``CitmCatalog``.
    case jsonDecoderCitm = "jsondecoder-citm"
    /// `ElevateJSONDecoder` of citm_catalog.json into ``CitmCatalog``, as ``jsonDecoderCitm``.
    case tapeCodableCitm = "tape-codable-citm"
    /// As ``tapeCodableCitm``, through `@TapeDecodable`'s `init(fromTape:)`.
    case tapeCodableCitmMacro = "tape-codable-citm-macro"
    /// `ElevateJSONEncoder` encoding the document's people as `[CodablePerson]` (decoded once, before
    /// timing, see ``EncodingWorkload``). MB/s are of the document, as for every contender, so the
    /// two encoders' rows compare directly.
    case elevateEncoder = "elevate-encoder"
    /// `JSONEncoder` encoding the same `[CodablePerson]` as ``elevateEncoder``.
    case jsonEncoder = "jsonencoder"

    /// The name shown in reports.
    public var displayName: String {
        switch self {
        case .cYAJL: "C yajl (null callbacks)"
        case .cYAJLFile: "C yajl (null callbacks, file in 1 MiB chunks)"
        case .countFile: "Elevate count (file in 1 MiB chunks, as elevate count)"
        case .preScan: "Elevate structural pre-scan (split parse, no values)"
        case .elevateEvents: "Elevate events (counting handler)"
        case .elevateValues: "Elevate values"
        case .elevateDocument: "Elevate JSONValue (tape)"
        case .jsonSerialization: "JSONSerialization"
        case .decodeArray: "Elevate decodeArray (birthDate string)"
        case .decodeArrayWithDates: "Elevate decodeArray (DateDecoder, as README)"
        case .decodeArrayFoundationValues: "Elevate decodeArray, [String: Any] elements (old design)"
        case .decodeArrayParallel: "Elevate decodeArray, one worker per core"
        case .decodeArrayOnEveryCore: "Elevate decodeArray, one whole decode on every core at once (per document)"
        case .forEachElement: "Elevate forEachElement (file, streaming)"
        case .forEachElementParallel: "Elevate forEachElement, one worker per core (file, streaming)"
        case .jsonSerializationParseEntity: "JSONSerialization + Elevate parseEntity(json:)"
        case .jsonDecoder: "JSONDecoder (birthDate string)"
        case .jsonDecoderWithDates: "JSONDecoder (.formatted yyyy-MM-dd)"
        case .tapeCodable: "tape Codable (birthDate string)"
        case .tapeCodableMacro: "tape Codable, @TapeDecodable (birthDate string)"
        case .tapeCodableWithDates: "tape Codable (.formatted dates)"
        case .tapeCodableForEachElement: "tape Codable forEachElement (file, streaming)"
        case .tapeCodableForEachElementParallel: "tape Codable forEachElement, one worker per core (file, streaming)"
        case .tapeCodableForEachElementParallelMacro:
            "tape Codable forEachElement, @TapeDecodable, one worker per core (file, streaming)"
        case .asyncChunks: "tape Codable decodedElements, AsyncFileChunks (64 KiB chunks)"
        case .asyncBytes: "tape Codable decodedElements, one byte at a time (buffered, as AsyncBytes)"
        case .asyncOnActor: "tape Codable decodedElements, 64 KiB chunks, loop on an actor (as on the main actor)"
        case .membersFile: "tape Codable forEachMember, an object of people (file, streaming)"
        case .membersFileParallel: "tape Codable forEachMember, an object of people, one worker per core (file, streaming)"
        case .jsonLines: "Elevate forEachValue, JSON Lines (file, streaming)"
        case .jsonLinesParallel: "Elevate forEachValue, JSON Lines, one worker per core (file, streaming)"
        case .jsonDecoderTwitter: "JSONDecoder (TwitterDocument model)"
        case .tapeCodableTwitter: "tape Codable (TwitterDocument model)"
        case .tapeCodableTwitterMacro: "tape Codable, @TapeDecodable (TwitterDocument model)"
        case .jsonDecoderCitm: "JSONDecoder (CitmCatalog model)"
        case .tapeCodableCitm: "tape Codable (CitmCatalog model)"
        case .tapeCodableCitmMacro: "tape Codable, @TapeDecodable (CitmCatalog model)"
        case .elevateEncoder: "ElevateJSONEncoder ([Person] to JSON)"
        case .jsonEncoder: "JSONEncoder ([Person] to JSON)"
        }
    }

    /// Whether the contender decodes people, and so runs only on people-shaped documents.
    public var requiresPeopleDocument: Bool {
        switch self {
        case .cYAJL, .cYAJLFile, .elevateEvents, .countFile, .preScan, .elevateValues, .elevateDocument,
            .jsonSerialization:
            false
        case .jsonDecoderTwitter, .tapeCodableTwitter, .tapeCodableTwitterMacro, .jsonDecoderCitm, .tapeCodableCitm,
            .tapeCodableCitmMacro, .membersFile, .membersFileParallel:
            false
        default: true
        }
    }

    /// The one document a model contender decodes (its file name in the nativejson corpus), or nil
    /// for contenders that read any document of their shape.
    public var requiredDocumentName: String? {
        switch self {
        case .jsonDecoderTwitter, .tapeCodableTwitter, .tapeCodableTwitterMacro: "twitter.json"
        case .jsonDecoderCitm, .tapeCodableCitm, .tapeCodableCitmMacro: "citm_catalog.json"
        case .membersFile, .membersFileParallel: Self.peopleMapName
        default: nil
        }
    }

    /// Whether ``run(on:)`` returns the number of elements decoded (every people contender), which
    /// must then agree across contenders; the others return a checksum.
    public var countsElements: Bool { requiresPeopleDocument }

    /// Whether the contender reads ``BenchmarkInput/file`` rather than ``BenchmarkInput/data``.
    ///
    /// A child process measuring its peak memory then does not load the file first.
    public var readsFile: Bool {
        switch self {
        case .forEachElement, .forEachElementParallel, .tapeCodableForEachElement, .tapeCodableForEachElementParallel,
            .tapeCodableForEachElementParallelMacro,
            .jsonLines, .jsonLinesParallel, .cYAJLFile, .countFile, .asyncChunks, .asyncBytes, .asyncOnActor,
            .membersFile, .membersFileParallel:
            true
        default: false
        }
    }

    /// The contenders that apply to a document.
    /// - Parameters:
    ///   - isPeopleShaped: Whether the document is people-shaped.
    ///   - name: The document's file name, which selects the model contenders of that document
    ///     (``requiredDocumentName``); none by default.
    public static func applicable(toPeopleDocument isPeopleShaped: Bool, named name: String = "") -> [Contender] {
        allCases.filter { contender in
            if let required = contender.requiredDocumentName { return required == name }
            return isPeopleShaped || !contender.requiresPeopleDocument
        }
    }

    /// How many documents one run decodes: the processor count for ``decodeArrayOnEveryCore``, 1
    /// for the others. A run's time is divided by it.
    public var documentsPerRun: Int {
        self == .decodeArrayOnEveryCore ? ProcessInfo.processInfo.activeProcessorCount : 1
    }

    /// What the calling thread of the split parse does with a document (``preScan``): finds the
    /// first array that does not close within a run, as it finds the arrays it may split, then
    /// cuts the array's content into runs of 256 KiB at commas between elements. The scan
    /// starts inside the array (depth 1), where every block that holds an element's end needs
    /// the depth after each of its bytes; from the document's root, with the people array's
    /// elements four levels deep, almost every block was skipped whole, and the scan seemed
    /// twice as fast as it is.
    /// - Returns: The runs cut plus the newlines seen, or the newlines alone when no array is long.
    static func cutFirstLongArray(of bytes: UnsafeRawBufferPointer) -> Int {
        let runByteCount = StreamingOptions().splitBatchByteCount
        var finder = StructuralScanner()
        let mode = StructuralScanner.Mode.findLongContainer(within: runByteCount, objects: false)
        guard case .at(let bracket) = finder.scan(bytes, from: 0, base: 0, mode: mode) else { return finder.newlines }
        var scanner = StructuralScanner()
        var position = bracket + 1
        var runs = 0
        while case .at(let stop) = scanner.scan(
            bytes, from: position, base: 0, mode: .splitArray(cutFrom: position + runByteCount))
        {
            runs += 1
            position = stop + 1
            guard bytes[stop] == UInt8(ascii: ",") else { break }
        }
        return runs + finder.newlines + scanner.newlines
    }

    /// The file name that selects ``membersFile``: an object of people keyed by name.
    public static let peopleMapName = "people-map.json"

    /// The key path of the people array in a people-shaped document.
    public static let peopleKeyPath = "response.items"

    /// Parses `input` completely.
    /// - Parameter input: The document, in memory and on disk.
    /// - Returns: For contenders that ``countsElements``, the number of elements decoded; for the
    ///   others, a number derived from the result, so that the work is not optimized away.
    /// - Throws: The parser's error, or ``ContenderFailure`` when the C baseline rejects the bytes.
    @inline(never)
    public func run(on input: BenchmarkInput) throws -> Int {
        let data = input.data
        switch self {
        case .cYAJL:
            let ok = data.withUnsafeBytes { bytes in
                cyajl_baseline_parse(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count)
            }
            guard ok == 1 else { throw ContenderFailure(contender: self, reason: "YAJL rejected the document") }
            return Int(ok)
        case .cYAJLFile:
            let ok = cyajl_baseline_parse_file(input.file.path, JSONInput.defaultChunkSize)
            guard ok == 1 else { throw ContenderFailure(contender: self, reason: "YAJL rejected the file") }
            return Int(ok)
        case .countFile:
            guard let summary = try summarizeValue(from: .file(input.file), atKeyPath: "") else {
                throw ContenderFailure(contender: self, reason: "no value in the file")
            }
            return summary.count
        case .preScan:
            return data.withUnsafeBytes { Self.cutFirstLongArray(of: $0) }
        case .elevateEvents:
            let handler = CountingHandler()
            let parser = JSONEventParser(handler: handler)
            try parser.parse(data)
            try parser.finish()
            return handler.events
        case .elevateValues:
            return Self.checksum(try JSONValueBuilder.value(from: data))
        case .elevateDocument:
            return try JSONValue(parsing: data).count
        case .jsonSerialization:
            return Self.checksum(try JSONSerialization.jsonObject(with: data))
        case .decodeArray:
            let people: [BenchmarkPerson] = try Elevate.decodeArray(from: data, atKeyPath: Self.peopleKeyPath)
            return people.count
        case .decodeArrayWithDates:
            let people: [BenchmarkPersonWithDate] = try Elevate.decodeArray(
                from: data, atKeyPath: Self.peopleKeyPath)
            return people.count
        case .decodeArrayFoundationValues:
            let people: [BenchmarkPerson] = try withFoundationValues {
                try Elevate.decodeArray(from: data, atKeyPath: Self.peopleKeyPath)
            }
            return people.count
        case .decodeArrayParallel:
            var options = StreamingOptions()
            options.concurrency = StreamingOptions.automaticConcurrency
            let people: [BenchmarkPerson] = try Elevate.decodeArray(
                from: .data(data), atKeyPath: Self.peopleKeyPath, options: options)
            return people.count
        case .decodeArrayOnEveryCore:
            let counts = LockedBox([Int]())
            DispatchQueue.concurrentPerform(iterations: documentsPerRun) { _ in
                let count = try? (Elevate.decodeArray(from: data, atKeyPath: Self.peopleKeyPath) as [BenchmarkPerson])
                    .count
                counts.withLock { $0.append(count ?? -1) }
            }
            // Every decode must have found every person.
            let all = counts.withLock { $0 }
            guard let first = all.first, all.allSatisfy({ $0 == first && $0 >= 0 }) else {
                throw ContenderFailure(contender: self, reason: "the decodes disagreed: \(all)")
            }
            return first
        case .forEachElement:
            var count = 0
            let delivered = try Elevate.forEachElement(
                from: .file(input.file), atKeyPath: Self.peopleKeyPath, as: BenchmarkPerson.self
            ) { _ in count += 1 }
            guard delivered == count else {
                throw ContenderFailure(contender: self, reason: "returned \(delivered), delivered \(count)")
            }
            return count
        case .forEachElementParallel:
            var options = StreamingOptions()
            options.concurrency = StreamingOptions.automaticConcurrency
            var count = 0
            try Elevate.forEachElement(
                from: .file(input.file), atKeyPath: Self.peopleKeyPath, as: BenchmarkPerson.self, options: options
            ) { _ in count += 1 }
            return count
        case .jsonSerializationParseEntity:
            let root = try JSONSerialization.jsonObject(with: data)
            guard let response = (root as? [String: Any])?["response"] as? [String: Any],
                let items = response["items"] as? [Any]
            else { throw ContenderFailure(contender: self, reason: "no array at response.items") }
            let people = try items.map { try BenchmarkPerson(json: $0) }
            return people.count
        case .jsonDecoder:
            return try JSONDecoder().decode(CodablePeopleResponse<CodablePerson>.self, from: data).response.items.count
        case .jsonDecoderWithDates:
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = CodablePersonWithDate.dateDecodingStrategy
            return try decoder.decode(CodablePeopleResponse<CodablePersonWithDate>.self, from: data).response.items
                .count
        case .tapeCodable, .tapeCodableMacro:
            let decoder = Self.tapeDecoder(generated: self == .tapeCodableMacro)
            return try decoder.decode(CodablePeopleResponse<CodablePerson>.self, from: data).response.items.count
        case .elevateEncoder:
            let people = try EncodingWorkload.shared.people(of: input)
            let data = try ElevateJSONEncoder().encode(people)
            return data.isEmpty ? 0 : people.count
        case .jsonEncoder:
            let people = try EncodingWorkload.shared.people(of: input)
            let data = try JSONEncoder().encode(people)
            return data.isEmpty ? 0 : people.count
        case .tapeCodableWithDates:
            let decoder = Self.tapeDecoder()
            decoder.dateDecodingStrategy = CodablePersonWithDate.elevateDateDecodingStrategy
            return try decoder.decode(CodablePeopleResponse<CodablePersonWithDate>.self, from: data).response.items
                .count
        case .jsonLines, .jsonLinesParallel:
            guard let file = input.jsonLinesFile else {
                throw ContenderFailure(contender: self, reason: "no JSON Lines copy of the people document")
            }
            var options = StreamingOptions()
            if self == .jsonLinesParallel { options.concurrency = StreamingOptions.automaticConcurrency }
            var count = 0
            try Elevate.forEachValue(from: .file(file), framing: .jsonLines, as: BenchmarkPerson.self, options: options)
            {
                _ in count += 1
            }
            return count
        case .jsonDecoderTwitter:
            let decoder = JSONDecoder()
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            return try decoder.decode(TwitterDocument.self, from: data).statuses.count
        case .tapeCodableTwitter, .tapeCodableTwitterMacro:
            let decoder = Self.tapeDecoder(generated: self == .tapeCodableTwitterMacro)
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            return try decoder.decode(TwitterDocument.self, from: data).statuses.count
        case .jsonDecoderCitm:
            return try JSONDecoder().decode(CitmCatalog.self, from: data).performances.count
        case .tapeCodableCitm, .tapeCodableCitmMacro:
            let decoder = Self.tapeDecoder(generated: self == .tapeCodableCitmMacro)
            return try decoder.decode(CitmCatalog.self, from: data).performances.count
        case .tapeCodableForEachElement, .tapeCodableForEachElementParallel, .tapeCodableForEachElementParallelMacro:
            var options = StreamingOptions()
            if self != .tapeCodableForEachElement { options.concurrency = StreamingOptions.automaticConcurrency }
            var count = 0
            try Elevate.forEachElement(
                from: .file(input.file), atKeyPath: Self.peopleKeyPath, as: CodablePerson.self,
                decoder: Self.tapeDecoder(generated: self == .tapeCodableForEachElementParallelMacro), options: options
            ) { _ in count += 1 }
            return count
        case .asyncChunks, .asyncBytes, .asyncOnActor:
            return try runAsync(file: input.file)
        case .membersFile, .membersFileParallel:
            var options = StreamingOptions()
            if self == .membersFileParallel { options.concurrency = StreamingOptions.automaticConcurrency }
            var count = 0
            try Elevate.forEachMember(
                from: .file(input.file), as: CodablePerson.self, decoder: Self.tapeDecoder(), options: options
            ) { _, _ in count += 1 }
            return count
        }
    }

    /// The decoder of the tape Codable contenders: through `init(from:)`, as for any Codable type,
    /// unless `generated`, where the models' `@TapeDecodable` expansions are used.
    static func tapeDecoder(generated: Bool = false) -> ElevateJSONDecoder {
        let decoder = ElevateJSONDecoder()
        decoder.usesTapeDecodable = generated
        return decoder
    }

    /// The count of a tree's top level: cheap, and it depends on the whole parse.
    private static func checksum(_ value: Any) -> Int {
        if let object = value as? [String: Any] { return object.count }
        if let array = value as? [Any] { return array.count }
        return 1
    }
}

/// A contender rejected a document it should accept, or decoded a different number of elements
/// than the others.
public struct ContenderFailure: Error, Sendable, CustomStringConvertible {
    /// The contender that failed.
    public var contender: Contender
    /// What went wrong.
    public var reason: String

    /// Creates a failure.
    /// - Parameters:
    ///   - contender: See ``contender``.
    ///   - reason: See ``reason``.
    public init(contender: Contender, reason: String) {
        self.contender = contender
        self.reason = reason
    }

    /// `"<contender>: <reason>"`.
    public var description: String { "\(contender.displayName): \(reason)" }
}
