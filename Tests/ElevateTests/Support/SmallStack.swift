import ElevateTestSupport

/// Runs `body` on a thread with a 512 KiB stack (the smallest `JSONParsingOptions` promises
/// its depth ceiling for) and waits for it.
func onSmallStack(_ body: @escaping @Sendable () -> Void) {
    _ = runOnThread(stackSize: 512 << 10, body)
}
