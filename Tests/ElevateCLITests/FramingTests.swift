import ElevateTestSupport
import Foundation
import Testing

/// `--framing`: `count`, `validate` and `extract` read a stream of values (JSON Lines,
/// concatenated values as jq reads them, RFC 7464 text sequences) as well as one document (#29 §7).
@Suite(.enabled(if: ElevateBinary.url != nil, ElevateBinary.missingMessage))
struct FramingTests {
    /// Concatenated values, with and without whitespace between them: each checked and counted;
    /// whitespace alone holds no values; a value cut short is an error at its place.
    /// With several jobs, workers count runs of whole values; the counts and errors are one job's.
    @Test(arguments: ["1", "2"])
    func countAndValidateReadConcatenatedValues(jobs: String) throws {
        let scratch = try ScratchDirectory()
        let framing = ["--jobs", jobs, "--framing", "concatenated"]
        let run = { (arguments: [String]) in try ElevateBinary.run(arguments, in: scratch.url) }
        let good = try scratch.file("values.json", "{\"a\": 1} [2,3]\n\"x\"4 null")
        #expect(try run(["count"] + framing + [good]).output == "5\n")
        let verbose = try run(["validate", "--verbose"] + framing + [good])
        #expect(verbose.status == 0 && verbose.standardError.contains("valid (5 values, 8 in all)"), "\(verbose.standardError)")
        let blank = try scratch.file("blank.json", " \n\t ")
        #expect(try run(["count"] + framing + [blank]).output == "0\n")
        let cut = try scratch.file("cut.json", "{\"a\": 1}\n[2,")
        let failing = try run(["validate"] + framing + [cut])
        #expect(failing.status == 1 && failing.standardError.hasPrefix("\(cut):2:4: error: "), "\(failing.standardError)")
        let bad = try scratch.file("bad.json", "{\"a\": 1}{\"a\": 1 \"b\"}")
        #expect(try run(["count"] + framing + [bad]).standardError.hasPrefix("\(bad):1:17: error: "))
        // Comments may hold brackets: such input is read by one thread.
        let commented = try scratch.file("commented.json", "{\"a\": 1} /* } ] */ [2, // ]\n3]")
        #expect(try run(["count", "--allow-comments"] + framing + [commented]).output == "2\n")
        // One document with two values is still an error without the option.
        #expect(try scratch.run("validate", good).status == 1)
    }

    /// JSON Lines and text sequences through `--framing`, as `--json-lines` reads them; with
    /// several jobs, workers read runs of whole lines or records.
    @Test(arguments: ["1", "2"])
    func countReadsEveryFraming(jobs: String) throws {
        let scratch = try ScratchDirectory()
        let run = { (arguments: [String]) in try ElevateBinary.run(arguments, in: scratch.url) }
        let lines = try scratch.file("log.jsonl", "{\"a\": 1}\n\n[1, 2]\n")
        #expect(try run(["count", "--jobs", jobs, "--framing", "json-lines", lines]).output == "2\n")
        let records = try scratch.file("log.json-seq", "\u{1E}{\"a\": 1}\n\u{1E}[1,\n 2]\n")
        #expect(try run(["count", "--jobs", jobs, "--framing", "json-seq", records]).output == "2\n")
        let badRecord = try scratch.file("bad.json-seq", "\u{1E}{\"a\": 1}\n\u{1E}[1,\n x]\n")
        let failing = try run(["validate", "--jobs", jobs, "--framing", "json-seq", badRecord])
        #expect(failing.status == 1 && failing.standardError.hasPrefix("\(badRecord):3:2: error: record 2: "), "\(failing.standardError)")
        let extracted = try run(["extract", "--jobs", jobs, "--framing", "json-seq", "--key-path", "a", records])
        #expect(extracted.status == 3 && extracted.output == "1\n", "\(extracted.output)")
        // Contradictions and a key path (count counts the values) are usage errors.
        #expect(try scratch.run("count", "--json-lines", "--framing", "concatenated", lines).status == 64)
        #expect(try scratch.run("count", "--framing", "concatenated", "--key-path", "a", lines).status == 64)
    }

