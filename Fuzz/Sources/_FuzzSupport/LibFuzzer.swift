internal import CLibFuzzer

/// Hands control to libFuzzer, which calls `testOneInput` with each input and never returns
/// normally (it exits with its own status).
///
/// Every target also exports its function as `LLVMFuzzerTestOneInput`, so it links with plain
/// `swiftc -sanitize=fuzzer` too.
public func runLibFuzzer(_ testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> Never {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    let status = LLVMFuzzerRunDriver(&argc, &argv, testOneInput)
    exit(status)
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
