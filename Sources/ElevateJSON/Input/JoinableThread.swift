#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif

/// A POSIX thread that runs one closure and that its starter joins: `pthread_join` returns only
/// once the thread is gone, which Foundation's `Thread` cannot promise (it has no join), so a call
/// that starts one can end with no thread of its left running.
///
/// The closure is handed to the thread through an opaque pointer, not checked as `Sendable`: the
/// caller shares with it only what it has made safe to share (see ``GzipReading``).
final class JoinableThread {
    private let thread: pthread_t
    private var isJoined = false

    /// What the thread runs, kept alive by the thread until it ends.
    private final class Body {
        let name: String
        let run: () -> Void
        init(name: String, run: @escaping () -> Void) {
            self.name = name
            self.run = run
        }
    }

    private init(thread: pthread_t) {
        self.thread = thread
    }

    /// Starts `body` on a new thread.
    /// - Parameters:
    ///   - name: What `top -H` and debuggers show (on Linux; 15 bytes at most).
    ///   - body: What the thread runs.
    /// - Returns: The thread, to be joined; nil when the system cannot start one.
    static func start(named name: String, _ body: @escaping () -> Void) -> JoinableThread? {
        let context = Unmanaged.passRetained(Body(name: name, run: body)).toOpaque()
        #if canImport(Darwin)
            var thread: pthread_t?
        #else
            var thread = pthread_t()
        #endif
        let status = pthread_create(
            &thread, nil,
            { context in
                let pointer: UnsafeMutableRawPointer? = context
                let body = Unmanaged<Body>.fromOpaque(pointer!).takeRetainedValue()
                JoinableThread.nameCurrentThread(body.name)
                body.run()
                return nil
            }, context)
        guard status == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            return nil
        }
        #if canImport(Darwin)
            return JoinableThread(thread: thread!)
        #else
            return JoinableThread(thread: thread)
        #endif
    }

    /// Waits until the thread has ended.
    func join() {
        guard !isJoined else { return }
        isJoined = true
        pthread_join(thread, nil)
    }

    deinit {
        // Never leave the thread running past its owner.
        join()
    }

    /// Names the calling thread through `/proc` (Foundation's `Thread.name` does not reach the
    /// system on Linux, and glibc declares `pthread_setname_np` only under `_GNU_SOURCE`).
    fileprivate static func nameCurrentThread(_ name: String) {
        #if canImport(Glibc)
            let file = open("/proc/thread-self/comm", O_WRONLY)
            guard file >= 0 else { return }
            var name = name
            _ = name.withUTF8 { write(file, $0.baseAddress, min($0.count, 15)) }
            close(file)
        #endif
    }
}