    /// `extract` prints the key path in each value, each found value on its own line (jq's
    /// `jq -c .a`), numbers as written; values without it are named after the output (jq would
    /// print null), with status 3.
    @Test func extractReadsAStreamOfValues() throws {
        let scratch = try ScratchDirectory()
        let lines = try scratch.file(
            "x.jsonl", "{\"a\":{\"b\":[1,2]},\"n\":\"x\"}\n{\"a\":{\"b\":[3]},\"n\":\"y\"}\n{\"n\":\"z\",\"big\":1.50}\n")
        let found = try scratch.run("extract", "--framing", "json-lines", "--key-path", "a.b", lines)
        #expect(found.status == 3 && found.output == "[1,2]\n[3]\n", "\(found.output)")
        #expect(found.standardError.contains("in 1 of the 3 values") && found.standardError.contains("line 3"))
        #expect(try scratch.run("extract", "--framing", "json-lines", "-r", "--key-path", "n", lines).output == "x\ny\nz\n")
        #expect(try scratch.run("extract", "--framing", "json-lines", "--json-lines", "--key-path", "a.b", lines).output == "1\n2\n3\n")
        #expect(try scratch.run("extract", "--framing", "json-lines", "--key-path", "a.b.*", lines).output == "1\n2\n3\n")

        let concatenated = try scratch.file("c.json", "{\"n\":1.50}{\"n\":2e5} {\"n\":[1,\n2]}")
        let all = try scratch.run("extract", "--framing", "concatenated", "--key-path", "n", concatenated)
        #expect(all.status == 0 && all.output == "1.50\n2e5\n[1,2]\n")
        // Standard input, and a value cut short: the values before it, then the error.
        let cut = try ElevateBinary.run(
            ["extract", "--framing", "concatenated", "--key-path", "n", "-"], input: Data("{\"n\":1}{\"n\":".utf8),
            in: scratch.url)
        #expect(cut.status == 1 && cut.output == "1\n" && cut.standardError.hasPrefix("-:1:13: error: "), "\(cut.standardError)")
        let empty = try ElevateBinary.run(["extract", "--framing", "concatenated", "-"], in: scratch.url)
        #expect(empty.status == 0 && empty.output.isEmpty)
    }

