import Foundation
import ElevateTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs `elevate` with `arguments` (output to /dev/null) and returns its exit status and peak
/// resident set in KiB, read from `wait4`'s resource usage of that one child, so that nothing else
/// this process runs can move the number.
private func peakOfElevate(_ arguments: [String]) throws -> (status: Int32, peakKiB: Int) {
    let argv = ([ElevateBinary.url!.path] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, argv[0]!, &actions, nil, argv, environ)
    guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 {
        guard errno == EINTR else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }
    // ru_maxrss is in KiB on Linux.
    return ((status >> 8) & 0xFF, Int(usage.ru_maxrss))
}

/// Writes `{"k0000000":0,"k0000001":1,…}` with `count` distinct keys.
private func writeObject(keys count: Int, to url: URL) throws {
    var text = Data("{".utf8)
    text.reserveCapacity(count * 16)
    for index in 0..<count {
        if index > 0 { text.append(UInt8(ascii: ",")) }
        text.append(contentsOf: "\"k\(String(index + 10_000_000).dropFirst())\":\(index % 10)".utf8)
    }
    text.append(UInt8(ascii: "}"))
    try text.write(to: url)
}

/// "Every command streams in bounded memory" (README): checked on the tool itself, as a growth of
/// its peak resident set over the same command on a tiny file, not as a timing.
@Suite(
    .serialized,
    .enabled(if: ElevateBinary.url != nil, ElevateBinary.missingMessage),
    .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/status"), "needs Linux's ru_maxrss in KiB"))
struct CommandMemoryTests {
    /// `validate` of an object of a million keys (16 MB) keeps none of them: it used to count the
    /// root's members through `count`'s pass, which keeps every key to count a repeat once, only
    /// to throw the count away (12 million keys peaked at 365 MiB).
    @Test func validateKeepsNoKeysOfAHugeRootObject() throws {
        let scratch = try ScratchDirectory()
        let big = scratch.url.appendingPathComponent("keys.json")
        try writeObject(keys: 1_000_000, to: big)
        let tiny = try scratch.file("tiny.json", #"{"a":1}"#)
        // Not with --reject-duplicate-keys, which must keep each open object's keys to find a repeat.
        for flags in [[], ["--verbose"]] {
            let idle = try peakOfElevate(["validate"] + flags + [tiny])
            let run = try peakOfElevate(["validate"] + flags + [big.path])
            #expect(idle.status == 0 && run.status == 0)
            let growth = run.peakKiB - idle.peakKiB
            // Counting kept 10-byte keys plus a table: about 40 MiB more here. Keeping none, the
            // growth is about 0, but up to 17 MiB was seen while other suites loaded the machine
            // (the child's peak, not this process's): the bound sits between the two.
            #expect(growth < 24 << 10, "validate \(flags) grew by \(growth >> 10) MiB over a 16 MB object")
        }
    }

    /// A gzip bomb of whitespace, 128 MiB of text in about 128 KB, is inflated whole (whitespace
    /// between tokens has no limit) in the memory of a tiny file: the inflater writes into the
    /// same few chunk buffers whatever the compression ratio.
    @Test func countInflatesAGzipBombInBoundedMemory() throws {
        let scratch = try ScratchDirectory()
        let bomb = scratch.url.appendingPathComponent("bomb.json.gz")
        let spaces = [UInt8](repeating: 0x20, count: 1 << 20)
        try GzipFixture.member(prefix: Array("[".utf8), repeating: spaces, times: 128, suffix: Array("1]".utf8)).write(to: bomb)
        let tiny = try scratch.file("tiny.json", "[1]")
        let idle = try peakOfElevate(["count", tiny])
        let run = try peakOfElevate(["count", bomb.path])
        #expect(idle.status == 0 && run.status == 0)
        let growth = run.peakKiB - idle.peakKiB
        // The inflating thread's buffers and zlib's window: about 5 MiB. The margin is the one the
        // test above allows for a loaded machine.
        #expect(growth < 24 << 10, "count grew by \(growth >> 10) MiB over a 128 MiB gzip bomb")
    }

    /// `extract --pretty` of deeply nested elements, each 1 KB of input and half a megabyte
    /// indented. Found by an attacker's run: with two jobs, the workers of the split parse held
    /// their runs' indented text (584 MiB for a 1 MB file into a 500 MB output); indented output
    /// is now written by one thread, in the memory of any other.
    @Test func indentedExtractHoldsNoWorkersText() throws {
        let scratch = try ScratchDirectory()
        let nested = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        let file = try scratch.file(
            "nested.json", #"{"a":["# + Array(repeating: nested, count: 300).joined(separator: ",") + "]}")
        let tiny = try scratch.file("tiny.json", #"{"a":[1]}"#)
        for path in ["a.*", "a", ""] {
            let idle = try peakOfElevate(["extract", "--pretty", "--jobs", "2", "--key-path", path, tiny])
            let run = try peakOfElevate(["extract", "--pretty", "--jobs", "2", "--key-path", path, file])
            #expect(idle.status == 0 && run.status == 0)
            let growth = run.peakKiB - idle.peakKiB
            // One thread holds a value up to 16 MiB for an output it cannot truncate; the margin
            // is the one the tests above allow for a loaded machine.
            #expect(growth < 40 << 10, "extract --pretty at '\(path)' grew by \(growth >> 10) MiB")
        }
    }
}