    /// The key path repeated in a value after its first value was printed is an error at the key,
    /// on its line (it escaped as an unknown error, status 2, in JSON Lines).
    @Test func aRepeatedKeyPathIsAnErrorOnItsLine() throws {
        let scratch = try ScratchDirectory()
        for (framing, text, place) in [
            ("json-lines", "{\"b\":0}\n{\"a\":1,\"a\":2}\n", "2:8"), ("concatenated", "{\"a\":1,\"a\":2}", "1:8"),
        ] {
            let file = try scratch.file("repeat-\(framing).json", text)
            let result = try scratch.run("extract", "--framing", framing, "--key-path", "a", file)
            #expect(result.status == 1 && result.standardError.hasPrefix("\(file):\(place): error: Key path [a] appears more than once"),
                "\(framing): \(result.standardError)")
        }
    }

    /// `--json-lines` over a stream of values, where one value's key path holds no array: the
    /// elements printed before it stay printed, as for bad input (they were lost, held in the
    /// output's buffer, with one job).
    @Test func aValueThatIsNotAnArrayEndsTheLinesAfterThoseBeforeIt() throws {
        let scratch = try ScratchDirectory()
        let file = try scratch.file("na.jsonl", "{\"a\":[1,2]}\n{\"a\":[3]}\n{\"a\":4}\n{\"a\":[5]}\n")
        for jobs in ["1", "2"] {
            let result = try scratch.run("extract", "--jobs", jobs, "--framing", "json-lines", "--json-lines", "--key-path", "a", file)
            #expect(result.status == 4 && result.output == "1\n2\n3\n", "\(jobs) jobs: \(result.output.debugDescription)")
            #expect(result.standardError.contains("is not an array"), "\(result.standardError)")
        }
    }

    /// `extract --framing json-lines` with several jobs (workers write runs of lines' values)
    /// prints exactly what one job prints: found, missing, wildcard and raw values, and a damaged
    /// line (lines longer than the workers hold: `ValueWritingTests`, with runs of a few bytes).
    @Test func extractFromJSONLinesOnSeveralJobsPrintsWhatOneJobPrints() throws {
        let scratch = try ScratchDirectory()
        let lines = (0..<3_000).map { index in
            index % 7 == 3
                ? #"{"id": \#(index), "tags": ["a", "b\n"]}"#
                : #"{"id": \#(index), "name": "n\#(index)\u2028", "tags": ["a", "b,]"], "s": "x\"y"}"#
        }
        var damaged = lines
        damaged[2_100] = #"{"id": 2100, "name": "n2100" "tags": []}"#
        let texts = [("good.jsonl", lines.joined(separator: "\n") + "\n"), ("bad.jsonl", damaged.joined(separator: "\n"))]
        for (name, text) in texts {
            let file = try scratch.file(name, text)
            for extra in [["--key-path", "name"], ["-r", "--key-path", "name"], ["--key-path", "tags.*"], ["--json-lines", "--key-path", "tags"]] {
                let arguments = { (jobs: String) in ["extract", "--jobs", jobs, "--framing", "json-lines"] + extra + [file] }
                let reference = try ElevateBinary.run(arguments("1"), in: scratch.url)
                let split = try ElevateBinary.run(arguments("2"), in: scratch.url)
                #expect(split.status == reference.status && split.output == reference.output, "\(name) \(extra)")
                #expect(split.standardError == reference.standardError, "\(name) \(extra)")
            }
        }
    }

    /// A live run of `elevate` reading a pipe that stays open: `first` is written, the output
    /// must become `expectedFirst` while the pipe is open; then `rest`, and the pipe closes.
    /// - Returns: Whether the first output came while the pipe was open, and the exit status and
    ///   output at the end.
    private func runLive(
        _ arguments: [String], in scratch: ScratchDirectory, first: String, expectedFirst: String, rest: String
    ) throws -> (arrivedLive: Bool, status: Int32, output: String) {
        let outURL = scratch.url.appendingPathComponent("out-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        let output = try FileHandle(forWritingTo: outURL)
        let input = Pipe()
        let process = Process()
        process.executableURL = ElevateBinary.url!
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        let printed = { String(decoding: (try? Data(contentsOf: outURL)) ?? Data(), as: UTF8.self) }
        try input.fileHandleForWriting.write(contentsOf: Data(first.utf8))
        // Up to 20 s for the first output, with the pipe still open.
        for _ in 0..<400 where printed() != expectedFirst { Thread.sleep(forTimeInterval: 0.05) }
        let arrivedLive = printed() == expectedFirst
        try input.fileHandleForWriting.write(contentsOf: Data(rest.utf8))
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        try output.close()
        return (arrivedLive, process.terminationStatus, printed())
    }

    /// One document arriving slowly (`curl … | elevate extract --json-lines --key-path items -`):
    /// each element is printed once it has arrived, while the input stays open, with one job or
    /// several, and so is each match of a wildcard path (they were printed only when the output
    /// buffer filled, or at the end).
    @Test(arguments: ["1", "2"])
    func aDocumentsElementsArePrintedAsTheyArrive(jobs: String) throws {
        let scratch = try ScratchDirectory()
        let forms: [(name: String, arguments: [String], first: String, second: String)] = [
            ("--json-lines", ["--json-lines", "--key-path", "items"], #"{"name":"first"}"#, #"{"name":"second"}"#),
            ("wildcard", ["--key-path", "items.*.name"], #""first""#, #""second""#),
        ]
        for form in forms {
            let run = try runLive(
                ["extract", "--jobs", jobs] + form.arguments + ["-"], in: scratch,
                first: #"{"items": [{"name": "first"}, "#, expectedFirst: form.first, rest: #"{"name": "second"}]}"#)
            #expect(run.arrivedLive, "\(form.name), \(jobs) jobs: nothing while the input was open")
            #expect(
                run.status == 0 && run.output == form.first + "\n" + form.second + "\n",
                "\(form.name), \(jobs) jobs: \(run.output.debugDescription)")
        }
    }

    /// A live stream of values (`tail -f log | elevate extract --framing json-lines …`): each
    /// value is printed once its line has arrived, while the input stays open, with one job or
    /// several (it was printed only when the output buffer filled, or at the end). A record of a
    /// text sequence may span lines: only the next separator ends it for the workers.
    @Test(arguments: ["1", "2"])
    func aLiveStreamsValuesArePrintedAsTheyArrive(jobs: String) throws {
        let scratch = try ScratchDirectory()
        for framing in ["json-lines", "concatenated", "json-seq"] {
            let separator = framing == "json-seq" ? "\u{1E}" : ""
            let run = try runLive(
                ["extract", "--jobs", jobs, "--framing", framing, "--key-path", "name", "-"], in: scratch,
                first: separator + "{\"name\": \"first\"}\n" + separator, expectedFirst: "\"first\"",
                rest: "{\"name\": \"second\"}\n")
            #expect(run.arrivedLive, "\(framing), \(jobs) jobs: nothing while the input was open")
            #expect(run.status == 0 && run.output == "\"first\"\n\"second\"\n", "\(framing), \(jobs) jobs")
        }
    }

    /// Gzip cut short (or damaged) after many values: every value its readable part completes is
    /// printed before the error, with one job as with two (both printed only the first megabyte's,
    /// and two jobs fewer than one); a syntax error in that part is the error, also for a document.
    @Test func gzipCutShortPrintsWhatItsTextHoldsWithAnyJobs() throws {
        let scratch = try ScratchDirectory()
        let lines = (0..<60_000).map { #"{"name": "n\#($0)", "tags": [1, 2]}"# + "\n" }.joined()
        let gzip = GzipFixture.member(Array(lines.utf8), level: 0)
        let cut = try scratch.file("cut.jsonl", "")
        try gzip.prefix(1_500_000).write(to: URL(fileURLWithPath: cut))
        let renamed = cut + ".gz"
        try FileManager.default.moveItem(atPath: cut, toPath: renamed)
        // Stored blocks hold the text as it is, after a few bytes of header each: the readable
        // part is all but a few hundred of the 1,500,000 bytes.
        let atLeast = lines.utf8.prefix(1_490_000).filter { $0 == UInt8(ascii: "\n") }.count
        var outputs: [String] = []
        for jobs in ["1", "2"] {
            let result = try scratch.run("extract", "--jobs", jobs, "-r", "--framing", "json-lines", "--key-path", "name", renamed)
            #expect(result.status == 2 && result.standardError.contains("truncated"), "\(jobs) jobs: \(result.standardError)")
            let printed = result.output.split(separator: "\n")
            #expect(printed.count >= atLeast && printed.last == "n\(printed.count - 1)", "\(jobs) jobs: \(printed.count) of \(atLeast)")
            outputs.append(result.output)
        }
        #expect(outputs[0] == outputs[1])
        let document = "{\"items\": [" + (0..<200_000).map { #"{"n": \#($0)}"# }.joined(separator: ",") + "]}"
        var damaged = Array(document.utf8)
        damaged.insert(UInt8(ascii: "x"), at: 1_200_000)
        let badFile = try scratch.file("bad.json", "")
        try GzipFixture.member(damaged, level: 0).prefix(1_400_000).write(to: URL(fileURLWithPath: badFile))
        try FileManager.default.moveItem(atPath: badFile, toPath: badFile + ".gz")
        for jobs in ["1", "2"] {
            for command in [["validate"], ["count", "--key-path", "items"], ["extract", "--json-lines", "--key-path", "items"]] {
                let result = try ElevateBinary.run(command + ["--jobs", jobs, badFile + ".gz"], in: scratch.url)
                #expect(result.status == 1 && result.standardError.contains("error: "), "\(command), \(jobs) jobs: \(result.standardError)")
            }
        }
    }

    /// A huge value in a stream passes in bounded memory: nothing is built for count or validate.
    @Test func aLargeValueInAStreamIsNotBuilt() throws {
        let scratch = try ScratchDirectory()
        let big = "[" + Array(repeating: "{\"k\":[1,2,3]}", count: 200_000).joined(separator: ",") + "]"
        let file = try scratch.file("big.jsonl", "1\n" + big + "\n2\n")
        #expect(try scratch.run("count", "--framing", "concatenated", file).output == "3\n")
        let verbose = try scratch.run("validate", "-v", "--framing", "json-lines", file)
        #expect(verbose.status == 0, "\(verbose.standardError)")
    }

    /// `extract --json-lines` with several jobs (split parse: workers write runs of elements'
    /// lines) prints exactly what one job prints, on a valid and a damaged file, raw or not.
    @Test func extractJSONLinesOnSeveralJobsPrintsWhatOneJobPrints() throws {
        let scratch = try ScratchDirectory()
        let items = (0..<3_000).map { #"{"id": \#($0), "name": "n\#($0)", "tags": ["a", "b,]"], "s": "x\"y"}"# }
        let good = #"{"response": {"items": ["# + items.joined(separator: ",\n") + "]}}"
        var damaged = items
        damaged[2_100] = #"{"id": 2100, "name": "n2100" "tags": []}"#
        let bad = #"{"response": {"items": ["# + damaged.joined(separator: ",\n") + "]}}"
        for (name, text) in [("good.json", good), ("bad.json", bad)] {
            let file = try scratch.file(name, text)
            for extra in [[], ["-r", "--key-path", "response.items.5.tags"]] {
                let arguments = ["extract", "--json-lines", "--key-path", "response.items"] + extra + [file]
                var one = arguments
                one.insert(contentsOf: ["--jobs", "1"], at: 1)
                var two = arguments
                two.insert(contentsOf: ["--jobs", "2"], at: 1)
                let reference = try ElevateBinary.run(one, in: scratch.url)
                let split = try ElevateBinary.run(two, in: scratch.url)
                #expect(split.status == reference.status && split.output == reference.output, "\(name) \(extra)")
                #expect(split.standardError == reference.standardError, "\(name) \(extra)")
                #expect(reference.status == (name == "good.json" ? 0 : 1), "\(name) \(extra): \(reference.standardError)")
            }
        }
    }

    /// `extract` of one document with several jobs prints exactly what one job prints: a wildcard
    /// path (workers write what the rest of the path leads to in runs of the elements), plain,
    /// raw, indented and `--json-lines`; a value and the whole document, compact and indented
    /// (workers write runs of each array's elements in place). On a valid file, a damaged one and
    /// one whose element repeats a key the path names.
    @Test func extractOfOneDocumentOnSeveralJobsPrintsWhatOneJobPrints() throws {
        let scratch = try ScratchDirectory()
        let items = (0..<6_000).map { #"{"id": \#($0), "name": "n\#($0)", "tags": ["a", "b,]"], "s": "x\"y"}"# }
        var damaged = items
        damaged[4_100] = #"{"id": 4100, "name": "n4100" "tags": []}"#
        var repeated = items
        repeated[4_200] = #"{"id": 4200, "name": "n4200", "tags": [], "name": "again"}"#
        let files = [("good.json", items), ("bad.json", damaged), ("repeated.json", repeated)].map { name, items in
            (name, #"{"response": {"items": ["# + items.joined(separator: ",\n") + "]}}")
        }
        let forms = [
            ["--key-path", "response.items.*.name"], ["-r", "--key-path", "response.items.*.name"],
            ["--pretty", "--key-path", "response.items.*.tags"], ["--json-lines", "--key-path", "response.items.*.tags"],
            ["--key-path", "response.items.*"], ["--key-path", "response.items"], ["--pretty", "--key-path", "response"],
            [],
        ]
        for (name, text) in files {
            let file = try scratch.file(name, text)
            for form in forms {
                let arguments = { (jobs: String) in ["extract", "--jobs", jobs] + form + [file] }
                let reference = try ElevateBinary.run(arguments("1"), in: scratch.url)
                let split = try ElevateBinary.run(arguments("2"), in: scratch.url)
                #expect(split.status == reference.status && split.output == reference.output, "\(name) \(form)")
                #expect(split.standardError == reference.standardError, "\(name) \(form)")
                // A repeated key is an error only where the path names it and its value was written.
                let fails = name == "bad.json" || name == "repeated.json" && form.last?.hasSuffix(".name") == true
                #expect(reference.status == (fails ? 1 : 0), "\(name) \(form): \(reference.standardError)")
            }
        }
    }
}
